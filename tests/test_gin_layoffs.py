"""Gin layoffs: G-11 (4th of a set, runs at either end, chains, several melds) and G-22.3."""

from __future__ import annotations

import brute_force as bf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.cards import ALL_CARDS, Card, parse_cards
from rummy.gin.layoffs import Defence, best_defence, extend_meld, legal_layoffs
from rummy.gin.melds import check_arrangement, is_meld


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def assert_consistent(defender, knocker_melds, d: Defence):
    """Layoffs replay legally in order; own melds + layoffs + deadwood = the hand."""
    table = [tuple(parse_cards(m)) for m in knocker_melds]
    for card, i in d.layoffs:
        assert (card, i) in legal_layoffs([card], table)
        table[i] = extend_meld(table[i], card)
    laid = [c for c, _ in d.layoffs]
    kept = [c for c in parse_cards(defender) if c not in laid]
    assert check_arrangement(kept, d.own_melds) is None
    melded = [c for m in d.own_melds for c in m]
    assert sorted(melded + list(d.deadwood_cards)) == sorted(kept)
    assert d.count == sum(c.value for c in d.deadwood_cards)


# --- extend_meld / legal_layoffs ------------------------------------------------------------


def test_g_11_1_fourth_card_onto_a_set():
    assert extend_meld(cards("7S 7H 7D"), "7C") == tuple(cards("7C 7D 7H 7S"))
    with pytest.raises(ValueError, match="all four"):
        extend_meld(cards("7S 7H 7D 7C"), "7C")
    with pytest.raises(ValueError, match="not the rank"):
        extend_meld(cards("7S 7H 7D"), "8C")


def test_g_11_1_runs_extend_at_either_end_within_a_to_k():
    assert extend_meld(cards("5S 6S 7S"), "4S") == tuple(cards("4S 5S 6S 7S"))
    assert extend_meld(cards("5S 6S 7S"), "8S") == tuple(cards("5S 6S 7S 8S"))
    assert extend_meld(cards("2H 3H 4H"), "AH")[0] == Card(1, "H")
    assert extend_meld("5S 6S 7S", "8S") == tuple(cards("5S 6S 7S 8S"))  # text is fine too
    with pytest.raises(ValueError, match="either end"):
        extend_meld(cards("5S 6S 7S"), "9S")
    with pytest.raises(ValueError, match="not the suit"):
        extend_meld(cards("5S 6S 7S"), "8H")
    with pytest.raises(ValueError, match="either end"):  # G-1.3: no wrap K-A
        extend_meld(cards("JS QS KS"), "AS")
    with pytest.raises(ValueError, match="already in"):
        extend_meld(cards("5S 6S 7S"), "6S")
    with pytest.raises(ValueError, match="not a meld"):
        extend_meld(cards("5S 6H"), "7S")


def test_g_11_1_legal_layoffs_one_card_at_a_time():
    table = [cards("5S 6S 7S"), cards("KS KH KC")]
    got = legal_layoffs(cards("8S 9S 4S KD 2C"), table)
    assert got == [(Card(8, "S"), 0), (Card(4, "S"), 0), (Card(13, "D"), 1)]
    assert legal_layoffs(["9S"], table) == []  # 9S only after 8S (a chain)
    both = legal_layoffs(["8S"], [cards("5S 6S 7S"), cards("8H 8D 8C")])
    assert both == [(Card(8, "S"), 0), (Card(8, "S"), 1)]


# --- best_defence -----------------------------------------------------------------------------


def test_g_11_1_chain_upwards():
    defender = "8S 9S TS 2H 4C 6D KH QD 3C JC"
    melds = ["5S 6S 7S".split()]
    d = best_defence(defender.split(), melds)
    assert d.layoffs == ((Card(8, "S"), 0), (Card(9, "S"), 0), (Card(10, "S"), 0))
    assert all(c is ALL_CARDS[c.index] for c, _ in d.layoffs)  # canonical card objects
    assert d.own_melds == ()  # 8S-TS would be a run of his own: same count, more laid off
    assert d.count == 2 + 4 + 6 + 10 + 10 + 3 + 10
    assert_consistent(defender.split(), melds, d)


def test_g_11_1_chain_downwards_and_both_ends():
    defender = "3S 4S 8S 9S KH KD QC 2C 5H 6D"
    melds = ["5S 6S 7S".split()]
    d = best_defence(defender.split(), melds)
    assert [c for c, _ in d.layoffs] == cards("4S 3S 8S 9S")  # inner cards first
    assert d.count == 10 + 10 + 10 + 2 + 5 + 6
    assert_consistent(defender.split(), melds, d)


