"""The hand as a state machine: one test or more per rule G-1 … G-11 and G-13."""

from __future__ import annotations

import pytest
from gin_helpers import (
    act,
    cards,
    deal_order,
    dealt,
    event,
    hand_cards,
    kinds,
    position,
    reason_line,
)

from rummy.actions import TABLE, Action, ActionError
from rummy.cards import ALL_CARDS, parse_card
from rummy.gin.engine import ENGINE
from rummy.gin.state import HandPhase, MatchPhase

# Position A: seat 0 holds 11 cards; only the 9C discard knocks (count 4: AC AD 2C).
KNOCKER_A = "7H 8H 9H TH KC KD KS AC AD 2C 9C"
DEFENDER_A = "QC QD QH 5C 5D 5S 6H 3S 4D 6C"  # 19, lays off 6H -> 13

NONDEALER = "2C 3D 4H 5S 6C 7D 8H 9S TC JD"
DEALER = "2H 3S 4D 5C 6H 7S 8D 9C TH JS"


def knock_a(rules="standard", **kw):
    return position(rules, hands=(KNOCKER_A, DEFENDER_A), turn=0, **kw)


# --- G-1 players and cards ---------------------------------------------------------------


def test_g_1_1_a_deal_needs_one_full_pack_of_52():
    st = ENGINE.new_match(ENGINE.preset("standard"), 2)
    with pytest.raises(ActionError, match="52 cards"):
        ENGINE.apply(st, Action("deal", TABLE, cards=ALL_CARDS[:51]))
    with pytest.raises(ActionError, match="52 cards"):
        ENGINE.apply(st, Action("deal", TABLE, cards=ALL_CARDS[:51] + ALL_CARDS[:1]))
    with pytest.raises(ValueError, match="2 players"):
        ENGINE.new_match(ENGINE.preset("standard"), 3)


def test_g_1_2_card_values_in_the_knock_count():
    # deadwood AC (1) + 9D (9) = 10 with two melds; a king would be 10.
    st = position("standard", hands=("7H 8H 9H TH KC KD KS AC 9D QS 2D", DEFENDER_A), turn=0)
    st2, ev = act(st, "knock", 0, "QS", melds=("7H 8H 9H TH", "KC KD KS"))
    assert event(ev, "illegal_knock").data["count"] == 1 + 9 + 2  # 12 > 10: illegal
    _, ev = act(st, "knock", 0, "2D")
    assert event(ev, "illegal_knock").data["count"] == 1 + 9 + 10  # the queen counts 10


def test_g_1_3_ace_is_low_only_no_wrap_around():
    hand = "QS KS AS 7H 8H 9H KC KD KH 2C 4C"
    st = position("standard", hands=(hand, DEFENDER_A), turn=0)
    _, ev = act(st, "knock", 0, "4C", melds=("QS KS AS", "7H 8H 9H", "KC KD KH"))
    assert "not a meld" in reason_line(event(ev, "illegal_knock").data)
    _, ev = act(st, "knock", 0, "4C", melds=("KS AS 2C", "7H 8H 9H"))
    assert "not a meld" in reason_line(event(ev, "illegal_knock").data)


# --- G-2 melds and deadwood ----------------------------------------------------------------


def test_g_2_1_sets_and_runs_are_melds_and_g_2_3_count_is_the_deadwood():
    st, ev = act(knock_a(), "knock", 0, "9C")
    r = st.hand.result
    assert r.knocker_count == 4
    assert set(r.knocker_melds) == {cards("7H 8H 9H TH"), cards("KC KD KS")}
    assert sorted(r.knocker_deadwood) == sorted(cards("AC AD 2C"))


def test_g_2_2_a_card_in_two_melds_makes_the_knock_illegal():
    st, ev = act(knock_a(), "knock", 0, "9C", melds=("7H 8H 9H TH", "KC KD KS", "TH 9H 8H"))
    assert "more than one meld" in reason_line(event(ev, "illegal_knock").data)


def test_g_2_4_a_declared_suboptimal_arrangement_is_used_and_changes_layoffs():
    knocker = "4H 5H 6H 7H KC KD KS AC AD 2C 9C"
    defender = "QC QD QH 5C 5D 5S 3H 9S 2S 8D"
    st = position("standard", hands=(knocker, defender), turn=0)
    auto, _ = act(st, "knock", 0, "9C")
    assert auto.hand.result.knocker_count == 4
    assert [str(c) for c, _ in auto.hand.result.layoffs] == ["3H"]
    assert auto.hand.result.defender_count == 19
    declared, ev = act(st, "knock", 0, "9C", melds=("5H 6H 7H", "KC KD KS"))
    r = declared.hand.result
    assert event(ev, "knocked").data["count"] == 8
    assert (r.knocker_count, r.defender_count, r.layoffs) == (8, 22, ())
    assert (r.outcome, r.points) == ("knock", 14)


