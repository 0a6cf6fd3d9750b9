"""Both read gates of the simulated twin (the firmware's own fwlogic.py on a pty) under the
real ShoeLink, soak style: cards through the shoe and the slot side by side, frames lost
both ways, reboots with the port open, unplug and replug mid-stream (with the board
powered elsewhere, or powered by the cable: a power cut and a reboot).

Every frame the Pi ACKed reaches the app exactly once, with its read point and in the
order the board judged it; what a reboot took with it is reported as ``lost``, never more
than was really lost; unplug/replug alone loses nothing.
"""

from __future__ import annotations

import queue
import random
import time
from dataclasses import dataclass

from waiting import wait_until

from device.events import SHOE_CARD, SHOE_CONNECTED, SHOE_LOST, ShoeEvent
from device.shoe.link import ShoeLink
from device.shoe.sim import Faults, ShoeTwin


@dataclass
class Run:
    events: list[ShoeEvent]
    twin: ShoeTwin
    stats: dict
    fed: int


def soak(
    *, rounds: int, seed: int, faults: Faults, reboot: float, unplug: float, cut: float = 0.0
) -> Run:
    rng = random.Random(seed)
    q: queue.Queue = queue.Queue()
    events: list[ShoeEvent] = []

    def pump(timeout: float = 0.0) -> None:
        try:
            events.append(q.get(timeout=timeout) if timeout else q.get_nowait())
            while True:
                events.append(q.get_nowait())
        except queue.Empty:
            pass

    fed = 0
    with (
        ShoeTwin(speed=5.0, seed=seed, faults=faults) as twin,
        ShoeLink(twin.path, events=q, backoff=(0.02, 0.1)) as link,
    ):
        deadline = time.monotonic() + 5
        while not link.connected and time.monotonic() < deadline:
            pump(0.02)
        assert link.connected
        for _ in range(rounds):
            deadline = time.monotonic() + 5
            while not link.connected and time.monotonic() < deadline:
                pump(0.01)  # the table says "shoe unplugged": the players wait
            for _ in range(rng.randrange(1, 7)):  # a few cards, both gates at once
                fed += 1
                point = rng.choice(("shoe", "slot"))
                twin.feed(point, f"04{fed:012X}", hold_ms=25, gap_ms=rng.randrange(5, 60))
            time.sleep(rng.uniform(0.0, 0.06))
            what = rng.random()
            if what < reboot:
                twin.reboot()  # anywhere in the stream, frames unacked
            elif what < reboot + unplug:
                twin.unplug(power_cut=rng.random() < cut)  # a cut: the board reboots too
                time.sleep(rng.uniform(0.05, 0.3))
                twin.replug()
            pump()
        assert twin.wait_idle(20), "the board still holds frames the Pi never ACKed"

        def delivered() -> bool:  # every frame the Pi ACKed is on the queue before its ACK
            pump(0.005)
            with twin.tally.lock:
                acked = set(twin.tally.pi_acked) & {f for f, *_ in twin.tally.judged}
            return acked <= {(e.boot, e.seq) for e in events if e.kind == SHOE_CARD}

        wait_until(delivered, 5)  # and if not by then, check() names what is missing
        pump()
        stats = link.stats()
    return Run(events, twin, stats, fed)


def check(run: Run, *, lossless: bool) -> tuple[int, int]:
    tally = run.twin.tally
    judged = {f: (kind, pt, what) for f, kind, pt, what in tally.judged}
    got = [((e.boot, e.seq), e) for e in run.events if e.kind == SHOE_CARD]
    frames = [f for f, _ in got]
    assert len(frames) == len(set(frames)), "a frame was delivered twice"
    for frame, e in got:  # each as the board judged it: its point, its tag
        assert judged[frame] == ("CARD", e.point, e.uid)
    missing = (tally.pi_acked & set(judged)) - set(frames)
    assert not missing, f"{len(missing)} frame(s) the Pi ACKed never reached the app"
    order = [f for f, *_ in tally.judged]
    index = {f: i for i, f in enumerate(order)}
    assert [index[f] for f in frames] == sorted(index[f] for f in frames), "out of order"
    really_lost = len(set(judged) - set(frames))
    reported = sum(e.info["count"] for e in run.events if e.kind == SHOE_LOST)
    assert reported <= really_lost  # no false alarms
    if lossless:
        assert really_lost == 0 and reported == 0
    boots = [e.boot for e in run.events if e.kind == SHOE_CONNECTED]
    # boots connect in the order they came (one rebooted again before the Pi named it
    # never does); every boot whose frame the Pi ACKed did
    seen = list(dict.fromkeys(boots))
    assert seen == [b for b in tally.boots if b in seen]
    assert {b for b, _ in tally.pi_acked} <= set(seen)
    return reported, really_lost


def test_both_gates_with_unplugs_and_a_lossy_line_lose_nothing():
    run = soak(
        rounds=60,
        seed=21,
        faults=Faults(garbage=0.05, bad_crc=0.05, drop=0.05, dup=0.05, drop_in=0.05),
        reboot=0.0,
        unplug=0.2,
    )
    tally = run.twin.tally
    assert tally.unplugs >= 5 and tally.dropped == 0
    reported, lost = check(run, lossless=True)
    points = {pt for _, kind, pt, _ in tally.judged if kind == "CARD"}
    assert points == {"shoe", "slot"} and len(tally.cards()) == run.fed
    c = run.stats["counters"]
    assert c["disconnects"] == tally.unplugs and c["connects"] == tally.unplugs + 1
    print(
        f"fed={run.fed} unplugs={tally.unplugs} delivered={c['cards']} lost={lost} "
        f"bad_crc={c['bad_crc']} noise={c['noise']} duplicates={c['duplicates']}"
    )


def test_both_gates_with_reboots_unplugs_and_loss_deliver_every_acked_card():
    run = soak(
        rounds=80,
        seed=5,
        faults=Faults(bad_crc=0.05, drop=0.05, drop_in=0.05),
        reboot=0.25,
        unplug=0.15,
        cut=0.5,
    )
    tally = run.twin.tally
    assert tally.reboots >= 10 and tally.unplugs >= 5 and tally.power_cuts >= 2
    reported, lost = check(run, lossless=False)
    # Only a reboot loses frames, or the board's window of 32 unacked frames when a burst
    # meets a board the Pi has not named yet (oldest pushed out, counted in tally.dropped;
    # seed 5 does it in about one run of three, 8 frames of a fresh boot).
    assert lost <= len(tally.lost_in_reboot) + tally.dropped
    print(
        f"fed={run.fed} reboots={tally.reboots} unplugs={tally.unplugs} "
        f"power_cuts={tally.power_cuts} unread={len(tally.unread)} "
        f"judged={len(tally.judged)} pi_acked={len(tally.pi_acked)} "
        f"lost_in_reboot={len(tally.lost_in_reboot)} dropped={tally.dropped} really_lost={lost} "
        f"reported={reported}"
    )
