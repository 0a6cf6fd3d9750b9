"""The table's suggested contract is the cheapest legal one (C-3, C-7.2): checked against
an exhaustive search that tries every way to lay the contract through the engine itself."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from contract_helpers import position
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummy.actions import Action, ActionError
from rummy.cards import Card
from rummy.contract.engine import ENGINE
from rummy.contract.melds import meld_problem
from rummy.contract.state import PLAY

R = ENGINE.preset("seed_002")


def value(hand: list[Card] | tuple[Card, ...]) -> int:
    """C-7.3 written out again: A = 15, J/Q/K = 10, pip otherwise."""
    return sum(15 if c.rank == 1 else 10 if c.rank >= 11 else c.rank for c in hand)


def brute_force(state, seat: int) -> int | None:
    """The fewest points any legal contract leaves in hand: every group of cards the hand
    holds, every choice of as many disjoint groups as the contract has, judged by the
    engine's own ``apply`` (only groups that are melds at all are tried, C-2). None when no contract can be laid."""
    hand = state.hands[seat]
    n = len(hand)
    k = state.contract.sets + state.contract.sequences
    groups = [idx for size in range(3, n + 1) for idx in combinations(range(n), size)
              if meld_problem([hand[i] for i in idx], state.rules) is None]  # C-2: a meld at all
    best = None
    seen = set()
    for combo in combinations(groups, k):
        flat = [i for g in combo for i in g]
        if len(flat) != len(set(flat)):
            continue
        melds = tuple(tuple(hand[i] for i in g) for g in combo)
        key = tuple(sorted(tuple(sorted(m)) for m in melds))  # the same cards of another copy
        if key in seen:
            continue
        seen.add(key)
        try:
            ENGINE.apply(state, Action("meld", seat, melds=melds))
        except ActionError:
            continue
        left = value([hand[i] for i in range(n) if i not in flat])
        best = left if best is None or left < best else best
    return best


def suggestion(state, seat: int):
    return next((a for a in ENGINE.legal_actions(state, seat) if a.kind == "meld"), None)


def left_after(state, seat: int, action) -> int:
    after, _events = ENGINE.apply(state, action)
    return value(after.hands[seat])


def test_the_example_of_issue_11_lays_tens_and_queens():
    """Sevens and tens left 58 points in hand; tens and queens leave 49."""
    state = position(hands=["7S 7H 7D TS TH TD QS QD QC AH 9C 4S", "2C 3C"], turn=0, phase=PLAY)
    meld = suggestion(state, 0)
    assert meld is not None
    assert sorted(c.rank for g in meld.melds for c in g) == [10, 10, 10, 12, 12, 12]
    assert left_after(state, 0, meld) == 49


def test_a_longer_group_is_laid_when_it_leaves_less():
    """C-3.4: a contract meld may be longer than three cards."""
    state = position(hands=["5S 5H 5D 5C 8S 8H 8D KC 2D", "2C 3C"], turn=0, phase=PLAY)
    meld = suggestion(state, 0)
    assert meld is not None and left_after(state, 0, meld) == 12


# hands from a few ranks and suits, so that sets and sequences are likely
small_cards = st.builds(lambda r, s: Card(r, s), st.sampled_from([1, 2, 3, 4, 5, 10, 11, 12, 13]),
                        st.sampled_from("SHD"))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=st.lists(small_cards, min_size=6, max_size=10), deal=st.integers(1, 5))
def test_the_suggestion_is_the_cheapest_legal_contract(hand, deal):
    if any(v > 2 for v in Counter(hand).values()):
        return  # two packs
    state = position(hands=[" ".join(str(c) for c in hand), "2C 3C"], turn=0, phase=PLAY, deal_number=deal)
    best = brute_force(state, 0)
    meld = suggestion(state, 0)
    if best is None:
        assert meld is None
        return
    assert meld is not None
    assert left_after(state, 0, meld) == best
