"""Immutable events from the hardware edge (buttons and card shoe) and their simulations.

Device threads only build these and ``put_nowait`` them on a :class:`queue.Queue`; the
main loop drains the queue each frame. Timestamps are ``time.monotonic()`` seconds taken
in the callback (press time decides buy contention, not queue order).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rummy.cards import Card

# Button calls; "operator" is the chord (two chosen buttons held together).
DRAW = "draw"
KNOCK = "knock"
BUY = "buy"
OPERATOR = "operator"
CALLS = (DRAW, KNOCK, BUY)

# Button edges.
PRESS = "press"
HOLD = "hold"
RELEASE = "release"
EDGES = (PRESS, HOLD, RELEASE)

# Where an input came from.
GPIO = "gpio"
KEYBOARD = "keyboard"
TOUCH = "touch"
SIM = "sim"
SOURCES = (GPIO, KEYBOARD, TOUCH, SIM)

TABLE_SEAT = -1  # the operator chord belongs to the table, not a seat
MAX_SEATS = 6


@dataclass(frozen=True, slots=True)
class InputEvent:
    """One button edge: ``seat`` 0..5 (-1 for the operator chord), ``call``, ``edge``."""

    seat: int
    call: str
    edge: str
    source: str
    t: float

    def __post_init__(self) -> None:
        if self.call not in (*CALLS, OPERATOR):
            raise ValueError(f"unknown call {self.call!r}")
        if self.edge not in EDGES:
            raise ValueError(f"unknown edge {self.edge!r}")
        if self.source not in SOURCES:
            raise ValueError(f"unknown source {self.source!r}")
        if not (TABLE_SEAT <= self.seat < MAX_SEATS):
            raise ValueError(f"seat must be 0..{MAX_SEATS - 1}, got {self.seat}")


# Shoe event kinds.
SHOE_CARD = "card"
SHOE_MISREAD = "misread"
SHOE_DOUBLE = "double"
SHOE_JAM = "jam"
SHOE_ERROR = "error"  # other ERR codes from the shoe (READER, OVERFLOW, FATAL, ...)
SHOE_CONNECTED = "connected"
SHOE_DISCONNECTED = "disconnected"
SHOE_STATUS = "status"
SHOE_LOST = "lost"  # reliable frames the shoe sent that will never arrive (a fault)
SHOE_KINDS = (
    SHOE_CARD,
    SHOE_MISREAD,
    SHOE_DOUBLE,
    SHOE_JAM,
    SHOE_ERROR,
    SHOE_CONNECTED,
    SHOE_DISCONNECTED,
    SHOE_STATUS,
    SHOE_LOST,
)


@dataclass(frozen=True, slots=True)
class ShoeEvent:
    """Something the card shoe link reports.

    ``card``: a card read (``uid`` set; ``card`` is None when the tag is not in the deck
    map, and ``detail`` says so). ``misread``/``double``/``jam``/``error``: the shoe's
    ERR frames (``detail`` = code and extra fields). ``connected`` (``info`` has proto, fw,
    boot, reader, port), ``disconnected`` (``detail`` = why), ``status`` (heartbeat
    ``info``: uptime, state, unacked; or a link warning in ``detail``), ``lost`` (cards
    or errors the shoe sent that will never arrive: ``info`` has ``count``, ``first`` and
    ``last`` seq, ``why`` = "overflow" or "restart"; ``boot`` is the boot that sent them).
    """

    kind: str
    t: float
    uid: str | None = None
    card: Card | None = None
    seq: int | None = None
    boot: str = ""
    detail: str = ""
    info: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.kind not in SHOE_KINDS:
            raise ValueError(f"unknown shoe event kind {self.kind!r}")
