"""Game records: an append-only JSON Lines journal per match, and replay from it.

Format (documented in ``docs/journal.md``)::

    {"type": "header", "format": 1, "game": "gin", "rules": {...}, "seats": [...],
     "seed": 123, "first_dealer": 0, "created": "2026-11-29T16:00:00+00:00", "crc": "..."}
    {"type": "action", "n": 1, "t": 1764432000.1, "kind": "deal", "seat": -1, "cards": "...", "crc": "..."}
    ...
    {"type": "end", "n": 57, "reason": "finished", "crc": "..."}

Every line carries ``crc``: CRC-32 (hex) of the line's canonical JSON without ``crc``.
Each line is flushed and fsynced as it is written, so a power cut loses at most the line
being written; a torn last line is dropped and reported, a corrupt or illegal line before
it is refused with its line number and the reason.
"""

from __future__ import annotations

import json
import os
import time
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rummy.actions import Action, ActionError, Event
from rummy.games import GameEngine, get_engine

FORMAT = 1


class JournalError(ValueError):
    """A journal that cannot be replayed; ``line`` is 1-based (0: the file as a whole)."""

    def __init__(self, line: int, reason: str, path: str | os.PathLike[str] | None = None):
        self.line = line
        self.reason = reason
        self.path = str(path) if path is not None else None
        where = f"{self.path}: " if self.path else ""
        super().__init__(f"{where}line {line}: {reason}" if line else f"{where}{reason}")


@dataclass(frozen=True)
class Header:
    """The first line of a journal: which game, which rules, who sits where, the seed."""

    game: str
    rules: Mapping[str, Any]
    seats: Sequence[Mapping[str, Any]]
    seed: int | str | None = None
    first_dealer: int = 0
    created: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        d = {
            "type": "header",
            "format": FORMAT,
            "game": self.game,
            "rules": dict(self.rules),
            "seats": [dict(s) for s in self.seats],
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "created": self.created or datetime.now(UTC).isoformat(timespec="seconds"),
        }
        if self.extra:
            d["extra"] = dict(self.extra)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Header:
        if d.get("type") != "header":
            raise ValueError("the first line is not a header")
        if d.get("format") != FORMAT:
            raise ValueError(f"journal format {d.get('format')!r} is not supported (expected {FORMAT})")
        for key, typ in (("game", str), ("rules", dict), ("seats", list)):
            if not isinstance(d.get(key), typ):
                raise ValueError(f"header field {key!r} is missing or not a {typ.__name__}")
        return cls(
            game=d["game"],
            rules=d["rules"],
            seats=d["seats"],
            seed=d.get("seed"),
            first_dealer=int(d.get("first_dealer", 0)),
            created=str(d.get("created", "")),
            extra=d.get("extra", {}),
        )


def _crc(obj: Mapping[str, Any]) -> str:
    body = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return f"{zlib.crc32(body.encode()):08x}"


def encode_line(obj: Mapping[str, Any]) -> str:
    """One journal line (with its CRC and the trailing newline)."""
    d = {k: v for k, v in obj.items() if k != "crc"}
    d["crc"] = _crc(d)
    return json.dumps(d, ensure_ascii=False, separators=(",", ":")) + "\n"


def decode_line(text: str) -> dict[str, Any]:
    """Parse and check one line; ``ValueError`` with a reason otherwise."""
    try:
        d = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc.msg})") from None
    if not isinstance(d, dict):
        raise ValueError("not a JSON object")
    crc = d.pop("crc", None)
    if crc is None:
        raise ValueError("no checksum")
    if crc != _crc(d):
        raise ValueError("checksum mismatch (the line was altered or damaged)")
    return d


