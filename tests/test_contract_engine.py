"""Engine rules by number: dealing, the turn, going out, scoring, buying, the stock."""

from __future__ import annotations

from dataclasses import replace

import pytest
from contract_helpers import (
    A,
    B,
    C,
    D,
    act,
    buy,
    card,
    cards,
    discard,
    event,
    kinds,
    no,
    position,
    take,
    yes,
)

from rummy.actions import TABLE, Action, ActionError
from rummy.cards import new_deck
from rummy.contract.engine import ENGINE
from rummy.contract.state import ASK, DEAL, OVER, PLAY, TAKE, TURN

SEED = ENGINE.preset("seed_002")
HANDS = ["2C 3C 5C 8C", "3H 3D 5S 8S", "2H 4S 6S 7S", "2S 5H 6H 8H"]


def lay(seat, text, target):
    return Action("lay_off", seat, card=card(text), target=target)


def test_c_4_deal_order_first_player_and_rotation():
    deck = new_deck(2)
    s = ENGINE.new_match(SEED, 4, first_dealer=C)
    assert ENGINE.decks_to_deal(s) == 2 and ENGINE.to_act(s) == []
    s, ev = act(s, Action("deal", TABLE, cards=tuple(deck)))
    assert s.dealer == C and s.turn == D and s.deal_number == 1
    assert deck[0] in s.hands[D] and deck[1] in s.hands[A] and deck[3] in s.hands[C]
    assert [len(h) for h in s.hands] == [10] * 4 and s.top.card == deck[40] and s.top.discarder is None
    assert s.stock[0] == deck[41] and len(s.stock) == 104 - 41 and s.card_count() == 104
    assert event(ev, "dealt").data["contract"] == {"sets": 2, "sequences": 0}
    assert "contract 2 sets;" in ENGINE.describe(event(ev, "dealt"))


def test_c_4_bad_deal_names_the_problem():
    s = ENGINE.new_match(SEED, 4)
    with pytest.raises(ActionError, match="104 cards"):
        act(s, Action("deal", TABLE, cards=tuple(new_deck(1))))
    with pytest.raises(ActionError, match="must be dealt first"):
        act(s, Action("draw_stock", 1))
    with pytest.raises(ValueError, match="2 to 6"):
        ENGINE.new_match(SEED, 7)


def test_c_5_1_nobody_takes_back_his_own_discard():
    s = position(hands=HANDS, pile=[("9D", B), ("KS", A)], stock="4D 5D", turn=A)
    assert Action("draw_discard", A) not in ENGINE.legal_actions(s, A)
    with pytest.raises(ActionError, match="C-5.1"):
        act(s, Action("draw_discard", A))
    assert A not in ENGINE.to_act(s)[:-1]  # nor buys it (C-8.1)
    with pytest.raises(ActionError, match="C-8.1"):
        act(s, buy(A))


def test_c_5_2_lay_off_only_after_the_contract_on_anyones_melds():
    s = position(hands=["7H 7S 7D 9C 9S 9H KD QC", "2C", "3C", "4C"], stock="4D 5D", turn=A,
                 phase=PLAY, melds=[(B, "8H 8S 8C"), (B, "5S 5H 5C")])
    with pytest.raises(ActionError, match="contract first"):
        act(s, lay(A, "9C", 1))
    s, ev = act(s, Action("meld", A, melds=(cards("7H 7S 7D"), cards("9C 9S 9H"))))
    assert s.contract_down[A] and [m.id for m in s.table_melds] == [1, 2, 3, 4]
    with pytest.raises(ActionError, match="does not match the set of 7s"):
        act(s, lay(A, "KD", 3))
    assert ENGINE.legal_actions(s, A) == [discard(A, "QC"), discard(A, "KD")]


