"""Immutable events from the hardware edge (buttons and card shoe) and their simulations.

Device threads only build these and ``put_nowait`` them on a :class:`queue.Queue`; the
main loop drains the queue each frame. Timestamps are ``time.monotonic()`` seconds taken
in the callback (press time decides buy contention, not queue order).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeAlias

from device.shoe import protocol as _protocol
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
# Read points (the protocol's names: device/shoe/protocol.py is their one source).
POINT_SHOE: str = _protocol.SHOE  # the shoe's exit
POINT_SLOT: str = _protocol.SLOT  # the discard slot
SHOE_POINTS: tuple[str, ...] = _protocol.POINTS


@dataclass(frozen=True, slots=True)
class ShoeEvent:
    """Something the card shoe link reports.

    ``point``: the read point of a card or an error, "shoe" (the shoe's exit) or "slot"
    (the discard slot); a protocol 1 or 2 shoe reads at "shoe" only; events of the link
    itself say "shoe". ``card``: a card read (``uid`` set; ``card`` is None when the tag
    is not in the deck map, and ``detail`` says so). ``misread``/``double``/``jam``/
    ``error``: the shoe's ERR frames (``detail`` = code and extra fields, without the
    point; a ``double`` has ``info["uids"]`` and ``info["cards"]``, None where a tag is
    not in the deck map). ``connected`` (``info`` has proto, fw, boot, reader, port and
    ``points``, the board's read points), ``disconnected`` (``detail`` = why), ``status`` (heartbeat
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
    point: str = POINT_SHOE

    def __post_init__(self) -> None:
        if self.kind not in SHOE_KINDS:
            raise ValueError(f"unknown shoe event kind {self.kind!r}")
        if self.point not in SHOE_POINTS:
            raise ValueError(f"unknown read point {self.point!r}")


# What a device thread puts on the main loop's queue (buttons and the shoe share one).
DeviceEvent: TypeAlias = InputEvent | ShoeEvent
