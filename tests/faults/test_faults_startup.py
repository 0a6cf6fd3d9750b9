"""The real kiosk (``rummy-table kiosk``, as the systemd unit starts it) in broken states.

Each case: no traceback, the process still runs and pings the watchdog until SIGTERM (then
exit 0), the fault is logged in one journalctl line, and the table's own status says it.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess

import pytest
from faultkit import (
    ROOT,
    assert_kiosk_survived,
    damage_db,
    fill,
    finished_in_current,
    records_db,
    remount,
    run_kiosk,
    tmpfs,
    unfinished,
)

from rummy.records import encode_line
from rummy.session import ARCHIVE, DAMAGED

pytestmark = pytest.mark.faults


def test_damaged_records_and_a_finished_journal_in_current(tmp_path):
    sd = tmp_path / "state"
    damage_db(records_db(sd))
    journal = finished_in_current(sd)
    run = run_kiosk(sd, tmp_path)
    assert_kiosk_survived(run, "fault [records]", "The records cannot be saved")
    assert "fault: records" in run.status
    assert journal.exists(), "the finished match stays queued in current/ until it can be recorded"


def test_full_disk_and_a_finished_journal_in_current(tmp_path):
    with tmpfs(tmp_path / "mnt", "4m") as mnt:
        sd = mnt / "state"
        records_db(sd)
        journal = finished_in_current(sd)
        shutil.rmtree(sd / "seed-records")
        fill(mnt)
        run = run_kiosk(sd, tmp_path)
        assert "cannot rollback" not in run.stderr + run.stdout
        assert_kiosk_survived(run, "fault [storage_full]", "The table's storage is full")
        assert "full" in run.stderr.split("fault [records]")[-1].splitlines()[0], run.stderr
        assert journal.exists()


def test_read_only_state_with_an_unfinished_match(tmp_path):
    with tmpfs(tmp_path / "mnt", "8m") as mnt:
        sd = mnt / "state"
        journal = unfinished(sd, 30)
        before = journal.read_bytes()
        remount(mnt, read_only=True)
        run = run_kiosk(sd, tmp_path)
        assert_kiosk_survived(run, "fault [storage_read_only]", "The table's storage is read-only")
        assert "Read-only file system" in run.stderr
        remount(mnt, read_only=False)
        assert journal.read_bytes() == before


def _rewrite_header(journal, **changes):
    lines = journal.read_text().splitlines(keepends=True)
    import json

    header = json.loads(lines[0])
    header.pop("crc")
    header.update(changes)
    lines[0] = encode_line(header)
    journal.write_text("".join(lines))


@pytest.mark.parametrize("changes", [{"seats": ["Ann", "Bob"]}, {"first_dealer": None},
                                     {"seats": [{"name": "Ann"}, 7]}])
def test_a_header_with_bad_fields_and_a_valid_crc(tmp_path, changes):
    sd = tmp_path / "state"
    journal = unfinished(sd, 20)
    _rewrite_header(journal, **changes)
    run = run_kiosk(sd, tmp_path)
    assert_kiosk_survived(run, "rummy-table: notice: A damaged game record was set aside")
    assert not journal.exists() and len(list((sd / DAMAGED).glob("*.jsonl"))) == 1
    assert "is damaged at line 1" in run.stdout


def test_deeply_nested_line_in_the_middle_is_salvaged(tmp_path):
    sd = tmp_path / "state"
    journal = unfinished(sd, 30)
    lines = journal.read_bytes().split(b"\n")
    lines[10] = b"[" * 200_000 + b"]" * 200_000
    journal.write_bytes(b"\n".join(lines))
    run = run_kiosk(sd, tmp_path)
    assert_kiosk_survived(run, "A damaged game record was set aside")
    assert "resumed" in run.stdout and "after 9 actions" in run.stdout, run.stdout


def test_state_directory_that_cannot_be_made(tmp_path):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the state directory should be\n")
    run = run_kiosk(blocker / "state", tmp_path)
    assert_kiosk_survived(run, "fault [storage_io]", "fault [records]")
    assert "fault: storage_io" in run.status


def test_locked_records_and_a_finished_journal_in_current(tmp_path):
    sd = tmp_path / "state"
    db = records_db(sd)
    journal = finished_in_current(sd)
    holder = subprocess.Popen(
        ["python3", "-c", "import sqlite3,sys,time; c=sqlite3.connect(sys.argv[1], isolation_level=None);"
         "c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); time.sleep(60)", str(db)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        run = run_kiosk(sd, tmp_path)
    finally:
        holder.kill()
        holder.wait()
    assert_kiosk_survived(run, "fault [records]", "locked")
    assert journal.exists()
    run2 = run_kiosk(sd, tmp_path, seconds=2)  # the lock is gone: the queued match is recorded
    assert_kiosk_survived(run2)
    assert not journal.exists() and len(list((sd / ARCHIVE).glob("*.jsonl"))) == 1
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT COUNT(*) FROM matches").fetchone()[0] == 2


def test_negative_schema_version(tmp_path):
    sd = tmp_path / "state"
    db = records_db(sd)
    with sqlite3.connect(db) as c:
        c.execute("PRAGMA user_version = -3")
    run = run_kiosk(sd, tmp_path)
    assert_kiosk_survived(run, "fault [records]", "schema version -3 is not valid")


def test_config_file_the_loader_cannot_read(tmp_path):
    sd = tmp_path / "state"
    cfg = tmp_path / "latin1.toml"
    cfg.write_bytes("# price: £2\n[display]\nwidth = 800\n".encode("latin-1"))
    run = run_kiosk(sd, tmp_path, config=None, env={"RUMMY_TABLE_CONFIG": str(cfg)})
    assert_kiosk_survived(run, "rummy-table: config error:", "latin1.toml")
    assert "fault screen" in run.status


def test_damaged_font_files(tmp_path):
    pkg = tmp_path / "pkg"
    shutil.copytree(ROOT / "display", pkg / "display", ignore=shutil.ignore_patterns("__pycache__"))
    for ttf in (pkg / "display" / "fonts").glob("*.ttf"):
        ttf.write_bytes(ttf.read_bytes()[:1000])  # a damaged install
    run = run_kiosk(tmp_path / "state", tmp_path, env={"PYTHONPATH": str(pkg)})
    assert_kiosk_survived(run, "fault [fonts]", "DejaVuSans")


def test_fault_screen_speaks_the_tables_language_and_keeps_the_operator_way_out(tmp_path):
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from display import theme
    from display.app import App
    from display.table import i18n
    from display.table.config import load_config

    sd = tmp_path / "state"
    damage_db(records_db(sd))
    cfg = tmp_path / "bad.toml"
    cfg.write_text('[display]\nrotation = 45\nlanguage = "ru"\n')
    config, errors = load_config(str(cfg), env={"RUMMY_TABLE_STATE_DIR": str(sd)})
    assert errors
    from dataclasses import replace

    config = replace(config, display=replace(config.display, language="ru"))
    app = App(config, mode="headless", size=(800, 480), state_dir=sd, config_errors=errors)
    app.mode, app.headless = "kiosk", False
    try:
        app.start()
        assert app.scene.name == "config_error"
        assert [f.code for f in app.faults] == ["config", "records"]
        log = theme.start_text_log()
        app.scene.draw(app.screen.surface)
        theme.stop_text_log()
        drawn = " | ".join(r.text for r in log)
        assert i18n.language() == "ru"
        assert i18n._("The table's settings have errors") in drawn
        assert i18n._("The table's settings have errors") != "The table's settings have errors"
        assert i18n._("The records cannot be saved") in drawn and "rotation" in drawn
        assert "not a usable records database" in drawn or "damaged" in drawn
        app.open_operator()  # the operator's way out is reachable from the fault screen
        assert app.scene.name == "operator"
        app.goto("config_error")
        app.scene.go_on()  # play on where the table can
        assert app.scene.name == "attract" and app.store is not None
    finally:
        i18n.set_language("en")
        app.close()
