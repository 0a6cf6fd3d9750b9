"""The shoe firmware's own logic (device/shoe/fwlogic.py) on the master side of a pty, in a
thread, dealing cards and restarting on demand while the port stays open (a UART shoe or
a MicroPython soft reset: the Pi's port never closes). Tests only.

The shoe's clock runs ``speed`` (10) times faster than real time: its 60 ms read-gate grace,
500 ms resend and 1 s heartbeat take a tenth of that (the Pi side runs in real time).
Each dealt card gets a unique tag UID (``04`` + a 12-digit counter), so the test can tell
every card apart without a deck map.
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import threading
import time
import tty
from dataclasses import dataclass, field
from types import ModuleType

import fwload


def uid_of(n: int) -> str:
    return f"04{n:012X}"


@dataclass
class Tally:
    """What the shoe side did, for the test's bookkeeping (guarded by ``lock``)."""

    dealt: list[str] = field(default_factory=list)  # every card judged, in order
    acked: set[str] = field(default_factory=set)  # cards whose ACK reached the shoe
    written: set[str] = field(default_factory=set)  # CARD frames written whole to the Pi
    sent_as: dict[tuple[str, int], str] = field(default_factory=dict)  # (boot, seq) -> uid
    pi_acked: set[str] = field(default_factory=set)  # cards the Pi ACKed (before loss)
    lost_in_restart: list[str] = field(default_factory=list)  # unacked when it restarted
    restarts: int = 0
    torn: int = 0  # restarts that cut a frame in half
    boots: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class FirmwareShoe:
    """``device/shoe/fwlogic.py``'s ``Shoe`` behind a pty; ``path`` is what the Pi opens."""

    def __init__(
        self,
        *,
        seed: int = 0,
        speed: float = 10.0,
        drop_out: float = 0.0,
        drop_in: float = 0.0,
        card_every_ms: int = 150,
    ) -> None:
        self.fw = fwload.load()
        self.logic: ModuleType = self.fw.logic
        self.rng = random.Random(seed)
        self.speed = speed
        self.drop_out = drop_out  # shoe -> Pi frames lost
        self.drop_in = drop_in  # Pi -> shoe lines lost
        self.card_every_ms = card_every_ms
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.tally = Tally()
        self.dealing = threading.Event()
        self.dealing.set()
        self._restart = threading.Event()
        self._stop = threading.Event()
        self._t0 = time.monotonic()
        self._next_uid = 0
        self._cmd_lock = threading.Lock()
        self.shoe = self._boot()
        self._deal_at = self.now() + 20
        self._phase = 0  # 0 idle, 1 beam blocked, 2 cleared (waiting for the next card)
        self._thread = threading.Thread(target=self._run, name="fw-shoe", daemon=True)

    # -- control (test thread) ---------------------------------------------------------
    def start(self) -> FirmwareShoe:
        self._thread.start()
        return self

    def restart(self) -> None:
        """Soft reset at the next loop pass: RAM (unacked frames, rx buffer) is gone."""
        self._restart.set()
        while self._restart.is_set() and self._thread.is_alive():
            time.sleep(0.0005)

    @property
    def boot(self) -> str:
        return str(self.shoe.boot)

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2)
        for fd in (self.master, self.slave):
            with contextlib.suppress(OSError):
                os.close(fd)
        fwload.unload()

    def __enter__(self) -> FirmwareShoe:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the shoe's side ---------------------------------------------------------------
    def now(self) -> int:
        return int((time.monotonic() - self._t0) * 1000 * self.speed)

    def _boot(self) -> object:
        boot = f"{self.rng.getrandbits(32):08X}"
        while boot in self.tally.boots:
            boot = f"{self.rng.getrandbits(32):08X}"
        self.tally.boots.append(boot)
        return self.logic.Shoe(boot, self.now(), reader="PN532")

    def _write(self, data: bytes) -> None:
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self.master, data)

    def _do_restart(self, now: int) -> None:
        shoe = self.shoe
        with self.tally.lock:
            self.tally.restarts += 1
            self.tally.lost_in_restart += [self._uid_in(line) for _, line, _ in shoe.unacked]
        if self.rng.random() < 0.3:  # reset in the middle of writing a frame
            shoe.heartbeat(now)
        pending = shoe.take_output()
        if pending:  # the rest of what it was writing never leaves the board
            line = pending[0]
            self._write(line[: self.rng.randrange(1, len(line))])
            with self.tally.lock:
                self.tally.torn += 1
        if self.rng.random() < 0.5:
            self._write(b"MPY: soft reboot\r\n")
        self.shoe = self._boot()
        self._phase = 0
        self._deal_at = now + self.rng.randrange(0, 60)

    def _uid_in(self, line: bytes) -> str:
        _, kind, fields = self.fw.protocol.decode(line)
        return fields[0] if kind == "CARD" else ""

    def _feed(self, data: bytes, now: int) -> None:
        shoe = self.shoe
        lines = data.split(b"\n")
        tail = lines.pop()
        for line in lines:
            self._note_ack(line)
            if self.drop_in and self.rng.random() < self.drop_in:
                continue
            before = {entry[0]: entry[1] for entry in shoe.unacked}
            shoe.feed(line + b"\n", now)
            after = {entry[0] for entry in shoe.unacked}
            gone = [self._uid_in(before[s]) for s in before if s not in after]
            if gone:
                with self.tally.lock:
                    self.tally.acked.update(u for u in gone if u)
        if tail:
            shoe.feed(tail, now)

    def _note_ack(self, line: bytes) -> None:
        """An ACK the Pi wrote: it took responsibility for that card."""
        try:
            _, kind, fields = self.fw.protocol.decode(line)
        except self.fw.protocol.FrameError:
            return
        if kind == "ACK" and len(fields) == 2 and fields[0].isdigit():
            uid = self.tally.sent_as.get((fields[1], int(fields[0])))
            if uid:
                with self.tally.lock:
                    self.tally.pi_acked.add(uid)

    def _deal(self, now: int) -> None:
        shoe = self.shoe
        if self._phase == 0 and self.dealing.is_set() and now >= self._deal_at:
            shoe.beam("shoe", True, now)
            uid = uid_of(self._next_uid)
            self._next_uid += 1
            shoe.tag("shoe", uid, now)
            self._phase = 1
            self._deal_at = now + 30
        elif self._phase == 1 and now >= self._deal_at:
            shoe.beam("shoe", False, now)
            self._phase = 2
            self._deal_at = now + self.card_every_ms
        elif self._phase == 2 and now >= self._deal_at:
            self._phase = 0
        cards_before = shoe.counters["cards"]
        shoe.tick(now)
        if shoe.counters["cards"] != cards_before:
            with self.tally.lock:
                self.tally.dealt.append(uid_of(self._next_uid - 1))

    def _run(self) -> None:
        rx = b""
        while not self._stop.is_set():
            now = self.now()
            if self._restart.is_set():
                self._do_restart(now)
                self._restart.clear()
            if select.select([self.master], [], [], 0.0005)[0]:
                try:
                    rx = os.read(self.master, 4096)
                except (BlockingIOError, OSError):
                    rx = b""
                if rx:
                    self._feed(rx, now)
            self._deal(now)
            for line in self.shoe.take_output():
                if self.drop_out and self.rng.random() < self.drop_out:
                    continue
                self._write(line)
                uid = self._uid_in(line) if b",CARD," in line else ""
                if uid:
                    with self.tally.lock:
                        self.tally.written.add(uid)
                        self.tally.sent_as[(self.boot, self.fw.protocol.decode(line)[0])] = uid
