"""Read mode by example (issue 10): the deal read out of the shoe (G-3.2, C-4), draws with the
card read (G-5.1, C-5.1), a card that is already elsewhere (G-3.1, C-13), a buy's stock cards
(C-8.4, C-8.5), the C-10 refill and the cards that may come out after it, a misdeal voided;
and the session, store and recall of a read-mode match."""

from __future__ import annotations

import dataclasses
import random

import pytest

from display.table.recall_text import hand_lines
from rummy.actions import TABLE, Action, ActionError, CommonRefusal
from rummy.cards import Card, parse_cards, shuffled_deck
from rummy.contract import reads as creads
from rummy.contract.engine import ENGINE as CONTRACT
from rummy.contract.kinds import Phase
from rummy.contract.kinds import Refusal as CR
from rummy.contract.rules import preset as contract_preset
from rummy.contract.state import PileCard
from rummy.gin import reads as greads
from rummy.gin.engine import ENGINE as GIN
from rummy.gin.kinds import Refusal as GR
from rummy.gin.rules import preset as gin_preset
from rummy.gin.state import HandPhase, MatchPhase
from rummy.reads import ReadNeed, ReadPurpose
from rummy.records import replay
from rummy.session import MatchSession
from rummy.store import Store

DECK = shuffled_deck(random.Random(10))
DECK2 = shuffled_deck(random.Random(20), 2)


def refused(engine, state, action, code, **params):
    with pytest.raises(ActionError) as info:
        engine.apply(state, action)
    assert info.value.code == code
    for k, v in params.items():
        assert info.value.params[k] == v
    return info.value


def gin_read_deal(dealer: int = 0):
    state = GIN.new_match(gin_preset("standard"), first_dealer=dealer)
    return GIN.apply(state, Action("deal_read", TABLE, cards=tuple(DECK[:21])))


# --- gin ----------------------------------------------------------------------------------


def test_gin_deal_read_alternates_from_the_non_dealer_and_turns_the_21st_card_up():
    # G-3.2: ten each, one at a time, the non-dealer first; the 21st card is the upcard.
    state = GIN.new_match(gin_preset("standard"), first_dealer=0)
    need = greads.expected(state)
    assert need == ReadNeed(ReadPurpose.DEAL, TABLE, 21, order=(1, 0) * 10 + (TABLE,))
    state, events = GIN.apply(state, Action("deal_read", TABLE, cards=tuple(DECK[:21])))
    h = state.hand
    assert h.read and h.hands[1] == tuple(DECK[0:20:2]) and h.hands[0] == tuple(DECK[1:20:2])
    assert h.upcard == DECK[20] and h.discard_pile == (DECK[20],)
    # the stock: 31 cards, its order unknown; the set is the pack less the 21 seen
    assert len(h.stock) == 31 and set(h.stock) == set(DECK[21:])
    assert events[0].data["stock"] == 31 and events[0].data["upcard"] == str(DECK[20])
    assert GIN.view(state, 0).read and GIN.view(state, 0).stock_size == 31
    assert greads.expected(state) is None  # G-4.1: the upcard decision first


def test_gin_deal_read_refuses_a_card_twice_and_the_wrong_size():
    state = GIN.new_match(gin_preset("standard"), first_dealer=0)
    cards = list(DECK[:21])
    cards[5] = cards[2]  # card 2 went to the non-dealer (seat 1): G-3.1 one pack
    refused(GIN, state, Action("deal_read", TABLE, cards=tuple(cards)), GR.CARD_ALREADY_PLACED,
            card=cards[2], place="hand:1")
    assert greads.deal_problem(state.rules, 0, cards[:5]) is None  # card by card
    assert greads.deal_problem(state.rules, 0, cards[:6]).code is GR.CARD_ALREADY_PLACED
    refused(GIN, state, Action("deal_read", TABLE, cards=tuple(DECK[:20])), GR.DEAL_READ_SIZE,
            got=20, want=21)
    refused(GIN, state, Action("deal_read", TABLE, cards=tuple(DECK[:22])), GR.DEAL_READ_SIZE,
            got=22, want=21)


