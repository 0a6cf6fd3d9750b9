"""Gin engine speed: legal_actions (the display calls it about every frame), apply, and
whole bot matches per preset. Prints figures; asserts nothing.

    .venv/bin/python benchmarks/gin_engine.py [--matches N]
"""

from __future__ import annotations

import argparse
import random
import time

from rummy.gin import options as gin_options
from rummy.gin.bots import BasicPlayer, RandomPlayer
from rummy.gin.engine import ENGINE
from rummy.gin.rules import PRESETS, preset
from rummy.gin.state import HandPhase
from rummy.play import play_match, step


def sample_states(n_matches: int) -> tuple[list, list]:
    """(every state of some bot matches, with the action taken from it)."""
    states, actions = [], []
    for seed in range(n_matches):
        state = ENGINE.new_match(preset("standard"), 2)
        rng = random.Random(seed)
        players = [BasicPlayer(), BasicPlayer()]
        while not ENGINE.is_over(state):
            action = step(ENGINE, state, players, rng)
            states.append(state)
            actions.append(action)
            state, _ = ENGINE.apply(state, action)
    return states, actions


def per_second(fn, items) -> float:
    start = time.perf_counter()
    for item in items:
        fn(item)
    return len(items) / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    args_p = argparse.ArgumentParser(description=__doc__)
    args_p.add_argument("--matches", type=int, default=10, help="bot matches per preset")
    args = args_p.parse_args(argv)

    states, actions = sample_states(5)
    discard = [s for s in states if s.hand and s.hand.phase is HandPhase.DISCARD]
    print(f"sample: {len(states)} states from 5 BasicPlayer matches, {len(discard)} after a draw")

    def legal(s):
        return ENGINE.legal_actions(s, s.hand.turn)

    gin_options._knock_options_cached.cache_clear()
    gin_options._all_melded_cached.cache_clear()
    print(f"legal_actions, 11-card decision, first call : {per_second(legal, discard):10,.0f}/s")
    print(f"legal_actions, 11-card decision, repeated   : {per_second(legal, discard):10,.0f}/s")
    print(
        f"legal_actions, any state (repeated)         : "
        f"{per_second(lambda s: ENGINE.legal_actions(s, s.hand.turn) if s.hand else [], states):10,.0f}/s"
    )
    pairs = list(zip(states, actions, strict=True))
    print(
        f"apply                                       : "
        f"{per_second(lambda p: ENGINE.apply(*p), pairs):10,.0f}/s"
    )
    print(
        f"view                                        : "
        f"{per_second(lambda s: ENGINE.view(s, 0), states):10,.0f}/s"
    )

    for name in sorted(PRESETS):
        for label, players in (
            ("basic v basic", (BasicPlayer(), BasicPlayer())),
            ("random v basic", (RandomPlayer(), BasicPlayer())),
        ):
            start = time.perf_counter()
            n_actions = 0
            for seed in range(args.matches):
                state = ENGINE.new_match(preset(name), 2)
                _, steps = play_match(ENGINE, state, players, random.Random(seed))
                n_actions += len(steps)
            dt = time.perf_counter() - start
            print(
                f"{name:14} {label:15}: {args.matches / dt:8.1f} matches/s,"
                f" {n_actions / dt:9,.0f} actions/s"
            )


if __name__ == "__main__":
    main()
