"""Real cards and the shared screen (issue 28, docs/privacy.md "Real cards"): the players
hold their cards, so the screen never shows a hand: a held button shows nothing (it did
show the whole hand face up), and no status line says to hold a button to look."""

from __future__ import annotations

from real_cards_helpers import real_app

from display.screenshots_real import wait


def test_a_held_button_shows_no_hand_with_real_cards(tmp_path):
    app, people = real_app(tmp_path, game="gin", seed=4, faults=0.0)
    try:
        app.start()
        assert wait(app, lambda: app.match is not None and not app.match.reads.dealing()
                    and bool(app.match.to_act()), 120)
        people.auto = False
        m = app.match
        seat = m.to_act()[0]
        ctl = m.controller
        t0 = app.clock()
        ctl.button(seat, "draw", "press", t0)  # held: past the look time
        later = t0 + 2 * ctl.look_after
        ctl.note_looks(later, len(m.seats))
        assert not ctl.face_up(seat, later) and not ctl.face_up(1 - seat, later)
        app.scene.now = later
        assert not app.scene.face_up(seat)
        words = [app.scene.hint(s) for s in range(len(m.seats))]
        assert not any("hold" in w.lower() for w in words), words
        assert any("DRAW" in w and "KNOCK" in w for w in words), words  # the upcard's calls, G-4
        ctl.button(seat, "draw", "release", later)
    finally:
        app.close()


def test_the_knock_lamp_at_the_discard_tells_nothing_of_the_hand():
    """Gin's discard phase: KNOCK is lit for the seat in turn over many deals whatever his
    deadwood (it arms the knock; the card through the slot is then judged, G-7.2/G-8.3)."""
    from test_real_cards_scenarios import both_pass, dealt_gin

    from display.table.controller.real_cards import SHOE

    legal_seen = illegal_seen = 0
    for seed in range(40):
        d, ctl, reads, deck = dealt_gin(seed)
        seat = both_pass(d, ctl)
        assert reads.card(SHOE, deck[21]).prompt is None  # his stock draw
        can_knock = any(a.kind == "knock" for a in d.legal(seat))
        legal_seen += can_knock
        illegal_seen += not can_knock
        assert ctl.lamps(seat)["knock"], (seed, can_knock)
        assert not ctl.lamps(1 - seat)["knock"]
    assert illegal_seen > 0  # hands with no legal knock were among them
