"""ButtonBoard on gpiozero's MockFactory: press, bounce, lockout, hold, chord, lamps."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from device.buttons import ButtonBoard, HardwareError
from device.events import HOLD, OPERATOR, PRESS, RELEASE, TABLE_SEAT, InputEvent
from device.pins import default_config, parse_button_config
from device.sim_buttons import SimButtons


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def advance(self, dt: float) -> None:
        self.now += dt


def settle(board: ButtonBoard, clock: FakeClock) -> None:
    """Let the glitch filter's time pass (a level counts once held 8 ms) and poll, as the
    hold thread does: the edges so far reach the queue, stamped when they happened."""
    clock.advance(0.01)
    board.poll()


def drain(q: queue.Queue) -> list[InputEvent]:
    out = []
    while not q.empty():
        out.append(q.get_nowait())
    return out


def toggle(sim: SimButtons, clock: FakeClock, seat: int, call: str, *gaps: float) -> None:
    """Press the button, then after each gap flip it: release, press, release, ..."""
    down = True
    sim.press(seat, call)
    for gap in gaps:
        clock.advance(gap)
        (sim.release if down else sim.press)(seat, call)
        down = not down


@contextmanager
def button_rig(config) -> Iterator[tuple[ButtonBoard, SimButtons, FakeClock, queue.Queue]]:
    """A board on a mock factory with a fake clock and no hold thread (the tests poll)."""
    clock = FakeClock()
    q: queue.Queue = queue.Queue()
    with ButtonBoard(
        config, pin_factory=MockFactory(), events=q, clock=clock, poll_interval=None
    ) as board:
        yield board, SimButtons(board), clock, q


@pytest.fixture
def rig():
    with button_rig(default_config(2)) as parts:
        yield parts


def test_press_and_release_put_timestamped_events(rig):
    board, sim, clock, q = rig
    toggle(sim, clock, 0, "knock", 0.2)
    settle(board, clock)
    events = drain(q)
    assert [(e.seat, e.call, e.edge, e.source) for e in events] == [
        (0, "knock", PRESS, "sim"),  # a mock factory labels its edges "sim"
        (0, "knock", RELEASE, "sim"),
    ]
    assert events[0].t == 100.0 and events[1].t == pytest.approx(100.2)


def test_bounce_within_debounce_window_gives_one_press(rig):
    board, sim, clock, q = rig
    # MockPin ignores bounce_time: five edges 2 ms apart reach the callbacks.
    toggle(sim, clock, 1, "buy", *[0.002] * 10)  # five bounces, then down for good
    settle(board, clock)
    events = drain(q)
    assert [(e.call, e.edge) for e in events] == [("buy", PRESS)]
    assert board.counters["bounces"] == 5  # the five bouncing releases
    assert board.is_pressed(1, "buy")


def test_release_bounce_gives_one_release(rig):
    board, sim, clock, q = rig
    toggle(sim, clock, 0, "draw", 0.5, 0.003, 0.003)
    settle(board, clock)
    assert [e.edge for e in drain(q)] == [PRESS, RELEASE]


def test_release_lost_in_debounce_window_is_caught_up_by_poll(rig):
    board, sim, clock, q = rig
    sim.press(0, "draw")
    clock.advance(0.01)  # a very short tap: the release falls inside the debounce window
    sim.release(0, "draw")
    assert board.is_pressed(0, "draw")
    clock.advance(0.05)
    board.poll()
    assert not board.is_pressed(0, "draw")
    assert [e.edge for e in drain(q)] == [PRESS, RELEASE]
    clock.advance(1)
    sim.press(0, "draw")  # the next real press is not lost
    settle(board, clock)
    assert [e.edge for e in drain(q)] == [PRESS]


def test_lockout_swallows_a_second_call_within_300ms(rig):
    board, sim, clock, q = rig
    # the second press 200 ms after the first is locked out; the third, 500 ms after the
    # reported press, is a new call
    toggle(sim, clock, 0, "knock", 0.1, 0.1, 0.1, 0.2)
    settle(board, clock)
    events = drain(q)
    assert [e.edge for e in events] == [PRESS, RELEASE, PRESS]
    assert board.counters["lockouts"] == 1


def test_lockout_is_per_button(rig):
    board, sim, clock, q = rig
    sim.press(0, "buy")
    clock.advance(0.05)
    sim.press(1, "buy")
    settle(board, clock)
    assert [(e.seat, e.edge) for e in drain(q)] == [(0, PRESS), (1, PRESS)]


def test_hold_fires_once_per_press_despite_polling(rig):
    board, sim, clock, q = rig
    sim.press(1, "draw")
    clock.advance(0.5)
    board.poll()
    assert [e.edge for e in drain(q)] == [PRESS]
    clock.advance(0.6)
    board.poll()
    for _ in range(20):  # gpiozero #697: held must not keep firing
        clock.advance(0.1)
        board.poll()
    clock.advance(0.1)
    sim.release(1, "draw")
    settle(board, clock)
    events = drain(q)
    assert [e.edge for e in events] == [HOLD, RELEASE]
    assert events[0].t == pytest.approx(101.1)


def test_no_hold_after_release_and_quick_repress(rig):
    board, sim, clock, q = rig
    toggle(sim, clock, 0, "draw", 0.8, 0.1)
    clock.advance(0.3)  # 1.2 s after the first press, but only 0.3 s into this one
    board.poll()
    assert HOLD not in [e.edge for e in drain(q)]


def test_g_operator_chord_after_three_seconds(rig):
    board, sim, clock, q = rig
    sim.press(0, "draw")
    clock.advance(0.5)
    sim.press(0, "buy")
    clock.advance(2.9)
    board.poll()
    assert OPERATOR not in [e.call for e in drain(q)]
    clock.advance(0.2)
    board.poll()
    board.poll()
    events = drain(q)
    chords = [e for e in events if e.call == OPERATOR]
    assert len(chords) == 1 and chords[0].seat == TABLE_SEAT and chords[0].edge == HOLD
    sim.release(0, "buy")
    sim.press(0, "buy")
    clock.advance(3.1)
    board.poll()
    assert [e.call for e in drain(q) if e.call == OPERATOR] == []  # needs both released first


def test_chord_needs_both_buttons(rig):
    board, sim, clock, q = rig
    sim.press(0, "draw")
    clock.advance(5)
    board.poll()
    assert OPERATOR not in [e.call for e in drain(q)]


def test_lamps_follow_set_lamps_and_all_off(rig):
    board, sim, clock, q = rig
    board.set_lamps(0, draw=True, knock=False, buy=True)
    factory = board.pin_factory
    assert factory.pin("GPIO12").state and not factory.pin("GPIO13").state
    assert factory.pin("GPIO16").state
    assert board.lamp_is_lit(0, "buy")
    board.set_lamps(0, buy=False)
    assert board.lamp_is_lit(0, "draw") and not board.lamp_is_lit(0, "buy")
    board.all_off()
    assert not any(board.lamp_is_lit(s, n) for s, n in board.lamps())
    with pytest.raises(ValueError, match="unknown lamp"):
        board.set_lamp(0, "gin", True)


def test_seat_lamp_shows_any_open_call():
    q: queue.Queue = queue.Queue()
    with ButtonBoard(
        default_config(4), pin_factory=MockFactory(), events=q, poll_interval=None
    ) as board:
        board.set_lamps(2, draw=False, buy=True)
        assert board.lamp_is_lit(2, "seat")
        board.set_lamps(2, draw=False, knock=False, buy=False)
        assert not board.lamp_is_lit(2, "seat")
        board.set_lamps(2, seat_lamp=True)
        assert board.lamp_is_lit(2, "seat")


def test_close_frees_pins_and_switches_lamps_off():
    factory = MockFactory()
    q: queue.Queue = queue.Queue()
    with ButtonBoard(default_config(2), pin_factory=factory, events=q) as board:
        board.set_lamps(1, draw=True)
    assert not factory.pin("GPIO20").state
    # pins are free again: a second board on the same factory works
    ButtonBoard(default_config(2), pin_factory=factory, events=q).close()


def test_hold_thread_reports_hold_with_real_clock():
    q: queue.Queue = queue.Queue()
    config, errors = parse_button_config({"seat_count": 2, "hold": 0.1})
    assert not errors
    with ButtonBoard(config, pin_factory=MockFactory(), events=q, poll_interval=0.005) as board:
        SimButtons(board).press(1, "knock")
        first = q.get(timeout=1)
        second = q.get(timeout=1)
    assert (first.edge, second.edge) == (PRESS, HOLD)
    assert second.t - first.t >= 0.1


def test_missing_factory_fails_loudly():
    with pytest.raises(HardwareError, match="no GPIO pin factory"):
        ButtonBoard(default_config(2), pin_factory=None, events=queue.Queue())


def test_mock_factory_refused_on_a_pi(monkeypatch):
    monkeypatch.setattr("device.buttons.on_raspberry_pi", lambda *a: True)
    with pytest.raises(HardwareError, match="refusing the mock pin factory"):
        ButtonBoard(default_config(2), pin_factory=MockFactory(), events=queue.Queue())


def test_sim_keys_drive_the_real_pins(rig):
    board, sim, clock, q = rig
    assert sim.key_down("s")  # seat 1 knock
    assert not board.pin_factory.pin("GPIO18").state  # pulled low = pressed
    clock.advance(0.1)
    assert sim.key_up("S")
    assert not sim.key_down("m")
    settle(board, clock)
    assert [(e.seat, e.call, e.edge) for e in drain(q)] == [
        (1, "knock", PRESS),
        (1, "knock", RELEASE),
    ]


ONE_BUTTON, _errors = parse_button_config({"seats": {"0": {"buy": "GPIO4", "draw": "GPIO5"}}})
assert ONE_BUTTON is not None, _errors


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.floats(0.0005, 0.5)), min_size=1, max_size=40))
def test_events_alternate_and_presses_respect_lockout(steps):
    """Whatever the edges, reported edges alternate press/release per button, presses are
    at least the lockout apart, and holds never come twice for one press."""
    with button_rig(ONE_BUTTON) as (board, sim, clock, q):
        for down, dt in steps:
            clock.advance(dt)
            (sim.press if down else sim.release)(0, "buy")
            board.poll()
        events = [e for e in drain(q) if e.call == "buy"]
    last_edge = RELEASE
    last_press = float("-inf")
    for e in events:
        if e.edge == PRESS:
            assert last_edge == RELEASE
            assert e.t - last_press >= 0.3
            last_press = e.t
        elif e.edge == HOLD:
            assert last_edge == PRESS
        else:
            assert last_edge in (PRESS, HOLD)
        last_edge = e.edge


def test_sources_keyboard_touch_and_explicit_gpio():
    q: queue.Queue = queue.Queue()
    clock = FakeClock()
    with ButtonBoard(
        default_config(2),
        pin_factory=MockFactory(),
        events=q,
        clock=clock,
        poll_interval=None,
        source="gpio",
    ) as board:
        sim = SimButtons(board)
        sim.key_down("q")
        clock.advance(0.5)
        sim.key_up("q")
        clock.advance(0.5)
        sim.press(1, "buy", source="touch")
        clock.advance(0.5)
        board.pin_factory.pin("GPIO17").drive_low()  # not through SimButtons
        settle(board, clock)
    assert [(e.source, e.edge) for e in drain(q)] == [
        ("keyboard", PRESS),
        ("keyboard", RELEASE),
        ("touch", PRESS),
        ("gpio", PRESS),
    ]


def run_polls(board, clock, seconds, step=0.01):
    """Let ``seconds`` pass with the hold thread's polls every ``step``."""
    for _ in range(round(seconds / step)):
        clock.advance(step)
        board.poll()


