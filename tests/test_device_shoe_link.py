"""ShoeReceiver protocol logic and ShoeLink supervision (no subprocess)."""

from __future__ import annotations

import os
import queue
import random
import select
import time
import tty

from hypothesis import given, settings
from hypothesis import strategies as st
from waiting import wait_until

from device.events import ShoeEvent
from device.shoe import protocol as p
from device.shoe.deckmap import DeckMap, sim_uid
from device.shoe.link import ShoeLink, ShoeReceiver
from device.shoe.sim import Faults, MemoryShoe, run_loopback
from rummy.cards import parse_card, shuffled_deck

BOOT = "0BADCAFE"


def drain(q: queue.Queue) -> list[ShoeEvent]:
    out = []
    while not q.empty():
        out.append(q.get_nowait())
    return out


def hello(base=0, boot=BOOT, proto=p.PROTO_VERSION, ready=True, seq=None, points=("shoe",)):
    """A shoe's HELLO; by default its reply to our HELLO? (``ready=1``)."""
    fields = list(p.hello_fields("1.0.0", boot, "PN532", base, ready, points))
    fields[0] = f"proto={proto}"
    return p.encode(base if seq is None else seq, p.HELLO, fields)


def card(seq, c="AS", deck=0, point="shoe"):
    return p.encode(seq, p.CARD, p.card_fields(sim_uid(parse_card(c), deck), point))


def err(seq, code, detail="", point="shoe"):
    return p.encode(seq, p.ERR, p.err_fields(code, point, detail))


def acks(frames):
    return [int(p.decode(f)[2][0]) for f in frames if p.decode(f)[1] == p.ACK]


def make(deck_map=None):
    q: queue.Queue = queue.Queue()
    rx = ShoeReceiver(events=q, deck_map=deck_map or DeckMap.simulated(1), port="test")
    return rx, q


def test_connected_after_hello_then_cards_in_order():
    rx, q = make()
    assert p.decode(rx.start_connection()[0])[1] == p.HELLO_Q
    assert rx.feed(hello()) == []
    assert acks(rx.feed(card(0, "AS"))) == [0]
    assert acks(rx.feed(card(1, "KH"))) == [1]
    events = drain(q)
    assert [e.kind for e in events] == ["connected", "card", "card"]
    assert events[0].info["fw"] == "1.0.0" and events[0].boot == BOOT
    assert [str(e.card) for e in events[1:]] == ["AS", "KH"]


def test_frames_before_hello_are_not_acked():
    rx, q = make()
    rx.start_connection()
    assert rx.feed(card(0)) == []
    assert rx.counters["early"] == 1 and drain(q) == []


def test_duplicate_sequence_numbers_acked_again_but_applied_once():
    rx, q = make()
    rx.feed(hello())
    for _ in range(3):
        assert acks(rx.feed(card(0, "5D"))) == [0]
    assert [e.kind for e in drain(q)] == ["connected", "card"]
    assert rx.counters["duplicates"] == 2


def test_out_of_order_frames_are_held_until_the_gap_fills():
    rx, q = make()
    rx.feed(hello())
    drain(q)
    assert acks(rx.feed(card(1, "2C"))) == [1]
    assert acks(rx.feed(card(2, "3C"))) == [2]
    assert drain(q) == []
    rx.feed(card(0, "AC"))
    assert [str(e.card) for e in drain(q)] == ["AC", "2C", "3C"]


def test_garbage_and_bad_crc_are_counted_and_ignored():
    rx, q = make()
    rx.feed(hello())
    drain(q)
    good = card(0, "9S")
    for junk in (b"MPY: soft reboot\r", b"\x00\xff garbage", good[:-3] + b"00\n", b"$$$$"):
        assert rx.feed(junk) == []
    assert rx.counters["noise"] == 2 and rx.counters["bad_crc"] == 2
    assert drain(q) == []
    rx.feed(good)
    assert [str(e.card) for e in drain(q)] == ["9S"]


