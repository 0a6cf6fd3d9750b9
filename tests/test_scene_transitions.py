"""Issue 30: which scene follows which is one table (``display.scenes.next_scene``); scenes
ask for a transition by a reason (``app.go(Go.X)``), none names the scene that follows."""

from __future__ import annotations

import os
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from display_input import FakeClock, click, humans, started_app, target  # noqa: E402

from display.scenes import GAME_SCENES, SCENES, Go, Kind, kind_of, match_scene, next_scene  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def fake_app(match=None, *, scene="attract", headless=False):
    return SimpleNamespace(match=match, scene=SimpleNamespace(name=scene), headless=headless)


def fake_match(game="gin", *, review=False, dealing=None, over=False):
    reads = None if dealing is None else SimpleNamespace(dealing=lambda: dealing)
    return SimpleNamespace(game=game, review_pending=review, reads=reads, is_over=over)


@pytest.mark.parametrize("game", sorted(GAME_SCENES))
def test_the_match_screen_follows_the_match(game):
    table, review = GAME_SCENES[game]
    assert match_scene(fake_app()) == "attract"
    assert match_scene(fake_app(fake_match(game))) == table
    assert match_scene(fake_app(fake_match(game, review=True))) == review
    assert match_scene(fake_app(fake_match(game, dealing=True))) == "deal_table"  # real cards
    assert match_scene(fake_app(fake_match(game, dealing=False))) == table
    assert match_scene(fake_app(fake_match(game, review=True, dealing=True))) == review, "the review first"
    assert kind_of(table) is Kind.TABLE and kind_of(review) is Kind.REVIEW and kind_of("deal_table") is Kind.DEAL
    assert kind_of("operator") is Kind.MENU


def test_the_rows_of_the_table():
    m = fake_match()
    assert next_scene(fake_app(m, scene="gin_table"), Go.OPERATOR) == ("operator", {"back": "gin_table"})
    assert next_scene(fake_app(m, scene="operator"), Go.OPERATOR) is None, "not over itself"
    assert next_scene(fake_app(m), Go.CLOSE_OPERATOR, back="gin_table") == ("gin_table", {})
    assert next_scene(fake_app(fake_match(review=True)), Go.CLOSE_OPERATOR, back="gin_review") == ("gin_review", {})
    for home in ("attract", "choice", "seating"):
        assert next_scene(fake_app(m), Go.CLOSE_OPERATOR, back=home) == ("attract", {})
    assert next_scene(fake_app(None), Go.CLOSE_OPERATOR, back="gin_table") == ("attract", {})
    assert next_scene(fake_app(), Go.BACK, back="operator:gin_table") == (
        "operator", {"back": "gin_table", "unlocked": True})
    assert next_scene(fake_app(), Go.BACK, back="operator") == ("operator", {"back": "attract", "unlocked": True})
    assert next_scene(fake_app(), Go.BACK, back="attract") == ("attract", {})
    again = {"game": "gin", "seats": [], "preset": "standard"}
    assert next_scene(fake_app(), Go.AFTER_MATCH, again=again) == ("seating", again)
    assert next_scene(fake_app(headless=True), Go.AFTER_MATCH, again=again) == ("attract", {})
    assert next_scene(fake_app(), Go.AFTER_MATCH, again=None) == ("attract", {})
    assert next_scene(fake_app(), Go.SEATING, game="contract") == ("seating", {"game": "contract"})
    assert next_scene(fake_app(), Go.FAILED, error="x") == ("failsafe", {"error": "x"})


def test_every_reason_has_a_row_and_names_a_scene():
    app = fake_app(fake_match(), scene="gin_table")
    for go in set(Go) - {Go.RESUME}:
        got = next_scene(app, go, back="attract")
        assert got is not None and got[0] in SCENES, go
    kept = object()
    assert next_scene(app, Go.RESUME, scene=kept) is kept, "a scene kept aside comes back as it was"


def test_the_keyboard_goes_back_to_the_very_seating_screen(tmp_path):
    app, clock = started_app(tmp_path, clock=FakeClock(500.0), size=(800, 480), seed=11)
    seating = app.go(Go.SEATING, game="gin")
    seating.edit_name(0)
    assert app.scene.name == "keyboard"
    app.scene.on_done("Zoe")
    assert app.scene is seating and seating.dirty and seating.names[0] == "Zoe"
    app.close()


def test_no_scene_names_the_scene_that_follows():
    """``goto`` (make a named scene current) is called by App.go alone in the app; the
    screenshot tool drives the app by scene names and is no scene."""
    calls = []
    for path in sorted((ROOT / "display").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"\.goto\(", line.split("#", 1)[0]) and rel != "display/screenshots.py":
                calls.append(f"{rel}:{n}")
    assert len(calls) == 1 and calls[0].startswith("display/app.py:"), calls
    text = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "display").rglob("*.py"))
    assert 'f"{self.match.game}_table"' not in text and 'f"{self.match.game}_review"' not in text


def test_a_match_goes_from_its_table_to_its_review_and_on(tmp_path):
    app, clock = started_app(tmp_path, clock=FakeClock(500.0), size=(800, 480), seed=11)
    app.frame(events=[])
    assert app.scene.name == "attract"
    click(app, target(app, "play").rect.center, clock)
    assert app.scene.name == "choice"
    app.start_match("gin", humans("Ann", "Bob"))
    app.frame(events=[])
    assert app.scene.name == "gin_table"
    app.match.review_pending = True
    app.frame(events=[])
    assert app.scene.name == "gin_review", "the frame follows the match"
    app.open_operator()
    assert app.scene.name == "operator" and app.scene.back_to == "gin_review"
    app.scene.leave()
    assert app.scene.name == "gin_review", "closed: back to the match's screen"
    app.close()
