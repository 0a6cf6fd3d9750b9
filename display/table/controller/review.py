"""The confirm that ends a review (a hand's or a deal's result, issue 28): it cannot be a
stray tap. The review stays on screen at least ``min_seconds`` (``[game] review_min_s``);
after that a human seat's DRAW held ``hold_seconds`` (the look threshold, ``LOOK_AFTER_S``)
or a touch on Continue goes on. A DRAW pressed before the review came up (held on the table
screen) counts for nothing, as a table screen forgets presses made elsewhere. No pygame: a
review scene hands it the button edges and the touches, on the app's clock.
"""

from __future__ import annotations

from display.table.controller.calls import Call


class ReviewGate:
    """When a review may be left (see the module docstring)."""

    def __init__(self, t0: float, *, min_seconds: float, hold_seconds: float) -> None:
        self.t0 = t0
        self.min_seconds = min_seconds
        self.hold_seconds = hold_seconds
        self._down: dict[int, float] = {}  # human seat holding DRAW -> when he pressed it

    def ready(self, now: float) -> bool:
        """Has the review been on screen long enough for a confirm?"""
        return now >= self.t0 + self.min_seconds - 1e-9

    def left(self, now: float) -> float:
        """Seconds until a confirm counts (0 when it does)."""
        return max(0.0, self.t0 + self.min_seconds - now)

    def button(self, seat: int, call: str, edge: str, t: float, *, human: bool) -> None:
        """An arcade button edge: a human seat's DRAW pressed while the review shows starts
        a hold; its release ends it (a tap, or a hold let go early, does nothing)."""
        if call != str(Call.DRAW) or not human:
            return
        if edge == "press" and t >= self.t0 - 1e-9:
            self._down[seat] = t
        elif edge == "release":
            self._down.pop(seat, None)

    def holding(self, now: float) -> bool:
        """Is a human seat holding DRAW (not yet long enough, or before the review may go)?"""
        return bool(self._down)

    def held(self, now: float) -> bool:
        """Does a held DRAW confirm now: held ``hold_seconds`` or longer, and the review on
        screen for ``min_seconds``?"""
        return self.ready(now) and any(now - t >= self.hold_seconds - 1e-9 for t in self._down.values())

    def touch(self, now: float) -> bool:
        """A touch on Continue: does it confirm now?"""
        return self.ready(now)
