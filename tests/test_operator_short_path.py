"""The diagnostics page's state folder fits its line however long the folder's path is
(a simulator's temporary folder grew past the 480-px screen's width and was cut off)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pytest  # noqa: E402
from test_display_layout import SIZES, check, make_app, render  # noqa: E402

from display.scenes.operator import short_path  # noqa: E402


def test_a_short_path_is_shown_whole():
    assert short_path("/var/lib/rummy-table") == "/var/lib/rummy-table"


def test_a_long_path_keeps_its_root_and_its_last_parts():
    long = "/tmp/pytest-of-root/pytest-1234/popen-gw1/test_menus_fit_at_every_size_3/state"
    got = short_path(long)
    assert len(got) <= 34 and got.startswith("/…/") and got.endswith("/state")
    assert short_path("relative/" + "x" * 50 + "/state").endswith("/state")
    assert short_path("/" + "y" * 60).endswith("y" * 60)  # the folder's own name, always


@pytest.mark.parametrize("size", SIZES)
def test_the_diagnostics_page_fits_a_very_long_state_folder(tmp_path, size):
    deep = tmp_path / ("a-very-long-folder-name-" * 4) / "rummy-table-state"
    deep.mkdir(parents=True)
    app = make_app(deep, size)
    app.goto("operator")
    app.scene.unlocked = True
    app.scene.page = "diagnostics"
    check(app, render(app))
    app.close()
