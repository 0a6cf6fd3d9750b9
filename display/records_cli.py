"""``rummy-table records``: finished games from the records database, in a terminal.

    rummy-table records [list [--limit N]]  recent matches
    rummy-table records leaderboard [--game gin|contract] [--all]   each game's players
    rummy-table records recall [N] [--brief]   the last N hands (default 10), step by step
    rummy-table records export FILE.csv     one row per player per match
    rummy-table records import [--record-bots]   record archived journals the database lacks

``--state-dir DIR`` picks the state directory (default: from the config, see
``display.table.config``); the database is ``<state dir>/records.sqlite3``.

Players are the names entered at the table. A seat nobody named ("Player 1", "Computer 2")
is shown by its language-neutral code whatever language the table spoke (older records
hold "Игрок 1": shown "Player 1"), and is no player across matches: the leaderboard leaves
unnamed people out, and ``--all`` lists each unnamed computer under the ranked players,
once per match with the match's number (``#12``, as ``list`` numbers matches), unranked:
"Computer 2" of match #3 and of match #8 are never one row.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from display.table.config import load_config
from rummy.outcome import MatchOutcome, OutcomeReason
from rummy.records import JournalError
from rummy.session import ARCHIVE
from rummy.store import DB_NAME, Store, StoreError, default_code


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
        outcome: MatchOutcome = m["outcome"]  # the engine's result as recorded (ties share, C-7.4)
        winners = set(outcome.winners) if outcome.reason is OutcomeReason.WON else set()
        named = list(m.get("named") or [])
        players = ", ".join(
            f"{_shown(name, named[seat] if seat < len(named) else None)} "
            f"{total if total is not None else '-'}{' *' if seat in winners else ''}"
            for seat, (name, total) in enumerate(zip(m["players"], m["totals"], strict=True)))
        preset = f" {m['preset']}" if m["preset"] else ""
        ended = "  (abandoned: no winner)" if outcome.reason is OutcomeReason.ABANDONED else ""
        print(f"#{m['id']:<4} {m['finished']}  {m['game']}{preset}  {m['hands']} "
              f"{'hand' if m['hands'] == 1 else 'hands'}  {players}{ended}")


def _shown(name: str, named: bool | None) -> str:
    """A stored name for the terminal: a default seat's by its code (``rummy.store``)."""
    return name if named is True else default_code(name) or name


def _leaderboard(store: Store, game: str | None, everyone: bool) -> None:
    """One board per game (gin match totals and contract scores are never one column).
    With ``everyone``, each game's unnamed computers follow its ranked players, one row
    per match and seat ("Computer 2  #12"), unranked (``rummy.store.Store.leaderboard``)."""
    rows = store.leaderboard(game, humans_only=not everyone)
    if not rows:
        print("no finished games yet" if everyone else
              "no players yet (named humans only; --all to include the computers)")
        return
    games = [g for g in ("gin", "contract") if any(r.game == g for r in rows)]
    games += sorted({r.game for r in rows} - set(games))
    for i, g in enumerate(games):
        if i:
            print()
        print(f"== {g}" + ("" if everyone else " (humans; --all to include the computers)"))
        print(f"{'#':>3} {'player':<20} {'played':>6} {'won':>5} {'win %':>6} {'points':>7} "
              f"{'abandoned':>9}")
        ranked = [r for r in rows if r.game == g and r.match_id is None]
        for r in ranked:
            tied = "=" if sum(1 for o in ranked if o.rank == r.rank) > 1 else " "
            print(f"{r.rank:>2}{tied} {r.name:<20} {r.played:>6} {r.won:>5} "
                  f"{100 * r.win_rate:>5.0f}% {r.points:>7} {r.abandoned:>9}")
        per_match = [r for r in rows if r.game == g and r.match_id is not None]
        if per_match:
            print("    unnamed computers, match by match (not ranked):")
        for r in per_match:
            name = f"{r.name}  #{r.match_id}"
            print(f"  - {name:<20} {r.played:>6} {r.won:>5} "
                  f"{100 * r.win_rate:>5.0f}% {r.points:>7} {r.abandoned:>9}")


def _recall(store: Store, n: int, brief: bool) -> None:
    from display.table.recall_text import hand_lines

    hands = store.last_hands(n)
    if not hands:
        print("no hands recorded yet")
    for i, h in enumerate(hands):
        if i:
            print()
        for line in hand_lines(h, brief=brief):
            print(line)


