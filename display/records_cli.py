"""``rummy-table records``: finished games from the records database, in a terminal.

    rummy-table records [list]              recent matches
    rummy-table records leaderboard         players by matches won
    rummy-table records recall [N]          the last N hands (default 10), step by step
    rummy-table records export FILE.csv     one row per player per match
    rummy-table records import              record archived journals missing from the database

``--state-dir DIR`` picks the state directory (default: from the config, see
``display.config``); the database is ``<state dir>/records.sqlite3``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from display.config import load_config
from rummy.records import JournalError
from rummy.session import ARCHIVE
from rummy.store import DB_NAME, Store, StoreError


def _state_dir(args: argparse.Namespace) -> Path:
    if args.state_dir:
        return Path(args.state_dir)
    config, errors = load_config(args.config)
    for e in errors:
        print(f"config: {e}", file=sys.stderr)
    return Path(config.paths.state_dir)


def _list(store: Store, limit: int) -> None:
    rows = store.matches(limit)
    if not rows:
        print("no finished games yet")
    for m in rows:
        players = ", ".join(
            f"{name} {total if total is not None else '-'}{' *' if seat == m['winner'] else ''}"
            for seat, (name, total) in enumerate(zip(m["players"], m["totals"], strict=True)))
        preset = f" {m['preset']}" if m["preset"] else ""
        print(f"#{m['id']:<4} {m['finished']}  {m['game']}{preset}  {m['hands']} hands  {players}")


def _leaderboard(store: Store, game: str | None) -> None:
    rows = store.leaderboard(game)
    if not rows:
        print("no finished games yet")
        return
    print(f"{'player':<20} {'played':>6} {'won':>5} {'win %':>6} {'points':>7}")
    for r in rows:
        print(f"{r.name:<20} {r.played:>6} {r.won:>5} {100 * r.win_rate:>5.0f}% {r.points:>7}")


def _recall(store: Store, n: int) -> None:
    hands = store.last_hands(n)
    if not hands:
        print("no hands recorded yet")
    for h in hands:
        print(f"== match #{h.match_id} {h.game} hand {h.hand_no} ({h.finished}): "
              f"{', '.join(h.players)}")
        for step in h.steps:
            lines = step.text.splitlines() or [""]
            print(f"  {step.action_no:>4}. {lines[0]}")
            for extra in lines[1:]:
                print(f"        {extra}")


def _import(store: Store, state_dir: Path) -> int:
    bad = 0
    journals = sorted((state_dir / ARCHIVE).glob("*.jsonl"))
    for path in journals:
        try:
            store.record_match(path)
        except (StoreError, JournalError) as exc:
            bad += 1
            print(f"skipped {path.name}: {exc}", file=sys.stderr)
    print(f"{len(journals) - bad} archived match(es) recorded, {bad} skipped")
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="rummy-table records",
                                description="Finished games: list, leaderboard, recall, export.")
    p.add_argument("command", nargs="?", default="list",
                   choices=("list", "leaderboard", "recall", "export", "import"))
    p.add_argument("arg", nargs="?", help="export: the CSV file; recall: how many hands")
    p.add_argument("--state-dir", default=None)
    p.add_argument("--config", default=None)
    p.add_argument("--game", choices=("gin", "contract"), default=None)
    p.add_argument("--limit", type=int, default=20)
    args = p.parse_args(argv)
    state_dir = _state_dir(args)
    db = state_dir / DB_NAME
    if args.command != "import" and not db.exists():
        print(f"no records yet ({db} does not exist)")
        return 0 if args.command != "export" else 1
    try:
        with Store(db) as store:
            if args.command == "list":
                _list(store, args.limit)
            elif args.command == "leaderboard":
                _leaderboard(store, args.game)
            elif args.command == "recall":
                _recall(store, int(args.arg or 10))
            elif args.command == "import":
                return _import(store, state_dir)
            else:
                if not args.arg:
                    print("usage: rummy-table records export FILE.csv", file=sys.stderr)
                    return 2
                n = store.export_csv(args.arg)
                print(f"wrote {n} row(s) to {args.arg}")
    except StoreError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
