"""The normal turn (C-5, C-6): taking a card, the contract, lay-offs, the discard, going out."""

from __future__ import annotations

from collections.abc import Sequence

from rummy import multiset
from rummy.actions import TABLE, ActionError, CommonRefusal, Event
from rummy.cards import Card, format_cards
from rummy.contract import flow
from rummy.contract.contracts import contract_problem
from rummy.contract.kinds import ActionKind as A
from rummy.contract.kinds import EventKind as E
from rummy.contract.kinds import Refusal
from rummy.contract.melds import arrange, layoff_problem, meld_kind
from rummy.contract.state import PLAY, TURN, ContractState, PileCard, TableMeld


def draw_stock(state: ContractState, seat: int, card: Card | None = None) -> tuple[ContractState, list[Event]]:
    """C-5.1: take the top stock card (C-10: refill once, then the deal ends).

    In read mode ``card`` is the card read out of the shoe (required while one can come
    out); in virtual mode it stays None and the stock's top card is drawn."""
    _check_turn(state, seat, TURN, A.DRAW_STOCK)
    if state.read:
        if card is not None:
            state, events = flow.read_card(state, card)  # C-15.5: refill first
        elif flow.can_draw(state):
            raise ActionError(Refusal.CARD_READ_NEEDED, seat=seat)
        else:  # the stock is gone for good: no card can come out
            state, drawn, events = flow.draw_card(state)
            assert drawn is None
    else:
        if card is not None:
            raise ActionError(Refusal.NOT_READ_HAND, card=card)
        state, card, events = flow.draw_card(state)
    if card is None:
        events.append(Event(E.STOCK_EXHAUSTED, TABLE, {}))
        state, more = flow.end_deal(state, None)  # C-10.2, C-7.5
        return state, events + more
    state = flow.with_hand(state, seat, (*state.hands[seat], card), phase=PLAY, buy=None)
    # C-15.5: the refill (if any) happens first, then the card is drawn from the new stock.
    return state, [*events, Event(E.DREW_STOCK, seat, {"card": str(card)})]


def draw_discard(state: ContractState, seat: int) -> tuple[ContractState, list[Event]]:
    """C-5.1: take the top card of the open pack as the turn's draw."""
    _check_turn(state, seat, TURN, A.DRAW_DISCARD)
    top = state.top
    if state.stock_only:  # C-15.1
        raise ActionError(Refusal.STOCK_ONLY, seat=seat)
    if top is None:
        raise ActionError(Refusal.PACK_EMPTY)
    if top.discarder == seat:  # C-5.1
        raise ActionError(Refusal.TAKE_BACK_OWN_DISCARD, seat=seat, card=top.card)
    state = flow.with_hand(state, seat, (*state.hands[seat], top.card),
                           discard_pile=state.discard_pile[:-1], phase=PLAY, taken_card=top.card)
    return state, [Event(E.TOOK_DISCARD, seat, {"card": str(top.card)})]


def _check_turn(state: ContractState, seat: int, phase: str, kind: str) -> None:
    if state.phase in (TURN, PLAY) and seat != state.turn:
        raise ActionError(CommonRefusal.NOT_YOUR_TURN, seat=seat, turn=state.turn)
    if state.phase != phase or seat != state.turn:
        raise ActionError(Refusal.NOT_NOW, kind=kind, phase=state.phase, seat=seat)


def discard_problem(state: ContractState, seat: int, hand: Sequence[Card], card: Card,
                    *, contract_down: bool | None = None,
                    taken: Card | None = None) -> ActionError | None:
    """Why ``card`` may not be discarded from ``hand`` (C-5.3, C-6.2, C-6.3), or None."""
    rules = state.rules
    down = state.contract_down[seat] if contract_down is None else contract_down
    if card not in hand:
        return ActionError(Refusal.CARD_NOT_IN_HAND, card=card, seat=seat)
    if rules.forbid_discarding_taken_card and card == taken and hand.count(card) == 1:
        return ActionError(Refusal.DISCARD_TAKEN_CARD, card=card)  # C-5.3
    if len(hand) == 1:
        if state.last_deal and rules.last_deal_no_discard_out:
            return ActionError(Refusal.LAST_CARD_MUST_BE_LAID, card=card)  # C-6.3
        if not down:
            return ActionError(Refusal.OUT_WITHOUT_CONTRACT)  # C-3.1
    return None


def _can_lay_off_last(state: ContractState, seat: int, card: Card, melds: Sequence[TableMeld],
                      down: bool, melded: bool) -> bool:
    rules = state.rules
    if not down or (melded and not rules.layoff_same_turn_as_contract):
        return False
    return any(layoff_problem(m.cards, card, rules) is None for m in melds)


def exit_problem(state: ContractState, seat: int, hand: Sequence[Card], melds: Sequence[TableMeld],
                 down: bool, melded: bool, taken: Card | None) -> ActionError | None:
    """After a meld or lay-off the player must still be able to end his turn (C-6.3)."""
    if not hand:
        return None if down else ActionError(Refusal.OUT_WITHOUT_CONTRACT)  # C-3.1
    if len(hand) >= 2:
        return None  # some card can always be discarded
    card = hand[0]
    if discard_problem(state, seat, hand, card, contract_down=down, taken=taken) is None:
        return None
    if _can_lay_off_last(state, seat, card, melds, down, melded):
        return None
    return ActionError(Refusal.STUCK_LAST_CARD, card=card)


