"""Which setting of gin ``hard`` decides better, on the same decisions? (issue 12)

Games to 100 against OpenSpiel's simple bot (as ``benchmarks/bots.py`` plays them) are
played once with the shipped player; every decision where its search runs (two or more
close discards, or a knock) is kept with the opponent's real ten cards. Each option of
such a decision is then valued with his real hand and ``--real`` random stock orders
(what the benchmark knows; the player is never told): the chance of winning the game
after playing it out (:func:`rummy.gin.bots_hard.HardPlayer._play_on`) or after the
knock's count against his (G-11, G-12). For the shipped setting and each ``--set``, the
player decides each kept decision again from its own view, and the real chance gained
over the model's discard is printed per decision; "told his hand" is the best option's.
Games diverge after the first different choice, so whole games compare two settings
with a noise of 2-4 points of games; here both decide the same positions, and the rng
noise of one setting is about 0.0004 a decision (two seeds of the same setting).

    benchmarks/hard_decisions.py --games 100 --set WORLDS=256 --set MARGIN=0.01,WORLDS=64
"""

from __future__ import annotations

import argparse
import ast
import multiprocessing
import pickle
import random
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from openspiel_gin import openspiel_match  # noqa: E402

from rummy.actions import Action  # noqa: E402
from rummy.cards import Card  # noqa: E402
from rummy.gin import bots_hard  # noqa: E402
from rummy.gin.view import SeatView  # noqa: E402

Setting = dict[str, Any]


class Recorder(bots_hard.HardPlayer):
    """The shipped player, which keeps every decision its search runs at."""

    def __init__(self) -> None:
        super().__init__()
        self.real = 0
        self.kept: list[bytes] = []

    def tell(self, cards: Any) -> None:  # openspiel_gin hands the benchmark's player this
        self.real = sum(c.bit for c in cards)

    def discard_or_knock(
        self, view: SeatView, hand: list[Card], discards: list[Action], knocks: list[Action],
        rng: random.Random,
    ) -> Action:
        close = self.close_discards(view, hand, discards)
        if len(close) >= 2 or knocks and close:
            self.kept.append(pickle.dumps((view, self.memory, list(hand), discards, knocks, self.real)))
        return super().discard_or_knock(view, hand, discards, knocks, rng)


def record(seed: int) -> list[bytes]:
    player = Recorder()
    openspiel_match("hard", seed, player)
    return player.kept


def real_values(args: tuple[int, bytes, int]) -> dict[tuple[str, Any], float]:
    """Every option of kept decision number ``k``, valued with the opponent's real hand."""
    k, blob, stocks = args
    view, mem, hand, discards, knocks, real = pickle.loads(blob)
    player = bots_hard.HardPlayer()
    player.memory = mem
    value = player._valuer(view)
    rng = random.Random(f"real-{k}")
    unseen = [c.bit for c in mem.unknown(view)]
    worlds = [bots_hard.world(real, unseen, view.stock_size, rng) for _ in range(stocks)]
    out = {("discard", a.card): player._play_on(view, hand, a.card, worlds, value) for a in discards}
    for count, _i, a, melds in bots_hard.knock_options(hand, knocks):
        runs, fourth = bots_hard.melds_masks(melds)
        other = bots_hard.defender_count(real, runs, fourth) if count else bots_hard.dw(real)  # G-9, G-11
        out[("knock", a.card)] = value(*bots_hard.knock_result(view.seat or 0, count, other, view.rules))
    return out


def decide(args: tuple[int, bytes, dict[tuple[str, Any], float], Setting]) -> tuple[float, float]:
    """(real gain of the setting's choice, of the best option) over the model's discard."""
    k, blob, values, setting = args
    saved = {name: getattr(bots_hard, name) for name in setting}
    try:
        for name, v in setting.items():
            setattr(bots_hard, name, v)
        view, mem, hand, discards, knocks, _real = pickle.loads(blob)
        player = bots_hard.HardPlayer()
        player.memory = mem
        choice = player.discard_or_knock(view, hand, discards, knocks, random.Random(f"decide-{k}"))
        default = values[("discard", player.close_discards(view, hand, discards)[0].card)]
    finally:
        for name, v in saved.items():
            setattr(bots_hard, name, v)
    return values[(choice.kind, choice.card)] - default, max(values.values()) - default


def parse(text: str) -> Setting:
    setting = {}
    for item in filter(None, text.split(",")):
        name, _, v = item.partition("=")
        if not hasattr(bots_hard, name):
            raise SystemExit(f"bots_hard has no {name}")
        setting[name] = ast.literal_eval(v)
    return setting


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=7100)
    ap.add_argument("--real", type=int, default=400, help="stock orders with his real hand")
    ap.add_argument("--set", action="append", default=[], help="NAME=VALUE[,NAME=VALUE]")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    settings: list[tuple[str, Setting]] = [("shipped", {}), *((s, parse(s)) for s in args.set)]
    base = args.seed * 1_000_000
    with multiprocessing.Pool(args.jobs) as pool:
        kept = [b for bs in pool.map(record, range(base, base + args.games), chunksize=2) for b in bs]
        values = pool.map(real_values, [(k, b, args.real) for k, b in enumerate(kept)], chunksize=4)
        print(f"{len(kept)} decisions where the search runs, in {args.games} games")
        for label, setting in settings:
            jobs = [(k, b, v, setting) for k, (b, v) in enumerate(zip(kept, values, strict=True))]
            rows = pool.map(decide, jobs, chunksize=4)
            gains = [r[0] for r in rows]
            print(f"  {label:40s} real gain a decision {statistics.fmean(gains):+.5f}"
                  f" ± {statistics.stdev(gains) / len(gains) ** 0.5:.5f}", flush=True)
        print(f"  {'told his hand':40s} real gain a decision {statistics.fmean(r[1] for r in rows):+.5f}")


if __name__ == "__main__":
    main()
