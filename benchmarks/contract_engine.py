"""Contract engine speed: legal_actions (the display calls it about every frame), apply,
and whole four-bot five-deal matches per preset. Prints figures; asserts nothing.

    .venv/bin/python benchmarks/contract_engine.py [--matches N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from rummy.contract.bots import BasicPlayer, RandomPlayer
from rummy.contract.engine import ENGINE
from rummy.contract.rules import PRESETS
from rummy.play import play_match, step


def sample_states(n_matches: int) -> list:
    """(state, action) for every step of some basic-bot matches."""
    pairs = []
    for seed in range(n_matches):
        state = ENGINE.new_match(ENGINE.preset("seed_002"), 4)
        rng = random.Random(seed)
        players = [BasicPlayer() for _ in range(4)]
        while not ENGINE.is_over(state):
            action = step(ENGINE, state, players, rng)
            pairs.append((state, action))
            state, _ = ENGINE.apply(state, action)
    return pairs


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--matches", type=int, default=20)
    args = p.parse_args()
    pairs = sample_states(5)
    t = time.perf_counter()
    for state, _ in pairs:
        for seat in ENGINE.to_act(state):
            ENGINE.legal_actions(state, seat)
    dt = time.perf_counter() - t
    print(
        f"legal_actions: {len(pairs)} states, {dt / len(pairs) * 1e6:.0f} us per state (all seats to act)"
    )
    t = time.perf_counter()
    for state, action in pairs:
        ENGINE.apply(state, action)
    dt = time.perf_counter() - t
    print(f"apply: {dt / len(pairs) * 1e6:.0f} us per action")
    for name in PRESETS:
        for label, cls in (("basic", BasicPlayer), ("random", RandomPlayer)):
            times, actions, finished = [], 0, 0
            for seed in range(args.matches):
                t = time.perf_counter()
                state, steps = play_match(
                    ENGINE,
                    ENGINE.new_match(ENGINE.preset(name), 4),
                    [cls() for _ in range(4)],
                    random.Random(seed),
                )
                times.append(time.perf_counter() - t)
                actions += len(steps)
                finished += sum(r.finisher is not None for r in state.results)
            print(
                f"{name:>15} {label:>6}: {args.matches} matches, "
                f"median {statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms, "
                f"{actions / args.matches:.0f} actions/match, "
                f"{finished}/{5 * args.matches} deals ended by going out"
            )


if __name__ == "__main__":
    main()
