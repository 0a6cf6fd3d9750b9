"""Computer players for contract rummy: random, and a basic one good enough for a table.

``BasicPlayer`` draws what helps its contract, buys a card only when it completes or
extends a contract group, melds as soon as it can, lays off, and discards its highest
useless card. Both follow ``rummy.play.Player``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from rummy.actions import Action
from rummy.cards import Card
from rummy.contract.melds import layoff_problem
from rummy.contract.state import ContractView


class RandomPlayer:
    """Picks a kind of action uniformly, then one action of that kind uniformly."""

    def choose(self, engine: Any, view: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        kinds = sorted({a.kind for a in legal})
        kind = rng.choice(kinds)
        return rng.choice([a for a in legal if a.kind == kind])


def _seq_window_done(hand: Counter, card: Card, n: int, ace_mode: str) -> bool:
    """Does ``card`` complete a run of ``n`` in its suit with cards of ``hand``?"""
    for start in range(card.rank - n + 1, card.rank + 1):
        ranks = [start + i for i in range(n)]
        if ranks[0] < 1 or ranks[-1] > 14 or (ranks[-1] == 14 and ace_mode == "low_only"):
            continue
        cards = [Card(1 if r == 14 else r, card.suit) for r in ranks]
        if all(c == card or hand[c] for c in cards):
            return True
    if card.rank == 1 and ace_mode != "low_only":  # ace high: Q-K-A
        cards = [Card(r, card.suit) for r in range(14 - n + 1, 14)]
        if all(hand[c] for c in cards):
            return True
    return False


def completes(view: ContractView, hand: Sequence[Card], card: Card) -> bool:
    """Would ``card`` complete or extend a group the contract still needs?"""
    contract = view.contract
    rules = view.rules
    if contract is None or (view.seat is not None and view.contract_down[view.seat]):
        return False
    counts = Counter(hand)
    if contract.sets and sum(n for c, n in counts.items() if c.rank == card.rank) >= rules.min_set_len - 1:
        return True
    return bool(
        contract.sequences
        and not counts[card]
        and _seq_window_done(counts, card, rules.min_sequence_len, rules.ace_in_sequences)
    )


def _usefulness(view: ContractView, hand: Sequence[Card], card: Card) -> int:
    contract = view.contract
    if contract is None:
        return 0
    score = 0
    if contract.sets:
        score += 2 * (sum(1 for c in hand if c.rank == card.rank) - 1)
    if contract.sequences:
        near = {c.rank for c in hand if c.suit == card.suit and c != card and 0 < abs(c.rank - card.rank) <= 2}
        score += len(near)
    return score


# After this many turns in one deal a basic player only draws from the stock and neither
# buys nor refuses, so bots can never pass the same cards back and forth for ever (the
# stock then runs out, C-10).
PATIENCE = 120


def helps(view: ContractView, hand: Sequence[Card], card: Card) -> bool:
    """Is the pack's top card worth taking as the turn's draw?"""
    seat = view.seat
    if view.turns_started > PATIENCE:
        return False
    if seat is not None and view.contract_down[seat]:
        return any(layoff_problem(m.cards, card, view.rules) is None for m in view.table_melds)
    return completes(view, hand, card) or _usefulness(view, [*hand, card], card) >= 2


class BasicPlayer:
    """A plain, sensible player (see the module docstring)."""

    def choose(self, engine: Any, view: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        kinds = {a.kind: a for a in legal}
        hand = tuple(view.hand or ())
        top = view.top.card if view.top else None
        # After PATIENCE turns of a deal: no more buying or refusing either, so every turn
        # draws from the stock and the deal must end (C-10.2) under every rules variant.
        keen = view.turns_started <= PATIENCE
        if "answer" in kinds:  # asked "Можно?": refuse only for a card we want anyway
            want = keen and view.buy is not None and completes(view, hand, view.buy.card)
            return next(a for a in legal if a.kind == "answer" and a.flag is (not want))
        if "no_buy" in kinds:
            wanted = keen and top is not None and completes(view, hand, top)
            return kinds["buy"] if wanted else kinds["no_buy"]
        if "take_cards" in kinds:
            return self._take(view, hand, legal)
        if "draw_stock" in kinds:
            if "draw_discard" in kinds and top is not None and helps(view, hand, top):
                return kinds["draw_discard"]
            return kinds["draw_stock"]
        if "meld" in kinds:
            return kinds["meld"]
        if "lay_off" in kinds:
            return kinds["lay_off"]
        discards = [a for a in legal if a.kind == "discard"]
        if discards:
            rules = view.rules

            def badness(a: Action) -> tuple[int, int]:
                assert a.card is not None
                return (-_usefulness(view, hand, a.card), rules.value(a.card.rank))

            return max(discards, key=badness)
        return legal[0]

    def _take(self, view: ContractView, hand: tuple[Card, ...], legal: Sequence[Action]) -> Action:
        takes = {a.target: a for a in legal if a.kind == "take_cards"}
        k = 1
        grown = list(hand) + [view.discard_pile[-1].card]
        while k + 1 in takes:
            nxt = view.discard_pile[-1 - k].card
            if not completes(view, grown, nxt):
                break
            grown.append(nxt)
            k += 1
        return takes[k]
