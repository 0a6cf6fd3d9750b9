"""Which setting of gin ``hard`` decides better, on the same decisions? (issue 12)

Games to 100 against OpenSpiel's simple bot (as ``benchmarks/bots.py`` plays them) are
played once with the shipped player; every decision where its search may run is kept
with the opponent's real ten cards: discards (two or more close discards, or a knock)
and take-or-draw choices (G-5.1: the discard on offer or the stock). Each option is then
valued with his real hand and ``--real`` random stock orders (what the benchmark knows;
the player is never told): the chance of winning the game after playing it out
(:func:`rummy.gin.bots_hard.HardPlayer._play_on`, ``draw_values``) or after the knock's
count against his (G-11, G-12). For the shipped setting and each ``--set``, the player
decides each kept decision again from its own view, and the real chance gained over the
model's choice (its best discard, :func:`rummy.gin.bots.worth_taking` for a draw) is
printed per decision of each kind; "told his hand" is the best option's.
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
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from openspiel_gin import openspiel_match  # noqa: E402

from rummy.actions import Action  # noqa: E402
from rummy.cards import Card  # noqa: E402
from rummy.gin import bots_hard  # noqa: E402
from rummy.gin.bots import worth_taking  # noqa: E402
from rummy.gin.view import SeatView  # noqa: E402

Setting = dict[str, Any]


class Recorder(bots_hard.HardPlayer):
    """The shipped player, which keeps every decision its search may run at."""

    def __init__(self) -> None:
        super().__init__()
        self.real = 0
        self.kept: list[tuple[str, bytes]] = []

    def tell(self, cards: Any) -> None:  # openspiel_gin hands the benchmark's player this
        self.real = sum(c.bit for c in cards)

    def play(
        self, view: SeatView, legal: Sequence[Action], kinds: Mapping[str, Action],
        hand: list[Card], rng: random.Random,
    ) -> Action:
        top = view.discard_top
        if "draw_discard" in kinds and "draw_stock" in kinds and top is not None:
            self.kept.append(("draw", pickle.dumps((view, self.memory, list(hand), top, self.real))))
        return super().play(view, legal, kinds, hand, rng)

    def discard_or_knock(
        self, view: SeatView, hand: list[Card], discards: list[Action], knocks: list[Action],
        rng: random.Random,
    ) -> Action:
        close = self.close_discards(view, hand, discards)
        if len(close) >= 2 or knocks and close:
            blob = pickle.dumps((view, self.memory, list(hand), discards, knocks, self.real))
            self.kept.append(("discard", blob))
        return super().discard_or_knock(view, hand, discards, knocks, rng)


def record(seed: int) -> list[tuple[str, bytes]]:
    player = Recorder()
    openspiel_match("hard", seed, player)
    return player.kept


def _player(mem: Any) -> bots_hard.HardPlayer:
    player = bots_hard.HardPlayer()
    player.memory = mem
    return player


def real_values(args: tuple[int, tuple[str, bytes], int]) -> dict[tuple[str, Any], float]:
    """Every option of kept decision number ``k``, valued with the opponent's real hand."""
    k, (kind, blob), stocks = args
    view, mem, hand, *rest = pickle.loads(blob)
    real = rest[-1]
    player = _player(mem)
    value = player._valuer(view)
    rng = random.Random(f"real-{k}")
    unseen = [c.bit for c in mem.unknown(view)]
    worlds = [bots_hard.world(real, unseen, view.stock_size, rng) for _ in range(stocks)]
    if kind == "draw":
        take, draw = player.draw_values(view, hand, rest[0], worlds, value)
        return {("draw_discard", None): take, ("draw_stock", None): draw}
    discards, knocks = rest[0], rest[1]
    out = {("discard", a.card): player._play_on(view, hand, a.card, worlds, value) for a in discards}
    for count, _i, a, melds in bots_hard.knock_options(hand, knocks):
        runs, fourth = bots_hard.melds_masks(melds)
        other = bots_hard.defender_count(real, runs, fourth) if count else bots_hard.dw(real)  # G-9, G-11
        out[("knock", a.card)] = value(*bots_hard.knock_result(view.seat or 0, count, other, view.rules))
    return out


def decide(args: tuple[int, tuple[str, bytes], dict[tuple[str, Any], float], Setting]) -> tuple[float, float]:
    """(real gain of the setting's choice, of the best option) over the model's choice."""
    k, (kind, blob), values, setting = args
    saved = {name: getattr(bots_hard, name) for name in setting}
    rng = random.Random(f"decide-{k}")
    try:
        for name, v in setting.items():
            setattr(bots_hard, name, v)
        view, mem, hand, *rest = pickle.loads(blob)
        player = _player(mem)
        if kind == "draw":
            top, seat = rest[0], view.seat or 0
            take, stock = Action("draw_discard", seat), Action("draw_stock", seat)
            kinds = {"draw_discard": take, "draw_stock": stock}
            choice = player.play(view, [take, stock], kinds, hand, rng)
            wants = worth_taking(hand, top, view.knock_limit or 0)
            default = values[("draw_discard" if wants else "draw_stock", None)]
            return values[(choice.kind, None)] - default, max(values.values()) - default
        discards, knocks = rest[0], rest[1]
        choice = player.discard_or_knock(view, hand, discards, knocks, rng)
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
    ap.add_argument("--cache", type=Path, help="keep the decisions and their values here")
    args = ap.parse_args()
    settings: list[tuple[str, Setting]] = [("shipped", {}), *((s, parse(s)) for s in args.set)]
    base = args.seed * 1_000_000
    with multiprocessing.Pool(args.jobs) as pool:
        if args.cache and args.cache.exists():
            kept, values = pickle.loads(args.cache.read_bytes())
        else:
            kept = [b for bs in pool.map(record, range(base, base + args.games), chunksize=2) for b in bs]
            values = pool.map(real_values, [(k, b, args.real) for k, b in enumerate(kept)], chunksize=4)
            if args.cache:
                args.cache.write_bytes(pickle.dumps((kept, values)))
        kinds = [kind for kind, _ in kept]
        print(f"{args.games} games: {kinds.count('discard')} discards where the search runs,"
              f" {kinds.count('draw')} take-or-draw choices")
        for label, setting in settings:
            jobs = [(k, d, v, setting) for k, (d, v) in enumerate(zip(kept, values, strict=True))]
            rows = pool.map(decide, jobs, chunksize=4)
            for kind in ("discard", "draw"):
                gains = [r[0] for r, kd in zip(rows, kinds, strict=True) if kd == kind]
                print(f"  {label:40s} {kind:7s} real gain a decision {statistics.fmean(gains):+.5f}"
                      f" ± {statistics.stdev(gains) / len(gains) ** 0.5:.5f}", flush=True)
        for kind in ("discard", "draw"):
            best = [r[1] for r, kd in zip(rows, kinds, strict=True) if kd == kind]
            print(f"  {'told his hand':40s} {kind:7s} real gain a decision {statistics.fmean(best):+.5f}")


if __name__ == "__main__":
    main()
