"""A stub of MicroPython's ``machine`` for host tests of firmware/ (CPython and the unix
port): pins with settable levels, a watchdog that counts feeds, and an SPI bus with small
PN532 emulators behind it, one per chip-select pin (the one whose pin is low answers;
LSB-first bytes, ACK + reply frames, tags in the field)."""


def _rev(data):
    out = []
    for value in data:
        r = 0
        for _ in range(8):
            r = (r << 1) | (value & 1)
            value >>= 1
        out.append(r)
    return bytes(out)


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 2
    registry = {}

    def __init__(self, pin_id, mode=-1, pull=-1):
        self.id = pin_id
        self.mode = mode
        self.level = 1 if pull == Pin.PULL_UP else 0
        Pin.registry[pin_id] = self

    def value(self, level=None):
        if level is None:
            return self.level
        self.level = 1 if level else 0
        return None


class WDT:
    last = None

    def __init__(self, timeout=5000):
        self.timeout = timeout
        self.feeds = 0
        WDT.last = self

    def feed(self):
        self.feeds += 1


class ResetCalled(Exception):
    pass


def reset():
    raise ResetCalled()


class PN532Emulator:
    """Answers GetFirmwareVersion, SAMConfiguration, RFConfiguration, InListPassiveTarget."""

    present = True  # set False on the class (or an instance) to emulate a missing reader

    def __init__(self):
        self.tags = []  # UIDs (bytes) in the field now
        self.queue = []  # frames waiting to be read
        self.commands = []

    def _reply(self, cmd, fields):
        data = bytes((0xD5, cmd + 1)) + bytes(fields)
        n = len(data)
        return bytes((0, 0, 0xFF, n, (-n) & 0xFF)) + data + bytes(((-sum(data)) & 0xFF, 0))

    def command(self, frame):
        if not self.present:
            return
        cmd = frame[6]
        self.commands.append(cmd)
        self.queue.append(b"\x00\x00\xff\x00\xff\x00")
        if cmd == 0x02:
            self.queue.append(self._reply(cmd, b"\x32\x01\x06\x07"))
        elif cmd == 0x4A:
            fields = bytes((min(2, len(self.tags)),))
            for i, uid in enumerate(self.tags[:2]):
                fields += bytes((i + 1, 0x00, 0x44, 0x00, len(uid))) + uid
            self.queue.append(self._reply(cmd, fields))
        else:
            self.queue.append(self._reply(cmd, b""))


class SPI:
    last = None

    def __init__(self, spi_id, **kwargs):
        self.kwargs = kwargs
        self.readers = {}  # chip-select pin id -> PN532Emulator
        self.op = None
        self.selected = None
        SPI.last = self

    def reader(self, cs_pin_id):
        """The PN532 emulator behind chip-select ``cs_pin_id`` (made on first use)."""
        if cs_pin_id not in self.readers:
            self.readers[cs_pin_id] = PN532Emulator()
        return self.readers[cs_pin_id]

    @property
    def pn532(self):
        """The first reader (the shoe's, GP17)."""
        return self.reader(17)

    def _select(self):
        low = [
            pin.id
            for pin in Pin.registry.values()
            if pin.mode == Pin.OUT and pin.id != "LED" and pin.level == 0
        ]
        if len(low) != 1:
            raise OSError("SPI transfer with " + str(len(low)) + " chip selects low")
        return self.reader(low[0])

    def write(self, data):
        data = _rev(data)
        self.selected = self._select()
        self.op = data[0]
        if self.op == 0x01:
            self.selected.command(data[1:])

    def read(self, n):
        dev = self._select()
        if self.op == 0x02:
            return _rev(bytes((1 if dev.queue else 0,)))
        if self.op == 0x03 and dev.queue:
            frame = dev.queue.pop(0)
            return _rev((frame + bytes(n))[:n])
        return _rev(bytes(n))