def test_gin_stock_draw_carries_the_card_read():
    state, _ = gin_read_deal()
    state, _ = GIN.apply(state, Action("pass_upcard", 1))
    state, _ = GIN.apply(state, Action("pass_upcard", 0))
    assert state.hand.phase is HandPhase.FORCED_DRAW  # G-4.4
    assert greads.expected(state) == ReadNeed(ReadPurpose.DRAW, 1, 1)
    refused(GIN, state, Action("draw_stock", 1), GR.CARD_READ_NEEDED)  # G-5.1
    refused(GIN, state, Action("draw_stock", 1, card=DECK[4]), GR.CARD_ALREADY_PLACED,
            card=DECK[4], place="hand:1")
    refused(GIN, state, Action("draw_stock", 1, card=DECK[20]), GR.CARD_ALREADY_PLACED,
            place="discard")
    assert greads.places(state, DECK[4]) == ("hand:1",) and greads.places(state, DECK[40]) == ()
    card = DECK[40]  # any card the stock holds: the shoe's order is not the deck's
    state, events = GIN.apply(state, Action("draw_stock", 1, card=card))
    assert card in state.hand.hands[1] and card not in state.hand.stock
    assert events[0].data == {"pile": "stock", "card": str(card), "stock": 30}
    assert GIN.view(state, 0).hand_sizes == (10, 11)


def test_gin_a_refused_upcard_set_aside_is_a_place():
    rules = gin_preset("standard").replace(refused_upcard="set_aside")  # G-4.5
    state = GIN.new_match(rules)
    state, _ = GIN.apply(state, Action("deal_read", TABLE, cards=tuple(DECK[:21])))
    state, _ = GIN.apply(state, Action("pass_upcard", 1))
    state, _ = GIN.apply(state, Action("pass_upcard", 0))
    refused(GIN, state, Action("draw_stock", 1, card=DECK[20]), GR.CARD_ALREADY_PLACED,
            place="set_aside")


def test_gin_virtual_hands_read_nothing():
    state = GIN.new_match(gin_preset("standard"))
    state, _ = GIN.apply(state, Action("deal", TABLE, cards=tuple(DECK)))
    assert not state.hand.read and greads.expected(state) is None
    state, _ = GIN.apply(state, Action("pass_upcard", 1))
    state, _ = GIN.apply(state, Action("pass_upcard", 0))
    assert greads.expected(state) is None
    refused(GIN, state, Action("draw_stock", 1, card=DECK[21]), GR.NOT_READ_HAND)
    state, events = GIN.apply(state, Action("draw_stock", 1))
    assert events[0].data["card"] == str(DECK[21])


def test_gin_void_hand_goes_back_to_the_same_deal():
    start = GIN.new_match(gin_preset("standard"), first_dealer=1)
    state, _ = GIN.apply(start, Action("deal_read", TABLE, cards=tuple(DECK[:21])))
    state, _ = GIN.apply(state, Action("take_upcard", 0))
    refused(GIN, state, Action("void_hand", 0), CommonRefusal.ONLY_TABLE_DEALS)
    voided, events = GIN.apply(state, Action("void_hand", TABLE))
    assert voided == start and voided.dealer == 1 and voided.phase is MatchPhase.DEAL
    assert events[0].kind == "hand_voided" and events[0].data == {"hand": 1, "game": 1, "dealer": 1}
    assert GIN.describe(events[0]) == "  hand 1 voided (a misdeal): no score; seat 1 deals it again"
    refused(GIN, voided, Action("void_hand", TABLE), GR.NOTHING_TO_VOID)
    # the redeal is hand 1 again, dealt by the same dealer (G-3.4)
    again, events = GIN.apply(voided, Action("deal_read", TABLE, cards=tuple(DECK[21:42])))
    assert again.hand_number == 1 and again.hand.dealer == 1


# --- contract ------------------------------------------------------------------------------


def contract_read_deal(seats: int = 4, **rules):
    r = dataclasses.replace(contract_preset("seed_002"), **rules)
    state = CONTRACT.new_match(r, seats)
    n = creads.deal_size(state)
    return CONTRACT.apply(state, Action("deal_read", TABLE, cards=tuple(DECK2[:n])))


def test_contract_deal_read_goes_round_from_the_dealers_left():
    # C-4.2: one card at a time clockwise from the dealer's left; C-4.3 then the upcard.
    state = CONTRACT.new_match(contract_preset("seed_002"), 4, first_dealer=2)
    need = creads.expected(state)
    assert need.purpose is ReadPurpose.DEAL and need.count == 41
    assert need.order == (3, 0, 1, 2) * 10 + (TABLE,)
    state, events = CONTRACT.apply(state, Action("deal_read", TABLE, cards=tuple(DECK2[:41])))
    assert state.read and state.hands[3] == tuple(sorted(DECK2[0:40:4]))
    assert state.top == PileCard(DECK2[40], None) and len(state.stock) == 63
    assert state.card_count() == 104  # C-13
    assert creads.expected(state) == ReadNeed(ReadPurpose.DRAW, 3, 1)  # C-4.4


