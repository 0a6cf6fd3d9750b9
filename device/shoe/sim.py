"""The simulated twin of the card shoe: the firmware's own logic on a pseudo-terminal.

The board is ``device/shoe/fwlogic.py`` (the file the Pico runs) with one or two read
gates, "shoe" (the shoe's exit) and "slot" (the discard slot); simulated hands break each
gate's beam and hold tags in its reader's field, as a dealer or a player would. The real
link (:class:`device.shoe.link.ShoeLink`) opens the other end of the pty. Cards carry the
simulated UIDs of :func:`device.shoe.deckmap.sim_uid`, so ``DeckMap.simulated(decks)``
maps them.

API (the table's simulator, the e2e tests, the device tests)::

    twin = ShoeTwin(points=("shoe", "slot"), link="/tmp/cardshoe", speed=1.0, seed=0)
    twin.start()                      # a thread runs the board (``with ShoeTwin(...)`` too)
    ShoeLink(twin.path, events=q, deck_map=DeckMap.simulated(1))   # the Pi's side
    twin.feed("shoe", "AS")           # pass a card through a gate: a Card, card text or a
    twin.feed("slot", card, deck=1)   #   tag UID; deck = which physical pack; -> the UID
    twin.misread("slot")              # the beam breaks, no tag read -> ERR MISREAD
    twin.double("shoe", "AS", "KH")   # two tags in one pass -> ERR DOUBLE -> the two UIDs
    twin.unknown("slot")              # a tag not in the deck map -> a card event, card None
    twin.jam("shoe", seconds=3.0)     # the beam stays broken (ERR JAM), then the card passes
    twin.unplug(); twin.replug()      # the pty goes away / comes back at the same path
    twin.unplug(power_cut=True)       #   ... and the board loses power (boots on replug)
    twin.reboot()                     # the board restarts: new boot id, unacked frames gone
    twin.deal([(card, deck), ...], point="shoe")  # a polite automatic dealer (waits for
                                      #   the Pi, never overflows the board's window)
    twin.wait_idle(timeout=5.0)       # True once every pass is judged and every frame ACKed
    twin.tally                        # what was passed, judged, sent, ACKed, lost (Tally)
    twin.close()

Passes of one gate run one after another (``hold_ms`` beam broken, ``gap_ms`` before the
next); the two gates run side by side, and their frames share the board's one sequence.
All calls are thread-safe and return at once, but for unplug / replug / reboot, which
return once done. ``speed`` runs the board's clock faster than real time (its 60 ms grace,
500 ms resend and 1 s heartbeat shrink; the Pi side stays in real time). Line faults
(:class:`Faults`: garbage lines, bad checksums, dropped and duplicated frames, lost
commands) apply to every frame.

``rummy-table shoe-sim`` runs a twin as a process and deals an order through the shoe's
exit (``--order``, ``--seed``), with ``--disconnect-after`` (unplug, replug) and, with
``--commands``, reads commands like ``feed slot AS`` from stdin (see ``--help``).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import queue
import random
import select
import signal
import sys
import tempfile
import threading
import time
import tty
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from device.shoe import fwlogic
from device.shoe import protocol as p
from device.shoe.deckmap import sim_uid
from rummy.cards import Card, CardError, parse_card, parse_cards, shuffled_deck

FW_VERSION = "sim-" + fwlogic.FW_VERSION
WINDOW = fwlogic.WINDOW
HOLD_MS = 40  # a card breaks the beam this long
GAP_MS = 100  # and the next pass of the same gate starts this much later
TAG_AFTER_MS = 5  # the reader sees the tag this long after the beam breaks


@dataclass(frozen=True, slots=True)
class Faults:
    """Probabilities (0..1): per transmitted frame (garbage, bad_crc, drop, dup), per
    dealt card of the automatic dealer (misread), per line from the Pi (drop_in)."""

    garbage: float = 0.0
    bad_crc: float = 0.0
    drop: float = 0.0
    dup: float = 0.0
    misread: float = 0.0
    drop_in: float = 0.0


def corrupt(line: bytes, rng: random.Random) -> bytes:
    """Change one character between ``$`` and ``*`` so the CRC no longer fits."""
    star = line.rfind(b"*")
    i = rng.randrange(1, star)
    old = line[i]
    new = old
    while new == old or new in b",*$\n\r":
        new = rng.randrange(33, 127)
    return line[:i] + bytes([new]) + line[i + 1 :]


GARBAGE = (
    b"MPY: soft reboot\r\n",
    b"Traceback (most recent call last):\r\n",
    b"MicroPython v1.29.0 on 2026-08-29; Raspberry Pi Pico with RP2040\r\n",
    b">>> \r\n",
)

Frame = tuple[str, int]  # (boot, seq) of a reliable frame


@dataclass
class Tally:
    """The twin's bookkeeping (read it under ``lock``). Frames are named (boot, seq)."""

    passes: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)
    judged: list[tuple[Frame, str, str, str]] = field(default_factory=list)
    written: set[Frame] = field(default_factory=set)  # sent whole at least once
    pi_acked: set[Frame] = field(default_factory=set)  # the Pi wrote an ACK for it
    acked: set[Frame] = field(default_factory=set)  # the board took the ACK
    lost_in_reboot: list[Frame] = field(default_factory=list)  # unacked at a reboot
    unread: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)  # passed unpowered
    power_cuts: int = 0
    dropped: int = 0  # pushed out of the board's window (32 unacked)
    boots: list[str] = field(default_factory=list)
    reboots: int = 0
    unplugs: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def cards(self, point: str | None = None) -> list[str]:
        """UIDs of the CARD frames judged (at ``point``, or anywhere), in order."""
        with self.lock:
            return [u for _, kind, pt, u in self.judged if kind == p.CARD and point in (None, pt)]

    def frames(self) -> dict[Frame, tuple[str, str, str]]:
        """(boot, seq) -> (kind, point, UID or error code) of every judged frame."""
        with self.lock:
            return {f: (kind, pt, what) for f, kind, pt, what in self.judged}


