"""Laying a contract (C-3): whether groups fulfil it, and finding one in a hand.

The :class:`Contract` value itself is a rules parameter and lives in
:mod:`rummy.contract.rules` (re-exported here).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from rummy.actions import ActionError
from rummy.cards import SUITS, Card
from rummy.contract.kinds import Refusal
from rummy.contract.melds import SET, meld_kind, meld_problem
from rummy.contract.rules import SEED_CONTRACTS as SEED_CONTRACTS  # re-exported
from rummy.contract.rules import Contract as Contract  # re-exported
from rummy.contract.rules import ContractRules

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


def _candidates(
    hand: Sequence[Card], rules: ContractRules
) -> tuple[list[tuple[Card, ...]], list[tuple[Card, ...]]]:
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


def _still_to_lay(
    contract: Contract, already: Sequence[Sequence[Card]], rules: ContractRules,
) -> tuple[int, int, frozenset[int], frozenset[str]] | None:
    """What of ``contract`` is left after the groups ``already`` laid this deal: how many
    sets and sequences, and the ranks and suits those used (C-3.2: the rest of other ranks
    and suits); None when nothing or too much is left to lay."""
    laid = [(g, meld_kind(g, rules)) for g in already]
    need_sets = contract.sets - sum(kind == SET for _, kind in laid)
    need_seqs = contract.sequences - sum(kind != SET for _, kind in laid)
    if need_sets < 0 or need_seqs < 0 or need_sets + need_seqs == 0:
        return None
    used_ranks = frozenset(g[0].rank for g, kind in laid if kind == SET)
    used_suits = frozenset(g[0].suit for g, kind in laid if kind != SET)
    return need_sets, need_seqs, used_ranks, used_suits


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
    rest = _still_to_lay(contract, already, rules)
    if rest is None:
        return None
    need_sets, need_seqs, used_ranks, used_suits = rest
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
    # (pool, how many, 0 = sets keyed by rank / 1 = sequences keyed by suit, keys used)
    plan: list[tuple[list[tuple[Card, ...]], int, int, frozenset[int | str]]] = [
        (sets, need_sets, 0, used_ranks), (seqs, need_seqs, 1, used_suits)
    ]

    def pick(stage: int, i: int, left: int, used: frozenset[int | str]) -> bool:
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


def _all_groups(
    hand: Sequence[Card], rules: ContractRules
) -> tuple[list[tuple[Card, ...]], list[tuple[Card, ...]]]:
    """Every set and every sequence that can be made of ``hand`` (any length, C-3.4)."""
    counts = Counter(hand)
    sets: list[tuple[Card, ...]] = []
    by_rank: dict[int, list[Card]] = {}
    for c in sorted(counts):
        by_rank.setdefault(c.rank, []).append(c)
    for distinct in by_rank.values():
        # every sub-multiset of this rank's cards (two packs: up to two of each card)
        choices: list[list[tuple[Card, ...]]] = [[(c,) * k for k in range(counts[c] + 1)] for c in distinct]
        combos: list[tuple[Card, ...]] = [()]
        for opts in choices:
            combos = [a + b for a in combos for b in opts]
        sets += [g for g in combos if rules.min_set_len <= len(g) <= 8 and meld_problem(g, rules) is None]
    seqs: list[tuple[Card, ...]] = []
    seen: set[frozenset[Card]] = set()
    for suit in sorted({c.suit for c in counts}, key=SUIT_ORDER.__getitem__):
        held = {c.rank for c in counts if c.suit == suit}
        for start in range(1, 14):
            for length in range(rules.min_sequence_len, 14):
                ranks = [(start - 1 + i) % 13 + 1 for i in range(length)]
                if not all(r in held for r in ranks):
                    break
                g = tuple(Card.from_index(SUIT_ORDER[suit] * 13 + r - 1) for r in ranks)
                if frozenset(g) not in seen and meld_problem(g, rules) is None:
                    seen.add(frozenset(g))
                    seqs.append(g)
    return sets, seqs


def cheapest_contract(
    hand: Sequence[Card], contract: Contract, rules: ContractRules,
    *, already: Sequence[Sequence[Card]] = (),
    ok: Callable[[tuple[tuple[Card, ...], ...]], bool] = lambda groups: True,
) -> tuple[tuple[Card, ...], ...] | None:
    """The way to lay ``contract`` from ``hand`` that leaves the fewest points in hand
    (C-7.2, C-7.3), among those ``ok`` accepts (e.g. the C-6.3 exit check); None if none.

    Groups may be longer than the minimum (C-3.4); ``already`` as in :func:`find_contract`.
    Ties go to the first arrangement in a fixed order (groups by value, then by cards).
    """
    rest = _still_to_lay(contract, already, rules)
    if rest is None:
        return None
    need_sets, need_seqs, used_ranks, used_suits = rest

    def worth(g: Sequence[Card]) -> int:
        return sum(rules.value(c.rank) for c in g)

    def key(g: tuple[Card, ...]) -> tuple[int, int, list[int]]:
        return (-worth(g), -len(g), [c.index for c in g])

    sets, seqs = _all_groups(hand, rules)
    sets.sort(key=key)
    seqs.sort(key=key)
    counts = Counter(hand)
    plan: list[tuple[list[tuple[Card, ...]], int, bool, frozenset[int | str]]] = [
        (sets, need_sets, True, used_ranks), (seqs, need_seqs, False, used_suits)
    ]
    chosen: list[tuple[Card, ...]] = []
    best: list[Any] = [-1, None]

    def fits(g: Sequence[Card]) -> bool:
        return all(counts[c] >= k for c, k in Counter(g).items())

    def bound(stage: int, j: int, left: int) -> int:
        """At most this many more points can be laid (disjointness ignored)."""
        pool = plan[stage][0]
        more = sum(worth(g) for g in pool[j:j + left])
        for later in plan[stage + 1:]:
            more += sum(worth(g) for g in later[0][:later[1]])
        return more

    def pick(stage: int, i: int, left: int, used: frozenset[int | str], got: int) -> None:
        if left == 0:
            if stage + 1 < len(plan):
                nxt = plan[stage + 1]
                pick(stage + 1, 0, nxt[1], nxt[3], got)
                return
            groups = tuple(chosen)
            if got > best[0] and ok(groups):
                best[0], best[1] = got, groups
            return
        pool, _, is_set, _ = plan[stage]
        for j in range(i, len(pool)):
            if got + bound(stage, j, left) <= best[0]:
                return  # sorted by value: nothing further on can beat the best
            g = pool[j]
            k = g[0].rank if is_set else g[0].suit
            if (rules.contract_distinct and k in used) or not fits(g):
                continue
            for c in g:
                counts[c] -= 1
            chosen.append(g)
            pick(stage, j + 1, left - 1, used | {k}, got + worth(g))
            chosen.pop()
            for c in g:
                counts[c] += 1

    pick(0, 0, need_sets, used_ranks, 0)
    result: tuple[tuple[Card, ...], ...] | None = best[1]
    return result
