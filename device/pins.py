"""Button and lamp pin maps: parse and validate the ``[buttons]`` config table.

Pins are written ``"GPIO17"`` (BCM numbering). A seat table has buttons ``draw``,
``knock``, ``buy`` and lamps ``lamp_draw``, ``lamp_knock``, ``lamp_buy`` (a lamp in each
button) and/or ``lamp`` (one lamp for the seat). Without a ``seats`` table the packaged
profile for ``seat_count`` seats (device/default_pins.toml) is used.

``parse_button_config(data)`` returns ``(config, errors)`` so a config validator can
report every problem at once; ``config`` is None when there are errors.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from device.events import CALLS, MAX_SEATS

LAMPS = ("draw", "knock", "buy", "seat")
RESERVED_PINS = {
    0: "I2C0 (HAT ID EEPROM)",
    1: "I2C0 (HAT ID EEPROM)",
    2: "I2C1 SDA",
    3: "I2C1 SCL",
    7: "SPI0 CE1",
    8: "SPI0 CE0",
    9: "SPI0 MISO",
    10: "SPI0 MOSI",
    11: "SPI0 SCLK",
    14: "UART TX",
    15: "UART RX",
}
_SEAT_KEYS = {*CALLS, "lamp", "lamp_draw", "lamp_knock", "lamp_buy"}
_NUMBERS = {
    "debounce": (0.03, 0.0, 0.5),
    "lockout": (0.3, 0.0, 5.0),
    "hold": (1.0, 0.1, 10.0),
    "operator_hold": (3.0, 0.5, 30.0),
    "bounce_time": (0.02, 0.0, 0.2),
    "glitch": (0.008, 0.0, 0.05),
}


@dataclass(frozen=True, slots=True)
class SeatPins:
    """The pins of one seat: ``buttons`` call -> pin, ``lamps`` lamp name -> pin."""

    buttons: dict[str, str]
    lamps: dict[str, str]


@dataclass(frozen=True, slots=True)
class ButtonConfig:
    """Validated button settings (times in seconds)."""

    seats: dict[int, SeatPins]
    debounce: float = 0.03
    lockout: float = 0.3
    hold: float = 1.0
    operator_hold: float = 3.0
    bounce_time: float = 0.02
    glitch: float = 0.008  # a level counts once the pin has held it this long
    operator_chord: tuple[tuple[int, str], tuple[int, str]] = ((0, "draw"), (0, "buy"))
    extra: dict[str, Any] = field(default_factory=dict)

    def all_pins(self) -> list[str]:
        out: list[str] = []
        for seat in self.seats.values():
            out += list(seat.buttons.values()) + list(seat.lamps.values())
        return out


def _short(value: object) -> str:
    """``repr(value)`` cut to 40 characters: messages quote, never dump."""
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _is_number(text: str) -> bool:
    """ASCII digits only: "²".isdigit() is True but int("²") fails."""
    return text.isascii() and text.isdigit()


def parse_pin(text: object) -> int:
    """``"GPIO17"`` -> 17; ValueError with a clear message otherwise."""
    if not isinstance(text, str) or not text.upper().startswith("GPIO"):
        raise ValueError(f"pin {_short(text)} must be written like 'GPIO17' (BCM number)")
    digits = text[4:]
    if not _is_number(digits) or not 0 <= int(digits) <= 27:
        raise ValueError(f"pin {_short(text)}: the Pi has GPIO0..GPIO27")
    return int(digits)


def default_profiles() -> dict[str, Any]:
    """The packaged profiles table: ``{"2": {"seats": {...}}, ...}``."""
    text = resources.files("device").joinpath("default_pins.toml").read_text(encoding="utf-8")
    profiles: dict[str, Any] = tomllib.loads(text)["profiles"]
    return profiles


def default_config(seat_count: int = 2) -> ButtonConfig:
    """The packaged pin map for ``seat_count`` (2..6) seats."""
    config, errors = parse_button_config({"seat_count": seat_count})
    if config is None:
        raise ValueError("; ".join(errors))
    return config


def _chord(value: object, seats: dict[int, SeatPins], errors: list[str]) -> Any:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, str) and v.count(".") == 1 for v in value)
    ):
        errors.append(
            f"buttons.operator_chord must be two buttons like ['0.draw', '0.buy'], got {_short(value)}"
        )
        return None
    out = []
    for item in value:
        seat_text, call = item.split(".")
        if not _is_number(seat_text) or int(seat_text) not in seats:
            errors.append(f"buttons.operator_chord: {_short(item)} names a seat that has no buttons")
            return None
        if call not in seats[int(seat_text)].buttons:
            errors.append(f"buttons.operator_chord: seat {seat_text[:8]} has no {_short(call)} button")
            return None
        out.append((int(seat_text), call))
    if out[0] == out[1]:
        errors.append("buttons.operator_chord needs two different buttons")
        return None
    return (out[0], out[1])


def parse_button_config(data: dict[str, Any]) -> tuple[ButtonConfig | None, list[str]]:
    """Validate a ``[buttons]`` table; return ``(config or None, all error messages)``."""
    errors: list[str] = []
    if not isinstance(data, dict):
        return None, [f"buttons: expected a table, got {type(data).__name__}"]
    known = {"seats", "seat_count", "operator_chord", "allow_reserved_pins", *_NUMBERS}
    for key in sorted(set(data) - known):
        errors.append(f"buttons: unknown setting {_short(key)}")
    numbers: dict[str, float] = {}
    for key, (default, low, high) in _NUMBERS.items():
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float):
            errors.append(f"buttons.{key} must be a number of seconds, got {_short(value)}")
        elif not low <= value <= high:
            errors.append(f"buttons.{key} = {value} is outside {low}..{high} seconds")
        else:
            numbers[key] = float(value)
    seats_data = data.get("seats")
    if seats_data is None:
        count = data.get("seat_count", 2)
        profiles = default_profiles()
        if isinstance(count, bool) or str(count) not in profiles:
            errors.append(f"buttons.seat_count must be 2..6, got {_short(count)}")
            return None, errors
        seats_data = profiles[str(count)]["seats"]
    if not isinstance(seats_data, dict) or not seats_data:
        errors.append("buttons.seats must be a table of seats '0'..'5'")
        return None, errors
    allow_reserved = data.get("allow_reserved_pins", False) is True
    seats: dict[int, SeatPins] = {}
    used: dict[int, str] = {}
    for seat_key, table in seats_data.items():
        where = f"buttons.seats.{_short(str(seat_key))[1:-1]}"
        if not _is_number(str(seat_key)) or not 0 <= int(seat_key) < MAX_SEATS:
            errors.append(f"{where}: seat must be 0..{MAX_SEATS - 1}")
            continue
        if not isinstance(table, dict):
            errors.append(f"{where}: expected a table of pins")
            continue
        buttons: dict[str, str] = {}
        lamps: dict[str, str] = {}
        for key, pin_text in table.items():
            if key not in _SEAT_KEYS:
                errors.append(f"{where}: unknown key {_short(key)} (use {', '.join(sorted(_SEAT_KEYS))})")
                continue
            try:
                number = parse_pin(pin_text)
            except ValueError as exc:
                errors.append(f"{where}.{key}: {exc}")
                continue
            if number in RESERVED_PINS and not allow_reserved:
                errors.append(
                    f"{where}.{key}: GPIO{number} is {RESERVED_PINS[number]}; pick a free pin "
                    "or set allow_reserved_pins = true"
                )
                continue
            if number in used:
                errors.append(f"{where}.{key}: GPIO{number} is already used by {used[number]}")
                continue
            used[number] = f"{where}.{key}"
            name = f"GPIO{number}"
            if key in CALLS:
                buttons[key] = name
            else:
                lamps["seat" if key == "lamp" else key[5:]] = name
        if not buttons:
            errors.append(f"{where}: a seat needs at least one button (draw, knock or buy)")
        seats[int(seat_key)] = SeatPins(buttons=buttons, lamps=lamps)
    chord = _chord(data.get("operator_chord", ["0.draw", "0.buy"]), seats, errors)
    if errors:
        return None, errors
    config = ButtonConfig(
        seats=dict(sorted(seats.items())),
        operator_chord=chord,
        debounce=numbers["debounce"],
        lockout=numbers["lockout"],
        hold=numbers["hold"],
        operator_hold=numbers["operator_hold"],
        bounce_time=numbers["bounce_time"],
        glitch=numbers["glitch"],
    )
    return config, []
