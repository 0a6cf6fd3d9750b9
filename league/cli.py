"""``rummy-table league``: the league server (operator) and this table's sync.

Operator commands (``--dsn`` of an operator or the database owner; ``$RUMMY_LEAGUE_DSN``):

    rummy-table league migrate                    create or update the schema
    rummy-table league add-venue NAME
    rummy-table league add-table --venue NAME TABLE_NAME   prints the table's login ONCE
    rummy-table league add-player NAME [--pin N] --venue V [--venue W]
                                                  (the PIN is asked without echo when not given)
    rummy-table league enrol PLAYER_ID --venue V  a player may play at another venue too
    rummy-table league reset-table TABLE_ID       a new password for a table, printed ONCE
    rummy-table league rate                       recompute ratings (openskill)
    rummy-table league standings [--game G] [--season S] [--venue V]

On a table (the ``[league]`` section of its config):

    rummy-table league status                     matches waiting, last sync, cached venue
    rummy-table league sync                       send the outbox now (once)
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from pathlib import Path
from typing import Any


def _connect(args: argparse.Namespace) -> Any:
    import psycopg

    dsn = args.dsn or os.environ.get("RUMMY_LEAGUE_DSN")
    if not dsn:
        raise SystemExit("rummy-table league: give --dsn (or set RUMMY_LEAGUE_DSN)")
    return psycopg.connect(dsn, autocommit=True)


def _migrate(args: argparse.Namespace) -> int:
    from league import schema

    with _connect(args) as conn:
        before = schema.current_version(conn)
        applied = schema.migrate(conn, args.to)
        after = schema.current_version(conn)
    print(f"schema version {before} -> {after}" + (f" (applied {applied})" if applied else
                                                    " (up to date)"))
    return 0


def _add_venue(args: argparse.Namespace) -> int:
    from league import admin

    with _connect(args) as conn:
        vid = admin.add_venue(conn, args.name)
    print(f"venue {vid}: {args.name}")
    return 0


def _add_table(args: argparse.Namespace) -> int:
    from league import admin

    with _connect(args) as conn:
        cred = admin.add_table(conn, args.venue, args.name)
        dbname = conn.info.dbname
        host = args.host or conn.info.host
    print(f"table {cred.table_id} ({cred.name!r} at {cred.venue!r}) has its own login.")
    print("The password is shown only now; it is stored on the server only as a verifier.")
    print(f"  role:     {cred.role}\n  password: {cred.password}\n")
    print("On the table: put the password alone in /etc/rummy-table/league-password (mode 0600,")
    print("owner rummy-table) and add to /etc/rummy-table/config.toml:\n")
    print(cred.config_snippet(host if host and not host.startswith("/") else "", dbname))
    return 0


def _add_player(args: argparse.Namespace) -> int:
    from league import admin

    pin = args.pin
    if pin is None:
        pin = getpass.getpass(f"PIN for {args.name} (4-8 digits): ")
        if getpass.getpass("again: ") != pin:
            print("error: the two PINs differ", file=sys.stderr)
            return 1
    with _connect(args) as conn:
        pid = admin.add_player(conn, args.name, pin, args.venue or ())
    print(f"player {pid}: {args.name}" + (f" at {', '.join(args.venue)}" if args.venue else
                                          " (enrolled at no venue yet: league enrol)"))
    return 0


def _enrol(args: argparse.Namespace) -> int:
    from league import admin

    with _connect(args) as conn:
        for venue in args.venue:
            admin.enrol(conn, args.player_id, venue)
    print(f"player {args.player_id} enrolled at {', '.join(args.venue)}")
    return 0


def _reset_table(args: argparse.Namespace) -> int:
    from league import admin

    with _connect(args) as conn:
        cred = admin.reset_table(conn, args.table_id)
    print(f"table {cred.table_id} ({cred.name!r} at {cred.venue!r}): new password, shown only now")
    print(f"  role:     {cred.role}\n  password: {cred.password}")
    return 0


def _rate(args: argparse.Namespace) -> int:
    from league import ratings

    with _connect(args) as conn:
        counted = ratings.rate(conn)
    print("rated: " + (", ".join(f"{g} {n} matches" for g, n in sorted(counted.items()))
                       or "no matches between league players yet"))
    return 0


def _standings(args: argparse.Namespace) -> int:
    where, params = ["true"], []
    for column, value in (("game", args.game), ("season", args.season), ("venue", args.venue)):
        if value:
            where.append(f"{column} = %s")
            params.append(value)
    view = "league.venue_standings" if args.venue else "league.standings"
    with _connect(args) as conn:
        rows = conn.execute(
            f"SELECT game, season, name, played, won, points, rating FROM {view}"
            f" WHERE {' AND '.join(where)}"
            " ORDER BY game, season DESC, rating DESC NULLS LAST, won DESC, name", params
        ).fetchall()
    if not rows:
        print("no standings yet")
    print(f"{'game':<9} {'season':<8} {'player':<20} {'played':>6} {'won':>5} {'points':>7} {'rating':>7}")
    for game, season, name, played, won, points, rating in rows:
        r = f"{rating:7.2f}" if rating is not None else "      -"
        print(f"{game:<9} {season:<8} {name:<20} {played:>6} {won:>5} {points:>7} {r}")
    return 0


def _table_config(args: argparse.Namespace) -> tuple[Any, Path]:
    from display.table.config import load_config

    config, errors = load_config(args.config)
    for e in errors:
        print(f"config: {e}", file=sys.stderr)
    if errors:
        raise SystemExit(1)
    if not config.league.enabled:
        raise SystemExit("league play is off in the config ([league] enabled = false)")
    state = Path(args.state_dir or config.paths.state_dir)
    return config.league, state / "records.sqlite3"


def _status(args: argparse.Namespace) -> int:
    from league import local

    _cfg, db = _table_config(args)
    cache = local.LocalLeague(db)
    meta = cache.meta()
    print(f"venue: {meta.get('venue', '?')}  table: {meta.get('table', '?')} "
          f"(id {meta.get('table_id', '?')})")
    print(f"matches waiting to be sent: {cache.pending()}")
    print(f"standings cached: {meta.get('refreshed', 'never')}")
    return 0


def _sync(args: argparse.Namespace) -> int:
    from league import sync
    from league.runtime import conninfo

    cfg, db = _table_config(args)
    worker = sync.SyncWorker(db, conninfo(cfg), table_id=cfg.table_id or None)
    try:
        sent = worker.run_once()
    except Exception as exc:  # noqa: BLE001 - reported, the outbox keeps the rows
        print(f"error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    finally:
        worker.stop()
    print(f"sent {sent} match(es); {worker.pending()} waiting")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="rummy-table league", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dsn", default=None, help="the server (operator commands)")
    sub = p.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("migrate", help="create or update the server schema")
    m.add_argument("--to", type=int, default=None, help="stop at this version")
    v = sub.add_parser("add-venue", help="a new venue")
    v.add_argument("name")
    t = sub.add_parser("add-table", help="a new table and its login (printed once)")
    t.add_argument("--venue", required=True)
    t.add_argument("--host", default="", help="the server's name as the table reaches it")
    t.add_argument("name")
    a = sub.add_parser("add-player", help="a new league player with a PIN")
    a.add_argument("name")
    a.add_argument("--pin", default=None)
    a.add_argument("--venue", action="append", default=[], help="where he plays (repeat)")
    e = sub.add_parser("enrol", help="a player may play at a venue")
    e.add_argument("player_id", type=int)
    e.add_argument("--venue", action="append", required=True)
    r = sub.add_parser("reset-table", help="a new password for a table (printed once)")
    r.add_argument("table_id", type=int)
    sub.add_parser("rate", help="recompute the ratings per game")
    s = sub.add_parser("standings", help="print the standings")
    s.add_argument("--game", choices=("gin", "contract"))
    s.add_argument("--season")
    s.add_argument("--venue")
    for name, help_ in (("status", "this table's outbox and cache"),
                        ("sync", "send this table's outbox now")):
        c = sub.add_parser(name, help=help_)
        c.add_argument("--config", default=None)
        c.add_argument("--state-dir", default=None)
    args = p.parse_args(argv)
    try:
        import psycopg
    except ImportError:
        print("rummy-table league needs the league extra: pip install 'rummy-table[league]'",
              file=sys.stderr)
        return 1
    handlers = {"migrate": _migrate, "add-venue": _add_venue, "add-table": _add_table,
                "add-player": _add_player, "enrol": _enrol, "reset-table": _reset_table,
                "rate": _rate, "standings": _standings,
                "status": _status, "sync": _sync}
    try:
        return handlers[args.cmd](args)
    except (psycopg.Error, ValueError, OSError, LookupError) as exc:
        print(f"error: {type(exc).__name__}: {str(exc).strip()}", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
