"""Records of finished matches in SQLite: players, hands, totals, and the last-game recall.

``Store(path)`` opens (and migrates) the database. ``record_match(journal)`` replays a
finished journal and stores the match, its players and totals, every hand with its results
and each step as it happened (GLI-11 "last game recall"). Recording is idempotent: a journal
is identified by the sha256 of its header line. The schema version is SQLite's
``user_version``; :data:`MIGRATIONS` brings any older database up to date in one
transaction per step. With ``outbox=True`` each recorded match is also put in the
``outbox`` table in the same transaction, for the league server (``league.sync`` sends it).
"""

from __future__ import annotations

import csv
import errno
import functools
import hashlib
import inspect
import json
import os
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, ParamSpec, TypeVar

from rummy.actions import Action, Event, is_deal
from rummy.outcome import MatchOutcome, OutcomeReason
from rummy.records import Journal, JournalError, Replay, read_journal, replay

# The table's default seat names ("Player 1", "Computer 2") in every language it speaks:
# not players (a name entered at the table is). Journals say so with ``named`` per seat;
# these words recognise the seats of journals and stores written before that. A seat
# nobody named is stored language-neutral, as the English code "Player 1" / "Computer 2"
# (:func:`seat_code`), and worded in the table's language only when shown
# (``display.table.names``); journals and stores written before that hold the name in the
# language of the table that made it ("Игрок 1"), which :func:`default_code` reads back.
PLAYER_WORDS = ("Player", "Pemain", "Игрок", "Jogador")
COMPUTER_WORDS = ("Computer", "Komputer", "Компьютер", "Computador")
DEFAULT_NAME_WORDS = (*PLAYER_WORDS, *COMPUTER_WORDS, "Bot")

MIGRATIONS: tuple[str, ...] = (
    # 1: matches, players, seats, hands with their results
    """
    CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE);
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY, journal_id TEXT NOT NULL UNIQUE, journal_name TEXT NOT NULL,
        game TEXT NOT NULL, started TEXT NOT NULL, finished TEXT NOT NULL,
        actions INTEGER NOT NULL, winner_seat INTEGER, rules_json TEXT NOT NULL);
    CREATE TABLE match_players (
        match_id INTEGER NOT NULL REFERENCES matches(id), seat INTEGER NOT NULL,
        player_id INTEGER NOT NULL REFERENCES players(id), kind TEXT NOT NULL,
        total INTEGER, won INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (match_id, seat));
    CREATE TABLE hands (
        id INTEGER PRIMARY KEY, match_id INTEGER NOT NULL REFERENCES matches(id),
        hand_no INTEGER NOT NULL, first_action INTEGER NOT NULL, last_action INTEGER NOT NULL,
        results_json TEXT NOT NULL, UNIQUE (match_id, hand_no));
    """,
    # 2: the preset name, and every step of every hand for the last-game recall
    """
    ALTER TABLE matches ADD COLUMN preset TEXT NOT NULL DEFAULT '';
    CREATE TABLE hand_steps (
        hand_id INTEGER NOT NULL REFERENCES hands(id), step_no INTEGER NOT NULL,
        action_no INTEGER NOT NULL, seat INTEGER NOT NULL, action_json TEXT NOT NULL,
        events_json TEXT NOT NULL, text TEXT NOT NULL, PRIMARY KEY (hand_id, step_no));
    CREATE INDEX match_players_player ON match_players(player_id);
    """,
    # 3: the outbox: each recorded match waits here for the league server (league.sync)
    """
    CREATE TABLE outbox (
        id INTEGER PRIMARY KEY, match_id INTEGER NOT NULL UNIQUE REFERENCES matches(id),
        match_uid TEXT NOT NULL UNIQUE, payload_json TEXT NOT NULL, created TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0, last_error TEXT NOT NULL DEFAULT '',
        sent TEXT, server_id INTEGER, rejected TEXT);
    CREATE INDEX outbox_unsent ON outbox(id) WHERE sent IS NULL AND rejected IS NULL;
    """,
    # 4: honest records. Why a match ended (a match no rule ended is ``abandoned``: no win,
    # no points), and whether a seat's name was entered at the table (``named``; the default
    # "Player 1" / "Computer 2" of different matches are not one player). Default seat
    # names become unnamed; :func:`_mark_abandoned` then reads each match's archived journal
    # and takes the win from every match that was given up.
    """
    ALTER TABLE matches ADD COLUMN reason TEXT NOT NULL DEFAULT 'finished';
    ALTER TABLE match_players ADD COLUMN named INTEGER NOT NULL DEFAULT 1;
    UPDATE match_players SET named = 0 WHERE player_id IN (SELECT id FROM players WHERE
        """ + " OR ".join(f"name GLOB '{w} [0-9]*'" for w in DEFAULT_NAME_WORDS) + """)
    """,
)
ARCHIVE_DIR = "archive"  # rummy.session.ARCHIVE: the ended journals, beside the database
SCHEMA_VERSION = len(MIGRATIONS)
DB_NAME = "records.sqlite3"  # inside the state directory
FINISHED, ABANDONED = "finished", "abandoned"  # matches.reason