def test_g_2_4_declared_cards_must_be_in_the_hand_an_input_error_not_an_illegal_knock():
    with pytest.raises(ActionError, match="QS in your declared melds is not in your hand"):
        act(knock_a(), "knock", 0, "9C", melds=("7H 8H 9H TH", "KC KD KS QS"))
    with pytest.raises(ActionError, match="9C in your declared melds is your discard"):
        act(knock_a(), "knock", 0, "9C", melds=("7H 8H 9H TH", "9C 9H 9S"))


def test_g_2_4_agent_arrangement_lists_knocks_with_their_melds():
    rules = ENGINE.preset("standard").replace(knocker_arrangement="agent")
    st = knock_a(rules)
    (k,) = [a for a in ENGINE.legal_actions(st, 0) if a.kind == "knock"]
    assert k.card == parse_card("9C") and set(k.melds) == {cards("7H 8H 9H TH"), cards("KC KD KS")}
    with pytest.raises(ActionError, match="declare your melds"):
        act(st, "knock", 0, "9C")
    done, _ = ENGINE.apply(st, k)
    assert done.hand.result.knocker_count == 4


# --- G-3 the deal ----------------------------------------------------------------------------


def test_g_3_2_deal_alternates_from_the_non_dealer_then_upcard_then_stock():
    order = deal_order(NONDEALER, DEALER, "KH", stock_top="QD")
    for dealer in (0, 1):
        st = ENGINE.new_match(ENGINE.preset("standard"), 2, first_dealer=dealer)
        st, ev = ENGINE.apply(st, Action("deal", TABLE, cards=order))
        h = st.hand
        assert h.hands[1 - dealer] == cards(NONDEALER)
        assert h.hands[dealer] == cards(DEALER)
        assert h.upcard == parse_card("KH") and h.discard_pile == (parse_card("KH"),)
        assert len(h.stock) == 31 and h.stock[0] == parse_card("QD")
        assert h.turn == 1 - dealer and h.phase is HandPhase.UPCARD
        assert event(ev, "dealt").data["upcard"] == "KH"
        assert hand_cards(h) == {c: 1 for c in ALL_CARDS}


def test_g_3_1_first_dealer_is_explicit_and_no_second_deal_during_a_hand():
    st = dealt(nondealer=NONDEALER, dealer=DEALER, upcard="KH", first_dealer=1)
    assert st.hand.dealer == 1 and ENGINE.decks_to_deal(st) == 0
    with pytest.raises(ActionError, match="no deal now"):
        ENGINE.apply(st, Action("deal", TABLE, cards=ALL_CARDS))
    with pytest.raises(ActionError, match="only the table deals"):
        ENGINE.apply(ENGINE.new_match(ENGINE.preset("standard")), Action("deal", 0, cards=ALL_CARDS))


# --- G-4 the upcard option -------------------------------------------------------------------


def test_g_4_1_the_non_dealer_is_offered_the_upcard_first():
    st = dealt(nondealer=NONDEALER, dealer=DEALER, upcard="KH")
    assert ENGINE.to_act(st) == (1,)
    assert [a.kind for a in ENGINE.legal_actions(st, 1)] == ["take_upcard", "pass_upcard"]
    assert ENGINE.legal_actions(st, 0) == []
    with pytest.raises(ActionError, match="not seat 0's turn"):
        act(st, "take_upcard", 0)
    with pytest.raises(ActionError, match="not possible now"):
        act(st, "draw_stock", 1)


def test_g_4_2_taker_discards_another_card_then_the_dealer_plays_a_normal_turn():
    st = dealt(nondealer=NONDEALER, dealer=DEALER, upcard="KH")
    st, ev = act(st, "take_upcard", 1)
    assert kinds(ev) == ["upcard_taken"] and len(st.hand.hands[1]) == 11
    assert "discard" not in [a.kind for a in ENGINE.legal_actions(st, 1) if a.card == parse_card("KH")]
    with pytest.raises(ActionError, match="just taken"):
        act(st, "discard", 1, "KH")
    st, _ = act(st, "discard", 1, "JD")
    assert st.hand.turn == 0 and st.hand.phase is HandPhase.DRAW
    assert {a.kind for a in ENGINE.legal_actions(st, 0)} == {"draw_stock", "draw_discard"}
    st, ev = act(st, "draw_discard", 0)
    assert event(ev, "drew").data == {"pile": "discard", "card": "JD"}


