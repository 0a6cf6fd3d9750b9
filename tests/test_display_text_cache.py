"""The rendered-lines cache and the turned-rect arithmetic behind a side panel's drawing."""

from __future__ import annotations

import os
import random

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from display import theme
from display.layout import rotate_point, rotate_rect


@pytest.fixture(autouse=True)
def _pygame():
    pygame.init()
    yield


def test_a_line_drawn_again_outlives_newer_ones(monkeypatch):
    """The bound drops the least recently drawn line, not the oldest rendered."""
    cache = theme.SurfaceCache(8_000_000, max_items=1500)
    monkeypatch.setattr(theme, "_render_cache", cache)
    hot = theme.render("Player 2 to play", 20)
    cache.max_bytes = hot.get_pitch() * hot.get_height() * 4
    for i in range(40):
        theme.render(f"Player {i} drew from the stock", 20)
        assert theme.render("Player 2 to play", 20) is hot  # drawn every move: never thrown out
    assert len(cache) <= 6
    assert cache.bytes <= cache.max_bytes + hot.get_pitch() * hot.get_height() * 2


@pytest.mark.parametrize("angle", [90, 180, 270])
def test_a_turned_line_is_the_upright_line_turned(monkeypatch, angle):
    """Without its upright copy in the cache, a turned line has the same pixels."""
    monkeypatch.setattr(theme, "_render_cache", theme.SurfaceCache(8_000_000, max_items=1500))
    turned = theme.render("Можно? 7♥", 22, theme.GOLD, True, angle)
    assert len(theme._render_cache) == 1  # the upright line was not kept
    upright = theme.font(22, True).render("Можно? 7♥", True, theme.GOLD)
    want = pygame.transform.flip(upright, True, True) if angle == 180 else pygame.transform.rotate(upright, angle)
    assert turned.get_size() == want.get_size()
    assert pygame.image.tobytes(turned, "RGBA") == pygame.image.tobytes(want, "RGBA")


def _rotate_rect_general(r: pygame.Rect, size: tuple[int, int], angle: int) -> pygame.Rect:
    a, b = rotate_point(r.topleft, size, angle), rotate_point(r.bottomright, size, angle)
    left, right = sorted((a[0], b[0]))
    top, bottom = sorted((a[1], b[1]))
    return pygame.Rect(round(left), round(top), round(right - left), round(bottom - top))


def test_rotate_rect_whole_pixels_match_the_rotated_corners():
    rng = random.Random(3)
    for _ in range(2000):
        w, h = rng.randint(1, 2000), rng.randint(1, 2000)
        r = pygame.Rect(rng.randint(-40, w), rng.randint(-40, h), rng.randint(0, w), rng.randint(0, h))
        for angle in (90, 270, -90, 450):
            assert rotate_rect(r, (w, h), angle) == _rotate_rect_general(r, (w, h), angle % 360)


def test_ladder_is_the_largest_size_not_above():
    for n in range(-3, theme.SIZES[-1] + 40):
        want = max([theme.SIZES[0], *(s for s in theme.SIZES if s <= n)])
        assert theme.ladder(n) == want
        assert theme.ladder(n + 0.7) == want
