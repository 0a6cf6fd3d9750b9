"""Gin computer players (``rummy.play.Player``): random, easy, basic and medium.

``RandomPlayer`` picks any legal action. ``BasicPlayer`` (the baseline) takes the upcard
or the discard when it lowers his deadwood, otherwise draws from the stock, knocks (or
goes gin / big gin) as soon as he can, and otherwise discards his highest deadwood card.
``EasyPlayer`` is a beginner: it takes a discard only to make a meld at once and often
throws a card it should keep. ``MediumPlayer`` is basic with a memory of the hand
(:mod:`rummy.gin.bots_model`): discards priced by what they give the opponent and by the
draws they keep, and knocks that wait for a low count late in the hand unless the knock
is likely to win the game. The strong player is :mod:`rummy.gin.bots_hard`.
Every player sees only its seat's view.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence

from rummy.actions import Action, pick_kind
from rummy.cards import Card
from rummy.gin.bots_model import Memory, danger, game_win, outs
from rummy.gin.melds import arrange, deadwood, hand_mask, mask_deadwood, mask_deadwood_discard
from rummy.gin.view import SeatView

KNOCKS = ("big_gin", "take_and_knock", "knock", "accept_knock", "lay_off")
"""What the basic and easy players do first, whenever they may (G-7, G-9, G-10, G-11)."""
ENDINGS = ("big_gin", "take_and_knock", "accept_knock", "lay_off")
"""What the tracking players do first; they weigh a plain knock."""
CLOSING = ("refuse_knock", "done_laying_off", "decline")
"""What every gin player says when nothing else is left to do."""


def first_of_kinds(legal: Sequence[Action], order: Sequence[str]) -> Action | None:
    """The first legal action of the first kind in ``order`` that has one."""
    for kind in order:
        for a in legal:
            if a.kind == kind:
                return a
    return None


def choose_draw(
    kinds: Mapping[str, Action], top: Card | None, wants: Callable[[Card], bool]
) -> Action | None:
    """Take the upcard (G-5) or the discard when ``wants`` it (or when there is no stock
    to draw), otherwise draw from the stock; ``None`` when no draw is legal."""
    if "take_upcard" in kinds:
        take = top is not None and wants(top)
        return kinds["take_upcard"] if take else kinds["pass_upcard"]
    if "draw_discard" in kinds and top is not None:
        if wants(top) or "draw_stock" not in kinds:
            return kinds["draw_discard"]
    if "draw_stock" in kinds:
        return kinds["draw_stock"]
    return None


def taker(hand: list[Card], limit: int, own_discards: Collection[Card] = ()) -> Callable[[Card], bool]:
    """The tracking players' ``wants`` for :func:`choose_draw` (:func:`worth_taking`). A
    card we discarded ourselves earlier in the hand is taken back only for gin: two
    players who each take the other's discard because it melds, and throw another, pass
    the same cards round for ever (medium against medium, seed 0, hand 6: 5S, JH, 4D
    with seven cards left in the stock), and the stock never shrinks (G-5.1)."""
    def wants(card: Card) -> bool:
        if card in own_discards:
            return mask_deadwood_discard(hand_mask(hand) | hand_mask([card])) == 0
        return worth_taking(hand, card, limit)
    return wants


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
        ending = first_of_kinds(legal, KNOCKS)  # knocks come least count first (gin first)
        if ending is not None:
            return ending
        hand = list(view.hand)
        draw = choose_draw(kinds, view.discard_top, lambda card: self._improves(hand, card))
        if draw is not None:
            return draw
        discards = [a for a in legal if a.kind == "discard"]
        if discards:
            return min(discards, key=lambda a: self._discard_key(hand, a.card))
        return pick_kind(kinds, CLOSING) or legal[0]

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


class EasyPlayer:
    """A beginner: takes a discard only to meld it at once, knocks at once, discards
    a high card that is not melded (a random one a third of the time)."""

    name = "easy"

    def choose(
        self, engine: object, view: SeatView, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        kinds = {a.kind: a for a in legal}
        ending = first_of_kinds(legal, KNOCKS)
        if ending is not None:
            return ending
        hand = list(view.hand)
        top = view.discard_top
        if "take_upcard" in kinds or "draw_discard" in kinds:
            makes = top is not None and arrange([*hand, top])[0] + top.value <= arrange(hand)[0] - 8
            take = kinds.get("take_upcard") or kinds.get("draw_discard")
            if take is not None and (makes or "draw_stock" not in kinds and "pass_upcard" not in kinds):
                return take
            return kinds.get("pass_upcard") or kinds["draw_stock"]
        if "draw_stock" in kinds:
            return kinds["draw_stock"]
        discards = [a for a in legal if a.kind == "discard"]
        if discards:
            _, _, loose = arrange(hand)
            pool = [a for a in discards if a.card in loose] or discards
            if rng.random() < 0.35:
                return pool[rng.randrange(len(pool))]
            return max(pool, key=lambda a: (a.card.value if a.card else 0, a.card.rank if a.card else 0))
        return pick_kind(kinds, CLOSING) or legal[0]


class TrackingPlayer:
    """A player with a :class:`Memory` of the hand, fed from its views only."""

    name = "tracking"

    def __init__(self) -> None:
        self.memory = Memory()

    def choose(
        self, engine: object, view: SeatView, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        self.memory.observe(view)
        action = self.decide(view, legal, rng)
        self.memory.acted(view, action.kind, action.card)
        return action

    def decide(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        """The :data:`ENDINGS` whenever legal, otherwise the player's own :meth:`play`."""
        kinds = {a.kind: a for a in legal}
        return pick_kind(kinds, ENDINGS) or self.play(view, legal, kinds, list(view.hand), rng)

    def play(
        self, view: SeatView, legal: Sequence[Action], kinds: Mapping[str, Action],
        hand: list[Card], rng: random.Random,
    ) -> Action:
        raise NotImplementedError


