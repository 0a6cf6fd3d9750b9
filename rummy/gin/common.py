"""Small helpers shared by the gin hand modules (``hand``, ``options``, ``showdown``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, TypeVar

from rummy.actions import ActionError, CommonRefusal
from rummy.cards import Card, format_cards
from rummy.gin.kinds import Refusal
from rummy.gin.state import HandState, Meld

T = TypeVar("T")


def cards_text(cards: Sequence[Card]) -> str:
    return format_cards(cards)


def melds_data(melds: Sequence[Meld]) -> list[str]:
    return [format_cards(m) for m in melds]


def replace_hand(hand: HandState, **changes: Any) -> HandState:
    return dataclasses.replace(hand, **changes)


def set_seat(pair: tuple[T, T], seat: int, value: T) -> tuple[T, T]:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def without(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    return tuple(c for c in cards if c != card)


def card_in_hand(hand: HandState, seat: int, card: Card | None, kind: str) -> Card:
    """``card`` if ``seat`` holds it; the ``kind`` of action names what it is for."""
    if card is None:
        raise ActionError(CommonRefusal.CARD_NEEDED, kind=kind)
    if card not in hand.hands[seat]:
        raise ActionError(Refusal.CARD_NOT_IN_HAND, card=card)
    return card