def test_c_5_2_lay_off_same_turn_and_on_other_players_melds():
    base = position(hands=["7H 7S 7D 9C 9S 9H 8D QC", "2C", "3C", "4C"], stock="4D 5D", turn=A,
                    phase=PLAY, melds=[(B, "8H 8S 8C"), (B, "5S 5H 5C")])
    s, _ = act(base, Action("meld", A, melds=(cards("7H 7S 7D"), cards("9C 9S 9H"))))
    s, ev = act(s, lay(A, "8D", 1))  # B's set of eights
    assert card("8D") in s.meld(1).cards and event(ev, "laid_off").data["owner"] == B
    with pytest.raises(ActionError, match="does not match"):
        act(s, lay(A, "QC", 3))
    strict = replace(SEED, layoff_same_turn_as_contract=False)
    s, _ = act(replace(base, rules=strict), Action("meld", A, melds=(cards("7H 7S 7D"), cards("9C 9S 9H"))))
    with pytest.raises(ActionError, match="turn after"):
        act(s, lay(A, "8D", 1))


def test_c_5_3_a_second_copy_of_the_taken_card_may_go():
    s = position(hands=["7H 7H 9C", "2C", "3C", "4C"], pile=[("7H", D)], stock="4D", turn=A)
    s, _ = act(s, Action("draw_discard", A))
    assert s.hands[A].count(card("7H")) == 3
    s, ev = act(s, discard(A, "7H"))  # he keeps two copies: the taken card stays
    assert s.turn == B
    s = position(hands=["7H 9C", "2C", "3C", "4C"], pile=[("KH", D)], stock="4D", turn=A)
    s, _ = act(s, Action("draw_discard", A))
    with pytest.raises(ActionError, match="C-5.3"):
        act(s, discard(A, "KH"))


def test_c_3_1_c_15_3_contract_in_one_meld_action():
    s = position(hands=["7H 7S 7D 9C 9S 9H QC", "2C", "3C", "4C"], stock="4D", turn=A, phase=PLAY)
    with pytest.raises(ActionError, match="one turn"):
        act(s, Action("meld", A, melds=(cards("7H 7S 7D"),)))
    with pytest.raises(ActionError, match="does not hold"):
        act(s, Action("meld", A, melds=(cards("7H 7S 7C"), cards("9C 9S 9H"))))
    loose = replace(SEED, contract_in_one_turn=False)
    s2, ev = act(replace(s, rules=loose), Action("meld", A, melds=(cards("7H 7S 7D"),)))
    assert not s2.contract_down[A]
    s2, ev = act(s2, Action("meld", A, melds=(cards("9C 9S 9H"),)))
    assert s2.contract_down[A]


def test_c_6_1_c_7_going_out_scores_the_deal():
    s = position(hands=["7H 7S 7D 9C 9S 9H QC", "AC KD", "3C 4C", "5C TD"], stock="4D", turn=A,
                 phase=PLAY)
    s, ev = act(s, Action("meld", A, melds=(cards("7H 7S 7D"), cards("9C 9S 9H"))), discard(A, "QC"))
    assert kinds(ev)[-3:] == ["discarded", "went_out", "hand_scored"]
    assert s.results[-1].points == (20, -25, -7, -15)  # C-7.3: A = 15, K = 10
    assert s.scores == (20, -25, -7, -15) and s.phase == DEAL and ENGINE.decks_to_deal(s) == 2


def test_c_6_1_going_out_by_melding_everything():
    s = position(hands=["7H 7S 7D 9C 9S 9H", "AC", "3C", "5C"], stock="4D", turn=A, phase=PLAY)
    s, ev = act(s, Action("meld", A, melds=(cards("7H 7S 7D"), cards("9C 9S 9H"))))
    assert "went_out" in kinds(ev) and s.results[-1].finisher == A


def test_c_6_3_last_deal_discard_never_empties_a_hand():
    s = position(hands=["QC", "AC", "3C", "5C"], stock="4D", turn=A, phase=PLAY, deal_number=5,
                 melds=[(A, "7H 7S 7D"), (A, "9C 9S 9H"), (A, "2D 3D 4D")])
    with pytest.raises(ActionError, match="C-6.3"):
        act(s, discard(A, "QC"))


