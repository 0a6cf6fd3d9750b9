"""Melds (C-1, C-2), contracts (C-3) and the rules value (C-14)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from contract_helpers import cards
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.cards import ALL_CARDS
from rummy.contract.contracts import SEED_CONTRACTS, Contract, contract_problem, find_contract
from rummy.contract.melds import arrange, is_meld, layoff_problem, meld_problem
from rummy.contract.rules import ContractRules, RulesError, preset, rules_from_dict, rules_to_dict

R = ContractRules()


@pytest.mark.parametrize(
    "text, why",
    [
        ("7H 7H", "at least 3"),
        ("7H 7H 7S 7S 7D 7D 7C 7C 7C", "at most 8"),
        ("7H 8H 9S", "suits differ"),
        ("7H 7H 8H 9H", "each rank once"),
        ("7H 9H TH", "not consecutive"),
        ("KH AH 2H", "not both"),
    ],
)
def test_c_2_not_a_meld_says_why(text, why):
    assert why in str(meld_problem(cards(text), R))


@pytest.mark.parametrize(
    "text",
    ["7H 7H 7S", "7H 7H 7S 7S 7D 7D 7C 7C", "AH 2H 3H", "QH KH AH", "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"],
)
def test_c_1_c_2_melds_for_two_decks(text):
    assert meld_problem(cards(text), R) is None


def test_c_2_3_ace_modes():
    low_only = replace(R, ace_in_sequences="low_only")
    corner = replace(R, ace_in_sequences="around_corner")
    assert "low only" in str(meld_problem(cards("QH KH AH"), low_only))
    assert is_meld(cards("KH AH 2H"), corner)
    assert arrange(cards("2H KH AH"), corner) == cards("KH AH 2H")
    assert arrange(cards("AH KH QH"), R) == cards("QH KH AH")


def test_c_2_1_sequences_of_four_under_american_preset():
    american = preset("american_may_i")
    assert "at least 4" in str(meld_problem(cards("4H 5H 6H"), american))
    assert is_meld(cards("4H 5H 6H 7H"), american)


def test_c_5_2_layoff_limits():
    assert layoff_problem(cards("7H 7H 7S 7S 7D 7D 7C"), cards("7C")[0], R) is None
    assert "8" in str(layoff_problem(cards("7H 7H 7S 7S 7D 7D 7C 7C"), cards("7C")[0], R))
    assert "already holds" in str(layoff_problem(cards("4H 5H 6H"), cards("5H")[0], R))
    assert layoff_problem(cards("QH KH AH"), cards("JH")[0], R) is None
    assert layoff_problem(cards("QH KH AH"), cards("2H")[0], R) is not None  # C-2.3 no wrap


def test_c_3_contract_table_is_the_seed_s():
    assert [(c.sets, c.sequences) for c in SEED_CONTRACTS] == [(2, 0), (1, 1), (0, 2), (3, 0), (2, 1)]
    assert R.cards_per_deal == (10, 10, 10, 10, 12)


def test_c_3_1_no_more_and_no_less():
    two_sets = SEED_CONTRACTS[0]
    assert "no more and no less" in str(contract_problem(
        [cards("7H 7S 7D"), cards("8H 8S 8D"), cards("9H 9S 9D")], two_sets, R))
    assert "one turn" in str(contract_problem([cards("7H 7S 7D")], two_sets, R))
    assert "no more and no less" in str(contract_problem([cards("7H 8H 9H"), cards("7S 7D 7C")], two_sets, R))
    assert contract_problem([cards("7H 7S 7D"), cards("8H 8S 8D")], two_sets, R) is None


def test_c_3_2_no_duplicate_ranks_or_suits():
    assert "different ranks" in str(contract_problem([cards("JH JS JD"), cards("JC JH JS")], SEED_CONTRACTS[0], R))
    assert "different suits" in str(contract_problem(
        [cards("2H 3H 4H"), cards("8H 9H TH")], SEED_CONTRACTS[2], R))
    # Deal 5: the two sets differ, the sequence is free.
    assert contract_problem(
        [cards("JH JS JD"), cards("4C 4H 4S"), cards("2H 3H 4H")], SEED_CONTRACTS[4], R) is None
    loose = replace(R, contract_distinct=False)
    assert contract_problem([cards("JH JS JD"), cards("JC JH JS")], SEED_CONTRACTS[0], loose) is None


def test_c_3_find_contract_needs_distinct_groups():
    hand = cards("JH JS JD JC JH JS 2C 9D")
    assert find_contract(hand, SEED_CONTRACTS[0], R) is None  # only jacks: one set of rank J
    assert find_contract(hand, SEED_CONTRACTS[0], replace(R, contract_distinct=False)) is not None


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(ALL_CARDS), min_size=6, max_size=20), st.sampled_from(SEED_CONTRACTS))
def test_c_3_find_contract_finds_only_valid_contracts_from_the_hand(hand, contract):
    groups = find_contract(hand, contract, R)
    if groups is not None:
        assert contract_problem(groups, contract, R) is None
        pool = list(hand)
        for c in (c for g in groups for c in g):
            pool.remove(c)  # the groups are a sub-multiset of the hand


def test_c_14_rules_round_trip_and_presets():
    for name in ("seed_002", "american_may_i"):
        r = preset(name)
        assert rules_from_dict(rules_to_dict(r)) == r
    assert preset("american_may_i").after_buy_turn == "resume"
    assert preset("american_may_i").min_sequence_len == 4
    assert rules_from_dict({"preset": "american_may_i"}) == preset("american_may_i")
    r = rules_from_dict({"card_values": {"A": 11}, "max_buys_per_deal": 3, "contracts": [{"sets": 2}] * 5})
    assert r.value(1) == 11 and r.value(13) == 10 and r.max_buys_per_deal == 3
    assert R.max_set_len == 8


def test_c_14_bad_rules_reported_all_at_once():
    with pytest.raises(RulesError) as err:
        rules_from_dict({
            "after_buy_turn": "sometimes",
            "min_sequence_len": "4",
            "colour": "red",
            "jokers": 2,
            "contracts": [{"sets": 2, "runs": 1}],
            "refill_shuffle": 1,
        })
    text = str(err.value)
    for name in ("after_buy_turn", "min_sequence_len", "colour", "jokers", "contracts", "refill_shuffle"):
        assert name in text
    assert len(err.value.problems) == 6
    with pytest.raises(RulesError, match="cards_per_deal"):
        rules_from_dict({"cards_per_deal": [10, 10]})
    with pytest.raises(RulesError, match="max_set_len"):
        rules_from_dict({"max_set_len": 9})
    with pytest.raises(ValueError, match="unknown contract rules preset"):
        preset("liverpool")
    assert Contract.from_dict({"sets": 1, "seqs": 1}) == SEED_CONTRACTS[1]


def test_c_14_cards_per_deal_is_bounded_by_the_packs_not_by_a_cap():
    from rummy.actions import TABLE, Action
    from rummy.cards import new_deck
    from rummy.contract.engine import ENGINE

    big = rules_from_dict({"cards_per_deal": [25] * 5})  # 4 x 25 + upcard = 101 <= 104
    assert big.cards_per_deal == (25,) * 5
    state = ENGINE.new_match(big, 4)
    state, _ = ENGINE.apply(state, Action("deal", TABLE, cards=tuple(new_deck(2))))
    assert [len(h) for h in state.hands] == [25] * 4 and len(state.stock) == 3
    with pytest.raises(RulesError, match="do not fit"):
        rules_from_dict({"cards_per_deal": [26] * 5})  # 105 cards for two packs
    assert rules_from_dict({"cards_per_deal": [51] * 5, "num_players": 2}).cards_per_deal[0] == 51
    with pytest.raises(RulesError, match="positive"):
        rules_from_dict({"cards_per_deal": [0, 10, 10, 10, 10]})
    with pytest.raises(ValueError, match="do not fit"):
        ENGINE.new_match(rules_from_dict({"cards_per_deal": [20] * 5}), 6)  # 121 > 104


def test_one_rules_error_for_both_games():
    from rummy.errors import RulesError as Shared
    from rummy.gin.rules import RulesError as GinRulesError
    from rummy.gin.rules import rules_from_dict as gin_rules

    assert RulesError is Shared is GinRulesError
    with pytest.raises(Shared) as err:
        gin_rules({"colour": "red"})
    assert err.value.game == "gin" and err.value.problems
