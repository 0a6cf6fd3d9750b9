"""Firmware logic on the host (device/shoe/fwlogic.py as the image's fwlogic.py): the read
gates (CARD/MISREAD/DOUBLE/JAM per point, debounce), ACK/retransmit, heartbeat, host
commands, and the whole firmware talking to the Pi's real receiver."""

from __future__ import annotations

import queue

import fwload
import pytest

from device.shoe.deckmap import DeckMap, sim_uid
from device.shoe.link import ShoeReceiver
from rummy.cards import ALL_CARDS


@pytest.fixture(scope="module")
def fw():
    mods = fwload.load()
    yield mods
    fwload.unload()


def frames(fw, shoe, hb=False, resends=False):
    """Frames the shoe wrote since last time; by default without heartbeats and without
    retransmissions of reliable frames already seen."""
    seen = shoe.__dict__.setdefault("_seen_by_test", set())
    out = []
    for seq, kind, fields in (fw.protocol.decode(line) for line in shoe.take_output()):
        if kind == "HB" and not hb:
            continue
        if kind in ("CARD", "ERR"):
            if (seq, kind) in seen and not resends:
                continue
            seen.add((seq, kind))
        out.append((seq, kind, fields))
    return out


def kinds(fw, shoe):
    return [(k, f) for _, k, f in frames(fw, shoe)]


def ready(fw, now=0, points=None):
    shoe = fw.logic.Shoe("CAFEF00D", now, points=points)
    shoe.host_line(fw.protocol.encode(1, "HELLO?", ("CAFEF00D",)), now)
    shoe.take_output()
    return shoe


def deal(shoe, uids, t, hold=30, point="shoe"):
    """The beam of ``point`` is broken at t, its reader sees ``uids`` at t+5, the beam
    clears at t+hold; the window is judged 100 ms later."""
    shoe.beam(point, True, t)
    for uid in uids:
        shoe.beam(point, True, t + 5)
        shoe.tag(point, uid, t + 5)
    shoe.beam(point, False, t + hold)
    shoe.tick(t + hold + 100)


def test_hello_at_boot_names_versions_and_boot(fw):
    shoe = fw.logic.Shoe("CAFEF00D", 0)
    ((seq, kind, fields),) = frames(fw, shoe)
    kv = fw.protocol.parse_kv(fields)
    assert kind == "HELLO" and kv["proto"] == "3" and kv["boot"] == "CAFEF00D"
    assert kv["fw"] == fw.logic.FW_VERSION and kv["base"] == "0" and kv["points"] == "shoe"


def test_one_new_tag_in_the_window_is_a_card(fw):
    shoe = ready(fw)
    deal(shoe, ["04AABBCCDDEEFF"], 1000)
    assert kinds(fw, shoe) == [("CARD", ["04AABBCCDDEEFF", "shoe"])]


def test_no_tag_is_a_misread_and_two_tags_a_double(fw):
    shoe = ready(fw)
    deal(shoe, [], 1000)
    deal(shoe, ["04000000000001", "04000000000002"], 2000)
    assert kinds(fw, shoe) == [
        ("ERR", ["MISREAD", "shoe"]),
        ("ERR", ["DOUBLE", "shoe", "04000000000001+04000000000002"]),
    ]


def test_a_tag_already_dealt_is_not_new(fw):
    shoe = ready(fw)
    deal(shoe, ["04000000000001"], 1000)
    deal(shoe, ["04000000000001", "04000000000002"], 2000)  # the last card still in range
    assert [f[0] for _, f in kinds(fw, shoe)] == ["04000000000001", "04000000000002"]


def test_the_next_card_inside_the_grace_time_is_judged_separately(fw):
    shoe = ready(fw)
    shoe.beam("shoe", True, 1000)
    shoe.tag("shoe", "04000000000001", 1005)
    shoe.beam("shoe", False, 1030)
    shoe.beam("shoe", True, 1040)  # next card 10 ms later, before GRACE_MS
    shoe.tag("shoe", "04000000000002", 1045)
    shoe.beam("shoe", False, 1070)
    shoe.tick(1200)
    assert [k for k, _ in kinds(fw, shoe)] == ["CARD", "CARD"]


@pytest.mark.parametrize("points, point", [(None, "shoe"), (("shoe", "slot"), "slot")])
def test_jam_reported_once_at_its_gate(fw, points, point):
    shoe = ready(fw, points=points)
    shoe.beam(point, True, 1000)
    for t in range(1100, 6000, 100):
        shoe.tick(t)
    got = frames(fw, shoe, hb=True)
    assert [f for _, k, f in got if k == "ERR"] == [["JAM", point]]
    assert [f[1] for _, k, f in got if k == "HB"][-1] == "jam"
    shoe.tag(point, "04000000000009", 6000)
    shoe.beam(point, False, 6010)
    shoe.tick(6100)
    assert [k for k, _ in kinds(fw, shoe) if k != "HB"] == ["CARD"]


