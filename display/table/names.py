"""Seat names as the table shows them, in the table's language at draw time.

A name a person entered at the table (or a league player's) is shown as it is. A seat
nobody named is stored language-neutral, as the English code "Player 1" / "Computer 2"
with ``named: false`` (the journal header's seats, the records' players:
``rummy.store.seat_code``), and worded here each time it is drawn: "Jogador 1" on a
Portuguese table, "Игрок 1" on a Russian one, whatever language the table spoke when the
seat was made. Journals and records written before the codes hold the default name in the
language of their day ("Игрок 1"); ``rummy.store.default_code`` reads those back, so a
Portuguese table shows them in Portuguese too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from display.table.i18n import _
from rummy.store import default_code


def default_name(code: str) -> str:
    """A default seat's code ("Player 1", "Computer 2") in the table's language."""
    word, _sep, n = code.rpartition(" ")
    if word == "Computer":
        return _("Computer {n}").format(n=n)
    return _("Player {n}").format(n=n)


def display_name(seat: Mapping[str, Any] | Any) -> str:
    """The name of a seat (a journal seat dict, or anything with ``name`` and ``named``:
    a leaderboard row) as players read it: entered names as they are, default ones
    ("Player 1", or an older record's "Игрок 1") in the table's current language.

    ``named`` True keeps the name whatever it says (a person who typed "Player 1");
    ``named`` absent (older journals) words a name only when it is a default seat name.
    """
    if isinstance(seat, Mapping):
        name, named = str(seat.get("name") or ""), seat.get("named")
    else:
        name, named = str(getattr(seat, "name", "") or ""), getattr(seat, "named", None)
    if named is True:
        return name
    code = default_code(name)
    return name if code is None else default_name(code)


def record_names(rec: Any) -> list[str]:
    """The players of a recorded hand or match (``rummy.store.HandRecord``: ``players``
    with ``named`` per seat), each as :func:`display_name` words it."""
    named = tuple(getattr(rec, "named", ()) or ())
    return [display_name({"name": name, "named": named[i] if i < len(named) else None})
            for i, name in enumerate(rec.players)]
