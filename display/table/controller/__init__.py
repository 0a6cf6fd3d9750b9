"""The table controller: seat calls (DRAW / KNOCK / BUY, touches, on-screen buttons) to
engine actions, per game one table read by the call handlers and the lamps alike, the rule
timers on an injected clock, and hints as codes. Imports no pygame (a test enforces it).

``controller_for(game, driver, clock=…)`` makes the controller of a match; see
:mod:`display.table.controller.table` for what a scene asks it.
"""

from __future__ import annotations

from collections.abc import Callable

from display.table.controller import calls, contract, gin
from display.table.controller.calls import *  # noqa: F403 (the call vocabulary: calls.__all__)
from display.table.controller.table import (
    LOOK_AFTER_S,
    Deadline,
    Driver,
    GameTable,
    Result,
    Situation,
    TableController,
)

#: game name -> its call table
GAMES: dict[str, GameTable] = {"gin": gin.GAME, "contract": contract.GAME}


def controller_for(game: str, driver: Driver, *, clock: Callable[[], float], answer_seconds: float = 15.0,
                   buy_window: float = 2.5, deal_grace: float = 3.0,
                   look_after: float = LOOK_AFTER_S) -> TableController:
    """The controller of a match of ``game`` driven by ``driver``."""
    return TableController(GAMES[game], driver, clock=clock, answer_seconds=answer_seconds,
                           buy_window=buy_window, deal_grace=deal_grace, look_after=look_after)



__all__ = ["GAMES", "LOOK_AFTER_S", "Deadline", "Driver", "GameTable", "Result", "Situation",
           "TableController", "controller_for"]
__all__ += calls.__all__
