# Runs under the MicroPython unix port (not collected by pytest: no test_ prefix):
#   micropython tests/firmware_upy_runner.py <image dir> <stubs dir>
# <image dir> holds the firmware image laid out as on the Pico (firmware/image.txt).
# Plain asserts and a tiny runner: the unix port has no unittest/pytest.
import sys

sys.path.insert(0, sys.argv[2])
sys.path.insert(0, sys.argv[1])

import fwlogic as logic  # noqa: E402
import hw  # noqa: E402
import machine  # noqa: E402
import main  # noqa: E402
import protocol as p  # noqa: E402


def t_protocol():
    assert p.hex4(p.crc16(b"123456789")) == "29B1"
    line = p.encode(65535, p.CARD, p.card_fields("04A1B2C3D4E5F6", p.SLOT))
    assert p.decode(line) == (65535, "CARD", ["04A1B2C3D4E5F6", "slot"])
    assert p.split_reliable("CARD", ["04A1B2C3D4E5F6", "slot"], 3) == ("slot", ["04A1B2C3D4E5F6"])
    assert p.parse_points("shoe+slot") == ("shoe", "slot")
    try:
        p.decode(line.replace(b"04", b"05"))
        raise AssertionError("bad CRC accepted")
    except p.FrameError as exc:
        assert exc.reason == p.BADCRC
    assert p.seq_diff(0, 65535) == 1


def t_logic_gate_and_ack():
    assert logic.p is p or logic.p.__name__ == "protocol", "fwlogic must use the flat protocol"
    shoe = logic.Shoe("CAFEF00D", 0, points=("shoe", "slot"))
    shoe.host_line(p.encode(1, p.HELLO_Q, ("CAFEF00D",)), 0)
    hello = p.decode(shoe.take_output()[0])
    assert p.parse_kv(hello[2])["points"] == "shoe+slot", hello
    shoe.beam("shoe", True, 100)
    shoe.tag("shoe", "04000000000001", 105)
    shoe.beam("slot", True, 110)
    shoe.tag("slot", "04000000000002", 115)
    shoe.tag("slot", "04000000000003", 116)
    shoe.beam("shoe", False, 130)
    shoe.beam("slot", False, 140)
    shoe.tick(300)
    shoe.beam("shoe", True, 400)
    shoe.beam("shoe", False, 430)
    shoe.tick(600)
    out = [p.decode(x) for x in shoe.take_output()]
    got = [(k, f[0], f[1]) for _, k, f in out]
    assert got == [
        ("CARD", "04000000000001", "shoe"),
        ("ERR", "DOUBLE", "slot"),
        ("ERR", "MISREAD", "shoe"),
    ], out
    shoe.host_line(p.encode(2, p.ACK, ("0",)), 700)
    assert len(shoe.unacked) == 2


def t_hw_with_stub():
    assert getattr(machine, "ResetCalled", None) is not None, "stub machine not loaded"
    board = hw.Hardware(watchdog=True, points=("shoe", "slot"))
    assert board.reader_version == "PN532 v1.6", board.reader_version
    assert board.reader_versions["slot"] == "PN532 v1.6", board.reader_versions
    machine.SPI.last.reader(hw.PIN_CS).tags = [bytes([4, 1, 2, 3, 4, 5, 6])]
    machine.SPI.last.reader(hw.PIN_CS_SLOT).tags = [bytes([4, 9, 9, 9, 9, 9, 9])]
    assert board.read_uids("shoe") == ["04010203040506"]
    assert board.read_uids("slot") == ["04090909090909"]
    board.feed_watchdog()
    assert machine.WDT.last.feeds == 1


def t_main_step():
    board = hw.Hardware(watchdog=False)
    shoe = logic.Shoe("CAFEF00D", board.ticks(), diff=board.diff)
    written = []
    board.write = written.append
    main.step(board, shoe)
    assert p.decode(written[0])[1] == p.HELLO


failed = 0
tests = [t_protocol, t_logic_gate_and_ack, t_hw_with_stub, t_main_step]
for test in tests:
    try:
        test()
        print("ok", test.__name__)
    except Exception as exc:  # noqa: BLE001
        failed += 1
        print("FAIL", test.__name__, repr(exc))
print("upy-runner:", len(tests) - failed, "ok,", failed, "bad")
sys.exit(1 if failed else 0)