def test_g_4_3_after_a_pass_the_dealer_may_take_it():
    st = dealt(nondealer=NONDEALER, dealer=DEALER, upcard="KH")
    st, _ = act(st, "pass_upcard", 1)
    assert ENGINE.to_act(st) == (0,) and st.hand.phase is HandPhase.UPCARD
    st, _ = act(st, "take_upcard", 0)
    st, _ = act(st, "discard", 0, "JS")
    assert st.hand.turn == 1 and st.hand.phase is HandPhase.DRAW


def test_g_4_4_both_pass_the_non_dealer_must_draw_from_the_stock():
    st = dealt(nondealer=NONDEALER, dealer=DEALER, upcard="KH", stock_top="QD")
    st, _ = act(st, "pass_upcard", 1)
    st, _ = act(st, "pass_upcard", 0)
    assert st.hand.phase is HandPhase.FORCED_DRAW and st.hand.turn == 1
    assert [a.kind for a in ENGINE.legal_actions(st, 1)] == ["draw_stock"]
    with pytest.raises(ActionError, match="not possible now"):
        act(st, "draw_discard", 1)
    st, ev = act(st, "draw_stock", 1)
    assert event(ev, "drew").data["card"] == "QD"
    st, _ = act(st, "discard", 1, "QD")  # G-5.3: a stock card may be discarded at once
    assert st.hand.turn == 0 and "draw_discard" in {a.kind for a in ENGINE.legal_actions(st, 0)}


@pytest.mark.parametrize("mode", ["stays_in_pile", "set_aside"])
def test_g_4_5_where_the_refused_upcard_goes(mode):
    rules = ENGINE.preset("standard").replace(refused_upcard=mode)
    st = dealt(rules, nondealer=NONDEALER, dealer=DEALER, upcard="KH", stock_top="QD")
    st, _ = act(st, "pass_upcard", 1)
    st, _ = act(st, "pass_upcard", 0)
    st, _ = act(st, "draw_stock", 1)
    st, _ = act(st, "discard", 1, "2C")
    if mode == "stays_in_pile":
        assert st.hand.discard_pile == cards("KH 2C") and st.hand.set_aside == ()
    else:
        assert st.hand.discard_pile == cards("2C") and st.hand.set_aside == cards("KH")
    assert st.hand.upcard == parse_card("KH") and hand_cards(st.hand) == {c: 1 for c in ALL_CARDS}


def test_g_4_2_a_knock_is_possible_on_the_first_turn():
    st = dealt(nondealer="7H 8H 9H TH KC KD KS AD 2C 9C", dealer=DEFENDER_A, upcard="AC")
    st, _ = act(st, "take_upcard", 1)
    assert Action("knock", 1, card=parse_card("9C")) in ENGINE.legal_actions(st, 1)
    st, ev = act(st, "knock", 1, "9C")
    assert st.hand.result.knocker == 1 and st.hand.result.knocker_count == 4


# --- G-5 the normal turn ---------------------------------------------------------------------


def test_g_5_1_exactly_one_draw_per_turn():
    st = position("standard", hands=(NONDEALER, DEALER), turn=0, phase=HandPhase.DRAW)
    st, _ = act(st, "draw_stock", 0)
    with pytest.raises(ActionError, match="not possible now"):
        act(st, "draw_stock", 0)
    with pytest.raises(ActionError, match="not possible now"):
        act(st, "draw_discard", 0)


@pytest.mark.parametrize("forbid", [True, False])
def test_g_5_3_the_card_taken_from_the_pile_may_not_be_discarded_that_turn(forbid):
    rules = ENGINE.preset("standard").replace(forbid_discarding_taken_card=forbid)
    st = position(rules, hands=(NONDEALER, DEALER), turn=0, phase=HandPhase.DRAW, pile="KH")
    st, _ = act(st, "draw_discard", 0)
    legal_cards = {a.card for a in ENGINE.legal_actions(st, 0) if a.kind == "discard"}
    assert (parse_card("KH") in legal_cards) is (not forbid)
    if forbid:
        with pytest.raises(ActionError, match="just taken from the discard pile"):
            act(st, "discard", 0, "KH")
    else:
        st, _ = act(st, "discard", 0, "KH")
        assert st.hand.top_discard == parse_card("KH")


