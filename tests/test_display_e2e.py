"""End to end: two humans play a whole gin match through the simulator's input path.

Nothing here calls the engine to act: the test decides what a player would do (with the
basic bot's judgement), then makes that move the way a person would — pressing the
seat's arcade button (driving the gpiozero MockFactory pin behind the real ButtonBoard)
or touching the screen (mouse events into the app's one main loop).
"""

from __future__ import annotations

import os
import random

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
from display_input import (  # noqa: E402
    FakeClock,
    click,
    confirm_review,
    humans,
    press,
    reveal,
    started_app,
    target,
)

from display.app import App  # noqa: E402
from rummy.gin.bots import BasicPlayer  # noqa: E402


def touch_card(app: App, seat: int, card, clock: FakeClock) -> None:
    click(app, target(app, f"card-{seat}-{card}").rect.center, clock)


APP = {"size": (800, 480), "seed": 11}  # started_app's App options


def play_turn(app: App, clock: FakeClock, bot: BasicPlayer, rng: random.Random) -> str:
    """One decision of the seat to act, made through buttons and touches."""
    m = app.match
    seat = m.to_act()[0]
    legal = m.legal(seat)
    action = bot.choose(m.engine, m.engine.view(m.state, seat), legal, rng)
    before = m.session.actions_applied
    k = action.kind
    if k in ("draw_stock", "pass_upcard", "decline"):
        press(app, seat, "draw", clock)
    elif k in ("take_upcard", "draw_discard"):
        click(app, app.scene.pile_rect.center, clock)
    elif k == "discard":
        reveal(app, seat, clock)
        touch_card(app, seat, action.card, clock)
        touch_card(app, seat, action.card, clock)
    elif k == "knock":
        reveal(app, seat, clock)
        press(app, seat, "knock", clock)
        touch_card(app, seat, action.card, clock)
    elif k == "big_gin":
        press(app, seat, "knock", clock)
        press(app, seat, "knock", clock)
    elif k == "take_and_knock":
        reveal(app, seat, clock)
        click(app, app.scene.pile_rect.center, clock)
        touch_card(app, seat, action.card, clock)
    else:  # pragma: no cover - not reachable with the standard preset
        pytest.fail(f"no input path for {k}")
    assert m.session.actions_applied == before + 1, f"{k} did not happen (seat {seat}): {m.message}"
    return k


def test_a_whole_gin_match_played_with_buttons_and_touches(tmp_path):
    app, clock = started_app(tmp_path, **APP)
    app.frame(events=[])
    # attract -> choice -> seating: the first seat is human; make the second human too
    click(app, target(app, "play").rect.center, clock)
    click(app, target(app, "game-gin-standard").rect.center, clock)
    assert app.scene.name == "seating"
    click(app, target(app, "kind-1").rect.center, clock)
    click(app, target(app, "start").rect.center, clock)
    assert app.scene.name == "gin_table"
    assert [s["kind"] for s in app.match.seats] == ["human", "human"]
    seats_played = list(app.match.seats)
    bot, rng = BasicPlayer(), random.Random(5)
    kinds: list[str] = []
    hands = 0
    for _ in range(4000):
        if app.match is None:
            break
        if app.scene.name == "gin_review":
            hands += 1
            seat = 0
            confirm_review(app, seat, clock)  # DRAW held continues (issue 28)
            continue
        assert app.scene.name == "gin_table"
        # out of turn: the other seat's DRAW does nothing
        if len(kinds) == 3:
            other = 1 - app.match.to_act()[0]
            n = app.match.session.actions_applied
            press(app, other, "draw", clock)
            assert app.match.session.actions_applied == n
            assert "Not your turn" in app.scene.ui[other].flash
        kinds.append(play_turn(app, clock, bot, rng))
    assert app.match is None and app.scene.name == "seating", "the match ends; New game seats the players again"
    assert [s["name"] for s in app.scene.seats()] == [s["name"] for s in seats_played]
    assert app.matches_done == 1
    assert hands >= 1 and "discard" in kinds and ("knock" in kinds or "big_gin" in kinds)
    archived = list((tmp_path / "archive").glob("*.jsonl"))
    assert len(archived) == 1
    app.close()


def test_lamps_follow_the_legal_calls(tmp_path):
    app, clock = started_app(tmp_path, **APP)
    app.start_match("gin", humans("Ann", "Bob"))
    app.frame(events=[])
    seat = app.match.to_act()[0]
    assert app.hw.lamps[seat]["draw"] is True  # pass the upcard (G-4)
    assert app.hw.lamps[1 - seat]["draw"] is False and app.hw.lamps[1 - seat]["knock"] is False
    assert app.hw.board.lamp_is_lit(seat, "draw")
    app.close()


def test_operator_menu_by_corner_long_press_needs_the_pin(tmp_path):
    app, clock = started_app(tmp_path, **APP)
    app.frame(events=[])
    corner = (10, 10)
    app.frame(events=[pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=corner, button=1, touch=False)])
    clock.t += 1.0
    app.frame(events=[])
    assert app.scene.name == "attract", "a short press is not enough"
    clock.t += 2.5
    app.frame(events=[])
    app.frame(events=[pygame.event.Event(pygame.MOUSEBUTTONUP, pos=corner, button=1, touch=False)])
    assert app.scene.name == "operator" and not app.scene.unlocked
    for d in "9999":
        click(app, target(app, f"pin-{d}").rect.center, clock)
    click(app, target(app, "pin-ok").rect.center, clock)
    assert not app.scene.unlocked and app.scene.wrong
    for d in "1234":  # the packaged default PIN
        click(app, target(app, f"pin-{d}").rect.center, clock)
    click(app, target(app, "pin-ok").rect.center, clock)
    assert app.scene.unlocked
    assert app.settings.privacy == "peek"
    click(app, target(app, "privacy").rect.center, clock)
    assert app.settings.privacy == "open"
    click(app, target(app, "language").rect.center, clock)
    assert app.settings.language == "id"
    click(app, target(app, "close").rect.center, clock)
    assert app.scene.name == "attract"
    app.close()


