# Card-shoe line protocol: the one source for both ends. The Pi imports it as
# device.shoe.protocol; the shoe's firmware image carries this same file as protocol.py
# (firmware/image.txt lists the image, firmware/deploy.sh copies it onto the Pico; the
# wheel ships it inside the device package). Keep it runnable on MicroPython: no typing,
# no dataclasses, no f-strings.
#
# Frame: $<seq>,<TYPE>[,<field>...]*<CRC>\n
#   seq   decimal 0..65535 (wraps); CRC = CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF)
#   over the bytes between "$" and "*", four upper-case hex digits. Fields never contain
#   "," "*" or "$". A line is at most 96 bytes; "\r" is ignored.
#
# Read points: a shoe board has one or two read gates (a break-beam plus a PN532 reader):
# "shoe", the shoe's exit, and "slot", the letterbox at the mouth of the discard tray.
#
# Shoe -> Pi (protocol 3)
#   HELLO,proto=3,fw=x.y.z,boot=<8 hex>,reader=<name>,base=<seq>,ready=<0|1>,points=shoe+slot
#                                                   at boot (ready=0) and on every HELLO?;
#                                                   points=shoe for a board with one gate
#   CARD,<uid hex>,<point>                          reliable: resent until ACKed
#   ERR,<code>,<point>[,<detail>]                   reliable: resent until ACKed; errors of
#                                                   the whole board (FATAL, OVERFLOW) say shoe
#   HB,<uptime_s>,<state>,<unacked>,<base>,<boot>   every second, never ACKed
#   ACK,<host seq>                                  reply to MODE / LED / RESET
# Pi -> shoe
#   HELLO?[,<boot>]   ACK,<seq>,<boot>   MODE,deal|enrol|idle   LED,<pattern>   RESET
#
# Versions. 1: the first shoe. 2: the boot-naming HELLO (ready=0|1, below). 3: read points
# (the point field in CARD and ERR, points= in HELLO). The point needed a new number, not
# 2 again: protocol 2 shoes are in use and send CARD,<uid> with no point, and a Pi must
# tell those from a two-gate board by the HELLO alone. The Pi still talks to protocol 1
# and 2 shoes, as shoe-only: their frames have no point, every card is read at "shoe".
#
# Reliable frames (CARD, ERR) use consecutive seq numbers per boot, across both gates, so
# the Pi gets the cards of both read points in the order the board judged them; the other
# frames carry the shoe's next seq and do not consume one. "base" is the oldest seq the
# shoe still holds (or its next seq when nothing is unacked): anything older is gone.
#
# Reliable frames carry no boot id, so the Pi must know which boot sends them. A boot
# starts with ready=0 and sends no reliable frame until a HELLO? that names it: the Pi
# names a boot only after reading one of its frames (HELLO or HB), so it has seen the
# restart before that boot's first card; a plain HELLO? (the Pi does not know the boot
# yet, e.g. on opening the port) only gets a HELLO back. "ready=1" means the boot has been
# named; the Pi applies reliable frames only after a ready=1 HELLO of the boot it knows.
# A restart while the port stays open (a UART shoe, a soft reset) thus always leads to
# HELLO?,<boot> and cards. An ACK names the boot too: one still on its way when the shoe
# restarts must not clear the new boot's frame of the same seq. Protocol 1 firmware (no
# "ready", any HELLO? makes it ready) is answered once per boot.

# Types are comments (``# type: (int) -> int``) that mypy checks and MicroPython never
# sees; the names they use are imported for mypy only (it takes TYPE_CHECKING as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence  # noqa: F401 (in type comments)

PROTO_VERSION = 3
PROTO_ACCEPTED = (1, 2, 3)  # what the Pi still talks to
PROTO_POINTS = 3  # the first version whose CARD/ERR frames name their read point
MAX_LINE = 96
SEQ_MOD = 65536

HELLO = "HELLO"
CARD = "CARD"
ERR = "ERR"
HB = "HB"
ACK = "ACK"
HELLO_Q = "HELLO?"
MODE = "MODE"
LED = "LED"
RESET = "RESET"

RELIABLE = (CARD, ERR)

