"""The contract rummy engine (``ENGINE``, name ``"contract"``): the GameEngine interface.

Pure functions over :class:`~rummy.contract.state.ContractState`; the deal arrives as an
action carrying the deck order, so nothing here reads a clock or a random source.
"""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rummy import multiset
from rummy.actions import TABLE, Action, ActionError, Event
from rummy.cards import format_cards, new_deck
from rummy.contract import buying, flow, play_rules
from rummy.contract import rules as rules_mod
from rummy.contract.contracts import find_contract
from rummy.contract.describe import describe_event
from rummy.contract.melds import SET, layoff_problem
from rummy.contract.rules import ContractRules
from rummy.contract.state import (
    ASK,
    DEAL,
    OVER,
    PLAY,
    TAKE,
    TURN,
    ContractState,
    ContractView,
    PileCard,
)


def new_match(rules: ContractRules, seats: int, *, first_dealer: int = 0) -> ContractState:
    """The state before the first deal (C-1.1: 2-6 players)."""
    if not isinstance(rules, ContractRules):
        raise ValueError("new_match needs ContractRules (use rules_from_dict or preset)")
    if not 2 <= seats <= 6:
        raise ValueError(f"contract rummy is for 2 to 6 players, got {seats}")
    if seats * max(rules.cards_per_deal) + 1 > 52 * rules.decks:
        raise ValueError(f"{seats} players x {max(rules.cards_per_deal)} cards do not fit the packs")
    if not 0 <= first_dealer < seats:
        raise ValueError(f"first_dealer must be a seat 0..{seats - 1}, got {first_dealer}")
    return ContractState(
        rules=rules,
        seats=seats,
        first_dealer=first_dealer,
        deal_number=0,
        dealer=first_dealer,
        phase=DEAL,
        turn=first_dealer,
        hands=((),) * seats,
        stock=(),
        discard_pile=(),
        table_melds=(),
        contract_down=(False,) * seats,
        contract_groups=(0,) * seats,
        scores=(0,) * seats,
        buys=(0,) * seats,
    )


def _deal(state: ContractState, action: Action) -> tuple[ContractState, list[Event]]:
    """C-4: one card at a time from the dealer's left, then the upcard; left of dealer starts."""
    if state.phase != DEAL:
        raise ActionError("no deal is due now")
    if action.seat != TABLE:
        raise ActionError("the table deals (seat -1)")
    deck = list(action.cards)
    want = new_deck(state.rules.decks)
    if Counter(deck) != Counter(want):
        extra = multiset.missing(want, deck)
        lacking = multiset.missing(deck, want)
        raise ActionError(
            f"the deal must hold exactly {len(want)} cards of {state.rules.decks} packs"
            + (f"; extra {format_cards(extra[:5])}" if extra else "")
            + (f"; missing {format_cards(lacking[:5])}" if lacking else "")
        )
    number = state.deal_number + 1
    n = state.seats
    dealer = (state.first_dealer + number - 1) % n  # C-4.1 the deal passes to the left
    each = state.rules.cards_per_deal[number - 1]
    hands: list[list] = [[] for _ in range(n)]
    for j in range(n * each):
        hands[(dealer + 1 + j) % n].append(deck[j])
    upcard = deck[n * each]
    state = replace(
        state,
        deal_number=number,
        dealer=dealer,
        hands=tuple(tuple(sorted(h)) for h in hands),
        stock=tuple(deck[n * each + 1 :]),
        discard_pile=(PileCard(upcard, None),),  # C-4.4: no discarder
        table_melds=(),
        contract_down=(False,) * n,
        contract_groups=(0,) * n,
        buys=(0,) * n,
        refills_used=0,
        next_meld_id=1,
        deal_seed=zlib.crc32(format_cards(deck).encode()),
        turns_started=0,
    )
    contract = state.contract
    assert contract is not None
    first = state.left(dealer)
    events = [
        Event(
            "dealt",
            TABLE,
            {
                "deal": number,
                "dealer": dealer,
                "first": first,
                "cards_each": each,
                "contract": contract.describe(),
                "upcard": str(upcard),
            },
        )
    ]
    state, more = flow.start_turn(state, first)
    return state, events + more


