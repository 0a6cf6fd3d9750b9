# Card-shoe firmware logic: the read gates (beam edges + tag reads -> CARD / MISREAD /
# DOUBLE / JAM frames, each naming its read point), retransmission until the Pi ACKs,
# heartbeat, host commands. No hardware here: firmware/hw.py feeds it, firmware/main.py
# runs the loop. One source for both ends: the firmware image carries this file as
# fwlogic.py (firmware/image.txt), and the Pi's simulated shoe (device/shoe/sim.py) runs
# it too. Runs on MicroPython and on CPython: no typing, no dataclasses, no f-strings.
#
# A read gate ("shoe": the shoe's exit; "slot": the discard slot's mouth) is a break-beam
# and a PN532 reader. The beam's level counts once it has been stable for DEBOUNCE_MS (a
# flicker inside one card does not split it, a glitch is not a card). A pass opens the
# gate's window at the blocked edge; the window closes GRACE_MS after the beam clears (or
# at the next blocked edge), and is judged on the tag UIDs new in it:
#   no new UID -> ERR,MISREAD,<point>   one -> CARD,<uid>,<point>
#   two or more -> ERR,DOUBLE,<point>,<uid>+<uid>
# A beam blocked for JAM_MS reports ERR,JAM,<point> once (the window is still judged on
# clear). "New": not in the window already, and not a card this gate reported recently:
# the shoe's antenna also sees the card that just left (kept until the next MODE command:
# a card leaves the shoe once per load), the slot's sees the card that just fell onto the
# pile for a moment (kept for SLOT_HOLDOFF_MS: the same card may come through the slot
# again later in the hand, after it was taken from the pile).

try:
    from device.shoe import protocol as p  # the Pi and host tests: the package
except ImportError:  # the Pico: flat files
    p = __import__("protocol")

# Types are comments that mypy checks (see protocol.py); MicroPython never sees them.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence  # noqa: F401 (in type comments)

FW_VERSION = "0.3.0"  # 0.3.0: two read points (protocol 3); 0.2.0: HELLO says ready=0|1
WINDOW = 32  # unacked reliable frames kept; older ones are dropped (HB "base" tells)
RETRANSMIT_MS = 500
HEARTBEAT_MS = 1000
JAM_MS = 2000
GRACE_MS = 60
DEBOUNCE_MS = 3
SLOT_HOLDOFF_MS = 1500


def plain_diff(a, b):
    # type: (int, int) -> int
    return a - b


class Gate:
    """One read gate's state: the debounced beam, the open window, recent cards.

    Verdicts collect in ``out`` as ``("judge", uids)`` and ``("jam", None)``; the Shoe
    turns them into frames."""

    def __init__(self, point, now, diff=plain_diff):
        # type: (str, int, Callable[[int, int], int]) -> None
        self.point = point
        self.diff = diff
        self.debounce_ms = DEBOUNCE_MS
        self.grace_ms = GRACE_MS
        self.jam_ms = JAM_MS
        self.holdoff_ms = None if point == p.SHOE else SLOT_HOLDOFF_MS  # None: until MODE
        self.raw = False  # the beam's last sampled level (True = broken)
        self.raw_since = now
        self.blocked = False  # the debounced level
        self.blocked_since = now
        self.cleared_at = now
        self.jammed = False
        self.window = None  # type: list[str] | None  # new UIDs while the window is open, else None
        self.early = []  # type: list[str]  # UIDs read while the beam is broken but not yet debounced
        self.recent = {}  # type: dict[str, int]  # uid -> when this gate reported it
        self.out = []  # type: list[tuple[str, list[str] | None]]

    def _settle(self, now):
        # type: (int) -> None
        """Accept the sampled level once it has been stable for ``debounce_ms``."""
        if self.raw == self.blocked or self.diff(now, self.raw_since) < self.debounce_ms:
            return
        if self.raw:
            self.blocked = True
            self.blocked_since = self.raw_since
            self.jammed = False
            if self.window is not None:  # the last card's grace time is not over yet
                self.judge()
            self.window = self.early
            self.early = []
        else:
            self.blocked = False
            self.cleared_at = self.raw_since

    def beam(self, broken, now):
        # type: (bool, int) -> None
        """The beam's level now (call every loop, or at least at every change)."""
        self._settle(now)  # the old level may have become stable since the last sample
        if broken != self.raw:
            self.raw = broken
            self.raw_since = now
            if not broken and not self.blocked:
                self.early = []  # a glitch shorter than the debounce: no card
        self._settle(now)

    def wants_reads(self):
        # type: () -> bool
        """True while the reader should be polled: a window open or the beam broken."""
        return self.window is not None or self.raw

    def is_recent(self, uid, now):
        # type: (str, int) -> bool
        when = self.recent.get(uid)
        if when is None:
            return False
        return self.holdoff_ms is None or self.diff(now, when) < self.holdoff_ms

    def tag(self, uid, now):
        # type: (str, int) -> None
        """A tag UID the reader saw (upper-case hex)."""
        if uid in self.early or (self.window is not None and uid in self.window):
            return
        if self.is_recent(uid, now):
            return
        if self.raw and not self.blocked:
            self.early.append(uid)  # the next card: its edge is not debounced yet
        elif self.window is not None:
            self.window.append(uid)

    def judge(self):
        # type: () -> None
        uids = self.window
        self.window = None
        self.out.append(("judge", uids))

    def remember(self, uid, now):
        # type: (str, int) -> None
        if self.holdoff_ms is not None:  # forget what is past the hold-off
            for old in list(self.recent):
                if self.diff(now, self.recent[old]) >= self.holdoff_ms:
                    del self.recent[old]
        self.recent[uid] = now

    def tick(self, now):
        # type: (int) -> None
        self._settle(now)
        if self.blocked and not self.jammed and self.diff(now, self.blocked_since) >= self.jam_ms:
            self.jammed = True
            self.out.append(("jam", None))
        if (
            self.window is not None
            and not self.blocked
            and self.diff(now, self.cleared_at) >= self.grace_ms
        ):
            self.judge()


