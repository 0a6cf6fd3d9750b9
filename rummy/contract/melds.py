"""Melds for two decks (C-1, C-2): sets and sequences, with reasons when a group is not one.

A *set* is 3+ cards of one rank (suits may repeat with two packs), at most 8 (C-2.2).
A *sequence* is 3+ (or 4+, ``min_sequence_len``) cards of one suit with one card of each
rank, consecutive; the ace is low (A-2-3) or high (Q-K-A) but not both (C-2.3).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from rummy.actions import ActionError
from rummy.cards import Card
from rummy.contract.kinds import Refusal

if TYPE_CHECKING:
    from rummy.contract.rules import ContractRules

SET = "set"
SEQUENCE = "sequence"


def _seq_positions(ranks: set[int], ace_mode: str) -> list[int] | None:
    """The ranks in order if they are consecutive under ``ace_mode``, else None."""
    if not ranks:
        return None
    low = sorted(ranks)
    if low[-1] - low[0] == len(low) - 1:
        return low
    if 1 in ranks and ace_mode in ("low_or_high", "around_corner"):
        high = sorted(14 if r == 1 else r for r in ranks)
        if high[-1] - high[0] == len(high) - 1:
            return high
    if ace_mode == "around_corner" and len(ranks) < 13:
        # K-A-2: consecutive on the circle = exactly one gap in the circular order.
        gaps = [r for r in range(1, 14) if r not in ranks]
        # the missing ranks must themselves be one contiguous block on the circle
        for start in gaps:
            block = [(start - 1 + i) % 13 + 1 for i in range(len(gaps))]
            if set(block) == set(gaps):
                first = block[-1] % 13 + 1
                return [(first - 1 + i) % 13 + 1 for i in range(len(ranks))]
    return None


def meld_problem(cards: Sequence[Card], rules: ContractRules) -> ActionError | None:
    """Why ``cards`` is not a meld (C-1, C-2) as a coded refusal, or None when it is one."""
    group = tuple(cards)
    if not group:
        return ActionError(Refusal.EMPTY_GROUP, cards=group)
    ranks = {c.rank for c in group}
    suits = {c.suit for c in group}
    if len(ranks) == 1:  # a set
        if len(group) < rules.min_set_len:
            return ActionError(Refusal.SET_TOO_SHORT, cards=group, min=rules.min_set_len, has=len(group))
        if len(group) > rules.max_set_len:  # C-1.2
            return ActionError(Refusal.SET_TOO_LONG, cards=group, max=rules.max_set_len)
        return None
    if len(suits) > 1:
        return ActionError(Refusal.MIXED_GROUP, cards=group)
    dup = [c for c, n in Counter(group).items() if n > 1]
    if dup:  # C-1.3
        return ActionError(Refusal.SEQUENCE_DUPLICATE, cards=group, card=dup[0])
    if len(group) < rules.min_sequence_len:
        return ActionError(
            Refusal.SEQUENCE_TOO_SHORT, cards=group, min=rules.min_sequence_len, has=len(group)
        )
    if _seq_positions(ranks, rules.ace_in_sequences) is None:
        if 1 in ranks and 2 in ranks and 13 in ranks:  # C-2.3
            return ActionError(Refusal.ACE_BOTH_ENDS, cards=group)
        if rules.ace_in_sequences == "low_only" and 1 in ranks and 13 in ranks:
            return ActionError(Refusal.ACE_LOW_ONLY, cards=group)
        return ActionError(Refusal.NOT_CONSECUTIVE, cards=group)
    return None


def meld_kind(cards: Sequence[Card], rules: ContractRules) -> str:
    """``"set"`` or ``"sequence"``; ``ValueError`` with the reason when it is neither."""
    problem = meld_problem(cards, rules)
    if problem:
        raise ValueError(str(problem))
    return SET if len({c.rank for c in cards}) == 1 else SEQUENCE


def is_meld(cards: Sequence[Card], rules: ContractRules) -> bool:
    return meld_problem(cards, rules) is None


def arrange(cards: Iterable[Card], rules: ContractRules) -> tuple[Card, ...]:
    """A valid meld in display order (sequences low to high with the ace placed)."""
    cards = list(cards)
    if len({c.rank for c in cards}) == 1:
        return tuple(sorted(cards, key=lambda c: "SHDC".index(c.suit)))
    order = _seq_positions({c.rank for c in cards}, rules.ace_in_sequences) or []
    by_rank = {c.rank: c for c in cards}
    return tuple(by_rank[1 if r == 14 else r] for r in order)


def layoff_problem(meld: Sequence[Card], card: Card, rules: ContractRules) -> ActionError | None:
    """Why ``card`` cannot be laid off on ``meld`` (C-5.2 limits) as a coded refusal, or None."""
    grown = [*meld, card]
    group = tuple(meld)
    if len({c.rank for c in meld}) == 1:
        rank = meld[0].rank_label
        if card.rank != meld[0].rank:
            return ActionError(Refusal.LAYOFF_WRONG_RANK, card=card, rank=rank, meld=group)
        if len(grown) > rules.max_set_len:  # C-1.2
            return ActionError(
                Refusal.LAYOFF_SET_FULL, card=card, rank=rank, max=rules.max_set_len, meld=group
            )
        return None
    if card.suit != meld[0].suit:
        return ActionError(Refusal.LAYOFF_WRONG_SUIT, card=card, meld=group)
    if card in meld:  # C-1.3
        return ActionError(Refusal.LAYOFF_ALREADY_HELD, card=card, meld=group)
    if _seq_positions({c.rank for c in grown}, rules.ace_in_sequences) is None:
        return ActionError(Refusal.LAYOFF_NOT_AT_END, card=card, meld=group)
    return None
