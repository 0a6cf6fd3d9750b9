"""Words for gin: card names, what just happened, what a seat may do now, the verdicts.

The engine emits data, never sentences; this module turns them into translated text.
"""

from __future__ import annotations

from typing import Any

from display.i18n import _, ngettext
from rummy.cards import SUIT_SYMBOLS, Card
from rummy.gin.state import HandPhase


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


def phase_hint(scene: Any, seat: int) -> str:
    """What ``seat`` may do now, in words (the status line of his panel)."""
    m = scene.m
    h = m.state.hand
    if h is None or h.phase is HandPhase.OVER:
        return ""
    to_act = m.to_act()
    if seat not in to_act:
        if not to_act:
            return ""
        return _("{name} to play").format(name=m.name(to_act[0]))
    if not m.is_human(seat):
        return _("Thinking…")
    ui = scene.ui[seat]
    phase = h.phase
    if ui.mode == "knock":
        return _("Knock: touch the card to discard face down")
    if ui.mode == "take":
        return _("Touch the card you knock with")
    if phase is HandPhase.UPCARD:
        return _("Your turn: touch the pile to take {card}, or DRAW to pass").format(card=card_name(h.upcard))
    if phase is HandPhase.FORCED_DRAW:
        return _("Both passed: DRAW from the stock")
    if phase is HandPhase.DRAW:
        return _("Your turn: DRAW, or touch the pile to take {card}").format(card=card_name(h.top_discard))
    if phase is HandPhase.DISCARD:
        if h.must_knock[seat]:
            return _("You must knock now (illegal knock earlier)")
        if not scene.face_up(seat):
            return _("Hold your cards to look, then touch one to discard")
        if ui.selected is not None:
            return _("Touch {card} again to discard it").format(card=card_name(ui.selected))
        return _("Touch a card to discard it, or KNOCK")
    if phase is HandPhase.LAST_CHANCE:
        return _("Last card: take {card} only to knock, or DRAW to decline").format(card=card_name(h.top_discard))
    if phase is HandPhase.KNOCK_REVIEW:
        return _("Illegal knock: accept it or refuse")
    if phase is HandPhase.LAYOFF:
        return _("Touch a card to lay it off, then Done")
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