def test_err_frames_become_shoe_events():
    rx, q = make()
    rx.feed(hello())
    rx.feed(err(0, p.ERR_MISREAD))
    rx.feed(err(1, p.ERR_DOUBLE, "04AABBCCDDEEFF+04AABBCCDDEE00"))
    rx.feed(err(2, p.ERR_JAM))
    rx.feed(err(3, p.ERR_READER, "nofirmware"))
    kinds = [(e.kind, e.detail) for e in drain(q)][1:]
    assert kinds == [
        ("misread", "MISREAD"),
        ("double", "DOUBLE,04AABBCCDDEEFF+04AABBCCDDEE00"),
        ("jam", "JAM"),
        ("error", "READER,nofirmware"),
    ]


def test_unknown_tag_is_reported_not_guessed():
    rx, q = make()
    rx.feed(hello())
    rx.feed(p.encode(0, p.CARD, ["04FFFFFFFFFFFF", "shoe"]))
    event = drain(q)[-1]
    assert event.kind == "card" and event.card is None and "not in the deck map" in event.detail


def test_new_boot_resets_sequence_state():
    rx, q = make()
    rx.feed(hello())
    rx.feed(card(0, "AS"))
    rx.feed(card(1, "2S"))
    rx.start_connection()  # replug: the shoe rebooted, its seq starts again at 0
    rx.feed(hello(base=0, boot="12345678"))
    assert acks(rx.feed(card(0, "3S"))) == [0]
    assert [str(e.card) for e in drain(q) if e.kind == "card"] == ["AS", "2S", "3S"]


def test_same_boot_after_reconnect_keeps_dedupe():
    rx, q = make()
    rx.feed(hello())
    rx.feed(card(0, "AS"))
    rx.start_connection()
    rx.feed(hello(base=0))  # the ACK for 0 was lost: the shoe still holds it
    assert acks(rx.feed(card(0, "AS"))) == [0]
    rx.feed(card(1, "2S"))
    assert [str(e.card) for e in drain(q) if e.kind == "card"] == ["AS", "2S"]
    assert [e.kind for e in drain(q)] == []


def test_heartbeat_from_another_boot_stops_acks_until_hello():
    rx, q = make()
    rx.feed(hello())
    out = rx.feed(p.encode(0, p.HB, ["1", "deal", "0", "0", "FEEDF00D"]))
    assert [p.decode(f)[1] for f in out] == [p.HELLO_Q]
    assert rx.boot is None
    assert rx.feed(card(0)) == []  # could be the new boot's seq 0: not acked as a duplicate


def test_base_past_a_gap_reports_loss_and_moves_on():
    rx, q = make()
    rx.feed(hello())
    rx.feed(card(0, "AS"))
    rx.feed(card(3, "4S"))  # 1 and 2 are gone (shoe overflow)
    rx.feed(p.encode(4, p.HB, ["5", "deal", "0", "4", BOOT]))
    events = drain(q)
    assert [str(e.card) for e in events if e.kind == "card"] == ["AS", "4S"]
    assert rx.counters["lost"] == 2
    lost = [e for e in events if e.kind == "lost"]
    assert [e.info for e in lost] == [{"count": 2, "first": 1, "last": 2, "why": "overflow"}]
    assert [e.kind for e in events if e.kind in ("card", "lost")] == ["card", "lost", "card"]


def kinds_of(frames):
    return [p.decode(f)[1] for f in frames]


def test_a_boot_hello_while_the_port_stays_open_is_answered_with_hello_query():
    rx, q = make()
    rx.start_connection()
    rx.feed(hello())
    assert acks(rx.feed(card(0, "AS"))) == [0]
    # The shoe soft-resets; the port never closed. Its boot HELLO says ready=0.
    assert kinds_of(rx.feed(hello(boot="12345678", ready=False))) == [p.HELLO_Q]
    assert not rx.ready and rx.boot == "12345678"
    assert rx.feed(hello(boot="12345678")) == []  # its reply: ready
    assert rx.ready
    assert acks(rx.feed(card(0, "2S"))) == [0]  # a new boot's seq 0 is a new card
    events = drain(q)
    assert [(e.kind, e.boot) for e in events if e.kind == "connected"] == [
        ("connected", BOOT),
        ("connected", "12345678"),
    ]
    assert [str(e.card) for e in events if e.kind == "card"] == ["AS", "2S"]
    assert rx.counters["restarts"] == 1


