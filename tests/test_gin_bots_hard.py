"""The hard gin player's mask helpers (issue 12): its arrangement, layoff estimate,
playouts and the opponent-hand weighting agree with the exact solvers and the rules."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.cards import ALL_CARDS
from rummy.gin.bots_hard import (
    _arrangement,
    _would_throw,
    defender_count,
    explains,
    melds_masks,
    playout,
)
from rummy.gin.layoffs import best_defence
from rummy.gin.melds import arrange, hand_mask, mask_cards

DENSE = [c for c in ALL_CARDS if 3 <= c.rank <= 9]
decks = st.one_of(
    st.lists(st.sampled_from(ALL_CARDS), min_size=20, max_size=20, unique=True),
    st.lists(st.sampled_from(DENSE), min_size=20, max_size=20, unique=True),
)


@settings(max_examples=300, deadline=None)
@given(deck=decks, size=st.sampled_from([10, 11]))
def test_arrangement_matches_the_solver(deck, size) -> None:
    cards = deck[:size]
    m = hand_mask(cards)
    count, melded = _arrangement(m)
    assert count == arrange(cards)[0]
    assert melded & ~m == 0
    assert sum(c.value for c in mask_cards(m & ~melded)) == count


@settings(max_examples=300, deadline=None)
@given(deck=decks)
def test_defender_count_is_a_legal_defence_never_better_than_the_best(deck) -> None:
    _, melds, _ = arrange(deck[:10])
    opp = deck[10:]
    exact = best_defence(opp, melds).count
    assert exact <= defender_count(hand_mask(opp), *melds_masks(melds)) <= arrange(opp)[0]


def test_playouts_end_in_a_scored_or_dead_hand_and_repeat_exactly() -> None:
    rng = random.Random(7)
    for _ in range(200):
        deck = [c.bit for c in rng.sample(ALL_CARDS, 52)]
        args = ([sum(deck[:10]), sum(deck[10:20])], deck[21:], deck[20], 1, 10, 2, 25, 25)
        first = playout(*args)
        again = playout([sum(deck[:10]), sum(deck[10:20])], *args[1:])
        assert first == again
        winner, points = first
        assert winner in (-1, 0, 1) and points >= 0 and (winner != -1 or points == 0)


def test_explains_prefers_a_hand_that_would_have_thrown_the_card() -> None:
    """A greedy player throws his highest loose card: a hand holding a loose king does
    not explain throwing a loose seven; one whose other cards are melded or lower does."""
    from rummy.cards import parse_cards

    seven = parse_cards("7C")[0]
    low = hand_mask(parse_cards("AS 2S 3S 4H 5H 6H 2D 3C 4C 5D"))
    king = hand_mask(parse_cards("AS 2S 3S 4H 5H 6H 2D 3C 4C KD"))
    assert _would_throw(low | seven.bit, seven.bit, 0)
    assert not _would_throw(king | seven.bit, seven.bit, 0)
    assert not _would_throw(low | seven.bit, seven.bit, 14)  # 14 left: he would knock
    events = [("draw", None, seven)]
    assert explains(king, events, 0) < explains(low, events, 0)
