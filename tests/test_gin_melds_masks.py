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
