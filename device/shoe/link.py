"""The Pi side of the card-shoe link: frame handling and a reconnecting serial supervisor.

:class:`ShoeReceiver` is the protocol logic without I/O: it takes lines, returns the frames
to send back (ACKs, ``HELLO?``) and puts :class:`ShoeEvent`s on the queue. It delivers each
CARD/ERR frame exactly once and in sequence order per boot: duplicates are ACKed again
and dropped, frames that arrive early are ACKed and held until the gap fills (the shoe
resends the missing one), and a gap the shoe says is gone for good (``base`` in HELLO/HB
moved past it, or a new boot) is reported as a ``lost`` event, not waited for. A new
boot's HELLO always gets ``HELLO?`` (the shoe sends no card before it), also when the
port stayed open while the shoe restarted.

Commands: ``MODE`` and ``LED`` are idempotent and resent (the same frame, every 0.5 s
while connected, also to a new boot) until the shoe ACKs them; a newer command of the same
kind replaces an unanswered one. The shoe applies a repeated frame once. ``RESET`` is sent
once (resending it to the boot it started would reset that one too).

Read points (protocol 3): a board with two gates says ``points=shoe+slot`` in HELLO and
names the point in every CARD/ERR frame; both gates share one sequence, so the cards of
the shoe and of the discard slot arrive in the order the board judged them, each as a
ShoeEvent with its ``point``. A protocol 1 or 2 shoe is shoe-only: ``points`` is
``("shoe",)`` and every event says "shoe".

:class:`ShoeLink` runs a supervisor thread that opens the port with pyserial, reads
lines, answers, notices unplugging (read errors) and silence (no frame for
``stale_after`` s), and reopens with backoff.
"""

from __future__ import annotations

import contextlib
import queue
import random
import threading
import time
from collections.abc import Callable
from typing import Any

from device.events import (
    SHOE_CARD,
    SHOE_CONNECTED,
    SHOE_DISCONNECTED,
    SHOE_DOUBLE,
    SHOE_ERROR,
    SHOE_JAM,
    SHOE_LOST,
    SHOE_MISREAD,
    SHOE_STATUS,
    DeviceEvent,
    ShoeEvent,
)
from device.shoe import protocol as p
from device.shoe.deckmap import DeckMap
from rummy.cards import Card

REORDER_WINDOW = 64
_ERR_KINDS = {p.ERR_MISREAD: SHOE_MISREAD, p.ERR_DOUBLE: SHOE_DOUBLE, p.ERR_JAM: SHOE_JAM}
COUNTERS = (
    "lines",
    "frames",
    "noise",
    "bad_crc",
    "malformed",
    "duplicates",
    "out_of_order",
    "early",
    "too_far",
    "lost",
    "cards",
    "errors",
    "acks_sent",
    "connects",
    "disconnects",
    "open_failures",
    "restarts",
    "commands_resent",
)
RELIABLE_COMMANDS = (p.MODE, p.LED)
COMMAND_RESEND = 0.5