class _Board(fwlogic.Shoe):
    """The firmware's Shoe, noting each reliable frame it makes in the tally."""

    tally: Tally

    def reliable(self, kind: str, fields: Sequence[str], now: int) -> None:
        frame = (self.boot, self.seq)
        if len(self.unacked) >= WINDOW:
            self.tally.dropped += 1
        super().reliable(kind, fields, now)
        point, rest = p.split_reliable(kind, list(fields), p.PROTO_VERSION)
        with self.tally.lock:
            self.tally.judged.append((frame, kind, point, rest[0]))


@dataclass
class _Pass:
    tags: tuple[str, ...]
    hold_ms: int
    gap_ms: int
    polite: bool = False  # the automatic dealer: waits for the Pi and a free window
    reload: bool = False  # a new load goes into the gate first (what MODE,deal tells it)


class _GateHand:
    """The hand at one gate: its queue of passes and the pass under way."""

    def __init__(self) -> None:
        self.queue: list[_Pass] = []
        self.current: _Pass | None = None
        self.started = 0
        self.cleared: int | None = None

    @property
    def busy(self) -> bool:
        return bool(self.queue) or self.current is not None


def to_uid(card: Card | str, deck: int = 0) -> str:
    """The simulated tag UID of ``card`` (a Card or card text); a UID passes through."""
    if isinstance(card, Card):
        return sim_uid(card, deck)
    text = card.strip().upper()
    if p.is_uid(text):
        return text
    return sim_uid(parse_card(card), deck)


