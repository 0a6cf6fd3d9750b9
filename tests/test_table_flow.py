"""Around the tables (issue 11, the smaller items): ending a match asks first, every lamp is
off outside a table, "New game" seats the same players again, the discard pile is outlined
when a discard goes there."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from display_input import FakeClock, click, drawn_texts, humans, press, target, text_log  # noqa: E402

from display.app import App  # noqa: E402
from display.table.config import load_config  # noqa: E402


def make_app(tmp_path, clock) -> App:
    config, errors = load_config(None, env={"RUMMY_TABLE_STATE_DIR": str(tmp_path)})
    assert not errors
    app = App(config, mode="sim", size=(800, 480), state_dir=tmp_path, seed=11, clock=clock)
    app.start()
    return app


def gin_table(tmp_path, clock) -> App:
    """Ann and Bob, both human, at a gin table (its first frame drawn)."""
    app = make_app(tmp_path, clock)
    app.start_match("gin", humans("Ann", "Bob"))
    app.frame(events=[])
    return app


def unlock(app, clock) -> None:
    app.open_operator()
    app.frame(events=[])
    for d in "1234":
        click(app, target(app, f"pin-{d}").rect.center, clock)
    click(app, target(app, "pin-ok").rect.center, clock)
    assert app.scene.unlocked


def test_end_this_match_asks_first_and_the_lamps_go_off(tmp_path):
    clock = FakeClock()
    app = gin_table(tmp_path, clock)
    seat = app.match.to_act()[0]
    assert app.hw.lamps[seat]["draw"] and app.hw.board.lamp_is_lit(seat, "draw")
    unlock(app, clock)
    click(app, target(app, "abandon").rect.center, clock)
    assert app.match is not None and app.scene.name == "operator", "the first touch only asks"
    click(app, target(app, "layout").rect.center, clock)  # something else: asked off
    click(app, target(app, "abandon").rect.center, clock)
    assert app.match is not None
    click(app, target(app, "abandon").rect.center, clock)  # the second touch in a row ends it
    assert app.match is None and app.scene.name == "attract"
    assert not any(on for lamps in app.hw.lamps.values() for on in lamps.values())
    assert not any(app.hw.board.lamp_is_lit(s, n) for s, n in app.hw.board.lamps()), "all lamps off"
    app.close()


def test_new_game_seats_the_same_players_for_the_same_game(tmp_path):
    clock = FakeClock()
    app = make_app(tmp_path, clock)
    app.start_match("contract", [{"name": "Ana", "kind": "human"}, {"name": "Computer 2", "kind": "computer", "bot": "hard"},
                                 {"name": "Citra", "kind": "human"}], preset="american_may_i")
    app.frame(events=[])
    app.after_match()  # the review's "New game"
    scene = app.scene
    assert scene.name == "seating" and scene.game == "contract" and scene.preset == "american_may_i"
    assert [(s["name"], s["kind"]) for s in scene.seats()] == [("Ana", "human"), ("Computer 2", "computer"),
                                                                ("Citra", "human")]
    assert scene.seats()[1]["bot"] == "hard", "the computer keeps its level"
    app.close()


def test_the_pile_is_outlined_when_a_discard_goes_there(tmp_path):
    clock = FakeClock()
    app = gin_table(tmp_path, clock)
    m = app.match
    press(app, m.to_act()[0], "draw", clock)  # pass the upcard (G-4)
    press(app, m.to_act()[0], "draw", clock)  # pass
    assert not app.scene.view_models()[1].pile_hint, "the forced draw is from the stock (G-4.4)"
    press(app, m.to_act()[0], "draw", clock)
    assert m.state.hand.phase.value == "discard"
    assert app.scene.view_models()[1].pile_hint, "now discard: the pile is outlined"
    app.close()


def test_the_drawn_card_is_marked_in_his_hand_while_he_is_to_discard(tmp_path):
    from display_input import conceal, reveal

    clock = FakeClock()
    app = gin_table(tmp_path, clock)
    m = app.match
    press(app, m.to_act()[0], "draw", clock)
    press(app, m.to_act()[0], "draw", clock)
    seat = m.to_act()[0]
    before = set(m.state.hand.hands[seat])
    press(app, seat, "draw", clock)  # G-4.4: from the stock
    (new,) = set(m.state.hand.hands[seat]) - before
    panel = dict((p.seat, vm) for p, vm in app.scene.view_models()[2])
    assert panel[seat].hand.drawn is None, "face down: nothing to mark"
    reveal(app, seat, clock)
    panel = dict((p.seat, vm) for p, vm in app.scene.view_models()[2])
    assert panel[seat].hand.drawn == new and panel[1 - seat].hand.drawn is None
    card = next(c for c in m.state.hand.hands[seat] if c != new)
    click(app, target(app, f"card-{seat}-{card}").rect.center, clock)
    click(app, target(app, f"card-{seat}-{card}").rect.center, clock)  # discarded: his turn is over
    assert m.state.hand.phase.value == "draw"
    panel = dict((p.seat, vm) for p, vm in app.scene.view_models()[2])
    assert panel[seat].hand.drawn is None
    conceal(app, seat, clock)
    app.close()


def test_the_simulator_strip_follows_the_language_and_lists_only_wired_buttons(tmp_path):
    from display.table import i18n

    clock = FakeClock()
    app = gin_table(tmp_path, clock)
    sim = app.sim

    def words() -> list[str]:
        with text_log() as log:
            sim.draw(app.screen.strip)
            assert all(r.fits for r in log), [r.text for r in log if not r.fits]
            return [r.text for r in log]

    en = words()
    assert "Keys: draw / knock" in en and not any("BUY" in t or "buy" in t for t in en), "gin seats have no BUY"
    assert "Hold a seat's key to see its cards" in en
    sim.update()
    try:
        app.set_language("ru")
        assert sim.update(), "a language change redraws the strip"
        assert i18n._("Simulated buttons") in words() and i18n._("Simulated buttons") != "Simulated buttons"
    finally:
        app.set_language("en")
    app.close()


def test_a_hardware_warning_on_the_start_screen_keeps_clear_of_its_buttons(tmp_path):
    clock = FakeClock()
    app = make_app(tmp_path, clock)
    app.mode = "kiosk"  # the kiosk shows hardware problems on the start screen
    app.hw.problems = ["buttons: the lgpio pin factory is not usable (No module named 'lgpio'); install lgpio "
                       "(apt install python3-lgpio, or pip install lgpio) and add the user to the 'gpio' group"]
    app.goto("attract")
    log = drawn_texts(app)
    warn = [r for r in log if "lgpio" in r.text or "gpio" in r.text]
    assert warn, "the warning is shown"
    buttons = [t.rect for t in app.scene.targets if t.name in ("recall", "leaderboard", "play")]
    assert len(buttons) == 3
    for r in warn:
        assert r.fits and not any(r.drawn.colliderect(b) for b in buttons), (r.text, r.drawn, buttons)
    app.close()


def test_a_lost_turn_names_the_players_first_and_agrees_with_how_many():
    from types import SimpleNamespace

    from display.table.contract_text import event_text
    from rummy.actions import Event

    names = ["Ana", "Computer 2", "Citra", "Duarte"]
    match = SimpleNamespace(seats=[{}] * 4, name=lambda s: names[s])
    one = event_text(match, Event("turn_started", 3, {"skipped": [1]}))
    two = event_text(match, Event("turn_started", 3, {"skipped": [1, 2]}))
    assert one == "Computer 2 misses a turn after the buy"
    assert two == "Computer 2, Citra miss a turn after the buy"


def test_the_operator_changes_the_pin_on_the_table(tmp_path):
    from display.table.config import check_pin

    cfg = tmp_path / "config.toml"
    cfg.write_text("[display]\nlanguage = \"en\"\n", encoding="utf-8")
    env = {"RUMMY_TABLE_STATE_DIR": str(tmp_path), "RUMMY_TABLE_CONFIG": str(cfg)}
    config, errors = load_config(None, env=env)
    assert not errors
    clock = FakeClock()
    app = App(config, mode="sim", size=(800, 480), state_dir=tmp_path, seed=11, clock=clock)
    app.start()
    unlock(app, clock)

    def keypad(digits: str) -> None:
        for d in digits:
            click(app, target(app, f"pin-{d}").rect.center, clock)
        click(app, target(app, "pin-ok").rect.center, clock)

    click(app, target(app, "change_pin").rect.center, clock)
    keypad("12")
    assert app.scene.wrong and app.scene.page == "pin", "too short"
    keypad("5678")
    keypad("5679")
    assert app.scene.wrong and app.scene.new_pin is None, "the two entries differ: start again"
    keypad("5678")
    keypad("5678")
    assert app.scene.page == "menu" and app.scene.said == "PIN changed"
    assert check_pin(app.config, "5678") and not check_pin(app.config, "1234")
    again, errors = load_config(None, env=env)
    assert not errors and check_pin(again, "5678"), "stored in the table's config file"
    assert 'language = "en"' in cfg.read_text(encoding="utf-8"), "the rest of the file is kept"
    app.close()
