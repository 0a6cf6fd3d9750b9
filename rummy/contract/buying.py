"""Buying the open pack's top card: the "Можно?" protocol of seed 002 (C-8, C-9).

Flow (seats act, the engine decides; never by press order, C-8.8):

* In the window at the start of a turn (phase ``turn``) any seat except the player in
  turn N and the card's discarder may ``buy`` ("Можно?"). The question goes to the seats
  from N towards the asker, in seat order, skipping those who could not buy the card.
* While the question travels, a seat nearer to N that has not answered yet may still
  press BUY and becomes the asker (the nearest requester wins); farther seats are refused.
* ``answer`` True ("Можно") passes the question on; the asker is granted when nobody is
  left. ``answer`` False ("Нельзя") makes the refuser buy (free if he is N).
* A buyer may take further cards under the top one (``take_cards``), one stock card each.
* N's own multi-card buy is ``buy`` with ``target`` = number of cards (C-8.2).
"""

from __future__ import annotations

from dataclasses import replace

from rummy.actions import TABLE, ActionError, Event
from rummy.cards import Card
from rummy.contract import flow
from rummy.contract.kinds import EventKind as E
from rummy.contract.kinds import Refusal
from rummy.contract.rules import AfterBuyTurn, ContractRules, NextPlayerRefusal
from rummy.contract.state import ASK, PENALTY, PLAY, TAKE, TURN, BuyState, ContractState, PileCard


def can_buy(state: ContractState, seat: int, pile: PileCard) -> bool:
    """May ``seat`` buy ``pile`` at all (C-8.1, C-8.7)?"""
    rules = state.rules
    if pile.discarder == seat:  # C-8.1 nobody buys his own discard
        return False
    if rules.max_buys_per_deal is not None and state.buys[seat] >= rules.max_buys_per_deal:
        return False
    return rules.buy_after_contract or not state.contract_down[seat]


def refusal_is_draw(state: ContractState, seat: int, pile: PileCard) -> bool:
    """Is a "Нельзя" from ``seat`` his ordinary draw of the card rather than a buy?

    C-12.2 ``take_as_draw``: always for the player in turn. Otherwise only when the player
    in turn may not buy (``max_buys_per_deal`` used up, or ``buy_after_contract`` off and
    his contract down, C-8.7): he may still take the card discarded for him as his draw
    (C-5.1), so he is still asked first and his refusal is that draw.
    """
    if seat != state.turn:
        return False
    return state.rules.next_player_refusal == NextPlayerRefusal.TAKE_AS_DRAW or not can_buy(
        state, seat, pile
    )


def can_refuse(state: ContractState, seat: int, pile: PileCard) -> bool:
    """May ``seat`` answer "Нельзя" (and so buy the card himself, C-8.4)?"""
    if refusal_is_draw(state, seat, pile):
        return pile.discarder != seat  # C-5.1: never his own discard
    return can_buy(state, seat, pile)


def askers(state: ContractState) -> list[int]:
    """Seats that may ask "Можно?" in the window now, nearest to N first (C-9 ASK_POLL)."""
    if state.phase != TURN or state.stock_only or state.top is None:
        return []
    top = state.top
    return [
        s
        for s in flow.seats_from(state, state.left(state.turn), state.turn)
        if s not in state.declined and can_buy(state, s, top)
    ]


def max_take(state: ContractState, buyer: int) -> int:
    """How many consecutive pack cards from the top ``buyer`` may take (C-8.5, C-12.9)."""
    n = 0
    for pile in reversed(state.discard_pile):
        if pile.discarder == buyer and state.rules.forbid_own_discards_in_buy:
            break
        n += 1
    return n


def in_turn_range(state: ContractState) -> range:
    """Card counts N may take in an in-turn buy now (C-8.2); empty when he may not."""
    top = state.top
    n = state.turn
    if state.phase != TURN or state.stock_only or top is None or not can_buy(state, n, top):
        return range(0)
    low = 1 if state.rules.in_turn_single_card_buy else 2
    return range(low, max_take(state, n) + 1)


