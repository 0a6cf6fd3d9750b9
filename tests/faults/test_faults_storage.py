"""Disk full and read-only at every write (journal, archive, store, damaged/), on a small
tmpfs: the move is refused (never applied unrecorded), the session stays usable, and play
goes on by itself once the storage is back."""

from __future__ import annotations

import os
import sqlite3
import subprocess

import pytest
from faultkit import (
    file_size_limit,
    fill,
    finished_in_current,
    remount,
    tmpfs,
    unfinished,
    until_refused,
)

import rummy.session as sess
from rummy.players import player as basic_player  # the registry (rummy.players)
from rummy.records import read_journal
from rummy.session import ARCHIVE, CURRENT, DAMAGED, MatchSession
from rummy.session_runner import default_rules, next_action
from rummy.store import Store, StoreError

pytestmark = pytest.mark.faults


def _session(sd, seed=5):
    rules, preset = default_rules("gin", None)
    seats = [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}]  # recorded
    return MatchSession.start(sd, "gin", rules, seats, seed=seed, preset=preset)


def _play(s, n):
    players = [basic_player("gin"), basic_player("gin")]
    for _ in range(n):
        if s.is_over:
            return
        s.apply(next_action(s, players))


def test_disk_full_mid_match_refuses_the_move_and_play_goes_on_after(tmp_path):
    with tmpfs(tmp_path / "mnt", "1m") as mnt:
        s = _session(mnt / "state")
        _play(s, 20)
        filler = fill(mnt)
        players = [basic_player("gin"), basic_player("gin")]
        until_refused(lambda: s.apply(next_action(s, players)))
        digest, n = s.digest(), s.actions_applied
        action = next_action(s, players)
        for _ in range(3):  # every try is refused, none applied, none half-written
            with pytest.raises(sess.StorageError) as info:
                s.apply(action)
            assert info.value.code == "storage_full"
            assert s.digest() == digest and s.actions_applied == n
        j = read_journal(s.journal_path)
        assert len(j.actions) == n and not j.torn_tail
        os.unlink(filler)  # space is back: the same session goes on
        s.apply(action)
        _play(s, 30)
        assert s.actions_applied == min(n + 31, s.actions_applied) and s.actions_applied > n
        s.close()
        j = read_journal(s.journal_path)
        assert len(j.actions) == s.actions_applied and not j.torn_tail and not j.warnings


def test_read_only_mid_match_refuses_and_goes_on_after_remount(tmp_path):
    with tmpfs(tmp_path / "mnt", "4m") as mnt:
        s = _session(mnt / "state")
        _play(s, 15)
        n = s.actions_applied
        remount(mnt, read_only=True)
        action = next_action(s, [basic_player("gin"), basic_player("gin")])
        with pytest.raises(sess.StorageError) as info:
            s.apply(action)
        assert info.value.code == "storage_read_only" and s.actions_applied == n
        remount(mnt, read_only=False)
        s.apply(action)
        _play(s, 10)
        s.close()
        assert len(read_journal(s.journal_path).actions) == n + 11


def test_disk_full_at_the_finish_keeps_the_match_and_finishes_later(tmp_path):
    with tmpfs(tmp_path / "mnt", "4m") as mnt:
        sd = mnt / "state"
        s = _session(sd)
        _play(s, 100_000)
        assert s.is_over
        with Store(sd / "records.sqlite3") as store:
            filler = fill(mnt)
            with file_size_limit(s.journal_path.stat().st_size), pytest.raises(sess.StorageError):
                s.finish(store)  # the end line cannot be written: nothing changes
            assert s.is_open and s.journal_path.parent == sd / CURRENT
            assert read_journal(s.journal_path).ended is None
            os.unlink(filler)
            path = s.finish(store)
            assert path.parent == sd / ARCHIVE and len(store.matches()) == 1


def test_disk_full_in_the_store_queues_the_record(tmp_path):
    with tmpfs(tmp_path / "mnt", "4m") as mnt:
        sd = mnt / "state"
        s = _session(sd)
        _play(s, 100_000)
        store = Store(sd / "records.sqlite3")
        # the end line fits, the store's inserts do not (a few KB left)
        filler = fill(mnt)
        os.truncate(filler, os.path.getsize(filler) - 8192)
        path = s.finish(store)
        assert path.parent == sd / CURRENT, "kept (queued) in current/"
        assert s.record_error and "cannot rollback" not in s.record_error
        assert "full" in s.record_error
        os.unlink(filler)
        assert MatchSession.archive_queued(sd, store) == 1
        assert len(store.matches()) == 1 and not list((sd / CURRENT).glob("*.jsonl"))
        store.close()


def test_full_disk_store_error_names_the_cause_not_the_rollback(tmp_path):
    with tmpfs(tmp_path / "mnt", "4m") as mnt:
        sd = mnt / "state"
        journal = finished_in_current(sd)
        store = Store(sd / "records.sqlite3")
        filler = fill(mnt)
        with pytest.raises(StoreError) as info:
            store.record_match(journal)
        assert "cannot rollback" not in str(info.value) and info.value.kind == "full", info.value
        os.unlink(filler)
        assert store.record_match(journal) >= 1
        store.close()