class ShoeReceiver:
    """Protocol state of the Pi side; not thread-safe (one reader thread owns it).

    ``boot`` is the boot a HELLO named on this connection (frames after it in the stream
    are that boot's); ``ready`` says that boot has had our ``HELLO?`` and sends cards. A
    boot's own HELLO (``ready=0``: it restarted, perhaps with the port open all along) is
    always answered with ``HELLO?``; the frames the old boot left (held out of order, or
    known from its sequence numbers but never received) are delivered or reported as
    ``lost`` before the new boot's sequence numbers start.
    """

    def __init__(
        self,
        *,
        events: queue.Queue[DeviceEvent],
        deck_map: DeckMap | None = None,
        clock: Callable[[], float] = time.monotonic,
        port: str = "",
    ) -> None:
        self.events = events
        self.deck_map = deck_map
        self.clock = clock
        self.port = port
        self.counters = dict.fromkeys(COUNTERS, 0)
        self.boot: str | None = None  # boot named by a HELLO on this connection
        self.ready = False  # ... and that boot has had our HELLO? (it sends cards)
        self.info: dict[str, Any] = {}  # last HELLO
        self.heartbeat: dict[str, Any] = {}
        self.last_frame_t = float("-inf")
        self._known_boot: str | None = None  # the boot whose sequence state we hold
        self._known_proto = p.PROTO_VERSION  # ... and the protocol it speaks
        self._expected = 0  # its next seq to apply
        self._seen_next = 0  # its next seq as far as we know (HELLO/HB seq, frames seen)
        self._pending: dict[int, tuple[str, list[str]]] = {}
        self._heard: str | None = None  # boot of the last HELLO/HB on this connection
        self._asked_boot: str | None = None  # last boot we named in a HELLO?
        # random start: a restarted app's first command never repeats the last one's seq
        self._host_seq = random.randrange(p.SEQ_MOD)
        self._commands: dict[int, list[Any]] = {}  # host seq -> [frame, kind, last sent]
        self._commands_lock = threading.Lock()  # commands come from the app's thread
        self._hello_asked = float("-inf")

    # -- helpers -----------------------------------------------------------------------
    def _emit(self, kind: str, **kw: Any) -> None:
        try:
            self.events.put_nowait(ShoeEvent(kind, self.clock(), **kw))
        except queue.Full:
            pass

    def command(self, kind: str, fields: tuple[str, ...] = ()) -> bytes:
        """A frame from the Pi (own sequence numbers)."""
        with self._commands_lock:
            self._host_seq = p.seq_next(self._host_seq)
            return p.encode(self._host_seq, kind, fields)

    def reliable_command(self, kind: str, fields: tuple[str, ...] = ()) -> bytes:
        """A ``MODE``/``LED`` frame, kept and resent until the shoe ACKs it."""
        frame = self.command(kind, fields)
        seq = p.decode(frame)[0]
        with self._commands_lock:
            for old in [s for s, entry in self._commands.items() if entry[1] == kind]:
                del self._commands[old]  # superseded
            self._commands[seq] = [frame, kind, self.clock()]
        return frame

    @property
    def pending_commands(self) -> int:
        with self._commands_lock:
            return len(self._commands)

    def resend_commands(self, every: float = COMMAND_RESEND) -> list[bytes]:
        """Commands the shoe has not ACKed yet, due again (only to a ready shoe)."""
        if not self.ready:
            return []
        now = self.clock()
        out = []
        with self._commands_lock:
            for entry in self._commands.values():
                if now - entry[2] >= every:
                    entry[2] = now
                    out.append(entry[0])
        self.counters["commands_resent"] += len(out)
        return out

    def _command_acked(self, fields: list[str]) -> None:
        if fields and fields[0].isdigit():
            with self._commands_lock:
                self._commands.pop(int(fields[0]), None)

    def start_connection(self) -> list[bytes]:
        """A port was (re)opened: forget the boot until HELLO confirms it; ask for HELLO."""
        self.boot = None
        self.ready = False
        self._heard = None
        return [self._ask_hello()]

    def end_connection(self, reason: str) -> None:
        """The port closed or failed: report ``disconnected`` if the shoe was connected."""
        was_connected = self.ready
        self.boot = None
        self.ready = False
        if was_connected:
            self.counters["disconnects"] += 1
            self._emit(SHOE_DISCONNECTED, detail=reason)

    def _ask_hello(self) -> bytes:
        """``HELLO?`` naming the boot we last heard (only a named boot sends cards)."""
        self._hello_asked = self.clock()
        name = self.boot or self._heard
        if name is None:
            return self.command(p.HELLO_Q)
        self._asked_boot = name
        return self.command(p.HELLO_Q, (name,))

    def maybe_ask_hello(self, every: float = 1.0) -> list[bytes]:
        """Repeat ``HELLO?`` until the shoe's boot has answered it (one may be lost)."""
        if not self.ready and self.clock() - self._hello_asked >= every:
            return [self._ask_hello()]
        return []

    # -- lines -------------------------------------------------------------------------
    def feed(self, line: bytes) -> list[bytes]:
        """Handle one received line; return the frames to send back."""
        self.counters["lines"] += 1
        try:
            seq, kind, fields = p.decode(line)
        except p.FrameError as exc:
            key = {p.NOISE: "noise", p.BADCRC: "bad_crc"}.get(exc.reason, "malformed")
            self.counters[key] += 1
            return []
        self.counters["frames"] += 1
        self.last_frame_t = self.clock()
        try:
            if kind == p.HELLO:
                return self._hello(seq, fields)
            if kind == p.HB:
                return self._hb(seq, fields)
            if kind in p.RELIABLE:
                return self._reliable(seq, kind, fields)
            if kind == p.ACK:  # the shoe took one of our commands
                self._command_acked(fields)
        except (ValueError, IndexError, KeyError):
            self.counters["malformed"] += 1
        return []  # ACK replies and unknown types need no answer

    def _hello(self, seq: int, fields: list[str]) -> list[bytes]:
        kv = p.parse_kv(fields)
        if kv.get("proto") not in [str(v) for v in p.PROTO_ACCEPTED]:
            self.boot = None
            self.ready = False
            self._emit(
                SHOE_STATUS,
                detail=f"shoe speaks protocol {kv.get('proto')!r}, this app speaks "
                f"{', '.join(str(v) for v in p.PROTO_ACCEPTED)}: update the shoe firmware",
                info=dict(kv),
            )
            return []
        boot, base = kv["boot"], int(kv["base"])
        flag = kv.get("ready")
        if flag not in (None, "0", "1"):
            raise ValueError(f"bad ready flag {flag!r}")
        proto = int(kv["proto"])
        points: tuple[str, ...] = (p.SHOE,)
        if proto >= p.PROTO_POINTS:
            points = p.parse_points(kv.get("points", p.SHOE))
        if boot != self._known_boot:
            if self._known_boot is not None:
                self.counters["restarts"] += 1
                self._close_boot()
            self._known_boot, self._expected, self._seen_next = boot, base, seq
            self._known_proto = proto
            self._pending = {}
        else:
            self._note_next(seq)
            self._skip_to(base)
        if boot != self.boot:
            if self.boot is not None:
                self._emit(SHOE_STATUS, boot=boot, detail=f"shoe restarted (was {self.boot})")
            self.ready = False
        self.boot = self._heard = boot
        self.info = {
            "proto": proto,
            "fw": kv.get("fw", "?"),
            "boot": boot,
            "reader": kv.get("reader", "?"),
            "port": self.port,
            "points": points,
        }
        # ready=1: a HELLO? named this boot. Firmware without the flag (protocol 1) has
        # answered us if we had already asked this boot (its own HELLO comes once, first).
        if flag == "1" or (flag is None and self._asked_boot == boot):
            if not self.ready:
                self.ready = True
                self.counters["connects"] += 1
                self._emit(SHOE_CONNECTED, boot=boot, info=dict(self.info))
                return self.resend_commands(every=0.0)  # what a new boot has not heard
            return []
        self.ready = False  # not named yet (its boot HELLO): it waits for HELLO?,<boot>
        return [self._ask_hello()]

    def _hb(self, seq: int, fields: list[str]) -> list[bytes]:
        uptime, state, unacked, base, boot = fields[:5]
        self.heartbeat = {
            "uptime": int(uptime),
            "state": state,
            "unacked": int(unacked),
            "base": int(base),
            "boot": boot,
        }
        if boot != self.boot:
            news = boot != self._heard
            self._heard = boot
            if self.boot is not None:  # the shoe restarted under us: stop trusting seqs
                self.boot = None
                self.ready = False
                self._emit(SHOE_STATUS, boot=boot, detail="shoe restarted; asking for HELLO")
            if news:  # its boot HELLO was lost: name it at once
                return [self._ask_hello()]
            return self.maybe_ask_hello(every=0.5)
        self._note_next(seq)
        self._skip_to(int(base))
        self._emit(SHOE_STATUS, boot=boot, info=dict(self.heartbeat))
        return self.maybe_ask_hello(every=0.5)  # still not named: ask again

    def _reliable(self, seq: int, kind: str, fields: list[str]) -> list[bytes]:
        if not self.ready or self.boot != self._known_boot:
            self.counters["early"] += 1  # not ACKed: the shoe sends it again after HELLO
            return self.maybe_ask_hello(every=0.25)  # our HELLO? or its HELLO was lost
        d = p.seq_diff(seq, self._expected)
        if d < 0:
            self.counters["duplicates"] += 1
        elif d == 0:
            self._note_next(p.seq_next(seq))
            self._apply(seq, kind, fields)
            self._expected = p.seq_next(seq)
            self._flush()
        elif d < REORDER_WINDOW:
            self._note_next(p.seq_next(seq))
            if seq in self._pending:
                self.counters["duplicates"] += 1
            else:
                self.counters["out_of_order"] += 1
                self._pending[seq] = (kind, fields)
        else:
            self.counters["too_far"] += 1
            return []
        self.counters["acks_sent"] += 1
        return [self.command(p.ACK, (str(seq), self._known_boot or ""))]

    def _note_next(self, next_seq: int) -> None:
        """The known boot has used every seq before ``next_seq``."""
        if p.seq_diff(next_seq, self._seen_next) > 0:
            self._seen_next = next_seq

    def _flush(self) -> None:
        while self._expected in self._pending:
            kind, fields = self._pending.pop(self._expected)
            self._apply(self._expected, kind, fields)
            self._expected = p.seq_next(self._expected)

    def _skip_to(self, base: int) -> None:
        """The shoe no longer holds anything before ``base``: stop waiting for it."""
        self._advance_to(base, "overflow")
        self._flush()

    def _close_boot(self) -> None:
        """The known boot is gone (a new one said HELLO): deliver what it left in order,
        report what will never come (held frames are never dropped silently)."""
        end = self._seen_next
        for seq in self._pending:
            if p.seq_diff(p.seq_next(seq), end) > 0:
                end = p.seq_next(seq)
        self._advance_to(end, "restart")
        self._pending = {}

    def _advance_to(self, end: int, why: str) -> None:
        """Apply the held frames before ``end`` in order; a ``lost`` event per gap."""
        first: int | None = None
        count = 0
        while p.seq_diff(end, self._expected) > 0:
            entry = self._pending.pop(self._expected, None)
            if entry is None:
                if first is None:
                    first = self._expected
                count += 1
            else:
                if first is not None:
                    self._report_lost(first, count, why)
                    first, count = None, 0
                self._apply(self._expected, *entry)
            self._expected = p.seq_next(self._expected)
        if first is not None:
            self._report_lost(first, count, why)

    def _report_lost(self, first: int, count: int, why: str) -> None:
        self.counters["lost"] += count
        cause = "the shoe restarted" if why == "restart" else "shoe buffer overflow"
        self._emit(
            SHOE_LOST,
            seq=first,
            boot=self._known_boot or "",
            detail=f"{count} shoe message(s) lost ({cause})",
            info={
                "count": count,
                "first": first,
                "last": (first + count - 1) % p.SEQ_MOD,
                "why": why,
            },
        )

    def _apply(self, seq: int, kind: str, fields: list[str]) -> None:
        boot = self._known_boot or ""
        try:
            point, rest = p.split_reliable(kind, fields, self._known_proto)
        except ValueError as exc:
            self.counters["malformed"] += 1
            self.counters["errors"] += 1
            self._emit(SHOE_ERROR, seq=seq, boot=boot, detail=f"bad {kind} frame: {exc}")
            return
        if kind == p.CARD:
            uid = rest[0].upper() if rest else ""
            if not p.is_uid(uid):
                self.counters["errors"] += 1
                self._emit(
                    SHOE_ERROR, seq=seq, boot=boot, point=point, detail=f"bad tag UID {uid!r}"
                )
                return
            self.counters["cards"] += 1
            card = self.deck_map.get(uid) if self.deck_map is not None else None
            detail = ""
            if self.deck_map is not None and card is None:
                detail = f"tag {uid} is not in the deck map: enrol this deck"
            self._emit(
                SHOE_CARD, uid=uid, card=card, seq=seq, boot=boot, point=point, detail=detail
            )
        else:
            self.counters["errors"] += 1
            code = rest[0] if rest else "?"
            info: dict[str, Any] = {}
            if code == p.ERR_DOUBLE and len(rest) > 1:
                uids = rest[1].split("+")
                info = {"uids": uids, "cards": [self._card(u) for u in uids]}
            self._emit(
                _ERR_KINDS.get(code, SHOE_ERROR),
                seq=seq,
                boot=boot,
                point=point,
                detail=",".join(rest),
                info=info,
            )

    def _card(self, uid: str) -> Card | None:
        return self.deck_map.get(uid) if self.deck_map is not None else None