def test_g_5_4_ten_cards_between_turns_eleven_during():
    st = position("standard", hands=(NONDEALER, DEALER), turn=0, phase=HandPhase.DRAW)
    assert [len(h) for h in st.hand.hands] == [10, 10]
    st, _ = act(st, "draw_stock", 0)
    assert [len(h) for h in st.hand.hands] == [11, 10]
    with pytest.raises(ActionError, match="not in your hand"):
        act(st, "discard", 0, "KD")
    st, _ = act(st, "discard", 0, "2C")
    assert [len(h) for h in st.hand.hands] == [10, 10]


def test_g_5_5_only_the_top_discard_is_visible_by_default():
    st = position("standard", hands=(NONDEALER, DEALER), turn=0, phase=HandPhase.DRAW, pile="KH QD AS")
    v = ENGINE.view(st, 1)
    assert v.discard_pile == cards("AS") and v.discard_size == 3 and v.discard_top == parse_card("AS")
    assert v.hand == cards(DEALER) and v.opponent_hand is None and v.visible_hands[0] is None
    assert v.stock_size == len(st.hand.stock) and not hasattr(v, "stock")
    st2 = position(
        ENGINE.preset("standard").replace(discard_pile_visible="all"),
        hands=(NONDEALER, DEALER), turn=0, phase=HandPhase.DRAW, pile="KH QD AS",
    )
    assert ENGINE.view(st2, 1).discard_pile == cards("KH QD AS")
    spectator = ENGINE.view(st, None)
    assert spectator.hand == () and spectator.visible_hands == (None, None)


def test_g_5_6_no_draw_from_the_stock_at_the_floor():
    st = position(
        "standard", hands=(NONDEALER, DEALER), turn=0, phase=HandPhase.DRAW, pile="KH", stock_size=2
    )
    assert [a.kind for a in ENGINE.legal_actions(st, 0)] == ["draw_discard"]
    with pytest.raises(ActionError, match="never drawn"):
        act(st, "draw_stock", 0)


# --- G-6 knock limit -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "upcard, limit", [("7C", 7), ("2S", 2), ("9D", 9), ("TS", 10), ("JC", 10), ("KD", 10), ("AS", 0)]
)
def test_g_6_2_the_knock_card_sets_the_limit(upcard, limit):
    st = dealt("knock_card", nondealer=NONDEALER, dealer=DEALER, upcard=upcard)
    assert st.hand.knock_limit == limit
    assert ENGINE.view(st, 0).knock_limit == limit and ENGINE.view(st, 0).upcard == parse_card(upcard)


def test_g_6_1_standard_limit_is_ten_whatever_the_upcard():
    st = dealt("standard", nondealer=NONDEALER, dealer=DEALER, upcard="2S")
    assert st.hand.knock_limit == 10


def test_g_6_3_ace_knock_card_gin_only_or_one():
    hand = "7H 8H 9H TH KC KD KS AC 2C 3C QS"  # QS discard: gin; count-1 knocks impossible
    st = position("knock_card", hands=(hand, DEFENDER_A), turn=0, upcard="AS")
    assert st.hand.knock_limit == 0
    assert [a.card for a in ENGINE.legal_actions(st, 0) if a.kind == "knock"] == [parse_card("QS")]
    st1 = position("knock_card", hands=("7H 8H 9H TH KC KD KS AD 2C 4S QS", DEFENDER_A),
                   turn=0, upcard="AS")
    assert not [a for a in ENGINE.legal_actions(st1, 0) if a.kind == "knock"]
    _, ev = act(st1, "knock", 0, "4S")
    assert "only gin" in reason_line(event(ev, "illegal_knock").data)
    one = ENGINE.preset("knock_card").replace(ace_knock_card="one")
    st2 = position(one, hands=("7H 8H 9H KC KD KS 2C 3C 4C AD QS", DEFENDER_A), turn=0, upcard="AS")
    assert st2.hand.knock_limit == 1
    assert ENGINE.legal_actions(st2, 0)[-1] == Action("knock", 0, card=parse_card("QS"))


def test_g_6_4_the_limit_stays_when_the_knock_card_is_taken():
    st = dealt("knock_card", nondealer=NONDEALER, dealer=DEALER, upcard="4S")
    st, _ = act(st, "take_upcard", 1)
    st, _ = act(st, "discard", 1, "JD")
    assert st.hand.knock_limit == 4 and st.hand.upcard == parse_card("4S")
    assert ENGINE.view(st, 0).upcard == parse_card("4S")