def test_operator_chord_on_the_buttons_opens_the_menu(tmp_path):
    import time

    app, clock = started_app(tmp_path, **APP)
    app.frame(events=[])
    (s1, c1), (s2, c2) = app.hw.board.config.operator_chord
    app.hw.press(s1, c1)
    app.hw.press(s2, c2)
    clock.t += app.hw.board.config.operator_hold + 0.5
    for _ in range(100):  # the board's hold thread reports the chord
        app.frame(events=[])
        if app.scene.name == "operator":
            break
        time.sleep(0.01)
    app.hw.release(s1, c1)
    app.hw.release(s2, c2)
    assert app.scene.name == "operator"
    app.close()


def test_g_8_illegal_knock_is_refereed_and_explained(tmp_path):
    app, clock = started_app(tmp_path, **APP)
    app.start_match("gin", humans("Ann", "Bob"))
    app.frame(events=[])
    m = app.match
    press(app, m.to_act()[0], "draw", clock)  # pass the upcard (G-4)
    press(app, m.to_act()[0], "draw", clock)  # pass
    seat = m.to_act()[0]
    press(app, seat, "draw", clock)  # forced stock draw (G-4.4)
    assert m.state.hand.phase.value == "discard"
    from rummy.gin.melds import deadwood

    hand = m.state.hand.hands[seat]
    assert deadwood(hand) > 10, "seed 11 deals this seat a hand that cannot knock yet"
    # his hand face down: KNOCK is lit at his discard whatever his cards (issue 28) ...
    assert app.scene.seat_lamps(seat)["knock"] == "on", "a hidden hand's KNOCK lamp tells nothing of his cards"
    reveal(app, seat, clock, button="draw")  # he looks (holding KNOCK, its tap would hide his hand first)
    assert app.scene.seat_lamps(seat)["knock"] != "on", "... while he looks it is not steady: no legal knock"
    press(app, seat, "knock", clock)  # a dark lamp's button does nothing but say why (G-7.2)
    assert app.scene.ui[seat].mode == "" and "No knock yet" in app.scene.ui[seat].flash
    click(app, target(app, f"knock-{seat}").rect.center, clock)  # the panel's Knock: the player's call (G-8)
    assert app.scene.ui[seat].mode == "confirm", "first a warning, no knock yet"
    assert "you must knock when you can" in app.scene.ui[seat].flash, "the warning says the penalty"
    assert [label for label, *_ in app.scene._panel_buttons(seat)] == ["Knock anyway"]
    click(app, target(app, f"knock-{seat}").rect.center, clock)  # the second touch confirms
    assert app.scene.ui[seat].mode == "knock"
    card = max(hand, key=lambda c: c.value)
    touch_card(app, seat, card, clock)
    assert m.events and m.events[0].kind == "illegal_knock"  # G-8.2: play goes on
    assert m.state.hand.exposed[seat] and m.state.hand.must_knock[seat]
    assert "Illegal knock by" in app.scene.banner
    assert app.scene.face_up(seat) and m.to_act() == [1 - seat]
    app.close()


def test_operator_game_target_reaches_the_rules(tmp_path):
    app, clock = started_app(tmp_path, **APP)
    app.goto("operator")
    app.scene.unlocked = True
    app.frame(events=[])
    click(app, target(app, "gin_target").rect.center, clock)
    click(app, target(app, "gin_target").rect.center, clock)
    assert app.settings.gin_target == 150
    app.start_match("gin", [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "computer"}])
    assert app.match.state.rules.game_target == 150  # G-14.1 agreed amount
    assert app.match.session.header.rules["game_target"] == 150  # journalled
    app.close()


def test_names_come_from_the_on_screen_keyboard(tmp_path):
    app, clock = started_app(tmp_path, **APP)
    app.goto("seating", game="gin", preset="standard")
    app.frame(events=[])
    click(app, target(app, "name-0").rect.center, clock)
    assert app.scene.name == "keyboard"
    for ch in "ANN":
        click(app, target(app, f"key-{ch}").rect.center, clock)
    click(app, target(app, "ok").rect.center, clock)
    assert app.scene.name == "seating"
    assert app.scene.seats()[0]["name"] == "Ann"
    assert app.scene.seats()[0]["named"] is True  # entered: a player in the records
    assert app.scene.seats()[1] == {"name": "Computer 2", "kind": "computer", "bot": "medium",
                                    "named": False}
    click(app, target(app, "level-1").rect.center, clock)  # the computer's level, in turn
    assert app.scene.seats()[1]["bot"] == "hard"
    click(app, target(app, "level-1").rect.center, clock)
    assert app.scene.seats()[1]["bot"] == "easy"
    click(app, target(app, "name-1").rect.center, clock)
    click(app, target(app, "layout").rect.center, clock)  # Cyrillic
    for ch in "ИВАН":
        click(app, target(app, f"key-{ch}").rect.center, clock)
    click(app, target(app, "ok").rect.center, clock)
    assert app.scene.seats()[1]["name"] == "Иван"
    app.close()
