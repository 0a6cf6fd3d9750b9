"""Computer players for contract rummy (``rummy.play.Player``): random, easy, basic,
medium and hard.

``BasicPlayer`` (the baseline) draws what helps its contract, buys a card only when it
makes a contract group, melds as soon as it can, lays off, and discards its highest
useless card. ``EasyPlayer`` never buys and discards its highest card that is not in a
pair or a run piece. ``HardPlayer`` plans the deal's contract (how many cards it still
misses, :func:`missing`), buys only a card that brings the contract closer and is worth
its penalty card, stops buying when the stock runs low, lays off to go out and prices
what its discard gives the left-hand player; ``MediumPlayer`` is the hard player's plan
with the basic player's buying.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rummy.actions import Action, pick_kind
from rummy.cards import Card
from rummy.contract.melds import layoff_problem
from rummy.contract.rules import Contract, ContractRules
from rummy.contract.state import ContractView


class RandomPlayer:
    """Picks a kind of action uniformly, then one action of that kind uniformly."""

    def choose(self, engine: Any, view: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        kinds = sorted({a.kind for a in legal})
        kind = rng.choice(kinds)
        return rng.choice([a for a in legal if a.kind == kind])


def _seq_window_done(hand: Counter[Card], card: Card, n: int, ace_mode: str) -> bool:
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
    # Only a card that makes a set counts: with a whole set of the rank already in hand,
    # one more of it completes nothing (it used to buy such cards, and the penalty cards).
    if contract.sets and sum(n for c, n in counts.items() if c.rank == card.rank) == rules.min_set_len - 1:
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


def _answer(legal: Sequence[Action], want: bool) -> Action:
    """C-8.4: the answer to "Можно?": refuse (Нельзя) when we ``want`` the card."""
    return next(a for a in legal if a.kind == "answer" and a.flag is (not want))


def _draw_or_lay(
    kinds: Mapping[str, Action], top: Card | None, wants: Callable[[Card], bool]
) -> Action | None:
    """C-5.1: the discard when ``wants`` it, else the stock; then meld, then lay off
    (C-5.2); ``None`` when none of these is legal."""
    if "draw_stock" in kinds:
        if "draw_discard" in kinds and top is not None and wants(top):
            return kinds["draw_discard"]
        return kinds["draw_stock"]
    return pick_kind(kinds, ("meld", "lay_off"))


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
            return _answer(legal, want)
        if "no_buy" in kinds:
            wanted = keen and top is not None and completes(view, hand, top)
            return kinds["buy"] if wanted else kinds["no_buy"]
        if "take_cards" in kinds:
            return self._take(view, hand, legal)
        play = _draw_or_lay(kinds, top, lambda card: helps(view, hand, card))
        if play is not None:
            return play
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


# --- the contract plan ---------------------------------------------------------------------


def _windows(rules: ContractRules) -> list[tuple[int, ...]]:
    """Rank windows of a minimal sequence (C-2.3: ace low, or high too)."""
    n = rules.min_sequence_len
    out = [tuple(range(s, s + n)) for s in range(1, 14 - n + 1)]
    if rules.ace_in_sequences != "low_only":
        out.append((*range(14 - n + 1, 14), 1))
    return out


def missing(hand: Sequence[Card], contract: Contract | None, rules: ContractRules) -> int:
    """Cards the hand still lacks for ``contract`` (C-3): the best ranks for its sets and
    the best rank windows of distinct suits for its sequences (C-3.2), minimal groups."""
    if contract is None:
        return 0
    need = 0
    used: set[Card] = set()
    if contract.sequences:
        by_suit: dict[str, set[int]] = {}
        for c in hand:
            by_suit.setdefault(c.suit, set()).add(c.rank)
        best: list[tuple[int, str, tuple[int, ...]]] = []
        for suit in "SHDC":
            held = by_suit.get(suit, set())
            gap, win = min((len([r for r in w if r not in held]), w) for w in _windows(rules))
            best.append((gap, suit, win))
        best.sort()
        for gap, suit, win in best[: contract.sequences]:
            need += gap
            used.update(Card(r, suit) for r in win if r in by_suit.get(suit, set()))
    if contract.sets:
        ranks = Counter(c.rank for c in hand if c not in used)
        gaps = sorted(max(0, rules.min_set_len - ranks.get(r, 0)) for r in range(1, 14))
        need += sum(gaps[: contract.sets])
    return need


def gain(view: ContractView, hand: Sequence[Card], card: Card) -> int:
    """How many cards closer to the contract ``card`` brings the hand."""
    return missing(hand, view.contract, view.rules) - missing([*hand, card], view.contract, view.rules)


def _layable(view: ContractView, card: Card) -> bool:
    return any(layoff_problem(m.cards, card, view.rules) is None for m in view.table_melds)


class EasyPlayer:
    """A beginner: draws a pack card only when it makes a group, never buys, melds and
    lays off when it can, discards its highest card outside pairs and run pieces."""

    def choose(self, engine: Any, view: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        kinds = {a.kind: a for a in legal}
        hand = tuple(view.hand or ())
        top = view.top.card if view.top else None
        if "answer" in kinds:
            return next(a for a in legal if a.kind == "answer" and a.flag is True)
        if "no_buy" in kinds:
            return kinds["no_buy"]
        if "take_cards" in kinds:
            return next(a for a in legal if a.kind == "take_cards" and a.target == 1)
        if "draw_stock" in kinds:
            if "draw_discard" in kinds and top is not None and view.turns_started <= PATIENCE \
                    and completes(view, hand, top):
                return kinds["draw_discard"]
            return kinds["draw_stock"]
        for kind in ("meld", "lay_off"):
            if kind in kinds:
                return kinds[kind]
        discards = [a for a in legal if a.kind == "discard"]
        if discards:
            def badness(a: Action) -> tuple[int, int]:
                assert a.card is not None
                return (-_usefulness(view, hand, a.card), view.rules.value(a.card.rank))

            return max(discards, key=badness)
        return legal[0]


# A hard player buys while the stock has more than this many cards per seat ...
STOCK_RESERVE = 3
# ... at most this many times a deal, and only a card that gains the contract at least
# this many cards per penalty card it costs.
MAX_BUYS = 3


class HardPlayer:
    """Plans the contract; buys sparingly; goes out (see the module docstring)."""

    def __init__(self, *, careful_buying: bool = True) -> None:
        self.careful_buying = careful_buying

    def choose(self, engine: Any, view: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        kinds = {a.kind: a for a in legal}
        hand = tuple(view.hand or ())
        top = view.top.card if view.top else None
        seat = view.seat
        down = seat is not None and view.contract_down[seat]
        keen = view.turns_started <= PATIENCE
        if "answer" in kinds:  # C-8.4: refusing buys the card ourselves (or takes it)
            want = keen and not down and view.buy is not None and gain(view, hand, view.buy.card) > 0
            return _answer(legal, want)
        if "no_buy" in kinds:
            return kinds["buy"] if keen and top is not None and self.worth_buying(view, hand, top) else kinds["no_buy"]
        if "take_cards" in kinds:
            return self._take(view, hand, legal)

        def useful(card: Card) -> bool:
            return keen and (_layable(view, card) if down else gain(view, hand, card) > 0)

        play = _draw_or_lay(kinds, top, useful)
        if play is not None:
            return play
        discards = [a for a in legal if a.kind == "discard"]
        if discards:
            return min(discards, key=lambda a: self.discard_cost(view, hand, a.card))  # type: ignore[arg-type]
        return legal[0]

    def worth_buying(self, view: ContractView, hand: tuple[Card, ...], card: Card) -> bool:
        """C-8.1: a card that brings the contract closer, while buying leaves a stock."""
        seat = view.seat
        if seat is None or view.contract_down[seat]:
            return False  # C-8.7: two more cards to shed and nothing to gain
        if not self.careful_buying:
            return completes(view, hand, card)
        if view.buys[seat] >= MAX_BUYS:
            return False
        if view.stock_size <= STOCK_RESERVE * len(view.hand_sizes):
            return False
        g = gain(view, hand, card)
        left = missing(hand, view.contract, view.rules) - g
        return g > 0 and (left <= 2 or view.buys[seat] == 0)

    def discard_cost(self, view: ContractView, hand: tuple[Card, ...], card: Card) -> float:
        """Lower is better: what the card is worth to us, less its points, plus what it
        gives the next seat (who may take it as his draw, C-5.1)."""
        rules = view.rules
        seat = view.seat if view.seat is not None else 0
        rest = list(hand)
        rest.remove(card)
        contract = view.contract
        down = view.contract_down[seat]
        keep = 0.0
        if down:
            keep = 0.0  # nothing to build: shed the points
        else:
            keep = 12.0 * (missing(rest, contract, rules) - missing(hand, contract, rules))
            keep += 1.5 * _usefulness(view, hand, card)
        left = (seat + 1) % len(view.hand_sizes)
        feed = 0.0
        if view.contract_down[left] and _layable(view, card):
            feed = 8.0  # C-5.2: he lays it off at once
        elif not view.contract_down[left] and not down:
            feed = 0.5 * _usefulness(view, hand, card)
        return keep + feed - rules.value(card.rank) * 0.5

    def _take(self, view: ContractView, hand: tuple[Card, ...], legal: Sequence[Action]) -> Action:
        takes = {a.target: a for a in legal if a.kind == "take_cards"}
        k = 1
        grown = list(hand) + [view.discard_pile[-1].card]
        while k + 1 in takes and self.careful_buying:
            nxt = view.discard_pile[-1 - k].card
            if gain(view, grown, nxt) <= 0:
                break
            grown.append(nxt)
            k += 1
        return takes[k]


class MediumPlayer(HardPlayer):
    """The hard player's plan and discards with the basic player's buying."""

    def __init__(self) -> None:
        super().__init__(careful_buying=False)
