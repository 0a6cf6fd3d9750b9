"""A tiny game behind the GameEngine interface, for session tests independent of the real engines.

Each turn the seat to act draws the top card of the deck and scores its value; when the deck
runs low the table deals a fresh pack; the first seat to reach ``target`` points wins.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rummy.actions import TABLE, Action, ActionError, CommonRefusal, Event
from rummy.cards import Card
from rummy.outcome import MatchOutcome


@dataclass(frozen=True)
class Rules:
    target: int = 40


@dataclass(frozen=True)
class State:
    rules: Rules
    seats: int
    deck: tuple[Card, ...] = ()
    hands: tuple[tuple[Card, ...], ...] = ()
    scores: tuple[int, ...] = ()
    turn: int = 0
    deals: int = 0


class ToyEngine:
    name = "toy"

    def rules_from_dict(self, data):
        unknown = set(data) - {"target"}
        if unknown:
            raise ValueError(f"unknown rule(s) {sorted(unknown)}")
        target = data.get("target", 40)
        if not isinstance(target, int) or target < 1:
            raise ValueError("target must be a positive integer")
        return Rules(target)

    def rules_to_dict(self, rules):
        return {"target": rules.target}

    def preset(self, name):
        if name != "standard":
            raise ValueError(f"unknown preset {name!r}")
        return Rules()

    def new_match(self, rules, seats, *, first_dealer=0):
        return State(rules, seats, hands=((),) * seats, scores=(0,) * seats, turn=first_dealer)

    def decks_to_deal(self, state):
        return 0 if self.is_over(state) or len(state.deck) >= 5 else 1

    def to_act(self, state):
        return [] if self.decks_to_deal(state) or self.is_over(state) else [state.turn]

    def legal_actions(self, state, seat):
        if seat not in self.to_act(state):
            return []
        return [Action("draw", seat), Action("draw", seat, flag=True)]

    def apply(self, state, action):
        if action.kind == "deal":
            if action.seat != TABLE or not self.decks_to_deal(state):
                raise ActionError(CommonRefusal.NO_DEAL_DUE)
            if len(action.cards) != 52:
                raise ActionError(CommonRefusal.NOT_NOW, kind=action.kind, waiting="a pack")
            return replace(state, deck=action.cards, deals=state.deals + 1), [Event("dealt")]
        if action.kind != "draw" or action.seat not in self.to_act(state):
            raise ActionError(CommonRefusal.NOT_NOW, kind=action.kind, waiting="draw")
        card, deck = state.deck[0], state.deck[1:]
        seat = action.seat
        gain = card.value * (2 if action.flag else 1)
        hands = tuple(h + (card,) if i == seat else h for i, h in enumerate(state.hands))
        scores = tuple(s + gain if i == seat else s for i, s in enumerate(state.scores))
        new = replace(state, deck=deck, hands=hands, scores=scores,
                      turn=(seat + 1) % state.seats)
        return new, [Event("drew", seat, {"card": str(card)})]

    def is_over(self, state):
        return max(state.scores, default=0) >= state.rules.target

    result_events = frozenset({"dealt"})

    def outcome(self, state, *, abandoned=False):
        if self.is_over(state):
            best = max(state.scores)
            return MatchOutcome.won(tuple(s for s, t in enumerate(state.scores) if t == best), state.scores)
        result = MatchOutcome.in_progress(state.scores)
        return result.abandon() if abandoned else result

    def view(self, state, seat):
        return {"scores": state.scores, "hand": state.hands[seat] if seat is not None else None}

    def describe(self, event):
        return f"{event.kind} {dict(event.data)}"

    def hand_results(self, state) -> list[dict[str, Any]]:
        return []

    def expected(self, state):
        return None  # no card shoe: every deal is the table's own shuffle


ENGINE = ToyEngine()


def test_toy_engine_plays_to_the_end():
    state = ENGINE.new_match(Rules(20), 2)
    from rummy.cards import new_deck

    state, _ = ENGINE.apply(state, Action("deal", TABLE, cards=tuple(new_deck())))
    while not ENGINE.is_over(state):
        if ENGINE.decks_to_deal(state):
            state, _ = ENGINE.apply(state, Action("deal", TABLE, cards=tuple(new_deck())))
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, ENGINE.legal_actions(state, seat)[0])
    assert max(state.scores) >= 20
