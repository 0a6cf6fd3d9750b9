"""Multisets of cards: two-deck games hold identical cards, so hands are bags, not sets.

Generic helpers any engine may use (two identical cards are equal values).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from rummy.cards import Card


def contains(hand: Iterable[Card], cards: Iterable[Card]) -> bool:
    """True when ``hand`` holds every card of ``cards``, counting copies."""
    need = Counter(cards)
    have = Counter(hand)
    return all(have[c] >= n for c, n in need.items())


def missing(hand: Iterable[Card], cards: Iterable[Card]) -> list[Card]:
    """The cards of ``cards`` that ``hand`` does not hold (copies counted)."""
    have = Counter(hand)
    out: list[Card] = []
    for c in cards:
        if have[c] > 0:
            have[c] -= 1
        else:
            out.append(c)
    return out


def remove(hand: Sequence[Card], cards: Iterable[Card]) -> tuple[Card, ...]:
    """``hand`` without one copy of each card of ``cards``; ``ValueError`` if one is absent."""
    out = list(hand)
    for c in cards:
        try:
            out.remove(c)
        except ValueError:
            raise ValueError(f"{c} is not in the hand") from None
    return tuple(out)


def distinct(cards: Iterable[Card]) -> list[Card]:
    """Each different card once, in first-seen order."""
    return list(dict.fromkeys(cards))
