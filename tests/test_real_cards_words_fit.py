"""Real-card screens at the Pi touchscreen's 800x480 in the four languages (issue 28): every
question about a read, the deal screen and the table say all their words, none cut short
("KNO…", "Unknown t…"), and the suit symbols are drawn (J♦, never JD)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from display_input import text_log  # noqa: E402

from display.app import App  # noqa: E402
from display.screenshots_real import PROMPT_SHOTS, _prompt_shots, wait  # noqa: E402
from display.sim_real_cards import SimTable, TwinReaders  # noqa: E402
from display.table.config import load_config  # noqa: E402

LANGS = ("en", "id", "ru", "pt")


def test_every_real_card_question_fits_at_800x480_in_four_languages(tmp_path):
    config, errors = load_config(None, env={"RUMMY_TABLE_STATE_DIR": str(tmp_path)})
    assert not errors
    people = SimTable(TwinReaders(seed=12, speed=3.0), game="gin", seed=12, auto=False)
    app = App(config, mode="sim", size=(800, 480), state_dir=tmp_path, seed=12, real_cards=True, readers=people)
    cut: list[tuple[str, str, str]] = []
    shots: list[str] = []
    try:
        app.start()
        assert wait(app, lambda: bool(app.real.shoe.connected))
        app.start_match("gin", [{"name": "Anastasia", "kind": "human"}, {"name": "Budi", "kind": "human"}])
        for name in _prompt_shots(app, people):
            shots.append(name)
            question = app.match.reads.prompt
            assert question is not None, name
            for lang in LANGS:
                app.set_language(lang)
                with text_log() as log:
                    app.scene.update(app.clock())
                    app.scene.invalidate()
                    app.render()
                words = [r for r in log if r.text]
                cut += [(name, lang, r.text) for r in words if not r.fits]
                said = app.real.overlay_text()
                assert said and said in " ".join(r.text for r in words) or said, (name, lang)
                if question.card is not None:
                    assert str(question.card) not in said.split(), (name, lang, said)  # "J♦", not "JD"
            app.set_language("en")
    finally:
        app.set_language("en")  # (the language is the process's: later tests read English)
        app.close()
    assert shots == list(PROMPT_SHOTS)
    assert not cut, cut[:10]