LOCK_TIMEOUT_S = 1.0  # how long a write waits for another program's lock


class StoreError(RuntimeError):
    """The records database cannot be used (names the file and the reason).

    ``kind`` says why, for the table's words: ``damaged``, ``locked``, ``full``,
    ``read_only``, ``newer`` (a newer app's schema) or ``io`` (any other failure).
    """

    def __init__(self, message: str, kind: str = "io") -> None:
        super().__init__(message)
        self.kind = kind


def store_fault(exc: BaseException) -> tuple[str, str]:
    """``(kind, reason)`` for an exception raised under the store (never raises)."""
    if isinstance(exc, StoreError):
        return exc.kind, str(exc)
    text = str(exc)[:200]
    low = text.lower()
    if isinstance(exc, OSError):
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return "full", f"no space left on the device ({exc.strerror})"
        if exc.errno == errno.EROFS:
            return "read_only", f"the file system is read-only ({exc.strerror})"
        return "io", exc.strerror or text
    if isinstance(exc, sqlite3.Error):
        if "locked" in low or "busy" in low:
            return "locked", f"the database is locked by another program ({text})"
        if "full" in low:
            return "full", f"no space left on the device ({text})"
        if "readonly" in low or "read-only" in low:
            return "read_only", f"the database cannot be written ({text})"
        if isinstance(exc, sqlite3.OperationalError) and ("disk i/o" in low or "unable to open" in low):
            return "io", text
        return "damaged", f"the database is damaged ({text})"
    if isinstance(exc, RecursionError | MemoryError):
        return "damaged", f"a stored value is damaged ({type(exc).__name__})"
    if isinstance(exc, ValueError | TypeError | KeyError | IndexError | UnicodeError):
        return "damaged", f"a stored value is damaged ({type(exc).__name__}: {text[:120]})"
    return "io", f"{type(exc).__name__}: {text}"


P = ParamSpec("P")
R = TypeVar("R")


