"""The headless simulator, resume after a cut, the failsafe, screenshots, and the catalogs."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import catalogs  # noqa: E402
import pygame  # noqa: E402

from display import theme  # noqa: E402
from display.app import App  # noqa: E402
from display.table import i18n
from display.table.config import load_config  # noqa: E402


def test_headless_sim_plays_a_match_and_exits_0(tmp_path):
    shots = tmp_path / "shots"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    proc = subprocess.run(
        [sys.executable, "-m", "display.cli", "sim", "--headless", "--seed", "2", "--state-dir",
         str(tmp_path / "state"), "--screenshots", str(shots), "--size", "800x480"],
        capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "headless: 1 match(es) played" in proc.stdout
    assert len(list((tmp_path / "state" / "archive").glob("*-gin.jsonl"))) == 1
    assert not list((tmp_path / "state" / "current").glob("*.jsonl"))
    from rummy.store import Store

    with Store.in_state_dir(tmp_path / "state") as store:
        assert store.matches() == []  # computers only: not recorded without --record-bots
    # screenshot checks: each is the table's size and shows what it should
    names = {p.stem for p in shots.glob("*.png")}
    assert {"attract", "gin_table", "gin_match_end"} <= names
    attract = pygame.image.load(str(shots / "attract.png"))
    table = pygame.image.load(str(shots / "gin_table.png"))
    assert attract.get_size() == table.get_size() == (800, 480)
    gold = sum(1 for x in range(0, 800, 4) for y in range(0, 140, 4)
               if attract.get_at((x, y))[:3] == theme.GOLD)
    assert gold > 50, "the attract screen shows its gold title"
    card_face = sum(1 for x in range(0, 800, 4) for y in range(150, 330, 4)
                    if attract.get_at((x, y))[:3] == (252, 250, 244))
    assert card_face > 50
    felt = table.get_at((400, 240))[:3]
    assert felt != attract.get_at((400, 240))[:3] or table.get_at((5, 470)) != attract.get_at((5, 470))


def _app(tmp_path, **kw):
    config, _errors = load_config(None, env={"RUMMY_TABLE_STATE_DIR": str(tmp_path)})
    return App(config, size=(800, 480), state_dir=tmp_path, seed=9, **kw)


def test_resume_goes_back_to_the_table_with_hands_private(tmp_path, capsys):
    app = _app(tmp_path, mode="headless")
    app.start_match("gin", [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}])
    m = app.match
    for _ in range(5):
        seat = m.to_act()[0]
        m.submit(m.legal(seat)[-1] if m.legal(seat)[0].kind == "take_upcard" else m.legal(seat)[0])
    digest, n = m.session.digest(), m.session.actions_applied
    m.session.close()  # the power goes: nothing else is written
    app2 = _app(tmp_path, mode="sim")  # the table (a headless run leaves a match of people alone)
    app2.start()
    out = capsys.readouterr().out
    assert f"resumed {digest} after {n} actions" in out
    assert app2.scene.name == "gin_table"
    assert not app2.scene.face_up(0) and not app2.scene.face_up(1)
    app2.close()
    app.close()


def test_kiosk_failsafe_returns_to_attract_and_debug_reraises(tmp_path):
    app = _app(tmp_path, mode="headless")
    app.headless = False  # headless runs re-raise; the table (kiosk or sim) shows the failsafe
    app.goto("attract")

    def boom(now):
        raise RuntimeError("a bug")

    app.scene.update = boom
    app.frame(events=[])
    assert app.scene.name == "failsafe"
    app.frame(now=app.clock() + 60, events=[])
    assert app.scene.name == "attract"
    app.debug = True
    app.scene.update = boom
    with pytest.raises(RuntimeError):
        app.frame(events=[])
    app.close()


def test_kiosk_bad_config_shows_every_error_instead_of_crashing(tmp_path):
    cfg = tmp_path / "bad.toml"
    cfg.write_text('[display]\nrotation = 45\nlanguage = "xx"\n')
    config, errors = load_config(str(cfg), env={"RUMMY_TABLE_STATE_DIR": str(tmp_path)})
    assert len(errors) >= 2
    app = App(config, mode="headless", size=(800, 480), state_dir=tmp_path, config_errors=errors)
    app.mode = "kiosk"
    app.start()
    assert app.scene.name == "config_error"
    log = theme.start_text_log()
    app.scene.draw(app.screen.surface)
    theme.stop_text_log()
    drawn = " ".join(r.text for r in log)
    assert "rotation" in drawn and "language" in drawn
    app.close()


def test_every_catalog_text_has_glyphs_and_languages_switch():
    for lang in i18n.LANGUAGES:
        cat = catalogs.template() if lang == i18n.SOURCE_LANGUAGE else catalogs.catalog(lang)
        assert len(catalogs.messages(cat)) > 100
        for m in catalogs.messages(cat):
            for text in catalogs.ids(m) + catalogs.strings(m):
                assert not theme.missing_glyphs(text), (lang, text)
    for label in i18n.LANGUAGES.values():
        assert not theme.missing_glyphs(label)
    i18n.set_language("ru")
    assert i18n.language() == "ru" and i18n._("Contract rummy") != "Contract rummy"
    i18n.set_language("xx")
    assert i18n.language() == "en" and i18n._("Contract rummy") == "Contract rummy"


def test_systemd_ready_after_the_first_frame_and_watchdog_from_the_loop(tmp_path, monkeypatch):
    import socket

    path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    app = _app(tmp_path, mode="headless")
    app.start()
    app.frame(events=[])
    got = [sock.recv(4096).decode(), sock.recv(4096).decode()]
    assert got[0].startswith("READY=1") and got[1] == "WATCHDOG=1"
    sock.close()
    app.close()


def test_sim_refuses_an_unknown_preset_with_a_clear_message(tmp_path, capsys):
    """Once without --state-dir and --seed: had the refusal ever let it through, this test
    played a seedless "Computer 1 vs Computer 2" match into the real state directory's
    records (the stray bot match of issue 11). Now a headless run without --state-dir
    plays in a temporary directory, and tests/conftest.py points the default elsewhere."""
    from display.main import sim_main

    assert sim_main(["--headless", "--preset", "nonsense", "--state-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "nonsense" in err and "standard" in err
    assert list(tmp_path.iterdir()) == []


def test_headless_without_a_state_dir_plays_in_a_throwaway_directory(tmp_path):
    """``sim --headless`` without ``--state-dir`` (the README's command) never writes into
    the table's state directory, and its computer matches are not recorded."""
    import tempfile
    from pathlib import Path

    real = tmp_path / "real-state"
    config, _errors = load_config(None, env={"RUMMY_TABLE_STATE_DIR": str(real)})
    app = App(config, mode="headless", size=(800, 480), seed=4)
    try:
        assert app.state_dir != real and Path(tempfile.gettempdir()) in app.state_dir.parents
        assert app.store.record_bots is False
    finally:
        app.close()
    assert not real.exists()
    app = App(config, mode="sim", size=(800, 480), seed=4)  # a table with people: the real one
    try:
        assert app.state_dir == real
    finally:
        app.close()