def test_the_hello_query_is_repeated_until_the_new_boot_answers():
    clock = [0.0]
    q: queue.Queue = queue.Queue()
    rx = ShoeReceiver(events=q, clock=lambda: clock[0])
    rx.start_connection()
    rx.feed(hello())
    rx.feed(hello(boot="12345678", ready=False))  # our HELLO? to it is lost
    clock[0] = 0.5
    assert rx.maybe_ask_hello() == []
    clock[0] = 1.1
    assert kinds_of(rx.maybe_ask_hello()) == [p.HELLO_Q]
    rx.feed(hello(boot="12345678"))
    clock[0] = 5.0
    assert rx.maybe_ask_hello() == []


def test_frames_held_out_of_order_across_a_reboot_are_delivered_and_the_gap_reported():
    rx, q = make()
    rx.feed(hello())
    rx.feed(card(0, "AS"))
    assert acks(rx.feed(card(2, "3S"))) == [2]  # 1 was lost on the line; 2 held
    assert acks(rx.feed(card(3, "4S"))) == [3]
    rx.feed(hello(boot="12345678", ready=False))  # the shoe restarted: 1 is gone for good
    events = drain(q)
    assert [e.kind for e in events if e.kind in ("card", "lost")] == [
        "card",
        "lost",
        "card",
        "card",
    ]
    assert [str(e.card) for e in events if e.kind == "card"] == ["AS", "3S", "4S"]
    (lost,) = [e for e in events if e.kind == "lost"]
    assert lost.boot == BOOT and lost.info == {"count": 1, "first": 1, "last": 1, "why": "restart"}
    assert rx.counters["lost"] == 1


def test_frames_the_old_boot_sent_but_never_arrived_are_reported_at_the_new_boot():
    rx, q = make()
    rx.feed(hello())
    rx.feed(card(0, "AS"))
    rx.feed(p.encode(3, p.HB, ["1", "deal", "2", "1", BOOT]))  # it has used seqs 1 and 2
    rx.feed(hello(boot="12345678", ready=False))
    (lost,) = [e for e in drain(q) if e.kind == "lost"]
    assert lost.info == {"count": 2, "first": 1, "last": 2, "why": "restart"}


def test_firmware_without_the_ready_flag_is_asked_once_per_boot():
    rx, q = make()
    rx.start_connection()
    v1 = hello(proto=1, ready=None, points=None)
    assert kinds_of(rx.feed(v1)) == [p.HELLO_Q]  # boot HELLO or reply?
    assert rx.feed(v1) == []  # the second is a reply: no ping-pong
    assert rx.ready
    rx.start_connection()  # replug: the same boot answers our HELLO?
    assert rx.feed(v1) == [] and rx.ready


def test_wrong_protocol_version_is_refused_with_a_message():
    rx, q = make()
    rx.feed(hello(proto=4))
    assert rx.boot is None
    assert "update the shoe firmware" in drain(q)[0].detail


def test_sequence_wraps_at_65536():
    rx, q = make()
    rx.feed(hello(base=65534))
    for seq, c in ((65534, "AS"), (65535, "2S"), (0, "3S"), (1, "4S")):
        assert acks(rx.feed(card(seq, c))) == [seq]
    assert [str(e.card) for e in drain(q) if e.kind == "card"] == ["AS", "2S", "3S", "4S"]


LINE_FAULTS = {  # probabilities per frame (shoe -> Pi) and per ACK (Pi -> shoe)
    "seed": st.integers(0, 2**16),
    "drop": st.floats(0, 0.3),
    "bad": st.floats(0, 0.3),
    "dup": st.floats(0, 0.3),
    "ack_drop": st.floats(0, 0.3),
}


@settings(max_examples=30, deadline=None)
@given(**LINE_FAULTS, garbage=st.floats(0, 0.3), count=st.integers(1, 104))
def test_every_card_exactly_once_in_order_despite_faults(
    seed, drop, bad, dup, garbage, ack_drop, count
):
    order = shuffled_deck(random.Random(seed), decks=2)[:count]
    deck_of = {}
    cards = []
    for c in order:
        cards.append((c, deck_of.get(c, 0)))
        deck_of[c] = 1
    clock = [0.0]
    q: queue.Queue = queue.Queue()
    rx = ShoeReceiver(events=q, deck_map=DeckMap.simulated(2), clock=lambda: clock[0])
    shoe = MemoryShoe(
        cards,
        faults=Faults(garbage, bad, drop, dup, 0.0),
        rng=random.Random(seed),
        interval=0.0,
        retransmit=0.01,
    )
    run_loopback(
        shoe,
        rx.feed,
        rx.start_connection(),
        clock=clock,
        ack_drop=ack_drop,
        rng=random.Random(seed + 1),
    )
    got = [e.card for e in drain(q) if e.kind == "card"]
    assert got == order
    assert rx.counters["lost"] == 0


