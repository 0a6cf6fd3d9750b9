"""firmware/hw.py (PN532 framing and driver, beam, watchdog) and main.step on the host,
with the stub ``machine`` from tests/firmware_stubs (a PN532 emulator behind its SPI)."""

from __future__ import annotations

import fwload
import pytest


@pytest.fixture
def fw():
    mods = fwload.load()
    mods.machine.Pin.registry.clear()
    yield mods
    fwload.unload()


class FakeHost:
    def __init__(self):
        self.to_shoe = b""
        self.written = []

    def install(self, board):
        board.read_host = self.read
        board.write = self.written.append

    def read(self):
        data, self.to_shoe = self.to_shoe, b""
        return data


def test_frame_build_and_parse_roundtrip(fw):
    hw = fw.hw
    frame = hw.build_frame(hw.CMD_SAM_CONFIG, b"\x01\x14\x01")
    assert frame == bytes([0, 0, 0xFF, 5, 0xFB, 0xD4, 0x14, 1, 0x14, 1, 0x02, 0])
    reply = bytes([0, 0, 0xFF, 2, 0xFE, 0xD5, 0x15, 0x16, 0])
    assert hw.parse_frame(b"\x00" + reply) == b"\x15"
    with pytest.raises(ValueError, match="checksum"):
        hw.parse_frame(reply[:-2] + b"\x00\x00")


def test_parse_targets_lists_two_uids(fw):
    hw = fw.hw
    payload = bytes([0x4B, 2, 1, 0, 0x44, 0, 7]) + bytes(range(1, 8))
    payload += bytes([2, 0, 0x44, 0, 4]) + b"\xde\xad\xbe\xef"
    assert hw.parse_targets(payload) == ["01020304050607", "DEADBEEF"]
    assert hw.parse_targets(bytes([0x4B, 0])) == []
    with pytest.raises(ValueError):
        hw.parse_targets(bytes([0x4B, 1, 1, 0]))


def test_bit_reversal(fw):
    assert fw.hw.rev(b"\x01\x80\x0f") == b"\x80\x01\xf0"


def test_hardware_talks_to_the_emulated_pn532(fw):
    board = fw.hw.Hardware()
    assert board.reader_version == "PN532 v1.6"
    emulator = fw.machine.SPI.last.pn532
    assert emulator.commands[:3] == [0x02, 0x14, 0x32]
    assert board.read_uids() == []
    emulator.tags = [bytes.fromhex("04A1B2C3D4E5F6"), bytes.fromhex("04A1B2C3D4E5F7")]
    assert board.read_uids() == ["04A1B2C3D4E5F6", "04A1B2C3D4E5F7"]
    assert fw.machine.WDT.last.timeout == fw.hw.WDT_TIMEOUT_MS


def test_missing_reader_is_reported(fw):
    fw.machine.PN532Emulator.present = False
    try:
        board = fw.hw.Hardware(watchdog=False)
        assert board.reader_version is None and board.read_uids() == []
    finally:
        del fw.machine.PN532Emulator.present


def test_beam_level_low_means_broken(fw):
    board = fw.hw.Hardware(watchdog=False)
    assert not board.beam_broken()  # pull-up: beam intact
    fw.machine.Pin.registry[fw.hw.PIN_BEAM].value(0)
    assert board.beam_broken()


def test_main_step_deals_a_card_end_to_end(fw):
    p = fw.protocol
    board = fw.hw.Hardware()
    host = FakeHost()
    host.install(board)
    clock = [0]
    board.ticks = lambda: clock[0]
    shoe = fw.logic.Shoe("0000BEEF", 0, diff=board.diff)
    host.to_shoe = p.encode(1, "HELLO?", ("0000BEEF",))
    beam = fw.machine.Pin.registry[fw.hw.PIN_BEAM]
    emulator = fw.machine.SPI.last.pn532
    for t, broken, tags in (
        (10, False, []),
        (20, True, ["04A1B2C3D4E5F6"]),
        (50, False, []),
        (200, False, []),
    ):
        clock[0] = t
        beam.value(0 if broken else 1)
        emulator.tags = [bytes.fromhex(u) for u in tags]
        fw.main.step(board, shoe)
    sent = [p.decode(line) for line in host.written]
    assert [k for _, k, _ in sent] == ["HELLO", "HELLO", "CARD"]
    assert sent[-1][2] == ["04A1B2C3D4E5F6", "shoe"]
    assert fw.machine.WDT.last.feeds == 4
    assert fw.machine.Pin.registry["LED"].value() == 1  # unacked frame: LED on
    host.to_shoe = p.encode(2, "RESET")
    with pytest.raises(fw.machine.ResetCalled):
        fw.main.step(board, shoe)


