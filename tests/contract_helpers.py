"""Helpers for the contract rummy tests: positions built by hand, actions applied in turn."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from hypothesis import strategies as st

from rummy.actions import TABLE, Action
from rummy.cards import Card, new_deck, parse_cards
from rummy.contract.engine import ENGINE
from rummy.contract.rules import ContractRules
from rummy.contract.state import PLAY, TURN, ContractState, PileCard, TableMeld

A, B, C, D = 0, 1, 2, 3


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def card(text: str) -> Card:
    return parse_cards(text)[0]


def position(
    *,
    hands: list[str],
    pile: list[tuple[str, int | None]] = (),
    stock: str = "",
    turn: int = B,
    phase: str = TURN,
    deal_number: int = 1,
    rules: ContractRules | None = None,
    melds: list[tuple[int, str]] = (),
    contract_down: tuple[bool, ...] | None = None,
    taken: str | None = None,
) -> ContractState:
    """A mid-deal state. ``pile`` is bottom first: ``(card, discarder)``; ``stock`` top first."""
    rules = rules or ENGINE.preset("seed_002")
    n = len(hands)
    state = ENGINE.new_match(rules, n)
    table = []
    for i, (owner, text) in enumerate(melds, start=1):
        cs = cards(text)
        kind = "set" if len({c.rank for c in cs}) == 1 else "sequence"
        table.append(TableMeld(i, owner, kind, cs))
    down = contract_down or tuple(any(m.owner == s for m in table) for s in range(n))
    contract = rules.contracts[deal_number - 1]
    return replace(
        state,
        deal_number=deal_number,
        phase=phase,
        turn=turn,
        hands=tuple(tuple(sorted(cards(h))) for h in hands),
        stock=cards(stock),
        discard_pile=tuple(PileCard(card(c), d) for c, d in pile),
        table_melds=tuple(table),
        next_meld_id=len(table) + 1,
        contract_down=down,
        contract_groups=tuple(contract.groups if d else 0 for d in down),
        buys=(0,) * n,
        taken_card=card(taken) if taken else None,
        dealer=(turn - 1) % n,
    )


def act(state: ContractState, *actions: Action) -> tuple[ContractState, list]:
    """Apply actions in order; all events."""
    events = []
    for a in actions:
        state, evs = ENGINE.apply(state, a)
        events += evs
    return state, events


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]


def event(events: list, kind: str):
    found = [e for e in events if e.kind == kind]
    assert found, f"no {kind} event in {kinds(events)}"
    return found[-1]


def buy(seat: int, k: int | None = None) -> Action:
    return Action("buy", seat, target=k)


def yes(seat: int) -> Action:
    return Action("answer", seat, flag=True)


def no(seat: int) -> Action:
    return Action("answer", seat, flag=False)


def take(seat: int, k: int) -> Action:
    return Action("take_cards", seat, target=k)


def discard(seat: int, text: str) -> Action:
    return Action("discard", seat, card=card(text))


__all__ = ["A", "B", "C", "D", "PLAY", "TURN"]


def deck_order(hands: list[str], upcard: str, stock: str = "", *, dealer: int, decks: int = 2,
               each: int | None = None) -> tuple[Card, ...]:
    """A full deck order that deals ``hands`` (seat order) one card at a time from the
    dealer's left (C-4.2), then ``upcard`` (C-4.3), then ``stock`` (top first), then the
    rest of the packs in pack order. Hands shorter than ``each`` (default: the longest)
    are filled up with the lowest unused cards in pack order."""
    n = len(hands)
    held = [list(cards(h)) for h in hands]
    each = each or max(len(h) for h in held)
    pool = Counter(new_deck(decks))
    pool.subtract([c for h in held for c in h] + [card(upcard), *cards(stock)])
    assert all(v >= 0 for v in pool.values()), f"too many copies: {+(-pool)}"
    rest: list[Card] = []
    for c in new_deck(decks):  # the unused cards, each copy once, in pack order
        if pool[c] > 0:
            pool[c] -= 1
            rest.append(c)
    for h in held:
        assert len(h) <= each, f"a hand of {len(h)} cards, {each} are dealt"
        while len(h) < each:
            h.append(rest.pop(0))
    order = [held[(dealer + 1 + j) % n][j // n] for j in range(n * each)]
    order += [card(upcard), *cards(stock), *rest]
    assert len(order) == 52 * decks and Counter(order) == Counter(new_deck(decks))
    return tuple(order)


def deal_start(hands: list[str], upcard: str, stock: str = "", *, deal: int = 1,
               dealer: int | None = None, rules: ContractRules | None = None,
               scores: tuple[int, ...] | None = None) -> tuple[ContractState, list]:
    """The state right after the table's ``deal`` action for deal number ``deal``, with
    ``hands`` dealt (seat order), through ``ENGINE.apply``. Default dealer: the last seat,
    so seat 0 plays first."""
    rules = rules or ENGINE.preset("seed_002")
    n = len(hands)
    dealer = n - 1 if dealer is None else dealer
    state = ENGINE.new_match(rules, n, first_dealer=(dealer - deal + 1) % n)
    state = replace(state, deal_number=deal - 1, scores=scores or state.scores)
    each = rules.cards_per_deal[deal - 1]
    order = deck_order(hands, upcard, stock, dealer=dealer, decks=rules.decks, each=each)
    return act(state, Action("deal", TABLE, cards=order))


# Rule options both random-variant suites draw (each adds its own): C-8 buying, C-4 melds.
VARIANT_OPTIONS = {
    "next_player_refusal": st.sampled_from(["buy_and_pass", "take_as_draw"]),
    "after_buy_turn": st.sampled_from(["jump", "resume"]),
    "min_sequence_len": st.sampled_from([3, 4]),
    "ace_in_sequences": st.sampled_from(["low_or_high", "low_only", "around_corner"]),
    "in_turn_single_card_buy": st.booleans(),
    "refuser_may_take_more": st.booleans(),
}