def test_link_survives_a_port_that_does_not_exist(tmp_path):
    q: queue.Queue = queue.Queue()
    with ShoeLink(str(tmp_path / "nothing"), events=q, backoff=(0.01, 0.05)) as link:
        # it keeps trying (every 10-50 ms): three failed opens, not one and a stop
        assert wait_until(lambda: link.receiver.counters["open_failures"] >= 3, 5)
        assert "cannot open" in link.stats()["last_error"]
        assert not link.connected
    assert drain(q) == []


def test_link_reports_a_silent_shoe_as_disconnected(tmp_path):
    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    q: queue.Queue = queue.Queue()
    try:
        with ShoeLink(path, events=q, stale_after=0.4, backoff=(0.05, 0.1)) as link:
            got = b""
            deadline = time.monotonic() + 2
            while b"HELLO?" not in got and time.monotonic() < deadline:
                if select.select([master], [], [], 0.1)[0]:
                    got += os.read(master, 4096)
            assert b"HELLO?" in got  # the link asks first (pyserial flushes input on open)
            os.write(master, b"boot noise\n" + hello())
            first = q.get(timeout=2)
            assert first.kind == "connected"
            assert link.set_mode("deal")
            second = q.get(timeout=2)  # then nothing more arrives
            assert second.kind == "disconnected" and "no message" in second.detail
            assert select.select([master], [], [], 2)[0], "the link wrote nothing more"
            assert b"MODE,deal" in os.read(master, 4096)
    finally:
        os.close(master)
        os.close(slave)


# -- read points (protocol 3) and older shoes as shoe-only -------------------------------
def test_protocol_3_cards_and_errors_carry_their_read_point():
    rx, q = make(DeckMap.simulated(2))
    rx.start_connection()
    rx.feed(hello(points=("shoe", "slot")))
    assert acks(rx.feed(card(0, "AS", point="shoe"))) == [0]
    assert acks(rx.feed(card(1, "KH", deck=1, point="slot"))) == [1]
    rx.feed(err(2, p.ERR_MISREAD, point="slot"))
    a, b = sim_uid(parse_card("2C")), "04FFFE000001E0"
    rx.feed(err(3, p.ERR_DOUBLE, f"{a}+{b}", point="slot"))
    rx.feed(err(4, p.ERR_JAM, point="shoe"))
    events = drain(q)
    assert events[0].kind == "connected" and events[0].info["points"] == ("shoe", "slot")
    got = [(e.kind, e.point, str(e.card) if e.card else e.detail) for e in events[1:]]
    assert got == [
        ("card", "shoe", "AS"),
        ("card", "slot", "KH"),
        ("misread", "slot", "MISREAD"),
        ("double", "slot", f"DOUBLE,{a}+{b}"),
        ("jam", "shoe", "JAM"),
    ]
    double = events[4]
    assert double.info["uids"] == [a, b] and [str(c) for c in double.info["cards"][:1]] == ["2C"]
    assert double.info["cards"][1] is None  # a tag in no deck


def test_shoe_only_board_of_protocol_3():
    rx, q = make()
    rx.start_connection()
    rx.feed(hello(points=("shoe",)))
    assert drain(q)[0].info["points"] == ("shoe",)


def test_a_protocol_2_shoe_is_shoe_only_and_its_frames_have_no_point():
    rx, q = make()
    rx.start_connection()
    v2 = hello(proto=2, points=None)
    assert "points" not in p.parse_kv(p.decode(v2)[2])
    rx.feed(v2)
    rx.feed(p.encode(0, p.CARD, [sim_uid(parse_card("9S"))]))  # CARD,<uid>
    rx.feed(p.encode(1, p.ERR, [p.ERR_DOUBLE, "04AABBCCDDEEFF+04AABBCCDDEE00"]))
    rx.feed(p.encode(2, p.ERR, [p.ERR_MISREAD]))
    events = drain(q)
    assert events[0].info["proto"] == 2 and events[0].info["points"] == ("shoe",)
    assert [(e.kind, e.point, e.detail) for e in events[1:]] == [
        ("card", "shoe", ""),
        ("double", "shoe", "DOUBLE,04AABBCCDDEEFF+04AABBCCDDEE00"),
        ("misread", "shoe", "MISREAD"),
    ]
    assert str(events[1].card) == "9S"


