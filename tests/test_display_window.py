"""The simulator window (table + simulated-buttons strip) fits the desktop."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from display.app import SIM_STRIP  # noqa: E402
from display.backend import MIN_TABLE, WINDOW_MARGIN, desktop_size, fit_table_size  # noqa: E402


def test_default_table_is_scaled_to_fit_a_1366x768_laptop():
    w, h = fit_table_size((1280, 800), SIM_STRIP, (1366, 768))
    assert w + SIM_STRIP + WINDOW_MARGIN[0] <= 1366 and h + WINDOW_MARGIN[1] <= 768
    assert abs(w / h - 1280 / 800) < 0.01
    assert (w, h) == (1090, 681)


def test_a_1280_wide_screen_gets_a_smaller_table_and_the_strip():
    w, h = fit_table_size((1280, 800), SIM_STRIP, (1280, 1024))
    assert w + SIM_STRIP + WINDOW_MARGIN[0] <= 1280
    assert abs(w / h - 1.6) < 0.01


def test_size_that_fits_is_honoured():
    assert fit_table_size((800, 480), SIM_STRIP, (1366, 768)) == (800, 480)
    assert fit_table_size((1280, 800), SIM_STRIP, (1920, 1080)) == (1280, 800)
    assert fit_table_size((1920, 1080), SIM_STRIP, (2560, 1440)) == (1920, 1080)


def test_never_below_the_minimum_table():
    assert fit_table_size((1280, 800), SIM_STRIP, (400, 300)) >= MIN_TABLE


def test_no_desktop_without_a_real_display():
    import pygame

    pygame.display.init()
    assert desktop_size() is None  # the dummy driver's made-up 1024x768 must not shrink tests


@settings(max_examples=150, deadline=None)
@given(st.integers(320, 4000), st.integers(240, 3000), st.integers(700, 5000), st.integers(560, 3000))
def test_fitted_window_fits_and_keeps_the_aspect(tw, th, dw, dh):
    w, h = fit_table_size((tw, th), SIM_STRIP, (dw, dh))
    assert w <= tw and h <= th
    if (w, h) == (tw, th):
        return
    assert w + SIM_STRIP + WINDOW_MARGIN[0] <= dw and h + WINDOW_MARGIN[1] <= dh or (w, h) <= MIN_TABLE \
        or w == MIN_TABLE[0] or h == MIN_TABLE[1]
    assert abs(w / h - tw / th) <= max(0.02, 2 / min(w, h)) * (tw / th) or w == MIN_TABLE[0] or h == MIN_TABLE[1]