def test_resent_every_500ms_until_acked(fw):
    shoe = ready(fw)
    deal(shoe, ["04000000000001"], 1000)
    ((seq, kind, _),) = frames(fw, shoe)
    shoe.tick(1400)
    assert frames(fw, shoe, resends=True) == []
    shoe.tick(1700)
    assert [k for _, k, _ in frames(fw, shoe, resends=True)] == ["CARD"]
    shoe.host_line(fw.protocol.encode(5, "ACK", [str(seq)]), 1800)
    shoe.tick(2900)
    assert [k for _, k, _ in frames(fw, shoe, hb=True, resends=True)] == ["HB"]  # no CARD


def test_nothing_reliable_is_sent_before_hello_query(fw):
    shoe = fw.logic.Shoe("CAFEF00D", 0)
    shoe.take_output()
    deal(shoe, ["04000000000001"], 100)
    shoe.tick(900)
    assert [k for _, k, _ in frames(fw, shoe)] == []
    shoe.host_line(fw.protocol.encode(1, "HELLO?", ("CAFEF00D",)), 950)
    assert [k for _, k, _ in frames(fw, shoe)] == ["HELLO", "CARD"]


def test_only_a_hello_query_naming_this_boot_releases_cards(fw):
    p = fw.protocol
    shoe = fw.logic.Shoe("CAFEF00D", 0)
    (boot_hello,) = frames(fw, shoe)
    assert p.parse_kv(boot_hello[2])["ready"] == "0"
    deal(shoe, ["04000000000001"], 100)
    for named in ((), ("0BADF00D",)):  # a plain HELLO?, one meant for an earlier boot
        shoe.host_line(p.encode(1, "HELLO?", named), 300)
        ((_, kind, fields),) = frames(fw, shoe)
        assert kind == "HELLO" and p.parse_kv(fields)["ready"] == "0"
    shoe.host_line(p.encode(2, "HELLO?", ("CAFEF00D",)), 400)
    got = frames(fw, shoe)
    assert [k for _, k, _ in got] == ["HELLO", "CARD"]
    assert p.parse_kv(got[0][2])["ready"] == "1"
    shoe.host_line(p.encode(3, "HELLO?"), 500)  # the Pi reopened its port: still ready
    assert p.parse_kv(frames(fw, shoe)[0][2])["ready"] == "1"


def test_window_overflow_drops_oldest_and_base_moves(fw):
    shoe = ready(fw)
    for i in range(40):
        deal(shoe, [f"04{i:012X}"], 1000 + i * 200)
    assert len(shoe.unacked) == fw.logic.WINDOW and shoe.base() == 8
    assert shoe.counters["dropped"] == 8


def test_heartbeat_every_second(fw):
    shoe = ready(fw, now=0)
    shoe.tick(999)
    assert frames(fw, shoe, hb=True) == []
    shoe.tick(1000)
    ((_, kind, fields),) = frames(fw, shoe, hb=True)
    assert kind == "HB" and fields == ["1", "deal", "0", "0", "CAFEF00D"]


def test_commands_are_acked_and_mode_resets_dealt(fw):
    shoe = ready(fw)
    deal(shoe, ["04000000000001"], 1000)
    frames(fw, shoe)
    shoe.feed(fw.protocol.encode(7, "MODE", ["idle"]) + b"noise\n", 1200)
    assert kinds(fw, shoe) == [("ACK", ["7"])] and shoe.mode == "idle"
    deal(shoe, ["04000000000002"], 1300)
    assert kinds(fw, shoe) == []  # idle: nothing reported
    shoe.feed(fw.protocol.encode(8, "MODE", ["deal"]), 1500)
    frames(fw, shoe)
    deal(shoe, ["04000000000001"], 1600)  # a new load: the same card may come again
    assert kinds(fw, shoe) == [("CARD", ["04000000000001", "shoe"])]
    shoe.feed(fw.protocol.encode(9, "RESET"), 1800)
    assert shoe.reset_requested


