"""The one action model every input becomes: a button, a key, a touch, a bot, a journal line.

An :class:`Action` is a plain frozen value with a ``kind`` (a verb the game defines, e.g.
``"draw_stock"``, ``"discard"``, ``"knock"``, ``"buy"``, ``"allow"``) and the seat that
acts. Seat ``TABLE`` (-1) is the table itself: dealing, timeouts the rules define.
Engines produce :class:`Event` values describing what happened, for views and replays.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rummy.cards import Card, CardError, parse_card

TABLE = -1


class ActionError(ValueError):
    """An action that is malformed or not legal in the current state."""


@dataclass(frozen=True, slots=True)
class Action:
    """One decision. Unused fields stay at their defaults.

    ``card``: the single card a verb is about (the discard, a layoff card).
    ``cards``: several cards (a deal's deck order, cards bought).
    ``melds``: a declared arrangement (knock) or melds laid on the table (contract).
    ``target``: an index the verb points at (a meld on the table, a seat, a count).
    ``flag``: a yes/no answer (permission to buy: True = "Можно", False = "Нельзя").
    """

    kind: str
    seat: int
    card: Card | None = None
    cards: tuple[Card, ...] = ()
    melds: tuple[tuple[Card, ...], ...] | None = None
    target: int | None = None
    flag: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict with cards as two-character strings; defaults are omitted."""
        d: dict[str, Any] = {"kind": self.kind, "seat": self.seat}
        if self.card is not None:
            d["card"] = str(self.card)
        if self.cards:
            d["cards"] = " ".join(str(c) for c in self.cards)
        if self.melds is not None:
            d["melds"] = [" ".join(str(c) for c in m) for m in self.melds]
        if self.target is not None:
            d["target"] = self.target
        if self.flag is not None:
            d["flag"] = self.flag
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Action:
        """Inverse of :meth:`to_dict`; raises :class:`ActionError` naming the bad field."""
        try:
            kind = d["kind"]
            seat = d["seat"]
        except (KeyError, TypeError) as exc:
            raise ActionError(f"action needs 'kind' and 'seat': {d!r}") from exc
        if not isinstance(kind, str) or not isinstance(seat, int) or isinstance(seat, bool):
            raise ActionError(f"'kind' must be text and 'seat' an integer: {d!r}")
        unknown = set(d) - {"kind", "seat", "card", "cards", "melds", "target", "flag", "n", "t", "type"}
        if unknown:
            raise ActionError(f"unknown action field(s) {sorted(unknown)}")
        try:
            card = parse_card(d["card"]) if d.get("card") is not None else None
            cards = tuple(parse_card(c) for c in str(d.get("cards", "")).split())
            melds = d.get("melds")
            if melds is not None:
                if not isinstance(melds, list):
                    raise ActionError("'melds' must be a list of card groups")
                melds = tuple(tuple(parse_card(c) for c in str(m).split()) for m in melds)
        except CardError as exc:
            raise ActionError(str(exc)) from exc
        target = d.get("target")
        if target is not None and (not isinstance(target, int) or isinstance(target, bool)):
            raise ActionError(f"'target' must be an integer, got {target!r}")
        flag = d.get("flag")
        if flag is not None and not isinstance(flag, bool):
            raise ActionError(f"'flag' must be true or false, got {flag!r}")
        return cls(kind, seat, card, cards, melds, target, flag)

    def __str__(self) -> str:
        parts = [f"seat {self.seat}" if self.seat != TABLE else "table", self.kind]
        if self.card is not None:
            parts.append(str(self.card))
        if self.melds is not None:
            parts.append("[" + " | ".join(" ".join(map(str, m)) for m in self.melds) + "]")
        if self.target is not None:
            parts.append(f"->{self.target}")
        if self.flag is not None:
            parts.append("yes" if self.flag else "no")
        if self.cards and self.kind != "deal":
            parts.append(" ".join(map(str, self.cards)))
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for views, sounds, lamps and replay printouts.

    ``kind`` is a verb in the past (``"drew"``, ``"knocked"``, ``"hand_scored"``);
    ``data`` carries JSON-ready details.
    """

    kind: str
    seat: int = TABLE
    data: Mapping[str, Any] = field(default_factory=dict)
