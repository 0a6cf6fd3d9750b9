"""rummy.cards: text form, parsing errors, decks, and a uniform shuffle."""

import random

import pytest

from rummy.cards import (
    ALL_CARDS,
    Card,
    CardError,
    format_cards,
    parse_card,
    parse_cards,
    shuffled_deck,
)


def test_round_trip_every_card():
    for card in ALL_CARDS:
        assert parse_card(str(card)) == card
    assert len(set(ALL_CARDS)) == 52


def test_parse_forms():
    assert parse_card("TD") == Card(10, "D")
    assert parse_card("10d") == Card(10, "D")
    assert parse_cards("AS 2S, 3S") == [Card(1, "S"), Card(2, "S"), Card(3, "S")]
    assert format_cards(parse_cards("KH qc")) == "KH QC"


@pytest.mark.parametrize("bad", ["", "1S", "AX", "ZZ", "ASS", "11H", None, 5])
def test_bad_text_is_a_clear_error(bad):
    with pytest.raises(CardError) as info:
        parse_card(bad)
    assert "card" in str(info.value)


def test_values_g_1_2():
    assert [parse_card(t).value for t in ("AS", "7H", "TD", "JC", "QS", "KH")] == [1, 7, 10, 10, 10, 10]


def test_seeded_shuffle_reproduces():
    assert shuffled_deck(random.Random(7)) == shuffled_deck(random.Random(7))
    assert sorted(shuffled_deck(random.Random(7), decks=2)) == sorted(list(ALL_CARDS) * 2)


def test_shuffle_is_uniform_chi_square():
    """Chi-square over (card, position) counts: 52x52 cells, 20,800 shuffles (8 per cell)."""
    rng = random.Random(2026)
    n = 20_800
    counts = [[0] * 52 for _ in range(52)]
    for _ in range(n):
        for pos, card in enumerate(shuffled_deck(rng)):
            counts[card.index][pos] += 1
    expected = n / 52
    chi2 = sum((c - expected) ** 2 / expected for row in counts for c in row)
    dof = 51 * 51  # 2601
    # mean dof, sd sqrt(2*dof) = 72; 5 sd either side is a wide, still-failing band
    assert dof - 5 * 72 < chi2 < dof + 5 * 72, chi2
    # A biased shuffle (first card never moves) must fail the same test.
    bad = [[0] * 52 for _ in range(52)]
    for _ in range(2000):
        deck = shuffled_deck(rng)
        deck.remove(ALL_CARDS[0])
        deck.insert(0, ALL_CARDS[0])
        for pos, card in enumerate(deck):
            bad[card.index][pos] += 1
    e2 = 2000 / 52
    chi2_bad = sum((c - e2) ** 2 / e2 for row in bad for c in row)
    assert chi2_bad > dof + 5 * 72
