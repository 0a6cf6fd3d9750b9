"""Gin rummy layoffs (G-11, G-22.3): extending the knocker's melds and the best defence.

After a non-gin knock the defender lays off deadwood on the knocker's melds: the 4th card
of a set, or cards extending a run at either end within A..K, in chains (8S then 9S onto
5S-6S-7S), onto any number of the knocker's melds. He chooses his own melds and his
layoffs together to minimise his count, and may break his own melds to lay off more
(G-22.3). Nothing is laid off on gin or big gin (G-9.2, G-10.2): callers do not call
:func:`best_defence` then. The knocker never lays off (G-11.2).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rummy.actions import ActionError
from rummy.cards import SUITS, Card, CardLike, parse_card, parse_cards
from rummy.gin.kinds import Refusal
from rummy.gin.melds import Meld, _cards, _dw_mask, arrange, is_meld, is_run, is_set

Layoff = tuple[Card, int]


@dataclass(frozen=True)
class Defence:
    """The defender's best play: own melds, layoffs (card, knocker meld index) in a valid
    order, remaining deadwood cards and their count."""

    own_melds: tuple[Meld, ...]
    layoffs: tuple[Layoff, ...]
    deadwood_cards: tuple[Card, ...]
    count: int


def extend_meld(meld: Iterable[CardLike], card: CardLike) -> Meld:
    """``meld`` with ``card`` added (sorted), or :class:`ActionError` (a ``ValueError``)
    coded with why not (G-11.1)."""
    cs = parse_cards(meld)
    c = parse_card(card)
    m = tuple(cs)
    if is_set(cs) and len(cs) == 4:
        raise ActionError(Refusal.LAYOFF_SET_FULL, card=c, meld=m)
    if c in cs:
        raise ActionError(Refusal.LAYOFF_IN_MELD, card=c, meld=m)
    if is_set(cs):  # G-11.1: the 4th card of a set
        if c.rank != cs[0].rank:
            raise ActionError(Refusal.LAYOFF_WRONG_RANK, card=c, meld=m)
        return tuple(sorted([*cs, c]))
    if is_run(cs):  # G-11.1: one more card at either end of a run
        ranks = sorted(x.rank for x in cs)
        if c.suit != cs[0].suit:
            raise ActionError(Refusal.LAYOFF_WRONG_SUIT, card=c, meld=m)
        if c.rank not in (ranks[0] - 1, ranks[-1] + 1):  # G-1.3: within A..K, no wrap
            raise ActionError(Refusal.LAYOFF_NOT_AT_END, card=c, meld=m)
        return tuple(sorted([*cs, c]))
    raise ActionError(Refusal.LAYOFF_NOT_A_MELD, card=c, meld=m)


def legal_layoffs(
    cards: Iterable[CardLike], melds_on_table: Sequence[Iterable[CardLike]]
) -> list[Layoff]:
    """Every (card, meld index) that can be laid off right now, one card at a time."""
    hand = _cards(cards)
    table = [tuple(parse_cards(m)) for m in melds_on_table]
    out: list[Layoff] = []
    for c in hand:
        for i, m in enumerate(table):
            try:
                extend_meld(m, c)
            except ValueError:
                continue
            out.append((c, i))
    return out


def _at(rank: int, suit: str) -> Card:
    """The canonical card object (keeps the solver's fast path)."""
    return Card.from_index(SUITS.index(suit) * 13 + rank - 1)


def _options(hand: set[Card], meld: Meld) -> list[tuple[Card, ...]]:
    """The ways to lay off held cards onto one meld, each in a valid order (G-11.1)."""
    opts: list[tuple[Card, ...]] = [()]
    if is_set(meld):
        if len(meld) == 3:
            suit = ({"S", "H", "D", "C"} - {c.suit for c in meld}).pop()
            c = _at(meld[0].rank, suit)
            if c in hand:
                opts.append((c,))
        return opts
    suit = meld[0].suit
    ranks = sorted(c.rank for c in meld)
    down: list[Card] = []
    r = ranks[0] - 1
    while r >= 1 and _at(r, suit) in hand:
        down.append(_at(r, suit))
        r -= 1
    up: list[Card] = []
    r = ranks[-1] + 1
    while r <= 13 and _at(r, suit) in hand:
        up.append(_at(r, suit))
        r += 1
    return [
        tuple(down[:i]) + tuple(up[:j]) for i in range(len(down) + 1) for j in range(len(up) + 1)
    ]


def best_defence(
    defender_cards: Iterable[CardLike], knocker_melds: Sequence[Iterable[CardLike]]
) -> Defence:
    """The defender's optimal own melds and layoffs chosen together (G-11.3, G-22.3), exact.

    Every combination of layoffs is tried (per knocker meld: the 4th card of a set, or a
    chain down and a chain up a run), the rest arranged at minimum deadwood. Tie-break:
    least count, then most cards laid off, then the smallest layoffs tuple (card order,
    then meld index).
    For gin or big gin (G-9.2, G-10.2) pass no knocker melds: own melds only.
    """
    hand = _cards(defender_cards)
    table = [tuple(sorted(parse_cards(m))) for m in knocker_melds]
    _check_table(hand, table)
    held = set(hand)
    combos: list[tuple[int, tuple[Layoff, ...]]] = [(0, ())]  # (cards laid off, layoffs)
    for i, meld in enumerate(table):
        opts = [(_mask_of(opt), tuple((c, i) for c in opt)) for opt in _options(held, meld)]
        combos = [(u | om, lays + ol) for u, lays in combos for om, ol in opts if not u & om]
    whole = _mask_of(hand)
    count, _, lays = min((_dw_mask(whole ^ u), -len(lays), lays) for u, lays in combos)
    laid = {c for c, _ in lays}
    _, melds, dead = arrange([c for c in hand if c not in laid])
    return Defence(tuple(melds), lays, tuple(dead), count)


def _mask_of(cards: Iterable[Card]) -> int:
    return sum(1 << (16 * SUITS.index(c.suit) + c.rank) for c in cards)


def _check_table(hand: list[Card], table: list[Meld]) -> None:
    """Knocker melds must be valid, disjoint, and not share cards with the defender."""
    seen = set(hand)
    for i, meld in enumerate(table):
        text = " ".join(str(c) for c in meld) or "(empty)"
        if not is_meld(meld):
            raise ValueError(f"knocker meld {i} ({text}) is not a valid meld")
        for c in meld:
            if c in seen:
                raise ValueError(f"{c} of knocker meld {i} is also elsewhere on the table")
            seen.add(c)
