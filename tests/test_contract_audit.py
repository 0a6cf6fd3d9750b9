"""Referee audit of the contract engine (second wave): every rule through ``ENGINE.apply``,
starting from hand-built deck orders dealt by the table's ``deal`` action (C-4).

Seats A, B, C, D = 0..3 (А, Б, В, Г of seed 002); the dealer is the last seat, so A plays
first. Card values for the checks are computed here, independently of the engine (C-7.3).
"""

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
    deal_start,
    kinds,
    no,
    position,
    take,
    yes,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.actions import TABLE, Action, ActionError
from rummy.contract.engine import ENGINE
from rummy.contract.rules import Contract, rules_from_dict
from rummy.contract.state import ASK, DEAL, OVER, PLAY, TAKE, TURN

E = 4
VALUE = {1: 15, 11: 10, 12: 10, 13: 10}  # C-7.3: A = 15, J/Q/K = 10, pip otherwise


def value(hand) -> int:
    return sum(VALUE.get(c.rank, c.rank) for c in hand)


def draw(seat):
    return Action("draw_stock", seat)


def drop(seat, text):
    return Action("discard", seat, card=card(text))


def meld(seat, *groups):
    return Action("meld", seat, melds=tuple(cards(g) for g in groups))


def lay(seat, text, target):
    return Action("lay_off", seat, card=card(text), target=target)


def pass_turn(state, seat):
    """``seat`` draws from the stock and discards the card he drew (nobody asks)."""
    state, ev = act(state, draw(seat))
    drawn = card([e for e in ev if e.kind == "drew_stock"][0].data["card"])
    return act(state, Action("discard", seat, card=drawn))[0]


# --- C-3: the contracts of the five deals, "no more and no less" ---------------------------

CONTRACTS = [
    # deal, contract text, A's hand, the contract, one group more, the wrong kind
    (1, "2 sets", "7H 7S 7D 9C 9S 9H KH KS KD 2C",
     ["7H 7S 7D", "9C 9S 9H"], ["KH KS KD"], None),
    (2, "1 set and 1 sequence", "7H 7S 7D 4C 5C 6C KH KS KD 2D",
     ["7H 7S 7D", "4C 5C 6C"], ["KH KS KD"], ["7H 7S 7D", "KH KS KD"]),
    (3, "2 sequences", "4C 5C 6C 8H 9H TH KH KS KD 2S",
     ["4C 5C 6C", "8H 9H TH"], ["KH KS KD"], ["4C 5C 6C", "KH KS KD"]),
    (4, "3 sets", "7H 7S 7D 9C 9S 9H KH KS KD 2C",
     ["7H 7S 7D", "9C 9S 9H", "KH KS KD"], None, ["7H 7S 7D", "9C 9S 9H"]),
    (5, "2 sets and 1 sequence", "7H 7S 7D 9C 9S 9H 4C 5C 6C KH KS KD",
     ["7H 7S 7D", "9C 9S 9H", "4C 5C 6C"], ["KH KS KD"], ["7H 7S 7D", "9C 9S 9H", "KH KS KD"]),
]


@pytest.mark.parametrize("deal, text, hand, ok, more, wrong", CONTRACTS)
def test_c_3_1_exact_contract_of_each_deal_no_more_no_less(deal, text, hand, ok, more, wrong):
    s, ev = deal_start([hand, "", "", ""], "QS", "2H", deal=deal)
    dealt = ev[0].data
    assert Contract(**dealt["contract"]).describe() == text and dealt["deal"] == deal
    assert dealt["cards_each"] == (12 if deal == 5 else 10)  # C-3.3
    assert [len(h) for h in s.hands] == [dealt["cards_each"]] * 4 and s.turn == A
    s, _ = act(s, draw(A))
    if more:  # deal 4 has no fourth group in the hand
        with pytest.raises(ActionError, match="no more and no less"):
            act(s, meld(A, *ok, *more))
    if wrong:
        with pytest.raises(ActionError, match=r"C-3\.1"):
            act(s, meld(A, *wrong))
    with pytest.raises(ActionError, match=r"laid in one turn \(C-3\.1, C-15\.3\)"):
        act(s, meld(A, ok[0]))  # a partial contract
    after, ev = act(s, meld(A, *ok))
    assert after.contract_down[A] and len(after.table_melds) == len(ok)
    assert len(after.hands[A]) == len(s.hands[A]) - sum(len(g.split()) for g in ok)
    with pytest.raises(ActionError, match="already down"):  # C-3.1 nothing beyond it
        act(after, meld(A, "KH KS KD"))


def test_c_3_2_sets_of_different_ranks_sequences_of_different_suits():
    s, _ = deal_start(["JH JS JD JH JS JC 2C 3C 4C 5D", "", "", ""], "QS", "2H")
    s, _ = act(s, draw(A))
    with pytest.raises(ActionError, match=r"different ranks \(C-3\.2\)"):
        act(s, meld(A, "JH JS JD", "JH JS JC"))
    s, _ = deal_start(["2H 3H 4H 8H 9H TH 2C 3C 4C 5D", "", "", ""], "QS", "2S", deal=3)
    s, _ = act(s, draw(A))
    with pytest.raises(ActionError, match=r"different suits \(C-3\.2\)"):
        act(s, meld(A, "2H 3H 4H", "8H 9H TH"))
    s, _ = act(s, meld(A, "2H 3H 4H", "2C 3C 4C"))
    assert s.contract_down[A]


