"""Are gin ``hard``'s sampled worlds like the real other hand? (issue 12 diagnostics)

Plays games to 100 against OpenSpiel's ``SimpleGinRummyBot`` (as ``benchmarks/bots.py``
does) with a ``hard`` player that, at each search, compares its sampled worlds with the
opponent's real ten cards (told to the benchmark's player only; the search never sees
them). Prints, by stock size: the real hand's deadwood against the sampled hands' mean,
and how many of his ten cards a sampled hand holds; then the calibration of the chance
that he takes a discard: for every card of our hand, the share of worlds in which he
would take it, bucketed, against how often his real hand would.

    benchmarks/hard_worlds.py --games 60 --seed 7000000000
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bots import pool_map  # noqa: E402
from openspiel_gin import openspiel_match  # noqa: E402

from rummy.cards import Card  # noqa: E402
from rummy.gin.bots_hard import HardPlayer, _would_take, dw  # noqa: E402
from rummy.gin.view import SeatView  # noqa: E402

Row = tuple[int, int, float, float, list[tuple[float, bool]]]


class Watched(HardPlayer):
    """``hard``, unchanged, that writes down how its worlds compare with his real hand."""

    def __init__(self) -> None:
        super().__init__()
        self.truth = 0
        self.rows: list[Row] = []

    def tell(self, cards: tuple[Card, ...]) -> None:
        self.truth = sum(c.bit for c in cards)

    def worlds_for(self, view: SeatView, rng: random.Random, count: int) -> list[tuple[int, list[int]]]:
        worlds = super().worlds_for(view, rng, count)
        limit, truth, n = view.knock_limit or 0, self.truth, len(worlds)
        takes = [
            (sum(_would_take(o, c.bit, limit) for o, _ in worlds) / n, _would_take(truth, c.bit, limit))
            for c in view.hand
        ]
        self.rows.append((
            view.stock_size, dw(truth), sum(dw(o) for o, _ in worlds) / n,
            sum((o & truth).bit_count() for o, _ in worlds) / n, takes,
        ))
        return worlds


def game(seed: int) -> list[Row]:
    player = Watched()
    openspiel_match("hard", seed, player)
    return player.rows


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--seed", type=int, default=7_000_000_000)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    rows = [r for rs in pool_map(game, list(range(args.seed, args.seed + args.games)), args.jobs) for r in rs]
    by_stock: dict[int, list[Row]] = collections.defaultdict(list)
    for r in rows:
        by_stock[min(r[0] // 5 * 5, 30)].append(r)
    print(f"{len(rows)} searches in {args.games} games")
    print("stock   searches  his deadwood  sampled  his cards held")
    for k in sorted(by_stock, reverse=True):
        v = by_stock[k]
        n = len(v)
        print(f"{k:2d}+    {n:8d}  {sum(r[1] for r in v) / n:12.1f}  {sum(r[2] for r in v) / n:7.1f}"
              f"  {sum(r[3] for r in v) / n:14.2f}")
    buckets: dict[int, list[Any]] = collections.defaultdict(lambda: [0, 0, 0.0])
    for r in rows:
        for p, real in r[4]:
            b = buckets[min(int(p * 10), 9)]
            b[0] += 1
            b[1] += real
            b[2] += p
    print("he takes it: worlds say  his real hand  (cards)")
    for k in sorted(buckets):
        n, real, ps = buckets[k]
        print(f"  {k / 10:.1f}-{(k + 1) / 10:.1f}  {ps / n:10.3f}  {real / n:13.3f}  ({n})")


if __name__ == "__main__":
    main()
