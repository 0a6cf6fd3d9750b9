"""The table's league data in its local SQLite store: the outbox's state and a cached copy
of the venue's standings, the league's player names and PINs accepted on this table.

The cache tables (``league_*``) live in the records database next to the ``outbox``
(``rummy.store``) but belong to this module; each user opens its own connection (the
display's thread and the sync worker's thread never share one).
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

CACHE_SQL = """
CREATE TABLE IF NOT EXISTS league_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS league_players (player_id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS league_standings (
    game TEXT NOT NULL, season TEXT NOT NULL, player_id INTEGER NOT NULL, name TEXT NOT NULL,
    played INTEGER NOT NULL, won INTEGER NOT NULL, points INTEGER NOT NULL, rating REAL,
    PRIMARY KEY (game, season, player_id));
CREATE TABLE IF NOT EXISTS league_pins (player_id INTEGER PRIMARY KEY, pin_hash TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS league_salts (player_id INTEGER PRIMARY KEY, salt TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS league_tokens (
    token TEXT PRIMARY KEY, player_id INTEGER NOT NULL, checked TEXT NOT NULL,
    valid_until TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS league_tokens_player ON league_tokens (player_id, checked);
CREATE TABLE IF NOT EXISTS league_signins (
    id INTEGER PRIMARY KEY, player_id INTEGER NOT NULL, digest TEXT NOT NULL,
    typed TEXT NOT NULL);
"""
# How far a seat token's PIN check may be after the match's finish (the clocks of the table
# and the server differ a little); the server allows the same (league.limits().seat_skew).
TOKEN_SKEW = timedelta(minutes=10)


@dataclass(frozen=True)
class Standing:
    """One player's line in the venue's standings (cached from the server)."""

    game: str
    season: str
    name: str
    played: int
    won: int
    points: int
    rating: float | None


def connect(db_path: str | os.PathLike[str]) -> sqlite3.Connection:
    """A connection to the records database with the league cache tables made."""
    db = sqlite3.connect(Path(db_path), timeout=30, isolation_level=None,
                         check_same_thread=False)
    db.execute("PRAGMA busy_timeout = 30000")
    db.executescript(CACHE_SQL)
    return db


class LocalLeague:
    """Read side for the display (and the PIN cache). Opens its own connection."""

    def __init__(self, db_path: str | os.PathLike[str]) -> None:
        self.db_path = Path(db_path)
        self._db = connect(self.db_path)

    def meta(self) -> dict[str, str]:
        return dict(self._db.execute("SELECT key, value FROM league_meta").fetchall())

    def venue(self) -> str:
        return self.meta().get("venue", "")

    def players(self) -> list[tuple[int, str]]:
        return [(int(i), str(n)) for i, n in self._db.execute(
            "SELECT player_id, name FROM league_players ORDER BY name COLLATE NOCASE")]

    def seasons(self) -> list[str]:
        return [r[0] for r in self._db.execute(
            "SELECT DISTINCT season FROM league_standings ORDER BY season DESC")]

    def standings(self, game: str | None = None, season: str | None = None,
                  limit: int = 50) -> list[Standing]:
        """The venue's standings: by rating (when rated), then matches won, then name."""
        if season is None:
            seasons = self.seasons()
            if not seasons:
                return []
            season = seasons[0]
        sql = ("SELECT game, season, name, played, won, points, rating FROM league_standings"
               " WHERE season = ?" + (" AND game = ?" if game else "") +
               " ORDER BY rating IS NULL, rating DESC, won DESC, played ASC,"
               " name COLLATE NOCASE LIMIT ?")
        args: tuple[str | int, ...] = (season, game, limit) if game else (season, limit)
        return [Standing(*r) for r in self._db.execute(sql, args)]

    def pending(self) -> int:
        """Matches recorded here and not yet on the server."""
        try:
            return int(self._db.execute("SELECT COUNT(*) FROM outbox WHERE sent IS NULL"
                                        " AND rejected IS NULL").fetchone()[0])
        except sqlite3.OperationalError:  # no outbox yet (an older store)
            return 0

    def cached_pin(self, player_id: int) -> str | None:
        row = self._db.execute("SELECT pin_hash FROM league_pins WHERE player_id = ?",
                               (player_id,)).fetchone()
        return str(row[0]) if row else None

    def remember_pin(self, player_id: int, pin_hash: str) -> None:
        self._db.execute("INSERT OR REPLACE INTO league_pins VALUES (?, ?)", (player_id, pin_hash))

    def cached_salt(self, player_id: int) -> str | None:
        row = self._db.execute("SELECT salt FROM league_salts WHERE player_id = ?",
                               (player_id,)).fetchone()
        return str(row[0]) if row else None

    def remember_salt(self, player_id: int, salt: str) -> None:
        self._db.execute("INSERT OR REPLACE INTO league_salts VALUES (?, ?)", (player_id, salt))

    # -- seat tokens: the server's word that a PIN was checked here (issue 31) -------------
    def add_token(self, player_id: int, token: str, checked: datetime,
                  valid_until: datetime) -> None:
        self._db.execute("INSERT OR REPLACE INTO league_tokens VALUES (?, ?, ?, ?)",
                         (token, player_id, checked.isoformat(), valid_until.isoformat()))

    def add_signin(self, player_id: int, digest: str, typed: datetime) -> None:
        """A PIN accepted off line: the server checks it at the next sync (with its time)."""
        self._db.execute("INSERT INTO league_signins (player_id, digest, typed) VALUES (?, ?, ?)",
                         (player_id, digest, typed.isoformat()))

    def close(self) -> None:
        self._db.close()


def token_for(db: sqlite3.Connection, player_id: int, finished: datetime) -> str | None:
    """The seat token of ``player_id`` that covers a match finished at ``finished``: the
    latest PIN check before it (within the skew) whose window has not closed by then."""
    best: tuple[datetime, str] | None = None
    for token, checked, valid_until in db.execute(
            "SELECT token, checked, valid_until FROM league_tokens WHERE player_id = ?",
            (player_id,)):
        c, v = datetime.fromisoformat(checked), datetime.fromisoformat(valid_until)
        if c - TOKEN_SKEW <= finished <= v and (best is None or c > best[0]):
            best = (c, str(token))
    return best[1] if best else None
