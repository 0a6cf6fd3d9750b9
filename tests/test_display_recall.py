"""Recall (GLI-11 last game recall) and leaderboard screens over real recorded matches."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
from display_input import drawn_texts  # noqa: E402

from display.app import App  # noqa: E402
from display.layout import MIN_TOUCH_PX  # noqa: E402
from display.table import i18n  # noqa: E402
from display.table.config import load_config  # noqa: E402


def make_app(tmp_path, size=(800, 480), record_bots=True) -> App:
    """The app over ``tmp_path``; its computer matches are recorded (``--record-bots``)."""
    config, errors = load_config(None, env={"RUMMY_TABLE_STATE_DIR": str(tmp_path)})
    assert not errors
    return App(config, mode="headless", size=size, state_dir=tmp_path, seed=5,
               record_bots=record_bots)


def play_out(app: App, game: str, seats: int) -> None:
    """A whole computer match, recorded in the store as the app does after a match."""
    app.start_match(game, [{"name": f"Bot {chr(65 + i)}", "kind": "computer"} for i in range(seats)])
    m = app.match
    for _ in range(20000):
        if m.is_over:
            break
        if m.review_pending:
            m.continue_after_review()
        else:
            m.update(1e9)
    assert m.is_over
    app.after_match()


def render(app: App):
    return drawn_texts(app)


def check_fits(app: App, log) -> None:
    bad = [(r.text, r.box.size) for r in log if not r.fits]
    assert not bad, f"{app.scene.name} {app.screen.size} {i18n.language()}: overflow {bad[:3]}"
    small = [t.name for t in app.scene.targets if t.action and min(t.rect.size) < MIN_TOUCH_PX]
    assert not small, f"touch targets under 9 mm: {small}"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    path = tmp_path_factory.mktemp("records")
    app = make_app(path)
    play_out(app, "gin", 2)
    play_out(app, "contract", 3)
    yield app
    app.close()


def test_recall_shows_the_last_ten_hands_step_by_step(recorded):
    app = recorded
    app.goto("recall")
    scene = app.scene
    assert len(scene.hands) == 10  # the contract match's 5 deals and the gin match's last 5 hands
    assert scene.hands[0].game == "contract" and scene.hands[0].hand_no == 5
    log = render(app)
    texts = " ".join(r.text for r in log)
    assert "Step 1 of" in texts and "dealt" in texts
    rec = scene.hands[0]
    # the hand at a glance, with names: each contract player's melds, cards left, penalty
    assert f"Step 1 of {len(rec.steps)}" in texts and "1. " in texts
    for name in rec.players:
        assert f"{name}: melds" in texts
    assert "left in hand" in texts and "Scores:" in texts and "seat" not in texts.lower()
    # step forward with the buttons (as on the screen) and with the arcade DRAW button
    next_btn = next(t for t in scene.targets if t.name == "next")
    next_btn.action()
    assert scene.step == 1
    scene.on_button(type("E", (), {"edge": "press", "call": "draw", "seat": 0})())
    assert scene.step == 2
    last = next(t for t in scene.targets if t.name == "last")
    last.action()
    assert scene.step == len(rec.steps) - 1
    log = render(app)
    assert any("went out" in r.text or "ran out" in r.text for r in log)
    # pick an older hand (a gin one): the deal shows both hands, the end the showdown
    gin = next(i for i, h in enumerate(scene.hands) if h.game == "gin")
    next(t for t in scene.targets if t.name == f"hand-{gin}").action()
    assert scene.step == 0 and scene.hand.game == "gin"
    log = render(app)
    texts = " ".join(r.text for r in log)
    a, b = scene.hand.players
    assert f"{a}'s cards:" in texts and f"{b}'s cards:" in texts
    assert "deadwood" in texts and "scores" in texts and "Game score:" in texts
    assert f"Step 1 of {len(scene.hand.steps)}" in texts
    check_fits(app, render(app))


def test_leaderboard_shows_one_game_of_named_humans(recorded):
    app = recorded
    app.goto("leaderboard")
    scene = app.scene
    assert scene.game == "gin" and scene.rows == []  # the computers are no players here
    # people at the table: two named humans and a default "Player 2" (no player)
    from rummy.players import player as basic_player
    from rummy.session import MatchSession
    from rummy.session_runner import default_rules, next_action

    for game, names in (("gin", ("Ann", "Bob")), ("contract", ("Ann", "Player 2", "Cy"))):
        rules, preset = default_rules(game, None)
        seats = [{"name": n, "kind": "human", "named": not n.startswith("Player")} for n in names]
        s = MatchSession.start(app.state_dir, game, rules, seats, seed=3, preset=preset, fsync=False)
        bots = [basic_player(game) for _ in seats]
        while not s.is_over:
            s.apply(next_action(s, bots))
        s.finish(app.store)
    scene.load()
    assert {r.name for r in scene.rows} == {"Ann", "Bob"}
    assert sum(r.won for r in scene.rows) == 1 and all(r.game == "gin" for r in scene.rows)
    check_fits(app, render(app))
    next(t for t in scene.targets if t.name == "filter-contract").action()
    assert {r.name for r in scene.rows} == {"Ann", "Cy"} and scene.game == "contract"
    check_fits(app, render(app))


@pytest.mark.parametrize("lang", list(i18n.LANGUAGES))
@pytest.mark.parametrize("size", [(800, 480), (1280, 800)])
def test_recall_and_leaderboard_fit_in_every_language(recorded, lang, size):
    app = recorded
    app.screen.surface = pygame.Surface(size)
    app.set_language(lang)
    try:
        for name in ("recall", "leaderboard"):
            app.goto(name)
            app.scene.resize(size)
            check_fits(app, render(app))
    finally:
        app.set_language("en")
        app.screen.surface = pygame.Surface(app.screen.size)


def test_recall_without_records_says_so(tmp_path):
    app = make_app(tmp_path)
    app.store = None
    app.goto("recall")
    log = render(app)
    assert any("No records" in r.text for r in log)
    app.goto("leaderboard")
    log = render(app)
    assert any("No records" in r.text for r in log)
    app.close()


def test_recall_from_the_operator_menu_returns_to_it_and_to_the_table(recorded):
    app = recorded
    app.goto("operator", back="contract_table")
    app.scene.unlocked = True
    app.scene.targets = []
    app.scene.draw(app.screen.surface)
    next(t for t in app.scene.targets if t.name == "recall").action()
    assert app.scene.name == "recall"
    app.scene.leave()
    assert app.scene.name == "operator" and app.scene.unlocked and app.scene.back_to == "contract_table"
    app.scene.draw(app.screen.surface)
    next(t for t in app.scene.targets if t.name == "leaderboard").action()
    assert app.scene.name == "leaderboard"
    app.scene.leave()
    assert app.scene.name == "operator" and app.scene.back_to == "contract_table"


def test_end_this_match_now_is_recorded_as_abandoned_without_a_win(tmp_path):
    """The operator's "End this match now": the match and its hands are in the records,
    as abandoned; nobody wins, nobody gains points on the leaderboard."""
    app = make_app(tmp_path, record_bots=False)
    try:
        app.start_match("gin", [{"name": "Ann", "kind": "human", "named": True},
                                {"name": "Bob", "kind": "human", "named": True}])
        m = app.match
        for _ in range(6):
            seat = m.to_act()[0]
            m.submit(m.legal(seat)[0])
        app.goto("operator", back="gin_table")
        app.scene.unlocked = True
        app.scene.targets = []
        app.scene.draw(app.screen.surface)
        next(t for t in app.scene.targets if t.name == "abandon").action()  # asks first
        next(t for t in app.scene.targets if t.name == "abandon").action()  # "touch again"
        (rec,) = app.store.matches()
        assert rec["reason"] == "abandoned" and rec["winners"] == [] and rec["players"] == ["Ann", "Bob"]
        board = app.store.leaderboard("gin")
        assert {(r.name, r.played, r.won, r.points, r.abandoned) for r in board} == {
            ("Ann", 0, 0, 0, 1), ("Bob", 0, 0, 0, 1)}
        app.goto("recall")
        assert app.scene.hands and app.scene.hands[0].players == ["Ann", "Bob"]
    finally:
        app.close()