def test_a_crash_reports_fatal_and_resets(fw, monkeypatch, capsys):
    def boom():
        raise RuntimeError("reader exploded")

    monkeypatch.setattr(fw.main, "run", boom)
    monkeypatch.setattr(fw.main.time, "sleep", lambda s: None)
    with pytest.raises(fw.machine.ResetCalled):
        fw.main.main()
    out = capsys.readouterr().out
    assert fw.protocol.decode(out.strip()) == (0, "ERR", ["FATAL", "shoe", "RuntimeError"])


# -- two gates on one SPI bus ------------------------------------------------------------
def test_two_readers_share_the_bus_each_behind_its_chip_select(fw):
    hw = fw.hw
    board = hw.Hardware(watchdog=False, points=("shoe", "slot"))
    assert (hw.PIN_CS, hw.PIN_BEAM, hw.PIN_CS_SLOT, hw.PIN_BEAM_SLOT) == (17, 15, 20, 14)
    bus = fw.machine.SPI.last
    assert set(bus.readers) == {17, 20}
    assert board.reader_versions == {"shoe": "PN532 v1.6", "slot": "PN532 v1.6"}
    bus.reader(17).tags = [bytes.fromhex("04A1B2C3D4E5F6")]
    bus.reader(20).tags = [bytes.fromhex("04000000000001"), bytes.fromhex("04000000000002")]
    assert board.read_uids("shoe") == ["04A1B2C3D4E5F6"]
    assert board.read_uids("slot") == ["04000000000001", "04000000000002"]
    assert bus.reader(17).commands.count(0x4A) == 1 and bus.reader(20).commands.count(0x4A) == 1
    pins = fw.machine.Pin.registry
    assert pins[17].value() == 1 and pins[20].value() == 1  # both deselected between calls
    pins[hw.PIN_BEAM_SLOT].value(0)
    assert board.beam_broken("slot") and not board.beam_broken("shoe")


def test_a_missing_slot_reader_reads_nothing_and_the_shoe_still_works(fw):
    bus_cls = fw.machine.SPI
    original = bus_cls.reader

    def reader(self, cs):
        dev = original(self, cs)
        if cs == fw.hw.PIN_CS_SLOT:
            dev.present = False
        return dev

    bus_cls.reader = reader
    try:
        board = fw.hw.Hardware(watchdog=False, points=("shoe", "slot"))
    finally:
        bus_cls.reader = original
    assert board.reader_versions == {"shoe": "PN532 v1.6", "slot": None}
    assert board.read_uids("slot") == []
    fw.machine.SPI.last.reader(17).tags = [bytes.fromhex("04A1B2C3D4E5F6")]
    assert board.read_uids("shoe") == ["04A1B2C3D4E5F6"]


def test_the_noslot_flag_file_makes_a_shoe_only_board(fw, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the flash's root
    assert fw.main.built_points() == ("shoe", "slot")
    (tmp_path / "noslot").touch()
    assert fw.main.built_points() == ("shoe",)


def test_main_step_drives_both_gates_end_to_end(fw):
    p = fw.protocol
    board = fw.hw.Hardware(points=("shoe", "slot"))
    host = FakeHost()
    host.install(board)
    clock = [0]
    board.ticks = lambda: clock[0]
    shoe = fw.logic.Shoe("0000BEEF", 0, diff=board.diff, points=board.points)
    host.to_shoe = p.encode(1, "HELLO?", ("0000BEEF",))
    beams = {pt: fw.machine.Pin.registry[fw.hw.GATE_PINS[pt][1]] for pt in board.points}
    bus = fw.machine.SPI.last
    readers = {pt: bus.reader(fw.hw.GATE_PINS[pt][0]) for pt in board.points}
    script = [
        (10, {}, {}),
        (20, {"slot": True}, {"slot": ["04000000000002"]}),
        (
            30,
            {"slot": True, "shoe": True},
            {"slot": ["04000000000002"], "shoe": ["04A1B2C3D4E5F6"]},
        ),
        (60, {"shoe": True}, {"shoe": ["04A1B2C3D4E5F6"]}),
        (90, {}, {}),
        (300, {}, {}),
    ]
    for t, broken, tags in script:
        clock[0] = t
        for pt in board.points:
            beams[pt].value(0 if broken.get(pt) else 1)
            readers[pt].tags = [bytes.fromhex(u) for u in tags.get(pt, [])]
        fw.main.step(board, shoe)
    sent = [p.decode(line) for line in host.written]
    assert [k for _, k, _ in sent] == ["HELLO", "HELLO", "CARD", "CARD"]
    assert p.parse_kv(sent[1][2])["points"] == "shoe+slot"
    assert [f for _, _, f in sent[2:]] == [["04000000000002", "slot"], ["04A1B2C3D4E5F6", "shoe"]]
