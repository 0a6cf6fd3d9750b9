"""Gin deadwood solver speed: hands per second, 10 and 11 cards, uniform and meld-dense.

Hands are fresh random lists of ``Card`` (dense: 10/11 of the 20 cards of a random
five-rank window). The solver keeps no cache, so every call is a full solve. Rates are
per second of this process's CPU time (best of ``--repeat``), so other load on the
machine disturbs them less than wall-clock timing would. Run:

    .venv/bin/python benchmarks/deadwood.py [--hands N] [--seed S] [--repeat R]
"""

from __future__ import annotations

import argparse
import random
import time

from rummy.cards import ALL_CARDS, Card
from rummy.gin import best_melds, deadwood
from rummy.gin.layoffs import best_defence
from rummy.gin.melds import arrange, best_discard


def uniform_hands(rng: random.Random, n: int, size: int) -> list[list[Card]]:
    return [rng.sample(ALL_CARDS, size) for _ in range(n)]


def dense_hands(rng: random.Random, n: int, size: int) -> list[list[Card]]:
    windows = [[c for c in ALL_CARDS if lo <= c.rank < lo + 5] for lo in range(1, 10)]
    return [rng.sample(rng.choice(windows), size) for _ in range(n)]


def rate(fn, hands: list[list[Card]], repeat: int) -> float:
    """Best-of-``repeat`` hands per CPU second of ``fn`` over ``hands``."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for h in hands:
            fn(h)
        best = min(best, time.process_time() - start)
    return len(hands) / max(best, 1e-9)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    print(f"{args.hands} fresh hands per row, best of {args.repeat}, CPU time, no cache")
    for label, make in (("uniform", uniform_hands), ("dense", dense_hands)):
        for size in (10, 11):
            hands = make(rng, args.hands, size)
            per_s = rate(deadwood, hands, args.repeat)
            print(f"deadwood   {label:7s} {size:2d} cards: {per_s:12,.0f} hands/s")
    few = max(1, args.hands // 10)
    for label, make in (("uniform", uniform_hands), ("dense", dense_hands)):
        print(
            f"best_melds {label:7s} 10 cards: {rate(best_melds, make(rng, few, 10), 1):12,.0f}"
            " hands/s"
        )
        print(
            f"best_disc. {label:7s} 11 cards: {rate(best_discard, make(rng, few, 11), 1):12,.0f}"
            " hands/s"
        )

    knocks = []
    for _ in range(few):
        deck = dense_hands(rng, 1, 20)[0]
        knocks.append((deck[10:], arrange(deck[:10])[1]))
    per_s = rate(lambda k: best_defence(*k), knocks, 1)
    print(f"best_defence dense 10 cards: {per_s:12,.0f} defences/s")


if __name__ == "__main__":
    main()
