"""``rummy-table shoe-sim``: a simulated card shoe on a pseudo-terminal.

It speaks the real protocol (device/shoe/protocol.py) like the firmware: HELLO, heartbeat,
CARD/ERR frames resent until ACKed, reliable frames only after ``HELLO?``. Cards carry the
simulated UIDs of :func:`device.shoe.deckmap.sim_uid`, so ``DeckMap.simulated()`` maps them.
Faults can be injected: garbage lines, bad checksums, dropped and duplicated frames,
misreads (an ERR MISREAD, then the same card is fed again) and a disconnect (the pty goes
away and comes back at the same ``--link`` path, as a replugged USB shoe would).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import random
import select
import signal
import sys
import time
import tty
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from device.shoe import protocol as p
from device.shoe.deckmap import sim_uid
from rummy.cards import Card, CardError, parse_cards, shuffled_deck

FW_VERSION = "sim-1.0"
WINDOW = 32  # like the firmware: at most this many unacked frames


@dataclass(frozen=True, slots=True)
class Faults:
    """Probabilities (0..1) per transmitted frame / dealt card."""

    garbage: float = 0.0
    bad_crc: float = 0.0
    drop: float = 0.0
    dup: float = 0.0
    misread: float = 0.0


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


class SimShoe:
    """Shoe-side protocol state and fault injection, writing to a pty master fd."""

    def __init__(
        self,
        cards: Sequence[tuple[Card, int]],
        *,
        faults: Faults = Faults(),
        rng: random.Random | None = None,
        interval: float = 0.02,
        retransmit: float = 0.2,
        boot: str | None = None,
    ) -> None:
        self.cards = list(cards)
        self.faults = faults
        self.rng = rng or random.Random()
        self.interval = interval
        self.retransmit = retransmit
        self.boot = boot or f"{random.getrandbits(32):08X}"
        self.fd: int | None = None
        self.seq = 0
        self.unacked: dict[int, list] = {}  # seq -> [line, last_sent]
        self.host_ready = False
        self.acked = 0
        self.next_card = 0
        self.next_deal_t = 0.0
        self.next_hb_t = 0.0
        self.start_t = time.monotonic()
        self.rx = b""
        self.sent = {"frames": 0, "dropped": 0, "corrupted": 0, "duplicated": 0, "garbage": 0}

    # -- output ------------------------------------------------------------------------
    def _write(self, data: bytes) -> None:
        if self.fd is None:
            return
        with contextlib.suppress(BlockingIOError, OSError):  # nobody reading: lost, as on USB
            os.write(self.fd, data)

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
            self._write(junk)
        if f.drop and rng.random() < f.drop:
            self.sent["dropped"] += 1
            return
        if f.bad_crc and rng.random() < f.bad_crc:
            self.sent["corrupted"] += 1
            self._write(corrupt(line, rng))
            return
        self._write(line)
        if f.dup and rng.random() < f.dup:
            self.sent["duplicated"] += 1
            self._write(line)

    def base(self) -> int:
        return (
            min(self.unacked, key=lambda s: p.seq_diff(s, self.seq)) if self.unacked else self.seq
        )

    def hello(self) -> None:
        self.transmit(
            p.encode(
                self.seq,
                p.HELLO,
                p.hello_fields(FW_VERSION, self.boot, "SIM", self.base(), self.host_ready),
            )
        )

    def reliable(self, kind: str, fields: tuple[str, ...], now: float) -> None:
        line = p.encode(self.seq, kind, fields)
        self.unacked[self.seq] = [line, now]
        self.seq = p.seq_next(self.seq)
        self.transmit(line)

    # -- input -------------------------------------------------------------------------
    def receive(self, data: bytes, now: float) -> None:
        self.rx += data
        *lines, self.rx = self.rx.split(b"\n")
        self.rx = self.rx[-4 * p.MAX_LINE :]
        for line in lines:
            try:
                seq, kind, fields = p.decode(line)
            except p.FrameError:
                continue
            if len(fields) > 1 and kind == p.ACK and fields[1] != self.boot:
                continue  # meant for the boot before a restart
            if kind == p.ACK and fields and fields[0].isdigit():
                if self.unacked.pop(int(fields[0]), None) is not None:
                    self.acked += 1
            elif kind == p.HELLO_Q:
                if fields and fields[0] == self.boot:  # like the firmware: named, then ready
                    self.host_ready = True
                self.hello()
            elif kind in (p.MODE, p.LED, p.RESET):
                self.transmit(p.encode(self.seq, p.ACK, (str(seq),)))

    # -- time --------------------------------------------------------------------------
    @property
    def done(self) -> bool:
        return self.next_card >= len(self.cards) and not self.unacked

    def tick(self, now: float) -> None:
        if now >= self.next_hb_t:
            self.next_hb_t = now + 1.0
            uptime = max(0, int(now - self.start_t))
            state = "deal" if self.next_card < len(self.cards) else "idle"
            fields = (str(uptime), state, str(len(self.unacked)), str(self.base()), self.boot)
            self.transmit(p.encode(self.seq, p.HB, fields))
        for entry in list(self.unacked.values()):
            if now - entry[1] >= self.retransmit:
                entry[1] = now
                self.transmit(entry[0])
        if (
            self.host_ready
            and self.next_card < len(self.cards)
            and now >= self.next_deal_t
            and len(self.unacked) < WINDOW
        ):
            self.next_deal_t = now + self.interval
            if self.faults.misread and self.rng.random() < self.faults.misread:
                self.reliable(p.ERR, (p.ERR_MISREAD,), now)  # the dealer feeds it again
                return
            card, deck = self.cards[self.next_card]
            self.next_card += 1
            self.reliable(p.CARD, (sim_uid(card, deck),), now)


class MemoryShoe(SimShoe):
    """A SimShoe that writes into ``out`` instead of a pty (tests and benchmarks)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fd = -1
        self.start_t = 0.0
        self.out = bytearray()

    def _write(self, data: bytes) -> None:
        self.out += data


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
    (``clock[0]``, advanced by ``step`` per round) until every card is dealt and ACKed.
    ``first`` are host frames sent at the start (``HELLO?``). Returns the rounds used."""
    clock = clock if clock is not None else [0.0]
    rng = rng or random.Random(0)
    for line in first:
        shoe.receive(line, clock[0])
    buf = b""
    for steps in range(max_steps):
        if shoe.done:
            return steps
        shoe.tick(clock[0])
        buf += bytes(shoe.out)
        shoe.out.clear()
        *lines, buf = buf.split(b"\n")
        for line in lines:
            for reply in feed(line):
                if not (ack_drop and rng.random() < ack_drop):
                    shoe.receive(reply, clock[0])
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


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="rummy-table shoe-sim", description=__doc__.split("\n\n")[0])
    ap.add_argument("--link", help="also make this symlink to the pty (like /dev/cardshoe)")
    ap.add_argument("--seed", type=int, default=0, help="shuffle seed of the deck(s) to deal")
    ap.add_argument("--decks", type=int, default=1, help="number of packs (contract rummy: 2)")
    ap.add_argument("--order", help="deal this order instead, e.g. 'AS 2S 3S'")
    ap.add_argument("--count", type=int, default=0, help="deal only the first N cards")
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
    ap.add_argument(
        "--exit-when-done",
        action="store_true",
        help="exit once every card is dealt and acknowledged",
    )
    ap.add_argument("--duration", type=float, default=0.0, help="exit after S seconds")
    return ap


def _terminate(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        order = build_order(args)
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
    faults = Faults(args.garbage, args.bad_crc, args.drop, args.dup, args.misread)
    shoe = SimShoe(
        order,
        faults=faults,
        rng=random.Random(args.fault_seed),
        interval=args.interval,
        retransmit=args.retransmit,
        boot=args.boot,
    )
    signal.signal(signal.SIGTERM, _terminate)
    pty = Pty(args.link)
    start = time.monotonic()
    shoe.next_deal_t = start + args.start_delay
    disconnected = False
    try:
        shoe.fd = pty.open()
        print(f"PTY {pty.path}", flush=True)
        if args.link:
            print(f"LINK {args.link}", flush=True)
        shoe.hello()
        while True:
            now = time.monotonic()
            if args.duration and now - start > args.duration:
                break
            if args.exit_when_done and shoe.done:
                time.sleep(0.3)
                break
            if args.disconnect_after and not disconnected and shoe.acked >= args.disconnect_after:
                disconnected = True
                pty.close()
                shoe.fd = None
                print("UNPLUGGED", flush=True)
                time.sleep(args.disconnect_for)
                shoe.fd = pty.open()
                print(f"PTY {pty.path}", flush=True)
                shoe.hello()
                continue
            ready, _, _ = select.select([shoe.fd], [], [], 0.005)
            if ready:
                try:
                    data = os.read(shoe.fd, 4096)
                except OSError as exc:  # EIO: no process has the slave open right now
                    if exc.errno not in (errno.EIO, errno.EAGAIN):
                        raise
                    data = b""
                    time.sleep(0.005)
                if data:
                    shoe.receive(data, now)
            shoe.tick(time.monotonic())
    except KeyboardInterrupt:
        pass
    finally:
        pty.close()
        print(f"DONE dealt={shoe.next_card} sent={shoe.sent}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