def test_c_3_1_partly_laid_contract_legal_meld_is_the_rest_of_other_ranks():
    """``contract_in_one_turn`` off: the table's meld suggestion must be one it accepts."""
    rules = rules_from_dict({"contract_in_one_turn": False})
    s, _ = deal_start(["9C 9S 9H 9D 9C 9S KH KS KD 2C", "", "", ""], "QS", "2H", rules=rules)
    s, _ = act(s, draw(A), meld(A, "9C 9S 9H"))
    assert not s.contract_down[A]
    melds = [x for x in ENGINE.legal_actions(s, A) if x.kind == "meld"]
    assert melds == [meld(A, "KD KH KS")]  # not the second set of nines (C-3.2)
    with pytest.raises(ActionError, match=r"different ranks \(C-3\.2\)"):
        act(s, meld(A, "9D 9C 9S"))
    s, _ = act(s, melds[0])
    assert s.contract_down[A]


def test_c_3_2_different_players_may_meld_the_same_rank_c_5_2_lay_off_after_own_contract():
    s, _ = deal_start(["7H 7S 7D 9C 9S 9H KH KS KD 2C", "7C 7H 7S 5D 5H 5S 9D QD 4H 6C", "", ""],
                      "QS", "3D 9C")
    s, _ = act(s, draw(A), meld(A, "7H 7S 7D", "9C 9S 9H"), drop(A, "3D"))
    s, _ = act(s, draw(B))  # 9C
    with pytest.raises(ActionError, match=r"contract first.*C-5\.2"):
        act(s, lay(B, "9C", 2))
    s, ev = act(s, meld(B, "7C 7H 7S", "5D 5H 5S"))  # sevens again: another player (C-3.2)
    assert s.contract_down[B] and [m.owner for m in s.table_melds] == [A, A, B, B]
    s, ev = act(s, lay(B, "9C", 2), lay(B, "9D", 2))  # onto A's set (anyone's melds)
    assert [e.data["owner"] for e in ev if e.kind == "laid_off"] == [A, A]
    assert len(s.meld(2).cards) == 5
    s, _ = act(s, drop(B, "QD"))
    assert s.turn == C


def test_c_3_4_contract_groups_may_be_longer_than_the_minimum():
    s, _ = deal_start(["7H 7S 7D 7C 7H 9C 9S 9H 9D 2C", "", "", ""], "QS", "2H")
    s, _ = act(s, draw(A), meld(A, "7H 7S 7D 7C 7H", "9C 9S 9H 9D"))
    assert s.contract_down[A] and s.hands[A] == cards("2C 2H")
    s, _ = deal_start(["3H 4H 5H 6H 7H 8H 9H 2C 3C 4C", "", "", ""], "QS", "2S", deal=3)
    s, _ = act(s, draw(A), meld(A, "3H 4H 5H 6H 7H 8H 9H", "2C 3C 4C"))
    assert s.contract_down[A] and s.hands[A] == cards("2S")


def test_c_1_2_a_set_of_eight_goes_out_by_melding_everything():
    s, _ = deal_start(["7H 7S 7D 7C 7H 7S 7D 7C 9C 9S", "", "", ""], "QS", "9H")
    s, ev = act(s, draw(A), meld(A, "7H 7S 7D 7C 7H 7S 7D 7C", "9C 9S 9H"))
    assert kinds(ev)[-2:] == ["went_out", "hand_scored"] and s.phase == DEAL
    assert s.results[-1].points[A] == 20  # C-7.1


def test_c_1_3_a_sequence_of_thirteen_one_card_per_rank():
    rules = rules_from_dict({"cards_per_deal": [10, 10, 16, 10, 12]})
    hand = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2C 3C 4C"
    s, _ = deal_start([hand, "", "", ""], "QS", "5H", deal=3, rules=rules)
    s, _ = act(s, draw(A))
    with pytest.raises(ActionError, match=r"each rank once.*C-1\.3"):
        act(s, meld(A, hand.replace("AH", "5H")[:-9], "2C 3C 4C"))
    s, _ = act(s, meld(A, hand[:-9], "2C 3C 4C"))
    assert s.meld(1).cards == cards(hand[:-9]) and s.hands[A] == cards("5H")
    with pytest.raises(ActionError, match="already holds 5H"):
        act(s, lay(A, "5H", 1))
    s, ev = act(s, drop(A, "5H"))  # deals 1-4: the last card may be discarded (C-6.2)
    assert "went_out" in kinds(ev) and s.results[-1].finisher == A


def test_c_2_3_ace_low_or_high_never_both():
    s, _ = deal_start(["AH 2H 3H QS KS AS KC AC 2C 2S", "", "", ""], "QD", "JS", deal=3)
    s, _ = act(s, draw(A))
    with pytest.raises(ActionError, match=r"not both \(C-2\.3\)"):
        act(s, meld(A, "AH 2H 3H", "KC AC 2C"))
    s, _ = act(s, meld(A, "AH 2H 3H", "QS KS AS"))
    assert s.meld(2).cards == cards("QS KS AS")  # the ace is high here
    with pytest.raises(ActionError, match="does not extend"):
        act(s, lay(A, "2S", 2))  # Q-K-A-2 would turn the corner
    s, _ = act(s, lay(A, "JS", 2))
    assert s.meld(2).cards == cards("JS QS KS AS") and s.hands[A] == cards("AC 2C 2S KC")


