"""Simulated arcade buttons: keys and on-screen buttons drive MockFactory pins.

The simulator never fakes :class:`InputEvent`s itself: it drives the mock pins
(``drive_low`` = pressed, buttons are wired to GND with a pull-up) so the real
:class:`device.buttons.ButtonBoard` code handles debounce, lockout, holds and the chord.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from device.buttons import ButtonBoard, is_mock_factory
from device.events import KEYBOARD, SIM

# Default keyboard layout: one row of the keyboard per seat, DRAW/KNOCK/BUY left to right.
DEFAULT_KEYS: dict[str, tuple[int, str]] = {}
for _seat, _row in enumerate(("qwe", "asd", "zxc", "rty", "fgh", "vbn")):
    for _call, _key in zip(("draw", "knock", "buy"), _row, strict=True):
        DEFAULT_KEYS[_key] = (_seat, _call)


class SimButtons:
    """Press and release a :class:`ButtonBoard`'s buttons through its mock pins.

    ``press``/``release`` label the events ``sim`` (pass ``source="touch"`` for on-screen
    buttons); ``key_down``/``key_up`` label them ``keyboard``."""

    def __init__(self, board: ButtonBoard, *, keys: dict[str, tuple[int, str]] | None = None):
        if not is_mock_factory(board.pin_factory):
            raise ValueError("simulated buttons need a board built on gpiozero's MockFactory")
        self.board = board
        wired = set(board.buttons())
        self.keys = {k: v for k, v in (keys or DEFAULT_KEYS).items() if v in wired}

    def _pin(self, seat: int, call: str) -> Any:
        return self.board.pin_factory.pin(self.board.pin_of(seat, call))

    def press(self, seat: int, call: str, *, source: str = SIM) -> None:
        with self.board.source_as(source):
            self._pin(seat, call).drive_low()

    def release(self, seat: int, call: str, *, source: str = SIM) -> None:
        with self.board.source_as(source):
            self._pin(seat, call).drive_high()

    def is_down(self, seat: int, call: str) -> bool:
        return not self._pin(seat, call).state

    def key_down(self, key: str) -> bool:
        """Press the button mapped to ``key``; False when the key maps to nothing."""
        return self._key(key, self.press)

    def key_up(self, key: str) -> bool:
        return self._key(key, self.release)

    def _key(self, key: str, act: Callable[..., None]) -> bool:
        target = self.keys.get(key.lower())
        if target is None:
            return False
        act(*target, source=KEYBOARD)
        return True
