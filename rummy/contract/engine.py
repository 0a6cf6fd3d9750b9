"""The contract rummy engine (``ENGINE``, name ``"contract"``): the GameEngine interface.

Pure functions over :class:`~rummy.contract.state.ContractState`; the deal arrives as an
action carrying the deck order, so nothing here reads a clock or a random source.
"""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rummy import multiset
from rummy.actions import TABLE, Action, ActionError, CommonRefusal, Event
from rummy.cards import Card, format_cards, new_deck
from rummy.contract import buying, flow, play_rules, reads
from rummy.contract import rules as rules_mod
from rummy.contract.contracts import cheapest_contract
from rummy.contract.describe import describe_event
from rummy.contract.kinds import RESULT_EVENTS, Phase, Refusal
from rummy.contract.kinds import ActionKind as A
from rummy.contract.kinds import EventKind as E
from rummy.contract.melds import SET, layoff_problem
from rummy.contract.rules import ContractRules
from rummy.contract.scoring import winners
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
from rummy.outcome import MatchOutcome
from rummy.reads import ReadNeed

if TYPE_CHECKING:
    from rummy.games import GameEngine


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
    """C-4: one card at a time from the dealer's left, then the upcard; left of dealer starts.

    ``deal`` carries the packs' whole order; ``deal_read`` (read mode) only the cards of the
    deal read out of the shoe, the upcard last: the stock is the rest, its order unknown."""
    if state.phase != DEAL:
        raise ActionError(CommonRefusal.NO_DEAL_DUE)
    if action.seat != TABLE:
        raise ActionError(CommonRefusal.ONLY_TABLE_DEALS, seat=action.seat)
    deck = list(action.cards)
    read = action.kind == A.DEAL_READ
    if read:
        problem = reads.deal_problem(state, deck)  # C-13: as many copies as the packs hold
        if problem is not None:
            raise problem
        want_size = reads.deal_size(state)
        if len(deck) != want_size:
            raise ActionError(Refusal.DEAL_READ_SIZE, got=len(deck), want=want_size)  # C-4.2
        deck += reads.unseen(state.rules.decks, deck)
    want = new_deck(state.rules.decks)
    if Counter(deck) != Counter(want):
        extra = multiset.missing(want, deck)
        lacking = multiset.missing(deck, want)
        raise ActionError(
            Refusal.DEAL_WRONG_CARDS, count=len(want), decks=state.rules.decks,
            extra=tuple(extra[:5]), missing=tuple(lacking[:5]),
        )  # C-4, C-13
    before = replace(state, before_deal=None)
    number = state.deal_number + 1
    n = state.seats
    dealer = (state.first_dealer + number - 1) % n  # C-4.1 the deal passes to the left
    each = state.rules.cards_per_deal[number - 1]
    hands: list[list[Card]] = [[] for _ in range(n)]
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
        read=read,
        before_deal=before,
    )
    contract = state.contract
    assert contract is not None
    first = state.left(dealer)
    events = [
        Event(
            E.DEALT,
            TABLE,
            {
                "deal": number,
                "dealer": dealer,
                "first": first,
                "cards_each": each,
                "contract": {"sets": contract.sets, "sequences": contract.sequences},  # C-3
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
    return []  # the deal, and a read-mode buy's stock cards (PENALTY): the shoe's turn


def _void_hand(state: ContractState, action: Action) -> tuple[ContractState, list[Event]]:
    """A misdeal (the operator voids the deal): back to its deal, same dealer, no score."""
    if action.seat != TABLE:
        raise ActionError(CommonRefusal.ONLY_TABLE_DEALS, seat=action.seat)
    before = state.before_deal
    if state.phase in (DEAL, OVER) or before is None:
        raise ActionError(Refusal.NOTHING_TO_VOID)
    data = {"deal": state.deal_number, "dealer": state.dealer}
    return before, [Event(E.HAND_VOIDED, TABLE, data)]


def legal_actions(state: ContractState, seat: int) -> list[Action]:
    """Every legal action of ``seat`` (the contract with one automatic arrangement)."""
    out: list[Action] = []
    if state.phase == TURN:
        if seat == state.turn:
            out.append(Action(A.DRAW_STOCK, seat))
            top = state.top
            if top is not None and not state.stock_only and top.discarder != seat:
                out.append(Action(A.DRAW_DISCARD, seat))
            out += [Action(A.BUY, seat, target=k) for k in buying.in_turn_range(state)]
        elif seat in buying.askers(state):
            out += [Action(A.BUY, seat), Action(A.NO_BUY, seat)]
    elif state.phase == ASK and state.buy is not None:
        buy = state.buy
        if seat == buy.asked:
            out.append(Action(A.ANSWER, seat, flag=True))
            out.append(Action(A.ANSWER, seat, flag=False))
        assert buy.asked is not None and buy.asker is not None
        pending = flow.seats_from(state, buy.asked, buy.asker)
        pile = PileCard(buy.card, buy.discarder)
        if (seat in pending and seat != state.turn and seat not in state.declined
                and buying.can_buy(state, seat, pile)):
            out.append(Action(A.BUY, seat))
    elif state.phase == TAKE and state.buy is not None and seat == state.buy.buyer:
        out += [Action(A.TAKE_CARDS, seat, target=k) for k in range(1, state.buy.max_cards + 1)]
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
        def exits(groups: tuple[tuple[Card, ...], ...]) -> bool:  # C-6.3 exit check
            left = len(hand) - sum(len(g) for g in groups)
            return left >= 2 or _ok(play_rules.meld, state, seat, groups)

        # the table's suggestion: the contract that leaves the fewest points in hand (C-7.2)
        groups = cheapest_contract(hand, state.contract, rules, already=already, ok=exits)
        if groups is not None:
            out.append(Action(A.MELD, seat, melds=groups))
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
                        out.append(Action(A.LAY_OFF, seat, card=card, target=m.id))
    for card in multiset.distinct(hand):
        if play_rules.discard_problem(state, seat, hand, card, taken=state.taken_card) is None:
            out.append(Action(A.DISCARD, seat, card=card))
    return out


def _ok(fn: Any, *args: Any) -> bool:
    try:
        fn(*args)
    except ActionError:
        return False
    return True


Handler = Callable[[ContractState, Action], tuple[ContractState, list[Event]]]


def _buy(state: ContractState, a: Action) -> tuple[ContractState, list[Event]]:
    if state.phase == TURN and a.seat == state.turn:
        return buying.in_turn_buy(state, a.seat, a.target, a.cards)  # C-8.2
    return buying.ask(state, a.seat)  # C-8.3


_HANDLERS: dict[tuple[Phase, A], Handler] = {
    (Phase.TURN, A.DRAW_STOCK): lambda s, a: play_rules.draw_stock(s, a.seat, a.card),
    (Phase.TURN, A.DRAW_DISCARD): lambda s, a: play_rules.draw_discard(s, a.seat),
    (Phase.TURN, A.BUY): _buy,
    (Phase.ASK, A.BUY): _buy,
    (Phase.TURN, A.NO_BUY): lambda s, a: buying.no_buy(s, a.seat),
    (Phase.ASK, A.ANSWER): lambda s, a: buying.answer(s, a.seat, a.flag),
    (Phase.TAKE, A.TAKE_CARDS): lambda s, a: buying.take_cards(s, a.seat, a.target, a.cards),
    (Phase.PENALTY, A.STOCK_CARDS): lambda s, a: buying.stock_cards(s, a.seat, a.cards),
    (Phase.PLAY, A.MELD): lambda s, a: play_rules.meld(s, a.seat, a.melds),
    (Phase.PLAY, A.LAY_OFF): lambda s, a: play_rules.lay_off(s, a.seat, a.card, a.target),
    (Phase.PLAY, A.DISCARD): lambda s, a: play_rules.discard(s, a.seat, a.card),
}

# Why a kind is refused outside its phases, when saying more than "not now" helps.
_NOT_NOW: dict[str, Refusal] = {
    A.BUY: Refusal.BUY_NOT_NOW,
    A.NO_BUY: Refusal.NOTHING_TO_PASS,
    A.ANSWER: Refusal.NOT_ASKED,
    A.TAKE_CARDS: Refusal.NOT_BUYING,
    A.STOCK_CARDS: Refusal.NO_CARDS_DUE,
}


def apply(state: ContractState, action: Action) -> tuple[ContractState, list[Event]]:
    """The next state and its events; a coded ``ActionError`` otherwise."""
    if not isinstance(action, Action):
        raise ActionError(CommonRefusal.NOT_AN_ACTION, value=repr(action))
    if state.phase == OVER:
        raise ActionError(CommonRefusal.MATCH_OVER)
    kind, seat = action.kind, action.seat
    if kind in (A.DEAL, A.DEAL_READ):
        return _deal(state, action)
    if kind == A.VOID_HAND:
        return _void_hand(state, action)
    if kind not in _KINDS:
        raise ActionError(CommonRefusal.UNKNOWN_ACTION, kind=kind, known=tuple(A))
    if not 0 <= seat < state.seats:
        raise ActionError(CommonRefusal.SEAT_NOT_AT_TABLE, seat=seat, seats=state.seats)
    if state.phase == DEAL:
        raise ActionError(CommonRefusal.DEAL_FIRST, kind=kind)
    handler = _HANDLERS.get((Phase(state.phase), A(kind)))
    if handler is not None:
        return handler(state, action)
    if kind in _NOT_NOW:
        raise ActionError(_NOT_NOW[kind], seat=seat)
    if state.phase in (TURN, PLAY) and seat != state.turn:
        raise ActionError(CommonRefusal.NOT_YOUR_TURN, seat=seat, turn=state.turn)
    raise ActionError(
        CommonRefusal.NOT_NOW, kind=kind, phase=state.phase, waiting=waiting_for(state.phase)
    )


_KINDS = frozenset(A)


def waiting_for(phase: str) -> tuple[A, ...]:
    """The action kinds the handler table takes in ``phase``."""
    return tuple(k for p, k in _HANDLERS if p == phase)


def view(state: ContractState, seat: int | None) -> ContractView:
    """What ``seat`` may see: his own hand, hand sizes, stock size, the open table."""
    own = seat is not None and 0 <= seat < state.seats
    buy = state.buy
    if buy is not None and buy.drawn and seat != buy.buyer:  # read mode: his stock cards
        buy = replace(buy, drawn=())
    return ContractView(
        seat=seat,
        rules=state.rules,
        deal_number=state.deal_number,
        dealer=state.dealer,
        phase=state.phase,
        turn=state.turn,
        hand=state.hands[seat] if own and seat is not None else None,
        hand_sizes=tuple(len(h) for h in state.hands),
        stock_size=len(state.stock),
        discard_pile=state.discard_pile,
        table_melds=state.table_melds,
        contract_down=state.contract_down,
        scores=state.scores,
        results=state.results,
        buy=buy,
        buys=state.buys,
        taken_card=state.taken_card if own and seat == state.turn else None,
        melded_this_turn=state.melded_this_turn,
        stock_only=state.stock_only,
        turns_started=state.turns_started,
        read=state.read,
    )


class ContractEngine:
    """Five-deal contract rummy with "Можно?" buying (seed 002)."""

    name = "contract"
    result_events = RESULT_EVENTS

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

    def outcome(self, state: ContractState, *, abandoned: bool = False) -> MatchOutcome:
        """Totals are the scores; the highest total wins, ties share (C-7.4)."""
        if state.phase == OVER:
            return MatchOutcome.won(tuple(winners(state.scores)), state.scores)
        result = MatchOutcome.in_progress(state.scores)
        return result.abandon() if abandoned else result

    def view(self, state: ContractState, seat: int | None) -> ContractView:
        return view(state, seat)

    def player(self, level: str = "basic") -> Any:
        """A new computer player of ``level`` (``rummy.players``: easy, medium, hard, basic)."""
        from rummy.players import player

        return player(self.name, level)

    def describe(self, event: Event) -> str:
        return describe_event(event)

    def expected(self, state: ContractState) -> ReadNeed | None:
        """Cards out of the shoe due now (read mode; :func:`rummy.contract.reads.expected`)."""
        return reads.expected(state)


ENGINE = ContractEngine()

if TYPE_CHECKING:  # mypy checks that ENGINE offers the whole interface over contract's types
    _CONFORMS: GameEngine[ContractState, ContractRules, ContractView] = ENGINE