# --- C-5, C-6: the turn, the discard, going out, deal 5 ------------------------------------

def test_c_5_1_c_5_3_take_the_upcard_and_not_discard_it_then_the_turn_passes():
    s, _ = deal_start(["7H 7S 2C 4D 6D 8D TD QC KC 3S", "", "", ""], "7D", "2H")
    s, ev = act(s, Action("draw_discard", A))
    assert card("7D") in s.hands[A] and s.taken_card == card("7D") and s.discard_pile == ()
    with pytest.raises(ActionError, match=r"C-5\.3"):
        act(s, drop(A, "7D"))
    with pytest.raises(ActionError, match="not in seat 0's hand"):
        act(s, drop(A, "AS"))
    s, ev = act(s, drop(A, "KC"))
    assert s.turn == B and s.phase == TURN and s.top.card == card("KC") and s.top.discarder == A
    with pytest.raises(ActionError, match=r"C-8\.1"):  # the discarder may not buy it back
        act(s, buy(A))
    assert A not in ENGINE.to_act(s)


def test_c_6_2_going_out_by_discarding_in_deals_1_to_4_and_scores_c_7():
    s, _ = deal_start(["7H 7S 7D 7C 7H 9C 9S 9H 9D 9C", "AH KH 2S", "QS 5D", ""], "3S", "KD")
    s, ev = act(s, draw(A), meld(A, "7H 7S 7D 7C 7H", "9C 9S 9H 9D 9C"))
    assert s.hands[A] == cards("KD") and s.phase == PLAY
    s, ev = act(s, drop(A, "KD"))
    assert kinds(ev)[-3:] == ["discarded", "went_out", "hand_scored"]
    points = s.results[-1].points
    assert points == (20, *(-value(s.hands[seat]) for seat in (B, C, D)))  # C-7.1, C-7.2
    assert ev[-1].data["scores"] == list(points) and s.phase == DEAL and s.deal_number == 1


def test_c_6_3_deal_5_the_last_card_must_be_laid_off_never_stranded():
    a = "7H 7S 7D 9C 9S 9H 4C 5C 6C 7C KD 2S"
    stock = "3C QH QD QC 7S JH JD JC 8C"
    s, ev = deal_start([a, "", "", ""], "AS", stock, deal=5)
    assert ev[0].data["cards_each"] == 12
    s, _ = act(s, draw(A), meld(A, "7H 7S 7D", "9C 9S 9H", "4C 5C 6C"))
    s, _ = act(s, lay(A, "3C", 3), lay(A, "7C", 3), drop(A, "KD"))
    assert s.hands[A] == cards("2S")  # one card left after a discard is fine
    s = pass_turn(pass_turn(pass_turn(s, B), C), D)
    s, _ = act(s, draw(A))  # 7S: laying it off would strand 2S
    with pytest.raises(ActionError, match=r"C-6\.3"):
        act(s, lay(A, "7S", 1))
    legal = ENGINE.legal_actions(s, A)
    assert lay(A, "7S", 1) not in legal and drop(A, "2S") in legal and drop(A, "7S") in legal
    s, _ = act(s, drop(A, "2S"))
    s = pass_turn(pass_turn(pass_turn(s, B), C), D)
    s, _ = act(s, draw(A))  # 8C
    assert s.hands[A] == cards("7S 8C")
    s, _ = act(s, lay(A, "8C", 3))  # leaves 7S, which can still be laid off
    with pytest.raises(ActionError, match=r"last card must be laid on the table.*C-6\.3"):
        act(s, drop(A, "7S"))
    assert ENGINE.legal_actions(s, A) == [lay(A, "7S", 1)]
    s, ev = act(s, lay(A, "7S", 1))
    assert kinds(ev)[-3:] == ["went_out", "hand_scored", "match_over"] and s.phase == OVER


def test_c_7_4_last_deal_out_by_melding_match_over_and_a_shared_win():
    s, _ = deal_start(["7H 7S 7D 9C 9S 9H 4C 5C 6C 7C 8C 9D", "", "", ""], "AS", "3C", deal=5)
    vb, vc, vd = (value(s.hands[x]) for x in (B, C, D))
    s = replace(s, scores=(10, 30 + vb, 5 + vc, -40))  # totals after deals 1-4, hand-built
    s, ev = act(s, draw(A), meld(A, "7H 7S 7D", "9C 9S 9H 9D", "3C 4C 5C 6C 7C 8C"))
    assert kinds(ev)[-3:] == ["went_out", "hand_scored", "match_over"] and s.phase == OVER
    assert s.results[-1].points == (20, -vb, -vc, -vd)
    assert s.scores == (30, 30, 5, -40 - vd)
    assert ev[-1].data == {"scores": [30, 30, 5, -40 - vd], "winners": [A, B]}  # ties share
    with pytest.raises(ActionError, match="over"):
        act(s, draw(B))


# --- C-8: buying --------------------------------------------------------------------------

