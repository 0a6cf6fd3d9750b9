"""Helpers for the contract rummy tests: positions built by hand, actions applied in turn."""

from __future__ import annotations

from dataclasses import replace

from rummy.actions import Action
from rummy.cards import Card, parse_cards
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
