"""Gin meld solver: G-1 values and ace low, G-2 melds/deadwood, G-7.2 discard, G-9/G-10."""

from __future__ import annotations

import random
import runpy
from pathlib import Path

import brute_force as bf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.cards import ALL_CARDS, Card, CardError, parse_cards
from rummy.gin import best_melds, deadwood
from rummy.gin.melds import (
    all_melded,
    arrange,
    best_discard,
    check_arrangement,
    count,
    is_meld,
    is_run,
    is_set,
)

WINDOWS = [[c for c in ALL_CARDS if lo <= c.rank < lo + 5] for lo in range(1, 10)]


def hand_of(size: int, *, dense: bool):
    if dense:
        return st.sampled_from(WINDOWS).flatmap(
            lambda w: st.lists(st.sampled_from(w), min_size=size, max_size=size, unique=True)
        )
    return st.lists(st.sampled_from(ALL_CARDS), min_size=size, max_size=size, unique=True)


def assert_valid_arrangement(cards, melds, dead, expected_count):
    assert check_arrangement(cards, melds) is None
    melded = [c for m in melds for c in m]
    assert sorted(melded + list(dead)) == sorted(cards)
    assert count(cards, melds) == sum(c.value for c in dead) == expected_count


# --- G-1 values and run order ------------------------------------------------------------


def test_g_1_2_card_values_count_as_deadwood():
    assert deadwood("AS 2H 3D 4C 5S 6H 7D 8C 9S TH".split()) == 55
    assert deadwood("JS QH KD AC".split()) == 31


def test_g_1_3_ace_is_low_only_no_wrap():
    assert is_run(parse_cards("AS 2S 3S"))
    assert not is_run(parse_cards("QS KS AS"))
    assert not is_run(parse_cards("KS AS 2S"))
    assert deadwood("QS KS AS".split()) == 21
    assert deadwood("KH AH 2H".split()) == 13


# --- G-2 melds -------------------------------------------------------------------------


def test_g_2_1_sets_are_three_or_four_of_a_rank():
    assert is_set(["7S", "7H", "7D"]) and is_set(["7S", "7H", "7D", "7C"])
    assert not is_set(["7S", "7H"])
    assert not is_set(["7S", "7H", "8D"])
    assert not is_set(["7S", "7S", "7H"])
    assert not is_set(["7S", "7H", "XX"])


def test_g_2_1_runs_are_three_or_more_consecutive_in_one_suit():
    assert is_run(["5H", "3H", "4H"])  # any order
    assert is_run("9C TC JC QC KC".split())
    assert not is_run(["3H", "4H"])
    assert not is_run(["3H", "4H", "5S"])
    assert not is_run(["3H", "4H", "6H"])
    assert is_meld(["3H", "4H", "5H"]) and is_meld(["3H", "3S", "3C"])
    assert not is_meld(["3H", "4S", "5C"])


def test_g_2_2_a_card_is_in_at_most_one_meld():
    # 7S could be in the run or the set, not both: best is the run, 7H 7D dead.
    assert deadwood("7S 8S 9S 7H 7D".split()) == 14
    assert deadwood("7S 8S 9S 7H 7D 7C".split()) == 0  # the set of the other three
    assert check_arrangement("7S 8S 9S 7H 7D".split(), [["7S", "8S", "9S"], ["7S", "7H", "7D"]])


def test_g_2_3_deadwood_is_the_minimum_over_arrangements():
    hand = "AS 2S 3S 4S 4H 4D 5C 6C 7C KD".split()
    # 4S in the run (AS-4S): 4H 4D + KD dead = 18; in the set: A-3 run + 444 = KD only.
    assert deadwood(hand) == 10
    melds, dead = best_melds(hand)
    assert dead == [Card(13, "D")]
    assert_valid_arrangement(parse_cards(hand), melds, dead, 10)


