"""Arcade buttons and their lamps on GPIO, through gpiozero with an injected pin factory.

``ButtonBoard(config, *, pin_factory, events, clock=time.monotonic)`` creates one gpiozero
``DigitalInputDevice`` per configured pin and one ``LED`` per lamp, and puts
:class:`InputEvent`s on ``events``. Edge handling is done here, not by gpiozero, because
``MockPin`` ignores ``bounce_time``, factories disagree on what it means (lgpio: an edge
must be stable that long before it is reported; see docs/buttons.md) and ``when_held``
can keep firing (gpiozero #697):

* glitch filter: a level counts only once the pin has held it for ``glitch`` s, so a
  1-5 ms spike while idle is no press and a 1-5 ms dropout during a hold is no release
  and second press. The edge is stamped with the time the pin first left the old level
  (bounce never moves a press later); it reaches the queue ``glitch`` s later, from the
  next edge or :meth:`poll` (the hold thread calls it every ``poll_interval``);
* debounce: a filtered edge within ``debounce`` s of the last accepted edge of that
  button is ignored (:meth:`poll` catches up with the pin afterwards);
* lockout: a press within ``lockout`` s of the last reported press of the same button is
  swallowed together with its hold and release;
* hold: reported once per press by :meth:`poll`, only while the pin still reads pressed
  and it is still the same press;
* operator chord: the two ``operator_chord`` buttons held together for ``operator_hold``
  s give one ``InputEvent(seat=-1, call="operator", edge="hold")``.
"""

from __future__ import annotations

import contextlib
import os
import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.events import (
    CALLS,
    GPIO,
    HOLD,
    OPERATOR,
    PRESS,
    RELEASE,
    SIM,
    TABLE_SEAT,
    DeviceEvent,
    InputEvent,
)
from device.pins import LAMPS, ButtonConfig, default_config, parse_button_config


class HardwareError(RuntimeError):
    """The GPIO hardware cannot be used as configured (message says why and what to do)."""


def on_raspberry_pi(model_path: str = "/proc/device-tree/model") -> bool:
    """True when running on a Raspberry Pi (by the device-tree model string)."""
    try:
        return "raspberry pi" in Path(model_path).read_text(errors="replace").lower()
    except OSError:
        return False


def is_mock_factory(pin_factory: Any) -> bool:
    return type(pin_factory).__name__ == "MockFactory"


def make_pin_factory(name: str) -> Any:
    """A gpiozero pin factory by name: ``"lgpio"`` (the Pi) or ``"mock"`` (desktop, tests).

    Raises :class:`HardwareError` with the fix when the factory cannot be loaded; it never
    falls back to another factory.
    """
    if name == "mock":
        from gpiozero.pins.mock import MockFactory

        return MockFactory()
    if name == "lgpio":
        try:
            from gpiozero.pins.lgpio import LGPIOFactory

            return LGPIOFactory()
        except Exception as exc:  # ImportError, or lgpio failing to open /dev/gpiochip*
            raise HardwareError(
                f"the lgpio pin factory is not usable ({exc}); install lgpio "
                "(apt install python3-lgpio, or pip install lgpio) and add the user to the "
                "'gpio' group"
            ) from exc
    raise HardwareError(f"unknown pin factory {name!r}: use 'lgpio' on the Pi or 'mock'")


IDLE_POLLS = 5  # with every button up and settled the hold thread polls this many times less often


@dataclass(slots=True)
class _GlitchFilter:
    """One pin's levels (True = pressed) to filtered level changes: a level counts once
    the pin has held it ``glitch`` s. Pure: fed raw edges and the time, returns changes."""

    glitch: float
    raw: bool = False  # the level the pin last showed
    since: float = float("-inf")  # when it changed to it
    level: bool = False  # the filtered level
    left_at: float | None = None  # first edge away from ``level`` not judged yet
    glitches: int = 0  # departures that came back before they counted

    def feed(self, raw: bool, t: float) -> list[tuple[bool, float]]:
        """A raw edge at ``t``; the filtered changes (level, stamp) it settles."""
        out = self.settle(t)
        if raw == self.raw:
            return out
        self.raw, self.since = raw, t
        if raw != self.level:
            if self.left_at is None:
                self.left_at = t
        else:
            self.glitches += 1  # back before the other level counted: bounce or glitch
        return out + self.settle(t)

    def settle(self, now: float) -> list[tuple[bool, float]]:
        """The change that is due at ``now``, if the raw level has held long enough."""
        if now - self.since < self.glitch:
            return []
        if self.raw == self.level:
            self.left_at = None
            return []
        stamp = self.since if self.left_at is None else self.left_at
        self.level, self.left_at = self.raw, None
        return [(self.level, stamp)]

    @property
    def settled(self) -> bool:
        """True when the raw level is the filtered one (nothing pending)."""
        return self.raw == self.level


