"""The table's sync: a background thread sends the outbox to the league server.

``SyncWorker(db_path, connect_info)`` reads unsent rows of the local store's ``outbox``
(``rummy.store``), calls ``league.submit_match(uid, payload)`` on the server with psycopg 3
(a batch per server transaction), then marks them sent locally. The server function is
idempotent on (table, match id), so a lost acknowledgement, a connection killed in the
middle of a batch or a server restart only means the rows are sent again: never lost,
never counted twice. On any error the worker waits with exponential backoff (with jitter)
and tries again; the table never waits for it and it never listens on a socket. After a
good pass it refreshes the cached copy of the venue's standings (``league.local``).

A row the server refuses for its content (the same match id with another digest, bad
data) is marked ``rejected`` with the reason, so it cannot block the rows behind it.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
from psycopg import errors as pg_errors

from league import local, pins

BATCH = 50
TOKENS_KEPT = timedelta(days=31)
STANDINGS_SEASONS = 2
# Server errors about the row itself (sending it again cannot help).
DATA_ERRORS: tuple[type[Exception], ...] = (
    pg_errors.UniqueViolation, pg_errors.InvalidParameterValue, pg_errors.DataException,
    pg_errors.CheckViolation, pg_errors.NotNullViolation, pg_errors.ForeignKeyViolation,
)

ConnectInfo = str | Callable[[], str]


@dataclass
class SyncStatus:
    """What the worker last saw (read by the display and the operator menu)."""

    sent: int = 0
    rejected: int = 0
    passes: int = 0
    failures: int = 0  # consecutive failed passes (0 after a good one)
    last_ok: float | None = None
    last_error: str = ""
    next_try_in: float = 0.0
    history: list[str] = field(default_factory=list)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def backoff(failures: int, base: float, cap: float, rng: random.Random) -> float:
    """Seconds to wait after ``failures`` failed passes in a row: base*2^(n-1), capped, with
    jitter (50-100 %) so a venue's tables do not all reconnect at the same moment. A table
    offline for days keeps counting failures: the exponent stops at 1023, the largest a
    float holds (an int 2**1024 made an OverflowError that stopped the sync thread)."""
    doubling = 2.0 ** min(max(0, failures - 1), 1023)
    return min(cap, base * doubling) * rng.uniform(0.5, 1.0)


class SyncWorker:
    """Sends the outbox of one records database; ``start()``/``stop()`` or ``run_once()``."""

    def __init__(self, db_path: str | os.PathLike[str], connect_info: ConnectInfo, *,
                 batch: int = BATCH, base_delay: float = 1.0, max_delay: float = 300.0,
                 refresh_every: float = 60.0, table_id: int | None = None,
                 on_change: Callable[[], None] | None = None,
                 seed: int | None = None) -> None:
        self.db_path = Path(db_path)
        self.connect_info = connect_info
        self.batch = batch
        self.base_delay = base_delay
        self.max_delay = max_delay
        self.refresh_every = refresh_every
        self.table_id = table_id
        self.on_change = on_change
        self.status = SyncStatus()
        self._rng = random.Random(seed)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._conn: psycopg.Connection[Any] | None = None
        self._db: sqlite3.Connection | None = None

    # -- the thread -----------------------------------------------------------------------
    def start(self) -> SyncWorker:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="league-sync", daemon=True)
            self._thread.start()
        return self

    def notify(self) -> None:
        """A match was recorded: send it soon (within the current backoff)."""
        self._wake.set()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        self._close_conn()
        if self._db is not None:
            self._db.close()
            self._db = None

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                self.run_once()
                delay = self.refresh_every
            except Exception as exc:  # noqa: BLE001 - the worker never dies; it retries
                self._failed(exc)
                delay = backoff(self.status.failures, self.base_delay, self.max_delay, self._rng)
                self._wake.clear()  # a new match does not cut the backoff short
                self.status.next_try_in = delay
                self._stop.wait(delay)
                continue
            self.status.next_try_in = delay
            self._wake.wait(delay)
            self._wake.clear()

    def _failed(self, exc: BaseException) -> None:
        self._close_conn()
        self.status.failures += 1
        self.status.last_error = f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"
        self.status.history = (self.status.history + [self.status.last_error])[-20:]

    # -- one pass ------------------------------------------------------------------------
    def _local(self) -> sqlite3.Connection:
        if self._db is None:
            self._db = local.connect(self.db_path)
        return self._db

    def _connection(self) -> psycopg.Connection[Any]:
        if self._conn is None or self._conn.closed or self._conn.broken:
            info = self.connect_info() if callable(self.connect_info) else self.connect_info
            self._conn = psycopg.connect(info, autocommit=True)
        return self._conn

    def _close_conn(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except Exception:  # noqa: BLE001,S110 - a dead connection closes badly
                pass
            self._conn = None

    def pending(self) -> int:
        return int(self._local().execute(
            "SELECT COUNT(*) FROM outbox WHERE sent IS NULL AND rejected IS NULL").fetchone()[0])

    def run_once(self, *, refresh: bool = True) -> int:
        """Send every pending row (raises on a connection or server failure); refresh the
        standings (unless ``refresh=False``). Returns the number of rows sent in this pass."""
        db = self._local()
        conn = self._connection()
        redeem_signins(conn, db)
        sent = 0
        while not self._stop.is_set():
            rows = db.execute("SELECT id, match_uid, payload_json FROM outbox"
                              " WHERE sent IS NULL AND rejected IS NULL ORDER BY id LIMIT ?",
                              (self.batch,)).fetchall()
            if not rows:
                break
            rows = [(row_id, uid, with_tokens(db, payload)) for row_id, uid, payload in rows]
            try:
                acks = self._send(conn, rows)
            except DATA_ERRORS:
                acks = self._send_one_by_one(conn, rows)
            self._mark(acks)
            sent += sum(1 for _, server_id, _ in acks if server_id is not None)
        if refresh:
            self._refresh(conn)
        self.status.sent += sent
        self.status.passes += 1
        self.status.failures = 0
        self.status.last_ok = time.time()
        self.status.last_error = ""
        if self.on_change is not None:
            self.on_change()
        return sent

    @staticmethod
    def _send(conn: psycopg.Connection[Any], rows: list[tuple[int, str, str]]
              ) -> list[tuple[int, int | None, str]]:
        """One server transaction for the batch: all of it or none of it."""
        acks: list[tuple[int, int | None, str]] = []
        with conn.transaction(), conn.cursor() as cur:
            for row_id, uid, payload in rows:
                cur.execute("SELECT league.submit_match(%s, %s::jsonb)", (uid, payload))
                row = cur.fetchone()
                if row is None:
                    raise RuntimeError("submit_match returned no row")
                acks.append((row_id, int(row[0]), ""))
        return acks

    def _send_one_by_one(self, conn: psycopg.Connection[Any], rows: list[tuple[int, str, str]]
                         ) -> list[tuple[int, int | None, str]]:
        acks: list[tuple[int, int | None, str]] = []
        for row in rows:
            try:
                acks += self._send(conn, [row])
            except DATA_ERRORS as exc:
                acks.append((row[0], None, f"{type(exc).__name__}: {exc}".strip()))
                self.status.rejected += 1
        return acks

    def _mark(self, acks: list[tuple[int, int | None, str]]) -> None:
        db = self._local()
        now = _now()
        db.execute("BEGIN IMMEDIATE")
        try:
            for row_id, server_id, error in acks:
                if server_id is not None:
                    db.execute("UPDATE outbox SET sent = ?, server_id = ?, attempts = attempts + 1,"
                               " last_error = '' WHERE id = ?", (now, server_id, row_id))
                else:
                    db.execute("UPDATE outbox SET rejected = ?, attempts = attempts + 1,"
                               " last_error = ? WHERE id = ?", (now, error[:500], row_id))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def _refresh(self, conn: psycopg.Connection[Any]) -> None:
        """The cached copy of this venue's standings and the league's player names."""
        me = conn.execute("SELECT table_id, table_name, venue_id, venue FROM league.my_table()"
                          ).fetchone()
        if me is None:
            raise RuntimeError("the server does not know this table (retired?)")
        if self.table_id and int(me[0]) != self.table_id:
            raise RuntimeError(f"the server says this login is table {me[0]}, "
                               f"the config says table {self.table_id}")
        players = conn.execute("SELECT player_id, name FROM league.league_players()").fetchall()
        rows = conn.execute(
            "SELECT game, season, player_id, name, played, won, points, rating"
            " FROM league.venue_standings WHERE venue_id = %s AND season IN ("
            "  SELECT DISTINCT season FROM league.venue_standings WHERE venue_id = %s"
            "  ORDER BY season DESC LIMIT %s)", (me[2], me[2], STANDINGS_SEASONS)).fetchall()
        db = self._local()
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("DELETE FROM league_players")
            db.executemany("INSERT INTO league_players VALUES (?, ?)", players)
            db.execute("DELETE FROM league_standings")
            db.executemany("INSERT INTO league_standings VALUES (?,?,?,?,?,?,?,?)",
                           [(*r[:7], None if r[7] is None else float(r[7])) for r in rows])
            for key, value in (("table_id", me[0]), ("table", me[1]), ("venue", me[3]),
                               ("refreshed", _now())):
                db.execute("INSERT OR REPLACE INTO league_meta VALUES (?, ?)", (key, str(value)))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise


def with_tokens(db: sqlite3.Connection, payload_json: str) -> str:
    """The payload with each league player's seat token (``league_tokens``), the server's
    proof that his PIN was checked at this table before the match finished (issue 31)."""
    payload = json.loads(payload_json)
    try:
        finished = datetime.fromisoformat(str(payload.get("finished")))
    except ValueError:
        return payload_json
    if finished.tzinfo is None:
        finished = finished.replace(tzinfo=UTC)
    changed = False
    for seat in payload.get("seats") or []:
        pid = seat.get("league_id") if isinstance(seat, dict) else None
        if isinstance(pid, int) and seat.get("kind", "human") == "human":
            token = local.token_for(db, pid, finished)
            if token is not None:
                seat["token"] = token
                changed = True
    return json.dumps(payload, sort_keys=True) if changed else payload_json


def _sign_in(conn: psycopg.Connection[Any], player_id: int, digest: str,
             typed: datetime | None = None) -> tuple[str, str | None, datetime | None, datetime]:
    """The server's answer and, with ``ok``, the seat token and its window."""
    row = conn.execute("SELECT answer, token, valid_until, now() FROM league.check_pin(%s, %s, %s)",
                       (player_id, digest, typed)).fetchone()
    if row is None:
        return "unknown", None, None, datetime.now(UTC)
    return str(row[0]), row[1], row[2], row[3]