def test_a_protocol_1_shoe_is_shoe_only():
    rx, q = make()
    rx.start_connection()
    v1 = hello(proto=1, ready=None, points=None)
    rx.feed(v1)
    rx.feed(v1)
    rx.feed(p.encode(0, p.CARD, [sim_uid(parse_card("QD"))]))
    events = drain(q)
    assert events[0].info["points"] == ("shoe",)
    assert [(e.kind, e.point, str(e.card)) for e in events[1:]] == [("card", "shoe", "QD")]


def test_a_protocol_3_frame_without_its_point_is_an_error_not_a_card():
    rx, q = make()
    rx.start_connection()
    rx.feed(hello(points=("shoe", "slot")))
    assert acks(rx.feed(p.encode(0, p.CARD, [sim_uid(parse_card("AS"))]))) == [0]
    assert acks(rx.feed(p.encode(1, p.CARD, [sim_uid(parse_card("2S")), "bin"]))) == [1]
    rx.feed(card(2, "3S", point="slot"))  # the sequence goes on
    events = drain(q)[1:]
    assert [e.kind for e in events] == ["error", "error", "card"]
    assert "read point" in events[0].detail and "read point" in events[1].detail
    assert rx.counters["malformed"] == 2 and str(events[2].card) == "3S"


def test_a_hello_with_unknown_points_is_not_a_connection():
    rx, q = make()
    rx.start_connection()
    fields = list(p.hello_fields("1.0.0", BOOT, "PN532", 0, True))
    rx.feed(p.encode(0, p.HELLO, [*fields, "points=shoe+bin"]))
    assert not rx.ready and rx.counters["malformed"] == 1
    assert [e.kind for e in drain(q)] == []


def test_the_protocol_of_a_new_boot_applies_to_its_frames():
    rx, q = make()
    rx.start_connection()
    rx.feed(hello(proto=2, points=None))
    rx.feed(p.encode(0, p.CARD, [sim_uid(parse_card("AS"))]))
    rx.feed(hello(boot="12345678", ready=False, points=("shoe", "slot")))  # flashed: v3
    rx.feed(hello(boot="12345678", points=("shoe", "slot")))
    rx.feed(card(0, "KS", point="slot"))
    events = [e for e in drain(q) if e.kind == "card"]
    assert [(e.boot, e.point, str(e.card)) for e in events] == [
        (BOOT, "shoe", "AS"),
        ("12345678", "slot", "KS"),
    ]


def test_shoe_events_refuse_an_unknown_point():
    import pytest

    from device.events import POINT_SLOT, SHOE_POINTS

    assert SHOE_POINTS == p.POINTS and POINT_SLOT == "slot"
    assert ShoeEvent("card", 0.0).point == "shoe"
    with pytest.raises(ValueError, match="read point"):
        ShoeEvent("card", 0.0, point="bin")


@settings(max_examples=20, deadline=None)
@given(**LINE_FAULTS, count=st.integers(1, 60))
def test_both_gates_every_card_once_in_judged_order_despite_faults(
    seed, drop, bad, dup, ack_drop, count
):
    """The firmware logic's two gates (MemoryShoe) into the real receiver: shoe and slot
    passes interleaved, every card once, with its point, in the order the board judged."""
    rng = random.Random(seed)
    order = shuffled_deck(rng)[:count]
    clock = [0.0]
    q: queue.Queue = queue.Queue()
    rx = ShoeReceiver(events=q, deck_map=DeckMap.simulated(1), clock=lambda: clock[0])
    shoe = MemoryShoe(
        [],
        faults=Faults(0.0, bad, drop, dup, 0.0),
        rng=random.Random(seed),
        retransmit=0.01,
        points=("shoe", "slot"),
    )
    for card_ in order:  # the polite dealer: waits for the link, never overflows the board
        point = rng.choice(("shoe", "slot"))
        shoe.deal([(card_, 0)], point=point, hold_ms=3, interval_ms=rng.randrange(0, 4))
    run_loopback(
        shoe, rx.feed, rx.start_connection(), clock=clock, ack_drop=ack_drop, rng=random.Random(1)
    )
    got = [(e.point, e.uid) for e in drain(q) if e.kind == "card"]
    judged = [(pt, uid) for _, kind, pt, uid in shoe.tally.judged if kind == p.CARD]
    assert got == judged
    assert sorted(uid for _, uid in got) == sorted(sim_uid(c) for c in order)
    assert rx.counters["lost"] == 0