def buy_start(rules=None):
    """Pack, top first: 7H (A), JC (D), 9D (C), KS (B), 2D (A), QS (upcard); N = B."""
    hands = ["2D 7H", "KS", "9D", "JC"]
    stock = "3S 4S 5S 6S 8H 4D 5D 6D 7D 8D 9S TS"
    s, _ = deal_start(hands, "QS", stock, rules=rules)
    s, _ = act(s, draw(A), drop(A, "2D"), draw(B), drop(B, "KS"), draw(C), drop(C, "9D"),
               draw(D), drop(D, "JC"), draw(A), drop(A, "7H"))
    assert s.turn == B and s.phase == TURN and [len(h) for h in s.hands] == [10] * 4
    assert [(str(p.card), p.discarder) for p in s.discard_pile][::-1] == [
        ("7H", A), ("JC", D), ("9D", C), ("KS", B), ("2D", A), ("QS", None)]
    return s


def test_c_8_2_in_turn_buy_first_card_free_one_stock_card_each_further_no_discard():
    s = buy_start()
    assert [x.target for x in ENGINE.legal_actions(s, B) if x.kind == "buy"] == [2, 3]
    with pytest.raises(ActionError, match=r"draw_discard, C-8\.2"):
        act(s, buy(B, 1))
    with pytest.raises(ActionError, match="2..3 cards"):
        act(s, buy(B, 4))  # KS is his own discard (C-8.1)
    hand = s.hands[B]
    s2, ev = act(s, buy(B, 3))
    bought = [e for e in ev if e.kind == "bought"][0].data
    assert bought["how"] == "in_turn" and bought["cards"] == ["7H", "JC", "9D"]
    assert bought["penalty_cards"] == ["4D", "5D"]  # k - 1 stock cards
    assert sorted(s2.hands[B]) == sorted([*hand, *cards("7H JC 9D 4D 5D")])
    assert s2.turn == C and s2.phase == TURN and s2.top.card == card("KS")  # no discard
    assert s2.top.discarder == B and C in ENGINE.to_act(s2)  # C may take or buy it
    assert "discarded" not in kinds(ev)


def test_c_8_3_c_8_5_question_to_every_intermediate_in_seat_order_then_granted_jump():
    s = buy_start()
    assert ENGINE.to_act(s) == [C, D, B]  # A discarded 7H: he may not ask (C-8.1)
    s1, ev = act(s, buy(D))
    assert s1.phase == ASK and s1.buy.asked == B and kinds(ev) == ["asked_to_buy", "question"]
    with pytest.raises(ActionError, match="not being asked"):
        act(s1, yes(C))  # C is asked only after B
    s1, ev = act(s1, yes(B))
    assert s1.buy.asked == C and [e.seat for e in ev] == [B, C]
    s1, ev = act(s1, yes(C))
    assert kinds(ev)[:3] == ["answered", "buy_granted", "bought"]
    b = [e for e in ev if e.kind == "bought"][0].data
    assert b["how"] == "granted" and b["cards"] == ["7H"] and b["penalty_cards"] == ["4D"]
    assert len(s1.hands[D]) == 12 and s1.hands[B] == s.hands[B] and s1.hands[C] == s.hands[C]
    t = [e for e in ev if e.kind == "turn_started"][0]
    assert t.seat == A and t.data["skipped"] == [B, C]  # C-8.6 jump: B and C lose the turn
    assert s1.top.card == card("JC") and s1.top.discarder == D
    assert ENGINE.to_act(s1) == [B, C, A]  # D may not buy his own JC; A may take it
    # C asks: only B is asked (seed example: "only Б gives permission")
    s2, ev = act(s, buy(C))
    assert s2.buy.asked == B
    s2, ev = act(s2, yes(B))
    assert s2.phase == TAKE and s2.buy.buyer == C and s2.buy.max_cards == 2  # 9D is his own
    s2, ev = act(s2, take(C, 2))  # C-8.5: a further card costs one more stock card
    b = [e for e in ev if e.kind == "bought"][0].data
    assert b["cards"] == ["7H", "JC"] and b["penalty_cards"] == ["4D", "5D"]
    assert len(s2.hands[C]) == 14 and s2.turn == D and s2.top.card == card("9D")


def test_c_8_4_next_player_refuses_buys_free_no_discard_asking_ends():
    s = buy_start()
    s1, ev = act(s, buy(D), no(B))
    assert s1.phase == TAKE and s1.buy.buyer == B and s1.buy.first_free
    assert [e.seat for e in ev if e.kind == "question"] == [B]  # C is never asked
    one, ev1 = act(s1, take(B, 1))
    b = [e for e in ev1 if e.kind == "bought"][0].data
    assert b["how"] == "refused" and b["cards"] == ["7H"] and b["penalty_cards"] == []
    assert len(one.hands[B]) == 11 and len(one.hands[D]) == 10 and one.turn == C
    three, ev3 = act(s1, take(B, 3))  # extra cards cost one each (C-8.5, refuser_may_take_more)
    b = [e for e in ev3 if e.kind == "bought"][0].data
    assert b["cards"] == ["7H", "JC", "9D"] and b["penalty_cards"] == ["4D", "5D"]
    assert three.turn == C and three.top.card == card("KS")