def test_g_6_6_straight_gin_is_limit_zero():
    rules = ENGINE.preset("standard").replace(knock_limit=0)
    st = position(rules, hands=(KNOCKER_A, DEFENDER_A), turn=0)
    assert not [a for a in ENGINE.legal_actions(st, 0) if a.kind == "knock"]


# --- G-7 knocking ----------------------------------------------------------------------------


def test_g_7_1_knock_only_after_drawing_and_before_discarding():
    st = position("standard", hands=("7H 8H 9H TH KC KD KS AC AD 2C", DEFENDER_A), turn=0,
                  phase=HandPhase.DRAW)
    with pytest.raises(ActionError, match="not possible now"):
        act(st, "knock", 0, "2C")
    st, _ = act(st, "draw_stock", 0)
    st, _ = act(st, "discard", 0, "2C")
    with pytest.raises(ActionError, match="not seat 0's turn"):
        act(st, "knock", 0, "AC")


def test_g_7_2_the_discard_is_excluded_from_the_count():
    st = knock_a()
    knocks = [a for a in ENGINE.legal_actions(st, 0) if a.kind == "knock"]
    assert knocks == [Action("knock", 0, card=parse_card("9C"))]


def test_g_7_3_a_knock_ends_the_hand_with_the_discard_on_the_pile():
    st, ev = act(knock_a(), "knock", 0, "9C")
    assert kinds(ev)[0] == "knocked" and "hand_scored" in kinds(ev)
    assert st.hand.phase is HandPhase.OVER and st.hand.top_discard == parse_card("9C")
    assert st.phase is MatchPhase.DEAL and ENGINE.decks_to_deal(st) == 1
    assert ENGINE.to_act(st) == () and ENGINE.legal_actions(st, 1) == []
    with pytest.raises(ActionError, match="cards must be dealt first"):
        act(st, "draw_stock", 1)
    v = ENGINE.view(st, 1)
    assert v.opponent_hand == st.hand.hands[0]  # the spread is public


def test_g_7_4_knocking_is_optional():
    st = knock_a()
    assert {a.kind for a in ENGINE.legal_actions(st, 0)} == {"discard", "knock"}
    st, _ = act(st, "discard", 0, "9C")
    assert st.hand.phase is HandPhase.DRAW and st.hand.turn == 1


def test_g_7_5_count_zero_is_gin_and_gin_is_not_compulsory():
    hand = "7H 8H 9H TH KC KD KS AC AD AH 9C"
    st = position("standard", hands=(hand, DEFENDER_A), turn=0)
    assert Action("discard", 0, card=parse_card("9C")) in ENGINE.legal_actions(st, 0)
    st2, ev = act(st, "knock", 0, "9C")
    assert "gin" in kinds(ev) and st2.hand.result.outcome == "gin"


# --- G-8 illegal knock -----------------------------------------------------------------------

ILLEGAL = "7H 8H 9H KC KD KS AC AD 2C 9C 8S"  # discard 8S: deadwood 1+1+2+9 = 13


def test_g_8_2_illegal_knock_exposes_the_hand_and_forces_a_later_knock():
    st = position("standard", hands=(ILLEGAL, DEFENDER_A), turn=0, stock="QS 3C")
    st, ev = act(st, "knock", 0, "8S")
    data = event(ev, "illegal_knock").data
    assert data["count"] == 13 and "over the knock limit 10" in reason_line(data)
    h = st.hand
    assert h.top_discard == parse_card("8S") and len(h.hands[0]) == 10
    assert h.exposed == (True, False) and h.must_knock == (True, False)
    assert h.turn == 1 and h.phase is HandPhase.DRAW and h.result is None
    assert ENGINE.view(st, 1).opponent_hand == h.hands[0]
    assert ENGINE.view(st, None).visible_hands[0] == h.hands[0]
    assert ENGINE.view(st, 0).opponent_hand is None
    st, _ = act(st, "draw_stock", 1)  # QS
    st, _ = act(st, "discard", 1, "QS")
    st, _ = act(st, "draw_stock", 0)  # 3C: AC 2C 3C now knocks
    legal = ENGINE.legal_actions(st, 0)
    assert legal and {a.kind for a in legal} == {"knock"}
    with pytest.raises(ActionError, match="must knock"):
        act(st, "discard", 0, "9C")
    st, ev = act(st, "knock", 0, "9C")
    assert st.hand.result.knocker == 0