def test_read_only_at_resume_with_damaged_and_finished_journals(tmp_path):
    with tmpfs(tmp_path / "mnt", "8m") as mnt:
        sd = mnt / "state"
        live = unfinished(sd, 25, seed=8)
        finished = finished_in_current(sd, seed=4)
        bad = sd / CURRENT / "20200101T000000000000Z-gin.jsonl"
        bad.write_bytes(live.read_bytes().replace(b'"seat":', b'"seat"', 1))
        Store(sd / "records.sqlite3").close()
        remount(mnt, read_only=True)
        store = Store(sd / "records.sqlite3")
        res = MatchSession.resume(sd, store=store)
        # the live match resumes (moves refused until writable), nothing was moved or lost
        assert res.session is not None and res.session.actions_applied == 25
        assert res.unreadable == [bad] and finished in res.queued
        assert res.storage_error is not None and res.storage_error.kind == "read_only"
        with pytest.raises(sess.StorageError):
            res.session.deal_if_needed() if res.session.deal_action() else res.session.apply(
                next_action(res.session, [basic_player("gin"), basic_player("gin")]))
        remount(mnt, read_only=False)
        _play(res.session, 5)
        res.session.close()
        store.close()
        res2 = MatchSession.resume(sd, store=Store(sd / "records.sqlite3"))
        assert res2.session is not None and res2.session.actions_applied == 30
        # the bad journal is moved aside now, and its intact header (no action) with it as
        # an older unfinished match
        assert len(res2.damaged) == 2 and res2.older_unfinished == 1 and (sd / DAMAGED).is_dir()
        assert len(list((sd / ARCHIVE).glob("*.jsonl"))) == 1
        res2.session.close()


def test_starting_a_match_on_a_read_only_state_is_refused(tmp_path):
    with tmpfs(tmp_path / "mnt", "1m") as mnt:
        (mnt / "state").mkdir()
        remount(mnt, read_only=True)
        with pytest.raises(sess.StorageError) as info:
            _session(mnt / "state")
        assert info.value.code == "storage_read_only"
        remount(mnt, read_only=False)
        filler = fill(mnt)
        with pytest.raises(sess.StorageError) as info:
            _session(mnt / "state")
        assert info.value.code == "storage_full"
        assert not list((mnt / "state").rglob("*.jsonl*"))
        os.unlink(filler)
        _session(mnt / "state").close()


def test_locked_store_at_finish_is_a_store_error_and_the_match_is_queued(tmp_path):
    sd = tmp_path / "state"
    s = _session(sd)
    _play(s, 100_000)
    store = Store(sd / "records.sqlite3")
    holder = subprocess.Popen(
        ["python3", "-c", "import sqlite3,sys,time; c=sqlite3.connect(sys.argv[1], isolation_level=None);"
         "c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); time.sleep(60)",
         str(sd / "records.sqlite3")], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        path = s.finish(store)  # no OperationalError escapes
        assert path.parent == sd / CURRENT and "locked" in (s.record_error or "")
        with pytest.raises(StoreError) as info:
            store.matches()
        assert info.value.kind == "locked"
    finally:
        holder.kill()
        holder.wait()
    assert MatchSession.archive_queued(sd, store) == 1 and len(store.matches()) == 1
    store.close()
    with sqlite3.connect(sd / "records.sqlite3") as c:
        assert c.execute("SELECT COUNT(*) FROM matches").fetchone()[0] == 1


def test_the_table_app_shows_storage_full_and_plays_on_by_itself(tmp_path):
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from display.app import App
    from display.table.config import load_config

    with tmpfs(tmp_path / "mnt", "2m") as mnt:
        sd = mnt / "state"
        config, _ = load_config(None, env={"RUMMY_TABLE_STATE_DIR": str(sd)})
        t = [0.0]
        app = App(config, mode="headless", size=(800, 480), state_dir=sd, seed=3,
                  clock=lambda: t[0])
        app.headless = False  # the table, not CI: errors go to the screen
        app.settings.bot_delay_s = 0.0
        app.start_match("gin", [{"name": "A", "kind": "computer"}, {"name": "B", "kind": "computer"}])
        m = app.match
        assert m is not None

        def frames(k):
            for _ in range(k):
                t[0] += 0.05
                app.frame(events=[])
                if m.review_pending:
                    m.continue_after_review()

        frames(20)
        filler = fill(mnt)
        for _ in range(2000):  # a tmpfs still takes lines into the last page's slack
            frames(1)
            if m.storage_error is not None:
                break
        n = m.session.actions_applied
        frames(60)
        assert app.scene.name == "gin_table", app.scene.name  # no failsafe
        assert m.message == "The table's storage is full" and m.session.actions_applied == n
        os.unlink(filler)
        frames(60)
        assert m.session.actions_applied > n + 5 and m.storage_error is None
        app.close()
        assert len(read_journal(m.session.journal_path).actions) == m.session.actions_applied
