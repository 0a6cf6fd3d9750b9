"""Every button lamp of the table, worked out in one place (docs/buttons.md, "Lamps").

The app asks once a frame (``display.app.App.show_lamps``), whatever scene shows, and
writes the answer to the board (``display.table.hw.Hardware.set_lamps``); no scene writes a
lamp. What a lamp shows depends on the screen:

* a table (virtual or real cards): the table controller's
  :meth:`~display.table.controller.table.TableController.lamp_states` — steady exactly when
  the button's tap acts, the "discard now" flashes on the other lamps of a seat at his
  discard, timed on the table's clock; worked out again only when the match, the seats'
  inputs, their looks or the moment after a deal changed (:class:`TableLamps`);
* a review: :func:`review_lamps` — a human seat's DRAW lit once the review may be left
  (its held DRAW goes on, :class:`~display.table.controller.review.ReviewGate`);
* any other screen (attract, seating, the operator menu, the deal out of the shoe, the
  failsafe …): every lamp off (:data:`DARK`).

No pygame.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from display.table.controller.calls import BUTTONS, Call, Lamp, lamp_lit
from display.table.controller.review import ReviewGate
from display.table.controller.table import TableController

#: a seat's lamps as written to the board: button name -> lit
Lit = dict[str, bool]

#: every lamp off (the screens without calls)
DARK: Mapping[int, Lit] = {}


class TableLamps:
    """A table's lamps at each frame, from its controller (the module docstring); the lamp
    states are cached by what they depend on, the flashes timed every frame."""

    def __init__(self) -> None:
        self._key: object = None
        self._states: dict[int, dict[str, Lamp]] = {}

    def states(self, ctl: TableController, seats: int, now: float, *, open_hands: bool,
               wired: Callable[[int], frozenset[str] | None]) -> dict[int, dict[str, Lamp]]:
        """Each seat's :class:`Lamp` per button (``wired(seat)``: the buttons his seat has,
        None: all of them)."""
        d = ctl.driver
        rng = range(seats)
        faces = tuple(ctl.face_up(s, now, open_hands=open_hands) for s in rng)
        key = (id(ctl), getattr(d, "version", None), getattr(getattr(d, "session", None), "actions_applied", None),
               id(d.state), tuple(ctl.input(s) for s in rng),
               tuple(ctl.looking_with(s, now, open_hands=open_hands) for s in rng), faces, ctl.settling(now))
        if key != self._key:
            self._key = key
            self._states = {s: ctl.lamp_states(s, now, face_up=faces[s], open_hands=open_hands, wired=wired(s))
                            for s in rng}
        return self._states

    def lit(self, ctl: TableController, seats: int, now: float, *, open_hands: bool,
            wired: Callable[[int], frozenset[str] | None]) -> dict[int, Lit]:
        """Each seat's lamps lit or not at ``now`` (the flashes on the table's clock)."""
        states = self.states(ctl, seats, now, open_hands=open_hands, wired=wired)
        return {s: {b: lamp_lit(lamp, now) for b, lamp in lamps.items()} for s, lamps in states.items()}


def review_lamps(gate: ReviewGate, now: float, humans: Sequence[bool]) -> dict[int, Lit]:
    """A review's lamps: each human seat's DRAW once the review may be left (a held DRAW
    goes on, issue 28); every other lamp off."""
    ready = gate.ready(now)
    return {s: {str(b): b is Call.DRAW and ready and human for b in BUTTONS} for s, human in enumerate(humans)}


__all__ = ["DARK", "Lit", "TableLamps", "review_lamps"]
