"""Drawing by regions: after every move the screen the tables leave (only changed panels
and the centre redrawn) is pixel for pixel what a full redraw shows, and the touch targets
are the same."""

from __future__ import annotations

import os
import random

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from display.app import App  # noqa: E402
from display.table.config import load_config  # noqa: E402
from display.table.match import make_player  # noqa: E402


def _full_redraw(app: App) -> tuple[bytes, list]:
    scene = app.scene
    other = pygame.Surface(app.screen.size).convert()
    kept = scene.targets
    scene.targets = []
    scene.draw(other)  # a new surface: everything is drawn
    targets = [(t.name, tuple(t.rect)) for t in scene.targets]
    scene.targets = kept
    scene._drawn_on = app.screen.surface  # the screen still shows the same: go on drawing by regions
    return pygame.image.tobytes(other, "RGB"), targets


@pytest.mark.parametrize(("game", "seats", "size", "layout"), [
    ("gin", 2, (1280, 800), "flat"),
    ("gin", 2, (800, 480), "upright"),
    ("contract", 4, (1280, 800), "flat"),
    ("contract", 5, (800, 480), "upright"),
    ("contract", 6, (800, 480), "flat"),  # the seat in turn's hand tray comes and goes
])
def test_partial_redraws_match_a_full_redraw(tmp_path, game, seats, size, layout):
    config, _errors = load_config(None, env={"RUMMY_TABLE_STATE_DIR": str(tmp_path)})
    now = [1000.0]
    app = App(config, mode="headless", size=size, state_dir=tmp_path, seed=3, clock=lambda: now[0])
    app.change(layout=layout)
    app.start_match(game, [{"name": f"P{i + 1}", "kind": "human"} for i in range(seats)])
    rng, bot = random.Random(3), make_player(game)
    m = app.match
    app.frame(events=[])
    checked = partial = 0
    for step in range(60):
        if m.review_pending or app.scene.name != f"{game}_table":
            break
        now[0] += 5.0
        app.match.controller.release_all()  # looks come and go: each seat lets go of his button
        seat = m.to_act()[0]
        m.submit(bot.choose(m.engine, m.engine.view(m.state, seat), m.legal(seat), rng))
        if m.review_pending:
            break
        if step % 3 == 0:  # a look changes one panel only
            app.scene.reveal(seat)
        elif step % 3 == 1:  # also the panel of a seat that is not to play
            app.scene.reveal((seat + 1) % seats)
        app.scene.update(app.clock())
        app.scene.targets = []
        rects = app.scene.draw(app.screen.surface)
        partial += rects is not None
        shown = pygame.image.tobytes(app.screen.surface, "RGB")
        targets = [(t.name, tuple(t.rect)) for t in app.scene.targets]
        full, full_targets = _full_redraw(app)
        assert shown == full, f"move {step}: the partly redrawn screen differs from a full redraw"
        assert sorted(targets) == sorted(full_targets)
        checked += 1
    assert checked >= 5 and partial >= checked - 1, "moves redraw only what changed"
    app.close()


def test_a_language_change_redraws_the_whole_attract_screen(tmp_path):
    """The attract screen redraws only its moving cards between frames; new words must not
    be drawn over the old ones (the docs' screenshots once showed both titles)."""
    config, _errors = load_config(None, env={"RUMMY_TABLE_STATE_DIR": str(tmp_path)})
    app = App(config, mode="sim", size=(800, 480), state_dir=tmp_path, seed=3)
    app.goto("attract")
    app.frame(events=[])
    app.scene.dirty = True
    app.scene.targets = []
    assert app.scene.draw(app.screen.surface) is not None, "a partial redraw between frames"
    app.set_language("ru")
    app.scene.targets = []
    assert app.scene.draw(app.screen.surface) is None, "a full redraw after a language change"
    app.set_language("en")
    app.close()


