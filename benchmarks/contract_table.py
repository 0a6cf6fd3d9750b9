"""How long the contract table takes to draw a frame, per seat count and screen size.

    python benchmarks/contract_table.py [--frames 40]

Plays a seeded game with computer judgement (through ``MatchDriver.submit``) and times
``scene.draw`` after each move, after one untimed first frame (only the panels and centre that changed are redrawn). Prints
the median, 95th and 99th percentile in milliseconds. Headless (SDL dummy driver): on the Pi,
multiply by the ratio this machine's ``benchmarks/`` figures show against the Pi's.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def measure(size: tuple[int, int], seats: int, frames: int) -> list[tuple[float, float]]:
    """(wall, CPU of this thread) ms of each frame drawn after a move."""
    from display.app import App
    from display.config import load_config
    from display.match import make_player

    with tempfile.TemporaryDirectory() as state:
        config, _ = load_config(None, env={"RUMMY_TABLE_STATE_DIR": state})
        app = App(config, mode="headless", size=size, state_dir=state, seed=1)
        app.change(privacy="open")
        app.start_match("contract", [{"name": f"Player {i + 1}", "kind": "human"} for i in range(seats)])
        m, rng, bot = app.match, random.Random(1), make_player("contract")
        app.scene.draw(app.screen.surface)  # the first frame (fonts, card faces) is not timed
        times = []
        while len(times) < frames and not m.is_over:
            if m.review_pending:
                m.continue_after_review()
                app.show_match()
                continue
            seat = m.to_act()[0]
            m.submit(bot.choose(m.engine, m.engine.view(m.state, seat), m.legal(seat), rng))
            scene = app.scene
            scene.update(app.clock())
            t0, c0 = time.perf_counter(), time.thread_time()
            scene.targets = []
            scene.draw(app.screen.surface)
            times.append(((time.perf_counter() - t0) * 1000, (time.thread_time() - c0) * 1000))
        app.close()
    return times


def main() -> int:
    p = argparse.ArgumentParser(description="contract table frame times")
    p.add_argument("--frames", type=int, default=150)
    args = p.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    # CPU: the main thread's own time, which a busy shared machine inflates far less than wall time
    print(f"{'size':>10} {'seats':>5} {'median ms':>10} {'p95 ms':>8} {'p99 ms':>8} {'CPU median':>11} "
          f"{'CPU p99':>8}")
    for size in ((800, 480), (1280, 800), (1920, 1080)):
        for seats in (2, 4, 6):
            got = measure(size, seats, args.frames)
            t, c = sorted(w for w, _c in got), sorted(c for _w, c in got)
            p95 = t[min(len(t) - 1, int(len(t) * 0.95))]
            p99 = t[min(len(t) - 1, int(len(t) * 0.99))]
            print(f"{f'{size[0]}x{size[1]}':>10} {seats:>5} {statistics.median(t):>10.1f} {p95:>8.1f} {p99:>8.1f} "
                  f"{statistics.median(c):>11.1f} {c[min(len(c) - 1, int(len(c) * 0.99))]:>8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
