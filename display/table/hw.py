"""The app's side of the hardware edge: the button board, its lamps, and the watchdog.

The app always runs the real ``device.buttons.ButtonBoard``: on the table over the lgpio
pin factory, in the simulator and tests over gpiozero's ``MockFactory``, where clicks and
keys drive the mock pins low and high (``device.sim_buttons.SimButtons``). Board events
(``device.events.InputEvent``) land on a queue the main loop drains each frame. Anything
missing is reported in :attr:`Hardware.problems` (shown loudly by the kiosk), never hidden.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from device import watchdog
from device.events import BUY, DRAW, HOLD, KNOCK, PRESS, RELEASE, InputEvent

if TYPE_CHECKING:
    from device.sim_buttons import SimButtons

CALLS = (DRAW, KNOCK, BUY)


class WakingQueue(queue.Queue[Any]):
    """The board's event queue: each ``put`` (from a hardware thread) also calls ``wake``, so
    a main loop asleep until its next timer sees a button press at once."""

    def __init__(self, wake: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.wake = wake

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        super().put(item, block, timeout)
        if self.wake is not None:
            self.wake()


class Hardware:
    """Buttons (real or simulated), lamps and the systemd watchdog, for the app."""

    def __init__(
        self,
        *,
        simulated: bool,
        buttons_config: Mapping[str, Any] | None = None,
        seats: int = 2,
        clock: Callable[[], float] = time.monotonic,
        poll_interval: float | None = 0.05,
        wake: Callable[[], None] | None = None,
    ) -> None:
        self.events: queue.Queue[Any] = WakingQueue(wake)
        self.simulated = simulated
        self.clock = clock
        self.poll_interval = poll_interval
        self.buttons_config = dict(buttons_config or {})
        self.problems: list[str] = []
        self.board: Any = None
        self.sim: SimButtons | None = None
        self.factory: Any = None
        self.seats = 0
        self.lamps: dict[int, dict[str, bool]] = {}
        self._last_ping = float("-inf")
        try:
            from device.buttons import factory_from_env, make_pin_factory

            self.factory = make_pin_factory("mock") if simulated else factory_from_env()
        except Exception as exc:  # noqa: BLE001 - loud, not fatal: touch still works
            self.problems.append(f"buttons: {exc}")
        self.set_seats(seats)

    def set_seats(self, seats: int) -> None:
        """(Re)build the board for ``seats`` seats (the packaged pin profile for that count,
        unless the config names its own pins)."""
        if seats == self.seats and self.board is not None:
            return
        self._close_board()
        self.seats = seats
        self.lamps = {s: dict.fromkeys(CALLS, False) for s in range(seats)}
        if self.factory is None:
            return
        from device.buttons import ButtonBoard
        from device.pins import parse_button_config

        data = dict(self.buttons_config)
        if "seats" not in data:
            data["seat_count"] = max(2, min(6, seats))
        config, errors = parse_button_config(data)
        if config is None and all("operator_chord" in e for e in errors):
            # The chord names a button this seat count's map lacks (KNOCK at 5-6 seats):
            # keep every seat's buttons and fall back to the packaged chord, loudly.
            config, _ = parse_button_config({**data, "operator_chord": ["0.draw", "0.buy"]})
            if config is not None:
                self.problems += [f"buttons: {e}; using 0.draw + 0.buy at {seats} seats"
                                  for e in errors]
        if config is None:
            self.problems += [f"buttons: {e}" for e in errors]
            return
        try:
            self.board = ButtonBoard(config, pin_factory=self.factory, events=self.events, clock=self.clock,
                                     source="sim" if self.simulated else "gpio",
                                     poll_interval=self.poll_interval)
        except Exception as exc:  # noqa: BLE001
            self.problems.append(f"buttons: {exc}")
            return
        if self.simulated:
            from device.sim_buttons import SimButtons

            self.sim = SimButtons(self.board)

    # -- simulator side -------------------------------------------------------------------
    def wired(self, seat: int, call: str) -> bool:
        return self.board is not None and (seat, call) in self.board.buttons()

    def wired_calls(self, seat: int) -> frozenset[str] | None:
        """The calls the seat has a button for (None: no board, every call goes): the
        lamps a seat's panel may light."""
        if self.board is None:
            return None
        have = self.board.buttons()
        return frozenset(c for c in CALLS if (seat, c) in have)

    def press(self, seat: int, call: str) -> bool:
        """Drive the seat's mock pin low (simulator); False when that button is not wired."""
        if self.sim is None or not self.wired(seat, call):
            return False
        self.sim.press(seat, call)
        return True

    def release(self, seat: int, call: str) -> bool:
        if self.sim is None or not self.wired(seat, call):
            return False
        self.sim.release(seat, call)
        return True

    def key_for(self, seat: int, call: str) -> str | None:
        if self.sim is None:
            return None
        for key, target in self.sim.keys.items():
            if target == (seat, call):
                return key
        return None

    # -- lamps and watchdog -----------------------------------------------------------------
    def set_lamps(self, seat: int, *, draw: bool = False, knock: bool = False, buy: bool = False) -> None:
        """Light the calls a seat may make now (only changes reach the GPIO)."""
        new = {DRAW: draw, KNOCK: knock, BUY: buy}
        if self.lamps.get(seat) == new:
            return
        self.lamps[seat] = new
        if self.board is not None:
            try:
                self.board.set_lamps(seat, draw=draw, knock=knock, buy=buy)
            except Exception as exc:  # noqa: BLE001 - a dead lamp must not stop the game
                self.problems.append(f"lamps: {exc}")

    def all_lamps_off(self) -> None:
        for seat in list(self.lamps):
            self.set_lamps(seat)

    def drain(self) -> list[Any]:
        out = []
        while True:
            try:
                out.append(self.events.get_nowait())
            except queue.Empty:
                return out

    def ready(self, status: str = "table up") -> None:
        """systemd READY=1 (sent after the first frame is drawn)."""
        watchdog.ready(status)

    def next_ping(self) -> float:
        """When :meth:`ping` next sends (the main loop wakes for it)."""
        return self._last_ping + 1.0

    def status(self, text: str) -> None:
        """systemd STATUS= (what ``systemctl status rummy-table`` shows)."""
        watchdog.status(text)

    def ping(self) -> None:
        """systemd WATCHDOG=1 from the main loop, at most once a second."""
        now = self.clock()
        if now - self._last_ping < 1.0:
            return
        self._last_ping = now
        watchdog.watchdog()

    def _close_board(self) -> None:
        if self.board is not None:
            self.board.close()
        self.board = None
        self.sim = None

    def close(self) -> None:
        self._close_board()


__all__ = ["Hardware", "InputEvent", "DRAW", "KNOCK", "BUY", "PRESS", "RELEASE", "HOLD"]
