"""The one action model every input becomes: a button, a key, a touch, a bot, a journal line.

An :class:`Action` is a plain frozen value with a ``kind`` (a verb the game defines, e.g.
``"draw_stock"``, ``"discard"``, ``"knock"``, ``"buy"``, ``"allow"``) and the seat that
acts. Seat ``TABLE`` (-1) is the table itself: dealing, timeouts the rules define.
Engines produce :class:`Event` values describing what happened, for views and replays.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rummy.cards import Card, CardError, format_cards, parse_card

TABLE = -1


class TableKind(StrEnum):
    """The table's own action kinds, the same in every game (each game's ``ActionKind``
    repeats them with these values, so ``Action.kind`` compares equal either way)."""

    DEAL = "deal"  # the table's deal (G-3, C-4)
    DEAL_READ = "deal_read"  # a deal read out of the card shoe (read mode, issue 10)


DEAL = TableKind.DEAL
DEAL_READ = TableKind.DEAL_READ
DEAL_KINDS: frozenset[str] = frozenset(TableKind)  # each starts a hand


def is_deal(action: Action) -> bool:
    """True for the table's deal of a hand, from a known order or read out of the shoe."""
    return action.kind in DEAL_KINDS and action.seat == TABLE


class RefusalCode(StrEnum):
    """Base of the refusal enums: the value is the code, plus a rule number and a line.

    Members are declared as ``NAME = (code, rule, text)``: ``code`` is what the table
    translates, ``rule`` the spec rule refused under (``"G-7.2"``, ``"C-8.1"``; ``None`` for
    malformed input), ``text`` an English template over the refusal's named params, for
    logs and the CLI replay only (players see the display's translation of the code).
    """

    rule: str | None
    text: str

    def __new__(cls, code: str, rule: str | None = None, text: str = "") -> RefusalCode:
        obj = str.__new__(cls, code)
        obj._value_ = code
        obj.rule = rule
        obj.text = text or code
        return obj

    def english(self, params: Mapping[str, Any]) -> str:
        """The English line for this refusal with ``params`` (the rule cited at the end)."""
        line = _fill(self.text, {k: plain_param(v, params) for k, v in params.items()})
        if self.rule and self.rule not in line:
            line += f" ({self.rule})"
        return line


class _Missing(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"  # a log line never fails over a param a raise left out


def _fill(template: str, values: Mapping[str, str]) -> str:
    return template.format_map(_Missing(values))


def plain_param(value: Any, params: Mapping[str, Any] | None = None) -> str:
    """A refusal param as English log text: cards as ``QS``, card groups as ``7H 8H 9H``,
    a nested refusal code (``reason``) as its own line over the same params."""
    if isinstance(value, RefusalCode):
        rest = {k: v for k, v in (params or {}).items() if not isinstance(v, RefusalCode)}
        return _fill(value.text, {k: plain_param(v) for k, v in rest.items()})
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple | list | frozenset | set):
        items = list(value)
        if not items:
            return "none"
        if all(isinstance(v, Card) for v in items):
            return format_cards(items)
        return ", ".join(plain_param(v) for v in items)
    return str(value)


