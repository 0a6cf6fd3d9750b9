"""The table's sync against a real PostgreSQL server: the outbox filled in the recording
transaction, then sent through server stops, killed connections, duplicates, a wrong
password and a week offline, with nothing lost and nothing counted twice."""

from __future__ import annotations

import random
import sqlite3
import threading

import psycopg
import pytest
from league_helpers import outbox, play_gin, seats_for, sign_in, table_store

from league import local, sync
from league.devserver import wait_until
from rummy.store import DB_NAME


def server_matches(league_db, table_id):
    return league_db.conn.execute(
        "SELECT match_uid, count(*) FROM league.matches WHERE table_id = %s GROUP BY match_uid",
        (table_id,)).fetchall()


def assert_exactly_once(league_db, login, state_dir):
    rows = outbox(state_dir)
    on_server = dict(server_matches(league_db, login.cred.table_id))
    assert all(sent for _, _, sent, _, _ in rows), "every outbox row is marked sent"
    assert set(on_server) == {uid for _, uid, _, _, _ in rows}, "nothing lost"
    assert set(on_server.values()) == {1}, "nothing counted twice"
    ids = {uid: sid for _, uid, _, sid, _ in rows}
    server_ids = dict(league_db.conn.execute(
        "SELECT match_uid, id FROM league.matches WHERE table_id = %s", (login.cred.table_id,)))
    assert ids == server_ids, "each row knows its server id"


def record(state_dir, n, players, start=0):
    with table_store(state_dir) as store:
        for i in range(n):
            play_gin(state_dir, start + i, seats_for(*players), store, target=1)


def test_the_outbox_is_filled_in_the_recording_transaction(tmp_path):
    from rummy.players import player as basic_player
    from rummy.session import MatchSession
    from rummy.session_runner import default_rules, next_action
    from rummy.store import Store, StoreError

    seats = seats_for(("Ann", 7), ("Bob", None))
    with table_store(tmp_path) as store:
        play_gin(tmp_path, 1, seats, store)
        # a failure inside record_match rolls back the match and its outbox row together
        rules, preset = default_rules("gin", None)
        s = MatchSession.start(tmp_path, "gin", {**rules, "game_target": 1}, seats, seed=2,
                               preset=preset, fsync=False)
        while not s.is_over:
            s.apply(next_action(s, [basic_player("gin")] * 2))
        journal = s.finish(None)
        store._db.execute("CREATE TRIGGER no_more BEFORE INSERT ON outbox"
                          " BEGIN SELECT RAISE(ABORT, 'disk full'); END")
        with pytest.raises((StoreError, sqlite3.Error), match="disk full"):
            store.record_match(journal)
        assert len(store.matches()) == 1
        store._db.execute("DROP TRIGGER no_more")
        store.record_match(journal)  # recorded later, with its outbox row
        assert len(store.matches()) == 2
    db = sqlite3.connect(tmp_path / DB_NAME)
    payloads = [sync.payload_of(r[0]) for r in db.execute("SELECT payload_json FROM outbox")]
    assert len(payloads) == 2
    p = payloads[0]
    assert p["game"] == "gin" and p["reason"] == "finished" and len(p["digest"]) == 64
    assert [s["league_id"] for s in p["seats"]] == [7, None]
    assert [s["name"] for s in p["seats"]] == ["Ann", "Bob"]
    assert sum(s["won"] for s in p["seats"]) == 1 and p["hands"]
    # without the league the store keeps no outbox rows
    with Store(tmp_path / "plain.db") as plain:
        play_gin(tmp_path, 3, seats, plain)
        assert plain._db.execute("SELECT count(*) FROM outbox").fetchone()[0] == 0