def to_act(state: ContractState) -> list[int]:
    """Seats that may act now: in the window the possible askers (nearest first) then N."""
    if state.phase == TURN:
        return [*buying.askers(state), state.turn]
    if state.phase == ASK and state.buy is not None and state.buy.asked is not None:
        return [state.buy.asked]
    if state.phase == TAKE and state.buy is not None and state.buy.buyer is not None:
        return [state.buy.buyer]
    if state.phase == PLAY:
        return [state.turn]
    return []


def legal_actions(state: ContractState, seat: int) -> list[Action]:
    """Every legal action of ``seat`` (the contract with one automatic arrangement)."""
    out: list[Action] = []
    if state.phase == TURN:
        if seat == state.turn:
            out.append(Action("draw_stock", seat))
            top = state.top
            if top is not None and not state.stock_only and top.discarder != seat:
                out.append(Action("draw_discard", seat))
            out += [Action("buy", seat, target=k) for k in buying.in_turn_range(state)]
        elif seat in buying.askers(state):
            out += [Action("buy", seat), Action("no_buy", seat)]
    elif state.phase == ASK and state.buy is not None:
        buy = state.buy
        if seat == buy.asked:
            out.append(Action("answer", seat, flag=True))
            out.append(Action("answer", seat, flag=False))
        assert buy.asked is not None and buy.asker is not None
        pending = flow.seats_from(state, buy.asked, buy.asker)
        pile = PileCard(buy.card, buy.discarder)
        if (seat in pending and seat != state.turn and seat not in state.declined
                and buying.can_buy(state, seat, pile)):
            out.append(Action("buy", seat))
    elif state.phase == TAKE and state.buy is not None and seat == state.buy.buyer:
        out += [Action("take_cards", seat, target=k) for k in range(1, state.buy.max_cards + 1)]
    elif state.phase == PLAY and seat == state.turn:
        out += _play_actions(state, seat)
    return out


def _play_actions(state: ContractState, seat: int) -> list[Action]:
    rules = state.rules
    hand = state.hands[seat]
    out: list[Action] = []
    down = state.contract_down[seat]
    if not down and state.contract is not None:
        # C-3.1: with contract_in_one_turn off, only the rest of a partly laid contract
        already = [m.cards for m in state.table_melds if m.owner == seat]
        groups = find_contract(hand, state.contract, rules, already=already)
        if groups is not None:
            action = Action("meld", seat, melds=groups)
            left = len(hand) - sum(len(g) for g in groups)
            if left >= 2 or _ok(play_rules.meld, state, seat, groups):  # C-6.3 exit check
                out.append(action)
    may_lay_off = (down or not rules.layoff_requires_contract) and not (
        state.melded_this_turn and not rules.layoff_same_turn_as_contract
    )
    if may_lay_off:
        for card in multiset.distinct(hand):
            for m in state.table_melds:
                first = m.cards[0]
                if (first.rank != card.rank) if m.kind == SET else (first.suit != card.suit):
                    continue
                if layoff_problem(m.cards, card, rules) is None:
                    if len(hand) > 2 or _ok(play_rules.lay_off, state, seat, card, m.id):
                        out.append(Action("lay_off", seat, card=card, target=m.id))
    for card in multiset.distinct(hand):
        if play_rules.discard_problem(state, seat, hand, card, taken=state.taken_card) is None:
            out.append(Action("discard", seat, card=card))
    return out


def _ok(fn: Any, *args: Any) -> bool:
    try:
        fn(*args)
    except ActionError:
        return False
    return True


