"""Scenes rendered to a surface at every target size: texts fit, targets are big enough,
nothing overlaps the hands; rotation maths and touch mapping."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
from display_input import drawn_texts  # noqa: E402

from display.app import App  # noqa: E402
from display.layout import (  # noqa: E402
    MIN_TOUCH_PX,
    hand_rects,
    rotate_point,
    seat_panels,
    unrotate_point,
    visible_part,
)
from display.table.config import load_config  # noqa: E402
from rummy.gin.state import HandPhase  # noqa: E402

SIZES = [(800, 480), (1280, 800), (1920, 1080), (480, 800)]


def make_app(tmp_path, size, *, mode="headless", **display):
    config, errors = load_config(None, env={"RUMMY_TABLE_STATE_DIR": str(tmp_path)})
    assert not errors
    if display:
        from dataclasses import replace

        config = replace(config, display=replace(config.display, **display))
    return App(config, mode=mode, size=size, state_dir=tmp_path, seed=3)


def render(app):
    return drawn_texts(app)


def check(app, log, *, hands=()):
    w, h = app.screen.size
    screen = pygame.Rect(0, 0, w, h)
    bad = [(r.text, r.box, r.drawn) for r in log if not r.fits]
    assert not bad, f"{app.scene.name} at {w}x{h}: text overflows its box: {bad[:3]}"
    off = [r.text for r in log if not screen.contains(r.drawn)]
    assert not off, f"{app.scene.name} at {w}x{h}: text off screen: {off}"
    small = [(t.name, t.rect.size) for t in app.scene.targets
             if t.action is not None and min(t.rect.size) < MIN_TOUCH_PX]
    assert not small, f"{app.scene.name} at {w}x{h}: touch targets under 9 mm: {small[:5]}"
    for hand in hands:
        for r in log:
            for c in hand:
                assert not r.drawn.colliderect(c), f"text {r.text!r} overlaps a card at {w}x{h}"


def playing_table(tmp_path, size, **display):
    app = make_app(tmp_path, size, **display)
    app.start_match("gin", [{"name": "Anastasia", "kind": "human"}, {"name": "Bartholomew", "kind": "human"}])
    m = app.match
    # play into the middle of a hand: pass, pass, draw, discard a few times
    for _ in range(7):
        seat = m.to_act()[0]
        legal = m.legal(seat)
        kinds = [a.kind for a in legal]
        pick = next((a for a in legal if a.kind in ("pass_upcard", "draw_stock")), None)
        if pick is None and "discard" in kinds:
            pick = next(a for a in legal if a.kind == "discard")
        m.submit(pick or legal[0])
    app.frame(events=[])
    return app


@pytest.mark.parametrize("size", SIZES)
def test_menus_fit_at_every_size(tmp_path, size):
    app = make_app(tmp_path, size)
    for name, kw in [("attract", {}), ("choice", {}), ("seating", {"game": "gin"}),
                     ("seating", {"game": "contract"}), ("failsafe", {"error": "ValueError: boom"}),
                     ("config_error", {"errors": ["[display] rotation must be 0, 90, 180 or 270"]}),
                     ("operator", {})]:
        app.goto(name, **kw)
        check(app, render(app))
    app.scene.unlocked = True
    check(app, render(app))
    app.scene.page = "diagnostics"
    check(app, render(app))
    app.goto("keyboard", text="Ann", title="Name", on_done=lambda t: None)
    check(app, render(app))
    app.close()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("layout", ["flat", "upright"])
def test_gin_table_fits_and_keeps_hands_clear(tmp_path, size, layout):
    app = playing_table(tmp_path, size, layout=layout, privacy="open")
    scene = app.scene
    assert scene.name == "gin_table"
    seat = app.match.to_act()[0]
    assert app.match.state.hand.phase in (HandPhase.DISCARD, HandPhase.DRAW)
    log = render(app)
    hands = [scene.hand_screen_rects[0], scene.hand_screen_rects[1]]
    assert all(len(h) >= 10 for h in hands)
    check(app, log, hands=hands)
    # hands stay inside their own panels, and the panels do not overlap each other
    panels = scene.panels()
    for p, hand in zip(panels, hands, strict=True):
        assert all(p.rect.contains(c) for c in hand), f"a card leaves its panel at {size}"
    assert not panels[0].rect.colliderect(panels[1].rect)
    # stock and pile are touch targets of their own
    assert scene.target_at(scene.pile_rect.center).name == "pile"
    assert scene.target_at(scene.stock_rect.center).name == "stock"
    assert seat in (0, 1)
    app.close()


def test_gin_review_fits(tmp_path):
    for size in SIZES:
        app = make_app(tmp_path / f"{size[0]}", size)
        app.start_match("gin", [{"name": "Anastasia", "kind": "computer"},
                                {"name": "Bartholomew", "kind": "computer"}])
        m = app.match
        while not m.review_pending:
            m.update(app.clock() + 10)
        app.show_match()
        assert app.scene.name == "gin_review"
        check(app, render(app))
        app.close()


def test_peek_privacy_hides_hands_until_his_button_is_held(tmp_path):
    from device.events import InputEvent

    app = playing_table(tmp_path, (1280, 800), privacy="peek")
    scene = app.scene
    seat = app.match.to_act()[0]
    assert not scene.face_up(seat) and not scene.face_up(1 - seat)
    now = app.clock()
    t = next(t for t in scene.targets if t.name == f"panel-{seat}")
    scene.on_pointer("down", t.rect.center, now)
    scene.update(now + 0.7)
    assert not scene.face_up(seat), "holding a panel shows nothing (docs/privacy.md)"
    scene.on_pointer("up", t.rect.center, now + 0.7)
    scene.on_button(InputEvent(seat, "draw", "press", "sim", now + 0.7))
    scene.update(now + 1.1)
    assert scene.face_up(seat) and not scene.face_up(1 - seat)
    scene.on_button(InputEvent(seat, "draw", "release", "sim", now + 1.2))
    assert not scene.face_up(seat)
    app.close()


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 2000), st.integers(1, 2000), st.sampled_from([0, 90, 180, 270]),
       st.floats(0, 1), st.floats(0, 1))
def test_rotation_round_trips(w, h, angle, fx, fy):
    p = (fx * w, fy * h)
    q = rotate_point(p, (w, h), angle)
    back = unrotate_point(q, (w, h), angle)
    assert back == pytest.approx(p)
    out_w, out_h = (h, w) if angle in (90, 270) else (w, h)
    assert -1e-6 <= q[0] <= out_w + 1e-6 and -1e-6 <= q[1] <= out_h + 1e-6


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 11), st.integers(300, 2000), st.integers(90, 400))
def test_hand_cards_leave_a_touch_strip(n, width, height):
    area = pygame.Rect(0, 0, width, height)
    rects = hand_rects(area, n, height, min_strip=MIN_TOUCH_PX)
    assert len(rects) == n
    for i in range(n):
        assert area.contains(rects[i])
        part = visible_part(rects, i)
        if width >= 600 or n <= 6:
            assert part.width >= min(MIN_TOUCH_PX, rects[i].width)


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_touch_maps_back_through_rotation(tmp_path, rotation):
    app = make_app(tmp_path, (800, 480), rotation=rotation)
    app.goto("choice")
    app.frame(events=[])
    t = next(t for t in app.scene.targets if t.name == "game-gin-knock_card")
    # where that button appears on the turned panel
    from display.layout import rotate_point as rp

    wpos = rp(t.rect.center, app.screen.size, (-rotation) % 360)
    down = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=wpos, button=1, touch=False)
    up = pygame.event.Event(pygame.MOUSEBUTTONUP, pos=wpos, button=1, touch=False)
    app.frame(events=[down, up])
    assert app.scene.name == "seating" and app.scene.preset == "knock_card"
    app.close()


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_seat_panels_for_contract_do_not_overlap(n):
    for size in SIZES:
        panels = seat_panels(size, n)
        for i, a in enumerate(panels):
            assert pygame.Rect(0, 0, *size).contains(a.rect)
            for b in panels[i + 1:]:
                assert not a.rect.colliderect(b.rect), (size, n, a, b)


@settings(max_examples=100, deadline=None)
@given(st.integers(10, 500), st.integers(10, 500), st.sampled_from([0, 90, 180, 270]),
       st.integers(0, 9), st.integers(0, 9), st.integers(1, 9), st.integers(1, 9))
def test_rotate_rect_matches_its_corners(w, h, angle, x, y, rw, rh):
    from display.layout import rotate_rect

    r = pygame.Rect(x * w // 20, y * h // 20, max(1, rw * w // 20), max(1, rh * h // 20))
    got = rotate_rect(r, (w, h), angle)
    corners = [rotate_point(p, (w, h), angle) for p in (r.topleft, r.bottomright)]
    assert got.topleft == (min(c[0] for c in corners), min(c[1] for c in corners))
    assert got.size == ((r.h, r.w) if angle in (90, 270) else r.size)
