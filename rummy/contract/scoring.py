"""Scoring (C-7): +20 to the finisher, minus the value of every card left in a hand."""

from __future__ import annotations

from collections.abc import Sequence

from rummy.cards import Card
from rummy.contract.rules import ContractRules


def hand_value(hand: Sequence[Card], rules: ContractRules) -> int:
    """The value of the cards left in a hand (C-7.3: A = 15, J/Q/K = 10, pip otherwise)."""
    return sum(rules.value(c.rank) for c in hand)


def deal_points(
    hands: Sequence[Sequence[Card]], finisher: int | None, rules: ContractRules
) -> tuple[int, ...]:
    """Points of one deal per seat (C-7.1, C-7.2; no finisher: C-7.5)."""
    return tuple(
        rules.finisher_bonus if seat == finisher else -hand_value(hand, rules)
        for seat, hand in enumerate(hands)
    )


def winners(scores: Sequence[int]) -> tuple[int, ...]:
    """Seats with the highest total (C-7.4); ties share the win."""
    best = max(scores)
    return tuple(seat for seat, s in enumerate(scores) if s == best)
