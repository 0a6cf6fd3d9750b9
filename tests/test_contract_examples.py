"""The worked examples of C-11, one test each (4 players А→Б→В→Г = seats A, B, C, D).

Common start: C discarded K♠, D discarded J♦, A took J♦ and discarded 7♥. Pack, top
first: 7♥ (A), K♠ (C), 2♦ (B). It is B's turn (N = B, discarder = A).
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
from rummy.contract.state import ASK, PLAY, TAKE, TURN

HANDS = [
    "2C 3C 5C 8C 9C JC QC AS 4H 6D",  # A
    "3H 3D 5S 8S 9H TH QS KD 4D 6C",  # B
    "2H 4S 6S 7S 9S JS QH KH AD 5D",  # C
    "2S 5H 6H 8H 8D 9D TC TS JD KC",  # D
]
PILE = [("2D", B), ("KS", C), ("7H", A)]
STOCK = "3S 4C 7C 7D AH 3C"


def start(**kw):
    return position(hands=HANDS, pile=PILE, stock=STOCK, turn=B, **kw)


def size(state, seat):
    return len(state.hands[seat])


def test_c_11_example_1_nobody_asks():
    s0 = start()
    assert ENGINE.to_act(s0) == [C, D, B]  # askers nearest first, then N; A discarded 7♥
    s, ev = act(s0, Action("no_buy", C), Action("no_buy", D), Action("draw_stock", B))
    assert s.phase == PLAY and size(s, B) == 11 and s.hands[B].count(card("3S")) == 1
    s, ev = act(s, discard(B, "KD"))
    assert s.turn == C and s.phase == TURN and size(s, B) == 10
    assert s.top.card == card("KD") and s.top.discarder == B
    # Taking 7♥ instead: he may not discard it this turn (C-5.3).
    s, _ = act(s0, Action("draw_discard", B))
    with pytest.raises(ActionError, match="C-5.3"):
        act(s, discard(B, "7H"))
    assert Action("discard", B, card=card("7H")) not in ENGINE.legal_actions(s, B)


def test_c_11_example_2_in_turn_buy_of_two_cards():
    s, ev = act(start(), buy(B, 2))
    assert size(s, B) == 13  # 7♥ + K♠ + 1 stock card (first card free, C-8.2)
    assert s.hands[B].count(card("7H")) == 1 and card("KS") in s.hands[B]
    assert card("3S") in s.hands[B]
    b = event(ev, "bought")
    assert b.data["how"] == "in_turn" and b.data["penalty_cards"] == ["3S"]
    assert s.turn == C and s.phase == TURN  # discards nothing; the turn passes
    assert s.top.card == card("2D") and s.top.discarder == B
    assert Action("draw_discard", C) in ENGINE.legal_actions(s, C)
    assert B not in ENGINE.to_act(s)[:-1]  # B discarded 2♦: he may not buy it


def test_c_11_example_3_c_asks_b_permits_jump():
    s, ev = act(start(), buy(C))
    assert s.phase == ASK and s.buy.asked == B and ENGINE.to_act(s) == [B]
    s, ev = act(s, yes(B))
    assert size(s, C) == 12  # 7♥ + 1 stock card
    assert event(ev, "bought").data == {
        "how": "granted", "cards": ["7H"], "penalty_cards": ["3S"], "waived": 0,
        "asker": C, "turn": B,
    }
    assert s.turn == D and event(ev, "turn_started").data["skipped"] == [B]  # B loses his turn
    assert s.top.card == card("KS") and s.top.discarder == C
    assert {a.kind for a in ENGINE.legal_actions(s, D)} >= {"draw_discard", "draw_stock"}


def test_c_11_example_3_resume_variant():
    rules = ENGINE.preset("american_may_i")
    s, ev = act(start(rules=rules), buy(C), yes(B))
    assert size(s, C) == 12
    assert s.turn == B and s.stock_only  # C-15.1: B plays now and must draw from the stock
    assert ENGINE.to_act(s) == [B]
    assert ENGINE.legal_actions(s, B) == [Action("draw_stock", B)]
    with pytest.raises(ActionError, match="stock"):
        act(s, Action("draw_discard", B))


def test_c_11_example_4_d_asks_b_and_c_permit():
    s, ev = act(start(), buy(D), yes(B))
    assert s.buy.asked == C
    s, ev = act(s, yes(C))
    assert s.phase == TAKE and s.buy.buyer == D and s.buy.max_cards == 3
    s, ev = act(s, take(D, 1))
    assert size(s, D) == 12
    assert s.turn == A and event(ev, "turn_started").data["skipped"] == [B, C]
    assert s.top.card == card("KS") and s.top.discarder == C
    assert Action("draw_discard", A) in ENGINE.legal_actions(s, A)  # seed: A may take it


def test_c_11_example_5_c_refuses_and_must_buy():
    s, ev = act(start(), buy(D), yes(B), no(C))
    assert kinds(ev)[-3:] == ["answered", "bought", "turn_started"]
    assert size(s, C) == 12 and size(s, D) == 10  # C: 7♥ + 1 stock; the asker gets nothing
    assert event(ev, "bought").data["how"] == "refused"
    assert s.turn == D  # the turn passes to the player after the refuser
    assert s.top.card == card("KS") and s.top.discarder == C
    assert Action("draw_discard", D) in ENGINE.legal_actions(s, D)
    assert C not in ENGINE.to_act(s)[:-1]  # only C may not buy his own K♠


def test_c_11_example_6_next_player_refuses():
    s, ev = act(start(), buy(D), no(B))
    assert s.phase == TAKE and s.buy.buyer == B and s.buy.first_free
    s, ev = act(s, take(B, 1))
    assert size(s, B) == 11 and event(ev, "bought").data["penalty_cards"] == []  # free
    assert s.turn == C and s.phase == TURN  # no meld, no discard; C plays next


def test_c_11_example_6_take_as_draw_variant():
    rules = replace(ENGINE.preset("seed_002"), next_player_refusal="take_as_draw")
    s, ev = act(start(rules=rules), buy(D), no(B))
    assert s.phase == PLAY and s.turn == B and size(s, B) == 11
    assert event(ev, "took_discard").data["card"] == "7H"
    with pytest.raises(ActionError, match="C-5.3"):
        act(s, discard(B, "7H"))
    s, ev = act(s, discard(B, "KD"))
    assert s.turn == C and size(s, B) == 10


def test_c_11_example_7_multi_card_buy():
    s, ev = act(start(), buy(D), yes(B), yes(C))
    answers = [e for e in ev if e.kind == "answered"]
    assert all("cards" not in e.data for e in answers)  # B and C never learn D wants more
    s, ev = act(s, take(D, 3))
    assert size(s, D) == 16  # 7♥ K♠ 2♦ + 3 stock cards
    b = event(ev, "bought").data
    assert b["cards"] == ["7H", "KS", "2D"] and b["penalty_cards"] == ["3S", "4C", "7C"]
    assert s.turn == A and s.discard_pile == ()


def test_c_11_example_8_initial_upcard():
    deck = [c for c in new_deck(2)]
    deck.remove(card("8S"))
    deck.insert(40, card("8S"))  # 4 players x 10 cards, then the upcard
    s = ENGINE.new_match(ENGINE.preset("seed_002"), 4, first_dealer=D)
    s, ev = act(s, Action("deal", TABLE, cards=tuple(deck)))
    assert s.dealer == D and s.turn == A and s.top.card == card("8S") and s.top.discarder is None
    assert ENGINE.to_act(s) == [B, C, D, A]  # nobody is excluded from the upcard
    stock_top = s.stock[0]
    s, ev = act(s, buy(C), yes(A), yes(B))
    assert size(s, C) == 12 and card("8S") in s.hands[C] and stock_top in s.hands[C]
    assert s.turn == D and event(ev, "turn_started").data["skipped"] == [A, B]
    assert s.discard_pile == () and ENGINE.to_act(s) == [D]
    assert ENGINE.legal_actions(s, D) == [Action("draw_stock", D)]


@pytest.mark.parametrize(
    "order",
    [
        "d_asks_first_c_refuses",
        "d_asks_first_c_presses_buy",
        "c_asks_first",
        "c_then_d_press_together",
    ],
)
def test_c_11_example_9_competing_wishes(order):
    s = start()
    if order == "d_asks_first_c_refuses":
        s, ev = act(s, buy(D), yes(B), no(C))
    elif order == "d_asks_first_c_presses_buy":
        s, ev = act(s, buy(D), buy(C), yes(B))
    elif order == "c_asks_first":
        s, ev = act(s, buy(C), yes(B))
    else:
        s, ev = act(s, buy(C))
        with pytest.raises(ActionError, match="C-8.8"):
            act(s, buy(D))  # C is nearer: D's press changes nothing
        s, ev = act(s, yes(B))
    assert size(s, C) == 12 and card("7H") in s.hands[C] and card("3S") in s.hands[C]
    assert size(s, D) == 10 and s.turn == D
    assert s.stock == cards(STOCK)[1:]


def test_c_11_example_9_press_order_never_matters():
    # D and C press BUY before anyone answers, in both orders: identical states.
    s1, _ = act(start(), buy(D), buy(C), yes(B))
    s2, _ = act(start(), buy(C), yes(B))
    assert s1 == s2


def _deal5(hand_a: str, deal_number: int = 5):
    return position(
        hands=[hand_a, "2C 3C 4C 5C", "2D 3D 4D 5D", "2S 3S 4S 5S"],
        pile=[("KC", D)],
        stock="AC",
        turn=A,
        phase=PLAY,
        deal_number=deal_number,
        melds=[
            (A, "JS JH JD"),
            (A, "QS QH QC"),
            (A, "9D TD JD" if deal_number == 5 else "9D 9H 9S"),  # C-3: 2 sets + 1 seq / 3 sets
            (B, "5H 6H 7H 8H"),
        ],
    )


def test_c_11_example_10_deal_5_ending():
    s = _deal5("9C 4H QD")
    s2, ev = act(s, Action("lay_off", A, card=card("4H"), target=4))
    assert s2.hands[A] == cards("9C QD")
    s3, ev = act(s2, discard(A, "9C"))
    assert s3.hands[A] == cards("QD")  # he keeps one card for a later lay-off
    # Holding only 9♣ and 4♥: laying off 4♥ would strand 9♣ (C-6.3).
    s = _deal5("9C 4H")
    with pytest.raises(ActionError, match="C-6.3"):
        act(s, Action("lay_off", A, card=card("4H"), target=4))
    assert all(a.kind == "discard" for a in ENGINE.legal_actions(s, A))
    s2, _ = act(s, discard(A, "9C"))
    assert s2.hands[A] == cards("4H") and s2.turn == B
    # In deals 1-4 he may lay off 4♥ and go out by discarding 9♣.
    s = _deal5("9C 4H", deal_number=4)
    s2, ev = act(s, Action("lay_off", A, card=card("4H"), target=4), discard(A, "9C"))
    assert "went_out" in kinds(ev) and s2.results[-1].finisher == A
    assert s2.results[-1].points[A] == 20