def test_g_11_1_fourth_of_set_and_several_melds():
    defender = "KD 2H 2S 8C 9H TD 4C AC 6H JS"
    melds = ["KS KH KC".split(), "2D 3D 4D".split(), "TH JH QH".split()]
    d = best_defence(defender.split(), melds)
    laid = {c: i for c, i in d.layoffs}
    assert laid == {Card(13, "D"): 0, Card(9, "H"): 2}
    assert d.count == 2 + 2 + 8 + 10 + 4 + 1 + 6 + 10
    assert_consistent(defender.split(), melds, d)


def test_g_22_3_breaks_own_set_to_lay_off_more():
    defender = "8S 8H 8D 9S TS 2C 3D 4H KC QH"
    melds = ["5S 6S 7S".split()]
    d = best_defence(defender.split(), melds)
    # Keeping 8S 8H 8D: 9S TS stuck (19 more). Laying off 8S 9S TS: 8H 8D dead (16).
    assert [c for c, _ in d.layoffs] == cards("8S 9S TS")
    assert d.count == 8 + 8 + 2 + 3 + 4 + 10 + 10
    assert d.own_melds == ()
    assert_consistent(defender.split(), melds, d)


def test_g_22_3_four_card_set_gives_one_card_away():
    defender = "9S 9H 9D 9C 2C 3D 4H KC QH JD"
    melds = ["6S 7S 8S".split()]
    d = best_defence(defender.split(), melds)
    assert d.layoffs == ((Card(9, "S"), 0),)
    assert d.own_melds == (tuple(cards("9C 9D 9H")),)
    assert d.count == 2 + 3 + 4 + 30
    assert_consistent(defender.split(), melds, d)


def test_g_11_1_card_between_two_runs_is_laid_off_once():
    defender = "8S AH 2D 3C 5H 6D 7C JH QD KC"
    melds = ["5S 6S 7S".split(), "9S TS JS".split()]
    d = best_defence(defender.split(), melds)
    assert d.layoffs == ((Card(8, "S"), 0),)  # tie between the runs: lower meld index
    assert_consistent(defender.split(), melds, d)


def test_g_9_2_no_layoffs_on_gin_means_no_knocker_melds():
    defender = "8S 9S TS 2C 3D 4H KC QH JD 5C"
    d = best_defence(defender.split(), [])
    assert d.layoffs == () and d.own_melds == (tuple(cards("8S 9S TS")),)
    assert d.count == 2 + 3 + 4 + 30 + 5


def test_bad_knocker_melds_are_named():
    with pytest.raises(ValueError, match="knocker meld 0 .* is not a valid meld"):
        best_defence(["2C"], [["5S", "6S", "8S"]])
    with pytest.raises(ValueError, match="5S of knocker meld 1"):
        best_defence(["2C"], [["5S", "6S", "7S"], ["5S", "5H", "5D"]])
    with pytest.raises(ValueError, match="2C of knocker meld 0"):
        best_defence(["2C"], [["2C", "2S", "2H"]])


# --- properties against the brute-force reference ------------------------------------------


@st.composite
def knock_situations(draw):
    """Knocker melds and a 10-card defender hand from a six-rank window (layoffs likely)."""
    lo = draw(st.integers(1, 8))
    window = [c for c in ALL_CARDS if lo <= c.rank < lo + 6]
    candidates = []
    for suit in "SHDC":
        for start in range(lo, lo + 4):
            for length in range(3, lo + 7 - start):
                candidates.append([Card(r, suit) for r in range(start, start + length)])
    for rank in range(lo, lo + 6):
        group = [Card(rank, s) for s in "SHDC"]
        candidates.append(group)
        candidates.extend([c for c in group if c is not skip] for skip in group)
    picks = draw(st.lists(st.sampled_from(candidates), min_size=1, max_size=4))
    melds, used = [], set()
    for m in picks:
        if used.isdisjoint(m):
            melds.append(m)
            used.update(m)
    rest = [c for c in window if c not in used]
    size = min(10, len(rest))
    defender = draw(st.lists(st.sampled_from(rest), min_size=size, max_size=size, unique=True))
    return defender, melds


@settings(max_examples=200, deadline=None)
@given(knock_situations())
def test_g_22_3_best_defence_matches_brute_force(situation):
    defender, melds = situation
    d = best_defence(defender, melds)
    assert d.count == bf.defence(defender, melds)
    assert_consistent(defender, melds, d)


@settings(max_examples=200, deadline=None)
@given(knock_situations())
def test_g_11_1_legal_layoffs_match_brute_force(situation):
    defender, melds = situation
    expected = [
        (c, i)
        for c in defender
        for i, m in enumerate(melds)
        if bf.can_extend(frozenset(bf.pair(x) for x in m), bf.pair(c))
    ]
    assert legal_layoffs(defender, melds) == expected
    for c, i in expected:
        assert is_meld(extend_meld(melds[i], c))
