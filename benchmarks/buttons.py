"""Button benchmark: press-to-queue latency through gpiozero (MockFactory) and ButtonBoard.

Two figures:
  * callback path: drive_low() -> gpiozero callback -> debounce/lockout -> queue.put,
    measured in one thread (the mock fires callbacks synchronously);
  * cross-thread: a "GPIO" thread drives the pins, the main thread blocks on the queue
    and measures now - event.t (event.t is taken in the callback), as the app does.
On a Pi the lgpio edge thread replaces drive_low(); add its own interrupt latency.

    .venv/bin/python benchmarks/buttons.py [--presses 5000]
"""

from __future__ import annotations

import argparse
import queue
import statistics
import threading
import time

from gpiozero.pins.mock import MockFactory

from device.buttons import ButtonBoard
from device.pins import parse_button_config


def summary(name: str, samples: list[float]) -> None:
    us = sorted(s * 1e6 for s in samples)
    p99 = us[int(len(us) * 0.99) - 1]
    print(
        f"{name:<14} n={len(us)}  median {statistics.median(us):7.1f} us  "
        f"p99 {p99:7.1f} us  max {us[-1]:8.1f} us"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--presses", type=int, default=5000)
    args = ap.parse_args()
    # No lockout/debounce so presses can follow each other quickly in the benchmark.
    config, errors = parse_button_config({"seat_count": 6, "lockout": 0, "debounce": 0})
    assert config is not None, errors
    events: queue.Queue = queue.Queue()
    with ButtonBoard(config, pin_factory=MockFactory(), events=events) as board:
        keys = board.buttons()
        pins = [board.pin_factory.pin(board.pin_of(*k)) for k in keys]

        same_thread = []
        for i in range(args.presses):
            pin = pins[i % len(pins)]
            t0 = time.perf_counter()
            pin.drive_low()
            events.get_nowait()
            same_thread.append(time.perf_counter() - t0)
            pin.drive_high()
            events.get_nowait()

        cross = []

        def gpio_thread() -> None:
            for i in range(args.presses):
                pin = pins[i % len(pins)]
                pin.drive_low()
                time.sleep(0.0002)
                pin.drive_high()
                time.sleep(0.0002)

        worker = threading.Thread(target=gpio_thread)
        worker.start()
        got = 0
        while got < 2 * args.presses:
            event = events.get(timeout=5)
            cross.append(time.monotonic() - event.t)
            got += 1
        worker.join()
    print(f"ButtonBoard over MockFactory, {len(keys)} buttons (6 seats), hold thread running")
    summary("callback path", same_thread)
    summary("cross-thread", cross)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
