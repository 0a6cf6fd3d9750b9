"""Private hands on a shared screen (docs/privacy.md, issue 11 item 1).

Two human seats play gin. A hand shows only while its owner holds one of his own arcade
buttons (pressed ``look_after`` or longer), at most one hand at a time, and a release hides
it in the frame that drains it. Touches (a tap or a hold on any panel, a card) never show a
hand: a touch cannot say who touches. The properties are checked on the controller alone and
through the app's real input path (gpiozero MockFactory pins behind the real ButtonBoard,
mouse events into the one main loop), over random sequences of both seats' inputs.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
from controller_helpers import new_table  # noqa: E402
from display_input import FakeClock, click, target  # noqa: E402
from hypothesis import HealthCheck, event, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from display.app import App  # noqa: E402
from display.table.config import load_config  # noqa: E402
from display.table.controller import Call, Hint, HintCode, Say  # noqa: E402

BUTTONS = ("draw", "knock")  # a gin seat's arcade buttons


# -- the controller alone -----------------------------------------------------------------------

STEP = st.one_of(
    st.tuples(st.just("press"), st.integers(0, 1), st.sampled_from(BUTTONS)),
    st.tuples(st.just("release"), st.integers(0, 1), st.sampled_from(BUTTONS)),
    st.tuples(st.just("wait"), st.floats(0.0, 1.0), st.just("")),
    st.tuples(st.just("touch"), st.integers(0, 1), st.sampled_from(("panel", "hold", "card"))),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(STEP, max_size=40))
def test_only_the_owner_holding_his_button_shows_his_hand(steps):
    d, ctl, clock = new_table("gin", {"preset": "standard"}, 2, {0, 1}, seed=5)
    down: dict[tuple[int, str], float] = {}  # what is physically held, and since when
    for kind, a, b in steps:
        if kind == "press" and (a, b) not in down:
            down[(a, b)] = clock.t
            assert ctl.button(a, b, "press", clock.t) is None, "a press alone never acts"
        elif kind == "release" and (a, b) in down:
            t0 = down.pop((a, b))
            call = ctl.button(a, b, "release", clock.t)
            if clock.t - t0 >= ctl.look_after - 1e-9:
                assert call is None, "a look ends without a call"
            if call is not None:
                ctl.perform(a, call, face_up=ctl.face_up(a))
            assert not ctl.face_up(a) or any(s == a for s, _b in down), "a release hides it at once"
        elif kind == "wait":
            clock.t += a
        elif kind == "touch":
            before = [ctl.face_up(s) for s in (0, 1)]
            up = before[a]
            if b == "card":
                hand = d.state.hand.hands[a] if d.state.hand is not None else ()
                if hand:
                    ctl.perform(a, Call.CARD, sorted(hand)[0], face_up=up)
            else:
                out = ctl.perform(a, Call.HOLD if b == "hold" else Call.PANEL, face_up=up).outcome
                assert up or out == Say(Hint.of(HintCode.HOLD_TO_LOOK))
            after = [ctl.face_up(s) for s in (0, 1)]
            assert not any(x and not y for y, x in zip(before, after, strict=True)), "a touch never shows a hand"
        shown = [s for s in (0, 1) if ctl.face_up(s)]
        assert len(shown) <= 1, "at most one hand at a time"
        for s in shown:
            assert d.state.hand.exposed[s] or any(
                seat == s and clock.t - t0 >= ctl.look_after - 1e-9 for (seat, _b), t0 in down.items()), \
                f"seat {s}'s hand shows although he holds none of his buttons"
        held = sorted((t0, s) for (s, _b), t0 in down.items() if clock.t - t0 >= ctl.look_after - 1e-9)
        if held:
            assert shown == [held[0][1]], "the seat that began holding first sees his hand"


def test_open_hands_show_both_and_a_long_press_still_acts():
    d, ctl, clock = new_table("gin", {"preset": "standard"}, 2, {0, 1}, seed=5)
    assert ctl.face_up(0, open_hands=True) and ctl.face_up(1, open_hands=True)
    seat = d.to_act()[0]
    ctl.button(seat, "draw", "press", clock.t)
    assert ctl.button(seat, "draw", "release", clock.t + 2.0, open_hands=True) is Call.DRAW


def test_the_first_turn_says_how_to_look_until_he_has_looked():
    d, ctl, clock = new_table("gin", {"preset": "standard"}, 2, {0, 1}, seed=5)
    seat = d.to_act()[0]
    assert ctl.hint(seat, face_up=False) == Hint.of(HintCode.HOW_TO_LOOK)
    assert ctl.hint(1 - seat, face_up=False).code is HintCode.OTHER_TO_PLAY, "only the seat in turn is told"
    ctl.button(seat, "knock", "press", clock.t)
    clock.t += ctl.look_after
    assert ctl.face_up(seat)
    ctl.note_looks(clock.t, 2)  # the frame that showed it
    assert ctl.hint(seat, face_up=True).code is HintCode.UPCARD_OFFER
    ctl.button(seat, "knock", "release", clock.t)
    assert not ctl.face_up(seat)
    assert ctl.hint(seat, face_up=False).code is HintCode.UPCARD_OFFER, "told once: he knows now"


def test_a_tap_acts_and_a_look_does_not():
    d, ctl, clock = new_table("gin", {"preset": "standard"}, 2, {0, 1}, seed=5)
    seat = d.to_act()[0]
    ctl.button(seat, "draw", "press", clock.t)
    assert ctl.button(seat, "draw", "release", clock.t + 0.1) is Call.DRAW
    ctl.button(seat, "draw", "press", clock.t)
    clock.t += ctl.look_after
    ctl.note_looks(clock.t, 2)  # the frame that showed it
    assert ctl.button(seat, "draw", "release", clock.t) is None, "a look is no pass of the upcard"
    ctl.release_all()
    assert ctl.button(seat, "draw", "release", clock.t) is None, "a release without its press does nothing"


# -- through the app ----------------------------------------------------------------------------


def make_app(tmp_path, clock) -> App:
    config, errors = load_config(None, env={"RUMMY_TABLE_STATE_DIR": str(tmp_path)})
    assert not errors
    app = App(config, mode="sim", size=(800, 480), state_dir=tmp_path, seed=11, clock=clock)
    app.start()
    app.start_match("gin", [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}])
    app.frame(events=[])
    return app


def edge(app: App, clock: FakeClock, seat: int, button: str, down: bool) -> None:
    """Drive the seat's MockFactory pin and let the board report the edge, as its poll
    thread does every few ms (the glitch filter settles after 8 ms; an edge within the 30 ms
    debounce is caught up with afterwards); the next frame drains it."""
    (app.hw.press if down else app.hw.release)(seat, button)
    for _ in range(4):
        clock.t += 0.01
        app.hw.board.poll(clock.t)


def shown(app: App) -> dict[int, bool]:
    """What the screen shows of each panel: were its cards drawn face up in the last frame?"""
    return {s: p.shown is not None and p.shown.hand.up for s, p in app.scene.painters.items()}


def hand_pixels(app: App, seat: int) -> list[tuple[int, ...]]:
    surf = app.screen.surface
    return [tuple(surf.get_at(r.center)) for r in app.scene.painters[seat].hand_screen_rects]


def test_release_hides_the_hand_in_the_very_next_frame(tmp_path):
    clock = FakeClock()
    app = make_app(tmp_path, clock)
    seat = app.match.to_act()[0]
    clock.t += 1.0
    app.frame(events=[])
    before = hand_pixels(app, seat)
    assert shown(app) == {0: False, 1: False}
    assert "hold your button" in app.scene.hint(seat), "the first turn says how to look"
    edge(app, clock, seat, "draw", True)
    app.frame(events=[])
    assert shown(app)[seat] is False, "a press is not yet a look (it may be a tap)"
    clock.t += 0.35
    app.frame(events=[])  # render: held long enough, face up
    assert shown(app) == {seat: True, 1 - seat: False}
    assert hand_pixels(app, seat) != before
    edge(app, clock, seat, "draw", False)  # release
    app.frame(events=[])  # render: the next frame
    assert shown(app) == {0: False, 1: False}
    assert hand_pixels(app, seat) == before, "the next frame has the hand face down"
    assert app.match.state.hand.phase.value == "upcard", "the look passed no upcard"
    app.close()


def test_holding_another_seats_panel_never_shows_his_hand(tmp_path):
    clock = FakeClock()
    app = make_app(tmp_path, clock)
    for seat in (0, 1):
        panel = target(app, f"panel-{seat}").rect.center
        app.frame(events=[pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=panel, button=1, touch=False)])
        said = set()
        for _ in range(30):  # hold it for 15 s
            clock.t += 0.5
            app.frame(events=[])
            assert not any(shown(app).values())
            said.add(app.scene.ui[seat].flash)
        app.frame(events=[pygame.event.Event(pygame.MOUSEBUTTONUP, pos=panel, button=1, touch=False)])
        assert any("Hold one of your buttons" in s for s in said), "the hold says how to look"
    app.close()


APP_STEP = st.one_of(
    st.tuples(st.just("press"), st.integers(0, 1), st.sampled_from(BUTTONS)),
    st.tuples(st.just("release"), st.integers(0, 1), st.sampled_from(BUTTONS)),
    st.tuples(st.just("wait"), st.sampled_from((0.05, 0.2, 0.4, 1.5)), st.just("")),
    st.tuples(st.just("tap"), st.integers(0, 1), st.sampled_from(("panel", "card", "pile", "stock"))),
    st.tuples(st.just("hold"), st.integers(0, 1), st.sampled_from(("panel", "card"))),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(APP_STEP, min_size=1, max_size=25))
def test_one_seat_can_never_make_the_others_hand_visible(tmp_path_factory, steps):
    clock = FakeClock()
    app = make_app(tmp_path_factory.mktemp("privacy"), clock)
    down: dict[tuple[int, str], float] = {}
    try:
        for kind, a, b in steps:
            if kind == "press" and (a, b) not in down:
                down[(a, b)] = clock.t
                edge(app, clock, a, b, True)
            elif kind == "release" and (a, b) in down:
                del down[(a, b)]
                edge(app, clock, a, b, False)
            elif kind == "wait":
                clock.t += a
            elif kind in ("tap", "hold"):
                names = [t.name for t in app.scene.targets if t.name == f"panel-{a}"
                         or (b == "card" and t.name.startswith(f"card-{a}-"))
                         or (b in ("pile", "stock") and t.name == b)]
                want = [n for n in names if n.startswith("card-")] if b == "card" else names
                if want:
                    pos = target(app, want[0]).rect.center
                    if kind == "tap":
                        click(app, pos, clock)
                    else:
                        app.frame(events=[pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False)])
                        clock.t += 1.0
                        app.frame(events=[])
                        app.frame(events=[pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False)])
            app.frame(events=[])
            if app.scene.name != "gin_table":
                break
            up = shown(app)
            h = app.match.state.hand
            for seat in (0, 1):
                if up[seat] and not (h.exposed[seat] or h.phase.value == "over"):
                    assert any(s == seat and clock.t - t0 >= app.match.controller.look_after - 1e-9
                               for (s, _b), t0 in down.items()), \
                        f"seat {seat}'s hand shows although he holds none of his buttons: {steps}"
            if not (h.exposed[0] or h.exposed[1]):
                assert sum(up.values()) <= 1, "at most one hand face up"
            if any(up.values()):
                event("a hand showed")
    finally:
        app.close()