ERR_MISREAD = "MISREAD"
ERR_DOUBLE = "DOUBLE"
ERR_JAM = "JAM"
ERR_READER = "READER"
ERR_OVERFLOW = "OVERFLOW"
ERR_BADFRAME = "BADFRAME"
ERR_FATAL = "FATAL"
ERR_CODES = (ERR_MISREAD, ERR_DOUBLE, ERR_JAM, ERR_READER, ERR_OVERFLOW, ERR_BADFRAME, ERR_FATAL)

MODES = ("deal", "enrol", "idle")

SHOE = "shoe"  # the shoe's exit
SLOT = "slot"  # the discard slot
POINTS = (SHOE, SLOT)

# Reasons a line is not a usable frame (FrameError.reason).
NOISE = "noise"  # does not start with "$": console output, boot banner
BADCRC = "crc"  # checksum mismatch
MALFORMED = "malformed"  # starts with "$" and the CRC fits, but the content is wrong
TOOLONG = "toolong"

_HEX = "0123456789ABCDEF"
_FORBIDDEN = ",*$\r\n"


class FrameError(ValueError):
    """A line that is not a valid frame; ``reason`` is one of NOISE/BADCRC/MALFORMED/TOOLONG."""

    def __init__(self, reason, message):
        # type: (str, str) -> None
        super().__init__(message)
        self.reason = reason


_TABLE = []  # type: list[int]


def crc16_py(data, crc=0xFFFF):
    # type: (bytes, int) -> int
    """CRC-16/CCITT-FALSE in pure Python (table driven; the table is built on first use)."""
    if not _TABLE:
        for i in range(256):
            c = i << 8
            for _ in range(8):
                c = ((c << 1) ^ 0x1021) & 0xFFFF if c & 0x8000 else (c << 1) & 0xFFFF
            _TABLE.append(c)
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _TABLE[(crc >> 8) ^ byte]
    return crc


try:  # CPython's C implementation of the same CRC; MicroPython has no crc_hqx
    from binascii import crc_hqx as _crc_hqx
except ImportError:
    _crc_hqx = None  # type: ignore[assignment]


def crc16(data, crc=0xFFFF):
    # type: (bytes, int) -> int
    """CRC-16/CCITT-FALSE of ``data`` (bytes); check value for b"123456789" is 0x29B1."""
    if _crc_hqx is not None:
        return _crc_hqx(data, crc)
    return crc16_py(data, crc)


def hex4(value):
    # type: (int) -> str
    """``value`` (0..65535) as four upper-case hex digits."""
    return (
        _HEX[(value >> 12) & 15]
        + _HEX[(value >> 8) & 15]
        + _HEX[(value >> 4) & 15]
        + _HEX[value & 15]
    )


def encode(seq, kind, fields=()):
    # type: (int, str, Sequence[object]) -> bytes
    """The frame for ``seq``, ``kind`` and ``fields`` as bytes ending in ``\\n``."""
    parts = [str(seq % SEQ_MOD), kind]
    for field in fields:
        text = str(field)
        for ch in _FORBIDDEN:
            if ch in text:
                raise ValueError("field " + repr(text) + " contains " + repr(ch))
        parts.append(text)
    body = ",".join(parts).encode()
    line = b"$" + body + b"*" + hex4(crc16(body)).encode() + b"\n"
    if len(line) > MAX_LINE:
        raise ValueError("frame longer than " + str(MAX_LINE) + " bytes")
    return line


def decode(line):
    # type: (bytes | str) -> tuple[int, str, list[str]]
    """Parse one line (bytes or str) into ``(seq, kind, fields)``; raise FrameError."""
    if isinstance(line, str):
        line = line.encode()
    line = line.replace(b"\r", b"").rstrip(b"\n")
    if not line.startswith(b"$"):
        raise FrameError(NOISE, "not a frame (no leading $)")
    if len(line) > MAX_LINE:
        raise FrameError(TOOLONG, "frame longer than " + str(MAX_LINE) + " bytes")
    star = line.rfind(b"*")
    if star < 0 or len(line) - star != 5:
        raise FrameError(BADCRC, "frame has no *CRC16 trailer")
    body = line[1:star]
    trailer = line[star + 1 :]
    for byte in trailer:  # exactly four upper-case hex digits: "a" for "A" is damage too
        if byte not in b"0123456789ABCDEF":
            raise FrameError(BADCRC, "CRC is not upper-case hex")
    want = int(trailer.decode(), 16)
    if crc16(body) != want:
        raise FrameError(BADCRC, "CRC mismatch")
    try:
        text = body.decode()
    except UnicodeError:
        raise FrameError(MALFORMED, "frame is not ASCII") from None
    parts = text.split(",")
    if len(parts) < 2 or not parts[1]:
        raise FrameError(MALFORMED, "frame has no type")
    seq_text = parts[0]
    if not seq_text or not seq_text.isdigit() or int(seq_text) >= SEQ_MOD:
        raise FrameError(MALFORMED, "bad sequence number " + repr(seq_text))
    if "$" in text:
        raise FrameError(MALFORMED, "stray $ inside frame")
    return int(seq_text), parts[1], parts[2:]


