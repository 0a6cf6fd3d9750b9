"""Real cards and the operator (PIN): a new deck enrolled through the simulated shoe from the
operator menu, a tag the table does not know stopping the game until the operator voids the
hand (journalled, the same dealer deals again), diagnostics saying where the shoe is."""

from __future__ import annotations

import pytest
from real_cards_helpers import real_app

from device.shoe.deckmap import DeckMap
from display.screenshots_real import wait as real_wait
from rummy.cards import ALL_CARDS

pytestmark = pytest.mark.timeout(600)


def wait(app, done, seconds: float = 30.0) -> bool:
    return real_wait(app, done, seconds)


def touch(app, name: str) -> None:
    app.frame()
    for t in app.scene.targets:
        if t.name == name and t.action is not None:
            t.action()
            app.frame()
            return
    raise AssertionError(f"no {name!r} on {app.scene.name}: {[t.name for t in app.scene.targets]}")


def operator(app) -> None:
    app.open_operator()
    app.scene.unlocked = True  # the PIN was entered (tests/test_display_e2e.py types it)
    app.frame()


def test_enrol_a_new_deck_from_the_operator_menu_and_play_with_it(tmp_path):
    app, people = real_app(tmp_path, game="gin", seed=2, faults=0.0)
    people.auto = False
    app.start()
    assert wait(app, lambda: app.real.shoe.connected)
    twin = people.readers.twin
    operator(app)
    touch(app, "enrol")
    assert app.scene.page == "enrol" and app.real.shoe.enroller is not None
    deck = 7  # tags the simulated deck map does not know: a new pack
    for card in ALL_CARDS:
        twin.feed("shoe", card, deck=deck)
    assert wait(app, lambda: app.real.shoe.enroller is not None and app.real.shoe.enroller.done, 120)
    touch(app, "enrol_save")
    assert app.real.shoe.enroller is None and app.scene.page == "menu"
    saved = DeckMap.load(tmp_path / "deck.map")
    assert len(saved) == 52
    uid = next(u for u, c in saved.cards.items() if str(c) == "QH")
    assert app.real.shoe.link.receiver.deck_map.get(uid) is not None
    app.close()


def test_an_unknown_tag_stops_the_game_until_the_operator_voids_the_hand(tmp_path):
    app, people = real_app(tmp_path, game="gin", seed=4, faults=0.0)
    app.start()
    assert wait(app, lambda: app.match is not None and not app.match.reads.dealing() and bool(app.match.to_act()),
                120)
    people.auto = False
    m = app.match
    dealer = m.state.hand.dealer
    assert wait(app, lambda: people.pending is None)
    people.readers.unknown("shoe")
    assert wait(app, lambda: m.reads.prompt is not None)
    assert m.reads.prompt.kind == "unknown_tag"
    assert not any(app.hw.lamps[s][c] for s in (0, 1) for c in ("draw", "knock"))  # stopped
    operator(app)
    lines = [t.name for t in app.scene.targets]
    assert "void_hand" in lines and "go_on" in lines
    touch(app, "void_hand")
    assert m.reads.prompt is None and m.reads.dealing()
    assert m.history[-1][0].kind == "void_hand" and m.state.dealer == dealer
    touch(app, "diagnostics")
    app.close()


def test_a_shoe_that_is_not_there_is_said_on_screen_and_in_diagnostics(tmp_path):
    from display.app import App
    from display.table.config import load_config

    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[shoe]\nenabled = true\nport = "{tmp_path}/no-shoe"\n', encoding="utf-8")
    config, errors = load_config(cfg, env={"HOME": str(tmp_path)})
    assert not errors and config.shoe.enabled
    app = App(config, mode="headless", state_dir=tmp_path / "state", debug=True)
    app.start()
    for _ in range(5):
        app.frame()
    assert "not connected" in (app.real.overlay_text() or "")  # on every screen, over the scene
    problems = app.real.shoe.problems()
    assert problems[0].startswith(f"Card shoe: not connected at {tmp_path}/no-shoe")
    assert any("deck map" in p for p in problems)
    operator(app)
    touch(app, "diagnostics")
    app.scene.draw(app.screen.surface)  # the shoe's lines, no "No problems found"
    app.close()


@pytest.mark.parametrize("lang", ["en", "id", "ru", "pt"])
def test_the_seating_screen_offers_no_computer_seats_with_real_cards(tmp_path, lang):
    """A computer cannot hold real cards: the seating screen shows people only (no
    Human/Computer toggle, no level) and says why, in the table's language, fitting its box."""
    from display_input import drawn_texts

    from display.table import i18n

    app, people = real_app(tmp_path, game="contract", seed=1, faults=0.0)
    try:
        i18n.set_language(lang)
        app.goto("seating", game="contract", seats=[{"name": "Ann", "kind": "human"},
                                                     {"name": "Bot", "kind": "computer", "bot": "hard"}])
        scene = app.scene
        scene.set_count(4)
        scene.toggle(2)  # (no effect: nothing to toggle)
        log = drawn_texts(app)
        names = {t.name for t in scene.targets}
        assert not any(n.startswith(("kind-", "level-")) for n in names), names
        assert [s["kind"] for s in scene.seats()] == ["human"] * 4
        bad = [(r.text, r.box) for r in log if not r.fits]
        assert not bad, bad
        said = i18n._("Real cards: every seat is a player holding cards")
        assert any(r.text == said for r in log)
        if lang != "en":
            assert said != "Real cards: every seat is a player holding cards"
    finally:
        i18n.set_language("en")
        app.close()
        people.close()


def test_the_operator_names_an_unknown_tag_mid_hand_and_the_draw_is_taken(tmp_path):
    """Issue 28: a single replaced tag mid-hand: the operator names its card on the 52-card
    page; the deck map learns it (a table's real map keeps it beside, ``<map>.learned.map``;
    the simulator's is built in) and the read is taken as that card: the hand goes on."""
    app, people = real_app(tmp_path, game="gin", seed=4, faults=0.0)
    app.start()
    m = app.match
    assert wait(app, lambda: app.match is not None and not app.match.reads.dealing() and bool(app.match.to_act()),
                120)
    m = app.match
    people.auto = False
    assert wait(app, lambda: people.pending is None)
    # both pass the upcard (G-4), so the non-dealer must draw from the shoe
    from display.table.controller import Call

    while m.reads.need() is None and str(m.state.hand.phase) == "upcard":
        m.controller.perform(m.to_act()[0], Call.KNOCK)
        app.frame()
    need = m.reads.need()
    assert need is not None
    seat = int(need.seat)
    card, _deck = people.shoe.pop(0)  # the card drawn: its sticker was replaced
    uid = people.readers.twin.unknown("shoe")
    assert wait(app, lambda: m.reads.prompt is not None and m.reads.prompt.kind == "unknown_tag")
    operator(app)
    touch(app, "assign")
    assert app.scene.page == "assign"
    touch(app, f"assign_{card}")
    assert app.scene.page == "menu" and m.reads.prompt is None
    assert m.history[-1][0].kind == "draw_stock" and m.history[-1][0].card == card
    assert card in m.state.hand.hands[seat]
    assert app.real.shoe.link.receiver.deck_map.get(uid) == card  # the map knows the new tag
    app.close()
