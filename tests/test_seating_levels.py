"""The seating screen's level buttons (issue 28: "level names on seating in two font sizes"):
every computer's level is written at one size, in each language, at 800x480."""

from __future__ import annotations

import pytest
from display_input import started_app, text_log

from display.scenes.seating import level_name


@pytest.mark.parametrize("lang", ["en", "id", "ru", "pt"])
def test_level_names_share_one_size(tmp_path, lang):
    app, _clock = started_app(tmp_path, size=(800, 480))
    try:
        app.set_language(lang)
        app.goto("seating", game="contract")
        sc = app.scene
        sc.count = 4
        sc.kinds = ["human", "computer", "computer", "computer"]
        sc.levels = ["easy", "easy", "medium", "hard"]
        with text_log() as log:
            sc.invalidate()
            app.render()
        names = {level_name(lv) for lv in ("easy", "medium", "hard")}
        drawn = [r for r in log if r.text in names]
        assert {r.text for r in drawn} == names
        assert all(r.fits for r in drawn)
        assert len({r.drawn.height for r in drawn}) == 1, [(r.text, r.drawn.height) for r in drawn]
    finally:
        app.set_language("en")  # (the language is the process's: later tests read English)
        app.close()