def open_serial(port: str, baudrate: int, timeout: float) -> Any:
    """Open ``port`` (a device path or a pyserial URL) for the link."""
    import serial

    if "://" in port:
        return serial.serial_for_url(port, baudrate=baudrate, timeout=timeout)
    return serial.Serial(port, baudrate=baudrate, timeout=timeout, exclusive=True)


class ShoeLink:
    """Supervised serial link to the card shoe. ``start()`` it; ``close()`` when done."""

    def __init__(
        self,
        port: str,
        *,
        events: queue.Queue[DeviceEvent],
        deck_map: DeckMap | None = None,
        baudrate: int = 115200,
        stale_after: float = 3.0,
        backoff: tuple[float, float] = (0.1, 2.0),
        clock: Callable[[], float] = time.monotonic,
        opener: Callable[[str, int, float], Any] = open_serial,
    ) -> None:
        self.port = port
        self.events = events
        self.baudrate = baudrate
        self.stale_after = stale_after
        self.backoff = backoff
        self.clock = clock
        self.opener = opener
        self.receiver = ShoeReceiver(events=events, deck_map=deck_map, clock=clock, port=port)
        self.last_error = ""
        self._serial: Any = None
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def connected(self) -> bool:
        """True once the shoe's current boot has answered ``HELLO?`` (cards can come)."""
        return self.receiver.ready

    @property
    def points(self) -> tuple[str, ...]:
        """The read points of the board last heard (("shoe",) for protocol 1 and 2 shoes;
        () before its first HELLO)."""
        return tuple(self.receiver.info.get("points", ()))

    def stats(self) -> dict[str, Any]:
        """Counters, last HELLO and heartbeat: a snapshot for diagnostics."""
        return {
            "port": self.port,
            "connected": self.connected,
            "counters": dict(self.receiver.counters),
            "hello": dict(self.receiver.info),
            "heartbeat": dict(self.receiver.heartbeat),
            "last_error": self.last_error,
        }

    def start(self) -> ShoeLink:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="shoe-link", daemon=True)
            self._thread.start()
        return self

    def send(self, kind: str, *fields: str) -> bool:
        """Send a command (``MODE``, ``LED``, ``RESET``); False when not connected now.
        ``MODE`` and ``LED`` are kept until the shoe ACKs them: sent when it connects,
        resent until then (a ``RESET`` while not connected is dropped)."""
        reliable = kind in RELIABLE_COMMANDS
        with self._write_lock:
            ser = self._serial
            if reliable:
                frame = self.receiver.reliable_command(kind, fields)
            elif ser is None:
                return False
            else:
                frame = self.receiver.command(kind, fields)
            if ser is None or not self.receiver.ready:
                return False  # kept: the shoe gets it once connected
            try:
                ser.write(frame)
            except Exception as exc:  # the reader thread notices and reconnects
                self.last_error = str(exc)
                return False
        return True

    def set_mode(self, mode: str) -> bool:
        if mode not in p.MODES:
            raise ValueError(f"unknown shoe mode {mode!r}: use one of {', '.join(p.MODES)}")
        return self.send(p.MODE, mode)

    def _write(self, ser: Any, frames: list[bytes]) -> None:
        if frames:
            with self._write_lock:
                ser.write(b"".join(frames))

    def _run(self) -> None:
        delay = self.backoff[0]
        while not self._stop.is_set():
            try:
                ser = self.opener(self.port, self.baudrate, 0.05)
            except Exception as exc:  # SerialException, OSError, ValueError for a bad URL
                self.receiver.counters["open_failures"] += 1
                self.last_error = f"cannot open {self.port}: {exc}"
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff[1])
                continue
            delay = self.backoff[0]
            with self._write_lock:
                self._serial = ser
            reason = self._serve(ser)
            with self._write_lock:
                self._serial = None
            with contextlib.suppress(Exception):
                ser.close()
            self.last_error = reason
            self.receiver.end_connection(reason)
            self._stop.wait(self.backoff[0])

    def _serve(self, ser: Any) -> str:
        """Read and answer until the port fails, goes quiet, or close(); return why."""
        opened = self.clock()
        buf = b""
        try:
            self._write(ser, self.receiver.start_connection())
            while not self._stop.is_set():
                data = ser.read(max(1, ser.in_waiting))
                if data:
                    buf += data
                    *lines, buf = buf.split(b"\n")
                    out: list[bytes] = []
                    for line in lines:
                        out += self.receiver.feed(line)
                    if len(buf) > 4 * p.MAX_LINE:  # a run of junk without newline
                        self.receiver.counters["noise"] += 1
                        buf = b""
                    self._write(ser, out)
                self._write(ser, self.receiver.maybe_ask_hello())
                self._write(ser, self.receiver.resend_commands())
                quiet_since = max(self.receiver.last_frame_t, opened)
                if self.clock() - quiet_since > self.stale_after:
                    return f"no message from the shoe for {self.stale_after:g} s"
        except Exception as exc:  # SerialException / OSError on unplug
            return f"link lost: {exc}"
        return "closed"

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        self._thread = None

    def __enter__(self) -> ShoeLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