def ask(state: ContractState, seat: int) -> tuple[ContractState, list[Event]]:
    """``seat`` presses BUY: "Можно?" (C-8.3)."""
    top = state.top
    n = state.turn
    if state.phase == TURN:
        if state.stock_only:
            raise ActionError(Refusal.BUY_STOCK_ONLY, seat=n)  # C-15.1
        if top is None:
            raise ActionError(Refusal.BUY_PACK_EMPTY)
        if seat == n:  # C-8.2
            raise ActionError(Refusal.BUY_IN_TURN_NEEDS_COUNT, seat=seat)
        if seat in state.declined:
            raise ActionError(Refusal.ALREADY_PASSED, seat=seat, card=top.card)
        _check_buyer(state, seat, top)
        buy = BuyState(top.card, top.discarder, asker=seat, requests=frozenset({seat}))
        state = replace(state, phase=ASK, buy=buy)
        events = [Event(E.ASKED_TO_BUY, seat, {"card": str(top.card)})]
        return _walk(state, n, events)
    if state.phase == ASK and state.buy is not None:
        buy = state.buy
        assert buy.asked is not None and buy.asker is not None
        pending = flow.seats_from(state, buy.asked, buy.asker)
        if seat == n:
            raise ActionError(Refusal.ASKED_MUST_ANSWER, seat=n)  # C-8.4
        if seat == buy.asker or seat in buy.requests:
            raise ActionError(Refusal.ALREADY_ASKED, seat=seat, card=buy.card)
        if seat not in pending:  # C-8.8
            raise ActionError(Refusal.BUY_PRIORITY, seat=seat, asker=buy.asker, card=buy.card)
        if seat in state.declined:
            raise ActionError(Refusal.ALREADY_PASSED, seat=seat, card=buy.card)
        _check_buyer(state, seat, PileCard(buy.card, buy.discarder))
        # The nearest requester is the asker; the seats before him that said "Можно"
        # stay permitted (C-8.8).
        buy = replace(buy, asker=seat, requests=buy.requests | {seat})
        state = replace(state, buy=buy)
        events = [Event(E.ASKED_TO_BUY, seat, {"card": str(buy.card)})]
        assert buy.asked is not None
        return _walk(state, buy.asked, events)
    raise ActionError(Refusal.BUY_NOT_NOW, seat=seat)


def _check_buyer(state: ContractState, seat: int, pile: PileCard) -> None:
    rules = state.rules
    if pile.discarder == seat:
        raise ActionError(Refusal.BUY_OWN_DISCARD, seat=seat, card=pile.card)  # C-8.1
    if rules.max_buys_per_deal is not None and state.buys[seat] >= rules.max_buys_per_deal:
        raise ActionError(Refusal.BUY_LIMIT, seat=seat, limit=rules.max_buys_per_deal)  # C-8.7
    if not rules.buy_after_contract and state.contract_down[seat]:
        raise ActionError(Refusal.BUY_AFTER_CONTRACT, seat=seat)  # C-8.7


def no_buy(state: ContractState, seat: int) -> tuple[ContractState, list[Event]]:
    """``seat`` passes on the window's card (bots; a table simply never presses BUY)."""
    if state.phase != TURN or seat not in askers(state):
        raise ActionError(Refusal.NOTHING_TO_PASS, seat=seat)
    top = state.top
    assert top is not None
    state = replace(state, declined=state.declined | {seat})
    return state, [Event(E.PASSED_ON_BUY, seat, {"card": str(top.card)})]


def _walk(state: ContractState, start: int, events: list[Event]) -> tuple[ContractState, list[Event]]:
    """Put the question to the next seat from ``start`` that could refuse, or grant it."""
    buy = state.buy
    assert buy is not None and buy.asker is not None
    pile = PileCard(buy.card, buy.discarder)
    for seat in flow.seats_from(state, start, buy.asker):
        if can_refuse(state, seat, pile):  # seats with no right to the card are not asked
            state = replace(state, buy=replace(buy, asked=seat))
            events.append(Event(E.QUESTION, seat, {"asker": buy.asker, "card": str(buy.card)}))
            return state, events
    events.append(Event(E.BUY_GRANTED, buy.asker, {"card": str(buy.card), "by": list(buy.permitted)}))
    return _start_take(state, buy.asker, first_free=False, granted=True, events=events)


def answer(state: ContractState, seat: int, flag: bool | None) -> tuple[ContractState, list[Event]]:
    """The asked seat answers: True "Можно" (C-8.5 chain), False "Нельзя" (C-8.4)."""
    buy = state.buy
    if state.phase != ASK or buy is None or buy.asked != seat:
        raise ActionError(Refusal.NOT_ASKED, seat=seat)
    if flag is None:
        raise ActionError(Refusal.ANSWER_NEEDS_FLAG, seat=seat)
    events = [Event(E.ANSWERED, seat, {"flag": flag, "asker": buy.asker, "card": str(buy.card)})]
    if flag:
        state = replace(state, buy=replace(buy, permitted=(*buy.permitted, seat)))
        return _walk(state, state.left(seat), events)
    n = state.turn
    if refusal_is_draw(state, seat, PileCard(buy.card, buy.discarder)):
        # C-12.2 take_as_draw, or N may not buy (C-8.7): N's refusal is his ordinary draw.
        top = state.discard_pile[-1]
        state = flow.with_hand(state, n, (*state.hands[n], top.card))
        state = replace(state, discard_pile=state.discard_pile[:-1], buy=None, phase=PLAY,
                        taken_card=top.card)
        events.append(Event(E.TOOK_DISCARD, n, {"card": str(top.card)}))
        return state, events
    return _start_take(state, seat, first_free=(seat == n), granted=False, events=events)


