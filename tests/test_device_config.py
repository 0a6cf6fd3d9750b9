"""Pin maps, the packaged profiles, and the sd_notify watchdog helper."""

from __future__ import annotations

import os
import socket

import pytest

from device import watchdog
from device.buttons import HardwareError, make_pin_factory
from device.pins import RESERVED_PINS, default_config, default_profiles, parse_button_config


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_default_profiles_are_valid_and_avoid_bus_pins(seats):
    config = default_config(seats)
    assert sorted(config.seats) == list(range(seats))
    numbers = [int(p[4:]) for p in config.all_pins()]
    assert len(numbers) == len(set(numbers)) and not set(numbers) & set(RESERVED_PINS)
    assert all("draw" in s.buttons and "buy" in s.buttons for s in config.seats.values())


def test_two_seat_gin_profile_has_knock_and_a_lamp_in_every_button():
    config = default_config(2)
    for seat in config.seats.values():
        assert set(seat.buttons) == {"draw", "knock", "buy"} == set(seat.lamps)


def test_every_error_is_reported_at_once():
    config, errors = parse_button_config(
        {
            "debounce": "fast",
            "hold": 99,
            "colour": "red",
            "operator_chord": ["0.draw"],
            "seats": {
                "0": {"draw": "GPIO4", "knock": 5, "buy": "GPIO4", "lamp_buy": "GPIO14"},
                "9": {"draw": "GPIO20"},
                "1": {"draw": "GPIO40", "fire": "GPIO21"},
            },
        }
    )
    assert config is None
    text = "\n".join(errors)
    for fragment in (
        "unknown setting 'colour'",
        "debounce must be a number",
        "hold = 99 is outside",
        "seats.0.knock: pin 5 must be written like 'GPIO17'",
        "GPIO4 is already used by buttons.seats.0.draw",
        "GPIO14 is UART TX",
        "seats.9: seat must be 0..5",
        "GPIO0..GPIO27",
        "unknown key 'fire'",
        "operator_chord must be two buttons",
    ):
        assert fragment in text, fragment


def test_custom_map_and_chord():
    config, errors = parse_button_config(
        {
            "seats": {
                "0": {"draw": "GPIO4", "buy": "GPIO5", "lamp": "GPIO6"},
                "3": {"draw": "GPIO17", "buy": "GPIO27"},
            },
            "operator_chord": ["0.draw", "3.buy"],
            "lockout": 0.5,
        }
    )
    assert errors == [] and config is not None
    assert config.operator_chord == ((0, "draw"), (3, "buy")) and config.lockout == 0.5
    assert config.seats[0].lamps == {"seat": "GPIO6"}


def test_reserved_pins_can_be_allowed_explicitly():
    _, errors = parse_button_config(
        {"seats": {"0": {"draw": "GPIO14", "buy": "GPIO15"}}, "allow_reserved_pins": True}
    )
    assert errors == []


def test_bad_seat_count():
    assert parse_button_config({"seat_count": 9})[1] == ["buttons.seat_count must be 2..6, got 9"]
    assert set(default_profiles()) == {"2", "3", "4", "5", "6"}


def test_unknown_factory_is_an_error_not_a_fallback():
    with pytest.raises(HardwareError, match="unknown pin factory"):
        make_pin_factory("rpigpio")


def test_sd_notify_noop_without_socket():
    assert watchdog.ready("x", environ={}) is False
    assert watchdog.watchdog_interval(environ={}) is None


@pytest.mark.parametrize("abstract", [False, True])
def test_sd_notify_sends_datagrams(tmp_path, abstract):
    name = f"@rummy-test-{os.getpid()}" if abstract else str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind("\0" + name[1:] if abstract else name)
        server.settimeout(2)
        env = {"NOTIFY_SOCKET": name}
        assert watchdog.ready("table idle", environ=env)
        assert server.recv(100) == b"READY=1\nSTATUS=table idle"
        assert watchdog.watchdog(environ=env)
        assert server.recv(100) == b"WATCHDOG=1"
        assert watchdog.status("two\nlines", environ=env)
        assert server.recv(100) == b"STATUS=two lines"


def test_watchdog_interval_is_half_and_respects_pid():
    assert watchdog.watchdog_interval(environ={"WATCHDOG_USEC": "10000000"}) == 5.0
    other = {"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": str(os.getpid() + 1)}
    assert watchdog.watchdog_interval(environ=other) is None


def test_names_other_modules_import():
    from device import buttons

    assert buttons.parse_button_config({"seat_count": 3})[1] == []
    assert watchdog.watchdog_ping(environ={}) is False
