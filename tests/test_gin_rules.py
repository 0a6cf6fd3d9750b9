"""Rules config (G-20) and presets (G-21)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.games import get_engine
from rummy.gin.engine import ENGINE
from rummy.gin.rules import (
    PRESETS,
    GinRules,
    RulesError,
    preset,
    preset_name,
    rules_from_dict,
    rules_to_dict,
)

G20_PARAMETERS = {
    "hand_size", "ace_in_runs", "dealer_rotation", "redeal_after_dead_hand", "refused_upcard",
    "knock_limit_mode", "knock_limit", "ace_knock_card", "spades_double", "spades_double_boxes",
    "forbid_discarding_taken_card", "discard_pile_visible", "illegal_knock",
    "knocker_arrangement", "defender_layoffs", "undercut_bonus", "undercut_on_tie", "gin_bonus",
    "big_gin_bonus", "box_bonus", "extra_boxes_undercut", "extra_boxes_gin", "immediate_boxes",
    "game_target", "game_bonus", "shutout", "dead_hand_rule", "stock_floor", "match",
}


def test_g_20_every_parameter_is_present_with_the_spec_default():
    names = {f.name for f in dataclasses.fields(GinRules)}
    assert G20_PARAMETERS <= names
    r = GinRules()
    assert (r.hand_size, r.knock_limit, r.stock_floor) == (10, 10, 2)
    assert (r.undercut_bonus, r.gin_bonus, r.big_gin_bonus, r.box_bonus) == (25, 25, 31, 25)
    assert (r.game_target, r.game_bonus) == (100, 100)
    assert r.dealer_rotation == "alternate" and r.redeal_after_dead_hand == "same_dealer"
    assert r.refused_upcard == "stays_in_pile" and r.ace_knock_card == "gin_only"
    assert r.illegal_knock == "expose_and_force" and r.dead_hand_rule == "fifty_first"
    assert r.shutout == "double_hand_points" and r.match == "single_game"
    assert r.forbid_discarding_taken_card and r.undercut_on_tie
    assert not (r.spades_double or r.spades_double_boxes or r.immediate_boxes)


def test_g_21_presets():
    assert set(PRESETS) == {"standard", "knock_card", "tournament", "pagat_classic"}
    assert preset("standard") == GinRules()
    kc = preset("knock_card")
    assert kc.knock_limit_mode == "knock_card" and kc.extra_boxes_undercut == 1
    assert kc.ace_knock_card == "gin_only" and not kc.spades_double and kc.game_target == 100
    t = preset("tournament")
    assert (t.match, t.match_games, t.game_target, t.games_to_win) == ("best_of", 5, 250, 3)
    p = preset("pagat_classic")
    assert (p.gin_bonus, p.undercut_bonus, p.box_bonus, p.big_gin_bonus) == (20, 10, 20, None)
    assert p.shutout == "game_bonus_200" and p.dealer_rotation == "winner_deals"
    assert p.dead_hand_rule == "pagat"


def test_g_21_unknown_preset_is_named():
    with pytest.raises(RulesError, match="unknown preset 'oklahoma'"):
        preset("oklahoma")


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_g_20_round_trip_through_dict(name):
    r = preset(name)
    d = rules_to_dict(r)
    assert rules_from_dict(d) == r
    assert preset_name(rules_from_dict(d)) == name
    assert ENGINE.rules_from_dict(ENGINE.rules_to_dict(r)) == r


def test_g_20_partial_dict_starts_from_a_preset():
    r = rules_from_dict({"preset": "knock_card", "game_target": 150})
    assert r.knock_limit_mode == "knock_card" and r.game_target == 150


def test_g_20_all_bad_parameters_are_reported_at_once():
    with pytest.raises(RulesError) as info:
        rules_from_dict(
            {
                "gin_bonus": "25",
                "knock_limt": 9,
                "shutout": "skunk",
                "spades_double": 1,
                "knock_limit": 11,
                "big_gin_bonus": True,
            }
        )
    problems = info.value.problems
    text = str(info.value)
    assert len(problems) == 6
    for name in ("gin_bonus", "'knock_limt'", "shutout", "spades_double", "knock_limit",
                 "big_gin_bonus"):
        assert name in text


def test_g_10_2_big_gin_can_be_switched_off_with_null():
    assert rules_from_dict({"big_gin_bonus": None}).big_gin_bonus is None


def test_g_17_hollywood_is_a_match_choice():
    assert rules_from_dict({"match": "hollywood"}).match == "hollywood"
    with pytest.raises(RulesError, match="match must be one of single_game, best_of, hollywood"):
        rules_from_dict({"match": "oklahoma"})


def test_g_20_inconsistent_values_are_refused():
    with pytest.raises(RulesError, match="match_games must be odd"):
        rules_from_dict({"match": "best_of", "match_games": 4})
    with pytest.raises(RulesError, match="leaves no stock"):
        rules_from_dict({"hand_size": 20, "stock_floor": 20})
    with pytest.raises(RulesError, match="table of parameters"):
        rules_from_dict(["standard"])  # type: ignore[arg-type]


def test_g_20_direct_construction_is_checked_too():
    with pytest.raises(RulesError, match="dealer_rotation"):
        GinRules(dealer_rotation="clockwise")


def test_engine_is_registered_as_gin():
    assert get_engine("gin") is ENGINE and ENGINE.name == "gin"
    assert ENGINE.preset("tournament").game_target == 250


JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 300), st.text(max_size=12),
    st.lists(st.integers(), max_size=2), st.floats(allow_nan=False),
)


@settings(max_examples=150, deadline=None)
@given(data=st.dictionaries(st.sampled_from(sorted(G20_PARAMETERS | {"preset", "bogus"})), JUNK))
def test_g_20_any_junk_gives_rules_or_a_rules_error_naming_each_bad_parameter(data):
    try:
        r = rules_from_dict(data)
    except RulesError as exc:
        assert exc.problems
        for problem in exc.problems:
            assert any(name in problem for name in (*G20_PARAMETERS, "preset", "bogus",
                                                    "hand_size", "match_games"))
    else:
        assert rules_from_dict(rules_to_dict(r)) == r
