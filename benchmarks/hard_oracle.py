"""How much gin ``hard`` would gain from knowing the other hand (issue 12 diagnostics).

Games to 100 against OpenSpiel's ``SimpleGinRummyBot`` (as in ``benchmarks/bots.py``),
with a ``hard`` player that is *told* the opponent's ten cards before each decision: its
sampled worlds hold his real hand (the stock stays a random order of the rest). With
``--know discards`` only the discard playouts get the real hand (knocks are valued on the
sampled worlds), with ``--know knocks`` only the knock values; ``--wrong K`` swaps K of
his cards that the seat has not seen him pick up for random unseen ones, to see what a
nearly right hand is worth. A yardstick for how far better inference could take the
search; never a player anyone meets (it cheats). Prints games won with a 95 % interval
and points per hand.

    benchmarks/hard_oracle.py --games 300 --seed 7000000000 --know all --wrong 0
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bots import pool_map, wilson  # noqa: E402
from openspiel_gin import openspiel_game  # noqa: E402

from rummy.cards import Card  # noqa: E402
from rummy.gin.bots_hard import HardPlayer, world  # noqa: E402
from rummy.gin.view import SeatView  # noqa: E402

World = tuple[int, list[int]]


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        b = mask & -mask
        mask ^= b
        out.append(b)
    return out


class ToldHard(HardPlayer):
    """``hard`` with the opponent's real hand in its worlds (see the module docstring)."""

    def __init__(self, know: str, wrong: int) -> None:
        super().__init__()
        self.know, self.wrong = know, wrong
        self.truth = 0
        self._sampled: list[World] = []
        self._told: list[World] = []

    def tell(self, cards: tuple[Card, ...]) -> None:
        self.truth = sum(c.bit for c in cards)

    def worlds_for(self, view: SeatView, rng: random.Random, count: int) -> list[World]:
        sampled = super().worlds_for(view, rng, count)
        picked = sum(c.bit for c in self.memory.opp_has)
        told = []
        for opp, stock in sampled:
            pool = _bits(opp) + stock  # every card the seat has not seen placed
            hand = self.truth
            if self.wrong:
                his = [b for b in _bits(hand) if not b & picked]
                others = [b for b in pool if not b & hand]
                k = min(self.wrong, len(his), len(others))
                for b in rng.sample(his, k) + rng.sample(others, k):
                    hand ^= b
            told.append(world(hand, pool, view.stock_size, rng))
        self._sampled, self._told = sampled, told
        return sampled if self.know == "discards" else told  # the knocks' worlds

    def _play_on(self, view: SeatView, hand: list[Card], discard: Card,  # type: ignore[override]
                 worlds: list[World], value: Any) -> float:
        mine = self._sampled if self.know == "knocks" else self._told
        return HardPlayer._play_on(view, hand, discard, mine, value)


def game(seed: int, know: str, wrong: int) -> tuple[int, float, int]:
    won, pts, hands, _w, _l = openspiel_game(("hard", seed), ToldHard(know, wrong))
    return won, pts, hands


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=7_000_000_000)
    ap.add_argument("--know", choices=("all", "discards", "knocks"), default="all")
    ap.add_argument("--wrong", type=int, default=0, help="of his unseen cards swapped")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    run = functools.partial(game, know=args.know, wrong=args.wrong)
    res = pool_map(run, list(range(args.seed, args.seed + args.games)), args.jobs)
    won, pts, hands = (sum(r[i] for r in res) for i in range(3))
    share, lo, hi = wilson(won, args.games)
    print(f"hard told his hand ({args.know}, {args.wrong} wrong) vs OpenSpiel simple: "
          f"{share:.1f} % [{lo:.1f}, {hi:.1f}] of {args.games} games, "
          f"{pts / max(1, hands):+.2f} points per hand ({hands} hands)")


if __name__ == "__main__":
    main()
