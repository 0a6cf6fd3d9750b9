"""Gin rummy melds: validity, minimum deadwood, best arrangement, best discard.

G-1.2 values (A=1, 2-10 pips, J/Q/K=10), G-1.3 ace low only (no wrap), G-2 melds:
sets of 3-4 cards of one rank, runs of 3+ consecutive cards of one suit, a card in at
most one meld. Cards may be :class:`~rummy.cards.Card` or text like ``"TD"``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from rummy.cards import Card, CardError, CardLike, parse_card

Meld = tuple[Card, ...]


def _cards(cards: Iterable[CardLike]) -> list[Card]:
    """Parse cards and refuse duplicates with a clear message."""
    out = [parse_card(c) for c in cards]
    if len(set(out)) != len(out):
        seen: set[Card] = set()
        for c in out:
            if c in seen:
                raise ValueError(f"card {c} appears more than once in the hand")
            seen.add(c)
    return out


def is_set(group: Iterable[CardLike]) -> bool:
    """3 or 4 cards of one rank (G-2.1)."""
    cs = _safe(group)
    return (
        cs is not None
        and 3 <= len(cs) <= 4
        and len({c.rank for c in cs}) == 1
        and len(set(cs)) == len(cs)
    )


def is_run(group: Iterable[CardLike]) -> bool:
    """3+ consecutive cards of one suit, ace low only, no wrap (G-1.3, G-2.1)."""
    cs = _safe(group)
    if cs is None or len(cs) < 3 or len({c.suit for c in cs}) != 1:
        return False
    ranks = sorted(c.rank for c in cs)
    return all(b == a + 1 for a, b in zip(ranks, ranks[1:], strict=False))


def is_meld(group: Iterable[CardLike]) -> bool:
    """A set or a run (G-2.1)."""
    return is_set(group) or is_run(group)


def _safe(group: Iterable[CardLike]) -> list[Card] | None:
    try:
        return [parse_card(c) for c in group]
    except CardError:
        return None


def count(cards: Iterable[CardLike], melds: Iterable[Iterable[CardLike]]) -> int:
    """Deadwood count (G-2.3) of ``cards`` outside the given melds (melds not checked)."""
    melded = {parse_card(c) for m in melds for c in m}
    return sum(c.value for c in _cards(cards) if c not in melded)


def check_arrangement(cards: Iterable[CardLike], melds: Iterable[Iterable[CardLike]]) -> str | None:
    """None if ``melds`` are valid melds, disjoint and drawn from ``cards``; else why not."""
    try:
        hand = _cards(cards)
    except (CardError, ValueError) as exc:
        return f"the hand is not valid: {exc}"
    held = set(hand)
    used: set[Card] = set()
    for group in melds:
        try:
            meld = [parse_card(c) for c in group]
        except CardError as exc:
            return str(exc)
        text = " ".join(str(c) for c in meld) or "(empty)"
        if not is_meld(meld):  # G-2.1
            return f"{text} is not a meld: a set is 3-4 cards of one rank, a run 3+ in suit"
        for c in meld:
            if c not in held:
                return f"{c} in meld {text} is not in the hand"
            if c in used:  # G-2.2
                return f"{c} is used in more than one meld"
            used.add(c)
    return None


# --- the solver -------------------------------------------------------------------------
#
# Simple exact search: candidate melds of the hand, then a memoised recursion that takes
# the lowest remaining card and either leaves it as deadwood or puts it in a candidate
# meld made of remaining cards. Tie-break (G-2.4): least deadwood, then fewest cards in
# sets (prefer runs), then the first arrangement in a fixed card order.


def _candidates(hand: Sequence[Card]) -> list[Meld]:
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[str, set[int]] = {}
    for c in hand:
        by_rank.setdefault(c.rank, []).append(c)
        by_suit.setdefault(c.suit, set()).add(c.rank)
    out: list[Meld] = []
    for suit, ranks in by_suit.items():
        for lo in sorted(ranks):
            hi = lo
            while hi + 1 in ranks:
                hi += 1
                if hi - lo >= 2:
                    out.append(tuple(Card(r, suit) for r in range(lo, hi + 1)))
    for group in by_rank.values():
        group = sorted(group, key=lambda c: c.index)
        if len(group) >= 3:
            out.append(tuple(group))
        if len(group) == 4:
            out.extend(tuple(c for c in group if c is not skip) for skip in group)
    return out


def _solve(hand: Sequence[Card]) -> tuple[int, list[Meld], list[Card]]:
    """(deadwood, melds, deadwood cards) of a best arrangement of ``hand`` (no discard)."""
    order = tuple(sorted(hand, key=lambda c: c.index))
    cands = _candidates(order)

    @cache
    def best(rest: frozenset[Card]) -> tuple[int, int, tuple[Meld, ...]]:
        if not rest:
            return (0, 0, ())
        first = min(rest, key=lambda c: c.index)
        dw, sc, ms = best(rest - {first})
        result = (dw + first.value, sc, ms)
        for m in cands:
            if first in m and rest.issuperset(m):
                dw, sc, ms = best(rest - set(m))
                is_s = len({c.rank for c in m}) == 1
                cand = (dw, sc + (len(m) if is_s else 0), (m, *ms))
                if cand[:2] < result[:2]:
                    result = cand
        return result

    dw, _, melds = best(frozenset(order))
    melded = {c for m in melds for c in m}
    return dw, [tuple(sorted(m)) for m in melds], [c for c in order if c not in melded]


def best_discard(cards11: Iterable[CardLike]) -> tuple[Card, list[Meld], list[Card]]:
    """(discard, melds, deadwood cards) keeping the 10 cards of least deadwood.

    Ties: discard the highest-value card, then the highest rank, then suit order S H D C.
    """
    hand = _cards(cards11)
    if not hand:
        raise ValueError("best_discard needs at least one card")
    best: tuple[tuple[int, int, int, int], Card, list[Meld], list[Card]] | None = None
    for d in hand:
        rest = [c for c in hand if c != d]
        dw, melds, dead = _solve(rest)
        key = (dw, -d.value, -d.rank, d.index)
        if best is None or key < best[0]:
            best = (key, d, melds, dead)
    assert best is not None
    return best[1], best[2], best[3]


def deadwood(cards: Iterable[CardLike]) -> int:
    """Minimum deadwood: of 10 cards; of the best 10 of 11 (G-7.2); else of all cards."""
    hand = _cards(cards)
    if len(hand) == 11:
        d, _, dead = best_discard(hand)
        return sum(c.value for c in dead)
    return _solve(hand)[0]


def best_melds(cards: Iterable[CardLike]) -> tuple[list[Meld], list[Card]]:
    """(melds, deadwood cards) of a best arrangement; 11 cards: after the best discard."""
    hand = _cards(cards)
    if len(hand) == 11:
        _, melds, dead = best_discard(hand)
        return melds, dead
    _, melds, dead = _solve(hand)
    return melds, dead


def all_melded(cards: Iterable[CardLike]) -> list[Meld] | None:
    """A partition of all the cards into melds (gin G-9.1, big gin G-10.1), or None."""
    hand = _cards(cards)
    dw, melds, _ = _solve(hand)
    return melds if dw == 0 else None
