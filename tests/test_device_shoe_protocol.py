"""The shoe line protocol codec (device/shoe/protocol.py: the Pi's and the firmware's one
source), protocol 3 read points included."""

from __future__ import annotations

import binascii

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from device.shoe import protocol as p

FIELD = st.text(alphabet="0123456789ABCDEFabcdefxyz=._-", min_size=0, max_size=12)


def test_crc16_check_value_matches_ccitt_false():
    assert p.crc16(b"123456789") == 0x29B1 == binascii.crc_hqx(b"123456789", 0xFFFF)
    assert p.hex4(0x29B1) == "29B1" and p.hex4(0x000F) == "000F"


def test_encode_has_the_documented_shape():
    line = p.encode(12, p.CARD, ["04A1B2C3D4E5F6"])
    assert line.startswith(b"$12,CARD,04A1B2C3D4E5F6*") and line.endswith(b"\n")
    crc = int(line[-5:-1], 16)
    assert crc == binascii.crc_hqx(b"12,CARD,04A1B2C3D4E5F6", 0xFFFF)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 65535),
    st.sampled_from([p.CARD, p.ERR, p.HB, p.HELLO, p.ACK]),
    st.lists(FIELD, max_size=4),
)
def test_roundtrip(seq, kind, fields):
    assert p.decode(p.encode(seq, kind, fields)) == (seq, kind, fields)
    assert p.decode(p.encode(seq, kind, fields).replace(b"\n", b"\r\n")) == (seq, kind, fields)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 65535), st.lists(FIELD, min_size=1, max_size=3), st.data())
def test_any_single_byte_change_is_rejected(seq, fields, data):
    line = p.encode(seq, p.CARD, fields)
    i = data.draw(st.integers(1, len(line) - 2))
    new = data.draw(st.integers(32, 126).filter(lambda b: b != line[i]))
    bad = line[:i] + bytes([new]) + line[i + 1 :]
    with pytest.raises(p.FrameError):
        p.decode(bad)


@pytest.mark.parametrize(
    "line, reason",
    [
        (b"MPY: soft reboot", p.NOISE),
        (b"", p.NOISE),
        (b"$1,CARD,04AA*12", p.BADCRC),
        (b"$1,CARD,04AA", p.BADCRC),
        (b"$1,CARD,04AA*ZZZZ", p.BADCRC),
        (b"$" + b"1" * 100 + b"*0000", p.TOOLONG),
    ],
)
def test_bad_lines_name_their_reason(line, reason):
    with pytest.raises(p.FrameError) as info:
        p.decode(line)
    assert info.value.reason == reason


def test_malformed_but_checksummed_frames():
    for body in (b"x,CARD", b"1", b"70000,CARD", b"1,"):
        line = b"$" + body + b"*" + p.hex4(p.crc16(body)).encode()
        with pytest.raises(p.FrameError) as info:
            p.decode(line)
        assert info.value.reason == p.MALFORMED


def test_fields_with_separators_are_refused():
    for bad in ("a,b", "a*b", "$", "a\nb"):
        with pytest.raises(ValueError):
            p.encode(1, p.ERR, [bad])


def test_seq_arithmetic_wraps():
    assert p.seq_next(65535) == 0
    assert p.seq_diff(0, 65535) == 1 and p.seq_diff(65535, 0) == -1
    assert p.seq_diff(10, 10) == 0


def test_hello_fields_and_kv():
    kv = p.parse_kv(p.hello_fields("1.2.3", "DEADBEEF", "PN532", 7))
    assert kv == {"proto": "3", "fw": "1.2.3", "boot": "DEADBEEF", "reader": "PN532", "base": "7"}
    assert p.parse_kv(p.hello_fields("1.2.3", "DEADBEEF", "PN532", 7, True))["ready"] == "1"
    assert p.parse_kv(p.hello_fields("1.2.3", "DEADBEEF", "PN532", 7, False))["ready"] == "0"
    two = p.parse_kv(p.hello_fields("1.2.3", "DEADBEEF", "PN532", 7, True, ("shoe", "slot")))
    assert two["points"] == "shoe+slot" and two["ready"] == "1"
    line = p.encode(0, p.HELLO, p.hello_fields("1.2.3", "DEADBEEF", "PN532", 65535, True, p.POINTS))
    assert len(line) <= p.MAX_LINE


