"""View-models of the table's regions: frozen dataclasses built from the match without
pygame (a seat panel, the centre, the contract hand tray, the reviews).

A scene builds one per region and frame; a painter draws it. Two equal view-models draw
the same pixels, so the scene keeps a region on the screen as long as its view-model is
equal to the one it last drew (the view-model is the cache key; nothing is kept by hand).
Geometry is given in plain tuples (``Box`` = left, top, width, height), words already
translated (``display.table.i18n``), cards as ``rummy.cards.Card``.
"""

from __future__ import annotations

from dataclasses import dataclass

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Place:
    """Where a seat's panel (or his tray) lies: drawn upright in its own coordinates and
    turned by ``angle`` onto ``rect`` of the screen (``display.layout.SeatPanel``)."""

    seat: int
    edge: str
    rect: Box
    angle: int


@dataclass(frozen=True)
class ButtonVM:
    """An on-screen call button of a seat: what it says and whether it is the one to press
    (``hot``); ``name`` says what it does (the scene maps it to the call)."""

    label: str
    name: str
    hot: bool = False
