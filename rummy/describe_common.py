"""What the engines' English replay lines share (``describe`` in ``rummy.gin`` and
``rummy.contract``): seat names, card lists, pairs of scores, and one table of lines per
event kind instead of a chain of ``if kind == ...`` branches."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rummy.actions import Event

# A line is a format template over the event data plus ``who`` (the acting seat's name),
# or a function of (data, who) for lines that need more than substitution.
Line = str | Callable[[Mapping[str, Any], str], str]


def seat_name(seat: object) -> str:
    """``seat 2``, or ``the table`` for the table's own events (seat -1)."""
    return "the table" if seat in (None, -1) else f"seat {seat}"


def card_list(items: object) -> str:
    """A list of cards (or anything) as space-separated text; other values as they are."""
    return " ".join(str(x) for x in items) if isinstance(items, list | tuple) else str(items)


def pair(v: object) -> str:
    """Two seats' numbers as ``41-0`` (seat 0 first)."""
    return f"{v[0]}-{v[1]}" if isinstance(v, list | tuple) and len(v) == 2 else str(v)


class _Fields(dict[str, object]):
    """Event data for a template; a missing field prints as ``?``."""

    def __missing__(self, key: str) -> str:
        return "?"


def describe_with(lines: Mapping[str, Line], event: Event) -> str:
    """The event's line from ``lines``; a kind without a line prints its raw data."""
    who = seat_name(event.seat)
    line = lines.get(event.kind)
    if line is None:
        return f"{who} {event.kind} {dict(event.data)}"
    if isinstance(line, str):
        return line.format_map(_Fields(event.data, who=who))
    return line(event.data, who)