class JournalWriter:
    """Appends lines to a journal, fsyncing each one. Use as a context manager.

    ``JournalWriter.create(path, header)`` starts a new journal;
    ``JournalWriter.append_to(path)`` continues one after a restart (it cuts a torn tail).
    """

    def __init__(self, path: str | os.PathLike[str], *, next_n: int, fsync: bool = True):
        self.path = Path(path)
        self.fsync = fsync
        self._n = next_n
        self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115

    @classmethod
    def create(cls, path: str | os.PathLike[str], header: Header, *, fsync: bool = True) -> JournalWriter:
        path = Path(path)
        if path.exists():
            raise FileExistsError(f"journal {path} already exists")
        path.parent.mkdir(parents=True, exist_ok=True)
        writer = cls(path, next_n=1, fsync=fsync)
        writer._write(header.to_dict())
        if fsync:
            fsync_dir(path.parent)
        return writer

    @classmethod
    def append_to(cls, path: str | os.PathLike[str], *, fsync: bool = True) -> JournalWriter:
        """Reopen after a restart; a torn last line is cut off so new lines start clean."""
        journal = read_journal(path)
        if journal.torn_tail:
            with open(path, "r+b") as f:
                f.truncate(journal.good_bytes)
        return cls(path, next_n=len(journal.actions) + 1, fsync=fsync)

    def _write(self, obj: Mapping[str, Any]) -> None:
        self._file.write(encode_line(obj))
        self._file.flush()
        if self.fsync:
            os.fsync(self._file.fileno())

    def append(self, action: Action) -> None:
        self._write({"type": "action", "n": self._n, "t": round(time.time(), 3), **action.to_dict()})
        self._n += 1

    def end(self, reason: str = "finished") -> None:
        self._write({"type": "end", "n": self._n, "reason": reason})

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()

    def __enter__(self) -> JournalWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def fsync_dir(path: Path) -> None:
    """Make a directory entry durable (a new or renamed file in it); errors are ignored."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@dataclass
class Journal:
    """A journal as read from disk."""

    path: str
    header: Header
    actions: list[Action]
    ended: str | None = None  # the end reason, or None for an unfinished match
    torn_tail: bool = False  # the last line was incomplete and was dropped
    good_bytes: int = 0  # length of the intact prefix
    warnings: list[str] = field(default_factory=list)


def read_journal(path: str | os.PathLike[str]) -> Journal:
    """Read and check a journal without replaying it.

    A last line that is incomplete (no newline, or unparseable and last) is a torn write:
    it is dropped and reported in ``warnings``. Any other bad line raises
    :class:`JournalError` with its line number.
    """
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise JournalError(0, f"cannot read journal: {exc.strerror or exc}", path) from None
    lines = raw.split(b"\n")
    complete, tail = lines[:-1], lines[-1]
    warnings: list[str] = []
    torn = False
    good = len(raw) - len(tail)
    if tail.strip():
        torn = True
        warnings.append(f"line {len(complete) + 1}: incomplete last line dropped (torn write, {len(tail)} bytes)")
    if not complete:
        raise JournalError(1, "the journal has no header", path)
    objs: list[dict[str, Any]] = []
    for i, line in enumerate(complete, start=1):
        try:
            objs.append(decode_line(line.decode("utf-8")))
        except (ValueError, UnicodeDecodeError) as exc:
            if i == len(complete) and not torn:
                # A damaged final line written just before a cut: same as a torn tail.
                torn = True
                good -= len(line) + 1
                warnings.append(f"line {i}: damaged last line dropped ({exc})")
                break
            raise JournalError(i, str(exc), path) from None
    if not objs:
        raise JournalError(1, "the journal has no header", path)
    try:
        header = Header.from_dict(objs[0])
    except (ValueError, TypeError) as exc:
        raise JournalError(1, str(exc), path) from None
    actions: list[Action] = []
    ended = None
    for i, obj in enumerate(objs[1:], start=2):
        if ended is not None:
            raise JournalError(i, "line after the end of the match", path)
        typ = obj.get("type")
        if typ == "end":
            ended = str(obj.get("reason", "finished"))
            continue
        if typ != "action":
            raise JournalError(i, f"unknown line type {typ!r}", path)
        if obj.get("n") != len(actions) + 1:
            raise JournalError(i, f"action number {obj.get('n')!r}, expected {len(actions) + 1}", path)
        try:
            actions.append(Action.from_dict(obj))
        except ActionError as exc:
            raise JournalError(i, str(exc), path) from None
    return Journal(str(path), header, actions, ended, torn, good, warnings)


@dataclass
class Replay:
    """The result of replaying a journal: the exact state, and events per action."""

    journal: Journal
    engine: GameEngine
    state: Any
    steps: list[tuple[Action, list[Event]]]


def replay(source: str | os.PathLike[str] | Journal) -> Replay:
    """Rebuild the exact state from a journal; an illegal action is refused with its line."""
    journal = source if isinstance(source, Journal) else read_journal(source)
    h = journal.header
    try:
        engine = get_engine(h.game)
        rules = engine.rules_from_dict(h.rules)
        state = engine.new_match(rules, len(h.seats), first_dealer=h.first_dealer)
    except (ValueError, TypeError) as exc:
        raise JournalError(1, str(exc), journal.path) from None
    steps: list[tuple[Action, list[Event]]] = []
    for i, action in enumerate(journal.actions, start=2):
        try:
            state, events = engine.apply(state, action)
        except (ActionError, ValueError) as exc:
            raise JournalError(i, f"illegal action '{action}': {exc}", journal.path) from None
        steps.append((action, events))
    return Replay(journal, engine, state, steps)