def live_cards(mem: Memory, view: SeatView) -> set[Card]:
    """Cards that may still be drawn or be in the other hand."""
    return set(mem.unknown(view))


def discard_score(mem: Memory, view: SeatView, hand: list[Card], card: Card, live: set[Card]) -> float:
    """Lower is better: the rest's deadwood, less its live draws, plus what it feeds him."""
    rest = [c for c in hand if c != card]
    dw, _, loose = arrange(rest)
    weight = OUTS_WEIGHT * (min(1.0, view.stock_size / OUTS_FADE) if OUTS_FADE else 1.0)
    return dw - weight * outs(tuple(loose), live) + DANGER_WEIGHT * danger(mem, live, card) - 0.01 * card.value


OUTS_WEIGHT = 0.9  # deadwood points a live draw is worth
DANGER_WEIGHT = 7.0  # deadwood points a discard the opponent surely uses costs
OUTS_FADE = 0  # if set: live draws count less once the stock is under this many cards


def improves(hand: list[Card], card: Card) -> int:
    """How much taking ``card`` (and the best discard) lowers the deadwood."""
    m = hand_mask(hand)
    return mask_deadwood(m) - mask_deadwood_discard(m | hand_mask([card]))


def worth_taking(hand: list[Card], card: Card, limit: int) -> bool:
    """Take the pile's card when it melds in the best arrangement of the hand with it, or
    when it lets us knock (G-7.2) — not merely to swap a high card for a low one, which
    tells the opponent about the hand and gains little."""
    if DRAW_RULE == "improve":
        return improves(hand, card) > 0
    m = hand_mask(hand) | hand_mask([card])
    if mask_deadwood_discard(m) <= limit:
        return True
    _, _, loose = arrange([*hand, card])
    return card not in loose and improves(hand, card) > 0


DRAW_RULE = "meld"


class MediumPlayer(TrackingPlayer):
    """Basic, plus safe discards that keep draws and patient, score-aware knocking."""

    name = "medium"

    def play(
        self, view: SeatView, legal: Sequence[Action], kinds: Mapping[str, Action],
        hand: list[Card], rng: random.Random,
    ) -> Action:
        knocks = [a for a in legal if a.kind == "knock"]
        if knocks and self.should_knock(view, knocks):
            return knocks[0]
        draw = choose_draw(kinds, view.discard_top,
                           taker(hand, view.knock_limit or 0, self.memory.own_discards))
        if draw is not None:
            return draw
        discards = [a for a in legal if a.kind == "discard"]
        if discards:
            live = live_cards(self.memory, view)
            return min(discards, key=lambda a: discard_score(self.memory, view, hand, a.card, live))  # type: ignore[arg-type]
        return pick_kind(kinds, CLOSING) or legal[0]

    def should_knock(self, view: SeatView, knocks: list[Action]) -> bool:
        """Knock at once early; late in the hand only with a low count (G-7.2), unless the
        knock likely wins the game (G-14.1)."""
        seat = view.seat or 0
        hand = list(view.hand)
        count = min(deadwood([c for c in hand if c != a.card]) for a in knocks)
        if count == 0:
            return True
        mine, theirs = view.scores[seat], view.scores[1 - seat]
        target = view.rules.game_target
        if mine + 12 >= target:
            return True
        if view.stock_size >= 20:
            return True
        limit = 6 if view.stock_size >= 12 else 3
        if theirs + 25 >= target and game_win(target, mine, theirs) < 0.3:
            limit += 2  # behind near the end: take the points that are there
        return count <= limit
