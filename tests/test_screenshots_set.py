"""``display/screenshots.py`` still reaches every screen of the docs' set (docs/screenshots/,
four languages there; English here to keep it quick): the games get there, nothing is missing."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from display import screenshots  # noqa: E402


def test_every_screenshot_is_made(tmp_path):
    files = screenshots.take(tmp_path, languages=["en"], log=lambda _line: None)
    names = {f.name for f in files}
    assert names == {f"{s}-en.png" for s in screenshots.SHOTS}
    assert all(f.stat().st_size > 5000 for f in files)
