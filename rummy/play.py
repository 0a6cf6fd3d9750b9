"""Driving a match: players choose actions, the table deals, the journal records.

This is the loop the bots, the soak tests and the text-mode game share; the pygame app
runs the same steps one input at a time.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from rummy.actions import DEAL, TABLE, Action, Event
from rummy.cards import shuffled_deck
from rummy.games import AnyEngine, GameEngine
from rummy.records import JournalWriter

S = TypeVar("S")  # a game's state


class Player(Protocol):
    """A computer player: picks one of the legal actions from what its seat may see."""

    def choose(self, engine: AnyEngine, view: Any, legal: Sequence[Action], rng: random.Random) -> Action: ...


def deal_action(engine: GameEngine[S, Any, Any], state: S, rng: random.Random) -> Action | None:
    """The table's deal, when one is pending: a shuffled deck order as one action."""
    decks = engine.decks_to_deal(state)
    if not decks:
        return None
    return Action(DEAL, TABLE, cards=tuple(shuffled_deck(rng, decks)))


def paired_rngs(seed: int) -> tuple[random.Random, random.Random]:
    """(players' generator, deals' generator) of ``seed``: the deals stay the same whatever
    the players draw, so two players can be compared on the same deals."""
    return random.Random(f"player-{seed}"), random.Random(seed)


def step(
    engine: GameEngine[S, Any, Any],
    state: S,
    players: Sequence[Player],
    rng: random.Random,
    *,
    deal_rng: random.Random | None = None,
) -> Action:
    """The next action: a deal, or the choice of the first seat that may act. Deals come
    from ``deal_rng`` when given (so the deals do not depend on the players' choices),
    otherwise from ``rng`` like the players'."""
    deal = deal_action(engine, state, rng if deal_rng is None else deal_rng)
    if deal is not None:
        return deal
    for seat in engine.to_act(state):
        legal = engine.legal_actions(state, seat)
        if legal:
            return players[seat].choose(engine, engine.view(state, seat), legal, rng)
    raise RuntimeError("no seat can act but the match is not over")


def play_match(
    engine: GameEngine[S, Any, Any],
    state: S,
    players: Sequence[Player],
    rng: random.Random,
    *,
    journal: JournalWriter | None = None,
    max_actions: int = 200_000,
    deal_rng: random.Random | None = None,
) -> tuple[S, list[tuple[Action, list[Event]]]]:
    """Play to the end of the match; returns the final state and every step. With
    ``deal_rng`` the deals are drawn from it alone (see :func:`step`)."""
    steps: list[tuple[Action, list[Event]]] = []
    for _ in range(max_actions):
        if engine.is_over(state):
            if journal is not None:
                journal.end("finished")
            return state, steps
        action = step(engine, state, players, rng, deal_rng=deal_rng)
        state, events = engine.apply(state, action)
        if journal is not None:
            journal.append(action)
        steps.append((action, events))
    raise RuntimeError(f"match did not end within {max_actions} actions")