@dataclass(slots=True)
class _ButtonState:
    seat: int
    call: str
    pressed: bool = False  # logical (filtered, debounced) state
    last_edge: float = float("-inf")
    last_press: float = float("-inf")  # last *reported* press, for the lockout
    press_t: float = 0.0
    reported: bool = False  # this press was reported (not locked out)
    held: bool = False  # hold already reported for this press


class ButtonBoard:
    """All seats' buttons and lamps. Use as a context manager or call :meth:`close`."""

    def __init__(
        self,
        config: ButtonConfig,
        *,
        pin_factory: Any,
        events: queue.Queue[DeviceEvent],
        clock: Callable[[], float] = time.monotonic,
        source: str | None = None,
        poll_interval: float | None = 0.01,
        allow_mock_on_pi: bool = False,
    ) -> None:
        if pin_factory is None:
            raise HardwareError(
                "no GPIO pin factory given: pass make_pin_factory('lgpio') on the Pi "
                "or make_pin_factory('mock') on a desktop"
            )
        if is_mock_factory(pin_factory) and on_raspberry_pi() and not allow_mock_on_pi:
            raise HardwareError(
                "refusing the mock pin factory on a Raspberry Pi: the buttons would be dead. "
                "Use the lgpio factory (GPIOZERO_PIN_FACTORY=lgpio)"
            )
        from gpiozero import LED, DigitalInputDevice

        self.config = config
        self.pin_factory = pin_factory
        self.events = events
        self.clock = clock
        self.source = source or (SIM if is_mock_factory(pin_factory) else GPIO)
        self._local = threading.local()
        self._lock = threading.RLock()
        self._buttons: dict[tuple[int, str], Any] = {}
        self._states: dict[tuple[int, str], _ButtonState] = {}
        self._filters: dict[tuple[int, str], _GlitchFilter] = {}
        self._sources: dict[tuple[int, str], str] = {}  # source of each button's last edge
        self._lamps: dict[tuple[int, str], Any] = {}
        self._chord_fired = False
        self._closed = False
        self.counters = {
            "presses": 0,
            "bounces": 0,  # edges dropped: back within the glitch time or the debounce
            "lockouts": 0,
            "holds": 0,
            "chords": 0,
        }
        try:
            for seat, pins in config.seats.items():
                for call, pin in pins.buttons.items():
                    button = DigitalInputDevice(  # active = pulled low = pressed
                        pin,
                        pull_up=True,
                        bounce_time=config.bounce_time or None,
                        pin_factory=pin_factory,
                    )
                    key = (seat, call)
                    self._buttons[key] = button
                    self._states[key] = _ButtonState(seat, call)
                    self._filters[key] = _GlitchFilter(config.glitch)
                    button.when_activated = self._callback(key, True)
                    button.when_deactivated = self._callback(key, False)
                for lamp, pin in pins.lamps.items():
                    self._lamps[(seat, lamp)] = LED(pin, pin_factory=pin_factory)
        except Exception as exc:
            self.close()
            if isinstance(exc, HardwareError):
                raise
            raise HardwareError(f"cannot set up the GPIO buttons/lamps: {exc}") from exc
        self._stop = threading.Event()
        self._nudge = threading.Event()  # an edge: the hold thread looks again soon
        self._thread: threading.Thread | None = None
        if poll_interval:
            self._thread = threading.Thread(
                target=self._poll_loop, args=(poll_interval,), name="button-hold", daemon=True
            )
            self._thread.start()

    # -- edges -------------------------------------------------------------------------
    def _callback(self, key: tuple[int, str], pressed: bool) -> Callable[[], None]:
        def handler() -> None:
            self.edge(key[0], key[1], pressed, self.clock())

        return handler

    def _put(self, seat: int, call: str, edge: str, t: float) -> None:
        # The source of the raw edge that began it (it may be confirmed later, by poll).
        source = self._sources.get((seat, call), self.source)
        try:
            self.events.put_nowait(InputEvent(seat, call, edge, source, t))
        except queue.Full:  # a bounded queue that nobody drains: drop rather than block GPIO
            pass

    def edge(self, seat: int, call: str, pressed: bool, t: float) -> None:
        """Handle one raw edge (called from the gpiozero callback with its timestamp)."""
        with self._lock:
            flt = self._filters[(seat, call)]
            if pressed != flt.raw:
                self._sources[(seat, call)] = getattr(self._local, "source", None) or self.source
            before = flt.glitches
            changes = flt.feed(pressed, t)
            self.counters["bounces"] += flt.glitches - before
            for level, stamp in changes:
                self._accept(seat, call, level, stamp)
        nudge = getattr(self, "_nudge", None)
        if nudge is not None:
            nudge.set()

    def _accept(self, seat: int, call: str, pressed: bool, t: float) -> None:
        """A filtered edge: debounce, lockout, then the events."""
        with self._lock:
            st = self._states[(seat, call)]
            if pressed == st.pressed:
                return  # gpiozero already filters same-state edges; be safe anyway
            if t - st.last_edge < self.config.debounce:
                self.counters["bounces"] += 1
                return
            st.last_edge = t
            st.pressed = pressed
            if pressed:
                st.press_t = t
                st.held = False
                if t - st.last_press < self.config.lockout:
                    st.reported = False
                    self.counters["lockouts"] += 1
                    return
                st.last_press = t
                st.reported = True
                self.counters["presses"] += 1
                self._put(seat, call, PRESS, t)
            else:
                if st.reported:
                    self._put(seat, call, RELEASE, t)
                st.reported = False
                if self._chord_fired and not self._chord_down():
                    self._chord_fired = False

    @contextlib.contextmanager
    def source_as(self, source: str) -> Iterator[None]:
        """Label edges handled in this thread meanwhile as ``source`` (the simulator's
        keyboard and touch buttons drive mock pins, whose callbacks run synchronously)."""
        previous = getattr(self._local, "source", None)
        self._local.source = source
        try:
            yield
        finally:
            self._local.source = previous

    def _chord_down(self) -> bool:
        return all(self._states[k].pressed for k in self.config.operator_chord)

    # -- holds and the chord -----------------------------------------------------------
    def poll(self, now: float | None = None) -> None:
        """Report holds and the operator chord that are due at ``now`` (default: clock)."""
        with self._lock:
            if self._closed:
                return
            now = self.clock() if now is None else now
            due: list[tuple[float, tuple[int, str], bool]] = []
            for key, flt in self._filters.items():
                physical = bool(self._buttons[key].is_active)
                if physical != flt.raw:  # an edge the callbacks never saw
                    self.edge(key[0], key[1], physical, now)
                due += [(stamp, key, level) for level, stamp in flt.settle(now)]
            for stamp, key, level in sorted(due):  # in the order they happened
                self._accept(key[0], key[1], level, stamp)
            for key, st in self._states.items():
                flt = self._filters[key]
                if flt.level != st.pressed and now - st.last_edge >= self.config.debounce:
                    # The last edge fell inside a debounce window: catch up with the pin.
                    self._accept(st.seat, st.call, flt.level, now)
                if (
                    st.pressed
                    and st.reported
                    and not st.held
                    and now - st.press_t >= self.config.hold
                    and flt.raw
                ):
                    st.held = True
                    self.counters["holds"] += 1
                    self._put(st.seat, st.call, HOLD, now)
            if not self._chord_fired and self._chord_down():
                chord = [self._states[k] for k in self.config.operator_chord]
                if all(self._filters[(s.seat, s.call)].raw for s in chord) and (
                    now - max(s.press_t for s in chord) >= self.config.operator_hold
                ):
                    self._chord_fired = True
                    self.counters["chords"] += 1
                    self._put(TABLE_SEAT, OPERATOR, HOLD, now)

    def _poll_loop(self, interval: float) -> None:
        """Poll every ``interval`` while a button is down or an edge is settling (the next
        poll then comes when the glitch filter can pass it, at most ``interval`` away);
        with every button up and settled only every ``IDLE_POLLS`` intervals (to catch an
        edge the callbacks never saw), or as soon as an edge arrives."""
        while not self._stop.is_set():
            wait = self._next_poll(interval)
            if wait is None:
                self._nudge.wait(interval * IDLE_POLLS)
                if self._nudge.is_set():
                    self._nudge.clear()
                    continue  # an edge: settling now, so the next wait is a short one
            elif self._stop.wait(wait):
                return
            if self._stop.is_set():
                return
            self.poll()

    def _next_poll(self, interval: float) -> float | None:
        """Seconds to the next poll the buttons need (None: all up and settled)."""
        with self._lock:
            if any(st.pressed or self._filters[key].level != st.pressed for key, st in self._states.items()):
                return interval  # holds to time, or a debounced edge to catch up with
            now = self.clock()
            due = [flt.since + flt.glitch - now for flt in self._filters.values() if not flt.settled]
        if not due:
            return None
        return min(interval, max(0.001, min(due) + 0.001))

    # -- lamps -------------------------------------------------------------------------
    def lamps(self) -> list[tuple[int, str]]:
        """The wired lamps as ``(seat, name)``; name is a call or ``"seat"``."""
        return sorted(self._lamps)

    def set_lamp(self, seat: int, name: str, on: bool) -> None:
        """Switch one lamp; a lamp that is not wired is ignored."""
        if name not in LAMPS:
            raise ValueError(f"unknown lamp {name!r}: use one of {', '.join(LAMPS)}")
        lamp = self._lamps.get((seat, name))
        if lamp is not None:
            lamp.on() if on else lamp.off()

    def set_lamps(
        self,
        seat: int,
        *,
        draw: bool | None = None,
        knock: bool | None = None,
        buy: bool | None = None,
        seat_lamp: bool | None = None,
    ) -> None:
        """Light a seat's call lamps (None leaves a lamp as it is).

        A seat wired with one ``lamp`` only shows whether any given call is open, unless
        ``seat_lamp`` says otherwise.
        """
        calls = {"draw": draw, "knock": knock, "buy": buy}
        for name, value in calls.items():
            if value is not None:
                self.set_lamp(seat, name, value)
        given = [v for v in calls.values() if v is not None]
        if seat_lamp is None and given:
            seat_lamp = any(given)
        if seat_lamp is not None:
            self.set_lamp(seat, "seat", seat_lamp)

    def lamp_is_lit(self, seat: int, name: str) -> bool:
        lamp = self._lamps.get((seat, name))
        return bool(lamp is not None and lamp.is_lit)

    def all_off(self) -> None:
        for lamp in self._lamps.values():
            lamp.off()

    # -- state -------------------------------------------------------------------------
    def buttons(self) -> list[tuple[int, str]]:
        """The wired buttons as ``(seat, call)``."""
        return sorted(self._buttons)

    def pin_of(self, seat: int, call: str) -> str:
        return self.config.seats[seat].buttons[call]

    def is_pressed(self, seat: int, call: str) -> bool:
        """The debounced state of one button."""
        with self._lock:
            return self._states[(seat, call)].pressed

    def close(self) -> None:
        """Stop the hold thread, switch lamps off and free every pin (idempotent)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        stop = getattr(self, "_stop", None)
        if stop is not None:
            stop.set()
        nudge = getattr(self, "_nudge", None)
        if nudge is not None:
            nudge.set()
        thread = getattr(self, "_thread", None)
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=1)
        for lamp in self._lamps.values():
            try:
                lamp.off()
            finally:
                lamp.close()
        for button in self._buttons.values():
            button.close()

    def __enter__(self) -> ButtonBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def factory_from_env(*, default: str = "lgpio") -> Any:
    """The pin factory named by ``GPIOZERO_PIN_FACTORY`` (default lgpio), loudly."""
    return make_pin_factory(os.environ.get("GPIOZERO_PIN_FACTORY", default))


__all__ = [  # parse_button_config/default_config re-exported for config validators
    "CALLS",
    "ButtonBoard",
    "ButtonConfig",
    "default_config",
    "parse_button_config",
    "HardwareError",
    "factory_from_env",
    "make_pin_factory",
    "on_raspberry_pi",
]