def _start_take(
    state: ContractState, buyer: int, *, first_free: bool, granted: bool, events: list[Event]
) -> tuple[ContractState, list[Event]]:
    """C-8.5: the buyer may take further cards; ask how many unless only one is possible."""
    buy = state.buy
    assert buy is not None
    most = max_take(state, buyer)
    if not granted and not state.rules.refuser_may_take_more:
        most = 1
    buy = replace(buy, buyer=buyer, first_free=first_free, granted=granted, max_cards=most)
    state = replace(state, phase=TAKE, buy=buy)
    if most <= 1:
        state, more = execute(state, buyer, 1, "granted" if granted else "refused")
        return state, events + more
    return state, events


def take_cards(
    state: ContractState, seat: int, k: int | None, cards: tuple[Card, ...] = ()
) -> tuple[ContractState, list[Event]]:
    """The buyer takes ``k`` pack cards from the top (C-8.5); in read mode ``cards`` may
    carry the first stock cards read for it (the rest come with ``stock_cards``)."""
    buy = state.buy
    if state.phase != TAKE or buy is None or buy.buyer != seat:
        raise ActionError(Refusal.NOT_BUYING, seat=seat)
    if k is None or not 1 <= k <= buy.max_cards:
        raise ActionError(Refusal.TAKE_COUNT, max=buy.max_cards, got=k)
    return execute(state, seat, k, "granted" if buy.granted else "refused", cards)


def in_turn_buy(
    state: ContractState, seat: int, k: int | None, cards: tuple[Card, ...] = ()
) -> tuple[ContractState, list[Event]]:
    """C-8.2: N takes the top card and ``k - 1`` more, one stock card for each extra card."""
    if state.phase != TURN or seat != state.turn:
        raise ActionError(Refusal.NOT_IN_TURN, seat=seat)
    allowed = in_turn_range(state)
    top = state.top
    if top is not None and top.discarder == seat:
        raise ActionError(Refusal.BUY_OWN_DISCARD, seat=seat, card=top.card)  # C-8.1
    if k is None or k not in allowed:
        if not allowed:
            raise ActionError(Refusal.IN_TURN_BUY_NOT_NOW, seat=seat)
        raise ActionError(
            Refusal.IN_TURN_BUY_COUNT, low=allowed.start, high=allowed.stop - 1, got=k
        )  # C-8.2
    return execute(state, seat, k, "in_turn", cards)


def stock_penalty(rules: ContractRules, k: int, first_free: bool) -> int:
    """The stock cards that come with ``k`` pack cards (C-8.2, C-8.4, C-8.5): the first one
    at the in-turn rate for the player in turn (``first_free``), each other at the per-card
    rate."""
    per = rules.penalty_out_of_turn_per_card
    return int((rules.penalty_in_turn_first_card if first_free else per) + (k - 1) * per)


def execute(
    state: ContractState, buyer: int, k: int, how: str, cards: tuple[Card, ...] = ()
) -> tuple[ContractState, list[Event]]:
    """Move ``k`` pack cards and the stock penalties to ``buyer``; then the next turn (C-8.6).

    In read mode the pack cards go to the buyer now and the stock cards come out of the
    shoe: phase ``penalty`` until they are read (``cards``, then ``stock_cards``)."""
    rules = state.rules
    n = state.turn
    buy = state.buy
    first_free = how == "in_turn" or (how == "refused" and buyer == n)
    taken = [p.card for p in reversed(state.discard_pile[-k:])]  # top first
    pile = state.discard_pile
    state = replace(state, discard_pile=state.discard_pile[:-k])
    penalties = stock_penalty(rules, k, first_free)
    if state.read:
        if buy is None:  # the in-turn buy (C-8.2) asks nobody
            buy = BuyState(pile[-1].card, pile[-1].discarder, buyer=buyer, first_free=True)
        buy = replace(buy, buyer=buyer, first_free=first_free, how=how, taken=tuple(taken),
                      due=penalties, drawn=(), refill=None)
        state = flow.with_hand(state, buyer, (*state.hands[buyer], *taken), phase=PENALTY, buy=buy)
        return read_stock_cards(state, cards)
    if cards:
        raise ActionError(Refusal.NOT_READ_HAND, cards=cards)
    drawn = []
    events: list[Event] = []
    dead = False
    for _ in range(penalties):
        state, card, more = flow.draw_card(state)
        events += more
        if card is None:  # C-8.7: waive what cannot be drawn; C-10.2 ends the deal
            dead = True
            break
        drawn.append(card)
    state = flow.with_hand(state, buyer, (*state.hands[buyer], *taken, *drawn))
    return _bought(state, buyer, how, taken, drawn, penalties, buy.asker if buy else None,
                   events, dead)