# -- MODE / LED are resent until the shoe ACKs them ---------------------------------------
def shoe_ack(frame: bytes, shoe_seq: int = 0) -> bytes:
    return p.encode(shoe_seq, p.ACK, (str(p.decode(frame)[0]),))


def test_mode_is_resent_until_the_shoe_acks_it_and_a_newer_one_replaces_it():
    clock = [0.0]
    q: queue.Queue = queue.Queue()
    rx = ShoeReceiver(events=q, clock=lambda: clock[0])
    rx.start_connection()
    first = rx.reliable_command(p.MODE, ("enrol",))  # before the shoe is connected: kept
    assert rx.resend_commands() == []  # nothing goes to a shoe that is not ready
    out = rx.feed(hello())  # connected: it gets what it has not heard
    assert out == [first]
    clock[0] = 0.3
    assert rx.resend_commands() == []
    clock[0] = 0.6
    assert rx.resend_commands() == [first]  # the same frame, the same seq
    newer = rx.reliable_command(p.MODE, ("deal",))
    clock[0] = 1.2
    assert rx.resend_commands() == [newer] and rx.pending_commands == 1
    rx.feed(shoe_ack(newer))
    clock[0] = 5.0
    assert rx.resend_commands() == [] and rx.pending_commands == 0
    assert rx.counters["commands_resent"] == 3


def test_a_pending_mode_goes_to_a_new_boot_too():
    rx, q = make()
    rx.start_connection()
    rx.feed(hello())
    frame = rx.reliable_command(p.MODE, ("idle",))
    rx.feed(hello(boot="12345678", ready=False))
    assert rx.feed(hello(boot="12345678")) == [frame]


def test_the_firmware_applies_a_resent_command_once():
    import fwload

    fw = fwload.load()
    try:
        shoe = fw.logic.Shoe("CAFEF00D", 0)
        shoe.host_line(p.encode(1, p.HELLO_Q, ("CAFEF00D",)), 0)
        mode = p.encode(40, p.MODE, ("deal",))
        shoe.host_line(mode, 10)
        shoe.gates["shoe"].recent["04000000000001"] = 5  # dealt since that MODE
        shoe.host_line(mode, 600)  # our ACK was lost: the Pi resends the same frame
        assert shoe.gates["shoe"].recent == {"04000000000001": 5}  # not a new load
        acks_ = [f for _, k, f in (p.decode(x) for x in shoe.take_output()) if k == p.ACK]
        assert acks_ == [["40"], ["40"]]
        shoe.host_line(p.encode(41, p.MODE, ("deal",)), 700)  # a new MODE: a new load
        assert shoe.gates["shoe"].recent == {}
    finally:
        fwload.unload()


def test_mode_reaches_the_twin_over_a_line_that_loses_half_the_commands():
    from device.shoe.sim import ShoeTwin

    q: queue.Queue = queue.Queue()
    with (
        ShoeTwin(speed=5.0, seed=2, faults=Faults(drop_in=0.5)) as twin,
        ShoeLink(twin.path, events=q, backoff=(0.02, 0.1)) as link,
    ):
        deadline = time.monotonic() + 10
        while not link.connected and time.monotonic() < deadline:
            time.sleep(0.01)
        for mode in ("idle", "enrol", "deal", "idle"):
            link.set_mode(mode)
            deadline = time.monotonic() + 10
            while twin.board.mode != mode and time.monotonic() < deadline:
                time.sleep(0.01)
            assert twin.board.mode == mode
        deadline = time.monotonic() + 10
        while link.receiver.pending_commands and time.monotonic() < deadline:
            time.sleep(0.01)
        assert link.receiver.pending_commands == 0