def test_c_8_4_later_intermediate_refuses_pays_a_stock_card_turn_passes_after_him():
    s = buy_start()
    s1, ev = act(s, buy(D), yes(B), no(C))
    assert s1.phase == TAKE and s1.buy.buyer == C and not s1.buy.first_free
    assert s1.buy.max_cards == 2
    s1, ev = act(s1, take(C, 1))
    b = [e for e in ev if e.kind == "bought"][0].data
    assert b["how"] == "refused" and b["penalty_cards"] == ["4D"] and len(s1.hands[C]) == 12
    t = [e for e in ev if e.kind == "turn_started"][0]
    assert t.seat == D and t.data["skipped"] == [B] and len(s1.hands[D]) == 10  # asker: nothing
    assert s1.top.card == card("JC") and s1.top.discarder == D
    assert Action("draw_discard", D) not in ENGINE.legal_actions(s1, D)  # his own JC


def test_c_8_6_after_buy_turn_resume_n_plays_on_from_the_stock():
    s = buy_start(rules=ENGINE.preset("american_may_i"))
    s1, ev = act(s, buy(C), yes(B), take(C, 1))
    assert s1.turn == B and s1.stock_only and s1.phase == TURN
    assert ENGINE.to_act(s1) == [B] and ENGINE.legal_actions(s1, B) == [draw(B)]
    with pytest.raises(ActionError, match=r"C-15\.1"):
        act(s1, Action("draw_discard", B))
    s1, _ = act(s1, draw(B))
    assert s1.phase == PLAY and len(s1.hands[B]) == 11


def test_c_8_8_priority_by_seat_not_by_press_order():
    s = buy_start()
    d_first, _ = act(s, buy(D), buy(C), yes(B), take(C, 1))
    c_first, _ = act(s, buy(C))
    with pytest.raises(ActionError, match=r"priority.*C-8\.8"):
        act(c_first, buy(D))
    c_first, _ = act(c_first, yes(B), take(C, 1))
    assert d_first == c_first
    assert card("7H") in d_first.hands[C] and len(d_first.hands[D]) == 10 and d_first.turn == D


def test_c_8_4_answer_timeout_is_the_asked_seats_mozhno():
    """The table submits ``answer`` flag True for the silent asked seat (contract_table)."""
    s = buy_start()
    s1, _ = act(s, buy(D))
    timeout = Action("answer", s1.buy.asked, flag=True)
    assert timeout in ENGINE.legal_actions(s1, B)
    s2, ev = act(s1, timeout)
    assert s2.buy.asked == C and ev[0].data["flag"] is True
    with pytest.raises(ActionError, match="not at this table"):
        act(s1, Action("answer", TABLE, flag=True))
    with pytest.raises(ActionError, match="needs flag"):
        act(s1, Action("answer", B))


def test_c_1_1_two_players_only_n_takes_a_discard_but_the_upcard_is_open():
    s, _ = deal_start(["", ""], "QS", "3S 4S 5S")  # dealer B, A first, upcard QS
    assert ENGINE.to_act(s) == [B, A]  # C-4.4: the upcard has no discarder
    s1, ev = act(s, buy(B), yes(A))
    assert len(s1.hands[B]) == 12 and s1.turn == A  # jump wraps round to A
    s, _ = act(s, draw(A), drop(A, "3S"))
    assert s.turn == B and ENGINE.to_act(s) == [B]  # nobody in between: no out-of-turn buy


# --- C-10: the stock runs out ---------------------------------------------------------------

def test_c_10_refill_once_then_the_deal_ends_without_a_finisher():
    rules = rules_from_dict({"cards_per_deal": [20] * 5})
    s, _ = deal_start(["", "", "", "", ""], "QS", "2H 3H 4H", rules=rules)
    assert len(s.stock) == 3 and s.turn == A
    for seat in (A, B, C):
        s = pass_turn(s, seat)
    assert s.stock == () and len(s.discard_pile) == 4
    s, ev = act(s, draw(D))  # C-15.5: refilled when a card is needed
    assert kinds(ev)[:2] == ["stock_refilled", "drew_stock"]
    assert s.refills_used == 1 and len(s.stock) == 2 and s.top.card == card("4H")
    s, _ = act(s, Action("discard", D, card=card(ev[1].data["card"])))
    for seat in (E, A):
        s = pass_turn(s, seat)
    assert s.stock == ()
    s, ev = act(s, draw(B))  # C-10.2: the second exhaustion ends the deal
    assert kinds(ev) == ["stock_exhausted", "hand_scored"] and s.phase == DEAL
    assert s.results[-1].finisher is None
    assert s.results[-1].points == tuple(-value(h) for h in s.hands)  # C-7.5


def test_c_8_7_c_10_penalty_waived_when_the_stock_is_gone_for_good():
    rules = rules_from_dict({"cards_per_deal": [20] * 5, "stock_refills": 0})
    s, _ = deal_start(["", "", "", "", ""], "QS", "2H 3H 4H", rules=rules)
    for seat in (A, B, C):
        s = pass_turn(s, seat)
    s, ev = act(s, buy(E), yes(D), take(E, 2))  # E asks for C's 4H, D permits; stock empty
    b = [e for e in ev if e.kind == "bought"][0].data
    assert b["cards"] == ["4H", "3H"] and b["penalty_cards"] == [] and b["waived"] == 2
    assert kinds(ev)[-2:] == ["stock_exhausted", "hand_scored"] and card("4H") in s.hands[E]
    assert s.results[-1].points[E] == -value(s.hands[E])


