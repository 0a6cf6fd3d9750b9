"""Words for gin: card names, what just happened, what a seat may do now, the verdicts.

The engine emits data, never sentences; this module turns them into translated text.
"""

from __future__ import annotations

from typing import Any

from display.i18n import _, ngettext
from rummy.cards import SUIT_SYMBOLS, Card


def card_name(card: Card | str | None) -> str:
    if card is None:
        return "—"
    c = Card.parse(card) if isinstance(card, str) else card
    return f"{c.rank_label}{SUIT_SYMBOLS[c.suit]}"


def cards_line(cards: Any) -> str:
    if isinstance(cards, str):
        cards = cards.split()
    return " ".join(card_name(c) for c in cards)


def event_text(match: Any, ev: Any) -> str:
    """One line for the centre of the table about an engine event ("" when not worth saying)."""
    name = match.name(ev.seat) if ev.seat in (0, 1) else ""
    d = ev.data
    k = ev.kind
    if k == "dealt":
        return _("{name} dealt. The upcard is {card}.").format(name=match.name(d["dealer"]),
                                                              card=card_name(d["upcard"]))
    if k == "upcard_taken":
        return _("{name} took the upcard {card}").format(name=name, card=card_name(d["card"]))
    if k == "upcard_passed":
        return _("{name} passed").format(name=name)
    if k == "drew":
        if d.get("pile") == "stock":
            return _("{name} drew from the stock").format(name=name)
        return _("{name} took {card} from the pile").format(name=name, card=card_name(d["card"]))
    if k == "discarded":
        return _("{name} discarded {card}").format(name=name, card=card_name(d["card"]))
    if k == "declined":
        return _("{name} declined the last card").format(name=name)
    if k == "knock_refused":
        return _("{name} refused the knock").format(name=name)
    return ""


OUTCOME_TITLES = {
    "knock": lambda: _("Knock"),
    "gin": lambda: _("Gin!"),
    "big_gin": lambda: _("Big Gin!"),
    "undercut": lambda: _("Undercut!"),
    "dead": lambda: _("Dead hand"),
}


def verdict(match: Any, result: Any) -> str:
    """The hand's verdict in plain words (G-12)."""
    o = result.outcome
    if o == "dead":
        return _("Nobody knocked before the stock ran down to two cards. No score; the hand is dealt again.")
    w = match.name(result.winner)
    k = match.name(result.knocker) if result.knocker is not None else ""
    pts = ngettext("{n} point", "{n} points", result.points).format(n=result.points)
    if o == "knock":
        return _("{knocker} knocked with {k}; {defender} had {d}. {knocker} scores {points}.").format(
            knocker=k, k=result.knocker_count, defender=match.name(1 - result.knocker),
            d=result.defender_count, points=pts)
    if o == "undercut":
        return _("Undercut! {defender} had {d}, not more than {knocker}'s {k}. {defender} scores {points}.").format(
            defender=w, d=result.defender_count, knocker=k, k=result.knocker_count, points=pts)
    if o == "gin":
        return _("{name} went gin: every card in melds. {name} scores {points} with the gin bonus.").format(
            name=w, points=pts)
    if o == "big_gin":
        return _("{name} made Big Gin: all eleven cards in melds. {name} scores {points}.").format(
            name=w, points=pts)
    return ""