def test_g_8_3_a_second_illegal_knock_is_rejected():
    st = position("standard", hands=(ILLEGAL, DEFENDER_A), turn=0, stock="QS")
    st, _ = act(st, "knock", 0, "8S")
    st, _ = act(st, "draw_stock", 1)
    st, _ = act(st, "discard", 1, "QS")
    st, _ = act(st, "draw_discard", 0)  # QS: still no knock, so he may discard
    assert {a.kind for a in ENGINE.legal_actions(st, 0)} == {"discard"}
    with pytest.raises(ActionError, match="second illegal knock"):
        act(st, "knock", 0, "9C")


def test_g_8_3_reject_mode_refuses_the_knock():
    rules = ENGINE.preset("standard").replace(illegal_knock="reject")
    st = position(rules, hands=(ILLEGAL, DEFENDER_A), turn=0)
    with pytest.raises(ActionError, match="cannot knock: deadwood 13"):
        act(st, "knock", 0, "8S")


def test_g_8_3_opponent_option_accept_or_refuse():
    rules = ENGINE.preset("standard").replace(illegal_knock="opponent_option")
    st = position(rules, hands=(ILLEGAL, DEFENDER_A), turn=0)
    st, _ = act(st, "knock", 0, "8S")
    assert st.hand.phase is HandPhase.KNOCK_REVIEW and ENGINE.to_act(st) == (1,)
    accepted, ev = act(st, "accept_knock", 1)
    r = accepted.hand.result
    assert r.knocker_count == 13 and r.defender_count == 13 and r.outcome == "undercut"
    refused, _ = act(st, "refuse_knock", 1)
    assert refused.hand.exposed == (True, False) and refused.hand.turn == 1
    assert refused.hand.phase is HandPhase.DRAW


def test_g_8_1_an_invalid_declared_meld_is_an_illegal_knock_and_g_22_1_taken_card_is_refused():
    st, ev = act(knock_a(), "knock", 0, "9C", melds=("7H 8H 9H TH", "KC KD"))
    assert "not a meld" in reason_line(event(ev, "illegal_knock").data)
    st = knock_a(last_taken="9C", phase=HandPhase.DISCARD)
    with pytest.raises(ActionError, match="just taken"):
        act(st, "knock", 0, "9C")
    assert st.hand.illegal_knocks == (0, 0)


# --- G-9 gin, G-10 big gin -------------------------------------------------------------------

GIN = "7H 8H 9H TH KC KD KS AC AD AH 9C"


def test_g_9_2_no_layoffs_on_gin():
    defender = "QC QD QS 5C 5D 5S 2S 3D 8S JH"  # JH would extend 7H-TH
    st, ev = act(position("standard", hands=(GIN, defender), turn=0), "knock", 0, "9C")
    r = st.hand.result
    assert r.outcome == "gin" and r.layoffs == () and "laid_off" not in kinds(ev)
    assert r.defender_count == 2 + 3 + 8 + 10 and r.points == 23 + 25


def test_g_9_3_gin_is_never_undercut():
    defender = "QC QD QS 5C 5D 5H 2S 3S 4S 5S"  # all melded, count 0
    st, _ = act(position("standard", hands=(GIN, defender), turn=0), "knock", 0, "9C")
    r = st.hand.result
    assert (r.outcome, r.winner, r.points, r.defender_count) == ("gin", 0, 25, 0)


def test_g_9_4_gin_with_any_meld_shape():
    hand = "2H 3H 4H 5H 6H 7H 8H 9H TH JH KS"  # one run of ten
    defender = "QC QD QS 5C 5D 5S 2S 3D 8S 4C"
    st, _ = act(position("standard", hands=(hand, defender), turn=0), "knock", 0, "KS")
    assert st.hand.result.outcome == "gin"


def test_g_10_big_gin_with_eleven_melded_cards():
    hand = "7H 8H 9H TH KC KD KS AC AD AH AS"
    defender = "QC QD QS 5C 5D 5S 2S 3D 8S JH"
    st = position("standard", hands=(hand, defender), turn=0)
    assert Action("big_gin", 0) in ENGINE.legal_actions(st, 0)
    st2, ev = act(st, "big_gin", 0)
    r = st2.hand.result
    assert r.outcome == "big_gin" and r.points == 23 + 31 and r.layoffs == ()
    assert len(r.knocker_melds) == 3 and sum(len(m) for m in r.knocker_melds) == 11
    off = position(ENGINE.preset("pagat_classic"), hands=(hand, defender), turn=0)
    assert "big_gin" not in {a.kind for a in ENGINE.legal_actions(off, 0)}
    with pytest.raises(ActionError, match="not played"):
        act(off, "big_gin", 0)
    st3, _ = act(off, "knock", 0, "AS")  # G-10.2: a 4-card meld gives up one card for gin
    assert st3.hand.result.outcome == "gin"
    with pytest.raises(ActionError, match="eleven cards"):
        act(knock_a(), "big_gin", 0)