def test_contract_two_packs_allow_each_card_twice_not_three_times():
    state = CONTRACT.new_match(contract_preset("seed_002"), 4)
    cards = list(DECK2[:41])
    card = cards[0]  # to seat 1; put it at 1 (seat 2) too, then at 2 (seat 3): seen twice
    cards[1] = card
    twin = [i for i in range(3, 41) if cards[i] == card]
    for i in twin:
        cards[i] = DECK2[60]
    cards[2] = card
    refused(CONTRACT, state, Action("deal_read", TABLE, cards=tuple(cards)),
            CR.CARD_ALREADY_PLACED, card=card, place="hand:1+hand:2")  # C-13


def test_contract_draw_and_a_card_whose_copies_are_all_elsewhere():
    state, _ = contract_read_deal()
    n = state.turn
    placed = [c for c in state.hands[0] if state.stock.count(c) == 0]
    refused(CONTRACT, state, Action("draw_stock", n), CR.CARD_READ_NEEDED)  # C-5.1
    if placed:
        refused(CONTRACT, state, Action("draw_stock", n, card=placed[0]), CR.CARD_ALREADY_PLACED,
                card=placed[0])
    card = state.stock[17]
    state, events = CONTRACT.apply(state, Action("draw_stock", n, card=card))
    assert events[-1].data == {"card": str(card)} and state.phase == Phase.PLAY


def test_contract_buy_waits_for_its_stock_cards_out_of_the_shoe():
    state, _ = contract_read_deal()
    n = state.turn  # seat 1; seat 2 asks "Можно?", seat 1 says "Нельзя" and buys it (C-8.4)
    state, _ = CONTRACT.apply(state, Action("buy", 2))
    state, events = CONTRACT.apply(state, Action("answer", n, flag=False))
    # N's refusal: the card is free, so nothing is due (C-8.4): the buy is done at once
    assert state.phase == Phase.TURN and events[-2].kind == "bought"
    # seat 2 plays; then seat 0 asks for its discard and seat 3 (in turn) permits
    state, _ = CONTRACT.apply(state, Action("draw_stock", state.turn, card=state.stock[0]))
    state, _ = CONTRACT.apply(state, Action("discard", state.turn, card=state.hands[state.turn][0]))
    asker = state.left(state.turn)
    state, _ = CONTRACT.apply(state, Action("buy", asker))
    state, _ = CONTRACT.apply(state, Action("answer", state.turn, flag=True))
    assert state.phase == Phase.PENALTY  # granted: one stock card is due (C-8.5)
    assert CONTRACT.to_act(state) == [] and CONTRACT.legal_actions(state, asker) == []
    assert creads.expected(state) == ReadNeed(ReadPurpose.BUY, asker, 1)
    top = state.buy.taken[0]
    assert top in state.hands[asker]  # the pack card is in his hand already
    refused(CONTRACT, state, Action("stock_cards", asker, cards=state.stock[:2]),
            CR.READ_TOO_MANY, got=2, want=1)
    refused(CONTRACT, state, Action("stock_cards", n, cards=state.stock[:1]), CR.NOT_BUYING)
    refused(CONTRACT, state, Action("draw_stock", state.turn, card=state.stock[0]),
            CommonRefusal.NOT_NOW)
    card = state.stock[5]
    # were two stock cards due, the first one read stays the buyer's: others' views hide it
    two = dataclasses.replace(state, buy=dataclasses.replace(state.buy, due=2))
    half, events = CONTRACT.apply(two, Action("stock_cards", asker, cards=(card,)))
    assert events == [] and half.phase == Phase.PENALTY and half.buy.drawn == (card,)
    assert creads.expected(half) == ReadNeed(ReadPurpose.BUY, asker, 1)
    assert CONTRACT.view(half, asker).buy.drawn == (card,)
    assert all(CONTRACT.view(half, s).buy.drawn == () for s in (None, 0, 1, 2, 3) if s != asker)
    state, events = CONTRACT.apply(state, Action("stock_cards", asker, cards=(card,)))
    bought = events[0]
    assert bought.kind == "bought" and bought.data["penalty_cards"] == [str(card)]
    assert bought.data["cards"] == [str(top)] and events[-1].kind == "turn_started"
    refused(CONTRACT, state, Action("stock_cards", asker, cards=(state.stock[0],)),
            CR.NO_CARDS_DUE)


def in_hands(state, card):
    return [f"hand:{s}" for s, h in enumerate(state.hands) for c in h if c == card]