def test_sync_sends_refreshes_standings_and_a_repeat_is_not_counted(league_db, tmp_path):
    login = league_db.table("The Crown", "Table 1")
    ann, bob = league_db.player("Ann"), league_db.player("Bob")
    sign_in(login, tmp_path, ann, bob)
    record(tmp_path, 5, [("Ann", ann), ("Bob", bob)])
    worker = sync.SyncWorker(tmp_path / DB_NAME, login.dsn, table_id=login.cred.table_id)
    try:
        assert worker.run_once() == 5
        assert_exactly_once(league_db, login, tmp_path)
        # the acknowledgements are lost (as if the table died before marking them): sent again
        db = sqlite3.connect(tmp_path / DB_NAME)
        db.execute("UPDATE outbox SET sent = NULL, server_id = NULL")
        db.commit()
        db.close()
        assert worker.run_once() == 5
        assert_exactly_once(league_db, login, tmp_path)
        assert league_db.count("SELECT count(*) FROM league.matches") == 5
    finally:
        worker.stop()
    cache = local.LocalLeague(tmp_path / DB_NAME)
    st = cache.standings("gin")
    assert {s.name for s in st} == {"Ann", "Bob"} and sum(s.played for s in st) == 10
    assert sum(s.won for s in st) == 5 and cache.venue() == "The Crown"
    assert [n for _, n in cache.players()] == ["Ann", "Bob"] and cache.pending() == 0


def test_a_refused_row_does_not_block_the_others(league_db, tmp_path):
    login = league_db.table("The Crown", "Table 1")
    record(tmp_path, 3, [("Ann", None), ("Bob", None)])
    worker = sync.SyncWorker(tmp_path / DB_NAME, login.dsn)
    try:
        worker.run_once()
        db = sqlite3.connect(tmp_path / DB_NAME)  # row 2 comes back changed: refused
        db.execute("UPDATE outbox SET sent = NULL, payload_json = replace(payload_json,"
                   " '\"digest\": \"', '\"digest\": \"x') WHERE id = 2")
        db.commit()
        record(tmp_path, 2, [("Ann", None), ("Bob", None)], start=10)
        assert worker.run_once() == 2
        rows = outbox(tmp_path)
        assert [r[4] is not None for r in rows] == [False, True, False, False, False]
        assert "another digest" in db.execute("SELECT last_error FROM outbox WHERE id = 2"
                                              ).fetchone()[0]
        db.close()
    finally:
        worker.stop()
    assert league_db.count("SELECT count(*) FROM league.matches") == 5
    assert worker.status.rejected == 1


def test_a_wrong_password_keeps_the_outbox_and_the_right_one_sends_it(league_db, tmp_path):
    login = league_db.table("The Crown", "Table 1")
    record(tmp_path, 3, [("Ann", None), ("Bob", None)])
    password_file = tmp_path / "pw"
    password_file.write_text("not-the-password\n")

    def info():
        return login.dsn.replace(login.cred.password, password_file.read_text().strip())

    worker = sync.SyncWorker(tmp_path / DB_NAME, info, base_delay=0.05, max_delay=0.2)
    worker.start()
    try:
        assert wait_until(lambda: worker.status.failures >= 3, 20)
        assert "password authentication failed" in worker.status.last_error
        assert worker.pending() == 3 and league_db.count("SELECT count(*) FROM league.matches") == 0
        password_file.write_text(login.cred.password + "\n")  # the operator fixes it
        assert wait_until(lambda: worker.status.last_ok is not None and worker.pending() == 0, 20)
    finally:
        worker.stop()
    assert_exactly_once(league_db, login, tmp_path)


def test_the_server_stopped_during_a_sync(league_db, tmp_path):
    login = league_db.table("The Crown", "Table 1")
    ann = league_db.player("Ann")
    sign_in(login, tmp_path, ann)
    record(tmp_path, 120, [("Ann", ann), ("Bob", None)])
    league_db.conn.close()
    worker = sync.SyncWorker(tmp_path / DB_NAME, login.dsn, batch=5, base_delay=0.05,
                             max_delay=0.5)
    # slow the server down so the stop lands in the middle of the sync
    with psycopg.connect(league_db.super_dsn, autocommit=True) as su:
        su.execute("CREATE FUNCTION league.slow() RETURNS trigger LANGUAGE plpgsql AS"
                   " $$ BEGIN PERFORM pg_sleep(0.01); RETURN NEW; END $$")
        su.execute("CREATE TRIGGER slow BEFORE INSERT ON league.matches"
                   " FOR EACH ROW EXECUTE FUNCTION league.slow()")
    worker.start()
    try:
        assert wait_until(lambda: 0 < 120 - worker.pending(), 30)
        league_db.cluster.stop("fast")
        left = worker.pending()
        assert 0 < left < 120, "stopped in the middle"
        assert wait_until(lambda: worker.status.failures >= 2, 20)
        assert worker.pending() == left  # nothing marked while the server is away
        league_db.cluster.start()
        assert wait_until(lambda: worker.pending() == 0 and worker.status.failures == 0, 60)
    finally:
        worker.stop()
    league_db.conn = psycopg.connect(league_db.super_dsn, autocommit=True)
    assert_exactly_once(league_db, login, tmp_path)


