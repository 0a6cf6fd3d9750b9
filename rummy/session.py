"""The live match on the table: journal every action durably, resume after a power cut.

A :class:`MatchSession` owns the journal of the match being played in
``<state_dir>/current/``. Every action is checked by the engine first, then appended and
fsynced, then applied to ``.state``; so after a cut the state is exactly the replay of the
durable journal lines. Finished matches go to ``<state_dir>/archive/`` (and into the records
store); a journal that cannot be read is moved to ``<state_dir>/damaged/``, never deleted.

The headless bot runner used by the kill-and-resume test is its own module:
``python -m rummy.session_runner run --state-dir DIR --seed N`` (:mod:`rummy.session_runner`).
"""

from __future__ import annotations

import contextlib
import enum
import hashlib
import json
import os
import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rummy.actions import TABLE, Action, Event, is_deal
from rummy.cards import Card, shuffled_deck
from rummy.games import AnyEngine, get_engine
from rummy.records import (
    Header,
    JournalError,
    JournalWriteError,
    JournalWriter,
    encode_line,
    fsync_dir,
    replay,
    seat_problem,
    storage_kind,
)
from rummy.store import Store, StoreError

CURRENT, ARCHIVE, DAMAGED = "current", "archive", "damaged"


class SessionError(ValueError):
    """Bad arguments for a session (unknown game, bad seats, bad rules)."""


class StorageError(RuntimeError):
    """A move (or a new match) refused because it could not be journalled durably.

    Nothing was applied. ``kind`` is ``full`` (no space left), ``read_only`` (the state
    cannot be written) or ``io``; ``code`` is ``storage_<kind>`` for the table's words. The
    session stays usable: the same move succeeds once the storage is back.
    """

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.code = f"storage_{kind}"

    @classmethod
    def from_os(cls, exc: OSError, doing: str) -> StorageError:
        return cls(storage_kind(exc), f"cannot {doing}: {exc.strerror or exc}")


def canonical(value: Any) -> Any:
    """A JSON-ready canonical form of a state value (stable across processes)."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if is_dataclass(value) and not isinstance(value, type):
        return {"__": type(value).__name__} | {
            f.name: canonical(getattr(value, f.name)) for f in fields(value)
        }
    if isinstance(value, Mapping):
        items = [(canonical(k), canonical(v)) for k, v in value.items()]
        return {"__map": sorted(items, key=lambda kv: json.dumps(kv[0], sort_keys=True))}
    if isinstance(value, set | frozenset):
        return {"__set": sorted((canonical(v) for v in value), key=json.dumps)}
    if isinstance(value, list | tuple):
        return [canonical(v) for v in value]
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return repr(value)
    return repr(value)


def state_digest(state: Any) -> str:
    """sha256 hex of the canonical form of a game state."""
    body = json.dumps(canonical(state), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(body.encode()).hexdigest()


def check_seats(seats: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Validated copies of seat dicts ``{"name", "kind": human|computer, "bot"}``
    (:func:`rummy.records.seat_problem`: the journal header is read with the same check)."""
    if not isinstance(seats, Sequence) or isinstance(seats, str) or not seats:
        raise SessionError("seats must be a non-empty list of {'name', 'kind'} entries")
    out = []
    for i, seat in enumerate(seats):
        problem = seat_problem(i, seat)
        if problem:
            raise SessionError(problem)
        out.append({**seat, "name": seat["name"].strip(), "kind": seat.get("kind", "human")})
    return out


@dataclass
class ResumeResult:
    """What :meth:`MatchSession.resume` found and did, in typed fields (``messages`` is the
    same in English for the log)."""

    session: MatchSession | None
    messages: list[str] = field(default_factory=list)
    finished: list[Path] = field(default_factory=list)  # finished journals archived
    damaged: list[Path] = field(default_factory=list)  # journals moved aside to damaged/
    salvaged: list[Path] = field(default_factory=list)  # new journals of the intact lines
    salvaged_actions: int = 0  # actions kept from damaged journals
    torn_lines: int = 0  # torn or damaged last lines dropped
    older_unfinished: int = 0  # older unfinished matches moved aside (also in ``damaged``)
    queued: list[Path] = field(default_factory=list)  # finished, kept in current/, not recorded yet
    record_error: StoreError | None = None  # why ``queued`` could not be recorded
    unreadable: list[Path] = field(default_factory=list)  # left in current/: engine refused or not movable
    storage_error: StorageError | None = None  # a write to the state directory failed

    @property
    def resumed(self) -> bool:
        return self.session is not None

    def storage_failed(self, exc: OSError, doing: str, message: str) -> None:
        """A write to the state directory failed while ``doing``: keep why, say ``message``."""
        self.storage_error = StorageError.from_os(exc, doing)
        self.messages.append(message)

    @property
    def actions_resumed(self) -> int:
        return self.session.actions_applied if self.session is not None else 0


