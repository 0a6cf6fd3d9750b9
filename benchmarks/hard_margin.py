"""Does gin ``hard``'s search pick better discards than the model it starts from? (issue 12)

At close discard decisions of games against OpenSpiel's simple bot, each candidate of
:class:`rummy.gin.bots_hard.HardPlayer` is valued in ``--worlds`` sampled worlds (what
the player can know) and again with the opponent's real ten cards and as many random
stock orders (what the benchmark knows; the player is never told). Printed: how well
the two differences "candidate minus the model's discard" agree, and the real chance of
winning the game gained per decision when the search leaves the model's discard at
each margin, with 64 worlds and with ``--worlds``. This is how ``MARGIN`` was chosen.

    .venv/bin/python benchmarks/hard_margin.py [--decisions 240] [--worlds 1024] [--jobs 2]
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from openspiel_gin import openspiel_match  # noqa: E402

from rummy.gin import bots_hard  # noqa: E402
from rummy.gin.melds import hand_mask  # noqa: E402

Row = tuple[list[float], list[float], list[float]]  # (sampled, real, 64 sampled) per candidate


class Probe(bots_hard.HardPlayer):
    """The shipped player, which also values its close decisions both ways."""

    def __init__(self, want: int, worlds: int) -> None:
        super().__init__()
        self.want, self.many, self.real = want, worlds, 0
        self.rows: list[Row] = []

    def tell(self, cards: Any) -> None:  # openspiel_gin hands the benchmark's player this
        self.real = hand_mask(list(cards))

    def discard_or_knock(self, view, hand, discards, knocks, rng):  # type: ignore[no-untyped-def]
        if discards and not knocks and len(self.rows) < self.want:
            close = self.close_discards(view, hand, discards)
            if len(close) >= 2:
                value = self._valuer(view)
                r = random.Random(len(self.rows))
                sampled = self.worlds_for(view, r, self.many)
                unseen = [c.bit for c in self.memory.unknown(view)]
                real = [bots_hard.world(self.real, unseen, view.stock_size, r)
                        for _ in range(self.many)]
                few = self.worlds_for(view, r, 64)
                self.rows.append(tuple(  # type: ignore[arg-type]
                    [self._play_on(view, hand, a.card, w, value) for a in close]
                    for w in (sampled, real, few)))
        return super().discard_or_knock(view, hand, discards, knocks, rng)


def rows_from(args: tuple[int, int, int]) -> list[Row]:
    """``want`` close decisions from games starting at ``seed``."""
    want, worlds, seed = args
    probe = Probe(want, worlds)
    while len(probe.rows) < want:
        openspiel_match("hard", seed, probe)
        seed += 1
    return probe.rows


def gain(rows: list[Row], which: int, margin: float) -> float:
    """Mean real gain over the model's discard when the search chooses by ``which``."""
    out = []
    for row in rows:
        v = row[which]
        opts = [v[0]] + [x - margin for x in v[1:]]
        k = max(range(len(v)), key=opts.__getitem__)
        out.append(row[1][k] - row[1][0])
    return statistics.fmean(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=240)
    ap.add_argument("--worlds", type=int, default=1024)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=7000)
    args = ap.parse_args()
    per = -(-args.decisions // args.jobs)
    jobs = [(per, args.worlds, args.seed * 1_000_000 + 300 * j) for j in range(args.jobs)]
    with multiprocessing.Pool(args.jobs) as pool:
        rows = [r for part in pool.map(rows_from, jobs) for r in part]
    sampled = [r[0][k] - r[0][0] for r in rows for k in range(1, len(r[0]))]
    real = [r[1][k] - r[1][0] for r in rows for k in range(1, len(r[0]))]
    print(f"{len(rows)} close decisions, {len(sampled)} candidates besides the model's discard")
    print(f"correlation of the sampled and the real difference: "
          f"{statistics.correlation(sampled, real):.2f}")
    sure = [b for a, b in zip(sampled, real, strict=True) if a > 0.01]
    if sure:
        print(f"real difference where the worlds say +0.01 or more: {statistics.fmean(sure):+.4f}"
              f" ({len(sure)} candidates)")
    print("real chance of winning the game gained per close decision, by margin:")
    for m in (0.0, 0.005, 0.01, 0.02, 0.03):
        print(f"  margin {m:5.3f}: 64 worlds {gain(rows, 2, m):+.4f}   "
              f"{args.worlds} worlds {gain(rows, 0, m):+.4f}")
    best = statistics.fmean(max(r[1]) - r[1][0] for r in rows)
    print(f"  told his hand (the best candidate each time): {best:+.4f}")


if __name__ == "__main__":
    main()