def seq_next(seq):
    # type: (int) -> int
    """The sequence number after ``seq`` (wraps at 65536)."""
    return (seq + 1) % SEQ_MOD


def seq_diff(a, b):
    # type: (int, int) -> int
    """Signed distance from ``b`` to ``a`` in sequence space: -32768..32767."""
    d = (a - b) % SEQ_MOD
    if d >= SEQ_MOD // 2:
        d -= SEQ_MOD
    return d


def parse_kv(fields):
    # type: (Iterable[str]) -> dict[str, str]
    """``["proto=1", "fw=0.1.0"]`` -> ``{"proto": "1", "fw": "0.1.0"}`` (bare words map to "")."""
    out = {}
    for field in fields:
        eq = field.find("=")
        if eq < 0:
            out[field] = ""
        else:
            out[field[:eq]] = field[eq + 1 :]
    return out


def hello_fields(fw, boot, reader, base, ready=None, points=None):
    # type: (str, str, str, int, bool | None, Iterable[str] | None) -> tuple[str, ...]
    """The fields of a HELLO frame; ``ready``: named by a HELLO? in this boot (None: omit,
    as protocol 1 firmware did); ``points``: the read points of this board (None: omit,
    as protocol 1 and 2 firmware did)."""
    fields = (
        "proto=" + str(PROTO_VERSION),
        "fw=" + fw,
        "boot=" + boot,
        "reader=" + reader,
        "base=" + str(base),
    )  # type: tuple[str, ...]
    if ready is not None:
        fields = fields + ("ready=" + ("1" if ready else "0"),)
    if points is not None:
        fields = fields + ("points=" + "+".join(points),)
    return fields


def parse_points(text):
    # type: (str) -> tuple[str, ...]
    """``"shoe+slot"`` -> ``("shoe", "slot")``; ValueError for an unknown or repeated point."""
    points = tuple(text.split("+"))
    for i in range(len(points)):
        if points[i] not in POINTS or points[i] in points[:i]:
            raise ValueError("bad read points " + repr(text))
    return points


def card_fields(uid, point):
    # type: (str, str) -> tuple[str, str]
    """The fields of a protocol 3 CARD frame."""
    return (uid, point)


def err_fields(code, point, detail=""):
    # type: (str, str, str) -> tuple[str, ...]
    """The fields of a protocol 3 ERR frame."""
    if detail:
        return (code, point, detail)
    return (code, point)


def split_reliable(kind, fields, proto):
    # type: (str, Sequence[str], int) -> tuple[str, list[str]]
    """``(point, rest)`` of a CARD/ERR frame from a shoe speaking ``proto``: CARD rest is
    ``[uid]``, ERR rest ``[code, detail...]``. Before protocol 3 every point is "shoe".
    ValueError when a protocol 3 frame has no read point or an unknown one."""
    if proto < PROTO_POINTS:
        return SHOE, list(fields)
    if len(fields) < 2:
        raise ValueError(kind + " without its read point")
    point, rest = fields[1], [fields[0]] + list(fields[2:])
    if point not in POINTS:
        raise ValueError("unknown read point " + repr(point))
    return point, rest


def is_uid(text):
    # type: (str) -> bool
    """True for a tag UID: 8..20 upper-case hex digits (4, 7 or 10 byte UIDs)."""
    if len(text) < 8 or len(text) > 20 or len(text) % 2:
        return False
    for ch in text:
        if ch not in _HEX:
            return False
    return True