def _bought(
    state: ContractState, buyer: int, how: str, taken: list[Card], drawn: list[Card],
    penalties: int, asker: int | None, events: list[Event], dead: bool,
) -> tuple[ContractState, list[Event]]:
    """The buy is complete (its cards in the buyer's hand): count it, then the next turn."""
    rules = state.rules
    n = state.turn
    buys = list(state.buys)
    buys[buyer] += 1
    state = replace(state, buys=tuple(buys), buy=None)
    events.insert(
        0,
        Event(
            E.BOUGHT,
            buyer,
            {
                "how": how,
                "cards": [str(c) for c in taken],
                "penalty_cards": [str(c) for c in drawn],
                "waived": penalties - len(drawn),
                "asker": asker,
                "turn": n,
            },
        ),
    )
    if dead:
        events.append(Event(E.STOCK_EXHAUSTED, TABLE, {}))
        state, more = flow.end_deal(state, None)
        return state, events + more
    if how == "granted" and rules.after_buy_turn == AfterBuyTurn.RESUME:
        # C-8.6 resume / C-15.1: N plays on and must draw from the stock.
        state, more = flow.start_turn(state, n, stock_only=True)
    elif how == "in_turn":
        state, more = flow.start_turn(state, state.left(n))  # C-8.2
    else:
        # C-8.6 jump: the buy was the buyer's turn; the seats from N to him lose theirs.
        skipped = tuple(flow.seats_from(state, n, buyer))
        state, more = flow.start_turn(state, state.left(buyer), skipped=skipped)
    return state, events + more


# --- read mode: a buy's stock cards out of the shoe ---------------------------------------


def cards_due(state: ContractState) -> int:
    """Read mode, phase ``penalty``: how many stock cards can still come out for the buy
    (those due, less what the stock and its one refill cannot give: waived, C-8.7)."""
    buy = state.buy
    if state.phase != PENALTY or buy is None:
        return 0
    left = buy.due - len(buy.drawn)
    can = len(state.stock) + (len(state.discard_pile) - 1 if flow.can_refill(state) else 0)
    return max(0, min(left, can))


def stock_cards(state: ContractState, seat: int, cards: tuple[Card, ...]) -> tuple[ContractState, list[Event]]:
    """Read mode: stock cards read out of the shoe for the buy in progress (C-8.5)."""
    buy = state.buy
    if state.phase != PENALTY or buy is None:
        raise ActionError(Refusal.NO_CARDS_DUE, seat=seat)
    if seat != buy.buyer:
        raise ActionError(Refusal.NOT_BUYING, seat=seat)
    if not cards:
        raise ActionError(Refusal.READ_TOO_MANY, got=0, want=cards_due(state))
    return read_stock_cards(state, cards)


def read_stock_cards(state: ContractState, cards: tuple[Card, ...]) -> tuple[ContractState, list[Event]]:
    """Take ``cards`` as the buy's next stock cards; complete the buy when none is due."""
    want = cards_due(state)
    if len(cards) > want:
        raise ActionError(Refusal.READ_TOO_MANY, got=len(cards), want=want)
    buy = state.buy
    assert buy is not None and buy.buyer is not None
    drawn = list(buy.drawn)
    refill = buy.refill
    for card in cards:
        before = state.refills_used
        state, _ = flow.read_card(state, card)  # C-10: refill first when the stock is empty
        if state.refills_used != before:  # its event comes with the buy's (as in virtual)
            refill = tuple(sorted(state.stock + (card,)))
        drawn.append(card)
    state = replace(state, buy=replace(buy, drawn=tuple(drawn), refill=refill))
    if cards_due(state):
        return state, []
    buyer = buy.buyer
    state = flow.with_hand(state, buyer, (*state.hands[buyer], *drawn))
    events = [flow.refill_event(refill, state.refills_used)] if refill is not None else []
    dead = len(drawn) < buy.due  # C-8.7, C-10.2: the stock ran out for good
    return _bought(state, buyer, buy.how, list(buy.taken), drawn, buy.due, buy.asker,
                   events, dead)
