"""Gin in read mode: what the table must read out of the shoe now, and where a card is.

``expected(state)`` is the table's question "is a card out of the shoe due, for whom, why,
how many?" (:class:`rummy.reads.ReadNeed`). ``deal_problem`` checks the cards of a deal
read so far (the table may call it after each card, before the deal is complete);
``stock_card_problem`` checks a card read for a stock draw. One pack: every card is in
exactly one place (G-3.1), so a card read that is not in the stock is already elsewhere.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummy.actions import TABLE, ActionError
from rummy.cards import Card
from rummy.gin.kinds import Refusal
from rummy.gin.rules import GinRules
from rummy.gin.state import HandPhase, HandState, MatchPhase, MatchState
from rummy.reads import (
    DISCARD_PLACE,
    SET_ASIDE_PLACE,
    ReadNeed,
    ReadPurpose,
    deal_order,
    hand_place,
    meld_place,
)

__all__ = ["ReadNeed", "ReadPurpose", "deal_problem", "deal_size", "dealing_order", "expected",
           "place_of", "places", "stock_card_problem"]


def deal_size(rules: GinRules) -> int:
    """G-3.2: ten cards each (``hand_size``) and the upcard."""
    return 2 * rules.hand_size + 1


def dealing_order(rules: GinRules, dealer: int) -> tuple[int, ...]:
    """G-3.2: alternately from the non-dealer, then the upcard (``TABLE``)."""
    return deal_order(1 - dealer, 2, rules.hand_size)


def expected(state: MatchState) -> ReadNeed | None:
    """The cards out of the shoe due now, or None (a card out of the shoe is not due).

    A pending deal needs its 21 cards (in either mode: the table chooses); a read-mode
    hand needs one card for the stock draw of the seat in turn (G-4.4, G-5.1) while the
    stock is above its floor (G-5.6). Nothing else in gin comes out of the shoe.
    """
    if state.phase is MatchPhase.DEAL:
        rules = state.rules
        order = dealing_order(rules, state.dealer)
        return ReadNeed(ReadPurpose.DEAL, TABLE, len(order), order=order)
    h = state.hand
    if state.phase is not MatchPhase.HAND or h is None or not h.read:
        return None
    if h.phase is HandPhase.FORCED_DRAW or (
        h.phase is HandPhase.DRAW and len(h.stock) > state.rules.stock_floor
    ):
        return ReadNeed(ReadPurpose.DRAW, h.turn, 1)
    return None


def place_of(hand: HandState, card: Card) -> str | None:
    """Where ``card`` is in play (a place code, :mod:`rummy.reads`), or None (the stock)."""
    for seat in (0, 1):
        if card in hand.hands[seat]:
            return hand_place(seat)
    if card in hand.discard_pile:
        return DISCARD_PLACE
    if card in hand.set_aside:
        return SET_ASIDE_PLACE
    for i, meld in enumerate(hand.table_melds):
        if card in meld:
            return meld_place(i)
    return None


def places(state: MatchState, card: Card) -> tuple[str, ...]:
    """Where ``card`` is in the hand in play (one place code, or none: it is in the stock
    or no hand is in play): for the operator's screen."""
    h = state.hand
    if state.phase is not MatchPhase.HAND or h is None:
        return ()
    place = place_of(h, card)
    return (place,) if place else ()


def stock_card_problem(hand: HandState, card: Card) -> ActionError | None:
    """Why ``card`` cannot be the card just drawn from the stock, or None."""
    if card in hand.stock:
        return None
    return ActionError(Refusal.CARD_ALREADY_PLACED, card=card, place=place_of(hand, card) or "")


def deal_problem(rules: GinRules, dealer: int, cards: Sequence[Card]) -> ActionError | None:
    """Why the cards of a deal read so far (in dealing order) cannot be right, or None.

    A card twice is refused with the place its first copy went to (G-3.1); more cards
    than the deal holds with ``DEAL_READ_SIZE``. A short prefix is fine (the deal goes on).
    """
    order = dealing_order(rules, dealer)
    first: dict[Card, int] = {}
    for i, card in enumerate(cards):
        if card in first:
            seat = order[first[card]] if first[card] < len(order) else TABLE
            place = DISCARD_PLACE if seat == TABLE else hand_place(seat)
            return ActionError(Refusal.CARD_ALREADY_PLACED, card=card, place=place)
        first[card] = i
    if len(cards) > len(order):
        return ActionError(Refusal.DEAL_READ_SIZE, got=len(cards), want=len(order))
    return None