def test_is_uid():
    assert p.is_uid("04A1B2C3D4E5F6") and p.is_uid("DEADBEEF")
    assert not p.is_uid("04a1b2c3") and not p.is_uid("04A1B2C") and not p.is_uid("XYZ12345")


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=96))
def test_pure_python_crc_matches_the_c_one(data):
    # MicroPython has no binascii.crc_hqx: the firmware uses crc16_py.
    assert p.crc16_py(data) == binascii.crc_hqx(data, 0xFFFF) == p.crc16(data)


def test_a_lower_case_crc_digit_is_damage_not_the_same_frame():
    line = p.encode(11, p.CARD, ["0"])
    star = line.rfind(b"*")
    for i in range(star + 1, len(line) - 1):
        if chr(line[i]).isalpha():
            bad = line[:i] + chr(line[i]).lower().encode() + line[i + 1 :]
            with pytest.raises(p.FrameError):
                p.decode(bad)
    with pytest.raises(p.FrameError):
        p.decode(b"$11,CARD,0*3f2a\n")


def test_protocol_3_frames_name_their_read_point():
    assert p.PROTO_VERSION == 3 and p.PROTO_ACCEPTED == (1, 2, 3) and p.POINTS == ("shoe", "slot")
    card = p.encode(7, p.CARD, p.card_fields("04A1B2C3D4E5F6", p.SLOT))
    assert card.startswith(b"$7,CARD,04A1B2C3D4E5F6,slot*")
    _, kind, fields = p.decode(card)
    assert p.split_reliable(kind, fields, 3) == ("slot", ["04A1B2C3D4E5F6"])
    double = p.encode(8, p.ERR, p.err_fields(p.ERR_DOUBLE, p.SHOE, "04AA0000+04BB0000"))
    assert double.startswith(b"$8,ERR,DOUBLE,shoe,04AA0000+04BB0000*")
    _, kind, fields = p.decode(double)
    assert p.split_reliable(kind, fields, 3) == ("shoe", ["DOUBLE", "04AA0000+04BB0000"])
    assert p.err_fields(p.ERR_MISREAD, p.SLOT) == ("MISREAD", "slot")
    longest = p.encode(65535, p.ERR, p.err_fields(p.ERR_DOUBLE, p.SLOT, "A" * 20 + "+" + "B" * 20))
    assert len(longest) <= p.MAX_LINE  # two 10-byte UIDs fit


def test_before_protocol_3_every_frame_is_the_shoes():
    for proto in (1, 2):
        assert p.split_reliable(p.CARD, ["04A1B2C3D4E5F6"], proto) == ("shoe", ["04A1B2C3D4E5F6"])
        assert p.split_reliable(p.ERR, ["DOUBLE", "x+y"], proto) == ("shoe", ["DOUBLE", "x+y"])


@pytest.mark.parametrize(
    "kind, fields",
    [(p.CARD, ["04A1B2C3D4E5F6"]), (p.CARD, ["04A1B2C3D4E5F6", "bin"]), (p.ERR, ["MISREAD"])],
)
def test_a_protocol_3_frame_without_a_known_point_is_refused(kind, fields):
    with pytest.raises(ValueError):
        p.split_reliable(kind, fields, 3)


def test_read_points_parse():
    assert p.parse_points("shoe") == ("shoe",) and p.parse_points("shoe+slot") == ("shoe", "slot")
    for bad in ("", "shoe+shoe", "slot+bin", "shoe,slot"):
        with pytest.raises(ValueError):
            p.parse_points(bad)