@pytest.mark.parametrize("glitch_ms", [1, 2, 3, 4, 5])
def test_a_glitch_during_a_hold_is_no_release_and_no_second_press(rig, glitch_ms):
    board, sim, clock, q = rig
    sim.press(0, "draw")
    run_polls(board, clock, 0.5)  # held past the lockout
    sim.release(0, "draw")  # the contact opens for a few ms
    clock.advance(glitch_ms / 1000)
    sim.press(0, "draw")
    run_polls(board, clock, 0.3)
    assert board.is_pressed(0, "draw")
    sim.release(0, "draw")
    run_polls(board, clock, 0.1)
    events = drain(q)
    assert [e.edge for e in events] == [PRESS, RELEASE]
    assert events[0].t == 100.0  # stamped when the press began
    assert events[1].t == pytest.approx(100.8 + glitch_ms / 1000)


@pytest.mark.parametrize("glitch_ms", [1, 2, 3, 4, 5])
def test_a_spike_while_idle_is_no_press(rig, glitch_ms):
    board, sim, clock, q = rig
    run_polls(board, clock, 0.1)
    sim.press(1, "buy")  # noise pulls the line low for a few ms
    clock.advance(glitch_ms / 1000)
    sim.release(1, "buy")
    run_polls(board, clock, 0.5)
    assert drain(q) == []
    assert not board.is_pressed(1, "buy")
    sim.press(1, "buy")  # a real press right after is still a press
    run_polls(board, clock, 0.05)
    assert [e.edge for e in drain(q)] == [PRESS]


