"""``rummy-table play``: a text-mode match of two computer players, hand by hand.

``rummy-table play [--game gin] [--preset standard] [--bot LEVEL[,LEVEL...]] [--seed N]
[--journal FILE]``: ``--bot`` gives the seats' levels in turn (easy, medium, hard, basic).
With ``--journal`` every action is recorded (fsynced) so ``rummy-table replay FILE``
prints the same match again.
"""

from __future__ import annotations

import argparse
import random
import sys

from rummy.games import ENGINES, get_engine
from rummy.play import play_match
from rummy.records import Header, JournalWriter

RESULT_KINDS = frozenset({"hand_scored", "game_over", "match_over"})
DEFAULTS = {"gin": ("standard", 2), "contract": ("seed_002", 4)}  # preset, seats


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="rummy-table play", description="Watch two computer players play a match."
    )
    p.add_argument("--game", default="gin", choices=sorted(ENGINES), help="which game")
    p.add_argument("--preset", default=None, help="rules preset (gin: standard, knock_card, "
                   "tournament, pagat_classic; contract: seed_002, american_may_i)")
    p.add_argument("--bot", default="basic",
                   help="computer levels, seat by seat, repeating: easy, medium, hard or basic "
                   "(e.g. hard,basic)")
    p.add_argument("--seed", type=int, default=None, help="shuffle seed (default: random)")
    p.add_argument("--journal", default=None, help="record the match to this new file")
    return p


def _levels(text: str, seats: int) -> list[str]:
    levels = [x.strip() for x in text.split(",") if x.strip()] or ["basic"]
    return [levels[i % len(levels)] for i in range(seats)]


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    default_preset, seats = DEFAULTS.get(args.game, ("standard", 2))
    preset_name = args.preset or default_preset
    try:
        engine = get_engine(args.game)
        rules = engine.preset(preset_name)
    except (ValueError, ImportError) as exc:
        print(f"rummy-table play: {exc}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    levels = _levels(args.bot, seats)
    try:
        players = [engine.player(level) for level in levels]
    except ValueError as exc:
        print(f"rummy-table play: {exc}", file=sys.stderr)
        return 2
    state = engine.new_match(rules, seats)
    writer = None
    if args.journal:
        header = Header(
            game=args.game,
            rules=engine.rules_to_dict(rules),
            seats=[{"name": f"{level.title()} {i + 1}", "kind": "computer", "bot": level}
                   for i, level in enumerate(levels)],
            seed=seed,
        )
        try:
            writer = JournalWriter.create(args.journal, header)
        except (OSError, FileExistsError) as exc:
            print(f"rummy-table play: cannot write the journal: {exc}", file=sys.stderr)
            return 2
    print(f"{args.game} ({preset_name}), seed {seed}: {seats} computer players ({', '.join(levels)})")
    try:
        state, steps = play_match(engine, state, players, random.Random(seed), journal=writer)
    finally:
        if writer is not None:
            writer.close()
    for _action, events in steps:
        for event in events:
            if event.kind in RESULT_KINDS:
                print(engine.describe(event))
    if writer is not None:
        print(f"journal written to {args.journal} (rummy-table replay {args.journal})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