def test_c_7_4_five_deals_totals_and_ties_share_the_win():
    import random

    from rummy.play import deal_action

    zero = rules_from_dict({"cards_per_deal": [20] * 5, "stock_refills": 0,
                            "card_values": [0] * 13})
    real = rules_from_dict({"cards_per_deal": [20] * 5, "stock_refills": 0})
    for rules in (zero, real):
        s = ENGINE.new_match(rules, 5)
        rng = random.Random(5)
        expected = [0] * 5
        for deal in range(1, 6):
            s, _ = act(s, deal_action(ENGINE, s, rng))
            for seat in (s.turn, s.left(s.turn), s.left(s.left(s.turn))):
                s = pass_turn(s, seat)
            s, ev = act(s, draw(s.turn))
            assert s.results[-1].deal_number == deal and s.results[-1].finisher is None
            for seat in range(5):
                expected[seat] -= sum(rules.card_values[c.rank - 1] for c in s.hands[seat])
        assert s.phase == OVER and list(s.scores) == expected
        over = [e for e in ev if e.kind == "match_over"][0].data
        best = max(expected)
        assert over["winners"] == [i for i, x in enumerate(expected) if x == best]
        if rules is zero:
            assert over["winners"] == [0, 1, 2, 3, 4]  # a five-way tie shares the win


# --- the replay printout (rummy-table replay) -----------------------------------------------

def test_replay_printout_every_buy_answer_and_score_a_player_can_follow(tmp_path):
    import io
    import random

    from rummy.contract.bots import BasicPlayer
    from rummy.play import play_match
    from rummy.records import Header, JournalWriter
    from rummy.replay_cli import print_replay

    rules = ENGINE.preset("seed_002")
    for seed in range(20):
        path = tmp_path / f"m{seed}.jsonl"
        header = Header(game="contract", rules=ENGINE.rules_to_dict(rules),
                        seats=[{"name": x} for x in ("Anna", "Boris", "Vera", "Gleb")], seed=seed)
        with JournalWriter.create(path, header, fsync=False) as journal:
            _, steps = play_match(ENGINE, ENGINE.new_match(rules, 4), [BasicPlayer()] * 4,
                                  random.Random(seed), journal=journal)
        events = [e for _, evs in steps for e in evs]
        if any(e.kind == "answered" and not e.data["flag"] for e in events):
            break
    out = io.StringIO()
    assert print_replay(str(path), out=out) == 0
    lines = out.getvalue().splitlines()

    def count(kind, **data):
        return sum(e.kind == kind and all(e.data[k] == v for k, v in data.items()) for e in events)

    assert sum('asks "Можно?"' in x for x in lines) == count("asked_to_buy") > 0
    assert sum('answers "Можно" (yes)' in x for x in lines) == count("answered", flag=True) > 0
    assert sum('answers "Нельзя" (no) and must buy it' in x for x in lines) == count(
        "answered", flag=False) > 0
    assert sum(" buys " in x and "discards nothing" in x for x in lines) == count("bought")
    scored = [x for x in lines if " scored (" in x]
    assert len(scored) == 5
    for e, line in zip([e for e in events if e.kind == "hand_scored"], scored, strict=True):
        for seat, (p, left) in enumerate(zip(e.data["points"], e.data["left_in_hands"],
                                             strict=True)):
            assert f"seat {seat} {p:+d}" + (f" ({left})" if left else "") in line
        assert "totals " + ", ".join(f"seat {i} {t}" for i, t in enumerate(e.data["scores"])) in line
    assert lines[-2].startswith("match over: totals seat 0 ")


# --- C-8 / C-9 against an independent model of the "Можно?" protocol -----------------------

@st.composite
def buy_cases(draw):
    n = draw(st.integers(3, 6))
    pile = draw(st.lists(st.sampled_from([None, *range(n)]), min_size=1, max_size=4))
    turn = draw(st.integers(0, n - 1))
    top = pile[-1]
    askers = [s for s in range(n) if s not in (turn, top)]
    asker = draw(st.sampled_from(askers))
    answers = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    after = draw(st.sampled_from(["jump", "resume"]))
    k_pick = draw(st.integers(1, 4))
    return n, pile, turn, asker, answers, after, k_pick


