"""``rummy-table replay FILE``: print a recorded game hand by hand.

Generic over engines: each event is printed with ``engine.describe(event)``. A torn last
line (power cut) is dropped with a warning; a corrupt or illegal line stops the replay
with its line number and the reason (exit code 2, no traceback).
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from rummy.records import JournalError, read_journal, replay

# What --brief leaves out: single draws, discards, upcard choices and layoffs (gin: the
# result line lists the layoffs), and the contract game's turn, draw and buying chatter.
QUIET_KINDS = frozenset(
    {
        "drew", "discarded", "upcard_taken", "upcard_passed", "laid_off", "done_laying_off",
        "drew_stock", "took_discard", "passed_on_buy", "question", "turn_started",
    }
)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="rummy-table replay",
        description="Print a recorded game hand by hand from its journal (JSON Lines).",
    )
    p.add_argument("file", help="the journal file (.jsonl)")
    p.add_argument(
        "--brief",
        action="store_true",
        help="only deals, knocks and results (leave out single draws and discards)",
    )
    return p


def print_replay(path: str, *, brief: bool = False, out: TextIO | None = None) -> int:
    """Print the replay of ``path``; returns the exit code (0 ok, 2 refused)."""
    out = out if out is not None else sys.stdout
    try:
        journal = read_journal(path)
        rep = replay(journal)
    except JournalError as exc:
        print(f"rummy-table replay: refused: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a damaged file must never crash to a console
        print(
            f"rummy-table replay: refused: {path}: cannot replay ({type(exc).__name__}: {exc})",
            file=sys.stderr,
        )
        return 2
    h = journal.header
    seats = ", ".join(
        f"seat {i}: {s.get('name', '?')}" + (f" ({s['kind']})" if s.get("kind") else "")
        for i, s in enumerate(h.seats)
    )
    print(f"{h.game} journal {path}", file=out)
    print(f"created {h.created or '?'}; seed {h.seed!r}; first dealer seat {h.first_dealer}", file=out)
    print(f"seats: {seats}", file=out)
    rules = ", ".join(f"{k}={v}" for k, v in sorted(h.rules.items()))
    print(f"rules: {rules}", file=out)
    for warning in journal.warnings:
        print(f"warning: {warning}", file=out)
    for _action, events in rep.steps:
        for event in events:
            if brief and event.kind in QUIET_KINDS:
                continue
            print(rep.engine.describe(event), file=out)
    status = journal.ended or "unfinished (no end line)"
    print(f"{len(journal.actions)} actions; journal {status}", file=out)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return print_replay(args.file, brief=args.brief)
    except BrokenPipeError:  # e.g. piped into head
        return 0


if __name__ == "__main__":
    sys.exit(main())