def test_c_7_4_match_over_after_five_deals_highest_total_wins():
    s = position(hands=["7H 7S 7D 9C 9S 9H 2D 3D 4D", "AC", "3C", "5C"], stock="4D", turn=A,
                 phase=PLAY, deal_number=5)
    s = replace(s, scores=(0, 30, 0, 0))
    s, ev = act(s, Action("meld", A, melds=(cards("7H 7S 7D"), cards("9C 9S 9H"), cards("2D 3D 4D"))))
    assert s.phase == OVER and ENGINE.is_over(s)
    assert event(ev, "match_over").data == {"scores": [20, 15, -3, -5], "winners": [A]}


def test_c_8_2_in_turn_buy_sizes():
    pile = [("9D", B), ("KS", C), ("QH", D), ("7H", A)]
    s = position(hands=HANDS, pile=pile, stock="4D 5D 6D 7D", turn=B)
    assert [a.target for a in ENGINE.legal_actions(s, B) if a.kind == "buy"] == [2, 3]  # not 9D: his own
    with pytest.raises(ActionError, match="draw_discard"):
        act(s, buy(B, 1))
    single = replace(SEED, in_turn_single_card_buy=True)
    s1, ev = act(replace(s, rules=single), buy(B, 1))
    assert len(s1.hands[B]) == 5 and s1.turn == C  # a no-discard buy of one free card
    s4, ev = act(replace(s, rules=replace(SEED, forbid_own_discards_in_buy=False)), buy(B, 4))
    assert len(s4.hands[B]) == 4 + 4 + 3


def test_c_8_4_refusal_with_more_cards_and_without():
    pile = [("9D", A), ("KS", A), ("7H", A)]
    s = position(hands=HANDS, pile=pile, stock="4D 5D 6D 7D", turn=B)
    s2, ev = act(s, buy(D), yes(B), no(C))
    assert s2.phase == TAKE and s2.buy.max_cards == 3 and not s2.buy.first_free
    s2, ev = act(s2, take(C, 3))
    assert len(s2.hands[C]) == 4 + 3 + 3 and s2.turn == D  # every card costs one (C-8.5)
    strict = replace(SEED, refuser_may_take_more=False)
    s3, ev = act(replace(s, rules=strict), buy(D), yes(B), no(C))
    assert len(s3.hands[C]) == 6 and s3.turn == D


def test_c_8_7_buy_limits_and_after_contract():
    pile = [("7H", A)]
    s = position(hands=HANDS, pile=pile, stock="4D 5D 6D", turn=B)
    capped = replace(s, rules=replace(SEED, max_buys_per_deal=1), buys=(0, 0, 1, 0))
    assert ENGINE.to_act(capped) == [D, B]  # C used his buy: he may not ask
    s2, ev = act(capped, buy(D), yes(B))
    assert s2.phase != ASK and len(s2.hands[D]) == 6  # C is not asked: he could not refuse
    with pytest.raises(ActionError, match="all 1 buys"):
        act(capped, buy(C))
    down = replace(s, rules=replace(SEED, buy_after_contract=False), contract_down=(False, False, True, False))
    assert ENGINE.to_act(down) == [D, B]


def test_c_8_8_farther_seats_wait_nearer_seats_join():
    s = position(hands=HANDS, pile=[("7H", A)], stock="4D 5D", turn=B)
    s1, _ = act(s, buy(C))
    with pytest.raises(ActionError, match="C-8.8"):
        act(s1, buy(D))
    with pytest.raises(ActionError, match="answer"):
        act(s1, buy(B))
    s2, _ = act(s, buy(D))
    s2, ev = act(s2, buy(C))  # nearer: C becomes the asker, B still answers first
    assert s2.buy.asker == C and s2.buy.asked == B
    s2, ev = act(s2, yes(B))
    assert len(s2.hands[C]) == 6 and len(s2.hands[D]) == 4