# --- G-11 layoffs ----------------------------------------------------------------------------


def test_g_11_1_chains_on_a_run_and_the_fourth_card_of_a_set():
    knocker = "5S 6S 7S KC KD KS 2H 3H 4H AC 9C"
    defender = "8S 9S KH QC QD QH 5C 5D 5H 2D"
    st, ev = act(position("standard", hands=(knocker, defender), turn=0), "knock", 0, "9C")
    r = st.hand.result
    laid = {str(c): r.knocker_melds[i] for c, i in r.layoffs}
    assert set(laid) == {"8S", "9S", "KH"}
    assert laid["8S"] == cards("5S 6S 7S") and laid["KH"] == cards("KC KD KS")
    assert r.defender_count == 2 and r.knocker_count == 1 and r.points == 1
    assert kinds(ev).count("laid_off") == 3


def test_g_11_2_the_knocker_never_lays_off():
    knocker = "5S 6S 7S KC KD KS 8H 9H TH 2C 9C"
    defender = "2D 2H 2S QC QD QH 5C 5D 5H 3D"
    st, _ = act(position("standard", hands=(knocker, defender), turn=0), "knock", 0, "9C")
    r = st.hand.result
    assert (r.knocker_count, r.defender_count, r.outcome, r.points) == (2, 3, "knock", 1)


def test_g_11_3_agent_layoffs_one_by_one():
    rules = ENGINE.preset("standard").replace(defender_layoffs="agent")
    knocker = "5S 6S 7S KC KD KS 2H 3H 4H AC 9C"
    defender = "8S 9S KH QC QD QH 5C 5D 5H 2D"
    st, ev = act(position(rules, hands=(knocker, defender), turn=0), "knock", 0, "9C")
    assert st.hand.phase is HandPhase.LAYOFF and ENGINE.to_act(st) == (1,)
    legal = ENGINE.legal_actions(st, 1)
    assert {str(a.card) for a in legal if a.kind == "lay_off"} == {"8S", "KH", "5H"}
    run = next(i for i, m in enumerate(st.hand.table_melds) if parse_card("5S") in m)
    with pytest.raises(ActionError):
        act(st, "lay_off", 1, "9S", target=run)  # not yet: 8S first
    st, _ = act(st, "lay_off", 1, "8S", target=run)
    st, _ = act(st, "lay_off", 1, "9S", target=run)
    assert hand_cards(st.hand) == {c: 1 for c in ALL_CARDS}
    st, ev = act(st, "done_laying_off", 1)
    r = st.hand.result
    assert r.defender_count == 12 and r.points == 11  # KH kept by choice
    assert [str(c) for c, _ in r.layoffs] == ["8S", "9S"]


def test_g_11_4_an_undercut_thanks_to_layoffs_is_an_undercut():
    defender = "QC QD QH 5C 5D 5S 6H JH KH 3S"
    st, _ = act(position("standard", hands=(KNOCKER_A, defender), turn=0), "knock", 0, "9C")
    r = st.hand.result
    assert (r.outcome, r.winner, r.defender_count, r.points) == ("undercut", 1, 3, 1 + 25)


# --- G-13 end of play without a knock --------------------------------------------------------

LAST_DEFENDER = "7H 8H 9H TH KC KD KS AC AD 9C"  # + 2C knocks discarding 9C


def _near_end(rules="standard", **kw):
    # seat 0 to draw with 3 cards in the stock; his draw leaves the 50th-card position.
    return position(
        rules, hands=("2C 3D 4H 5S 6C 7D 8S JS QD 4C", LAST_DEFENDER), turn=0,
        phase=HandPhase.DRAW, stock="QS 3S 4S", stock_size=3, **kw,
    )


def test_g_13_3_after_the_50th_card_the_opponent_may_only_take_to_knock():
    st, _ = act(_near_end(), "draw_stock", 0)
    assert len(st.hand.stock) == 2
    st, _ = act(st, "discard", 0, "2C")
    assert st.hand.phase is HandPhase.LAST_CHANCE and ENGINE.to_act(st) == (1,)
    legal = ENGINE.legal_actions(st, 1)
    assert legal == [Action("take_and_knock", 1, card=parse_card("9C")), Action("decline", 1)]
    with pytest.raises(ActionError, match="not possible now"):
        act(st, "draw_stock", 1)
    with pytest.raises(ActionError, match="just taken"):
        act(st, "take_and_knock", 1, "2C")
    with pytest.raises(ActionError, match="knock is not legal"):
        act(st, "take_and_knock", 1, "KS")
    done, ev = act(st, "take_and_knock", 1, "9C")
    assert kinds(ev)[:2] == ["drew", "knocked"] and done.hand.result.knocker == 1
    assert done.hand.result.knocker_count == 4