class CommonRefusal(RefusalCode):
    """Refusals every game shares: malformed input, wrong seat, nothing to do now."""

    NOT_AN_ACTION = ("not_an_action", None, "not an action: {value}")
    ACTION_FIELDS_MISSING = ("action_fields_missing", None, "action needs 'kind' and 'seat': {value}")
    ACTION_KIND_SEAT_TYPE = (
        "action_kind_seat_type", None, "'kind' must be text and 'seat' an integer: {value}"
    )
    ACTION_UNKNOWN_FIELDS = ("action_unknown_fields", None, "unknown action field(s) {fields}")
    ACTION_BAD_CARD = ("action_bad_card", None, "'{field}' holds {value}, not cards: {detail}")
    ACTION_BAD_MELDS = ("action_bad_melds", None, "'melds' must be a list of card groups")
    ACTION_BAD_TARGET = ("action_bad_target", None, "'target' must be an integer, got {value}")
    ACTION_BAD_FLAG = ("action_bad_flag", None, "'flag' must be true or false, got {value}")
    UNKNOWN_ACTION = ("unknown_action", None, "unknown action '{kind}'; known: {known}")
    MATCH_OVER = ("match_over", None, "the match is over")
    DEAL_FIRST = ("deal_first", None, "'{kind}' is not possible: the cards must be dealt first")
    NO_DEAL_DUE = ("no_deal_due", None, "a hand is in play: no deal now")
    ONLY_TABLE_DEALS = ("only_table_deals", None, "only the table deals (seat -1)")
    SEAT_NOT_AT_TABLE = ("seat_not_at_table", None, "seat {seat} is not at this table ({seats} seats)")
    NOT_YOUR_TURN = ("not_your_turn", None, "it is not seat {seat}'s turn: seat {turn} is to act")
    NOT_NOW = ("not_now", None, "'{kind}' is not possible now (waiting for {waiting})")
    CARD_NEEDED = ("card_needed", None, "say which card to {kind}")


class ActionError(ValueError):
    """An action that is malformed or not legal in the current state.

    ``code`` is a :class:`RefusalCode` member (the game's ``Refusal`` or
    :class:`CommonRefusal`), ``params`` its named data (cards stay :class:`Card`),
    ``rule`` the spec rule. ``str(exc)`` is an English line for logs; the table shows the
    translation of ``code`` instead.
    """

    code: RefusalCode
    params: dict[str, Any]

    def __init__(self, code: RefusalCode, /, **params: Any) -> None:
        if not isinstance(code, RefusalCode):
            raise TypeError(f"ActionError needs a refusal code, got {code!r}")
        self.code = code
        self.params = params
        super().__init__(code.english(params))

    @property
    def rule(self) -> str | None:
        return self.code.rule

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.code, self.params))


def _rebuild(code: RefusalCode, params: dict[str, Any]) -> ActionError:
    return ActionError(code, **params)


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
            raise ActionError(CommonRefusal.ACTION_FIELDS_MISSING, value=repr(d)) from exc
        if not isinstance(kind, str) or not isinstance(seat, int) or isinstance(seat, bool):
            raise ActionError(CommonRefusal.ACTION_KIND_SEAT_TYPE, value=repr(d))
        unknown = set(d) - {"kind", "seat", "card", "cards", "melds", "target", "flag", "n", "t", "type"}
        if unknown:
            raise ActionError(CommonRefusal.ACTION_UNKNOWN_FIELDS, fields=tuple(sorted(unknown)))
        field_name = "card"
        try:
            card = parse_card(d["card"]) if d.get("card") is not None else None
            field_name = "cards"
            cards = tuple(parse_card(c) for c in str(d.get("cards", "")).split())
            field_name = "melds"
            melds = d.get("melds")
            if melds is not None:
                if not isinstance(melds, list):
                    raise ActionError(CommonRefusal.ACTION_BAD_MELDS)
                melds = tuple(tuple(parse_card(c) for c in str(m).split()) for m in melds)
        except CardError as exc:
            raise ActionError(
                CommonRefusal.ACTION_BAD_CARD,
                field=field_name, value=repr(d.get(field_name)), detail=str(exc),
            ) from exc
        target = d.get("target")
        if target is not None and (not isinstance(target, int) or isinstance(target, bool)):
            raise ActionError(CommonRefusal.ACTION_BAD_TARGET, value=repr(target))
        flag = d.get("flag")
        if flag is not None and not isinstance(flag, bool):
            raise ActionError(CommonRefusal.ACTION_BAD_FLAG, value=repr(flag))
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
        if self.cards and self.kind not in DEAL_KINDS:
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


def pick_kind(kinds: Mapping[str, Action], order: Sequence[str]) -> Action | None:
    """The action of the first kind in ``order`` that ``kinds`` (kind -> action) holds."""
    for kind in order:
        if kind in kinds:
            return kinds[kind]
    return None
