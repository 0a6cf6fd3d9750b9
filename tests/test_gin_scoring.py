"""Scoring (G-12) with the spec's worked examples through the presets; dealer rotation
(G-3.3), the game (G-14), shutouts (G-15) and the tournament match (G-16)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from gin_helpers import act, event, kinds, position

from rummy.gin.bots import BasicPlayer
from rummy.gin.engine import ENGINE
from rummy.gin.rules import preset
from rummy.gin.scoring import hollywood_enter, score_hand, tally_game
from rummy.gin.state import MatchPhase
from rummy.play import play_match

KNOCKER_4 = "7H 8H 9H TH KC KD KS AC AD 2C 9C"  # knock 9C, count 4
DEFENDER_19 = "QC QD QH 5C 5D 5S 6H 3S 4D 6C"  # 19, lays off 6H -> 13
KNOCKER_7 = "7H 8H 9H TH KC KD KS AC 2D 4S 9C"  # knock 9C, count 7
DEFENDER_7 = "QC QD QH 5C 5D 5S AS 2S 3D AD"  # 7, nothing to lay off
GIN = "7H 8H 9H TH KC KD KS AC AD AH 9C"
DEFENDER_22 = "QC QD QS 5C 5D 5S 2S 3D 8S 9S"
KNOCKER_5 = "7H 8H 9H TH KC KD KS AC AD 3C 9C"  # count 5
DEFENDER_17 = "QC QD QH 5C 5D 5S 2S 3D 4S 8D"


def knock(rules, knocker, defender, upcard=None, **kw):
    st = position(rules, hands=(knocker, defender), turn=0, upcard=upcard)
    if kw:
        st = dataclasses.replace(st, **kw)
    return act(st, "knock", 0, "9C")


# --- G-12 worked examples ---------------------------------------------------------------


def test_g_12_example_knock_4_vs_19_with_a_six_laid_off_scores_9():
    st, ev = knock("standard", KNOCKER_4, DEFENDER_19)
    r = st.hand.result
    assert [str(c) for c, _ in r.layoffs] == ["6H"]
    assert (r.outcome, r.winner, r.knocker_count, r.defender_count) == ("knock", 0, 4, 13)
    assert (r.points, r.boxes) == (9, 1)
    assert st.scores == (9, 0) and st.boxes == (1, 0) and st.hands_won == (1, 0)
    data = event(ev, "hand_scored").data
    assert data["points"] == 9 and data["layoffs"] == [["6H", data["layoffs"][0][1]]]


@pytest.mark.parametrize("name, boxes", [("standard", 1), ("knock_card", 2), ("pagat_classic", 1)])
def test_g_12_example_undercut_7_vs_7(name, boxes):
    st, _ = knock(name, KNOCKER_7, DEFENDER_7, upcard="TS")
    r = st.hand.result
    bonus = preset(name).undercut_bonus
    assert (r.outcome, r.winner, r.points, r.boxes) == ("undercut", 1, 0 + bonus, boxes)
    assert st.scores == (0, bonus) and st.boxes == (0, boxes)


@pytest.mark.parametrize("name, points", [("standard", 47), ("knock_card", 47), ("pagat_classic", 42)])
def test_g_12_example_gin_with_defender_22(name, points):
    st, ev = knock(name, GIN, DEFENDER_22, upcard="TS")
    r = st.hand.result
    assert (r.outcome, r.defender_count, r.points, r.boxes) == ("gin", 22, points, 1)
    assert "gin" in kinds(ev)


def test_g_12_example_knock_card_6s_spades_double():
    rules = preset("knock_card").replace(spades_double=True)
    st, _ = knock(rules, KNOCKER_5, DEFENDER_17, upcard="6S")
    r = st.hand.result
    assert st.hand.knock_limit == 6
    assert (r.knocker_count, r.defender_count, r.points, r.boxes, r.doubled) == (5, 17, 24, 1, True)
    boxes_too = rules.replace(spades_double_boxes=True)
    st, _ = knock(boxes_too, KNOCKER_5, DEFENDER_17, upcard="6S")
    assert (st.hand.result.points, st.hand.result.boxes) == (24, 2)
    st, _ = knock(rules, KNOCKER_5, DEFENDER_17, upcard="6D")  # not a spade
    assert (st.hand.result.points, st.hand.result.doubled) == (12, False)


def test_g_12_1_undercut_on_tie_and_its_switch():
    assert score_hand(preset("standard"), knocker=0, kind="knock", knocker_count=7,
                      defender_count=7).outcome == "undercut"
    s = score_hand(preset("standard").replace(undercut_on_tie=False), knocker=0, kind="knock",
                   knocker_count=7, defender_count=7)
    assert (s.outcome, s.winner, s.points) == ("knock", 0, 0)


def test_g_12_3_extra_boxes_for_gin_and_big_gin():
    rules = preset("knock_card").replace(extra_boxes_gin=2)
    for kind in ("gin", "big_gin"):
        s = score_hand(rules, knocker=1, kind=kind, knocker_count=0, defender_count=10)
        assert (s.winner, s.boxes) == (1, 3)
    assert score_hand(rules, knocker=1, kind="big_gin", knocker_count=0,
                      defender_count=10).points == 41


# --- G-3.3 dealer rotation ---------------------------------------------------------------


@pytest.mark.parametrize(
    "rotation, after_knock, after_undercut",
    [("alternate", 1, 1), ("winner_deals", 0, 1), ("loser_deals", 1, 0)],
)
def test_g_3_3_next_dealer(rotation, after_knock, after_undercut):
    rules = preset("standard").replace(dealer_rotation=rotation)
    st, _ = knock(rules, KNOCKER_4, DEFENDER_19)  # dealer 0, seat 0 wins
    assert st.dealer == after_knock and ENGINE.decks_to_deal(st) == 1
    st, _ = knock(rules, KNOCKER_7, DEFENDER_7)  # dealer 0, seat 1 undercuts
    assert st.dealer == after_undercut


# --- G-14 the game -------------------------------------------------------------------------


def test_g_14_1_and_14_4_game_ends_at_the_target_with_the_tally():
    st, ev = knock("standard", KNOCKER_4, DEFENDER_19, scores=(95, 40), boxes=(4, 2))
    assert st.phase is MatchPhase.OVER and st.winner == 0
    g = st.game_results[-1]
    assert g.hand_points == (104, 40) and g.boxes == (5, 2) and g.box_points == (125, 50)
    assert g.game_bonus == (100, 0) and not g.shutout
    assert g.totals == (329, 90) and g.margin == 239
    assert kinds(ev)[-2:] == ["game_over", "match_over"]
    assert event(ev, "game_over").data["totals"] == [329, 90]
    assert ENGINE.is_over(st) and ENGINE.decks_to_deal(st) == 0 and ENGINE.to_act(st) == ()


def test_g_14_2_boxes_do_not_count_toward_the_target_unless_immediate():
    st, _ = knock("standard", KNOCKER_4, DEFENDER_19, scores=(90, 10), boxes=(10, 1))
    assert st.scores == (99, 10) and st.phase is MatchPhase.DEAL
    rules = preset("standard").replace(immediate_boxes=True)
    st, ev = knock(rules, KNOCKER_4, DEFENDER_19, scores=(40, 10), boxes=(1, 1))
    assert st.scores == (49, 10) and st.phase is MatchPhase.DEAL  # 49 + 2 boxes = 99
    st, ev = knock(rules, KNOCKER_4, DEFENDER_19, scores=(42, 10), boxes=(1, 1))
    assert st.phase is MatchPhase.OVER and "game_over" in kinds(ev)  # 51 + 50 = 101


def test_g_14_3_only_the_hand_winner_scores():
    st, _ = knock("standard", KNOCKER_7, DEFENDER_7, scores=(50, 50), boxes=(2, 2))
    assert st.scores == (50, 75) and st.boxes == (2, 3)


# --- G-15 shutout ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "mode, totals, margin",
    [
        ("double_hand_points", (208 + 125 + 100, 0), 433),
        ("game_bonus_200", (104 + 125 + 200, 0), 429),
        ("double_margin", (329, 0), 658),
        ("none", (329, 0), 329),
    ],
)
def test_g_15_shutout_variants(mode, totals, margin):
    rules = preset("standard").replace(shutout=mode)
    st, _ = knock(rules, KNOCKER_4, DEFENDER_19, scores=(95, 0), boxes=(4, 0))
    g = st.game_results[-1]
    assert g.shutout and g.totals == totals and g.margin == margin


def test_g_15_shutout_needs_the_loser_to_have_no_hand_points():
    g = tally_game(preset("standard"), winner=0, hand_points=(100, 1), boxes=(4, 1))
    assert not g.shutout and g.hand_points == (100, 1)
    g = tally_game(preset("standard"), winner=1, hand_points=(0, 120), boxes=(0, 5))
    assert g.shutout and g.hand_points == (0, 240) and g.box_points == (0, 125)  # G-22.4


# --- G-16 tournament -------------------------------------------------------------------------


def test_g_16_1_tournament_game_to_250_then_the_next_game():
    st, ev = knock("tournament", KNOCKER_4, DEFENDER_19, scores=(245, 100), boxes=(9, 4),
                   match_totals=(0, 0))
    assert "game_over" in kinds(ev) and "match_over" not in kinds(ev)
    assert st.phase is MatchPhase.DEAL and st.game_number == 2 and st.games_won == (1, 0)
    assert st.scores == (0, 0) and st.boxes == (0, 0) and st.hand_number == 0
    assert st.match_totals == st.game_results[0].totals
    # G-16.2: the first dealer of each game alternates
    assert st.game_first_dealer == 1 and st.dealer == 1


def test_g_16_1_best_of_five_ends_at_three_games():
    assert preset("tournament").games_to_win == 3
    st, ev = knock("tournament", KNOCKER_4, DEFENDER_19, scores=(245, 0), boxes=(9, 0),
                   games_won=(2, 1), match_totals=(900, 500))
    assert st.phase is MatchPhase.OVER and st.winner == 0 and st.games_won == (3, 1)
    assert event(ev, "match_over").data["games_won"] == [3, 1]
    assert st.match_totals[0] == 900 + st.game_results[-1].totals[0]


# --- G-17 Hollywood --------------------------------------------------------------------------


def test_g_17_first_win_in_game_1_second_in_1_2_third_in_all_three():
    rules = preset("standard").replace(match="hollywood")
    cols = ENGINE.new_match(rules, 2).columns
    assert len(cols) == 3
    entries = []
    for points in (10, 20, 30, 5):
        cols, entered, closed = hollywood_enter(rules, cols, winner=0, points=points, boxes=1)
        entries.append(entered)
        assert closed == []
    assert entries == [[0], [0, 1], [0, 1, 2], [0, 1, 2]]
    assert [c.scores for c in cols] == [(65, 0), (55, 0), (35, 0)]
    assert [c.boxes for c in cols] == [(4, 0), (3, 0), (2, 0)]
    cols, entered, _ = hollywood_enter(rules, cols, winner=1, points=7, boxes=1)
    assert entered == [0]  # the other player's first win: game 1 only


def test_g_17_closed_game_takes_no_entries_and_a_shut_out_player_starts_in_the_next():
    rules = preset("standard").replace(match="hollywood")
    cols = ENGINE.new_match(rules, 2).columns
    cols, _, _ = hollywood_enter(rules, cols, winner=0, points=60, boxes=1)
    cols, entered, closed = hollywood_enter(rules, cols, winner=0, points=50, boxes=1)
    assert entered == [0, 1] and closed == [0]
    g1 = cols[0].result
    assert g1.winner == 0 and g1.shutout and g1.hand_points == (220, 0)  # G-15 per game
    assert g1.totals == (220 + 50 + 100, 0)
    cols, entered, closed = hollywood_enter(rules, cols, winner=1, points=5, boxes=1)
    assert entered == [1] and closed == []  # shut out of game 1: first entry in game 2
    cols, entered, _ = hollywood_enter(rules, cols, winner=1, points=5, boxes=1)
    assert entered == [1, 2]
    assert cols[0].scores == (110, 0)  # closed: unchanged


def test_g_17_a_hollywood_match_ends_when_all_three_games_are_closed():
    rules = preset("standard").replace(match="hollywood")
    state = ENGINE.new_match(rules, 2)
    state, steps = play_match(ENGINE, state, [BasicPlayer(), BasicPlayer()], random.Random(4))
    assert ENGINE.is_over(state) and all(c.closed for c in state.columns)
    overs = [e for _, evs in steps for e in evs if e.kind == "game_over"]
    assert sorted(e.data["game"] for e in overs) == [1, 2, 3]
    totals = [sum(c.result.totals[s] for c in state.columns) for s in (0, 1)]
    assert state.match_totals == tuple(totals)
    assert state.winner == (0 if totals[0] > totals[1] else 1)
    # every column's entries are a subset of the match's wins, game 1 holds them all
    assert state.columns[0].scores[0] <= state.scores[0]
    assert sum(state.games_won) == 3