@settings(max_examples=400, deadline=None)
@given(buy_cases())
def test_c_8_3_to_c_8_6_buying_matches_an_independent_model(case):
    n, discarders, turn, asker, answers, after, k_pick = case
    rules = rules_from_dict({"after_buy_turn": after})
    names = ["7H", "KS", "2D", "9C"][: len(discarders)]
    pile = list(zip(names, discarders, strict=True))  # bottom first
    hands = [" ".join(f"{r}{s}" for r in "345" for s in "SHD"[: 1 + i % 3]) for i in range(n)]
    state = position(hands=hands, pile=pile, stock="AS AH AD AC 8S 8H 8D 8C", turn=turn,
                     rules=rules)
    top = discarders[-1]

    def max_k(buyer):  # consecutive pack cards from the top not discarded by the buyer
        k = 0
        for d in reversed(discarders):
            if d == buyer:
                break
            k += 1
        return k

    # the model: intermediates from N towards the asker, those who may buy it (C-8.3)
    seats, s = [], turn
    while s != asker:
        if s != top:
            seats.append(s)
        s = (s + 1) % n
    refuser = next((y for y, yes_ in zip(seats, answers, strict=False) if not yes_), None)
    buyer = asker if refuser is None else refuser
    k = min(k_pick, max_k(buyer))
    first_free = buyer == turn
    penalties = (0 if first_free else 1) + (k - 1)  # C-8.2, C-8.4, C-8.5
    if refuser is None and after == "resume":
        nxt, skipped = turn, None  # C-15.1
    else:  # C-8.4 / C-8.6 jump: the turn passes to the buyer's left
        nxt, skipped = (buyer + 1) % n, []
        s = turn
        while s != buyer:
            skipped.append(s)
            s = (s + 1) % n

    state, ev = act(state, buy(asker))
    asked = []
    while state.phase == ASK:
        y = state.buy.asked
        asked.append(y)
        state, more = act(state, Action("answer", y, flag=answers[len(asked) - 1]))
        ev += more
    stop = len(seats) if refuser is None else seats.index(refuser) + 1
    assert asked == seats[:stop]  # every intermediate in seat order; the first Нельзя ends it
    if state.phase == TAKE:
        assert state.buy.buyer == buyer and state.buy.max_cards == max_k(buyer) > 1
        state, more = act(state, take(buyer, k))
        ev += more
    bought = [e for e in ev if e.kind == "bought"][0]
    assert bought.seat == buyer and bought.data["cards"] == names[::-1][:k]
    assert len(bought.data["penalty_cards"]) == penalties
    assert bought.data["how"] == ("granted" if refuser is None else "refused")
    assert len(state.hands[buyer]) == len(hands[buyer].split()) + k + penalties
    for seat in range(n):  # nobody else's hand changes, nobody discards (C-13)
        if seat != buyer:
            assert len(state.hands[seat]) == len(hands[seat].split())
    started = [e for e in ev if e.kind == "turn_started"][0]
    assert state.turn == nxt and state.phase == TURN
    if skipped is None:
        assert state.stock_only and started.data["stock_only"]
    else:
        assert not state.stock_only and started.data["skipped"] == skipped
    assert len(state.discard_pile) == len(discarders) - k


# --- C-1, C-2: melds against an independent definition -------------------------------------

def reference_is_meld(group, *, min_seq, ace):
    ranks = [c.rank for c in group]
    if len(set(ranks)) == 1:
        return 3 <= len(group) <= 8  # C-2.2 a set of one rank, 8 at most with two packs
    if len({c.suit for c in group}) != 1 or len(set(ranks)) != len(ranks):
        return False  # C-1.3 one suit, one card of each rank
    if len(group) < min_seq:
        return False
    windows = [set(range(lo, lo + len(group))) for lo in range(1, 15 - len(group))]
    if ace != "low_only":  # C-2.3 ace high: Q-K-A as 12-13-14
        windows += [{14 if r == 1 else r for r in w} | ({1} if 14 in w else set())
                    for w in [set(range(lo, lo + len(group))) for lo in range(2, 16 - len(group))]]
    if ace == "around_corner":
        windows += [{(lo + i - 1) % 13 + 1 for i in range(len(group))} for lo in range(1, 14)]
    got = set(ranks)
    return any(got == {1 if r == 14 else r for r in w} for w in windows)


@settings(max_examples=1000, deadline=None)
@given(group=st.lists(st.integers(0, 51), min_size=1, max_size=9),
       same_suit=st.booleans(), min_seq=st.sampled_from([3, 4]),
       ace=st.sampled_from(["low_or_high", "low_only", "around_corner"]),
       extra=st.integers(0, 51))