def test_g_2_1_four_card_set_or_three_plus_run():
    hand = "5S 5H 5D 5C 6S 7S KD KH QC JC".split()
    assert deadwood(hand) == 40  # 555 + 5S-6S-7S
    melds, _ = best_melds(hand)
    assert (Card(5, "S"), Card(6, "S"), Card(7, "S")) in melds


def test_g_2_4_tie_prefers_runs_and_is_deterministic():
    hand = "JS QS KS KH KD 2C 3D 4H 6C 8D".split()
    melds, dead = best_melds(hand)
    assert melds == [tuple(parse_cards("JS QS KS"))]
    assert deadwood(hand) == 43
    rng = random.Random(7)
    for _ in range(5):
        shuffled = hand[:]
        rng.shuffle(shuffled)
        assert best_melds(shuffled) == (melds, dead)


def test_g_2_runs_are_maximal_blocks():
    melds, dead = best_melds("AS 2S 3S 4S 5S 6S 9H 9D 9C KC".split())
    assert tuple(parse_cards("AS 2S 3S 4S 5S 6S")) in melds and dead == [Card(13, "C")]


# --- G-7.2 eleven cards: best discard ------------------------------------------------------


def test_g_7_2_eleven_cards_use_the_best_discard():
    hand = "AS 2S 3S 4H 4D 4C 9C TC JC KH QD".split()
    assert deadwood(hand) == 10
    discard, melds, dead = best_discard(hand)
    assert discard == Card(13, "H")  # KH and QD tie on value 10: discard the higher rank
    assert dead == [Card(12, "D")]
    assert best_melds(hand) == (melds, dead)


def test_g_7_2_discard_tie_break_highest_value_first():
    discard, _, dead = best_discard("AS 2S 3S 5H 5D 5C 9C TC JC 2H 8D".split())
    assert discard == Card(8, "D") and dead == [Card(2, "H")]
    discard, _, dead = best_discard("AS 2S 3S 5H 5D 5C 9C TC JC 8H 8D".split())
    assert discard == Card(8, "H") and dead == [Card(8, "D")]  # equal: suit order S H D C


def test_g_10_big_gin_eleven_cards_all_melded():
    hand = "AS 2S 3S 4S 7H 7D 7C 9D TD JD QD".split()
    assert all_melded(hand) is not None
    assert deadwood(hand) == 0
    assert all_melded("AS 2S 3S 4S 7H 7D 7C 9D TD JD KD".split()) is None


def test_g_10_two_four_sets_and_a_three_set():
    hand = "KS KH KD KC 2S 2H 2D 2C 7S 7H 7D".split()
    assert deadwood(hand) == 0  # discard one card of a four-card set
    discard, melds, dead = best_discard(hand)
    assert discard.rank in (2, 13) and dead == []
    assert len(all_melded(hand)) == 3


def test_g_9_gin_ten_cards():
    hand = "AH 2H 3H 8S 8H 8D QC QD QS QH".split()
    melds = all_melded(hand)
    assert melds is not None and check_arrangement(hand, melds) is None
    assert deadwood(hand) == 0


# --- arrangements and input -----------------------------------------------------------


def test_check_arrangement_gives_readable_reasons():
    hand = "AS 2S 3S 7H 7D 7C KD KH QC JC".split()
    assert check_arrangement(hand, [["AS", "2S", "3S"], ["7H", "7D", "7C"]]) is None
    assert "not a meld" in check_arrangement(hand, [["AS", "2S", "KD"]])
    assert "not in the hand" in check_arrangement(hand, [["AS", "2S", "3S", "4S"]])
    assert "more than one meld" in check_arrangement(
        "7S 8S 9S 7H 7D".split(), [["7S", "8S", "9S"], ["7S", "7H", "7D"]]
    )
    assert "not a card" in check_arrangement(hand, [["AS", "2S", "ZZ"]])
    assert "appears more than once" in check_arrangement(["AS", "AS"], [])
    assert count(hand, [["AS", "2S", "3S"]]) == 7 * 3 + 40