def test_contract_refill_puts_the_pack_less_its_top_back_and_checks_later_reads():
    state, _ = contract_read_deal()
    n = state.turn
    pile = tuple(PileCard(c, 0) for c in parse_cards("2S 3S 4S 5S")) + (PileCard(Card.parse("9D"), 0),)
    # C-10: an empty stock with a pack of five; the rest of the cards are elsewhere
    gone = list(state.stock) + [p.card for p in state.discard_pile]
    for p in pile:
        gone.remove(p.card) if p.card in gone else None
    hands = list(state.hands)
    hands[0] = tuple(sorted(hands[0] + tuple(gone)))
    state = dataclasses.replace(state, stock=(), discard_pile=pile, hands=tuple(hands))
    assert state.card_count() == 104
    need = creads.expected(state)
    assert need == ReadNeed(ReadPurpose.REFILL, n, 1, refill=tuple(parse_cards("2S 3S 4S 5S")),
                            then=ReadPurpose.DRAW)
    # 9D is the pack's top, it stays on the table: not in the shoe (C-10.1)
    nine = Card.parse("9D")
    assert creads.places(state, nine) == (*in_hands(state, nine), "discard")
    refused(CONTRACT, state, Action("draw_stock", n, card=nine),
            CR.CARD_NOT_IN_STOCK, place="+".join([*in_hands(state, nine), "discard"]))
    state, events = CONTRACT.apply(state, Action("draw_stock", n, card=Card.parse("4S")))
    assert [e.kind for e in events] == ["stock_refilled", "drew_stock"]
    assert events[0].data == {"cards": 4, "refill": 1, "shoe": ["2S", "3S", "4S", "5S"]}
    assert CONTRACT.describe(events[0]).endswith("(4 cards, refill 1): 2S 3S 4S 5S")
    assert sorted(map(str, state.stock)) == ["2S", "3S", "5S"]
    state, _ = CONTRACT.apply(state, Action("discard", n, card=Card.parse("4S")))
    four = Card.parse("4S")
    refused(CONTRACT, state, Action("draw_stock", state.turn, card=four),
            CR.CARD_NOT_IN_STOCK, card=four, place="+".join([*in_hands(state, four), "discard"]))


def test_contract_void_hand_and_virtual_draws():
    start = CONTRACT.new_match(contract_preset("seed_002"), 3, first_dealer=1)
    state, _ = CONTRACT.apply(start, Action("deal_read", TABLE, cards=tuple(DECK2[:31])))
    voided, events = CONTRACT.apply(state, Action("void_hand", TABLE))
    assert voided == start and events[0].data == {"deal": 1, "dealer": 1}
    assert CONTRACT.describe(events[0]) == "deal 1 voided (a misdeal): no score; seat 1 deals it again"
    refused(CONTRACT, voided, Action("void_hand", TABLE), CR.NOTHING_TO_VOID)
    virt, _ = CONTRACT.apply(start, Action("deal", TABLE, cards=tuple(DECK2)))
    assert creads.expected(virt) is None
    refused(CONTRACT, virt, Action("draw_stock", virt.turn, card=DECK2[40]), CR.NOT_READ_HAND)


# --- the session, the store and recall ----------------------------------------------------


def test_a_read_mode_session_resumes_and_its_records_recall_a_voided_hand(tmp_path):
    seats = [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}]
    session = MatchSession.start(tmp_path, "gin", {"preset": "standard"}, seats, fsync=False)
    session.apply(Action("deal_read", TABLE, cards=tuple(DECK[:21])))
    session.apply(Action("void_hand", TABLE))
    session.apply(Action("deal_read", TABLE, cards=tuple(DECK[21:42])))
    session.apply(Action("pass_upcard", 1))
    session.apply(Action("pass_upcard", 0))
    card = session.state.hand.stock[3]
    session.apply(Action("draw_stock", 1, card=card))
    live, digest = session.state, session.digest()
    session.close()
    res = MatchSession.resume(tmp_path, fsync=False)
    assert res.session.state == live and res.session.digest() == digest
    assert res.session.state.hand.read and card in res.session.state.hand.hands[1]
    rep = replay(res.session.journal_path)
    assert rep.state == live
    res.session.close()
    with Store(tmp_path / "records.sqlite3", record_bots=True) as store:
        store.record_match(rep)
        hands = list(reversed(store.last_hands(5)))
    assert len(hands) == 2  # the voided hand, then its redeal
    assert any("misdeal" in line for line in hand_lines(hands[0]))
    assert any("drew" in line for line in hand_lines(hands[1]))