def test_a_glitch_across_the_hold_time_still_gives_one_hold(rig):
    board, sim, clock, q = rig
    sim.press(0, "knock")
    run_polls(board, clock, 0.99)
    sim.release(0, "knock")
    clock.advance(0.003)
    sim.press(0, "knock")
    run_polls(board, clock, 1.0)
    assert [e.edge for e in drain(q)] == [PRESS, HOLD]


def test_a_storm_of_bouncing_presses_with_glitches_and_spikes_counts_every_press_once():
    """1,000 presses, each with contact bounce on both edges (up to 5 ms), about a third
    with a 1-5 ms dropout while held, and 1-5 ms spikes in a third of the idle gaps:
    exactly one PRESS and one RELEASE per real press, none for the noise."""
    import random

    rng = random.Random(9)
    with button_rig(ONE_BUTTON) as (board, sim, clock, q):

        def bounce(final_down: bool) -> None:
            for _ in range(rng.randrange(0, 6)):
                (sim.press if final_down else sim.release)(0, "buy")
                clock.advance(rng.uniform(0.0002, 0.001))
                (sim.release if final_down else sim.press)(0, "buy")
                clock.advance(rng.uniform(0.0002, 0.001))
            (sim.press if final_down else sim.release)(0, "buy")

        def wait(seconds: float, noise: bool) -> None:
            glitch_at = rng.uniform(0.02, seconds - 0.02) if noise else -1.0
            waited = 0.0
            while waited < seconds:
                clock.advance(0.01)
                waited += 0.01
                board.poll()
                if 0 <= glitch_at <= waited:
                    glitch_at = -1.0
                    down = board.pin_factory.pin("GPIO4").state == 0
                    (sim.release if down else sim.press)(0, "buy")
                    clock.advance(rng.uniform(0.001, 0.005))
                    (sim.press if down else sim.release)(0, "buy")

        presses = 1000
        for _ in range(presses):
            bounce(True)
            wait(rng.uniform(0.06, 0.4), rng.random() < 0.33)
            bounce(False)
            wait(rng.uniform(0.32, 0.6), rng.random() < 0.33)
        events = [e for e in drain(q) if e.call == "buy"]
    assert [e.edge for e in events] == [PRESS, RELEASE] * presses