def test_tick_counter_wraparound(fw):
    period = 1 << 30

    def ticks_diff(a, b):
        return ((a - b + period // 2) % period) - period // 2

    start = period - 50
    shoe = fw.logic.Shoe("CAFEF00D", start, diff=ticks_diff)
    shoe.host_line(fw.protocol.encode(1, "HELLO?", ("CAFEF00D",)), start)
    shoe.take_output()
    shoe.beam("shoe", True, start + 10)
    shoe.tag("shoe", "04000000000001", start + 20)
    shoe.beam("shoe", False, (start + 40) % period)
    shoe.tick((start + 200) % period)
    assert [k for _, k, _ in frames(fw, shoe)] == ["CARD"]


def test_firmware_logic_to_pi_receiver_every_card_once_in_order(fw):
    """The firmware logic and the Pi's receiver in memory, lossy both ways."""
    import random

    rng = random.Random(4)
    q: queue.Queue = queue.Queue()
    clock = [0.0]
    rx = ShoeReceiver(events=q, deck_map=DeckMap.simulated(1), clock=lambda: clock[0])
    shoe = fw.logic.Shoe("CAFEF00D", 0)
    to_shoe = rx.start_connection()
    t = 0
    order = list(ALL_CARDS)
    rng.shuffle(order)
    pending = list(order)
    next_card_at = 100
    while (pending or shoe.unacked) and t < 200_000:
        t += 10
        clock[0] = t / 1000
        for line in to_shoe:
            if rng.random() > 0.1:  # 10 % of the Pi's frames lost
                shoe.feed(line, t)
        to_shoe = rx.maybe_ask_hello()
        if pending and t >= next_card_at:
            card = pending.pop(0)
            deal(shoe, [sim_uid(card)], t, hold=20)
            next_card_at = t + 300
        shoe.tick(t)
        for line in shoe.take_output():
            if rng.random() < 0.1:
                continue  # lost
            if rng.random() < 0.1:
                line = line[:3] + b"#" + line[4:]  # damaged
            to_shoe += rx.feed(line)
    got = []
    while not q.empty():
        event = q.get_nowait()
        if event.kind == "card":
            got.append(event.card)
    assert got == order


# -- two read gates (protocol 3) ---------------------------------------------------------
def both(fw, now=0):
    return ready(fw, now, points=("shoe", "slot"))


def test_a_two_gate_board_announces_both_points(fw):
    shoe = fw.logic.Shoe("CAFEF00D", 0, points=("shoe", "slot"))
    ((_, kind, fields),) = frames(fw, shoe)
    assert kind == "HELLO" and fw.protocol.parse_kv(fields)["points"] == "shoe+slot"
    with pytest.raises(ValueError):
        fw.logic.Shoe("CAFEF00D", 0, points=("shoe", "bin"))


def test_each_gate_judges_its_own_passes_and_names_its_point(fw):
    shoe = both(fw)
    shoe.beam("shoe", True, 1000)
    shoe.beam("slot", True, 1002)  # both gates busy at once
    shoe.tag("shoe", "04000000000001", 1010)
    shoe.tag("slot", "04000000000002", 1011)
    shoe.tag("slot", "04000000000003", 1012)
    shoe.beam("slot", False, 1030)
    shoe.beam("shoe", False, 1040)
    shoe.tick(1095)  # the slot's grace is over, the shoe's not yet
    shoe.tick(1200)
    shoe.beam("slot", True, 1300)
    shoe.beam("slot", False, 1330)
    shoe.tick(1500)
    assert kinds(fw, shoe) == [
        ("ERR", ["DOUBLE", "slot", "04000000000002+04000000000003"]),
        ("CARD", ["04000000000001", "shoe"]),
        ("ERR", ["MISREAD", "slot"]),
    ]
    assert shoe.counters == {"cards": 1, "misreads": 1, "doubles": 1, "jams": 0, "dropped": 0}


def test_a_tag_seen_by_the_other_gate_is_new_here(fw):
    shoe = both(fw)
    deal(shoe, ["04000000000001"], 1000, point="shoe")
    deal(shoe, ["04000000000001"], 2000, point="slot")  # the dealt card, now discarded
    assert [(f[1], f[0]) for _, f in kinds(fw, shoe)] == [
        ("shoe", "04000000000001"),
        ("slot", "04000000000001"),
    ]


def test_the_slot_forgets_a_card_after_its_hold_off(fw):
    shoe = both(fw)
    hold = fw.logic.SLOT_HOLDOFF_MS
    deal(shoe, ["04000000000001"], 1000, point="slot")
    # the card lies on the pile in range for a moment: the next pass sees it too
    deal(shoe, ["04000000000001", "04000000000002"], 1300, point="slot")
    # much later the same card comes through again (taken from the pile, discarded again)
    deal(shoe, ["04000000000001"], 1300 + hold + 500, point="slot")
    assert [f[0] for _, f in kinds(fw, shoe)] == [
        "04000000000001",
        "04000000000002",
        "04000000000001",
    ]


def test_the_shoe_keeps_its_dealt_cards_until_mode(fw):
    shoe = both(fw)
    deal(shoe, ["04000000000001"], 1000)
    deal(shoe, ["04000000000001", "04000000000002"], 60_000)  # a minute later: still old
    shoe.feed(fw.protocol.encode(3, "MODE", ["deal"]), 61_000)  # a new load (a refill)
    deal(shoe, ["04000000000001"], 62_000)
    assert [f[0] for k, f in kinds(fw, shoe) if k == "CARD"] == [
        "04000000000001",
        "04000000000002",
        "04000000000001",
    ]


def test_a_beam_glitch_shorter_than_the_debounce_is_no_card(fw):
    shoe = both(fw)
    debounce = fw.logic.DEBOUNCE_MS
    shoe.beam("slot", True, 1000)
    shoe.tag("slot", "04000000000001", 1000)  # a tag near the antenna while it flickers
    shoe.beam("slot", False, 1000 + debounce - 1)
    shoe.tick(1500)
    assert kinds(fw, shoe) == []
    assert not shoe.wants_reads("slot")


def test_a_flicker_inside_one_card_does_not_split_it(fw):
    shoe = both(fw)
    t = 1000
    shoe.beam("shoe", True, t)
    shoe.tag("shoe", "04000000000001", t + 5)
    for dt in (10, 11, 20, 21, 22):  # a hole in the card: the beam clears 1-2 ms
        shoe.beam("shoe", dt in (10, 20, 21), t + dt)
    shoe.beam("shoe", False, t + 40)
    shoe.tick(t + 200)
    assert kinds(fw, shoe) == [("CARD", ["04000000000001", "shoe"])]


def test_tags_read_before_the_edge_is_debounced_belong_to_the_card(fw):
    shoe = both(fw)
    shoe.beam("shoe", True, 1000)
    assert shoe.wants_reads("shoe")  # poll at once: the card moves fast
    shoe.tag("shoe", "04000000000001", 1001)  # before DEBOUNCE_MS
    shoe.beam("shoe", True, 1005)
    shoe.beam("shoe", False, 1030)
    shoe.tick(1200)
    assert kinds(fw, shoe) == [("CARD", ["04000000000001", "shoe"])]


def test_idle_mode_reports_neither_gate(fw):
    shoe = both(fw)
    shoe.feed(fw.protocol.encode(7, "MODE", ["idle"]), 500)
    frames(fw, shoe)
    deal(shoe, ["04000000000001"], 1000, point="shoe")
    deal(shoe, [], 2000, point="slot")
    assert kinds(fw, shoe) == []


def test_both_gates_to_the_pi_receiver_in_judged_order_with_their_points(fw):
    """Two gates dealing and discarding side by side, lossy both ways, into the real
    receiver: every card once, each with its point, in the order the board judged it."""
    import random

    rng = random.Random(11)
    q: queue.Queue = queue.Queue()
    clock = [0.0]
    rx = ShoeReceiver(events=q, deck_map=DeckMap.simulated(1), clock=lambda: clock[0])
    shoe = fw.logic.Shoe("CAFEF00D", 0, points=("shoe", "slot"))
    judged = []
    real_reliable = shoe.reliable

    def note(kind, fields, now):
        judged.append((fields[1], fields[0]))
        real_reliable(kind, fields, now)

    shoe.reliable = note
    to_shoe = rx.start_connection()
    order = list(ALL_CARDS)
    rng.shuffle(order)
    pending = {"shoe": order[:26], "slot": order[26:]}
    next_at = {"shoe": 100, "slot": 130}
    t = 0
    while (pending["shoe"] or pending["slot"] or shoe.unacked) and t < 300_000:
        t += 10
        clock[0] = t / 1000
        for line in to_shoe:
            if rng.random() > 0.1:
                shoe.feed(line, t)
        to_shoe = rx.maybe_ask_hello()
        for point in ("shoe", "slot"):
            if pending[point] and t >= next_at[point]:
                deal(shoe, [sim_uid(pending[point].pop(0))], t, hold=20, point=point)
                next_at[point] = t + rng.choice((150, 300, 450))
        shoe.tick(t)
        for line in shoe.take_output():
            if rng.random() < 0.1:
                continue
            to_shoe += rx.feed(line)
    got = []
    while not q.empty():
        event = q.get_nowait()
        if event.kind == "card":
            got.append((event.point, event.uid))
    assert got == judged and len(got) == 52
    assert {u for pt, u in got if pt == "slot"} == {sim_uid(c) for c in order[26:]}
