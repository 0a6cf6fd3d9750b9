"""Slow, independent reference solvers for the gin tests (never imports rummy.gin).

Cards are handled as (rank, suit) pairs; melds are found by trying every subset of 3+
cards, partitions by trying every collection of disjoint melds; layoffs by playing every
legal single layoff in every order.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

from rummy.cards import Card

Pair = tuple[int, str]


def pair(card: Card) -> Pair:
    return (card.rank, card.suit)


def value(p: Pair) -> int:
    return min(p[0], 10)


def meld_ok(group: tuple[Pair, ...]) -> bool:
    """Set: 3-4 distinct cards of one rank. Run: 3+ same suit, consecutive ranks (A low)."""
    if len(group) < 3:
        return False
    ranks = [r for r, _ in group]
    suits = [s for _, s in group]
    if len(set(ranks)) == 1:
        return len(set(suits)) == len(group) <= 4
    if len(set(suits)) != 1:
        return False
    ordered = sorted(ranks)
    return ordered == list(range(ordered[0], ordered[0] + len(ordered)))


def all_melds(cards: tuple[Pair, ...]) -> list[frozenset[Pair]]:
    out = []
    for k in range(3, len(cards) + 1):
        for group in combinations(cards, k):
            if meld_ok(group):
                out.append(frozenset(group))
    return out


def min_deadwood(cards: frozenset[Pair]) -> int:
    """Minimum deadwood over every collection of disjoint melds (no discard)."""
    return _min_dw(frozenset(cards))


@cache
def _min_dw(cards: frozenset[Pair]) -> int:
    melds = all_melds(tuple(sorted(cards)))
    best = sum(value(p) for p in cards)

    def go(start: int, free: frozenset[Pair]) -> None:
        nonlocal best
        best = min(best, sum(value(p) for p in free))
        for i in range(start, len(melds)):
            if melds[i] <= free:
                go(i + 1, free - melds[i])

    go(0, cards)
    return best


def deadwood(cards: list[Card]) -> int:
    """10 cards: min deadwood; 11 cards: min over the eleven discards."""
    ps = frozenset(pair(c) for c in cards)
    if len(ps) == 11:
        return min(_min_dw(ps - {p}) for p in ps)
    return _min_dw(ps)


def can_extend(meld: frozenset[Pair], p: Pair) -> bool:
    return p not in meld and meld_ok(tuple(meld | {p}))


def defence(hand: list[Card], knocker_melds: list[list[Card]]) -> int:
    """Least count the defender can reach by laying off in any order (G-11, G-22.3)."""
    table = tuple(frozenset(pair(c) for c in m) for m in knocker_melds)
    return _defence(frozenset(pair(c) for c in hand), table)


@cache
def _defence(hand: frozenset[Pair], table: tuple[frozenset[Pair], ...]) -> int:
    best = _min_dw(hand)
    for p in hand:
        for i, meld in enumerate(table):
            if can_extend(meld, p):
                grown = table[:i] + (meld | {p},) + table[i + 1 :]
                best = min(best, _defence(hand - {p}, grown))
    return best
