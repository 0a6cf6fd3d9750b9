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

import errno
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
from rummy.games import AnyEngine, get_engine

FORMAT = 1
MAX_LINE_BYTES = 64 * 1024  # a contract deal line is ~330 bytes, a header ~3 KB
MAX_DEPTH = 16  # JSON nesting: a header's rules are 3 deep, an action's melds 2
MAX_REASON = 240  # characters of a refusal; values in it are quoted as short excerpts
EXCERPT = 40


def excerpt(value: Any, limit: int = EXCERPT) -> str:
    """``repr(value)`` cut to ``limit`` characters (a 1 MB line is never quoted whole)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


SEAT_KINDS = ("human", "computer")


def seat_problem(i: int, seat: Any) -> str | None:
    """What is wrong with seat ``i`` of a match (``{name, kind: human|computer, bot}``), or
    None: the same check when a match starts and when its journal header is read."""
    if not isinstance(seat, Mapping):
        return f"seat {i}: expected a table like {{name, kind}}, got {excerpt(seat)}"
    name, kind = seat.get("name"), seat.get("kind", "human")
    if not isinstance(name, str) or not name.strip():
        return f"seat {i}: 'name' must be non-empty text, got {excerpt(name)}"
    if kind not in SEAT_KINDS:
        return f"seat {i}: 'kind' must be human or computer, got {excerpt(kind)}"
    if not isinstance(seat.get("bot", ""), str):
        return f"seat {i}: 'bot' must be text, got {excerpt(seat.get('bot'))}"
    return None


def _short(text: str, limit: int = MAX_REASON) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class JournalError(ValueError):
    """A journal that cannot be replayed; ``line`` is 1-based (0: the file as a whole)."""

    def __init__(self, line: int, reason: str, path: str | os.PathLike[str] | None = None):
        self.line = line
        reason = _short(reason)
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
        """Check every field (``ValueError`` naming the first bad one) and build the header."""
        if d.get("type") != "header":
            raise ValueError("the first line is not a header")
        if d.get("format") != FORMAT or isinstance(d.get("format"), bool):
            raise ValueError(f"journal format {excerpt(d.get('format'))} is not supported "
                             f"(expected {FORMAT})")
        for key, typ in (("game", str), ("rules", dict), ("seats", list)):
            if not isinstance(d.get(key), typ):
                raise ValueError(f"header field {key!r} is missing or not a {typ.__name__}")
        unknown = set(d) - {"type", "format", "game", "rules", "seats", "seed", "first_dealer",
                            "created", "extra"}
        if unknown:
            raise ValueError(f"unknown header field(s) {excerpt(sorted(unknown))}")
        seats = d["seats"]
        if not seats:
            raise ValueError("header field 'seats' is empty")
        for i, seat in enumerate(seats):
            problem = seat_problem(i, seat)
            if problem:
                raise ValueError(problem)
        seed = d.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | str)):
            raise ValueError(f"header field 'seed' must be an integer, text or null, got {excerpt(seed)}")
        first_dealer = d.get("first_dealer", 0)
        if isinstance(first_dealer, bool) or not isinstance(first_dealer, int):
            raise ValueError(f"header field 'first_dealer' must be a seat number, got {excerpt(first_dealer)}")
        if not 0 <= first_dealer < len(seats):
            raise ValueError(f"header field 'first_dealer' is {first_dealer}, not a seat "
                             f"(0..{len(seats) - 1})")
        created = d.get("created", "")
        if not isinstance(created, str):
            raise ValueError(f"header field 'created' must be text, got {excerpt(created)}")
        extra = d.get("extra", {})
        if not isinstance(extra, dict):
            raise ValueError(f"header field 'extra' must be a table, got {excerpt(extra)}")
        return cls(game=d["game"], rules=d["rules"], seats=seats, seed=seed,
                   first_dealer=first_dealer, created=created, extra=extra)


def _crc(obj: Mapping[str, Any]) -> str:
    body = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return f"{zlib.crc32(body.encode()):08x}"


def encode_line(obj: Mapping[str, Any]) -> str:
    """One journal line (with its CRC and the trailing newline)."""
    d = {k: v for k, v in obj.items() if k != "crc"}
    d["crc"] = _crc(d)
    return json.dumps(d, ensure_ascii=False, separators=(",", ":")) + "\n"


def json_depth(text: str) -> int:
    """The deepest nesting of ``[`` / ``{`` in JSON text (brackets inside strings ignored)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return text.count("[") + text.count("{")
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def decode_line(text: str) -> dict[str, Any]:
    """Parse and check one line; ``ValueError`` with a reason otherwise.

    Bounded: a line longer than :data:`MAX_LINE_BYTES` or nested deeper than
    :data:`MAX_DEPTH` is refused before it is parsed.
    """
    if len(text) > MAX_LINE_BYTES:
        raise ValueError(f"line too long ({len(text)} characters, at most {MAX_LINE_BYTES})")
    if json_depth(text) > MAX_DEPTH:
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
    try:
        d = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    except (RecursionError, ValueError) as exc:  # belt and braces: never escapes the reader
        raise ValueError(f"not valid JSON ({type(exc).__name__})") from None
    if not isinstance(d, dict):
        raise ValueError("not a JSON object")
    crc = d.pop("crc", None)
    if crc is None:
        raise ValueError("no checksum")
    if crc != _crc(d):
        raise ValueError("checksum mismatch (the line was altered or damaged)")
    return d


class JournalWriteError(OSError):
    """A line could not be made durable (disk full, read-only, I/O error).

    Nothing of the line is left in the journal (a partial write is cut off again, or, when
    even that fails, before the next write), so the writer stays usable: the next write
    retries and succeeds once space is back. ``kind`` is ``full``, ``read_only`` or ``io``.
    """

    def __init__(self, cause: OSError, path: Path) -> None:
        super().__init__(cause.errno, cause.strerror or str(cause), str(path))
        self.kind = storage_kind(cause)


def storage_kind(exc: BaseException) -> str:
    """``full``, ``read_only`` or ``io`` for an error writing the state directory."""
    number = getattr(exc, "errno", None)
    if number in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return "full"
    if number in (errno.EROFS, errno.EACCES, errno.EPERM):
        return "read_only"
    return "io"


class JournalWriter:
    """Appends lines to a journal, fsyncing each one. Use as a context manager.

    ``JournalWriter.create(path, header)`` starts a new journal;
    ``JournalWriter.append_to(path)`` continues one after a restart (it cuts a torn tail).
    Each line goes straight to the file (no buffer that a failed write could leave half
    full); a failed write raises :class:`JournalWriteError` and leaves the journal as it
    was, the next write tries again, and :meth:`close` never raises.
    """

    def __init__(self, path: str | os.PathLike[str], *, next_n: int, fsync: bool = True,
                 size: int | None = None):
        self.path = Path(path)
        self.fsync = fsync
        self._n = next_n
        self._size = size  # the journal's intact length; None: the file's length at the first write
        self._closed = False

    @property
    def next_n(self) -> int:
        return self._n

    @classmethod
    def create(cls, path: str | os.PathLike[str], header: Header, *, fsync: bool = True) -> JournalWriter:
        path = Path(path)
        if path.exists():
            raise FileExistsError(f"journal {path} already exists")
        path.parent.mkdir(parents=True, exist_ok=True)
        writer = cls(path, next_n=1, fsync=fsync, size=0)
        writer._write(header.to_dict())
        if fsync:
            fsync_dir(path.parent)
        return writer

    @classmethod
    def append_to(cls, path: str | os.PathLike[str], *, fsync: bool = True) -> JournalWriter:
        """Reopen after a restart; a torn last line is cut off so new lines start clean
        (now, or before the first write when the state cannot be written yet)."""
        journal = read_journal(path)
        writer = cls(path, next_n=len(journal.actions) + 1, fsync=fsync, size=journal.good_bytes)
        if journal.torn_tail:
            try:
                os.truncate(path, journal.good_bytes)
            except OSError:
                pass
        return writer

    def _write(self, obj: Mapping[str, Any]) -> None:
        """One line, durably. The file is opened for each line (an fsync costs far more), so
        no descriptor is held open between moves: the state can be remounted read-only and
        back while a match waits, and nothing half-written can linger in a buffer."""
        if self._closed:
            raise ValueError(f"journal {self.path} is closed")
        data = encode_line(obj).encode()
        fd: int | None = None
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o640)
            size = os.fstat(fd).st_size
            if self._size is None:
                self._size = size
            elif size != self._size:  # a line cut short by an earlier failure, or a torn tail
                os.ftruncate(fd, self._size)
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            if self.fsync:
                os.fsync(fd)
        except OSError as exc:
            if fd is not None and self._size is not None:
                try:
                    os.ftruncate(fd, self._size)
                except OSError:
                    pass  # cut again before the next write
            raise JournalWriteError(exc, self.path) from exc
        finally:
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._size = (self._size or 0) + len(data)

    def append(self, action: Action) -> None:
        self._write({"type": "action", "n": self._n, "t": round(time.time(), 3), **action.to_dict()})
        self._n += 1

    def end(self, reason: str = "finished") -> None:
        self._write({"type": "end", "n": self._n, "reason": reason})

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """No more lines; never raises (no file is held open, nothing is buffered)."""
        self._closed = True

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
            if len(line) > MAX_LINE_BYTES:
                raise ValueError(f"line too long ({len(line)} bytes, at most {MAX_LINE_BYTES})")
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
    end_line = 0
    for i, obj in enumerate(objs[1:], start=2):
        if ended is not None:
            # An end line with more after it is damage, not an end: the match goes on
            # from the actions before it (salvage keeps only those).
            raise JournalError(end_line, f"an end line in the middle of the journal "
                               f"(line {i} follows it)", path)
        typ = obj.get("type")
        if typ == "end":
            reason = obj.get("reason", "finished")
            if not isinstance(reason, str) or not reason or len(reason) > 40:
                raise JournalError(i, f"end reason must be short text, got {excerpt(reason)}", path)
            if obj.get("n") != len(actions) + 1 or isinstance(obj.get("n"), bool):
                raise JournalError(i, f"end line number {excerpt(obj.get('n'))}, expected "
                                   f"{len(actions) + 1}", path)
            unknown = set(obj) - {"type", "n", "reason"}
            if unknown:
                raise JournalError(i, f"unknown end field(s) {excerpt(sorted(unknown))}", path)
            ended, end_line = reason, i
            continue
        if typ != "action":
            raise JournalError(i, f"unknown line type {excerpt(typ)}", path)
        if obj.get("n") != len(actions) + 1 or isinstance(obj.get("n"), bool):
            raise JournalError(i, f"action number {excerpt(obj.get('n'))}, expected {len(actions) + 1}", path)
        t = obj.get("t", 0)
        if isinstance(t, bool) or not isinstance(t, int | float):
            raise JournalError(i, f"'t' must be a number, got {excerpt(t)}", path)
        try:
            actions.append(Action.from_dict(obj))
        except (ActionError, ValueError, TypeError, AttributeError) as exc:
            raise JournalError(i, str(exc), path) from None
    return Journal(str(path), header, actions, ended, torn, good, warnings)


@dataclass
class Replay:
    """The result of replaying a journal: the exact state, and events per action."""

    journal: Journal
    engine: AnyEngine
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
    except (ValueError, TypeError, KeyError, AttributeError, ImportError) as exc:
        raise JournalError(1, str(exc), journal.path) from None
    steps: list[tuple[Action, list[Event]]] = []
    for i, action in enumerate(journal.actions, start=2):
        try:
            state, events = engine.apply(state, action)
        except (ActionError, ValueError) as exc:
            raise JournalError(i, f"illegal action '{action}': {exc}", journal.path) from None
        steps.append((action, events))
    return Replay(journal, engine, state, steps)
