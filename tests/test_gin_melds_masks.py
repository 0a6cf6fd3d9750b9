"""The solver's mask forms for the computer players (issue 12): ``deadwood`` of a hand
mask, ``mask_deadwood``/``mask_deadwood_discard`` and the incremental ``swap_deadwood``
agree with ``deadwood`` of the cards, on uniform and meld-dense hands."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.cards import ALL_CARDS
from rummy.gin.melds import (
    card_bit,
    deadwood,
    hand_mask,
    mask_cards,
    mask_deadwood,
    mask_deadwood_discard,
    swap_deadwood,
)

DENSE = [c for c in ALL_CARDS if 4 <= c.rank <= 8]
hands11 = st.one_of(
    st.lists(st.sampled_from(ALL_CARDS), min_size=11, max_size=11, unique=True),
    st.lists(st.sampled_from(DENSE), min_size=11, max_size=11, unique=True),
)


@settings(max_examples=400, deadline=None)
@given(hand=hands11, out=st.integers(0, 10))
def test_mask_forms_agree_with_cards(hand, out) -> None:
    ten = hand[:10]
    m = hand_mask(ten)
    assert sorted(mask_cards(m)) == sorted(ten)
    assert mask_deadwood(m) == deadwood(ten) == deadwood(m)
    m11 = hand_mask(hand)
    assert mask_deadwood_discard(m11) == deadwood(hand) == deadwood(m11)
    gone = hand[out]
    new, dw = swap_deadwood(m, mask_deadwood(m), card_bit(hand[10]), card_bit(gone))
    rest = [c for c in hand if c != gone]
    assert new == hand_mask(rest)
    assert dw == deadwood(rest)


def test_card_bit_is_the_solver_layout_and_every_input_form_agrees() -> None:
    """``Card.bit`` is 1 << (16 * suit + rank); the card-list fast path (sum of the bits)
    gives the same count as text, fresh ``Card`` objects, tuples, sets and generators,
    and a duplicate is still refused."""
    import pytest

    from rummy.cards import SUITS, Card

    for c in ALL_CARDS:
        assert c.bit == 1 << (16 * SUITS.index(c.suit) + c.rank) == card_bit(c)
        assert Card(c.rank, c.suit).bit == c.bit
    hand = [ALL_CARDS[i] for i in (0, 1, 2, 16, 17, 29, 30, 42, 43, 51)]
    want = deadwood(hand)
    assert deadwood(tuple(hand)) == deadwood(set(hand)) == deadwood(c for c in hand) == want
    assert deadwood([Card(c.rank, c.suit) for c in hand]) == want
    assert deadwood(" ".join(str(c) for c in hand)) == deadwood([str(c) for c in hand]) == want
    assert deadwood([str(hand[0]), *hand[1:]]) == want  # text and cards mixed
    with pytest.raises(ValueError, match="more than once"):
        deadwood([*hand[:9], hand[0]])


@settings(max_examples=300, deadline=None)
@given(hand=hands11)
def test_one_set_rank_shortcut_agrees_with_the_full_solve(hand) -> None:
    """The shortcut for a single rank held three times (set or not) matches the general
    enumeration of set choices (``_dw_sets``) on 10 and 11 cards."""
    from rummy.gin.melds import _choices, _dw_sets, _split

    for cards in (hand[:10], hand):
        m = hand_mask(cards)
        a, b, c, d = _split(m.to_bytes(8, "little"))
        t = (a & b & (c | d)) | (c & d & (a | b))
        if t:
            assert _choices(m, t)
        if len(cards) == 10 and t:
            assert deadwood(cards) == _dw_sets(m, a, b, c, d, t) == mask_deadwood(m)