def redeem_signins(conn: psycopg.Connection[Any], db: sqlite3.Connection) -> int:
    """PINs accepted off line (``league_signins``) are checked by the server now, with the
    time they were typed; a right one gives the seat token the match needs. Each is sent
    once (wrong or unknown: the seat's matches will be refused, as any unchecked seat)."""
    done = 0
    for row_id, player_id, digest, typed in db.execute(
            "SELECT id, player_id, digest, typed FROM league_signins ORDER BY id").fetchall():
        when = datetime.fromisoformat(typed)
        try:
            answer, token, valid_until, _now_ = _sign_in(conn, int(player_id), str(digest), when)
        except DATA_ERRORS:  # typed outside the sync window: nothing to redeem
            answer, token, valid_until = "late", None, None
        if answer == "locked":
            continue  # tried again at the next pass
        if answer == "ok" and token and valid_until is not None:
            db.execute("INSERT OR REPLACE INTO league_tokens VALUES (?, ?, ?, ?)",
                       (token, player_id, when.isoformat(), valid_until.isoformat()))
        db.execute("DELETE FROM league_signins WHERE id = ?", (row_id,))
        done += 1
    # tokens whose matches can no longer be sent (league.limits().past: 30 days)
    old = (datetime.now(UTC) - TOKENS_KEPT).isoformat()
    db.execute("DELETE FROM league_tokens WHERE valid_until < ?", (old,))
    return done