def test_g_13_5_declining_makes_a_dead_hand_redealt_by_the_same_dealer():
    st, _ = act(_near_end(), "draw_stock", 0)
    st, _ = act(st, "discard", 0, "2C")
    st, ev = act(st, "decline", 1)
    assert st.hand.result.outcome == "dead" and "hand_dead" in kinds(ev)
    assert st.scores == (0, 0) and st.boxes == (0, 0) and st.hands_won == (0, 0)
    assert ENGINE.decks_to_deal(st) == 1 and st.dealer == 0  # G-3.4 same_dealer
    rot = ENGINE.preset("standard").replace(redeal_after_dead_hand="rotate")
    st2, _ = act(_near_end(rot), "draw_stock", 0)
    st2, _ = act(st2, "discard", 0, "2C")
    st2, _ = act(st2, "decline", 1)
    assert st2.dealer == 1


def test_g_13_6_the_50th_card_drawer_may_knock():
    st = position("standard", hands=("7H 8H 9H TH KC KD KS AC AD 9C", DEFENDER_A), turn=0,
                  phase=HandPhase.DRAW, stock="2C JS QS", stock_size=3)
    st, _ = act(st, "draw_stock", 0)
    assert Action("knock", 0, card=parse_card("9C")) in ENGINE.legal_actions(st, 0)


def test_g_13_2_pagat_rule_the_hand_is_dead_at_the_discard():
    st, _ = act(_near_end("pagat_classic"), "draw_stock", 0)
    st, ev = act(st, "discard", 0, "2C")
    assert st.hand.result.outcome == "dead" and st.phase is MatchPhase.DEAL


def test_g_13_4_hoyle_pc_the_hand_ends_when_the_stock_reaches_two():
    rules = ENGINE.preset("standard").replace(dead_hand_rule="hoyle_pc")
    st, ev = act(_near_end(rules), "draw_stock", 0)
    assert st.hand.result.outcome == "dead" and "hand_dead" in kinds(ev)


def test_g_13_1_at_most_29_stock_draws_then_the_last_chance():
    st = dealt(nondealer=NONDEALER, dealer=DEALER, upcard="KH")
    st, _ = act(st, "pass_upcard", 1)
    st, _ = act(st, "pass_upcard", 0)
    draws = 0
    while st.hand.phase in (HandPhase.DRAW, HandPhase.FORCED_DRAW):
        seat = st.hand.turn
        st, ev = act(st, "draw_stock", seat)
        draws += 1
        st, _ = act(st, "discard", seat, event(ev, "drew").data["card"])
        assert len(st.hand.stock) >= 2
    assert draws == 29 and len(st.hand.stock) == 2
    assert st.hand.phase is HandPhase.LAST_CHANCE
    assert hand_cards(st.hand) == {c: 1 for c in ALL_CARDS}


def test_g_5_5_events_as_a_seat_sees_them():
    from rummy.gin.view import event_view

    st = dealt(nondealer=NONDEALER, dealer=DEALER, upcard="KH", stock_top="QD")
    deal = ENGINE.apply(ENGINE.new_match(ENGINE.preset("standard")),
                        Action("deal", TABLE, cards=deal_order(NONDEALER, DEALER, "KH", "QD")))[1]
    seen = event_view(deal[0], 1).data
    assert seen["hands"][1] == NONDEALER and seen["hands"][0] is None
    assert event_view(deal[0], None).data["hands"] == [None, None]
    st, _ = act(st, "pass_upcard", 1)
    st, _ = act(st, "pass_upcard", 0)
    st, ev = act(st, "draw_stock", 1)
    drew = event(ev, "drew")
    assert event_view(drew, 1).data["card"] == "QD"
    assert event_view(drew, 0).data["card"] is None and event_view(drew, None).data["card"] is None
    assert event_view(drew, 0, exposed=(False, True)).data["card"] == "QD"  # G-8.2
    st, ev = act(st, "discard", 1, "QD")
    assert event_view(event(ev, "discarded"), 0) == event(ev, "discarded")
