"""Laying a contract (C-3): whether groups fulfil it, and finding one in a hand.

The :class:`Contract` value itself is a rules parameter and lives in
:mod:`rummy.contract.rules` (re-exported here).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from rummy.actions import ActionError
from rummy.cards import SUITS, Card
from rummy.contract.kinds import Refusal
from rummy.contract.melds import SET, meld_kind, meld_problem
from rummy.contract.rules import SEED_CONTRACTS as SEED_CONTRACTS  # re-exported
from rummy.contract.rules import Contract, ContractRules

SUIT_ORDER = {s: i for i, s in enumerate(SUITS)}


def contract_problem(
    groups: Sequence[Sequence[Card]],
    contract: Contract,
    rules: ContractRules,
    *,
    already: Sequence[Sequence[Card]] = (),
    partial: bool = False,
) -> ActionError | None:
    """Why ``groups`` do not fulfil ``contract`` (C-3) as a coded refusal, or None.

    ``already``: groups this player laid earlier in the deal (only when the contract may
    be laid over several turns); ``partial``: accept fewer groups than the contract.
    """
    if not groups:
        return ActionError(Refusal.NO_GROUPS)
    sets: list[Sequence[Card]] = []
    seqs: list[Sequence[Card]] = []
    for g in [*already, *groups]:
        problem = meld_problem(g, rules)
        if problem:
            return problem
        (sets if meld_kind(g, rules) == SET else seqs).append(g)
    want = {"sets": contract.sets, "sequences": contract.sequences}
    if len(sets) > contract.sets or len(seqs) > contract.sequences:  # C-3.1
        return ActionError(Refusal.CONTRACT_TOO_MANY, **want)
    if not partial and (len(sets) < contract.sets or len(seqs) < contract.sequences):
        return ActionError(Refusal.CONTRACT_TOO_FEW, **want)  # C-3.1, C-15.3
    if rules.contract_distinct:  # C-3.2
        ranks = [g[0].rank for g in sets]
        if len(set(ranks)) < len(ranks):
            return ActionError(Refusal.SETS_SAME_RANK)
        suits = [g[0].suit for g in seqs]
        if len(set(suits)) < len(suits):
            return ActionError(Refusal.SEQUENCES_SAME_SUIT)
    return None


def _candidates(hand: Sequence[Card], rules: ContractRules) -> tuple[list, list]:
    """Minimal sets (one per rank and suit mix) and minimal sequences in ``hand``."""
    counts = Counter(hand)
    sets: list[tuple[Card, ...]] = []
    by_rank: dict[int, list[Card]] = {}
    for c in sorted(counts):
        by_rank.setdefault(c.rank, []).extend([c] * counts[c])
    for cards in by_rank.values():
        if len(cards) >= rules.min_set_len:
            seen = set()
            for combo in combinations(cards, rules.min_set_len):
                if combo not in seen:
                    seen.add(combo)
                    sets.append(combo)
    seqs: list[tuple[Card, ...]] = []
    n = rules.min_sequence_len
    mode = rules.ace_in_sequences
    last_start = 13 if mode == "around_corner" else (14 - n if mode == "low_only" else 15 - n)
    for suit in sorted({c.suit for c in counts}):
        held = [False] * 15
        for c in counts:
            if c.suit == suit:
                held[c.rank] = True
        held[14] = held[1]
        for start in range(1, last_start + 1):
            ranks = [(start - 1 + i) % 13 + 1 for i in range(n)] if start + n - 1 > 14 else [
                1 if r == 14 else r for r in range(start, start + n)
            ]
            if all(held[r] for r in ranks):
                seqs.append(tuple(Card.from_index(SUIT_ORDER[suit] * 13 + r - 1) for r in ranks))
    return sets, seqs


def find_contract(
    hand: Sequence[Card], contract: Contract, rules: ContractRules,
    *, already: Sequence[Sequence[Card]] = (),
) -> tuple[tuple[Card, ...], ...] | None:
    """One way to lay ``contract`` from ``hand`` with minimal groups, or None (C-3).

    Any contract can be shrunk to minimal groups, so this finds one whenever one exists;
    the rest can then be laid off on the player's own melds. ``already``: the groups this
    player laid earlier in the deal (``contract_in_one_turn`` off): only the rest of the
    contract is looked for, of other ranks and suits than those (C-3.2).
    """
    laid = [(g, meld_kind(g, rules)) for g in already]
    need_sets = contract.sets - sum(kind == SET for _, kind in laid)
    need_seqs = contract.sequences - sum(kind != SET for _, kind in laid)
    if need_sets < 0 or need_seqs < 0 or need_sets + need_seqs == 0:
        return None
    used_ranks = frozenset(g[0].rank for g, kind in laid if kind == SET)
    used_suits = frozenset(g[0].suit for g, kind in laid if kind != SET)
    sets, seqs = _candidates(hand, rules)
    if len(sets) < need_sets or len(seqs) < need_seqs:
        return None
    counts = Counter(hand)

    def fits(group: Sequence[Card]) -> bool:
        need = Counter(group)
        return all(counts[c] >= k for c, k in need.items())

    def take(group: Sequence[Card], sign: int) -> None:
        for c in group:
            counts[c] -= sign

    chosen: list[tuple[Card, ...]] = []
    plan = [(sets, need_sets, 0, used_ranks), (seqs, need_seqs, 1, used_suits)]

    def pick(stage: int, i: int, left: int, used: frozenset) -> bool:
        if left == 0:
            if stage + 1 < len(plan):
                return pick(stage + 1, 0, plan[stage + 1][1], plan[stage + 1][3])
            return True
        pool, _, key_index, _ = plan[stage]
        for j in range(i, len(pool)):
            g = pool[j]
            key = g[0].rank if key_index == 0 else g[0].suit
            if (rules.contract_distinct and key in used) or not fits(g):
                continue
            take(g, 1)
            chosen.append(g)
            if pick(stage, j + 1, left - 1, used | {key}):
                return True
            chosen.pop()
            take(g, -1)
        return False

    return tuple(chosen) if pick(0, 0, need_sets, used_ranks) else None
