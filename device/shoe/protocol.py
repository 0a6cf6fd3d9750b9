# Card-shoe line protocol, shared byte-for-byte by the Pi (device/shoe/protocol.py) and
# the shoe's MicroPython firmware (firmware/protocol.py); a test keeps the two identical.
# Keep it runnable on MicroPython: no typing, no dataclasses, no f-string "=" specifiers.
#
# Frame: $<seq>,<TYPE>[,<field>...]*<CRC>\n
#   seq   decimal 0..65535 (wraps); CRC = CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF)
#   over the bytes between "$" and "*", four upper-case hex digits. Fields never contain
#   "," "*" or "$". A line is at most 96 bytes; "\r" is ignored.
#
# Shoe -> Pi
#   HELLO,proto=1,fw=x.y.z,boot=<8 hex>,reader=<name>,base=<seq>   at boot, on HELLO?
#   CARD,<uid hex>                                  reliable: resent until ACKed
#   ERR,<code>[,<detail>]                           reliable: resent until ACKed
#   HB,<uptime_s>,<state>,<unacked>,<base>,<boot>   every second, never ACKed
#   ACK,<host seq>                                  reply to MODE / LED / RESET
# Pi -> shoe
#   HELLO?   ACK,<seq>   MODE,deal|enrol|idle   LED,<pattern>   RESET
#
# Reliable frames (CARD, ERR) use consecutive seq numbers per boot; the other frames carry
# the shoe's next seq and do not consume one. "base" is the oldest seq the shoe still
# holds (or its next seq when nothing is unacked): anything older is gone for good.
# The shoe sends reliable frames only after it has received HELLO? in the current boot,
# so the host always learns the boot id before it applies a card.

PROTO_VERSION = 1
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
        super().__init__(message)
        self.reason = reason


_TABLE = []


def crc16_py(data, crc=0xFFFF):
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
    _crc_hqx = None


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of ``data`` (bytes); check value for b"123456789" is 0x29B1."""
    if _crc_hqx is not None:
        return _crc_hqx(data, crc)
    return crc16_py(data, crc)


def hex4(value):
    """``value`` (0..65535) as four upper-case hex digits."""
    return (
        _HEX[(value >> 12) & 15]
        + _HEX[(value >> 8) & 15]
        + _HEX[(value >> 4) & 15]
        + _HEX[value & 15]
    )


def encode(seq, kind, fields=()):
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
    try:
        want = int(line[star + 1 :].decode(), 16)
    except (ValueError, UnicodeError):
        raise FrameError(BADCRC, "CRC is not hex") from None
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
    """The sequence number after ``seq`` (wraps at 65536)."""
    return (seq + 1) % SEQ_MOD


def seq_diff(a, b):
    """Signed distance from ``b`` to ``a`` in sequence space: -32768..32767."""
    d = (a - b) % SEQ_MOD
    if d >= SEQ_MOD // 2:
        d -= SEQ_MOD
    return d


def parse_kv(fields):
    """``["proto=1", "fw=0.1.0"]`` -> ``{"proto": "1", "fw": "0.1.0"}`` (bare words map to "")."""
    out = {}
    for field in fields:
        eq = field.find("=")
        if eq < 0:
            out[field] = ""
        else:
            out[field[:eq]] = field[eq + 1 :]
    return out


def hello_fields(fw, boot, reader, base):
    """The fields of a HELLO frame."""
    return (
        "proto=" + str(PROTO_VERSION),
        "fw=" + fw,
        "boot=" + boot,
        "reader=" + reader,
        "base=" + str(base),
    )


def is_uid(text):
    """True for a tag UID: 8..20 upper-case hex digits (4, 7 or 10 byte UIDs)."""
    if len(text) < 8 or len(text) > 20 or len(text) % 2:
        return False
    for ch in text:
        if ch not in _HEX:
            return False
    return True