class Shoe:
    """Protocol and read-gate state of the board; output frames collect in ``out``.

    ``points``: the gates this board is built with, in HELLO order (("shoe",) or
    ("shoe", "slot")). Sensor calls name the gate: ``beam(point, broken, now)``,
    ``tag(point, uid, now)``, ``wants_reads(point)``."""

    def __init__(self, boot, now, reader="PN532", diff=plain_diff, points=None, fw=FW_VERSION):
        # type: (str, int, str, Callable[[int, int], int], Iterable[str] | None, str) -> None
        self.boot = boot
        self.reader = reader
        self.fw = fw
        self.diff = diff  # time.ticks_diff on the Pico (ticks_ms wraps)
        self.points = tuple(points) if points else (p.SHOE,)
        self.gates = {}  # type: dict[str, Gate]
        for point in self.points:
            if point not in p.POINTS:
                raise ValueError("unknown read point " + repr(point))
            self.gates[point] = Gate(point, now, diff)
        self.retransmit_ms = RETRANSMIT_MS
        self.heartbeat_ms = HEARTBEAT_MS
        self.start = now
        self.seq = 0
        self.unacked = []  # type: list[tuple[int, bytes, int]]  # (seq, line, last_sent_ms), oldest first
        self.host_ready = False  # a HELLO? naming this boot received
        self.mode = "deal"
        self.led = ""
        self.reset_requested = False
        self.cmd_seq = -1  # the last MODE/LED applied: the Pi resends until it has our ACK
        self.cmd_fields = None  # type: list[str] | None
        self.last_hb = now
        self.rx = b""
        self.out = []  # type: list[bytes]
        self.counters = {"cards": 0, "misreads": 0, "doubles": 0, "jams": 0, "dropped": 0}
        self.send_hello()

    # -- frames --------------------------------------------------------------------
    def base(self):
        # type: () -> int
        return self.unacked[0][0] if self.unacked else self.seq

    def send_hello(self):
        # type: () -> None
        fields = p.hello_fields(
            self.fw, self.boot, self.reader, self.base(), self.host_ready, self.points
        )
        self.out.append(p.encode(self.seq, p.HELLO, fields))

    def state(self):
        # type: () -> str
        for gate in self.gates.values():
            if gate.jammed:
                return "jam"
        return self.mode

    def heartbeat(self, now):
        # type: (int) -> None
        uptime = self.diff(now, self.start) // 1000
        fields = (str(uptime), self.state(), str(len(self.unacked)), str(self.base()), self.boot)
        self.out.append(p.encode(self.seq, p.HB, fields))

    def reliable(self, kind, fields, now):
        # type: (str, Sequence[str], int) -> None
        """Queue a CARD/ERR frame; it is resent until ACKed."""
        if len(self.unacked) >= WINDOW:
            self.unacked.pop(0)
            self.counters["dropped"] += 1
        line = p.encode(self.seq, kind, fields)
        self.unacked.append((self.seq, line, now))
        self.seq = p.seq_next(self.seq)
        if self.host_ready:
            self.out.append(line)

    def error(self, code, detail, now, point=None):
        # type: (str, str, int, str | None) -> None
        """An ERR frame; errors of the whole board name the shoe."""
        self.reliable(p.ERR, p.err_fields(code, point or p.SHOE, detail), now)

    # -- sensors -------------------------------------------------------------------
    @property
    def blocked(self):
        # type: () -> bool
        """A card in some gate's beam now."""
        for gate in self.gates.values():
            if gate.blocked:
                return True
        return False

    def beam(self, point, broken, now):
        # type: (str, bool, int) -> None
        """The beam of gate ``point`` now (call every loop; edges are found here)."""
        gate = self.gates[point]
        gate.beam(broken, now)
        self._verdicts(gate, now)

    def wants_reads(self, point):
        # type: (str) -> bool
        """True while gate ``point``'s window is open: poll its reader only then."""
        return self.gates[point].wants_reads()

    def tag(self, point, uid, now):
        # type: (str, str, int) -> None
        """A tag UID gate ``point``'s reader saw (upper-case hex)."""
        self.gates[point].tag(uid, now)

    def _verdicts(self, gate, now):
        # type: (Gate, int) -> None
        while gate.out:
            what, uids = gate.out.pop(0)
            if what == "jam":
                self.counters["jams"] += 1
                self.error(p.ERR_JAM, "", now, gate.point)
            elif self.mode != "idle":
                self.judged(gate, uids, now)

    def judged(self, gate, uids, now):
        # type: (Gate, list[str] | None, int) -> None
        if not uids:
            self.counters["misreads"] += 1
            self.error(p.ERR_MISREAD, "", now, gate.point)
        elif len(uids) == 1:
            self.counters["cards"] += 1
            gate.remember(uids[0], now)
            self.reliable(p.CARD, p.card_fields(uids[0], gate.point), now)
        else:
            self.counters["doubles"] += 1
            self.error(p.ERR_DOUBLE, "+".join(uids[:2]), now, gate.point)

    # -- host ----------------------------------------------------------------------
    def feed(self, data, now):
        # type: (bytes, int) -> None
        """Bytes from the host; complete lines are handled."""
        self.rx += data
        while True:
            nl = self.rx.find(b"\n")
            if nl < 0:
                break
            line = self.rx[:nl]
            self.rx = self.rx[nl + 1 :]
            self.host_line(line, now)
        if len(self.rx) > 2 * p.MAX_LINE:
            self.rx = b""

    def host_line(self, line, now):
        # type: (bytes, int) -> None
        try:
            seq, kind, fields = p.decode(line)
        except p.FrameError:
            return  # noise or a damaged command: the host repeats what matters
        if kind == p.ACK:
            if len(fields) > 1 and fields[1] != self.boot:
                return  # meant for the boot before a restart
            if fields and fields[0].isdigit():
                acked = int(fields[0])
                for i in range(len(self.unacked)):
                    if self.unacked[i][0] == acked:
                        self.unacked.pop(i)
                        break
            return
        if kind == p.HELLO_Q:
            if fields and fields[0] == self.boot:  # the host knows this boot: cards may go
                self.host_ready = True
            self.send_hello()
            if self.host_ready:
                for i in range(len(self.unacked)):  # resend at once what the host may have missed
                    frame_seq, frame, _ = self.unacked[i]
                    self.unacked[i] = (frame_seq, frame, now)
                    self.out.append(frame)
            return
        if kind in (p.MODE, p.LED) and seq == self.cmd_seq and fields == self.cmd_fields:
            self.out.append(p.encode(self.seq, p.ACK, (str(seq),)))  # a resend: once is enough
            return
        if kind in (p.MODE, p.LED):
            self.cmd_seq, self.cmd_fields = seq, fields
        if kind == p.MODE and fields and fields[0] in p.MODES:
            self.mode = fields[0]
            for gate in self.gates.values():  # a new load: every card may come again
                gate.recent = {}
        elif kind == p.LED and fields:
            self.led = fields[0]
        elif kind == p.RESET:
            self.reset_requested = True
        else:
            return
        self.out.append(p.encode(self.seq, p.ACK, (str(seq),)))

    # -- time ----------------------------------------------------------------------
    def tick(self, now):
        # type: (int) -> None
        gates = list(self.gates.values())
        if len(gates) > 1:  # windows closing in one tick: the card that left first first
            for gate in gates:
                gate._settle(now)
            gates.sort(key=lambda g: self.diff(g.cleared_at, now))
        for gate in gates:
            gate.tick(now)
            self._verdicts(gate, now)
        if self.host_ready:
            for i in range(len(self.unacked)):
                frame_seq, frame, sent = self.unacked[i]
                if self.diff(now, sent) >= self.retransmit_ms:
                    self.unacked[i] = (frame_seq, frame, now)
                    self.out.append(frame)
        if self.diff(now, self.last_hb) >= self.heartbeat_ms:
            self.last_hb = now
            self.heartbeat(now)

    def take_output(self):
        # type: () -> list[bytes]
        out = self.out
        self.out = []
        return out