def test_c_1_c_2_c_5_2_melds_and_layoffs_match_the_rule_text(group, same_suit, min_seq, ace,
                                                              extra):
    from rummy.cards import Card
    from rummy.contract.melds import is_meld, layoff_problem

    if same_suit:  # runs are rare by chance: often draw one suit
        group = [i % 13 for i in group]
    cs = [Card.from_index(i) for i in group]
    if any(cs.count(c) > 2 for c in cs):
        return  # two packs: at most two copies of a card
    rules = rules_from_dict({"min_sequence_len": min_seq, "ace_in_sequences": ace})
    assert is_meld(cs, rules) == reference_is_meld(cs, min_seq=min_seq, ace=ace)
    c = Card.from_index(extra % 13 + (group[0] // 13) * 13 if same_suit else extra)
    if is_meld(cs, rules) and cs.count(c) < 2:  # C-5.2: a lay-off keeps the meld a meld
        grown = [*cs, c]
        assert (layoff_problem(cs, c, rules) is None) == reference_is_meld(
            grown, min_seq=min_seq, ace=ace)


def test_c_2_3_the_reference_definition_itself():
    def ref(text, ace="low_or_high", min_seq=3):
        return reference_is_meld(cards(text), min_seq=min_seq, ace=ace)

    assert ref("QH KH AH") and ref("AH 2H 3H") and not ref("KH AH 2H")
    assert ref("KH AH 2H", "around_corner") and not ref("QH KH AH", "low_only")
    assert ref("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH") and not ref("AH 2H 3H", min_seq=4)
    assert ref("7H 7H 7S 7S 7D 7D 7C 7C") and not ref("7H 7S") and not ref("2H 3H 3H 4H")


# --- C-3: finding a contract in a hand (the table's meld suggestion) -----------------------

@st.composite
def planted(draw):
    """A hand holding some contract of C-3 (groups possibly longer than the minimum)."""
    from rummy.cards import Card

    deal = draw(st.integers(1, 5))
    contract = ENGINE.preset("seed_002").contracts[deal - 1]
    ranks = draw(st.permutations(range(1, 14)))
    suits = draw(st.permutations("SHDC"))
    groups = []
    for i in range(contract.sets):
        size = draw(st.integers(3, 5))
        pool = [Card(ranks[i], s) for s in "SHDC"] * 2
        groups.append(draw(st.permutations(pool))[:size])
    for j in range(contract.sequences):
        size = draw(st.integers(3, 6))
        low = draw(st.integers(1, 14 - size + 1))
        groups.append([Card(1 if r == 14 else r, suits[j]) for r in range(low, low + size)])
    noise = draw(st.lists(st.integers(0, 51), max_size=4))
    hand = [c for g in groups for c in g] + [Card.from_index(i) for i in noise]
    return contract, hand


@settings(max_examples=400, deadline=None)
@given(planted())
def test_c_3_a_contract_in_the_hand_is_always_found_and_valid(case):
    from collections import Counter

    from rummy.contract.contracts import contract_problem, find_contract

    contract, hand = case
    counts = Counter(hand)
    if any(v > 2 for v in counts.values()):
        return  # two packs
    rules = ENGINE.preset("seed_002")
    found = find_contract(hand, contract, rules)
    assert found is not None
    assert contract_problem(found, contract, rules) is None
    assert not Counter(c for g in found for c in g) - counts  # only cards of the hand


@settings(max_examples=300, deadline=None)
@given(n=st.integers(3, 6), turn=st.integers(0, 5), data=st.data())
def test_c_8_8_who_buys_never_depends_on_press_order(n, turn, data):
    """Any BUY presses while the question travels end as if the nearest had asked alone."""
    turn %= n
    discarder = (turn - 1) % n
    hands = ["3S 4S 5S"] * n
    state = position(hands=hands, pile=[("KS", None), ("7H", discarder)], stock="AS AH AD AC",
                     turn=turn)
    askers = [s for s in ENGINE.to_act(state) if s != turn]
    wanting = data.draw(st.lists(st.sampled_from(askers), min_size=1, unique=True))
    order = data.draw(st.permutations(wanting))
    answers = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    for s in wanting:  # asked before he pressed, a player who wants it says "Нельзя"
        answers[s] = False
    nearest = min(wanting, key=lambda s: (s - turn) % n)

    def finish(s, presses):
        presses = list(presses)
        while s.phase == ASK:
            while s.phase == ASK and presses and data.draw(st.booleans()):
                r = presses.pop(0)
                legal = buy(r) in ENGINE.legal_actions(s, r)
                try:
                    s, _ = act(s, buy(r))
                    assert legal
                except ActionError as exc:
                    assert not legal and ("C-8.8" in str(exc) or "already" in str(exc))
            if s.phase == ASK:
                s, _ = act(s, Action("answer", s.buy.asked, flag=answers[s.buy.asked]))
        if s.phase == TAKE:
            s, _ = act(s, take(s.buy.buyer, 1))
        return s

    alone = finish(act(state, buy(nearest))[0], [])
    crowd = finish(act(state, buy(order[0]))[0], order[1:])
    assert crowd.hands == alone.hands and crowd.turn == alone.turn
    assert crowd.discard_pile == alone.discard_pile and crowd.stock == alone.stock


def test_c_8_6_replay_never_calls_the_seat_that_plays_next_skipped():
    s, _ = deal_start(["", ""], "QS", "3S 4S 5S")  # two players: B buys A's upcard
    s, ev = act(s, buy(B), yes(A))
    started = [e for e in ev if e.kind == "turn_started"][0]
    assert started.seat == A and started.data["skipped"] == [A]
    assert ENGINE.describe(started) == "seat 0 to play (top of pack: none)"
    s = buy_start()
    s, ev = act(s, buy(D), yes(B), yes(C))
    started = [e for e in ev if e.kind == "turn_started"][0]
    assert ENGINE.describe(started).endswith("; skipped by the buy: seat 1, seat 2")


@pytest.mark.parametrize("limit", ["max_buys", "down"])
def test_c_8_7_player_in_turn_who_may_not_buy_is_still_asked_and_refuses_by_drawing(limit):
    """With buy limits (C-8.7) the card discarded for N is still his to take (C-5.1)."""
    if limit == "max_buys":
        s = buy_start(rules=rules_from_dict({"max_buys_per_deal": 1}))
        s = replace(s, buys=(0, 1, 0, 0))
    else:
        s = buy_start(rules=rules_from_dict({"buy_after_contract": False}))
        s = replace(s, contract_down=(False, True, False, False))
    assert [x.target for x in ENGINE.legal_actions(s, B) if x.kind == "buy"] == []
    s1, ev = act(s, buy(D))
    assert s1.phase == ASK and s1.buy.asked == B  # asked first, as always (C-8.3)
    s2, ev = act(s1, no(B))
    assert kinds(ev) == ["answered", "took_discard"] and s2.phase == PLAY and s2.turn == B
    assert s2.taken_card == card("7H") and len(s2.hands[B]) == 11 and s2.buys[B] == s.buys[B]
    assert len(s2.stock) == len(s.stock) and len(s2.hands[D]) == 10  # no stock card, no buy
    with pytest.raises(ActionError, match=r"C-5\.3"):
        act(s2, Action("discard", B, card=card("7H")))
    s3, _ = act(s1, yes(B), yes(C))  # or he lets it go
    assert card("7H") in s3.hands[D] and s3.turn == A
