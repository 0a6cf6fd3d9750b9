"""Contract rummy in read mode: what the table must read out of the shoe now.

``expected(state)`` says whether cards out of the shoe are due, for whom, why and how many
(:class:`rummy.reads.ReadNeed`): the deal (C-4), the stock draw of the player in turn
(C-5.1), a buy's stock cards (C-8.2, C-8.4, C-8.5) and, when the shoe is empty, the refill
first (C-10: the pack less its top card goes into the shoe). Two packs: a card may be seen
as many times as the packs hold it (C-13); ``deal_problem`` checks a deal read so far.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rummy.actions import TABLE, ActionError
from rummy.cards import Card
from rummy.contract import buying, flow
from rummy.contract.kinds import Phase, Refusal
from rummy.contract.state import ContractState
from rummy.reads import (
    DISCARD_PLACE,
    ReadNeed,
    ReadPurpose,
    deal_order,
    hand_place,
    join_places,
    unseen,
)

__all__ = ["ReadNeed", "ReadPurpose", "deal_problem", "deal_size", "dealing_order", "expected",
           "places", "unseen"]


def _next_deal(state: ContractState) -> tuple[int, int]:
    """The dealer and the cards each of the deal due (C-4.1: the deal passes to the left)."""
    number = state.deal_number + 1
    dealer = (state.first_dealer + number - 1) % state.seats
    return dealer, state.rules.cards_per_deal[number - 1]


def dealing_order(state: ContractState) -> tuple[int, ...]:
    """C-4.2: who gets each card of the pending deal, from the dealer's left, then the
    upcard (``TABLE``)."""
    dealer, each = _next_deal(state)
    return deal_order(state.left(dealer), state.seats, each)


def deal_size(state: ContractState) -> int:
    dealer, each = _next_deal(state)
    return state.seats * each + 1


def deal_problem(state: ContractState, cards: Sequence[Card]) -> ActionError | None:
    """Why the cards of the pending deal read so far (in dealing order) cannot be right:
    a card seen more often than the packs hold it (with the places of its copies), or more
    cards than the deal holds. A short prefix is fine (the deal goes on)."""
    order = dealing_order(state)
    seen: Counter[Card] = Counter()
    where: dict[Card, list[str]] = {}
    for i, card in enumerate(cards):
        if seen[card] >= state.rules.decks:
            return ActionError(Refusal.CARD_ALREADY_PLACED, card=card,
                               place=join_places(where[card]))
        seen[card] += 1
        seat = order[i] if i < len(order) else TABLE
        where.setdefault(card, []).append(DISCARD_PLACE if seat == TABLE else hand_place(seat))
    if len(cards) > len(order):
        return ActionError(Refusal.DEAL_READ_SIZE, got=len(cards), want=len(order))
    return None


def expected(state: ContractState) -> ReadNeed | None:
    """The cards out of the shoe due now, or None (a card out of the shoe is not due)."""
    if state.phase == Phase.DEAL:
        order = dealing_order(state)
        return ReadNeed(ReadPurpose.DEAL, TABLE, len(order), order=order)
    if not state.read:
        return None
    if state.phase == Phase.TURN:  # C-5.1: a card out of the shoe is N's stock draw
        return _from_stock(state, ReadPurpose.DRAW, state.turn, 1)
    if state.phase == Phase.PENALTY and state.buy is not None and state.buy.buyer is not None:
        due = buying.cards_due(state)
        return _from_stock(state, ReadPurpose.BUY, state.buy.buyer, due) if due else None
    return None


def places(state: ContractState, card: Card) -> tuple[str, ...]:
    """Where the copies of ``card`` are in play, one place code each (copies in the stock
    are not named): for the operator's screen."""
    if state.phase in (Phase.DEAL, Phase.OVER):
        return ()
    return tuple(flow.places(state, card))


def _from_stock(state: ContractState, purpose: ReadPurpose, seat: int, count: int) -> ReadNeed | None:
    """``count`` stock cards for ``seat``: as many as the shoe holds now, or the refill first."""
    if state.stock:
        return ReadNeed(purpose, seat, min(count, len(state.stock)))
    if flow.can_refill(state):  # C-10.1
        n = min(count, len(state.discard_pile) - 1)
        return ReadNeed(ReadPurpose.REFILL, seat, n, refill=flow.refill_cards(state), then=purpose)
    return None  # C-10.2: the stock is gone for good


