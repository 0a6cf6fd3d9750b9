"""A table resumes only a match of its own kind (issue 28): an unfinished match on screen
cards with a computer seated is not taken up by a real-card table (a computer cannot hold
real cards, and the shoe's cards are not the journal's); it waits in current/ with a notice
and goes on when the table plays on the screen again."""

from __future__ import annotations

from display_input import humans, started_app
from real_cards_helpers import real_app


def test_a_virtual_match_waits_while_the_table_plays_real_cards(tmp_path):
    app, clock = started_app(tmp_path)
    app.start_match("gin", [*humans("Ann"), {"name": "Computer 2", "kind": "computer", "bot": "basic"}])
    for _ in range(5):
        app.frame()
    digest = app.match.session.digest()
    journal = app.match.session.journal_path
    assert app.match.session.cards == "virtual"
    app.match.session.close()  # the power goes
    app.close()

    real, people = real_app(tmp_path, game="gin", seed=1, faults=0.0)
    try:
        real.start()
        assert real.match is None  # not resumed with a computer on a real-card table
        assert real.notice is not None and real.notice.keys == ["other_cards_virtual"]
        assert "shoe" in real.notice.text
        assert journal.exists()  # kept for a table of its kind
    finally:
        real.close()

    again, _clock = started_app(tmp_path)
    try:
        assert again.match is not None and again.match.session.digest() == digest
        assert again.notice is not None and again.notice.keys == ["resumed"]
    finally:
        again.close()


def test_a_real_card_match_says_so_in_its_journal(tmp_path):
    real, people = real_app(tmp_path, game="gin", seed=2, faults=0.0)
    try:
        real.start()
        real.start_match("gin", humans("Ann", "Bob"))
        assert real.match.session.cards == "real"
        assert real.match.session.header.extra["cards"] == "real"
    finally:
        real.close()
