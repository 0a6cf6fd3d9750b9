"""League scale: N simulated tables (processes) submit M matches each into one local
PostgreSQL server at once; the server is restarted in the middle.

    python benchmarks/league_load.py --tables 200 --matches 500

Each table is a process with its own local SQLite store (the real schema, outbox on) and
the real sync worker (``league.sync.SyncWorker``, one match per pass as on a table: a
match is recorded, then sent). A match's submit latency is from its outbox row being
written to its acknowledgement being marked locally; retries after the restart count in
it. At the end every table's outbox is compared with the server: lost (in an outbox, not
on the server) and duplicated (on the server more than once) must both be 0.

The server is a throwaway cluster (``league.devserver``: Debian's binaries, a Unix socket,
fsync off); the tables' stores live in /dev/shm when there is one, so one shared disk does
not stand in for 200 tables' own cards. Prints the figures; exits 1 if any was lost or
duplicated.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psycopg  # noqa: E402

from league import admin, schema, sync  # noqa: E402
from league.devserver import Cluster, available  # noqa: E402
from rummy.store import DB_NAME, Store  # noqa: E402

PLAYERS = 40


def payload(rng: random.Random, n: int, players: list[int]) -> dict:
    """A gin match's outbox payload, shaped like the ones rummy.store writes."""
    a, b = rng.sample(players, 2)
    pa, pb = rng.randint(0, 150), rng.randint(0, 150)
    hands = [[{"kind": "knocked", "seat": rng.randint(0, 1),
               "data": {"count": rng.randint(0, 10), "deadwood": "2S 3H AD",
                        "melds": ["6C 6H 6S", "KC KD KH"]}}] for _ in range(rng.randint(1, 4))]
    return {"game": "gin", "preset": "standard", "started": "2026-11-30T19:00:00+00:00",
            "finished": f"2026-11-30T{19 + n // 3600 % 4:02d}:{n // 60 % 60:02d}:{n % 60:02d}+00:00",
            "winner": 0 if pa >= pb else 1, "reason": "finished", "digest": f"{rng.getrandbits(256):064x}",
            "seats": [{"name": f"P{a}", "kind": "human", "points": pa, "won": pa >= pb, "league_id": a},
                      {"name": f"P{b}", "kind": "human", "points": pb, "won": pb > pa, "league_id": b}],
            "hands": hands}


