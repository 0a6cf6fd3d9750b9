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