def check_pin(connect_info: ConnectInfo, cache: local.LocalLeague, player_id: int, pin: str,
              *, timeout: float = 4.0) -> str:
    """``ok``, ``wrong``, ``locked``, ``unknown`` or ``offline`` for a PIN typed at the table.

    The server compares (the stored hash never leaves it) and, for a right PIN, hands back a
    seat token that the sync puts on the player's seats of the matches finished within its
    window (``league.limits().seat_window``, 12 hours). When the server cannot be reached, a
    PIN this table accepted before is checked against the table's own hash of it; then the
    typed PIN's digest waits in ``league_signins`` and the server checks it, with the time it
    was typed, at the next sync (before the matches it covers are sent).
    Blocking: call it off the main loop (the seating screen uses a thread).
    """
    try:
        info = connect_info() if callable(connect_info) else connect_info
        with psycopg.connect(info, autocommit=True, connect_timeout=max(1, int(timeout))) as conn:
            salt = conn.execute("SELECT league.pin_salt(%s)", (player_id,)).fetchone()
            if salt is None or salt[0] is None:
                return "unknown"
            answer, token, valid_until, server_now = _sign_in(
                conn, player_id, pins.digest_for(salt[0], pin))
    except (psycopg.OperationalError, psycopg.InterfaceError):
        cached, salt_part = cache.cached_pin(player_id), cache.cached_salt(player_id)
        if cached is None or salt_part is None:
            return "offline"
        if not pins.verify(cached, pin):
            return "wrong"
        cache.add_signin(player_id, pins.digest_for(salt_part, pin), datetime.now(UTC))
        return "ok"
    if answer == "ok":
        cache.remember_pin(player_id, pins.hash_pin(pin))
        cache.remember_salt(player_id, str(salt[0]))
        if token and valid_until is not None:
            cache.add_token(player_id, str(token), server_now, valid_until)
    return answer


def payload_of(row_json: str) -> dict[str, Any]:
    """An outbox payload (for tests and the benchmark)."""
    return dict(json.loads(row_json))
