"""Steps shared by the engine and the buying protocol: stock draws, turns, deal ends."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import Any

from rummy import multiset
from rummy.actions import TABLE, ActionError, Event
from rummy.cards import Card
from rummy.contract import scoring
from rummy.contract.kinds import EventKind as E
from rummy.contract.kinds import Refusal
from rummy.contract.state import DEAL, OVER, TURN, ContractState, DealResult
from rummy.reads import DISCARD_PLACE, hand_place, join_places, meld_place


def with_hand(state: ContractState, seat: int, hand: tuple[Card, ...], **changes: Any) -> ContractState:
    """``state`` with ``seat``'s hand (kept sorted) and any other field ``changes``."""
    hands = list(state.hands)
    hands[seat] = tuple(sorted(hand))
    return replace(state, hands=tuple(hands), **changes)


def seats_from(state: ContractState, start: int, stop: int) -> list[int]:
    """Seats in turn order from ``start`` up to, not including, ``stop``."""
    out, s = [], start
    while s != stop:
        out.append(s)
        s = state.left(s)
    return out


def _shuffled(cards: list[Card], seed: int, salt: int) -> list[Card]:
    """A deterministic shuffle keyed on the deal's card order (no clock, no RNG state)."""
    def key(i: int) -> bytes:
        return hashlib.blake2b(f"{seed}:{salt}:{i}".encode(), digest_size=8).digest()

    return [cards[i] for i in sorted(range(len(cards)), key=key)]


def can_refill(state: ContractState) -> bool:
    return state.refills_used < state.rules.stock_refills and len(state.discard_pile) > 1


def refill_cards(state: ContractState) -> tuple[Card, ...]:
    """The cards a refill puts back into the stock (the shoe): the pack less its top, sorted."""
    return tuple(sorted(p.card for p in state.discard_pile[:-1]))


def refill_event(cards: tuple[Card, ...], number: int) -> Event:
    """C-10: ``cards`` went back into the stock; ``shoe`` lists them (sorted)."""
    data = {"cards": len(cards), "refill": number, "shoe": [str(c) for c in cards]}
    return Event(E.STOCK_REFILLED, TABLE, data)


def refill(state: ContractState) -> tuple[ContractState, list[Event]]:
    """C-10.1/C-10.2: the pack except its top card becomes the new stock, once per deal.

    In read mode the players put those cards into the shoe (and shuffle them there): the
    new stock is that set, its order unknown."""
    if not can_refill(state):
        return state, []
    back = refill_cards(state)
    under = [p.card for p in state.discard_pile[:-1]]  # bottom first: turned over, bottom on top
    if state.read:
        under = list(back)
    elif state.rules.refill_shuffle:
        under = _shuffled(under, state.deal_seed, state.refills_used)
    state = replace(
        state,
        stock=tuple(under),
        discard_pile=state.discard_pile[-1:],
        refills_used=state.refills_used + 1,
    )
    return state, [refill_event(back, state.refills_used)]


def places(state: ContractState, card: Card) -> list[str]:
    """Where the copies of ``card`` are in play (place codes, :mod:`rummy.reads`)."""
    out: list[str] = []
    for seat, hand in enumerate(state.hands):
        out += [hand_place(seat)] * hand.count(card)
    out += [DISCARD_PLACE] * sum(1 for p in state.discard_pile if p.card == card)
    for m in state.table_melds:
        out += [meld_place(m.id)] * m.cards.count(card)
    return out


def read_problem(state: ContractState, card: Card) -> ActionError | None:
    """Why ``card`` cannot come out of the stock (the shoe) now, or None (C-10, C-13)."""
    if card in state.stock:
        return None
    place = join_places(places(state, card))
    if state.refills_used:  # C-10.1: after a refill only the cards put back can come out
        return ActionError(Refusal.CARD_NOT_IN_STOCK, card=card, place=place)
    return ActionError(Refusal.CARD_ALREADY_PLACED, card=card, place=place)


def read_card(state: ContractState, card: Card) -> tuple[ContractState, list[Event]]:
    """Read mode: ``card`` came out of the stock, refilling an empty stock first (C-15.5);
    ``ActionError`` when it cannot be a stock card."""
    events: list[Event] = []
    if not state.stock:
        state, events = refill(state)
    problem = read_problem(state, card)
    if problem is not None:
        raise problem
    return replace(state, stock=multiset.remove(state.stock, [card])), events


def can_draw(state: ContractState) -> bool:
    """Can a stock card come out now (the stock, or its refill, C-10)?"""
    return bool(state.stock) or can_refill(state)


def draw_card(state: ContractState) -> tuple[ContractState, Card | None, list[Event]]:
    """Take the top stock card, refilling an empty stock first (C-15.5); None if impossible."""
    events: list[Event] = []
    if not state.stock:
        state, events = refill(state)
        if not state.stock:
            return state, None, events
    return replace(state, stock=state.stock[1:]), state.stock[0], events


def start_turn(
    state: ContractState, seat: int, *, stock_only: bool = False, skipped: tuple[int, ...] = ()
) -> tuple[ContractState, list[Event]]:
    """C-9 TURN_START: ``seat`` is to take a card; the "Можно?" window opens."""
    state = replace(
        state,
        phase=TURN,
        turn=seat,
        buy=None,
        declined=frozenset(),
        taken_card=None,
        melded_this_turn=False,
        stock_only=stock_only,
        turns_started=state.turns_started + 1,
    )
    top = state.top
    data = {
        "top": str(top.card) if top else None,
        "skipped": list(skipped),
        "stock_only": stock_only,
    }
    return state, [Event(E.TURN_STARTED, seat, data)]


def end_deal(state: ContractState, finisher: int | None) -> tuple[ContractState, list[Event]]:
    """C-6.1, C-7, C-10.2: score the deal; the match ends after the last deal."""
    points = scoring.deal_points(state.hands, finisher, state.rules)
    scores = tuple(a + b for a, b in zip(state.scores, points, strict=True))
    result = DealResult(state.deal_number, finisher, points)
    events = [
        Event(
            E.HAND_SCORED,
            TABLE,
            {
                "deal": state.deal_number,
                "finisher": finisher,
                "points": list(points),
                "scores": list(scores),
                "left_in_hands": [" ".join(map(str, h)) for h in state.hands],
            },
        )
    ]
    last = state.deal_number >= state.rules.deals
    state = replace(
        state,
        phase=OVER if last else DEAL,
        scores=scores,
        results=(*state.results, result),
        buy=None,
        declined=frozenset(),
        taken_card=None,
        stock_only=False,
        before_deal=None,
    )
    if last:
        events.append(
            Event(E.MATCH_OVER, TABLE, {"scores": list(scores), "winners": list(scoring.winners(scores))})
        )
    return state, events