def test_the_attract_screen_between_frames_is_what_a_full_redraw_shows(tmp_path):
    """The drifting cards' rects are redrawn with the words and buttons they touch (clipped
    to them): each frame equals a full redraw, and the touch targets stay."""
    config, _errors = load_config(None, env={"RUMMY_TABLE_STATE_DIR": str(tmp_path)})
    now = [1000.0]
    app = App(config, mode="headless", size=(800, 480), state_dir=tmp_path, seed=3, clock=lambda: now[0])
    app.goto("attract")
    scene = app.scene
    scene.targets = []
    scene.draw(app.screen.surface)
    for _step in range(40):
        now[0] += 0.7  # far enough for the cards to cross the play button and the subtitle
        scene._now = now[0]
        scene.targets = []
        rects = scene.draw(app.screen.surface)
        assert rects is not None, "only the moving cards' rects are redrawn"
        shown = pygame.image.tobytes(app.screen.surface, "RGB")
        targets = [(t.name, tuple(t.rect)) for t in scene.targets]
        other = pygame.Surface(app.screen.size).convert()
        scene.invalidate()
        scene.targets = []
        scene.draw(other)
        assert shown == pygame.image.tobytes(other, "RGB")
        assert targets == [(t.name, tuple(t.rect)) for t in scene.targets]
        scene.targets = []
        scene.draw(app.screen.surface)  # back to drawing by rects on the screen
    app.close()


@pytest.mark.parametrize(("seats", "size"), [(4, (1280, 800)), (6, (800, 480))])
def test_a_new_last_move_alone_repaints_the_centre_line_as_a_full_redraw_would(tmp_path, seats, size):
    """Only the centre's bottom line changes (the last move in words): the partly redrawn
    screen is still pixel for pixel a full redraw."""
    config, _errors = load_config(None, env={"RUMMY_TABLE_STATE_DIR": str(tmp_path)})
    app = App(config, mode="headless", size=size, state_dir=tmp_path, seed=4, clock=lambda: 1000.0)
    app.change(privacy="open")
    app.start_match("contract", [{"name": f"P{i + 1}", "kind": "human"} for i in range(seats)])
    scene = app.scene
    scene.update(app.clock())
    for text in ("P1 drew from the stock", "A much longer line about what just happened at the table", ""):
        scene.targets = []
        scene.draw(app.screen.surface)
        scene.centre_msg = text
        scene.targets = []
        rects = scene.draw(app.screen.surface)
        assert rects is not None and len(rects) == 1, "only the centre is redrawn"
        shown = pygame.image.tobytes(app.screen.surface, "RGB")
        targets = sorted((t.name, tuple(t.rect)) for t in scene.targets)
        full, full_targets = _full_redraw(app)
        assert shown == full
        assert targets == sorted(full_targets)
    app.close()


@pytest.mark.parametrize("angle", [0, 180])
def test_a_line_too_long_for_its_box_is_cut_and_paints_nothing_outside_it(angle):
    """A region's words never spill over its neighbours (a panel's status line once painted
    into the next panel, which a partial redraw does not repaint): cut short with "…",
    and logged as not fitting."""
    from display import theme
    pygame.font.init()
    surf = pygame.Surface((400, 100))
    surf.fill((0, 0, 0))
    box = pygame.Rect(100, 40, 120, 14)
    text = "Your turn: DRAW, take 10♥, or BUY several cards from the discard pile"
    log = theme.start_text_log()
    try:
        if angle:
            theme.draw_text_turned(surf, text, box, lambda r: pygame.Rect(r), angle, colour=(255, 255, 255),
                                   align="left")
        else:
            theme.draw_text(surf, text, box, colour=(255, 255, 255), align="left")
    finally:
        theme.stop_text_log()
    painted = [(x, y) for y in range(100) for x in range(400) if surf.get_at((x, y))[:3] != (0, 0, 0)]
    assert painted, "something was drawn"
    outside = [pt for pt in painted if not box.inflate(0, 4).collidepoint(pt)]
    assert not outside, f"painted outside its box: {outside[:5]}"
    assert [r.fits for r in log] == [False]
    shown = theme.cut_to_width(text, box.width, theme.fit_size(text, box, box.height))
    assert shown.endswith("…") and text.startswith(shown[:-1])
    assert theme.cut_to_width("short", box.width, 10) == "short"