def _import(store: Store, state_dir: Path) -> int:
    bad = skipped = 0
    journals = sorted((state_dir / ARCHIVE).glob("*.jsonl"))
    for path in journals:
        try:
            if store.record_match(path) is None:
                skipped += 1
        except (StoreError, JournalError) as exc:
            bad += 1
            print(f"skipped {path.name}: {exc}", file=sys.stderr)
    bots = (f", {skipped} of computers only left out (--record-bots to record them)"
            if skipped else "")
    print(f"{len(journals) - bad - skipped} archived match(es) recorded{bots}, {bad} skipped")
    return 1 if bad else 0


def _whole(noun: str, say: str = "") -> Callable[[str], int]:
    """An argparse type: a whole number of ``noun``, 1 or more (``say``: an example)."""
    example = f" (say {say})" if say else ""

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not a number of {noun}{example}") from None
        if n < 1:
            raise argparse.ArgumentTypeError(f"{n} {noun}: give 1 or more{example}")
        return n

    return parse


#: ``recall N``: a whole number of hands; ``--limit N``: a whole number of matches
_hands = _whole("hands", "10")
_limit = _whole("matches")


def parser() -> argparse.ArgumentParser:
    """``records`` and one subcommand per job; ``--state-dir``/``--config`` go before or
    after the subcommand."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--state-dir", default=argparse.SUPPRESS, metavar="DIR",
                        help="the state directory (default: from the config)")
    common.add_argument("--config", default=argparse.SUPPRESS, metavar="FILE",
                        help="the config file (default: see display.table.config)")
    p = argparse.ArgumentParser(prog="rummy-table records", parents=[common],
                                description="Finished games from the records database "
                                            "(<state dir>/records.sqlite3).",
                                epilog="Without a command: list.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    c = sub.add_parser("list", parents=[common], help="recent matches",
                       description="Recent matches, newest first.")
    c.add_argument("--limit", type=_limit, default=20, metavar="N", help="how many (default 20)")
    c = sub.add_parser("leaderboard", parents=[common], help="each game's players by matches won",
                       description="Each game's players by matches won, then points (ties "
                                   "share a rank). Named human players only unless --all; "
                                   "abandoned matches give no win and no points.")
    c.add_argument("--game", choices=("gin", "contract"), default=None, help="one game only")
    c.add_argument("--all", action="store_true", dest="everyone",
                   help="include the computer players (an unnamed one once per match, "
                        "not ranked)")
    c = sub.add_parser("recall", parents=[common], help="the last N hands, step by step",
                       description="The last N hands (default 10), step by step: both hands, "
                                   "melds, deadwood, layoffs and the score.")
    c.add_argument("hands", nargs="?", type=_hands, default=10, metavar="N",
                   help="how many hands (1 or more, default 10)")
    c.add_argument("--brief", action="store_true",
                   help="one block per hand: the deal, both players' melds and deadwood, "
                        "the result and the score")
    c = sub.add_parser("export", parents=[common], help="one CSV row per player per match",
                       description="Write one row per player per match to a CSV file.")
    c.add_argument("file", metavar="FILE.csv", help="the CSV file to write")
    c = sub.add_parser("import", parents=[common],
                       help="record archived journals missing from the database",
                       description="Record the journals in <state dir>/archive/ that the "
                                   "database lacks (rebuilds a lost database). Abandoned "
                                   "matches are recorded as abandoned (no win, no points).")
    c.add_argument("--record-bots", action="store_true",
                   help="also record matches of computer players only")
    return p


def main(argv: list[str] | None = None) -> int:
    try:
        args = parser().parse_args(argv)
    except SystemExit as exc:  # --help (0) or a usage error (2), already printed
        return int(exc.code or 0)
    args.command = args.command or "list"
    args.state_dir = getattr(args, "state_dir", None)
    args.config = getattr(args, "config", None)
    state_dir = _state_dir(args)
    db = state_dir / DB_NAME
    if args.command != "import" and not db.exists():
        print(f"no records yet ({db} does not exist)")
        return 0 if args.command != "export" else 1
    try:
        with Store(db, record_bots=getattr(args, "record_bots", False)) as store:
            if args.command == "list":
                _list(store, getattr(args, "limit", 20))
            elif args.command == "leaderboard":
                _leaderboard(store, args.game, args.everyone)
            elif args.command == "recall":
                _recall(store, args.hands, args.brief)
            elif args.command == "import":
                return _import(store, state_dir)
            else:
                n = store.export_csv(args.file)
                print(f"wrote {n} row(s) to {args.file}")
    except StoreError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
