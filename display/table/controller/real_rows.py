"""What the real-card rows of the per-game call tables share (docs/real_cards.md): a row
(:class:`Entry`: its handler and its words), a seat's input with real cards
(:class:`RealInput`: the slot's meaning, the last question he answered) and the handlers
every game uses. Each game's rows are its own, keyed by its phase enum beside its virtual
rows (``display.table.controller.gin.REAL_TABLE``, ``...contract.REAL_TABLE``); the reads
that become calls are :mod:`display.table.controller.real_cards`'. No pygame.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from display.table.controller.calls import Outcome, Submit
from display.table.controller.table import Situation
from rummy.actions import Action
from rummy.cards import Card


def N_(text: str) -> str:
    """A msgid worded by the display (``display.table.i18n``; the controller imports no display)."""
    return text


class Mode(StrEnum):
    """What the next card into the slot is (the seat pressed KNOCK first)."""

    NONE = ""
    KNOCK = "knock"  # gin: the knock's discard, face down (G-7.3)
    TAKE = "take"  # gin: take the last discard to knock with this discard (G-13.3)


@dataclass(frozen=True)
class RealInput:
    """A seat's input state in real-card mode: the slot's meaning (``mode``) and the last
    question he answered (``ack``, a prompt number)."""

    mode: Mode = Mode.NONE
    ack: int = 0
    # what the table scenes read of a seat's input (nothing is picked in real-card mode)
    selected: Any = None  # gin: None; contract: ()
    groups: tuple[tuple[int, ...], ...] = ()
    choose_take: bool = False


CLEAR = RealInput()
CONTRACT_CLEAR = RealInput(selected=())

RealHandler = Callable[[Situation, Any], Outcome | None]


@dataclass(frozen=True)
class Entry:
    """One real-card row: what the call does (``handler``: the outcome, or None when it
    does nothing now) and what it means, in words (a msgid: the help, docs/real_cards.md)."""

    handler: RealHandler
    words: str


def real_input(sit: Situation, clear: RealInput = CLEAR) -> RealInput:
    inp = sit.input
    return inp if isinstance(inp, RealInput) else clear


def submit(kind: str) -> RealHandler:
    return lambda sit, arg: sit.submit(kind)


def judged(sit: Situation, kind: str, **fields: Any) -> Submit:
    """The legal action with these fields, else the same for the engine to judge."""
    a = sit.find(kind, **fields)
    return Submit(a) if a is not None else Submit(Action(kind, sit.seat, **fields), judged=True)


def stock_draw(kind: str) -> RealHandler:
    """A card out of the shoe: the seat's stock draw of that card (IF10: the card read)."""
    def handler(sit: Situation, card: Card) -> Outcome | None:
        return Submit(Action(kind, sit.seat, card=card), judged=True)
    return handler


def first(kind: str) -> RealHandler:
    """The first legal action of ``kind`` (the table's choice from the hand it knows)."""
    def handler(sit: Situation, arg: Any) -> Outcome | None:
        return next((Submit(a) for a in sit.legal if a.kind == kind), None)
    return handler
