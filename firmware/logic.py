# Card-shoe logic: beam edges + tag reads -> CARD / MISREAD / DOUBLE / JAM frames,
# retransmission until the Pi ACKs, heartbeat, host commands. No hardware here: hw.py
# feeds it, main.py runs the loop. Runs on MicroPython and on CPython (host tests).
#
# The read gate: a card event is a beam edge plus tag UIDs that are new in that window.
# The window opens when the beam is blocked and closes GRACE_MS after it clears; then
#   no new UID -> ERR,MISREAD   one -> CARD,<uid>   two or more -> ERR,DOUBLE,<uid>+<uid>
# A beam blocked for JAM_MS reports ERR,JAM once (the window is still judged on clear).
# "New" = not already dealt since the last MODE command (the antenna also sees the
# card that just left, and the rest of the stack behind the shielding).

import protocol as p

FW_VERSION = "0.2.0"  # 0.2.0: HELLO says ready=0|1
WINDOW = 32  # unacked reliable frames kept; older ones are dropped (HB "base" tells)
RETRANSMIT_MS = 500
HEARTBEAT_MS = 1000
JAM_MS = 2000
GRACE_MS = 60


def plain_diff(a, b):
    return a - b


class Shoe:
    """Protocol and read-gate state of the shoe; output frames collect in ``out``."""

    def __init__(self, boot, now, reader="PN532", diff=plain_diff):
        self.boot = boot
        self.reader = reader
        self.diff = diff  # time.ticks_diff on the Pico (ticks_ms wraps)
        self.start = now
        self.seq = 0
        self.unacked = []  # [seq, line, last_sent_ms], oldest first
        self.host_ready = False  # a HELLO? naming this boot received
        self.mode = "deal"
        self.led = ""
        self.reset_requested = False
        self.blocked = False
        self.blocked_since = now
        self.cleared_at = now
        self.jammed = False
        self.window = None  # list of new UIDs while the gate is open, else None
        self.dealt = set()
        self.last_hb = now
        self.rx = b""
        self.out = []
        self.counters = {"cards": 0, "misreads": 0, "doubles": 0, "jams": 0, "dropped": 0}
        self.send_hello()

    # -- frames --------------------------------------------------------------------
    def base(self):
        return self.unacked[0][0] if self.unacked else self.seq

    def send_hello(self):
        fields = p.hello_fields(FW_VERSION, self.boot, self.reader, self.base(), self.host_ready)
        self.out.append(p.encode(self.seq, p.HELLO, fields))

    def heartbeat(self, now):
        uptime = self.diff(now, self.start) // 1000
        state = "jam" if self.jammed else self.mode
        fields = (str(uptime), state, str(len(self.unacked)), str(self.base()), self.boot)
        self.out.append(p.encode(self.seq, p.HB, fields))

    def reliable(self, kind, fields, now):
        """Queue a CARD/ERR frame; it is resent until ACKed."""
        if len(self.unacked) >= WINDOW:
            self.unacked.pop(0)
            self.counters["dropped"] += 1
        line = p.encode(self.seq, kind, fields)
        self.unacked.append([self.seq, line, now])
        self.seq = p.seq_next(self.seq)
        if self.host_ready:
            self.out.append(line)

    def error(self, code, detail, now):
        fields = (code, detail) if detail else (code,)
        self.reliable(p.ERR, fields, now)

    # -- sensors -------------------------------------------------------------------
    def beam(self, blocked, now):
        """The break-beam's current state (call every loop; edges are found here)."""
        if blocked and not self.blocked:
            self.blocked = True
            self.blocked_since = now
            self.jammed = False
            if self.window is not None:  # the last card's grace time is not over yet
                self.judge(now)
            self.window = []
        elif not blocked and self.blocked:
            self.blocked = False
            self.cleared_at = now

    def wants_reads(self):
        """True while the read gate is open: poll the reader only then."""
        return self.window is not None

    def tag(self, uid, now):
        """A tag UID the reader saw (upper-case hex)."""
        if self.window is None or uid in self.dealt or uid in self.window:
            return
        self.window.append(uid)

    def judge(self, now):
        uids = self.window
        self.window = None
        if self.mode == "idle":
            return
        if not uids:
            self.counters["misreads"] += 1
            self.error(p.ERR_MISREAD, "", now)
        elif len(uids) == 1:
            self.counters["cards"] += 1
            self.dealt.add(uids[0])
            self.reliable(p.CARD, (uids[0],), now)
        else:
            self.counters["doubles"] += 1
            self.error(p.ERR_DOUBLE, "+".join(uids[:2]), now)

    # -- host ----------------------------------------------------------------------
    def feed(self, data, now):
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
                for entry in self.unacked:  # resend at once what the host may have missed
                    entry[2] = now
                    self.out.append(entry[1])
            return
        if kind == p.MODE and fields and fields[0] in p.MODES:
            self.mode = fields[0]
            self.dealt = set()
        elif kind == p.LED and fields:
            self.led = fields[0]
        elif kind == p.RESET:
            self.reset_requested = True
        else:
            return
        self.out.append(p.encode(self.seq, p.ACK, (str(seq),)))

    # -- time ----------------------------------------------------------------------
    def tick(self, now):
        if self.blocked and not self.jammed and self.diff(now, self.blocked_since) >= JAM_MS:
            self.jammed = True
            self.counters["jams"] += 1
            self.error(p.ERR_JAM, "", now)
        if (
            self.window is not None
            and not self.blocked
            and self.diff(now, self.cleared_at) >= GRACE_MS
        ):
            self.judge(now)
        if self.host_ready:
            for entry in self.unacked:
                if self.diff(now, entry[2]) >= RETRANSMIT_MS:
                    entry[2] = now
                    self.out.append(entry[1])
        if self.diff(now, self.last_hb) >= HEARTBEAT_MS:
            self.last_hb = now
            self.heartbeat(now)

    def take_output(self):
        out = self.out
        self.out = []
        return out