def meld(state: ContractState, seat: int, groups: Sequence[Sequence[Card]] | None) -> tuple[ContractState, list[Event]]:
    """C-3, C-5.2: lay the contract (all its groups in one action, C-15.3)."""
    _check_turn(state, seat, PLAY, A.MELD)
    rules = state.rules
    contract = state.contract
    assert contract is not None
    if not groups:
        raise ActionError(Refusal.CONTRACT_NEEDED, sets=contract.sets, sequences=contract.sequences)
    if state.contract_down[seat]:  # C-3.1
        raise ActionError(Refusal.CONTRACT_ALREADY_DOWN)
    groups = [tuple(g) for g in groups]
    flat = [c for g in groups for c in g]
    lacking = multiset.missing(state.hands[seat], flat)
    if lacking:
        raise ActionError(Refusal.CARDS_NOT_HELD, seat=seat, cards=tuple(lacking))
    already = [m.cards for m in state.table_melds if m.owner == seat]
    partial = not rules.contract_in_one_turn
    problem = contract_problem(groups, contract, rules, already=already, partial=partial)
    if problem:
        raise problem
    hand = multiset.remove(state.hands[seat], flat)
    new = []
    mid = state.next_meld_id
    for g in groups:
        new.append(TableMeld(mid, seat, meld_kind(g, rules), arrange(g, rules)))
        mid += 1
    count = state.contract_groups[seat] + len(groups)
    down = count == contract.groups
    melds = (*state.table_melds, *new)
    taken = None if state.taken_card in flat else state.taken_card
    problem = exit_problem(state, seat, hand, melds, down, True, taken)
    if problem:
        raise problem
    cg = list(state.contract_groups)
    cg[seat] = count
    cd = list(state.contract_down)
    cd[seat] = down
    state = flow.with_hand(state, seat, hand, table_melds=melds, next_meld_id=mid,
                           contract_groups=tuple(cg), contract_down=tuple(cd),
                           melded_this_turn=True, taken_card=taken)
    events = [Event(E.MELDED, seat, {
        "melds": [{"id": m.id, "kind": m.kind, "cards": format_cards(m.cards)} for m in new],
        "contract_down": down,
    })]
    return _maybe_out(state, seat, events)


def lay_off(state: ContractState, seat: int, card: Card | None, target: int | None) -> tuple[ContractState, list[Event]]:
    """C-5.2: add one card to any meld on the table (own or another player's)."""
    _check_turn(state, seat, PLAY, A.LAY_OFF)
    rules = state.rules
    if card is None or target is None:
        raise ActionError(Refusal.LAYOFF_NEEDS_TARGET, card=card, target=target)
    if rules.layoff_requires_contract and not state.contract_down[seat]:  # C-5.2
        raise ActionError(Refusal.LAYOFF_BEFORE_CONTRACT)
    if state.melded_this_turn and not rules.layoff_same_turn_as_contract:
        raise ActionError(Refusal.LAYOFF_SAME_TURN)
    hand = state.hands[seat]
    if card not in hand:
        raise ActionError(Refusal.CARD_NOT_IN_HAND, card=card, seat=seat)
    m = state.meld(target)
    if m is None:
        raise ActionError(Refusal.NO_SUCH_MELD, target=target)
    problem = layoff_problem(m.cards, card, rules)
    if problem:
        raise problem
    grown = TableMeld(m.id, m.owner, m.kind, arrange((*m.cards, card), rules))
    melds = tuple(grown if x.id == m.id else x for x in state.table_melds)
    new_hand = multiset.remove(hand, [card])
    taken = None if card == state.taken_card else state.taken_card
    problem = exit_problem(state, seat, new_hand, melds, state.contract_down[seat],
                           state.melded_this_turn, taken)
    if problem:
        raise problem
    state = flow.with_hand(state, seat, new_hand, table_melds=melds, taken_card=taken)
    events = [Event(E.LAID_OFF, seat, {"card": str(card), "meld": m.id, "owner": m.owner})]
    return _maybe_out(state, seat, events)


def discard(state: ContractState, seat: int, card: Card | None) -> tuple[ContractState, list[Event]]:
    """C-5.3: end the turn with a discard on the open pack (or go out, C-6.2)."""
    _check_turn(state, seat, PLAY, A.DISCARD)
    if card is None:
        raise ActionError(CommonRefusal.CARD_NEEDED, kind=A.DISCARD)
    hand = state.hands[seat]
    problem = discard_problem(state, seat, hand, card, taken=state.taken_card)
    if problem:
        raise problem
    state = flow.with_hand(state, seat, multiset.remove(hand, [card]),
                           discard_pile=(*state.discard_pile, PileCard(card, seat)))
    events = [Event(E.DISCARDED, seat, {"card": str(card)})]
    if not state.hands[seat]:
        return _maybe_out(state, seat, events)
    state, more = flow.start_turn(state, state.left(seat))
    return state, events + more


def _maybe_out(state: ContractState, seat: int, events: list[Event]) -> tuple[ContractState, list[Event]]:
    """C-6.1: a player with his contract down and no cards left ends the deal."""
    if state.hands[seat]:
        return state, events
    events.append(Event(E.WENT_OUT, seat, {"deal": state.deal_number}))
    state, more = flow.end_deal(state, seat)
    return state, events + more