def apply(state: ContractState, action: Action) -> tuple[ContractState, list[Event]]:
    """The next state and its events; ``ActionError`` with a readable reason otherwise."""
    if not isinstance(action, Action):
        raise ActionError(f"not an action: {action!r}")
    if state.phase == OVER:
        raise ActionError("the match is over")
    kind, seat = action.kind, action.seat
    if kind == "deal":
        return _deal(state, action)
    if not 0 <= seat < state.seats:
        raise ActionError(f"seat {seat} is not at this table (0..{state.seats - 1})")
    if state.phase == DEAL:
        raise ActionError("waiting for the deal")
    if kind == "draw_stock":
        return play_rules.draw_stock(state, seat)
    if kind == "draw_discard":
        return play_rules.draw_discard(state, seat)
    if kind == "buy":
        if state.phase == TURN and seat == state.turn:
            return buying.in_turn_buy(state, seat, action.target)
        return buying.ask(state, seat)
    if kind == "no_buy":
        return buying.no_buy(state, seat)
    if kind == "answer":
        return buying.answer(state, seat, action.flag)
    if kind == "take_cards":
        return buying.take_cards(state, seat, action.target)
    if kind == "meld":
        return play_rules.meld(state, seat, action.melds)
    if kind == "lay_off":
        return play_rules.lay_off(state, seat, action.card, action.target)
    if kind == "discard":
        return play_rules.discard(state, seat, action.card)
    raise ActionError(
        f"unknown action {kind!r} for contract rummy; known: deal, draw_stock, draw_discard, "
        "buy, no_buy, answer, take_cards, meld, lay_off, discard"
    )


def view(state: ContractState, seat: int | None) -> ContractView:
    """What ``seat`` may see: his own hand, hand sizes, stock size, the open table."""
    own = seat is not None and 0 <= seat < state.seats
    return ContractView(
        seat=seat,
        rules=state.rules,
        deal_number=state.deal_number,
        dealer=state.dealer,
        phase=state.phase,
        turn=state.turn,
        hand=state.hands[seat] if own else None,
        hand_sizes=tuple(len(h) for h in state.hands),
        stock_size=len(state.stock),
        discard_pile=state.discard_pile,
        table_melds=state.table_melds,
        contract_down=state.contract_down,
        scores=state.scores,
        results=state.results,
        buy=state.buy,
        buys=state.buys,
        taken_card=state.taken_card if own and seat == state.turn else None,
        melded_this_turn=state.melded_this_turn,
        stock_only=state.stock_only,
        turns_started=state.turns_started,
    )


class ContractEngine:
    """Five-deal contract rummy with "Можно?" buying (seed 002)."""

    name = "contract"

    def rules_from_dict(self, data: Mapping[str, Any]) -> ContractRules:
        return rules_mod.rules_from_dict(data)

    def rules_to_dict(self, rules: ContractRules) -> dict[str, Any]:
        return rules_mod.rules_to_dict(rules)

    def preset(self, name: str) -> ContractRules:
        return rules_mod.preset(name)

    def new_match(self, rules: ContractRules, seats: int, *, first_dealer: int = 0) -> ContractState:
        return new_match(rules, seats, first_dealer=first_dealer)

    def decks_to_deal(self, state: ContractState) -> int:
        return state.rules.decks if state.phase == DEAL else 0

    def to_act(self, state: ContractState) -> list[int]:
        return to_act(state)

    def legal_actions(self, state: ContractState, seat: int) -> list[Action]:
        return legal_actions(state, seat)

    def apply(self, state: ContractState, action: Action) -> tuple[ContractState, list[Event]]:
        return apply(state, action)

    def is_over(self, state: ContractState) -> bool:
        return state.phase == OVER

    def view(self, state: ContractState, seat: int | None) -> ContractView:
        return view(state, seat)

    def player(self, level: str = "basic") -> Any:
        """A new computer player of ``level`` (``rummy.players``: easy, medium, hard, basic)."""
        from rummy.players import player

        return player(self.name, level)

    def describe(self, event: Event) -> str:
        return describe_event(event)


ENGINE = ContractEngine()