def _move(path: Path, folder: Path) -> Path:
    """Move ``path`` into ``folder`` (never overwriting), durably."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / path.name
    n = 1
    while target.exists():
        target = folder / f"{path.stem}.{n}{path.suffix}"
        n += 1
    os.replace(path, target)
    fsync_dir(folder)
    fsync_dir(path.parent)
    return target


def _salvage(damaged: Path, bad_line: int, current: Path) -> Path | None:
    """Copy the intact lines before ``bad_line`` of a damaged journal into ``current``."""
    if bad_line <= 1:
        return None
    lines = damaged.read_bytes().split(b"\n")[: bad_line - 1]
    target = current / f"{damaged.stem}-salvaged{damaged.suffix}"
    n = 1
    while target.exists():
        target = current / f"{damaged.stem}-salvaged{n}{damaged.suffix}"
        n += 1
    tmp = target.with_suffix(".tmp")
    with open(tmp, "wb") as f:
        f.write(b"\n".join(lines) + b"\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, target)
    fsync_dir(current)
    return target


def _create_journal(path: Path, header: Header, *, fsync: bool) -> JournalWriter:
    """A new journal that appears atomically with its header (a cut leaves none or all)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        raise FileExistsError(f"journal {path} already exists")
    tmp = path.with_name(path.name + ".new")
    try:
        with open(tmp, "wb", buffering=0) as f:
            f.write(encode_line(header.to_dict()).encode())
            if fsync:
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    if fsync:
        fsync_dir(path.parent)
    return JournalWriter(path, next_n=1, fsync=fsync)


