# The only module that touches `machine` and the NFC readers: the read gates' IR
# break-beams and PN532s on one SPI bus, USB CDC (stdin/stdout), hardware watchdog,
# status LED, reset.
#
# Wiring (Raspberry Pi Pico, see README.md):
#   SPI0 shared by both PN532 (SPI mode): SCK -> GP18, MOSI -> GP19, MISO -> GP16
#   gate "shoe" (the shoe's exit): PN532 SS -> GP17, break-beam signal -> GP15
#   gate "slot" (the discard slot): PN532 SS -> GP20, break-beam signal -> GP14
#   beams: internal pull-up, LOW = beam broken; status LED: the Pico's own LED

import sys

import machine

try:
    from time import sleep_ms, ticks_diff, ticks_ms
except ImportError:  # CPython host tests
    import time as _time

    def ticks_ms():
        return int(_time.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b

    def sleep_ms(ms):
        _time.sleep(ms / 1000)


try:
    import select
except ImportError:  # pragma: no cover
    select = None

SPI_ID = 0
PIN_SCK = 18
PIN_MOSI = 19
PIN_MISO = 16
PIN_CS = 17  # gate "shoe"
PIN_BEAM = 15
PIN_CS_SLOT = 20  # gate "slot"
PIN_BEAM_SLOT = 14
GATE_PINS = {"shoe": (PIN_CS, PIN_BEAM), "slot": (PIN_CS_SLOT, PIN_BEAM_SLOT)}  # (SS, beam)
BEAM_BROKEN_LEVEL = 0
WDT_TIMEOUT_MS = 5000

# PN532 SPI framing (UM0701-02 §6.2.5): LSB first on the wire; the RP2040's SPI only
# does MSB first, so bytes are bit-reversed in software.
_DW = 0x01  # data write
_SR = 0x02  # status read
_DR = 0x03  # data read
_HOST_TO_PN532 = 0xD4
_PN532_TO_HOST = 0xD5
CMD_GET_FIRMWARE = 0x02
CMD_SAM_CONFIG = 0x14
CMD_RF_CONFIG = 0x32
CMD_IN_LIST_PASSIVE = 0x4A
ACK_FRAME = b"\x00\x00\xff\x00\xff\x00"



def _reverse_bits(value):
    out = 0
    for _ in range(8):
        out = (out << 1) | (value & 1)
        value >>= 1
    return out


_REV = bytes(_reverse_bits(i) for i in range(256))


def rev(data):
    """Reverse the bit order of every byte (MSB-first SPI <-> LSB-first PN532)."""
    return bytes(_REV[b] for b in data)


def build_frame(cmd, params=b""):
    """A PN532 normal information frame carrying ``cmd`` + ``params``."""
    data = bytes((_HOST_TO_PN532, cmd)) + bytes(params)
    length = len(data)
    dcs = (-sum(data)) & 0xFF
    return bytes((0x00, 0x00, 0xFF, length, (-length) & 0xFF)) + data + bytes((dcs, 0x00))


def parse_frame(raw):
    """The payload after TFI+response code of a PN532 reply frame; ValueError if bad."""
    start = raw.find(b"\x00\xff")
    if start < 0 or start + 4 > len(raw):
        raise ValueError("no PN532 frame start")
    length = raw[start + 2]
    if (length + raw[start + 3]) & 0xFF:
        raise ValueError("bad PN532 length checksum")
    data = raw[start + 4 : start + 4 + length]
    if len(data) != length or start + 4 + length >= len(raw):
        raise ValueError("short PN532 frame")
    if (sum(data) + raw[start + 4 + length]) & 0xFF:
        raise ValueError("bad PN532 data checksum")
    if length < 2 or data[0] != _PN532_TO_HOST:
        raise ValueError("not a PN532 reply")
    return data[1:]  # response code, then the reply fields


def parse_targets(payload):
    """UIDs (upper-case hex) from an InListPassiveTarget reply payload (ISO14443A)."""
    if len(payload) < 2 or payload[0] != CMD_IN_LIST_PASSIVE + 1:
        raise ValueError("not an InListPassiveTarget reply")
    count = payload[1]
    uids = []
    i = 2
    for _ in range(count):
        # Tg, SENS_RES (2), SEL_RES, NFCIDLength, NFCID1..., [ATS]
        if i + 5 > len(payload):
            raise ValueError("short target record")
        n = payload[i + 4]
        uid = payload[i + 5 : i + 5 + n]
        if len(uid) != n:
            raise ValueError("short UID")
        uids.append("".join("{:02X}".format(b) for b in uid))  # noqa: UP032
        i += 5 + n
        if i < len(payload) and payload[i] not in (1, 2):  # skip ATS of ISO-DEP cards
            i += payload[i]
    return uids


class PN532:
    """A minimal PN532 SPI driver: firmware check, SAM config, list up to 2 targets."""

    def __init__(self, spi, cs):
        self.spi = spi
        self.cs = cs
        self.cs.value(1)

    def _write(self, frame):
        self.cs.value(0)
        sleep_ms(1)
        self.spi.write(rev(bytes((_DW,)) + frame))
        self.cs.value(1)

    def _ready(self, timeout_ms):
        start = ticks_ms()
        while True:
            self.cs.value(0)
            self.spi.write(rev(bytes((_SR,))))
            status = rev(self.spi.read(1))[0]
            self.cs.value(1)
            if status & 1:
                return True
            if ticks_diff(ticks_ms(), start) >= timeout_ms:
                return False
            sleep_ms(1)

    def _read(self, n):
        self.cs.value(0)
        self.spi.write(rev(bytes((_DR,))))
        data = rev(self.spi.read(n))
        self.cs.value(1)
        return data

    def call(self, cmd, params=b"", reply_len=32, timeout_ms=100):
        """Send a command, check the ACK, return the reply payload (or None on timeout)."""
        self._write(build_frame(cmd, params))
        if not self._ready(timeout_ms) or self._read(len(ACK_FRAME)) != ACK_FRAME:
            return None
        if not self._ready(timeout_ms):
            return None
        return parse_frame(self._read(reply_len + 8))

    def begin(self):
        """Wake the chip and configure it; the firmware version string, or None."""
        version = self.call(CMD_GET_FIRMWARE, reply_len=6)
        if version is None:
            return None
        self.call(CMD_SAM_CONFIG, b"\x01\x14\x01")  # normal mode, no IRQ pin
        self.call(CMD_RF_CONFIG, b"\x05\xff\x01\x02")  # few retries: return at once
        return "PN532 v{}.{}".format(version[2], version[3])  # noqa: UP032

    def read_uids(self):
        """Tags in the field now (at most 2: a PN532 limit)."""
        payload = self.call(CMD_IN_LIST_PASSIVE, b"\x02\x00", reply_len=48, timeout_ms=30)
        return parse_targets(payload) if payload is not None else []


class Hardware:
    """The Pico's pins, readers, USB link and watchdog; ``points``: the gates built."""

    def __init__(self, watchdog=True, points=("shoe",)):
        self.points = tuple(points)
        self.led = machine.Pin("LED", machine.Pin.OUT)
        spi = machine.SPI(
            SPI_ID,
            baudrate=1000000,
            polarity=0,
            phase=0,
            sck=machine.Pin(PIN_SCK),
            mosi=machine.Pin(PIN_MOSI),
            miso=machine.Pin(PIN_MISO),
        )
        self.beam_pins = {}
        self.readers = {}
        self.reader_versions = {}
        for point in self.points:  # every SS high before the first reader talks
            cs, beam = GATE_PINS[point]
            self.beam_pins[point] = machine.Pin(beam, machine.Pin.IN, machine.Pin.PULL_UP)
            self.readers[point] = PN532(spi, machine.Pin(cs, machine.Pin.OUT))
        for point in self.points:
            try:
                self.reader_versions[point] = self.readers[point].begin()
            except (OSError, ValueError):
                self.reader_versions[point] = None
        self.reader_version = self.reader_versions[self.points[0]]  # the shoe's
        self.wdt = machine.WDT(timeout=WDT_TIMEOUT_MS) if watchdog else None
        self.poll = None
        if select is not None:
            try:
                poll = select.poll()
                poll.register(sys.stdin, select.POLLIN)
                self.poll = poll
            except (OSError, ValueError):  # no real stdin (host tests)
                self.poll = None

    def ticks(self):
        return ticks_ms()

    def diff(self, a, b):
        return ticks_diff(a, b)

    def boot_id(self):
        """8 random hex digits: a new value on every boot."""
        import os

        return "".join("{:02X}".format(b) for b in os.urandom(4))  # noqa: UP032

    def beam_broken(self, point="shoe"):
        return self.beam_pins[point].value() == BEAM_BROKEN_LEVEL

    def read_uids(self, point="shoe"):
        """Tags in gate ``point``'s field now ([] when its reader is missing or fails)."""
        if self.reader_versions[point] is None:
            return []
        try:
            return self.readers[point].read_uids()
        except (OSError, ValueError):
            return []

    def read_host(self):
        """Bytes waiting from the Pi (non-blocking)."""
        out = b""
        stream = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else sys.stdin
        while self.poll is not None and len(out) < 128 and self.poll.poll(0):
            data = stream.read(1)
            if not data:
                break
            out += data.encode() if isinstance(data, str) else data
        return out

    def write(self, line):
        sys.stdout.write(line.decode())

    def feed_watchdog(self):
        if self.wdt is not None:
            self.wdt.feed()

    def set_led(self, on):
        self.led.value(1 if on else 0)

    def idle(self):
        sleep_ms(1)

    def reset(self):
        reset()


def reset():
    """Restart the Pico (used after a fatal error and for the RESET command)."""
    machine.reset()