def test_a_connection_killed_in_the_middle_of_a_transaction(league_db, tmp_path):
    login = league_db.table("The Crown", "Table 1")
    record(tmp_path, 60, [("Ann", None), ("Bob", None)])
    league_db.conn.execute("CREATE FUNCTION league.slow() RETURNS trigger LANGUAGE plpgsql AS"
                           " $$ BEGIN PERFORM pg_sleep(0.02); RETURN NEW; END $$")
    league_db.conn.execute("CREATE TRIGGER slow BEFORE INSERT ON league.matches"
                           " FOR EACH ROW EXECUTE FUNCTION league.slow()")
    worker = sync.SyncWorker(tmp_path / DB_NAME, login.dsn, batch=20, base_delay=0.05,
                             max_delay=0.2)
    kills = []

    def in_transaction():
        row = league_db.conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE usename = %s AND xact_start IS NOT NULL"
            " AND query LIKE '%%submit_match%%'", (login.cred.role,)).fetchone()
        return row[0] if row else None

    starts: dict[object, set[object]] = {}

    def rows_begun(pid) -> int:
        """Statements (one a row, 20 ms each) begun so far in ``pid``'s open transaction."""
        row = league_db.conn.execute(
            "SELECT xact_start, query_start FROM pg_stat_activity WHERE pid = %s", (pid,)).fetchone()
        if row is None or row[0] is None:
            return 0
        seen = starts.setdefault(row[0], set())
        seen.add(row[1])
        return len(seen)

    worker.start()
    try:
        for _ in range(3):  # three batches die half-way through
            assert wait_until(lambda: in_transaction() is not None, 30)
            pid = in_transaction()
            assert wait_until(lambda p=pid: rows_begun(p) >= 3, 30, step=0.005)  # a few rows in
            seen = len(worker.status.history)
            assert league_db.conn.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone()[0]
            assert wait_until(lambda s=seen: len(worker.status.history) > s, 30)
            kills.append(league_db.count("SELECT count(*) FROM league.matches"))
        assert wait_until(lambda: worker.pending() == 0, 60)
    finally:
        worker.stop()
    assert len(kills) == 3 and worker.status.failures == 0
    assert any("terminat" in e or "closed" in e or "consuming input" in e
               for e in worker.status.history), worker.status.history
    # batches are all-or-nothing: a killed batch left nothing half-written
    assert all(k % 20 == 0 for k in kills), kills
    assert_exactly_once(league_db, login, tmp_path)


@pytest.fixture
def ram_dir(tmp_path):
    """A state directory in RAM when there is one (2,000 fsynced records take a minute on disk)."""
    import shutil
    import tempfile
    from pathlib import Path

    if not Path("/dev/shm").is_dir():
        yield tmp_path
        return
    d = Path(tempfile.mkdtemp(prefix="rummy-week-", dir="/dev/shm"))
    yield d
    shutil.rmtree(d, ignore_errors=True)


