"""The contract deal review names every player in full when there is room (issue 11: "the
contract review cuts names to 'Bo…' with room to spare"), in every language and size."""

from __future__ import annotations

import os
import random

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest  # noqa: E402

from display import theme  # noqa: E402
from display.app import App  # noqa: E402
from display.table import i18n
from display.table.config import load_config  # noqa: E402
from display.table.match import make_player  # noqa: E402

NAMES = ["Ana", "Boris", "Citra", "Duarte"]


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
def test_review_sheet_names_are_not_cut(tmp_path, size):
    config, errors = load_config(None, env={"RUMMY_TABLE_STATE_DIR": str(tmp_path)})
    assert not errors
    app = App(config, mode="headless", size=size, state_dir=tmp_path, seed=11)
    app.start_match("contract", [{"name": n, "kind": "human"} for n in NAMES])
    m, rng = app.match, random.Random(5)
    for _ in range(5000):
        if m.review_pending:
            break
        if not m.to_act():
            m.deal_if_needed()
            continue
        seat = m.to_act()[0]
        m.submit(make_player("contract").choose(m.engine, m.engine.view(m.state, seat), m.legal(seat), rng))
    assert m.review_pending
    app.show_match()
    assert app.scene.name == "contract_review"
    for lang in i18n.LANGUAGES:
        app.set_language(lang)
        log = theme.start_text_log()
        try:
            app.scene.targets = []
            app.scene.draw(app.screen.surface)
        finally:
            theme.stop_text_log()
        texts = [r.text for r in log]
        cut = [t for t in texts if t.endswith("…")]
        assert not cut, f"{lang} {size}: cut {cut}"
        for name in NAMES:
            assert texts.count(name) >= 1, f"{lang} {size}: {name} not in the sheet's head"
    app.close()
