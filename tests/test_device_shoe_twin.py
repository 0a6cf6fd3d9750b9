"""The simulated twin (device/shoe/sim.py ShoeTwin: the firmware's own fwlogic.py with two
gates on a pty) under the real ShoeLink: cards and faults arrive as the right ShoeEvent
with their read point; unplug, replug and reboot lose no acknowledged card."""

from __future__ import annotations

import queue
import random
import time

import pytest
from waiting import wait_until

from device.events import ShoeEvent
from device.shoe.deckmap import DeckMap, sim_uid
from device.shoe.link import ShoeLink
from device.shoe.sim import Faults, ShoeTwin
from rummy.cards import parse_card, shuffled_deck

SPEED = 5.0  # the board's clock: 500 ms resend -> 100 ms


class Events:
    def __init__(self) -> None:
        self.q: queue.Queue = queue.Queue()
        self.got: list[ShoeEvent] = []

    def pump(self, timeout: float = 0.02) -> None:
        try:
            self.got.append(self.q.get(timeout=timeout))
            while True:
                self.got.append(self.q.get_nowait())
        except queue.Empty:
            pass

    def wait(self, pred, timeout: float = 8.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if pred(self.got):
                return True
            self.pump()
        return pred(self.got)

    def of(self, *kinds: str) -> list[ShoeEvent]:
        return [e for e in self.got if e.kind in kinds]


def reads(events: list[ShoeEvent]) -> list[tuple[str, str, str]]:
    """(kind, point, card or code) of cards and shoe errors, in arrival order."""
    out = []
    for e in events:
        if e.kind == "card":
            out.append((e.kind, e.point, str(e.card) if e.card else e.uid or ""))
        elif e.kind in ("misread", "double", "jam", "error"):
            out.append((e.kind, e.point, e.detail.split(",")[0]))
    return out


@pytest.fixture
def rig():
    ev = Events()
    with (
        ShoeTwin(speed=SPEED, seed=3) as twin,
        ShoeLink(
            twin.path, events=ev.q, deck_map=DeckMap.simulated(2), backoff=(0.02, 0.1)
        ) as link,
    ):
        assert ev.wait(lambda g: any(e.kind == "connected" for e in g))
        yield twin, link, ev


def test_hello_announces_both_points_and_cards_say_where_they_were_read(rig):
    twin, link, ev = rig
    (connected,) = ev.of("connected")
    assert connected.info["points"] == ("shoe", "slot") and connected.info["proto"] == 3
    assert link.points == ("shoe", "slot")
    twin.feed("shoe", "AS")
    twin.feed("slot", parse_card("KH"))
    twin.feed("shoe", sim_uid(parse_card("7D"), 1))  # by UID: the second pack's 7D
    assert twin.wait_idle(8)
    ev.pump(0.1)
    got = sorted(reads(ev.got))
    assert got == [("card", "shoe", "7D"), ("card", "shoe", "AS"), ("card", "slot", "KH")]
    sevens = [e for e in ev.of("card") if str(e.card) == "7D"]
    assert sevens[0].uid == sim_uid(parse_card("7D"), 1)


def test_each_injected_fault_arrives_as_its_event_at_its_point(rig):
    twin, _, ev = rig
    twin.misread("slot")
    assert twin.wait_idle(8)
    a, b = twin.double("shoe", "2C", "3C")
    assert twin.wait_idle(8)
    uid = twin.unknown("slot")
    assert twin.wait_idle(8)
    twin.jam("shoe", "QS", seconds=2.5)
    assert twin.wait_idle(8)
    ev.pump(0.1)
    assert reads(ev.got) == [
        ("misread", "slot", "MISREAD"),
        ("double", "shoe", "DOUBLE"),
        ("card", "slot", uid),
        ("jam", "shoe", "JAM"),
        ("card", "shoe", "QS"),
    ]
    (double,) = ev.of("double")
    assert double.info["uids"] == [a, b]
    assert [str(c) for c in double.info["cards"]] == ["2C", "3C"]
    (unknown,) = [e for e in ev.of("card") if e.uid == uid]
    assert unknown.card is None and "not in the deck map" in unknown.detail


def test_unplug_and_replug_mid_stream_loses_no_card(rig):
    twin, _, ev = rig
    order = shuffled_deck(random.Random(8))
    for i, card in enumerate(order[:20]):
        twin.feed("shoe" if i % 3 else "slot", card, gap_ms=20)
    assert ev.wait(lambda g: len([e for e in g if e.kind == "card"]) >= 5)  # mid-stream
    twin.unplug()
    assert ev.wait(lambda g: any(e.kind == "disconnected" for e in g))
    for card in order[20:30]:  # passed while unplugged: they wait in the board's window
        twin.feed("slot", card, gap_ms=20)
    assert wait_until(lambda: len(twin.tally.cards()) == 30, 8), "all 30 judged while unplugged"
    twin.replug()
    assert twin.wait_idle(10)
    assert ev.wait(lambda g: len([e for e in g if e.kind == "card"]) >= 30)
    ev.pump(0.1)
    cards = [str(e.card) for e in ev.of("card")]
    assert sorted(cards) == sorted(str(c) for c in order[:30]) and len(set(cards)) == 30
    assert [e.kind for e in ev.of("connected", "disconnected")] == [
        "connected",
        "disconnected",
        "connected",
    ]
    acked = twin.tally.pi_acked
    assert {f for f, k, _, _ in twin.tally.judged if k == "CARD"} <= acked


def test_a_reboot_is_a_new_boot_and_cards_flow_again(rig):
    twin, _, ev = rig
    first = twin.boot
    twin.feed("shoe", "AS")
    assert twin.wait_idle(8)
    twin.reboot()
    assert twin.boot != first
    twin.feed("slot", "KD")
    assert twin.wait_idle(8)
    assert ev.wait(lambda g: len([e for e in g if e.kind == "card"]) == 2)
    assert [(e.boot, e.point, str(e.card)) for e in ev.of("card")] == [
        (first, "shoe", "AS"),
        (twin.boot, "slot", "KD"),
    ]
    assert [e.boot for e in ev.of("connected")] == [first, twin.boot]


def test_a_shoe_only_board_refuses_the_slot_and_announces_only_shoe():
    ev = Events()
    with (
        ShoeTwin(points=("shoe",), speed=SPEED, faults=Faults()) as twin,
        ShoeLink(twin.path, events=ev.q, backoff=(0.02, 0.1)),
    ):
        assert ev.wait(lambda g: any(e.kind == "connected" for e in g))
        assert ev.of("connected")[0].info["points"] == ("shoe",)
        with pytest.raises(ValueError, match="no read point 'slot'"):
            twin.feed("slot", "AS")


def test_an_unplug_that_cuts_the_power_boots_the_board_again(rig):
    twin, _, ev = rig
    first = twin.boot
    twin.feed("shoe", "AS")
    twin.feed("slot", "KH")
    assert twin.wait_idle(8)
    twin.unplug(power_cut=True)
    assert ev.wait(lambda g: any(e.kind == "disconnected" for e in g))
    twin.feed("slot", "QC")  # pushed through a dead gate: never read
    assert wait_until(lambda: twin.tally.unread and twin.idle, 8), "the pass is over, unread"
    twin.replug()
    assert ev.wait(lambda g: [e.boot for e in g if e.kind == "connected"][-1:] == [twin.boot])
    assert twin.boot != first and twin.tally.power_cuts == 1
    assert twin.tally.unread == [("slot", (sim_uid(parse_card("QC")),))]
    twin.feed("slot", "QC")  # the table asked: passed again
    assert twin.wait_idle(8)
    assert ev.wait(lambda g: len([e for e in g if e.kind == "card"]) == 3)
    assert [(e.boot, e.point, str(e.card)) for e in ev.of("card")] == [
        (first, "shoe", "AS"),
        (first, "slot", "KH"),
        (twin.boot, "slot", "QC"),
    ]