@pytest.mark.slow
def test_a_week_offline_two_thousand_matches(league_db, ram_dir):
    tmp_path = ram_dir
    login = league_db.table("The Crown", "Table 1")
    ann, bob = league_db.player("Ann"), league_db.player("Bob")
    sign_in(login, tmp_path, ann, bob)  # on line when they sat down
    away = tmp_path / "no-server"  # the network is down: nothing listens there
    worker = sync.SyncWorker(tmp_path / DB_NAME,
                             lambda: login.dsn.replace(league_db.cluster.host, str(away)),
                             base_delay=0.05, max_delay=0.3)
    worker.start()
    rng = random.Random(5)
    try:
        with table_store(tmp_path) as store:
            for i in range(2000):  # the table keeps playing: a match never waits
                players = [("Ann", ann), ("Bob", bob)] if rng.random() < 0.7 else [("Ann", ann),
                                                                                    ("Guest", None)]
                play_gin(tmp_path, i, seats_for(*players), store, target=1)
                worker.notify()
        assert worker.pending() == 2000 and worker.status.failures > 3
        assert "No such file" in worker.status.last_error or "connect" in worker.status.last_error
        away.symlink_to(league_db.cluster.host)  # back on line
        assert wait_until(lambda: worker.pending() == 0, 120)
    finally:
        worker.stop()
    assert_exactly_once(league_db, login, tmp_path)
    played = league_db.count("SELECT sum(played) FROM league.standings WHERE name = 'Ann'")
    assert played == 2000


def test_backoff_grows_to_its_cap_with_jitter():
    rng = random.Random(1)
    waits = [sync.backoff(n, 1.0, 60.0, rng) for n in range(1, 12)]
    assert all(0.5 * min(60, 2 ** (n - 1)) <= w <= min(60, 2 ** (n - 1))
               for n, w in zip(range(1, 12), waits, strict=True))
    assert max(waits) <= 60 and waits[-1] >= 30


def test_the_worker_opens_no_listening_socket(league_db, tmp_path):
    import os

    login = league_db.table("The Crown", "Table 1")
    record(tmp_path, 2, [("Ann", None), ("Bob", None)])

    def listening_inodes():
        out = set()
        for name in ("tcp", "tcp6", "unix"):
            try:
                lines = open(f"/proc/net/{name}").read().splitlines()[1:]
            except OSError:
                continue
            for line in lines:
                f = line.split()
                if name == "unix" and len(f) >= 7 and f[5] == "01" and f[3] == "00010000":
                    out.add(f[6])  # a unix socket in LISTEN state
                elif name != "unix" and f[3] == "0A":
                    out.add(f[9])
        return out

    def my_inodes():
        out = set()
        for fd in os.listdir("/proc/self/fd"):
            try:
                target = os.readlink(f"/proc/self/fd/{fd}")
            except OSError:
                continue
            if target.startswith("socket:["):
                out.add(target[8:-1])
        return out

    before = my_inodes() & listening_inodes()
    worker = sync.SyncWorker(tmp_path / DB_NAME, login.dsn)
    worker.start()
    try:
        assert wait_until(lambda: worker.pending() == 0, 20)
        assert my_inodes() & listening_inodes() == before
        assert threading.active_count() >= 2
    finally:
        worker.stop()


def test_pin_check_online_then_offline_from_the_table_cache(league_db, tmp_path):
    login = league_db.table("The Crown", "Table 1")
    ann = league_db.player("Ann", "8642")
    cache = local.LocalLeague(tmp_path / DB_NAME)
    assert sync.check_pin(login.dsn, cache, ann, "1111") == "wrong"
    assert sync.check_pin(login.dsn, cache, ann, "8642") == "ok"
    assert cache.cached_pin(ann) and "8642" not in cache.cached_pin(ann)
    offline = login.dsn.replace(league_db.cluster.host, str(tmp_path / "gone"))
    assert sync.check_pin(offline, cache, ann, "8642") == "ok"  # accepted here before
    assert sync.check_pin(offline, cache, ann, "1111") == "wrong"
    bob = league_db.player("Bob", "1234")
    assert sync.check_pin(offline, cache, bob, "1234") == "offline"  # never typed here
    assert sync.check_pin(login.dsn, cache, 424242, "1234") == "unknown"
    cache.close()


@pytest.mark.parametrize("batch", [1, 7])
def test_two_workers_on_one_store_still_count_once(league_db, tmp_path, batch):
    login = league_db.table("The Crown", "Table 1")
    record(tmp_path, 30, [("Ann", None), ("Bob", None)])
    workers = [sync.SyncWorker(tmp_path / DB_NAME, login.dsn, batch=batch) for _ in range(2)]
    threads = [threading.Thread(target=w.run_once) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    for w in workers:
        w.stop()
    assert_exactly_once(league_db, login, tmp_path)
