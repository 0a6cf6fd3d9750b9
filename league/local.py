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
from pathlib import Path

CACHE_SQL = """
CREATE TABLE IF NOT EXISTS league_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS league_players (player_id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS league_standings (
    game TEXT NOT NULL, season TEXT NOT NULL, player_id INTEGER NOT NULL, name TEXT NOT NULL,
    played INTEGER NOT NULL, won INTEGER NOT NULL, points INTEGER NOT NULL, rating REAL,
    PRIMARY KEY (game, season, player_id));
CREATE TABLE IF NOT EXISTS league_pins (player_id INTEGER PRIMARY KEY, pin_hash TEXT NOT NULL);
"""


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
        args: tuple = (season, game, limit) if game else (season, limit)
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

    def close(self) -> None:
        self._db.close()
