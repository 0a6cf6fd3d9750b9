"""Words for gin: card names, what just happened, what a seat may do now, the verdicts.

The engine emits data, never sentences; this module turns them into translated text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from display.table.i18n import N_, _, ngettext
from rummy.cards import SUIT_SYMBOLS, Card
from rummy.gin.kinds import EventKind as E
from rummy.gin.kinds import HandOutcome


def card_name(card: Card | str | None) -> str:
    if card is None:
        return "—"
    c = Card.parse(card) if isinstance(card, str) else card
    return f"{c.rank_label}{SUIT_SYMBOLS[c.suit]}"


def cards_line(cards: Any) -> str:
    if isinstance(cards, str):
        cards = cards.split()
    return " ".join(card_name(c) for c in cards)


# events said with the seat's name and the event's card alone
EVENT_WORDS: dict[str, str] = {
    E.UPCARD_TAKEN: N_("{name} took the upcard {card}"),
    E.UPCARD_PASSED: N_("{name} passed"),
    E.DISCARDED: N_("{name} discarded {card}"),
    E.DECLINED: N_("{name} declined the last card"),
    E.KNOCK_REFUSED: N_("{name} refused the knock"),
}


def event_text(match: Any, ev: Any) -> str:
    """One line for the centre of the table about an engine event ("" when not worth saying)."""
    name = match.name(ev.seat) if ev.seat in (0, 1) else ""
    d = ev.data
    k = ev.kind
    if k == E.DEALT:
        return _("{name} dealt. The upcard is {card}.").format(name=match.name(d["dealer"]),
                                                              card=card_name(d["upcard"]))
    if k == E.DREW:
        if d.get("pile") == "stock":
            return _("{name} drew from the stock").format(name=name)
        return _("{name} took {card} from the pile").format(name=name, card=card_name(d["card"]))
    return event_line(EVENT_WORDS.get(k), name, d)


def event_line(msgid: str | None, name: str, data: Mapping[str, Any]) -> str:
    """``msgid`` in the table's language with the seat's ``name`` and the event's ``card``
    (when it has one); "" for None."""
    return _(msgid).format(name=name, card=card_name(data.get("card"))) if msgid else ""


# a hand's title by its result (G-12); keyed by HandOutcome, so the journal's word finds it too
OUTCOME_TITLES: dict[str, Callable[[], str]] = {
    HandOutcome.KNOCK: lambda: _("Knock"),
    HandOutcome.GIN: lambda: _("Gin!"),
    HandOutcome.BIG_GIN: lambda: _("Big Gin!"),
    HandOutcome.UNDERCUT: lambda: _("Undercut!"),
    HandOutcome.DEAD: lambda: _("Dead hand"),
}


def verdict(match: Any, result: Any) -> str:
    """The hand's verdict in plain words (G-12)."""
    o = HandOutcome(result.outcome)
    if o is HandOutcome.DEAD:
        return _("Nobody knocked before the stock ran down to two cards. No score; the hand is dealt again.")
    w = match.name(result.winner)
    k = match.name(result.knocker) if result.knocker is not None else ""
    pts = ngettext("{n} point", "{n} points", result.points).format(n=result.points)
    if o is HandOutcome.KNOCK:
        return _("{knocker} knocked with {k}; {defender} had {d}. {knocker} scores {points}.").format(
            knocker=k, k=result.knocker_count, defender=match.name(1 - result.knocker),
            d=result.defender_count, points=pts)
    if o is HandOutcome.UNDERCUT:
        return _("Undercut! {defender} had {d}, not more than {knocker}'s {k}. {defender} scores {points}.").format(
            defender=w, d=result.defender_count, knocker=k, k=result.knocker_count, points=pts)
    if o is HandOutcome.GIN:
        return _("{name} went gin: every card in melds. {name} scores {points} with the gin bonus.").format(
            name=w, points=pts)
    if o is HandOutcome.BIG_GIN:
        return _("{name} made Big Gin: all eleven cards in melds. {name} scores {points}.").format(
            name=w, points=pts)
    return ""
