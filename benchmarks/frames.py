"""Frame times on the gin table, idle CPU on the attract screen, time to first frame, memory.

    python benchmarks/frames.py            # all figures (about 20 s)

Runs with SDL's dummy video driver, so "present" is a memory copy; on a Pi the display
flip adds its own cost. Targets on a desktop: p99 ≤ 5 ms, idle ≤ 3 % of one core, first
frame ≤ 1 s, ≤ 100 MB resident.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def _app(size, state_dir, mode="headless", **display):
    from dataclasses import replace

    from display.app import App
    from display.config import load_config

    config, _ = load_config(None, env={"RUMMY_TABLE_STATE_DIR": state_dir})
    if display:
        config = replace(config, display=replace(config.display, **display))
    return App(config, mode=mode, size=size, state_dir=state_dir, seed=1)


def table_frames(size, frames=300) -> tuple[float, float, float]:
    """(mean ms, p99 ms, mean ms of an idle frame) with every frame fully redrawn."""
    with tempfile.TemporaryDirectory() as d:
        app = _app(size, d, privacy="open")
        app.start_match("gin", [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}])
        m = app.match
        for _ in range(9):  # into the middle of the first hand
            seat = m.to_act()[0]
            legal = m.legal(seat)
            pick = next((a for a in legal if a.kind in ("pass_upcard", "draw_stock")), None)
            m.submit(pick or next(a for a in legal if a.kind == "discard"))
        app.frame(events=[])
        times = []
        for _ in range(frames):
            app.scene.dirty = True
            t = time.perf_counter()
            app.frame(events=[])
            times.append((time.perf_counter() - t) * 1000)
        idle = []
        for _ in range(frames):
            t = time.perf_counter()
            app.frame(events=[])
            idle.append((time.perf_counter() - t) * 1000)
        app.close()
    times.sort()
    return statistics.fmean(times), times[int(len(times) * 0.99) - 1], statistics.fmean(idle)


def idle_cpu(seconds=6.0) -> float:
    """CPU use (% of one core) of the real main loop sitting on the attract screen."""
    with tempfile.TemporaryDirectory() as d:
        app = _app((1280, 800), d, mode="sim")
        threading.Timer(seconds + 1.0, lambda: setattr(app, "running", False)).start()
        result = {}

        def measure():
            time.sleep(1.0)  # skip start-up
            c0, w0 = time.process_time(), time.perf_counter()
            time.sleep(seconds)
            result["cpu"] = (time.process_time() - c0) / (time.perf_counter() - w0) * 100

        th = threading.Thread(target=measure)
        th.start()
        app.run()
        th.join()
    return result["cpu"]


def first_frame_child() -> None:
    with tempfile.TemporaryDirectory() as d:
        app = _app((1280, 800), d, mode="sim")
        app.start()
        while app.first_frame_t is None:
            app.frame()
        print("FIRST", flush=True)
        app.close()


def first_frame() -> float:
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, __file__, "--first-frame"], stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    t = time.perf_counter() - t0
    proc.wait()
    assert line.strip() == "FIRST", line
    return t


def main(argv: list[str]) -> int:
    if argv[:1] == ["--first-frame"]:
        first_frame_child()
        return 0
    print(f"python {sys.version.split()[0]}, SDL_VIDEODRIVER={os.environ['SDL_VIDEODRIVER']}")
    for size in ((1280, 800), (1920, 1080), (800, 480)):
        mean, p99, idle = table_frames(size)
        print(f"gin table {size[0]}x{size[1]}: full redraw mean {mean:.2f} ms, p99 {p99:.2f} ms; "
              f"frame with nothing to redraw {idle:.3f} ms")
    print(f"idle CPU on the attract screen: {idle_cpu():.1f} % of one core")
    print(f"time from start to first frame: {first_frame():.2f} s")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory (this process, after all of the above): {rss:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
