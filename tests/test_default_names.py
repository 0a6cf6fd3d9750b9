"""Default seat names (issue 28, Deliver 5): a seat nobody named is stored as the code
"Player 1" / "Computer 2" and worded in the table's language when it is shown, whatever
language the table spoke when the seat was made; computers nobody named are told apart by
match on the leaderboard (``records leaderboard --all``), never one player of every match.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from display_input import drawn_texts, started_app  # noqa: E402

from display.records_cli import main as records_main  # noqa: E402
from display.table import i18n  # noqa: E402
from display.table.match import MatchDriver  # noqa: E402
from display.table.recall_text import hand_title, step_lines, summary_lines  # noqa: E402
from rummy.players import player  # noqa: E402
from rummy.records import read_journal  # noqa: E402
from rummy.session import MatchSession  # noqa: E402
from rummy.session_runner import default_rules, next_action  # noqa: E402
from rummy.store import DB_NAME, Store  # noqa: E402


def start(state_dir, seats, seed=5, game="gin"):
    rules, preset = default_rules(game, None)
    return MatchSession.start(state_dir, game, rules, seats, seed=seed, preset=preset, fsync=False)


def play(state_dir, seats, store, seed=5):
    """A gin match of ``seats``, every seat played by the basic bot, recorded in ``store``."""
    s = start(state_dir, seats, seed)
    bots = [player("gin") for _ in seats]
    while not s.is_over:
        s.apply(next_action(s, bots))
    s.finish(store)
    return s


# -- the table: made on a Russian table, shown on a Portuguese one ------------------------------
def test_a_seat_made_on_a_russian_table_is_stored_as_a_code_and_shown_in_portuguese(tmp_path):
    app, _clock = started_app(tmp_path, size=(800, 480), seed=3)
    try:
        app.set_language("ru")
        app.goto("seating", game="gin", preset="standard")
        scene = app.scene
        assert scene.seat_name(0) == "Игрок 1" and scene.seat_name(1) == "Компьютер 2"  # worded here
        scene.start()
        header = read_journal(app.match.session.journal_path).header
        # the journal keeps the language-neutral code, not the Russian words
        assert [(s["name"], s["named"]) for s in header.seats] == [("Player 1", False),
                                                                   ("Computer 2", False)]
        app.set_language("pt")  # the same match, the table now speaks Portuguese
        assert app.match.name(0) == "Jogador 1" and app.match.name(1) == "Computador 2"
        app.show_match()
        texts = " ".join(r.text for r in drawn_texts(app))
        assert "Jogador 1" in texts and "Игрок" not in texts and "Компьютер" not in texts
    finally:
        app.close()


def test_an_older_journal_with_russian_default_names_is_shown_in_portuguese(tmp_path):
    """Journals written before the codes hold the Russian words (with ``named`` false, or
    without the flag at all): a Portuguese table words them in Portuguese."""
    s = start(tmp_path, [{"name": "Игрок 1", "kind": "human", "named": False},
                         {"name": "Компьютер 2", "kind": "computer", "bot": "basic"}])
    i18n.set_language("pt")
    m = MatchDriver(s, seed=1)
    assert m.name(0) == "Jogador 1" and m.name(1) == "Computador 2"
    i18n.set_language("id")
    assert m.name(0) == "Pemain 1" and m.name(1) == "Komputer 2"


def test_an_entered_name_is_never_reworded(tmp_path):
    """A person who typed "Player 1" (``named`` true) is "Player 1" on every table."""
    s = start(tmp_path, [{"name": "Player 1", "kind": "human", "named": True},
                         {"name": "Иван", "kind": "human", "named": True}])
    i18n.set_language("pt")
    m = MatchDriver(s, seed=1)
    assert (m.name(0), m.name(1)) == ("Player 1", "Иван")


def test_new_game_after_a_russian_match_keeps_default_seats_default_on_a_portuguese_table(tmp_path):
    """"New game" seats the last match's seats again: a default seat of a Russian table is
    "Jogador 1" on the Portuguese one, and still no player (not a typed "Игрок 1")."""
    app, _clock = started_app(tmp_path, size=(800, 480), seed=3)
    try:
        app.set_language("pt")
        last = [{"name": "Игрок 1", "kind": "human", "bot": "medium", "named": False},
                {"name": "Компьютер 2", "kind": "computer", "bot": "hard", "named": False}]
        app.goto("seating", game="gin", preset="standard", seats=last)
        scene = app.scene
        assert scene.seat_name(0) == "Jogador 1" and scene.seat_name(1) == "Computador 2"
        assert scene.seats() == [
            {"name": "Player 1", "kind": "human", "bot": "medium", "named": False},
            {"name": "Computer 2", "kind": "computer", "bot": "hard", "named": False}]
        texts = [r.text for r in drawn_texts(app)]
        assert "Jogador 1" in texts and not any("Игрок" in t for t in texts)
    finally:
        app.close()


# -- the records: recall in the table's language --------------------------------------------
def test_the_recall_of_a_russian_match_names_its_default_seat_in_portuguese(tmp_path):
    with Store(tmp_path / DB_NAME) as store:
        play(tmp_path, [{"name": "Ann", "kind": "human", "named": True},
                        {"name": "Игрок 2", "kind": "human", "named": False}], store)
        hands = store.last_hands(3)
    i18n.set_language("pt")
    assert hands
    for rec in hands:
        words = "\n".join([hand_title(rec), *summary_lines(rec),
                           *(line for _n, lines in step_lines(rec) for line in lines)])
        assert "Jogador 2" in words and "Ann" in words and "Игрок" not in words
    assert hands[0].named == (True, False)  # the records say which seats were named


def test_the_recall_screen_on_a_portuguese_table(tmp_path):
    app, _clock = started_app(tmp_path, size=(800, 480), seed=3)
    try:
        play(tmp_path, [{"name": "Игрок 1", "kind": "human", "named": False},
                        {"name": "Bea", "kind": "human", "named": True}], app.store)
        app.set_language("pt")
        app.goto("recall")
        texts = " ".join(r.text for r in drawn_texts(app))
        assert "Jogador 1" in texts and "Bea" in texts and "Игрок" not in texts
    finally:
        app.close()


# -- the leaderboard: "Computer 2" of two matches is two rows ----------------------------------
def test_leaderboard_all_tells_computer_2_of_two_matches_apart(tmp_path, capsys):
    """Ann beats or loses to the computer in seat 2 in two matches (one made on a Russian
    table, older: "Компьютер 2"). Ann is one ranked player of both; the computers are one
    row per match, by code and match number, unranked."""
    with Store(tmp_path / DB_NAME) as store:
        play(tmp_path, [{"name": "Ann", "kind": "human", "named": True},
                        {"name": "Computer 2", "kind": "computer", "bot": "basic", "named": False}],
             store, seed=7)
        play(tmp_path, [{"name": "Ann", "kind": "human", "named": True},
                        {"name": "Computer 2", "kind": "computer", "bot": "hard", "named": False}],
             store, seed=8)
        play(tmp_path, [{"name": "Ann", "kind": "human", "named": True},
                        {"name": "Компьютер 2", "kind": "computer", "bot": "basic"}], store, seed=9)
        ids = sorted(m["id"] for m in store.matches())
        board = store.leaderboard("gin", humans_only=False)
        assert [(r.name, r.played, r.rank) for r in board if r.kind == "human"] == [("Ann", 3, 1)]
        computers = [r for r in board if r.kind == "computer"]
        assert [(r.name, r.played, r.rank) for r in computers] == [("Computer 2", 1, 0)] * 3
        assert [r.match_id for r in computers] == ids and not any(r.named for r in computers)
        assert sum(r.won for r in board) == 3  # every match's win, Ann's or a computer's
        assert [r.name for r in store.leaderboard("gin")] == ["Ann"]  # the screen's board
    assert records_main(["leaderboard", "--all", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    lines = [x for x in out.splitlines() if "Computer 2" in x]
    assert len(lines) == 3 and [f"#{mid}" in x for x, mid in zip(lines, ids, strict=True)] == [True] * 3
    assert "Компьютер" not in out
    assert records_main(["list", "--state-dir", str(tmp_path)]) == 0  # the code there too
    out = capsys.readouterr().out
    assert out.count("Computer 2") == 3 and "Компьютер" not in out


def test_the_leaderboard_screen_ranks_named_people_only(tmp_path):
    app, _clock = started_app(tmp_path, size=(800, 480), seed=3)
    try:
        for seed in (7, 8):
            play(tmp_path, [{"name": "Ann", "kind": "human", "named": True},
                            {"name": "Computer 2", "kind": "computer", "bot": "basic",
                             "named": False}], app.store, seed=seed)
        app.set_language("pt")
        app.goto("leaderboard")
        assert [(r.name, r.played) for r in app.scene.rows] == [("Ann", 2)]
        texts = " ".join(r.text for r in drawn_texts(app))
        assert "Ann" in texts and "Computador" not in texts and "Computer" not in texts
    finally:
        app.close()