def _guarded(what: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Every failure inside a store method becomes one :class:`StoreError` naming the file."""
    def wrap(fn: Callable[P, R]) -> Callable[P, R]:
        def fail(self: Any, exc: BaseException) -> StoreError:
            kind, reason = store_fault(exc)
            if isinstance(exc, StoreError):
                return exc
            return StoreError(f"{self.path}: cannot {what}: {reason}", kind)

        if inspect.isgeneratorfunction(fn):
            @functools.wraps(fn)
            def gen(*args: P.args, **kwargs: P.kwargs) -> Any:
                try:
                    yield from fn(*args, **kwargs)
                except Exception as exc:  # noqa: BLE001 - the store raises only StoreError
                    raise fail(args[0], exc) from None
            return gen

        @functools.wraps(fn)
        def call(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return fn(*args, **kwargs)
            except Exception as exc:  # noqa: BLE001 - the store raises only StoreError
                raise fail(args[0], exc) from None
        return call
    return wrap


@dataclass(frozen=True)
class Step:
    """One action of a hand and what it caused, for the recall screen."""

    action_no: int
    seat: int
    action: dict[str, Any]
    events: list[dict[str, Any]]
    text: str


@dataclass(frozen=True)
class HandRecord:
    """A recorded hand with its players, results and steps. ``players`` are the stored
    names; ``named[i]`` says whether seat ``i``'s was entered at the table (False: a default
    "Player 1" / "Computer 2", worded in the table's language when shown, ``display.table.names``)
    and ``kinds[i]`` is ``human`` or ``computer``. ``outcome``: on the match's last hand, the
    match's result as the engine gave it when it was recorded (:meth:`Store.record_match`;
    winners, totals, or abandoned); None on its other hands."""

    match_id: int
    game: str
    preset: str
    finished: str
    hand_no: int
    players: list[str]
    results: list[dict[str, Any]]
    steps: list[Step]
    named: tuple[bool, ...] = ()
    kinds: tuple[str, ...] = ()
    outcome: MatchOutcome | None = None


@dataclass(frozen=True)
class LeaderRow:
    """One player in one game's leaderboard. ``played``, ``won`` and ``points`` count the
    matches the rules ended; ``abandoned`` those given up (no win, no points). ``rank`` is
    shared by players equal in wins and points (1, 1, 3).

    A computer seat nobody named is no player across matches: its row is one match's seat
    (``match_id`` that match, ``named`` False, ``name`` the language-neutral code "Computer
    2", ``rank`` 0: not ranked), so "Computer 2" of two matches are two rows."""

    name: str
    played: int
    won: int
    points: int
    game: str = ""
    rank: int = 0
    abandoned: int = 0
    kind: str = "human"
    match_id: int | None = None  # an unnamed computer's match; None: a player of every match
    named: bool = True

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0


_DEFAULT_NAME = re.compile(r"^(?:" + "|".join(DEFAULT_NAME_WORDS) + r") \d+$")
_TABLE_NAME = re.compile(r"^(" + "|".join(PLAYER_WORDS + COMPUTER_WORDS) + r") (\d+)$")


def is_default_name(name: str) -> bool:
    """True for a seat name the table gave ("Player 1", "Komputer 2"), not one entered."""
    return bool(_DEFAULT_NAME.match(name.strip()))


def seat_code(kind: str, seat: int) -> str:
    """The stored name of seat ``seat`` (from 0) when nobody named it: "Player 1" for a
    person, "Computer 2" for a computer player; language-neutral (``display.table.names`` words
    it in the table's language when it is shown)."""
    return f"{'Computer' if kind == 'computer' else 'Player'} {seat + 1}"


def default_code(name: str) -> str | None:
    """The language-neutral code of a default seat name in any of the table's languages
    ("Игрок 2" -> "Player 2", "Computador 3" -> "Computer 3"); None for any other name
    (one entered at the table, or a script's "Bot 1")."""
    m = _TABLE_NAME.match(name.strip())
    if m is None:
        return None
    return f"{'Computer' if m.group(1) in COMPUTER_WORDS else 'Player'} {int(m.group(2))}"


def seat_named(info: Any) -> bool:
    """Whether a journal seat carries a name entered at the table (``named``; journals
    written before the flag: any name that is not a default seat name)."""
    named = info.get("named") if hasattr(info, "get") else None
    if isinstance(named, bool):
        return named
    return not is_default_name(str(info.get("name", "")))


def all_computers(seats: Sequence[Any]) -> bool:
    """A match of computer players only (kept out of the records unless asked for)."""
    return bool(seats) and all(s.get("kind", "human") == "computer" for s in seats)


def _mark_abandoned(db: Any, db_path: Path) -> None:
    """Migration 3, after its SQL: a recorded match whose archived journal ends otherwise
    than "finished" (the operator's "End this match now") was abandoned: no winner, no
    win. Stores before version 3 recorded such matches (``records import``) as won. A
    match whose journal is gone keeps what it has (nothing to tell it by)."""
    archive = db_path.parent / ARCHIVE_DIR
    for mid, name in db.execute("SELECT id, journal_name FROM matches").fetchall():
        path = archive / str(name)
        if not path.is_file():
            continue
        try:
            ended = read_journal(path).ended
        except JournalError:
            continue
        if ended not in (None, FINISHED):
            db.execute("UPDATE matches SET reason = ?, winner_seat = NULL WHERE id = ?",
                       (ABANDONED, mid))
            db.execute("UPDATE match_players SET won = 0 WHERE match_id = ?", (mid,))


# Python steps run after a migration's SQL, in the same transaction (by version reached).
MIGRATION_STEPS: dict[int, Callable[[Any, Path], None]] = {4: _mark_abandoned}


def journal_id(path: str | os.PathLike[str]) -> str:
    """sha256 of a journal's header line: the same match is never recorded twice."""
    with open(path, "rb") as f:
        return hashlib.sha256(f.readline().rstrip(b"\n")).hexdigest()


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def _event_dict(event: Event) -> dict[str, Any]:
    return {"kind": event.kind, "seat": event.seat, "data": _jsonable(dict(event.data))}


def split_hands(steps: Sequence[tuple[Action, list[Event]]]) -> list[list[tuple[int, Action, list[Event]]]]:
    """Steps grouped into hands: each table deal starts a new hand (numbered from 1)."""
    hands: list[list[tuple[int, Action, list[Event]]]] = []
    for n, (action, events) in enumerate(steps, start=1):
        if is_deal(action) or not hands:
            hands.append([])
        hands[-1].append((n, action, events))
    return hands


class Store:
    """The records database. Use as a context manager or call :meth:`close`."""

    outbox: bool = False  # True: each recorded match also goes in the outbox (league.sync)

    def __init__(self, path: str | os.PathLike[str], *, outbox: bool = False,
                 record_bots: bool = False):
        self.path = Path(path)
        self.outbox = outbox
        self.record_bots = record_bots  # record matches of computers only (sims, tests)
        self._db: Any = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=LOCK_TIMEOUT_S)
            self._db.execute("PRAGMA foreign_keys = ON")
            self._db.execute("PRAGMA synchronous = FULL")
            self.version = self._migrate()
            self._probe()
        except Exception as exc:  # noqa: BLE001 - the store raises only StoreError
            if self._db is not None:
                self._db.close()
            kind, reason = store_fault(exc)
            if isinstance(exc, StoreError):
                raise
            if kind == "damaged":
                reason = f"not a usable records database ({exc})"
            raise StoreError(f"{self.path}: cannot open: {reason}", kind) from None

    @classmethod
    def in_state_dir(cls, state_dir: str | os.PathLike[str], *, outbox: bool = False,
                     record_bots: bool = False) -> Store:
        """The records database of a state directory (``<state_dir>/records.sqlite3``)."""
        return cls(Path(state_dir) / DB_NAME, outbox=outbox, record_bots=record_bots)

    def _migrate(self, target: int = SCHEMA_VERSION) -> int:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if not isinstance(version, int) or version < 0:
            raise StoreError(f"{self.path}: schema version {version!r} is not valid; the file is "
                             "damaged or not this app's records", "damaged")
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path}: schema version {version} is newer than this app "
                             f"understands ({SCHEMA_VERSION}); update the app", "newer")
        while version < target:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for statement in MIGRATIONS[version].split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                version += 1
                if version in MIGRATION_STEPS:
                    MIGRATION_STEPS[version](self._db, self.path)
                self._db.execute(f"PRAGMA user_version = {version}")
                self._db.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise
        return version

    def _probe(self) -> None:
        """Read the first and last rows of every table (a few pages, not a full check), so a
        file damaged past its first page is found at start, not at the first finished match."""
        for table in ("players", "matches", "match_players", "hands", "hand_steps"):
            self._db.execute(f"SELECT * FROM {table} LIMIT 1").fetchall()
            self._db.execute(f"SELECT * FROM {table} ORDER BY rowid DESC LIMIT 1").fetchall()

    def _rollback(self) -> None:
        """Undo the open transaction, if SQLite has not already (a full disk rolls back by
        itself): the error that caused it is the one raised, never "no transaction is active"."""
        if self._db is not None and self._db.in_transaction:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error:
                pass

    # -- writing ----------------------------------------------------------------------
    @_guarded("record the match")
    def record_match(self, journal: str | os.PathLike[str] | Journal | Replay) -> int | None:
        """Store an ended match from its journal; returns the match id (idempotent).

        A match the rules did not end (given up, reason ``abandoned``) is stored as
        abandoned: no winner, no points on the leaderboard. A match of computer players
        only is not stored (None) unless the store was opened with ``record_bots``.
        """
        try:
            rep = journal if isinstance(journal, Replay) else replay(
                journal if isinstance(journal, Journal) else read_journal(journal))
        except JournalError as exc:
            raise StoreError(f"cannot record: {exc}") from None
        header, engine = rep.journal.header, rep.engine
        seats = list(header.seats)
        if all_computers(seats) and not self.record_bots:
            return None
        jid = journal_id(rep.journal.path)
        row = self._db.execute("SELECT id FROM matches WHERE journal_id = ?", (jid,)).fetchone()
        if row:
            return int(row[0])
        # The engine says who won (ties share, C-7.4); a journal ended otherwise than
        # "finished" is an abandoned match: no winners.
        outcome = engine.outcome(rep.state, abandoned=rep.journal.ended not in (None, FINISHED))
        won = outcome.reason is OutcomeReason.WON
        totals, winners = outcome.totals, set(outcome.winners) if won else set()
        winner = outcome.winner if won else None  # None: a shared win or none
        finished = datetime.fromtimestamp(Path(rep.journal.path).stat().st_mtime, UTC).isoformat(
            timespec="seconds")  # the last line's write time
        self._db.execute("BEGIN IMMEDIATE")
        try:
            cur = self._db.execute(
                "INSERT INTO matches (journal_id, journal_name, game, started, finished, actions,"
                " winner_seat, rules_json, preset, reason) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (jid, Path(rep.journal.path).name, header.game, header.created or finished,
                 finished, len(rep.steps), winner, json.dumps(dict(header.rules), sort_keys=True),
                 str(dict(header.extra).get("preset") or ""), FINISHED if won else ABANDONED))
            match_id = int(cur.lastrowid or 0)
            for seat, info in enumerate(seats):
                self._db.execute("INSERT OR IGNORE INTO players (name) VALUES (?)", (info["name"],))
                pid = self._db.execute("SELECT id FROM players WHERE name = ?",
                                       (info["name"],)).fetchone()[0]
                self._db.execute(
                    "INSERT INTO match_players (match_id, seat, player_id, kind, total, won, named)"
                    " VALUES (?,?,?,?,?,?,?)",
                    (match_id, seat, pid, info.get("kind", "human"),
                     totals[seat], int(seat in winners), int(seat_named(info))))
            for hand_no, hand in enumerate(split_hands(rep.steps), start=1):
                self._record_hand(engine, match_id, hand_no, hand)
            if self.outbox:
                self._enqueue(match_id, jid, rep)
            self._db.execute("COMMIT")
        except BaseException:
            self._rollback()
            raise
        return match_id

    def _enqueue(self, match_id: int, jid: str, rep: Replay) -> None:
        """Put the match just recorded in the outbox (inside record_match's transaction):
        read back from the rows written, so the league gets what this table recorded."""
        game, preset, started, finished, winner = self._db.execute(
            "SELECT game, preset, started, finished, winner_seat FROM matches WHERE id = ?",
            (match_id,)).fetchone()
        header_seats = list(rep.journal.header.seats)
        seats = []
        for seat, name, kind, total, won in self._db.execute(
                "SELECT mp.seat, p.name, mp.kind, mp.total, mp.won FROM match_players mp"
                " JOIN players p ON p.id = mp.player_id WHERE mp.match_id = ? ORDER BY mp.seat",
                (match_id,)):
            league_id = dict(header_seats[seat]).get("league_id")
            seats.append({"name": name, "kind": kind, "points": total, "won": bool(won),
                          "league_id": league_id if isinstance(league_id, int) else None})
        hands = [json.loads(r[0]) for r in self._db.execute(
            "SELECT results_json FROM hands WHERE match_id = ? ORDER BY hand_no", (match_id,))]
        with open(rep.journal.path, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        payload = {"game": game, "preset": preset, "started": started, "finished": finished,
                   "winner": winner, "reason": rep.journal.ended or "finished", "digest": digest,
                   "seats": seats, "hands": hands}
        self._db.execute(
            "INSERT INTO outbox (match_id, match_uid, payload_json, created) VALUES (?,?,?,?)",
            (match_id, jid, json.dumps(payload, sort_keys=True),
             datetime.now(UTC).isoformat(timespec="seconds")))

    def _record_hand(self, engine: Any, match_id: int, hand_no: int,
                     hand: list[tuple[int, Action, list[Event]]]) -> None:
        results = [_event_dict(e) for _, _, events in hand for e in events
                   if e.kind in engine.result_events]
        cur = self._db.execute(
            "INSERT INTO hands (match_id, hand_no, first_action, last_action, results_json)"
            " VALUES (?,?,?,?,?)",
            (match_id, hand_no, hand[0][0], hand[-1][0], json.dumps(results)))
        hand_id = cur.lastrowid
        rows = []
        for step_no, (n, action, events) in enumerate(hand, start=1):
            texts = [str(action)]
            for event in events:
                try:
                    texts.append(engine.describe(event))
                except Exception:  # noqa: BLE001 - a describe bug must not lose the record
                    texts.append(event.kind)
            rows.append((hand_id, step_no, n, action.seat, json.dumps(action.to_dict()),
                         json.dumps([_event_dict(e) for e in events]), "\n".join(texts)))
        self._db.executemany("INSERT INTO hand_steps VALUES (?,?,?,?,?,?,?)", rows)

    # -- reading ----------------------------------------------------------------------
    def _players(self, match_id: int) -> list[str]:
        return [r[0] for r in self._seats(match_id)]

    def _seats(self, match_id: int) -> list[tuple[str, bool, str]]:
        """``(name, named, kind)`` per seat of a match, in seat order."""
        return [(str(r[0]), bool(r[1]), str(r[2])) for r in self._db.execute(
            "SELECT p.name, mp.named, mp.kind FROM match_players mp"
            " JOIN players p ON p.id = mp.player_id WHERE mp.match_id = ? ORDER BY mp.seat",
            (match_id,))]

    def _outcome(self, match_id: int) -> MatchOutcome:
        """The match's result as recorded: what ``engine.outcome`` said (record_match)."""
        (reason,) = self._db.execute("SELECT reason FROM matches WHERE id = ?", (match_id,)).fetchone()
        rows = self._db.execute("SELECT total, won FROM match_players WHERE match_id = ? ORDER BY seat",
                                (match_id,)).fetchall()
        totals = tuple(int(t or 0) for t, _won in rows)
        if reason != FINISHED:
            return MatchOutcome(OutcomeReason.ABANDONED, totals)
        return MatchOutcome.won(tuple(seat for seat, (_t, won) in enumerate(rows) if won), totals)

    @_guarded("read the last hands")
    def last_hands(self, n: int = 10) -> list[HandRecord]:
        """The ``n`` most recent hands, newest first, each with its steps in order."""
        out = []
        for hid, mid, game, preset, finished, hand_no, results in self._db.execute(
                "SELECT h.id, m.id, m.game, m.preset, m.finished, h.hand_no, h.results_json"
                " FROM hands h JOIN matches m ON m.id = h.match_id"
                " ORDER BY m.id DESC, h.hand_no DESC LIMIT ?", (n,)).fetchall():
            steps = [Step(a, seat, json.loads(aj), json.loads(ej), text) for a, seat, aj, ej, text
                     in self._db.execute("SELECT action_no, seat, action_json, events_json, text"
                                         " FROM hand_steps WHERE hand_id = ? ORDER BY step_no",
                                         (hid,))]
            seats = self._seats(mid)
            (last,) = self._db.execute("SELECT MAX(hand_no) FROM hands WHERE match_id = ?",
                                       (mid,)).fetchone()
            out.append(HandRecord(mid, game, preset, finished, hand_no, [s[0] for s in seats],
                                  json.loads(results), steps, tuple(s[1] for s in seats),
                                  tuple(s[2] for s in seats),
                                  self._outcome(mid) if hand_no == last else None))
        return out

    @_guarded("read the matches")
    def matches(self, limit: int = 50) -> list[dict[str, Any]]:
        """Recent matches, newest first: id, time, game, preset, players, totals, winner,
        reason (``finished`` or ``abandoned``); ``named`` per seat (False: a default seat
        name, :func:`default_code` gives its language-neutral code); ``outcome``, the
        match's :class:`rummy.outcome.MatchOutcome` as recorded (winners, a shared win)."""
        out = []
        for mid, game, preset, finished, actions, winner, reason in self._db.execute(
                "SELECT id, game, preset, finished, actions, winner_seat, reason FROM matches"
                " ORDER BY id DESC LIMIT ?", (limit,)).fetchall():
            rows = self._db.execute(
                "SELECT total, won, named FROM match_players WHERE match_id = ? ORDER BY seat",
                (mid,)).fetchall()
            hands = self._db.execute("SELECT COUNT(*) FROM hands WHERE match_id = ?",
                                     (mid,)).fetchone()[0]
            out.append({"id": mid, "finished": finished, "game": game, "preset": preset,
                        "players": self._players(mid), "totals": [r[0] for r in rows],
                        "winner": winner, "winners": [i for i, r in enumerate(rows) if r[1]],
                        "reason": reason, "hands": hands, "actions": actions,
                        "named": [bool(r[2]) for r in rows], "outcome": self._outcome(mid)})
        return out

    @_guarded("read the leaderboard")
    def leaderboard(self, game: str | None = None, *, humans_only: bool = True) -> list[LeaderRow]:
        """Each game's players by matches won, then points, then fewer matches played.

        Rows are per game (gin match totals and contract scores are never added up): with
        ``game`` None, every game's board one after the other. Only names entered at the
        table count as players (a default "Player 1" is none: not on the board at all);
        ``humans_only`` (default) leaves the computers out. Abandoned matches give no win
        and no points; they are counted in ``abandoned``. Equal wins and points share a rank.

        With ``humans_only`` False a computer seat nobody named is listed per match, after
        the ranked players of its game, oldest match first, unranked (``rank`` 0,
        ``match_id`` its match, ``name`` the code "Computer 2" whatever language the table
        spoke): "Computer 2" of match 3 and "Computer 2" of match 8 are two computers that
        happened to sit in seat 2, not one player whose record adds up (a pub ranks people;
        the house computer's results are worth seeing match by match only).
        """
        where, args = ["mp.named = 1 OR mp.kind = 'computer'"], []
        if game:
            where.append("m.game = ?")
            args.append(game)
        if humans_only:
            where.append("mp.kind = 'human'")
        done = "m.reason = 'finished'"
        # a named seat is a player of every match (grouped by name); an unnamed one is one
        # match's seat (grouped by match and seat: never merged across matches)
        who = "CASE WHEN mp.named = 1 THEN 'p' || p.id ELSE 'm' || mp.match_id || '.' || mp.seat END"
        sql = ("SELECT m.game, p.name, MIN(mp.kind),"
               f" SUM({done}), SUM(CASE WHEN {done} THEN mp.won ELSE 0 END),"
               f" SUM(CASE WHEN {done} THEN COALESCE(mp.total, 0) ELSE 0 END), SUM(NOT {done}),"
               " MAX(mp.named), MIN(mp.match_id), MIN(mp.seat)"
               " FROM match_players mp JOIN players p ON p.id = mp.player_id"
               " JOIN matches m ON m.id = mp.match_id"
               " WHERE " + " AND ".join(f"({w})" for w in where)
               + f" GROUP BY m.game, {who}")
        rows = sorted(self._db.execute(sql, args).fetchall(),
                      key=lambda r: (r[0], 0, -r[4], -r[5], r[3], r[1].casefold(), 0, 0) if r[7]
                      else (r[0], 1, 0, 0, 0, "", r[8], r[9]))
        out: list[LeaderRow] = []
        for g, name, kind, played, won, points, abandoned, named, mid, _seat in rows:
            if not named:  # one match's unnamed computer: not ranked
                out.append(LeaderRow(default_code(name) or name, played, won, points, g, 0,
                                     abandoned, kind, int(mid), False))
                continue
            prev = out[-1] if out else None
            if prev is not None and prev.game == g and (prev.won, prev.points) == (won, points):
                rank = prev.rank
            else:
                rank = 1 + sum(1 for r in out if r.game == g)
            out.append(LeaderRow(name, played, won, points, g, rank, abandoned, kind))
        return out

    CSV_FIELDS = ("match_id", "finished", "game", "preset", "seat", "player", "kind", "total",
                  "won", "hands", "actions", "reason", "named")

    @_guarded("export")
    def export_rows(self) -> Iterable[dict[str, Any]]:
        for row in self._db.execute(
                "SELECT m.id, m.finished, m.game, m.preset, mp.seat, p.name, mp.kind, mp.total,"
                " mp.won, (SELECT COUNT(*) FROM hands h WHERE h.match_id = m.id), m.actions,"
                " m.reason, mp.named"
                " FROM matches m JOIN match_players mp ON mp.match_id = m.id"
                " JOIN players p ON p.id = mp.player_id ORDER BY m.id, mp.seat"):
            yield dict(zip(self.CSV_FIELDS, row, strict=True))

    @_guarded("export")
    def export_csv(self, file: str | os.PathLike[str] | IO[str]) -> int:
        """Write one CSV row per player per match; returns the number of rows."""
        if isinstance(file, str | os.PathLike):
            with open(file, "w", newline="", encoding="utf-8") as f:
                return self.export_csv(f)
        writer = csv.DictWriter(file, fieldnames=self.CSV_FIELDS)
        writer.writeheader()
        n = 0
        for row in self.export_rows():
            writer.writerow(row)
            n += 1
        return n

    def close(self) -> None:
        if self._db is not None:
            try:
                self._db.close()
            except sqlite3.Error:
                pass

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class UnavailableStore(Store):
    """Stands in for a records database that cannot be opened (damaged, locked, read-only).

    Every use raises the opening's :class:`StoreError`, so finished journals stay queued in
    ``current/`` (``MatchSession.finish`` and ``resume`` keep what they cannot record) and
    are recorded once a later start opens the database again. Play goes on meanwhile.
    """

    def __init__(self, path: str | os.PathLike[str], error: StoreError) -> None:
        self.path = Path(path)  # no database is opened
        self._db = None
        self.version = 0
        self.record_bots = False
        self.error = error

    def _fail(self) -> StoreError:
        return StoreError(str(self.error), self.error.kind)

    def record_match(self, journal: Any) -> int | None:
        raise self._fail()

    def last_hands(self, n: int = 10) -> list[HandRecord]:
        raise self._fail()

    def matches(self, limit: int = 50) -> list[dict[str, Any]]:
        raise self._fail()

    def leaderboard(self, game: str | None = None, *, humans_only: bool = True) -> list[LeaderRow]:
        raise self._fail()

    def export_rows(self) -> Iterator[dict[str, Any]]:
        raise self._fail()