class MatchSession:
    """One match in progress, journalled durably. Create with :meth:`start` or :meth:`resume`."""

    def __init__(
        self,
        state_dir: Path,
        engine: AnyEngine,
        header: Header,
        state: Any,
        writer: JournalWriter,
        *,
        actions_applied: int,
        deals: int,
    ) -> None:
        self.state_dir = state_dir
        self.engine = engine
        self.header = header
        self.state = state
        self._writer: JournalWriter | None = writer
        self.journal_path = writer.path
        self.actions_applied = actions_applied
        self._deals = deals
        self.archived_path: Path | None = None
        self.record_error: str | None = None  # why finish() could not record the match

    # -- creation ---------------------------------------------------------------------
    @classmethod
    def start(
        cls,
        state_dir: str | os.PathLike[str],
        game: str,
        rules: Mapping[str, Any],
        seats: Sequence[Mapping[str, Any]],
        *,
        seed: int | None = None,
        preset: str | None = None,
        first_dealer: int = 0,
        fsync: bool = True,
        cards: str | None = None,
    ) -> MatchSession:
        """Begin a new match and its journal in ``<state_dir>/current/``. ``cards``: how the
        table plays it (``real`` from the shoe, ``virtual`` on the screen), kept in the
        header so that a table resumes only a match of its own kind."""
        try:
            engine = get_engine(game)
        except (ValueError, ImportError) as exc:
            raise SessionError(str(exc)) from None
        seat_list = check_seats(seats)
        try:
            rules_obj = engine.rules_from_dict(dict(rules))
            state = engine.new_match(rules_obj, len(seat_list), first_dealer=first_dealer)
        except (ValueError, TypeError) as exc:
            raise SessionError(f"{game} rules: {exc}") from None
        now = datetime.now(UTC)
        header = Header(
            game=game,
            rules=engine.rules_to_dict(rules_obj),
            seats=seat_list,
            seed=seed,
            first_dealer=first_dealer,
            created=now.isoformat(timespec="seconds"),
            extra={**({"preset": preset} if preset else {}), **({"cards": cards} if cards else {})},
        )
        current = Path(state_dir) / CURRENT
        path = current / f"{now.strftime('%Y%m%dT%H%M%S%fZ')}-{game}.jsonl"
        try:
            writer = _create_journal(path, header, fsync=fsync)
        except OSError as exc:  # a full or read-only state: no match that cannot be journalled
            raise StorageError.from_os(exc, "start a journal") from None
        return cls(Path(state_dir), engine, header, state, writer, actions_applied=0, deals=0)

    @classmethod
    def resume(
        cls,
        state_dir: str | os.PathLike[str],
        *,
        store: Store | None = None,
        fsync: bool = True,
    ) -> ResumeResult:
        """Find the unfinished match in ``<state_dir>/current/`` and rebuild its state.

        A torn last line is dropped and reported. A journal that cannot be replayed is moved
        to ``damaged/`` (never deleted) and the intact lines before the damage are salvaged
        into a new journal, so the hands played before it are not lost. Finished journals
        left in ``current/`` (a cut between the end line and the move) are recorded into
        ``store`` when given and archived.
        """
        root = Path(state_dir)
        current = root / CURRENT
        result = ResumeResult(None)
        if not current.is_dir():
            return result
        for stale in current.glob("*.jsonl.new"):  # a cut while creating: header only, no play
            with contextlib.suppress(OSError):
                stale.unlink()
        candidates: list[tuple[Path, Any]] = []
        pending = sorted(current.glob("*.jsonl"))
        for _ in range(len(pending) * 8 + 8):  # bounded: each salvage shortens a journal
            if not pending:
                break
            path = pending.pop(0)
            try:
                rep = replay(path)
            except JournalError as exc:
                try:
                    moved = _move(path, root / DAMAGED)
                except OSError as move_exc:
                    result.unreadable.append(path)
                    result.storage_failed(move_exc, "move a damaged journal",
                                          f"journal {path.name} is unreadable ({exc.reason}) "
                                          f"and could not be moved aside: {move_exc}")
                    continue
                result.damaged.append(moved)
                msg = (f"journal {path.name} is damaged at line {exc.line} ({exc.reason}); "
                       f"moved to {DAMAGED}/{moved.name}")
                try:
                    salvaged = _salvage(moved, exc.line, current)
                except OSError as salvage_exc:
                    salvaged = None
                    result.storage_error = StorageError.from_os(salvage_exc, "salvage a journal")
                    msg += f"; its intact lines could not be copied ({salvage_exc}), kept there"
                if salvaged is not None:
                    msg += f"; the {exc.line - 2} action(s) before it were kept"
                    result.salvaged.append(salvaged)
                    result.salvaged_actions += max(0, exc.line - 2)
                    pending.insert(0, salvaged)
                result.messages.append(msg)
                continue
            except Exception as exc:  # noqa: BLE001 - an engine bug must not crash-loop the table
                result.unreadable.append(path)
                result.messages.append(f"journal {path.name} could not be replayed "
                                       f"({type(exc).__name__}: {str(exc)[:200]}); left in "
                                       f"{CURRENT}/ to resume after a software update")
                continue
            result.torn_lines += int(rep.journal.torn_tail)
            for warning in rep.journal.warnings:
                result.messages.append(f"journal {path.name}: {warning}")
            if rep.journal.ended is not None or rep.engine.is_over(rep.state):
                try:
                    result.finished.append(cls._archive_finished(root, path, rep, store, fsync))
                except StoreError as exc:
                    result.queued.append(path)
                    result.record_error = exc
                    result.messages.append(f"journal {path.name}: finished match kept in "
                                           f"{CURRENT}/, not recorded: {exc}")
                except OSError as exc:
                    result.queued.append(path)
                    result.storage_failed(exc, "archive a finished match",
                                          f"journal {path.name}: finished match kept in "
                                          f"{CURRENT}/, not archived: {exc}")
                continue
            candidates.append((path, rep))
        if not candidates:
            return result
        *older, (path, rep) = candidates
        for old_path, _ in older:
            try:
                moved = _move(old_path, root / DAMAGED)
            except OSError as exc:
                result.storage_failed(exc, "move an older match aside",
                                      f"journal {old_path.name}: an older unfinished match "
                                      f"could not be moved aside ({exc}); left in {CURRENT}/")
                continue
            result.damaged.append(moved)
            result.older_unfinished += 1
            result.messages.append(f"journal {old_path.name}: an older unfinished match was "
                                   f"moved to {DAMAGED}/{moved.name}")
        writer = JournalWriter.append_to(path, fsync=fsync)  # opens later if it cannot now
        deals = sum(1 for a in rep.journal.actions if is_deal(a))
        result.session = cls(root, rep.engine, rep.journal.header, rep.state, writer,
                             actions_applied=len(rep.journal.actions), deals=deals)
        return result

    @classmethod
    def archive_queued(cls, state_dir: str | os.PathLike[str], store: Store | None, *,
                       fsync: bool = True, live: Path | None = None) -> int:
        """Record and archive the finished journals queued in ``current/`` (kept there when
        the store or the disk failed at their finish), leaving the live match's alone.
        Returns how many were archived; what still fails stays queued."""
        current = Path(state_dir) / CURRENT
        done = 0
        for path in sorted(current.glob("*.jsonl")) if current.is_dir() else []:
            if live is not None and path == live:
                continue
            try:
                rep = replay(path)
                if rep.journal.ended is None and not rep.engine.is_over(rep.state):
                    continue
                cls._archive_finished(Path(state_dir), path, rep, store, fsync)
            except Exception:  # noqa: BLE001 - stays queued; resume() reports it
                continue
            done += 1
        return done

    @staticmethod
    def _archive_finished(root: Path, path: Path, rep: Any, store: Store | None,
                          fsync: bool) -> Path:
        if rep.journal.ended is None:
            with JournalWriter.append_to(path, fsync=fsync) as writer:
                writer.end("finished")
        if store is not None:
            store.record_match(rep)
        return _move(path, root / ARCHIVE)

    # -- playing ----------------------------------------------------------------------
    @property
    def seed(self) -> int | str | None:
        return self.header.seed

    @property
    def cards(self) -> str | None:
        """``real`` or ``virtual`` (the header's word; a match with a computer seat is
        virtual), None for a journal that does not say."""
        said = self.header.extra.get("cards")
        if said in ("real", "virtual"):
            return str(said)
        return "virtual" if any(s.get("kind") == "computer" for s in self.header.seats) else None

    @property
    def seats(self) -> list[dict[str, Any]]:
        return [dict(s) for s in self.header.seats]

    @property
    def is_open(self) -> bool:
        """True until :meth:`finish` or :meth:`close` (the journal accepts actions)."""
        return self._writer is not None

    @property
    def is_over(self) -> bool:
        return bool(self.engine.is_over(self.state))

    def _require_open(self) -> JournalWriter:
        if self._writer is None:
            raise SessionError("the match is finished; start a new one")
        return self._writer

    def apply(self, action: Action) -> list[Event]:
        """Check with the engine (``ActionError``: nothing written), journal, then update."""
        writer = self._require_open()
        new_state, events = self.engine.apply(self.state, action)
        try:
            writer.append(action)
        except JournalWriteError as exc:
            # Disk full, read-only or I/O error: nothing of the line stays in the journal and
            # nothing is applied; the writer retries on the next move.
            raise StorageError(exc.kind, f"cannot journal the move: {exc.strerror}") from None
        self.state = new_state
        self.actions_applied += 1
        if is_deal(action):
            self._deals += 1
        return events

    def deal_action(self) -> Action | None:
        """The pending deal (a shuffled deck order), or None when no deal is pending."""
        decks = self.engine.decks_to_deal(self.state)
        if not decks:
            return None
        if self.seed is None:
            rng: random.Random = secrets.SystemRandom()
        else:
            rng = random.Random(f"{self.seed}:{self._deals + 1}")
        return Action("deal", TABLE, cards=tuple(shuffled_deck(rng, decks)))

    def deal_if_needed(self) -> list[Event]:
        """Apply the pending deal; ``[]`` when none is pending."""
        action = self.deal_action()
        return [] if action is None else self.apply(action)

    def digest(self) -> str:
        """sha256 hex of the canonical state (printed on resume, compared by tests)."""
        return state_digest(self.state)

    def finish(self, store: Store | None = None, *, reason: str = "finished") -> Path:
        """End the match: write the end line, record it, move the journal to ``archive/``.

        ``reason`` other than ``"finished"`` (e.g. ``"abandoned"`` from the operator menu)
        ends a match that is not over; the store records it as abandoned (no win, no
        points; a match of computers only is recorded only by a ``record_bots`` store). When the
        store fails, the ended journal stays in ``current/`` (``.record_error`` says why) and
        the next :meth:`resume` with a store records and archives it.
        """
        writer = self._require_open()
        if reason == "finished" and not self.is_over:
            raise SessionError("the match is not over yet")
        try:
            writer.end(reason)
        except JournalWriteError as exc:  # the session stays open: finish() again later
            raise StorageError(exc.kind, f"cannot end the journal: {exc.strerror}") from None
        writer.close()
        self._writer = None
        if store is not None:
            try:
                store.record_match(self.journal_path)
            except StoreError as exc:
                # Keep the ended journal in current/ (queued): the next resume() records it.
                self.record_error = str(exc)
                return self.journal_path
        try:
            self.archived_path = _move(self.journal_path, self.state_dir / ARCHIVE)
        except OSError as exc:  # recorded (idempotent) and archived by the next resume()
            self.record_error = f"cannot archive: {exc.strerror or exc}"
            return self.journal_path
        return self.archived_path

    def close(self) -> None:
        """Close the journal file (the match stays resumable)."""
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    def __enter__(self) -> MatchSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
