"""A shoe that restarts while the port stays open (a UART shoe, a MicroPython soft reset):
the firmware's own logic on a pty restarts again and again under the real ShoeLink.

Every new boot must lead to ``HELLO?`` and cards (none stuck), every card the Pi ACKed
must reach the app exactly once (frames held out of order across a reboot included), and
what the old boot took with it is reported, never more than it really lost.
"""

from __future__ import annotations

import queue
import random
import time

from firmware_pty import FirmwareShoe
from waiting import wait_until

from device.events import SHOE_CARD, SHOE_CONNECTED, SHOE_LOST, ShoeEvent
from device.shoe.link import ShoeLink

RESTARTS = 300


class Watcher:
    def __init__(self, q: queue.Queue) -> None:
        self.q = q
        self.events: list[ShoeEvent] = []

    def pump(self, timeout: float = 0.01) -> None:
        try:
            self.events.append(self.q.get(timeout=timeout))
        except queue.Empty:
            return
        while True:
            try:
                self.events.append(self.q.get_nowait())
            except queue.Empty:
                return

    def card_from(self, boot: str, deadline: float) -> bool:
        while time.monotonic() < deadline:
            if any(e.kind == SHOE_CARD and e.boot == boot for e in self.events):
                return True
            self.pump()
        return False


def run_restarts(restarts: int, *, seed: int, drop: float) -> tuple[Watcher, FirmwareShoe, int]:
    rng = random.Random(seed)
    q: queue.Queue = queue.Queue()
    with (
        FirmwareShoe(seed=seed, drop_out=drop, drop_in=drop) as shoe,
        ShoeLink(shoe.path, events=q, backoff=(0.02, 0.1)) as link,
    ):
        watch = Watcher(q)
        stuck = 0
        assert watch.card_from(shoe.boot, time.monotonic() + 5), "no card before any restart"
        for _ in range(restarts):
            time.sleep(rng.uniform(0, 0.03))  # anywhere in a deal, with frames unacked
            shoe.restart()
            if not watch.card_from(shoe.boot, time.monotonic() + 4):
                stuck += 1
                if stuck >= 3:
                    break
        shoe.dealing.clear()  # let the last boot's cards all arrive
        deadline = time.monotonic() + 5
        while shoe.shoe.unacked and time.monotonic() < deadline:
            watch.pump()

        def settled() -> bool:  # what check_accounting counts on has reached the app
            watch.pump(0.005)
            with shoe.tally.lock:
                due = shoe.tally.pi_acked | shoe.tally.acked | (shoe.tally.written if not drop else set())
                restarts = shoe.tally.restarts
            got = {e.uid for e in watch.events if e.kind == SHOE_CARD}
            return due <= got and link.stats()["counters"]["restarts"] == restarts - stuck

        wait_until(settled, 5)  # and if not by then, the checks say what is missing
        watch.pump()
        assert link.stats()["counters"]["restarts"] == shoe.tally.restarts - stuck
    return watch, shoe, stuck


def check_accounting(watch: Watcher, shoe: FirmwareShoe, *, lossless: bool) -> tuple[int, int]:
    tally = shoe.tally
    got = [e.uid for e in watch.events if e.kind == SHOE_CARD]
    assert len(got) == len(set(got)), "a card was delivered twice"
    assert set(got) <= set(tally.dealt)
    for taken, what in ((tally.pi_acked, "the Pi ACKed"), (tally.acked, "the shoe saw ACKed")):
        missing = taken - set(got)
        assert not missing, f"{len(missing)} card(s) {what} never reached the app"
    if lossless:  # the pty loses nothing: every card frame written was read and delivered
        unseen = tally.written - set(got)
        assert not unseen, f"{len(unseen)} card(s) the Pi read were never delivered"
    reported = sum(e.info["count"] for e in watch.events if e.kind == SHOE_LOST)
    really_lost = len(set(tally.dealt) - set(got))
    assert reported <= really_lost  # no false alarms
    # Cards arrive in the order the shoe dealt them.
    index = {uid: i for i, uid in enumerate(tally.dealt)}
    assert [index[u] for u in got] == sorted(index[u] for u in got)
    return reported, really_lost


def test_three_hundred_restarts_with_the_port_open_none_stuck():
    watch, shoe, stuck = run_restarts(RESTARTS, seed=13, drop=0.0)
    assert stuck == 0, f"{stuck} restart(s) stuck: no card after the new boot's HELLO"
    boots = [e.boot for e in watch.events if e.kind == SHOE_CONNECTED]
    assert boots == shoe.tally.boots  # each boot announced once, in order
    reported, lost = check_accounting(watch, shoe, lossless=True)
    print(
        f"restarts={shoe.tally.restarts} stuck={stuck} torn={shoe.tally.torn} "
        f"dealt={len(shoe.tally.dealt)} reported_lost={reported} really_lost={lost}"
    )


def test_restarts_on_a_lossy_line_deliver_every_acked_card_and_report_the_rest():
    watch, shoe, stuck = run_restarts(100, seed=7, drop=0.05)
    assert stuck == 0
    reported, lost = check_accounting(watch, shoe, lossless=False)
    assert reported > 0  # the restarts did take cards with them, and the Pi said so
    print(
        f"restarts={shoe.tally.restarts} dealt={len(shoe.tally.dealt)} "
        f"pi_acked={len(shoe.tally.pi_acked)} reported_lost={reported} really_lost={lost}"
    )