def test_bad_input_names_the_problem():
    with pytest.raises(CardError, match="'ZS' is not a card"):
        deadwood(["AS", "ZS"])
    with pytest.raises(ValueError, match="7H appears more than once"):
        deadwood(["7H", "AS", "7H"])
    with pytest.raises(ValueError, match="appears more than once"):
        best_melds([Card(7, "H"), Card(7, "H")])


def test_inputs_strings_generators_and_fresh_card_objects():
    text = "AS 2S 3S 7H 7D 7C KD KH QC JC".split()
    fresh = [Card(c.rank, c.suit) for c in parse_cards(text)]  # not the canonical objects
    assert deadwood(text) == deadwood(fresh) == deadwood(c for c in text) == 40
    assert deadwood(" ".join(text)) == 40 and best_melds(" ".join(text)) == best_melds(text)
    assert check_arrangement(" ".join(text), ["AS 2S 3S", ["7H", "7D", "7C"]]) is None
    assert check_arrangement(text, None) == "no melds were given"
    assert deadwood([]) == 0 and arrange([]) == (0, [], [])
    eleven = "AS 2S 3S 4H 4D 4C 9C TC JC KH QD".split()
    assert best_melds(c for c in eleven) == best_melds(eleven)
    assert best_discard(iter(eleven)) == best_discard(eleven)
    with pytest.raises(ValueError, match="at least one card"):
        best_discard([])


# --- properties against the brute-force reference -----------------------------------------


def check_against_brute(cards):
    expected = bf.deadwood(cards)
    assert deadwood(cards) == expected
    melds, dead = best_melds(cards)
    if len(cards) == 11:
        discard, melds2, dead2 = best_discard(cards)
        assert (melds, dead) == (melds2, dead2)
        kept = [c for c in cards if c != discard]
        assert len(kept) == 10
    else:
        kept = list(cards)
    assert_valid_arrangement(kept, melds, dead, expected)


@pytest.mark.parametrize(("size", "dense", "examples"), [
    pytest.param(10, False, 300, id="G-2.3-uniform-ten"),
    pytest.param(10, True, 300, id="G-2.3-dense-ten"),
    pytest.param(11, False, 150, id="G-7.2-uniform-eleven"),
    pytest.param(11, True, 100, id="G-7.2-dense-eleven"),
])
def test_hands_match_brute_force(size, dense, examples):
    """Ten cards (G-2.3) and eleven with the best discard (G-7.2), spread over the pack or
    dense in a few ranks and suits: the same as brute force, ``examples`` hands each."""
    settings(max_examples=examples, deadline=None)(given(hand_of(size, dense=dense))(check_against_brute))()


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 13).flatmap(lambda n: hand_of(n, dense=True)))
def test_g_2_3_any_size_without_discard_matches_brute_force(cards):
    if len(cards) != 11:
        expected = bf.deadwood(cards)
        assert deadwood(cards) == expected
    dw, melds, dead = arrange(cards)
    assert_valid_arrangement(cards, melds, dead, dw)
    assert (all_melded(cards) is not None) == (dw == 0)


@settings(max_examples=100, deadline=None)
@given(hand_of(10, dense=True), st.randoms(use_true_random=False))
def test_g_2_4_result_does_not_depend_on_card_order(cards, rnd):
    shuffled = cards[:]
    rnd.shuffle(shuffled)
    assert best_melds(shuffled) == best_melds(cards)
    assert deadwood(shuffled) == deadwood(cards)


def test_benchmark_script_runs_and_prints_rates(capsys):
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "deadwood.py"
    runpy.run_path(str(path), run_name="bench")["main"](["--hands", "30", "--repeat", "1"])
    out = capsys.readouterr().out
    assert out.count("hands/s") == 8 and "defences/s" in out
