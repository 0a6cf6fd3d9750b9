"""Baseline gin players for tests, soak runs and the first table (``rummy.play.Player``).

``RandomPlayer`` picks any legal action. ``BasicPlayer`` takes the upcard or the discard
when it lowers his deadwood, otherwise draws from the stock, knocks (or goes gin / big
gin) as soon as he can, and otherwise discards his highest deadwood card.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rummy.actions import Action
from rummy.cards import Card
from rummy.gin.melds import deadwood
from rummy.gin.view import SeatView


class RandomPlayer:
    """Any legal action, uniformly at random."""

    name = "random"

    def choose(
        self, engine: object, view: SeatView, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        return legal[rng.randrange(len(legal))]


class BasicPlayer:
    """Greedy on deadwood; knocks at once (issue item 9)."""

    name = "basic"

    def choose(
        self, engine: object, view: SeatView, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        kinds = {a.kind: a for a in legal}
        for kind in ("big_gin", "take_and_knock", "knock", "accept_knock", "lay_off"):
            options = [a for a in legal if a.kind == kind]
            if options:
                return options[0]  # knocks come least count first (gin first)
        hand = list(view.hand)
        if "take_upcard" in kinds:
            take = view.discard_top is not None and self._improves(hand, view.discard_top)
            return kinds["take_upcard"] if take else kinds["pass_upcard"]
        if "draw_discard" in kinds and view.discard_top is not None:
            if self._improves(hand, view.discard_top) or "draw_stock" not in kinds:
                return kinds["draw_discard"]
        if "draw_stock" in kinds:
            return kinds["draw_stock"]
        discards = [a for a in legal if a.kind == "discard"]
        if discards:
            return min(discards, key=lambda a: self._discard_key(hand, a.card))
        for kind in ("refuse_knock", "done_laying_off", "decline"):
            if kind in kinds:
                return kinds[kind]
        return legal[0]

    @staticmethod
    def _improves(hand: list[Card], card: Card) -> bool:
        now = deadwood(hand)
        after = min(deadwood([c for c in hand if c != d] + [card]) for d in hand)
        return after < now

    @staticmethod
    def _discard_key(hand: list[Card], card: Card | None) -> tuple[int, int, int]:
        assert card is not None
        rest = [c for c in hand if c != card]
        return (deadwood(rest), -card.value, card.index)