def test_c_8_7_c_9_stale_card_window_skips_its_discarder():
    # After a jump, the new top card was discarded by C; N = A. D asks: A is asked, B is
    # asked, C (the discarder, who may not buy it) is not.
    s = position(hands=HANDS, pile=[("QS", C)], stock="4D 5D", turn=A)
    assert ENGINE.to_act(s) == [B, D, A]
    s, ev = act(s, buy(D), yes(A))
    assert s.buy.asked == B
    s, ev = act(s, yes(B))
    assert kinds(ev)[:3] == ["answered", "buy_granted", "bought"] and s.turn == A


def test_c_10_refill_once_then_the_deal_ends():
    pile = [("9D", B), ("8D", C), ("KS", D), ("7H", A)]
    s = position(hands=HANDS, pile=pile, stock="", turn=B)
    s, ev = act(s, Action("draw_stock", B))  # C-15.5: refilled at the moment of need
    assert "stock_refilled" in kinds(ev) and len(s.stock) == 2 and s.top.card == card("7H")
    assert s.refills_used == 1 and s.card_count() == 4 * 4 + 4
    s = replace(s, stock=(), phase=TURN, turn=C)
    s, ev = act(s, Action("draw_stock", C))
    assert "stock_exhausted" in kinds(ev) and s.results[-1].finisher is None
    assert all(p < 0 for p in s.results[-1].points)  # C-7.5 nobody gets +20


def test_c_10_refill_without_shuffle_turns_the_pack_over():
    pile = [("9D", B), ("8D", C), ("KS", D), ("7H", A)]
    s = position(hands=HANDS, pile=pile, stock="", turn=B, rules=replace(SEED, refill_shuffle=False))
    s, ev = act(s, Action("draw_stock", B))
    assert card("9D") in s.hands[B] and s.stock == cards("8D KS")


def test_c_8_7_penalties_waived_when_the_stock_is_gone():
    s = position(hands=HANDS, pile=[("7H", A)], stock="", turn=B)
    s = replace(s, refills_used=1)
    s, ev = act(s, buy(C), yes(B))
    b = event(ev, "bought").data
    assert b["penalty_cards"] == [] and b["waived"] == 1 and card("7H") in s.hands[C]
    assert "stock_exhausted" in kinds(ev) and s.phase == DEAL


def test_c_15_1_resume_only_after_a_granted_buy():
    may_i = ENGINE.preset("american_may_i")
    s = position(hands=HANDS, pile=[("2D", D), ("7H", A)], stock="4D 5D 6D", turn=B, rules=may_i)
    s1, _ = act(s, buy(D), yes(B), no(C), take(C, 1))
    assert s1.turn == D and not s1.stock_only  # a refusal passes the turn in both modes
    s2, _ = act(s, buy(B, 2))
    assert s2.turn == C and not s2.stock_only  # the in-turn buy passes it too
    s3, _ = act(s, buy(D), yes(B), yes(C))  # 2D is his own: only one card to take
    assert s3.turn == B and s3.stock_only


def test_view_hides_other_hands_and_the_stock():
    s = position(hands=HANDS, pile=[("7H", A)], stock="4D 5D", turn=B)
    v = ENGINE.view(s, C)
    assert v.hand == s.hands[C] and v.hand_sizes == (4, 4, 4, 4) and v.stock_size == 2
    assert not hasattr(v, "stock") and not hasattr(v, "hands")
    assert ENGINE.view(s, None).hand is None


def test_bad_actions_are_refused_with_a_reason():
    s = position(hands=HANDS, pile=[("7H", A)], stock="4D", turn=B)
    with pytest.raises(ActionError, match="unknown action"):
        act(s, Action("knock", B))
    with pytest.raises(ActionError, match="not seat 2.s turn"):
        act(s, Action("draw_stock", C))
    with pytest.raises(ActionError, match="not at this table"):
        act(s, Action("draw_stock", 9))
    with pytest.raises(ActionError, match="not being asked"):
        act(s, yes(C))
    with pytest.raises(ActionError, match="not buying"):
        act(s, take(C, 1))