class Twin:
    """The board and its simulated hands, without I/O: ``receive(data, now_ms)`` takes the
    Pi's bytes, ``step(now_ms)`` moves hands and board on and writes frames through the
    line faults to ``write``. ShoeTwin (a pty and a thread) and MemoryShoe build on it."""

    def __init__(
        self,
        *,
        points: Sequence[str] = (p.SHOE, p.SLOT),
        faults: Faults = Faults(),
        rng: random.Random | None = None,
        boot: str | None = None,
        retransmit_ms: int = fwlogic.RETRANSMIT_MS,
        timing: dict[str, int] | None = None,
        now: int = 0,
    ) -> None:
        self.points = tuple(points)
        self.faults = faults
        self.rng = rng or random.Random()
        self.retransmit_ms = retransmit_ms
        self.timing = dict(timing or {})  # Gate attributes: debounce_ms, grace_ms, ...
        self.tally = Tally()
        self.hands = {point: _GateHand() for point in self.points}
        self.sent = {"frames": 0, "dropped": 0, "corrupted": 0, "duplicated": 0, "garbage": 0}
        self._lock = threading.RLock()  # board and hands (API calls come from other threads)
        self._unknown = 0
        self.powered = True
        self._last_step = now
        self.board = self._new_board(now, boot)

    # -- the board -----------------------------------------------------------------------
    def _new_board(self, now: int, boot: str | None = None) -> _Board:
        while boot is None or boot in self.tally.boots:
            boot = f"{self.rng.getrandbits(32):08X}"
        self.tally.boots.append(boot)
        board = _Board(boot, now, reader="SIM", points=self.points, fw=FW_VERSION)
        board.tally = self.tally
        board.retransmit_ms = self.retransmit_ms
        for gate in board.gates.values():
            for name, value in self.timing.items():
                setattr(gate, name, value)
        return board

    @property
    def boot(self) -> str:
        return str(self.board.boot)

    # -- output --------------------------------------------------------------------------
    def write(self, data: bytes) -> None:
        """Where the board's bytes go (a pty, a buffer); subclasses override."""

    def transmit(self, line: bytes) -> None:
        f, rng = self.faults, self.rng
        self.sent["frames"] += 1
        if f.garbage and rng.random() < f.garbage:
            self.sent["garbage"] += 1
            junk = (
                rng.choice(GARBAGE)
                if rng.random() < 0.5
                else bytes(rng.randrange(32, 127) for _ in range(rng.randrange(1, 40))).replace(
                    b"$", b"#"
                )
                + b"\n"
            )
            self.write(junk)
        if f.drop and rng.random() < f.drop:
            self.sent["dropped"] += 1
            return
        if f.bad_crc and rng.random() < f.bad_crc:
            self.sent["corrupted"] += 1
            self.write(corrupt(line, rng))
            return
        self.write(line)
        self._note_written(line)
        if f.dup and rng.random() < f.dup:
            self.sent["duplicated"] += 1
            self.write(line)

    def _note_written(self, line: bytes) -> None:
        if b",CARD," in line or b",ERR," in line:
            seq = int(line[1 : line.index(b",")])
            with self.tally.lock:
                self.tally.written.add((self.boot, seq))

    # -- input ---------------------------------------------------------------------------
    def receive(self, data: bytes, now: int) -> None:
        """Bytes from the Pi (whole lines or parts)."""
        with self._lock:
            board = self.board
            *lines, tail = data.split(b"\n")
            for line in lines:
                self._note_ack(line)
                if self.faults.drop_in and self.rng.random() < self.faults.drop_in:
                    board.rx = b""  # the line is lost with what came before it
                    continue
                before = {entry[0] for entry in board.unacked}
                board.feed(line + b"\n", now)
                gone = before - {entry[0] for entry in board.unacked}
                if gone:
                    with self.tally.lock:
                        self.tally.acked.update((board.boot, s) for s in gone)
            if tail:
                board.feed(tail, now)

    def _note_ack(self, line: bytes) -> None:
        try:
            _, kind, fields = p.decode(line)
        except p.FrameError:
            return
        if kind == p.ACK and len(fields) == 2 and fields[0].isdigit():
            with self.tally.lock:
                self.tally.pi_acked.add((fields[1], int(fields[0])))

    # -- hands ---------------------------------------------------------------------------
    def _queue(
        self,
        point: str,
        tags: Sequence[str],
        hold_ms: int,
        gap_ms: int,
        polite: bool,
        reload: bool = False,
    ) -> None:
        if point not in self.hands:
            raise ValueError(f"this board has no read point {point!r} (it has {self.points})")
        with self._lock:
            self.hands[point].queue.append(_Pass(tuple(tags), hold_ms, gap_ms, polite, reload))
            with self.tally.lock:
                kind = {0: "misread", 1: "card"}.get(len(tags), "double")
                self.tally.passes.append((point, kind, tuple(tags)))

    def feed(
        self,
        point: str,
        card: Card | str,
        *,
        deck: int = 0,
        hold_ms: int = HOLD_MS,
        gap_ms: int = GAP_MS,
    ) -> str:
        """Pass one card through gate ``point``; returns its tag UID."""
        uid = to_uid(card, deck)
        self._queue(point, (uid,), hold_ms, gap_ms, False)
        return uid

    def misread(self, point: str, *, hold_ms: int = HOLD_MS, gap_ms: int = GAP_MS) -> None:
        """The beam breaks and no tag is read (a card without a readable tag)."""
        self._queue(point, (), hold_ms, gap_ms, False)

    def double(
        self, point: str, first: Card | str, second: Card | str, *, deck: int = 0
    ) -> tuple[str, str]:
        """Two cards through the gate at once (both tags in one pass)."""
        uids = (to_uid(first, deck), to_uid(second, deck))
        self._queue(point, uids, HOLD_MS, GAP_MS, False)
        return uids

    def unknown(self, point: str) -> str:
        """A tag that is in no simulated deck map (a foreign card); returns its UID."""
        with self._lock:
            self._unknown += 1
            uid = f"04FFFE{self._unknown:06X}E0"  # sim_uid never makes deck FF, index FE
        self._queue(point, (uid,), HOLD_MS, GAP_MS, False)
        return uid

    def reader_error(self, point: str, code: str = p.ERR_OVERFLOW, detail: str = "sim",
                     now: int | None = None) -> None:
        """The board reports an error at gate ``point`` (READER: its reader stopped
        answering, as with its cable out; OVERFLOW: reads were dropped): an ERR frame, sent
        reliably. A card passing meanwhile goes through unread."""
        with self._lock:
            self.board.error(code, detail, self._now() if now is None else now, point)

    def _now(self) -> int:
        return self._last_step

    def jam(self, point: str, card: Card | str | None = None, *, seconds: float = 3.0) -> str:
        """The beam stays broken ``seconds`` (board time), then the card passes."""
        uid = to_uid(card) if card is not None else ""
        self._queue(point, (uid,) if uid else (), int(seconds * 1000), GAP_MS, False)
        return uid

    def deal(
        self,
        cards: Sequence[tuple[Card, int]],
        *,
        point: str = p.SHOE,
        interval_ms: int = 20,
        hold_ms: int = 20,
    ) -> None:
        """The automatic dealer: ``(card, deck)`` through gate ``point`` (the shoe's exit),
        each only once the Pi has named the board and the window has room (a polite hand:
        nothing is lost to the board's window; misreads per ``faults``). A tag that comes
        again in ``cards`` starts a new load: the gate forgets its dealt cards then, as the
        table's ``MODE,deal`` before a new load makes it."""
        seen: set[str] = set()
        for card, deck in cards:
            uid = sim_uid(card, deck)
            reload = uid in seen
            if reload:
                seen = set()
            seen.add(uid)
            if self.faults.misread and self.rng.random() < self.faults.misread:
                # the dealer feeds it again
                self._queue(point, (), hold_ms, interval_ms, True, reload)
                reload = False
            self._queue(point, (uid,), hold_ms, interval_ms, True, reload)

    def _hand(self, point: str, hand: _GateHand, now: int) -> None:
        board = self.board
        if hand.current is None:
            if not hand.queue:
                board.beam(point, False, now)
                return
            nxt = hand.queue[0]
            if nxt.polite and not (board.host_ready and len(board.unacked) < WINDOW - 1):
                board.beam(point, False, now)
                return
            if nxt.reload and board.gates[point].window is not None:
                board.beam(point, False, now)  # the last load's last card is judged first
                return
            hand.current = hand.queue.pop(0)
            hand.started = now
            hand.cleared = None
            if hand.current.reload:
                board.gates[point].recent = {}
        cur = hand.current
        steady = board.gates[point].debounce_ms + 1  # a hand is never a glitch: the beam
        if hand.cleared is None:  # stays broken, and then clear, longer than the debounce
            board.beam(point, True, now)
            if now - hand.started >= min(TAG_AFTER_MS, cur.hold_ms // 2):
                for uid in cur.tags:
                    board.tag(point, uid, now)
            if now - hand.started >= max(cur.hold_ms, steady):
                hand.cleared = now
                board.beam(point, False, now)
        else:
            board.beam(point, False, now)
            if now - hand.cleared >= max(cur.gap_ms, steady):
                hand.current = None

    # -- time ----------------------------------------------------------------------------
    def step(self, now: int) -> None:
        """Move the hands and the board to ``now`` (ms) and write what the board sends."""
        with self._lock:
            self._last_step = now
            if not self.powered:
                self._unpowered(now)
                return
            for point, hand in self.hands.items():
                self._hand(point, hand, now)
            self.board.tick(now)
            for line in self.board.take_output():
                self.transmit(line)

    def _unpowered(self, now: int) -> None:
        """The board is off: a card passed now goes through its gate unread."""
        for point, hand in self.hands.items():
            if hand.current is None and hand.queue:
                hand.current = hand.queue.pop(0)
                hand.started = now
                hand.cleared = None
                with self.tally.lock:
                    self.tally.unread.append((point, hand.current.tags))
            cur = hand.current
            if cur is not None and now - hand.started >= cur.hold_ms + cur.gap_ms:
                hand.current = None

    def power(self, on: bool, now: int) -> None:
        """Power off (the board stops; its RAM goes) or on (it boots: a new boot id)."""
        with self._lock:
            if on and not self.powered:
                self.powered = True
                self.reboot_board(now, cut=True)
            elif not on and self.powered:
                self.powered = False
                with self.tally.lock:
                    self.tally.power_cuts += 1

    def reboot_board(self, now: int, cut: bool = False) -> None:
        """The board restarts: its RAM (unacked frames, gate state) is gone. ``cut``: it
        was powered off (nothing was written meanwhile)."""
        with self._lock:
            old = self.board
            with self.tally.lock:
                self.tally.reboots += 1
                self.tally.lost_in_reboot += [(old.boot, entry[0]) for entry in old.unacked]
            pending = old.take_output()
            if not cut and pending and self.rng.random() < 0.5:  # cut in a frame's middle
                line = pending[0]
                self.write(line[: self.rng.randrange(1, len(line))])
            if not cut and self.rng.random() < 0.5:
                self.write(b"MPY: soft reboot\r\n")
            self.board = self._new_board(now)

    @property
    def idle(self) -> bool:
        """Every pass done and judged, every reliable frame ACKed."""
        with self._lock:
            if any(h.busy for h in self.hands.values()) or self.board.unacked:
                return False
            return all(g.window is None and not g.raw for g in self.board.gates.values())


class MemoryShoe(Twin):
    """A twin dealing ``cards`` through the shoe's exit into ``out`` instead of a pty, on a
    caller's clock (tests and benchmarks; see :func:`run_loopback`)."""

    def __init__(
        self,
        cards: Sequence[tuple[Card, int]],
        *,
        faults: Faults = Faults(),
        rng: random.Random | None = None,
        interval: float = 0.0,
        retransmit: float = 0.2,
        boot: str | None = None,
        points: Sequence[str] = (p.SHOE,),
    ) -> None:
        super().__init__(
            points=points,
            faults=faults,
            rng=rng,
            boot=boot,
            retransmit_ms=max(1, round(retransmit * 1000)),
            timing={"debounce_ms": 1, "grace_ms": 2},
        )
        self.out = bytearray()
        self.deal(cards, interval_ms=round(interval * 1000), hold_ms=2)

    def write(self, data: bytes) -> None:
        self.out += data

    @property
    def done(self) -> bool:
        return self.idle

    def tick(self, now: float) -> None:
        self.step(round(now * 1000))


def run_loopback(
    shoe: MemoryShoe,
    feed: Callable[[bytes], list[bytes]],
    first: Sequence[bytes] = (),
    *,
    clock: list[float] | None = None,
    step: float = 0.001,
    ack_drop: float = 0.0,
    rng: random.Random | None = None,
    max_steps: int = 10_000_000,
) -> int:
    """Run ``shoe`` against a host ``feed(line) -> replies`` in memory on a fake clock
    (``clock[0]`` seconds, advanced by ``step`` per round) until every card is dealt and
    ACKed. ``first`` are host frames sent at the start (``HELLO?``). Returns the rounds."""
    clock = clock if clock is not None else [0.0]
    rng = rng or random.Random(0)
    for line in first:
        shoe.receive(line, round(clock[0] * 1000))
    buf = b""
    for steps in range(max_steps):
        if shoe.done:
            return steps
        now = round(clock[0] * 1000)
        shoe.step(now)
        buf += bytes(shoe.out)
        shoe.out.clear()
        *lines, buf = buf.split(b"\n")
        for line in lines:
            for reply in feed(line):
                if not (ack_drop and rng.random() < ack_drop):
                    shoe.receive(reply, now)
        clock[0] += step
    raise RuntimeError("loopback did not finish")


class Pty:
    """A pseudo-terminal whose slave path (and optional symlink) the host opens."""

    def __init__(self, link: str | None) -> None:
        self.link = link
        self.master: int | None = None
        self.slave: int | None = None
        self.path = ""

    def open(self) -> int:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # no echo, no newline translation
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        if self.link:
            tmp = self.link + ".tmp"
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            os.symlink(self.path, tmp)
            os.replace(tmp, self.link)
        return self.master

    def close(self) -> None:
        if self.link:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.link)
        for fd in (self.master, self.slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.master = self.slave = None


class ShoeTwin(Twin):
    """The twin on a pty with its own thread: the API of the module docstring.

    ``link``: the symlink the Pi opens (a temporary one when None: ``path`` names it);
    it stays the same across unplug/replug, as a udev name does."""

    def __init__(
        self,
        *,
        points: Sequence[str] = (p.SHOE, p.SLOT),
        link: str | None = None,
        speed: float = 1.0,
        seed: int | None = None,
        faults: Faults = Faults(),
        boot: str | None = None,
    ) -> None:
        self.speed = speed
        self._t0 = time.monotonic()
        super().__init__(points=points, faults=faults, rng=random.Random(seed), boot=boot)
        self._tmpdir: tempfile.TemporaryDirectory[str] | None = None
        if link is None:
            self._tmpdir = tempfile.TemporaryDirectory(prefix="shoe-twin-")
            link = os.path.join(self._tmpdir.name, "cardshoe")
        self.pty = Pty(link)
        self.fd: int | None = self.pty.open()
        self._calls: queue.SimpleQueue[tuple[str, threading.Event]] = queue.SimpleQueue()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="shoe-twin", daemon=True)

    @property
    def path(self) -> str:
        """What the Pi opens (the symlink; it follows replugs)."""
        return self.pty.link or self.pty.path

    @property
    def plugged(self) -> bool:
        return self.fd is not None

    def now(self) -> int:
        return int((time.monotonic() - self._t0) * 1000 * self.speed)

    def start(self) -> ShoeTwin:
        if not self._thread.is_alive():
            self._thread.start()
        return self

    def __enter__(self) -> ShoeTwin:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2)
        self.fd = None
        self.pty.close()
        if self._tmpdir is not None:
            self._tmpdir.cleanup()
            self._tmpdir = None

    # -- calls run by the thread ---------------------------------------------------------
    def _call(self, what: str, timeout: float = 5.0) -> None:
        done = threading.Event()
        self._calls.put((what, done))
        if not self._thread.is_alive():  # not started: do it here
            self._do(what)
            return
        if not done.wait(timeout):
            raise TimeoutError(f"shoe twin did not {what}")

    def unplug(self, *, power_cut: bool = False) -> None:
        """The USB cable is pulled: the pty and its symlink go away. The board, powered
        elsewhere, keeps running (cards passed now wait in its window, up to 32); with
        ``power_cut`` it is powered by the cable, as a Pico on the Pi's USB: it stops, the
        frames it had not got ACKed are gone, and a card passed while it is off is not
        read at all (``tally.unread``); replug boots it (a new boot id)."""
        self._call("unplug-cut" if power_cut else "unplug")

    def replug(self) -> None:
        """The cable is back: a new pty at the same symlink (and power, after a cut)."""
        self._call("replug")

    def reboot(self) -> None:
        """The board restarts with the port open (a soft reset, a watchdog reset)."""
        self._call("reboot")

    def _do(self, what: str) -> None:
        with self._lock:
            if what.startswith("unplug") and self.fd is not None:
                self.fd = None
                self.pty.close()
                with self.tally.lock:
                    self.tally.unplugs += 1
                if what == "unplug-cut":
                    self.power(False, self.now())
            elif what == "replug" and self.fd is None:
                self.fd = self.pty.open()
                self.power(True, self.now())
            elif what == "reboot":
                self.reboot_board(self.now())

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Wait until every pass is judged and every frame ACKed; False on timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.idle:
                return True
            time.sleep(0.005)
        return self.idle

    def write(self, data: bytes) -> None:
        if self.fd is None:
            return  # unplugged: nobody hears it
        with contextlib.suppress(BlockingIOError, OSError):  # nobody reading: lost, as on USB
            os.write(self.fd, data)

    def _run(self) -> None:
        while not self._stop.is_set():
            while True:
                try:
                    what, done = self._calls.get_nowait()
                except queue.Empty:
                    break
                self._do(what)
                done.set()
            fd = self.fd
            data = b""
            busy = any(h.busy for h in self.hands.values())
            wait = 0.001 if busy else 0.004  # a pass wants ms steps; an idle board less
            if fd is not None and select.select([fd], [], [], wait)[0]:
                try:
                    data = os.read(fd, 4096)
                except OSError as exc:  # EIO: no process has the slave open right now
                    if exc.errno not in (errno.EIO, errno.EAGAIN, errno.EBADF):
                        raise
            elif fd is None:
                time.sleep(wait)
            if data:
                self.receive(data, self.now())
            self.step(self.now())


