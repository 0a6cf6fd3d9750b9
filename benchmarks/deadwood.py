"""Gin deadwood solver speed: hands per second, 10 and 11 cards, uniform and meld-dense.

Hands are fresh random lists of ``Card`` (dense: 10/11 of the 20 cards of a random
five-rank window). Cache effects: the solver keeps no cache of hands (its tables are per
suit mask, built at import; ``Card.bit`` is a constant of each card), and in the
OpenSpiel comparison every round deals new hands, so no timed call can profit from an
earlier call on the same hand. Rates are per second of this process's CPU time (best
of ``--repeat`` rounds), so other load on the machine disturbs them less than
wall-clock timing would; in the comparison the three are timed in turn within each
round, so load changes hit all of them alike. Run:

    .venv/bin/python benchmarks/deadwood.py [--hands N] [--seed S] [--repeat R]

With open_spiel installed (the ``bench`` extra) it also times OpenSpiel's C++
``GinRummyUtils.min_deadwood`` through its Python binding on the same hands in the same
run (its card numbers prepared beforehand, as ours are Card lists or hand masks), and
prints the ratio ours / OpenSpiel for both of our input forms.
"""

from __future__ import annotations

import argparse
import random
import time

from rummy.cards import ALL_CARDS, Card
from rummy.gin import best_melds, deadwood
from rummy.gin.layoffs import best_defence
from rummy.gin.melds import (
    arrange,
    best_discard,
    card_bit,
    hand_mask,
    mask_deadwood,
    mask_deadwood_discard,
    swap_deadwood,
)


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


def compare(
    rng: random.Random, make, size: int, n: int, rounds: int, theirs_fn, to_os: dict
) -> tuple[float, float, float]:
    """Best-of-``rounds`` rates (ours on Card lists, ours on masks, OpenSpiel's) where
    every round deals ``n`` fresh hands, times the three on them in a rotating order, and
    the conversions into each form (Card list -> card ints, -> masks) are made before the
    clock starts, so no form reuses work from another or from an earlier round."""
    best = [float("inf")] * 3
    mask_fn = mask_deadwood if size == 10 else mask_deadwood_discard
    for r in range(max(1, rounds)):
        hands = make(rng, n, size)
        ints = [[to_os[c] for c in h] for h in hands]
        masks = [hand_mask(h) for h in hands]
        jobs = [(0, deadwood, hands), (1, mask_fn, masks), (2, theirs_fn, ints)]
        for k, fn, xs in jobs[r % 3:] + jobs[: r % 3]:
            start = time.process_time()
            for x in xs:
                fn(x)
            best[k] = min(best[k], time.process_time() - start)
    return tuple(n / max(b, 1e-9) for b in best)  # type: ignore[return-value]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    print(f"{args.hands} fresh hands per row, best of {args.repeat}, CPU time, no cache")
    for label, make in (("uniform", uniform_hands), ("dense", dense_hands)):
        for size in (10, 11):
            hands = make(rng, args.hands, size)
            per_s = rate(deadwood, hands, args.repeat)
            print(f"deadwood   {label:7s} {size:2d} cards: {per_s:12,.0f} hands/s")
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        pyspiel = None
        print("open_spiel not installed: no OpenSpiel comparison (pip install -e '.[bench]')")
    if pyspiel is not None:
        utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
        to_os = {c: utils.card_int(str(c)[0] + str(c)[1].lower()) for c in ALL_CARDS}
        print("same hands, one run: ours (deadwood on Card lists | mask_deadwood on hand masks)"
              " vs OpenSpiel C++ min_deadwood (card ints); fresh hands every round, the three"
              " timed in turn (order rotating), best round of each")
        for label, make in (("uniform", uniform_hands), ("dense", dense_hands)):
            for size in (10, 11):
                ours, ours_m, theirs = compare(
                    rng, make, size, args.hands, args.repeat, utils.min_deadwood, to_os
                )
                print(f"vs OpenSpiel {label:7s} {size:2d} cards: ours {ours:10,.0f} | {ours_m:10,.0f}"
                      f"  OpenSpiel {theirs:10,.0f} per s  ratio {ours / theirs:4.2f}x |"
                      f" {ours_m / theirs:4.2f}x")
    swaps = []
    for h in uniform_hands(rng, args.hands, 11):
        m = hand_mask(h[:10])
        swaps.append((m, mask_deadwood(m), card_bit(h[10]), card_bit(h[rng.randrange(11)])))
    per_s = rate(lambda s: swap_deadwood(*s), swaps, args.repeat)
    print(f"swap_deadwood (one card in, one out, from the last count) uniform: {per_s:12,.0f} /s")
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
