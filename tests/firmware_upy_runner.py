# Runs under the MicroPython unix port (not collected by pytest: no test_ prefix):
#   micropython tests/firmware_upy_runner.py <firmware dir> <stubs dir>
# Plain asserts and a tiny runner: the unix port has no unittest/pytest.
import sys

sys.path.insert(0, sys.argv[2])
sys.path.insert(0, sys.argv[1])

import hw  # noqa: E402
import logic  # noqa: E402
import machine  # noqa: E402
import main  # noqa: E402
import protocol as p  # noqa: E402


def t_protocol():
    assert p.hex4(p.crc16(b"123456789")) == "29B1"
    line = p.encode(65535, p.CARD, ("04A1B2C3D4E5F6",))
    assert p.decode(line) == (65535, "CARD", ["04A1B2C3D4E5F6"])
    try:
        p.decode(line.replace(b"04", b"05"))
        raise AssertionError("bad CRC accepted")
    except p.FrameError as exc:
        assert exc.reason == p.BADCRC
    assert p.seq_diff(0, 65535) == 1


def t_logic_gate_and_ack():
    shoe = logic.Shoe("CAFEF00D", 0)
    shoe.host_line(p.encode(1, p.HELLO_Q, ("CAFEF00D",)), 0)
    shoe.take_output()
    shoe.beam(True, 100)
    shoe.tag("04000000000001", 105)
    shoe.beam(False, 130)
    shoe.tick(300)
    shoe.beam(True, 400)
    shoe.beam(False, 430)
    shoe.tick(600)
    out = [p.decode(x) for x in shoe.take_output()]
    assert [k for _, k, _ in out] == ["CARD", "ERR"], out
    shoe.host_line(p.encode(2, p.ACK, ("0",)), 700)
    assert len(shoe.unacked) == 1


def t_hw_with_stub():
    assert getattr(machine, "ResetCalled", None) is not None, "stub machine not loaded"
    board = hw.Hardware(watchdog=True)
    assert board.reader_version == "PN532 v1.6", board.reader_version
    machine.SPI.last.pn532.tags = [bytes([4, 1, 2, 3, 4, 5, 6])]
    assert board.read_uids() == ["04010203040506"]
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