# -- rummy-table shoe-sim ------------------------------------------------------------------
def build_order(args: argparse.Namespace) -> list[tuple[Card, int]]:
    """The cards to deal as (card, physical deck number)."""
    if args.order:
        cards = parse_cards(args.order)
        counts: dict[Card, int] = {}
        out = []
        for card in cards:  # the n-th copy of a card comes from pack n (mod --decks)
            out.append((card, counts.get(card, 0) % max(1, args.decks)))
            counts[card] = counts.get(card, 0) + 1
        return out[: args.count] if args.count else out
    deck = shuffled_deck(random.Random(args.seed), decks=args.decks)
    seen: dict[Card, int] = {}
    out = []
    for card in deck:
        out.append((card, seen.get(card, 0)))
        seen[card] = seen.get(card, 0) + 1
    return out[: args.count] if args.count else out


COMMANDS = """commands (--commands, one a line on stdin; each answers OK or ERR on stdout):
  feed <point> <card|uid> [deck]   misread <point>   double <point> <card> <card>
  unknown <point>   jam <point> [seconds]   unplug   replug   reboot   idle   quit"""


def command(twin: ShoeTwin, line: str) -> str:
    """Run one stdin command; the answer line."""
    words = line.split()
    if not words:
        return ""
    verb, args = words[0], words[1:]
    try:
        if verb == "feed" and len(args) in (2, 3):
            return "OK " + twin.feed(args[0], args[1], deck=int(args[2]) if len(args) > 2 else 0)
        if verb == "misread" and len(args) == 1:
            twin.misread(args[0])
            return "OK"
        if verb == "double" and len(args) == 3:
            return "OK " + "+".join(twin.double(args[0], args[1], args[2]))
        if verb == "unknown" and len(args) == 1:
            return "OK " + twin.unknown(args[0])
        if verb == "jam" and len(args) in (1, 2):
            twin.jam(args[0], seconds=float(args[1]) if len(args) > 1 else 3.0)
            return "OK"
        if verb in ("unplug", "replug", "reboot") and not args:
            getattr(twin, verb)()
            return "OK " + twin.boot
        if verb == "idle" and not args:
            return "OK" if twin.wait_idle(10.0) else "ERR not idle after 10 s"
    except (ValueError, CardError) as exc:
        return f"ERR {exc}"
    return f"ERR unknown command {line.strip()!r}"


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="rummy-table shoe-sim",
        description="A simulated card shoe (the firmware's logic) on a pseudo-terminal.",
        epilog=COMMANDS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--link", help="also make this symlink to the pty (like /dev/cardshoe)")
    ap.add_argument(
        "--points", default="shoe+slot", help="read gates of the board: shoe+slot or shoe"
    )
    ap.add_argument("--seed", type=int, default=0, help="shuffle seed of the deck(s) to deal")
    ap.add_argument("--decks", type=int, default=1, help="number of packs (contract rummy: 2)")
    ap.add_argument("--order", help="deal this order instead, e.g. 'AS 2S 3S'")
    ap.add_argument("--count", type=int, default=0, help="deal only the first N cards")
    ap.add_argument("--no-deal", action="store_true", help="deal nothing by itself")
    ap.add_argument("--interval", type=float, default=0.02, help="seconds between cards")
    ap.add_argument("--retransmit", type=float, default=0.2, help="resend unacked after S")
    ap.add_argument("--start-delay", type=float, default=0.0, help="wait S before dealing")
    for name in ("garbage", "bad-crc", "drop", "dup", "misread"):
        ap.add_argument(
            f"--{name}",
            type=float,
            default=0.0,
            metavar="P",
            help=f"probability of {name.replace('-', ' ')} per frame",
        )
    ap.add_argument("--fault-seed", type=int, default=1)
    ap.add_argument(
        "--disconnect-after",
        type=int,
        default=0,
        metavar="N",
        help="unplug after N cards were dealt",
    )
    ap.add_argument("--disconnect-for", type=float, default=1.0, metavar="S")
    ap.add_argument("--boot", help="boot id (8 hex digits); random by default")
    ap.add_argument("--commands", action="store_true", help="read commands from stdin")
    ap.add_argument(
        "--exit-when-done",
        action="store_true",
        help="exit once every card is dealt and acknowledged",
    )
    ap.add_argument("--duration", type=float, default=0.0, help="exit after S seconds")
    return ap