def table(index: int, dsn: str, state: str, matches: int, players: list[int],
          go: mp.synchronize.Event, out: mp.Queue) -> None:
    """One simulated table: record a match (outbox row), let the worker send it, repeat."""
    os.nice(5)
    rng = random.Random(index)
    db_path = Path(state) / DB_NAME
    Store(db_path, outbox=True).close()  # the real schema, migrated
    db = sqlite3.connect(db_path, isolation_level=None, timeout=30)
    worker = sync.SyncWorker(db_path, dsn, batch=50, base_delay=0.1, max_delay=2.0, seed=index)
    latencies, retried, failures = [], [], 0
    go.wait()
    for n in range(matches):
        uid = f"{index:08x}{n:08x}{rng.getrandbits(128):032x}"
        t0 = time.perf_counter()
        db.execute("BEGIN IMMEDIATE")
        cur = db.execute("INSERT INTO matches (journal_id, journal_name, game, started, finished,"
                         " actions, winner_seat, rules_json) VALUES (?, ?, 'gin', '', '', 0, 0, '{}')",
                         (uid, f"{uid}.jsonl"))
        db.execute("INSERT INTO outbox (match_id, match_uid, payload_json, created)"
                   " VALUES (?, ?, ?, '')", (cur.lastrowid, uid, json.dumps(payload(rng, n, players))))
        db.execute("COMMIT")
        tries = 0
        while True:
            try:
                worker.run_once(refresh=(n % 100 == 99))
                break
            except Exception as exc:  # noqa: BLE001 - the server is away: back off, retry
                worker._failed(exc)
                failures += 1
                tries += 1
                time.sleep(sync.backoff(worker.status.failures, 0.1, 2.0, rng))
        latencies.append(time.perf_counter() - t0)
        retried.append(tries > 0)
    uids = [r[0] for r in db.execute("SELECT match_uid FROM outbox WHERE sent IS NOT NULL")]
    unsent = db.execute("SELECT count(*) FROM outbox WHERE sent IS NULL").fetchone()[0]
    worker.stop()
    db.close()
    out.put((index, latencies, failures, uids, unsent, time.perf_counter(), retried))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=20)
    p.add_argument("--matches", type=int, default=50)
    p.add_argument("--no-restart", action="store_true")
    args = p.parse_args(argv)
    reason = available()
    if reason:
        print(f"cannot run: {reason}")
        return 2
    root = Path(tempfile.mkdtemp(prefix="rummy-bench-pg-"))
    shm = Path("/dev/shm") if Path("/dev/shm").is_dir() else None
    states = Path(tempfile.mkdtemp(prefix="rummy-bench-tables-", dir=shm))
    cluster = Cluster(root)
    try:
        t = time.perf_counter()
        cluster.start()
        # room for every table's connection and the operator's
        with open(cluster.data / "postgresql.conf", "a") as f:
            f.write(f"max_connections = {args.tables + 20}\n")
        cluster.restart()
        with psycopg.connect(cluster.dsn(), autocommit=True) as su:
            su.execute("CREATE DATABASE bench")
        with psycopg.connect(cluster.dsn("bench"), autocommit=True) as conn:
            schema.migrate(conn)
            admin.add_venue(conn, "The Crown")
            players = [admin.add_player(conn, f"P{i}", "2468") for i in range(PLAYERS)]
            creds = [admin.add_table(conn, "The Crown", f"T{i}") for i in range(args.tables)]
        print(f"server up, schema v{schema.SCHEMA_VERSION}, {args.tables} tables made in "
              f"{time.perf_counter() - t:.1f} s")
        ctx = mp.get_context("fork")
        go, out = ctx.Event(), ctx.Queue()
        procs = []
        for i, cred in enumerate(creds):
            state = states / f"t{i}"
            state.mkdir()
            dsn = cluster.dsn("bench", user=cred.role, password=cred.password, connect_timeout="5")
            procs.append(ctx.Process(target=table, args=(i, dsn, str(state), args.matches, players,
                                                         go, out)))
        for proc in procs:
            proc.start()
        time.sleep(2)
        total = args.tables * args.matches
        t0 = time.perf_counter()
        go.set()
        restart_at = restart_s = None
        with psycopg.connect(cluster.dsn("bench"), autocommit=True) as watch:
            while not args.no_restart:
                n = watch.execute("SELECT count(*) FROM league.matches").fetchone()[0]
                if n >= total // 2:
                    break
                time.sleep(0.1)
        if not args.no_restart:
            restart_at = time.perf_counter() - t0
            cluster.restart()
            restart_s = time.perf_counter() - t0 - restart_at
            print(f"server restarted at {restart_at:.1f} s (down {restart_s:.1f} s, "
                  f"{n} of {total} matches in)")
        results = [out.get(timeout=7200) for _ in procs]
        for proc in procs:
            proc.join(60)
        wall = max(r[5] for r in results) - t0  # perf_counter is system-wide on Linux
        latencies = sorted(x for r in results for x in r[1])
        calm = sorted(x for r in results for x, again in zip(r[1], r[6], strict=True) if not again)
        sent_uids = {(r[0], u) for r in results for u in r[3]}
        unsent = sum(r[4] for r in results)
        failures = sum(r[2] for r in results)
        role_of = {c.role: i for i, c in enumerate(creds)}
        with psycopg.connect(cluster.dsn("bench"), autocommit=True) as conn:
            rows = conn.execute("SELECT t.role_name, m.match_uid, count(*) FROM league.matches m"
                                " JOIN league.tables t ON t.id = m.table_id"
                                " GROUP BY 1, 2").fetchall()
            seats = conn.execute("SELECT count(*) FROM league.match_seats").fetchone()[0]
            standings = conn.execute("SELECT sum(played) FROM league.standings").fetchone()[0]
        on_server = {(role_of[r], u) for r, u, _ in rows}
        duplicated = sum(c - 1 for _, _, c in rows)
        lost = len(sent_uids - on_server) + unsent
        q = statistics.quantiles(latencies, n=100)
        print(f"tables {args.tables} x matches {args.matches} = {total} submissions in {wall:.1f} s")
        print(f"  submissions per second: {total / wall:.0f}")
        print(f"  submit latency: p50 {q[49] * 1000:.1f} ms, p99 {q[98] * 1000:.1f} ms, "
              f"max {latencies[-1] * 1000:.0f} ms")
        qc = statistics.quantiles(calm, n=100)
        print(f"  without a retry ({len(calm)} submissions): p50 {qc[49] * 1000:.1f} ms, "
              f"p99 {qc[98] * 1000:.1f} ms")
        print(f"  failed passes retried (the restart): {failures} "
              f"({len(latencies) - len(calm)} submissions waited for the server)")
        print(f"  on the server: {len(rows)} matches, {seats} seats, standings count {standings} "
              f"seat-games")
        print(f"  lost: {lost}  duplicated: {duplicated}")
        return 0 if lost == 0 and duplicated == 0 and len(rows) == total else 1
    finally:
        cluster.destroy()
        shutil.rmtree(states, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
