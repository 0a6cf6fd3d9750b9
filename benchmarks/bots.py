"""Computer players head to head, with 95 % confidence intervals (issue 12).

Gin: each level against ``basic`` and against OpenSpiel's ``SimpleGinRummyBot`` — whole
games to 100 under the ``standard`` preset, the level in each seat for half the games;
reported: games won, points per hand (the level's minus the opponent's, per hand dealt)
and hands won. Against OpenSpiel every hand is played in OpenSpiel's own engine with
a deck order drawn by us, and the same deal is replayed in our engine so our rules
score it (see ``benchmarks/openspiel_gin.py``; open_spiel is a benchmark-only
dependency, the ``bench`` extra). Contract: one player of a level against three
``basic`` in four-player matches (match wins, fair share 25 %), and four of a level
(share of deals someone goes out, per deal). Decision times: median and p99 per level.

Matches run in worker processes under ``nice``. Run:

    .venv/bin/python benchmarks/bots.py [--games N] [--contract-matches N] [--jobs J]
        [--only gin|contract|openspiel|times] [--levels easy,medium,hard]
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rummy.games import get_engine  # noqa: E402
from rummy.play import paired_rngs, play_match  # noqa: E402


def wilson(k: float, n: int) -> tuple[float, float, float]:
    """Share and its 95 % Wilson interval, in per cent."""
    if n == 0:
        return 0.0, 0.0, 0.0
    z = 1.96
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return 100 * p, 100 * (mid - half), 100 * (mid + half)


def mean_ci(xs: Sequence[float]) -> tuple[float, float]:
    """Mean and the half width of its 95 % interval."""
    if len(xs) < 2:
        return (xs[0] if xs else 0.0), 0.0
    return statistics.fmean(xs), 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


# --- gin: our engine ---------------------------------------------------------------------


def gin_game(args: tuple[str, str, int, str]) -> tuple[int, float, int, int, int]:
    """One game of ``level`` against ``other``; the level sits in seat ``seed % 2``.

    Returns (level won, level's points minus the other's, hands, hands won, hands lost).
    """
    level, other, seed, preset = args
    engine = get_engine("gin")
    me = seed % 2
    players = [engine.player(other), engine.player(other)]
    players[me] = engine.player(level)
    state = engine.new_match(engine.preset(preset), 2, first_dealer=(seed // 2) % 2)
    rng, deals = paired_rngs(seed)
    state, _ = play_match(engine, state, players, rng, deal_rng=deals)
    pts = 0.0
    won = lost = 0
    results = state.hand_results  # single_game: the one game's hands
    for r in results:
        if r.winner is None:
            continue
        pts += r.points if r.winner == me else -r.points
        won += r.winner == me
        lost += r.winner != me
    return int(state.winner == me), pts, len(results), won, lost


def report(label: str, rows: list[tuple[int, float, int, int, int]]) -> None:
    n = len(rows)
    wins = sum(r[0] for r in rows)
    share, lo, hi = wilson(wins, n)
    hands = sum(r[2] for r in rows)
    per_hand = [r[1] / max(1, r[2]) for r in rows]  # per game, then averaged: a fair CI
    pts, half = mean_ci(per_hand)
    pph = sum(r[1] for r in rows) / max(1, hands)
    hw = wilson(sum(r[3] for r in rows), max(1, sum(r[3] + r[4] for r in rows)))
    print(
        f"{label:28s} games {wins:4d}/{n:<4d} {share:5.1f} % [{lo:5.1f}, {hi:5.1f}]"
        f"   points/hand {pph:+6.2f} (per-game mean {pts:+6.2f} ± {half:4.2f})"
        f"   hands won {hw[0]:5.1f} % [{hw[1]:4.1f}, {hw[2]:4.1f}]   ({hands} hands)",
        flush=True,
    )


# --- contract ----------------------------------------------------------------------------


def contract_match(args: tuple[str, str, int, str]) -> tuple[float, int, list[int], list[int]]:
    """One four-player match: ``level`` in seat ``seed % 4`` against three ``other``.

    Returns (level won, seats, per deal: 1 when someone went out, per deal number).
    """
    level, other, seed, preset = args
    engine = get_engine("contract")
    me = seed % 4
    players = [engine.player(level) if i == me or other == level else engine.player(other)
               for i in range(4)]
    state = engine.new_match(engine.preset(preset), 4)
    rng, deals = paired_rngs(seed)
    state, steps = play_match(engine, state, players, rng, deal_rng=deals)
    outs: list[int] = []
    numbers: list[int] = []
    for _action, events in steps:
        for e in events:
            if e.kind == "hand_scored":
                outs.append(int(e.data.get("finisher") is not None))
                numbers.append(int(e.data["deal"]))
    scores = list(state.scores)
    best = max(scores)  # C-7.4: the highest total wins; a shared win counts a share
    won = scores[me] == best
    won = won / scores.count(best) if won else 0
    return won, 4, outs, numbers


# --- decision times ----------------------------------------------------------------------


def decision_times(args: tuple[str, str, int]) -> list[float]:
    """Seconds per decision of ``level`` over one game against ``basic`` (wall clock;
    ``cpu_decision_times`` for this thread's CPU time, which other load disturbs less)."""
    return _decision_times(args)[0]


def cpu_decision_times(args: tuple[str, str, int]) -> list[float]:
    """CPU seconds per decision of ``level`` over one game against ``basic``."""
    return _decision_times(args)[1]


def _decision_times(args: tuple[str, str, int]) -> tuple[list[float], list[float]]:
    game, level, seed = args
    engine = get_engine(game)
    seats = 2 if game == "gin" else 4
    players = [engine.player("basic") for _ in range(seats)]
    timed = engine.player(level)
    times: list[float] = []
    cpu: list[float] = []

    class Timed:
        def choose(self, eng: Any, view: Any, legal: Any, rng: random.Random) -> Any:
            t, c = time.perf_counter(), time.thread_time()
            a = timed.choose(eng, view, legal, rng)
            times.append(time.perf_counter() - t)
            cpu.append(time.thread_time() - c)
            return a

    players[seed % seats] = Timed()  # type: ignore[assignment]
    preset = "standard" if game == "gin" else "seed_002"
    state = engine.new_match(engine.preset(preset), seats)
    play_match(engine, state, players, random.Random(seed))
    return times, cpu


def pool_map(fn: Callable[[Any], Any], jobs: list[Any], procs: int) -> list[Any]:
    if procs <= 1:
        return [fn(j) for j in jobs]
    with multiprocessing.Pool(procs, initializer=os.nice, initargs=(10,)) as pool:
        return pool.map(fn, jobs, chunksize=max(1, len(jobs) // (procs * 8)))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="gin games per pairing")
    ap.add_argument("--contract-matches", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--levels", default="easy,medium,hard")
    ap.add_argument("--only", default="gin,openspiel,contract,times")
    ap.add_argument("--games-only", default="", help="times: only these games (gin,contract)")
    ap.add_argument("--preset", default="standard")
    ap.add_argument("--no-basic-rows", action="store_true",
                    help="skip the basic reference rows (contract; gin vs OpenSpiel)")
    args = ap.parse_args(argv)
    levels = args.levels.split(",")
    parts = args.only.split(",")
    base = args.seed * 1_000_000
    if "gin" in parts:
        print(f"gin, {args.preset}, games to {get_engine('gin').preset(args.preset).game_target}, "
              f"{args.games} games per pairing, both seats:", flush=True)
        for level in levels:
            jobs = [(level, "basic", base + i, args.preset) for i in range(args.games)]
            report(f"{level} vs basic", pool_map(gin_game, jobs, args.jobs))
    if "openspiel" in parts:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from openspiel_gin import openspiel_game

        print(f"gin vs OpenSpiel SimpleGinRummyBot, {args.games} games per pairing:", flush=True)
        for level in levels if args.no_basic_rows else ["basic", *levels]:
            jobs = [(level, base + i) for i in range(args.games)]
            report(f"{level} vs openspiel-simple", pool_map(openspiel_game, jobs, args.jobs))
    if "contract" in parts:
        n = args.contract_matches
        print(f"contract, seed_002, {n} four-player matches per row:", flush=True)
        rows_levels = levels if args.no_basic_rows else ["basic", *levels]
        for level in rows_levels:
            jobs = [(level, "basic", base + i, "seed_002") for i in range(n)]
            rows = pool_map(contract_match, jobs, args.jobs)
            share, lo, hi = wilson(sum(r[0] for r in rows), n)
            print(f"  {level} + 3 basic: {level} wins {share:5.1f} % [{lo:5.1f}, {hi:5.1f}]"
                  " (fair share 25 %)", flush=True)
        for level in rows_levels:
            jobs = [(level, level, base + i, "seed_002") for i in range(n)]

            jobs = jobs[: max(1, n // 4)]  # deals, not matches, are counted here
            rows = pool_map(contract_match, jobs, args.jobs)
            per: dict[int, list[int]] = {}
            for r in rows:
                for went, number in zip(r[2], r[3], strict=True):
                    per.setdefault(number, []).append(went)
            total = [w for r in rows for w in r[2]]
            s, lo, hi = wilson(sum(total), len(total))
            deals = "  ".join(f"deal {d}: {100 * sum(v) / len(v):5.1f} %" for d, v in sorted(per.items()))
            print(f"  four {level}: someone goes out {s:5.1f} % [{lo:4.1f}, {hi:4.1f}] of"
                  f" {len(total)} deals; {deals}", flush=True)
    if "times" in parts:
        print("decision times (one level against basic, whole games):", flush=True)
        for game in (args.games_only or "gin,contract").split(","):
            for level in ["basic", *levels]:
                jobs = [(game, level, base + i) for i in range(20 if game == "gin" else 6)]
                both = pool_map(_decision_times, jobs, args.jobs)
                for clock, k in (("wall", 0), ("cpu", 1)):
                    times = sorted(t for ts in both for t in ts[k])
                    med = times[len(times) // 2] * 1e3
                    p99 = times[min(len(times) - 1, int(len(times) * 0.99))] * 1e3
                    print(f"  {game:8s} {level:6s} {clock:4s} median {med:7.2f} ms   p99 {p99:7.2f}"
                          f" ms   max {times[-1] * 1e3:7.2f} ms   ({len(times)} decisions)",
                          flush=True)


if __name__ == "__main__":
    main()