def _terminate(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _stdin_commands(twin: ShoeTwin, stop: threading.Event) -> None:
    for line in sys.stdin:
        if line.strip() == "quit":
            break
        answer = command(twin, line)
        if answer:
            print(answer, flush=True)
    stop.set()


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        order = [] if args.no_deal else build_order(args)
    except CardError as exc:
        print(f"shoe-sim: bad --order: {exc}", file=sys.stderr)
        return 2
    for name in ("garbage", "bad_crc", "drop", "dup", "misread"):
        if not 0.0 <= getattr(args, name) < 1.0:
            print(f"shoe-sim: --{name.replace('_', '-')} must be 0 <= P < 1", file=sys.stderr)
            return 2
    if args.boot and not (len(args.boot) == 8 and all(c in "0123456789ABCDEF" for c in args.boot)):
        print("shoe-sim: --boot must be 8 upper-case hex digits", file=sys.stderr)
        return 2
    try:
        points = p.parse_points(args.points)
    except ValueError:
        print("shoe-sim: --points must be shoe+slot or shoe", file=sys.stderr)
        return 2
    if p.SHOE not in points:
        print("shoe-sim: --points must include shoe", file=sys.stderr)
        return 2
    faults = Faults(args.garbage, args.bad_crc, args.drop, args.dup, args.misread)
    signal.signal(signal.SIGTERM, _terminate)
    twin = ShoeTwin(
        points=points, link=args.link, seed=args.fault_seed, faults=faults, boot=args.boot
    )
    twin.retransmit_ms = twin.board.retransmit_ms = max(1, round(args.retransmit * 1000))
    stop = threading.Event()
    start = time.monotonic()
    disconnected = False
    try:
        print(f"PTY {twin.pty.path}", flush=True)
        if args.link:
            print(f"LINK {args.link}", flush=True)
        twin.start()
        if args.commands:
            threading.Thread(target=_stdin_commands, args=(twin, stop), daemon=True).start()
        if args.start_delay:
            time.sleep(args.start_delay)
        interval_ms = round(args.interval * 1000)
        twin.deal(order, interval_ms=interval_ms, hold_ms=max(5, min(20, interval_ms)))
        while not stop.is_set():
            if args.duration and time.monotonic() - start > args.duration:
                break
            if args.exit_when_done and twin.idle:
                time.sleep(0.3)
                break
            acked = len(twin.tally.acked)
            if args.disconnect_after and not disconnected and acked >= args.disconnect_after:
                disconnected = True
                twin.unplug()
                print("UNPLUGGED", flush=True)
                time.sleep(args.disconnect_for)
                twin.replug()
                print(f"PTY {twin.pty.path}", flush=True)
                continue
            time.sleep(0.005)
    except KeyboardInterrupt:
        pass
    finally:
        twin.close()
        dealt = len(twin.tally.cards(p.SHOE))
        print(f"DONE dealt={dealt} sent={twin.sent}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
