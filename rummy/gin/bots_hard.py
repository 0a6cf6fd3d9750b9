"""The strong gin player: opponent modelling and sampled worlds (issue 12, level ``hard``).

From its seat's view only (:class:`rummy.gin.bots_model.Memory`) it knows which cards
the opponent took from the pile, passed and discarded. At a knock decision it samples
worlds consistent with everything seen — the opponent's hidden cards drawn from the
unseen ones, weighted by his pickups and passes, and the rest as the stock — and values:

* each legal knock (G-7.2) by the defender's best count after layoffs (G-11, exact),
  so among equal counts the arrangement that leaves the fewest layoffs wins;
* playing on, by playing each world out with a fast greedy policy for both seats.

Outcomes are priced by the chance of winning the game (G-14.1), not by the hand's points,
and the player leaves the greedy move (knock at once) only when playing on is clearly
better. Draws and discards are the medium player's, priced with the same model.
Deterministic given the random generator it is handed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from rummy.actions import Action, pick_kind
from rummy.cards import Card
from rummy.gin.bots import (
    CLOSING,
    TrackingPlayer,
    choose_draw,
    discard_score,
    live_cards,
    taker,
)
from rummy.gin.bots_model import game_win, weight
from rummy.gin.layoffs import best_defence
from rummy.gin.melds import _dw_mask as dw  # the solver's inner loop, masks in, no checks
from rummy.gin.melds import best_melds, card_bit, hand_mask, mask_cards
from rummy.gin.view import SeatView

WORLDS = 24  # sampled worlds per knock decision
LATE = 8  # with this few stock cards left (over the floor) it knocks at once
MARGIN = 0.02  # leaving the greedy move must gain this chance of winning the game
DISCARD_WORLDS = 12  # sampled worlds per discard decision
SELECTION = 0  # extra cards a sampled hand is chosen from (his kept draws); 6 measured worse: 56 % vs basic
CANDIDATES = 1  # discards tried in playouts (1: off; 3 measured no better, 60 % vs 65 %)
CLOSE = 4.0  # ... when their model score is within this of the best


def _value(bit: int) -> int:
    rank = (bit.bit_length() - 1) & 15
    return rank if rank < 10 else 10


def playout(
    hands: list[int], stock: Sequence[int], top: int, turn: int, limit: int, floor: int,
    gin_bonus: int, undercut_bonus: int,
) -> tuple[int, int]:
    """Play a hand out greedily from ``turn``'s draw; returns (winner or -1, points)."""
    i, n = 0, len(stock)
    barred = 0
    for _ in range(60):
        h = hands[turn]
        now = dw(h)
        if top and _best(h | top, top)[1] < now:
            h |= top
            barred = top
        else:
            if n - i <= floor:
                return -1, 0  # G-13: the hand is dead
            h |= stock[i]
            i += 1
            barred = 0
        card, count = _best(h, barred)
        h ^= card
        hands[turn] = h
        if count <= limit:  # knock at once (no layoffs in playouts)
            other = dw(hands[1 - turn])
            if count == 0:
                return turn, other + gin_bonus
            if other <= count:
                return 1 - turn, count - other + undercut_bonus
            return turn, other - count
        top = card
        turn = 1 - turn
    return -1, 0


def _worst(h: int, keep: int) -> int:
    """The card a greedy player throws from mask ``h`` (never one of ``keep``)."""
    best, best_card, best_key = 1000, 0, 0
    rest = h & ~keep
    while rest:
        b = rest & -rest
        rest ^= b
        v = dw(h ^ b)
        key = _value(b)
        if v < best or v == best and key > best_key:
            best, best_card, best_key = v, b, key
    return best_card


def _best(h: int, barred: int) -> tuple[int, int]:
    """(card to discard, deadwood of the rest) for the 11 cards of mask ``h``."""
    best, best_card, best_key = 1000, 0, 0
    rest = h
    while rest:
        b = rest & -rest
        rest ^= b
        if b == barred:
            continue
        v = dw(h ^ b)
        key = _value(b)
        if v < best or v == best and key > best_key:
            best, best_card, best_key = v, b, key
    return best_card, best


class HardPlayer(TrackingPlayer):
    """Sampled-world knock decisions on top of the medium player's play."""

    name = "hard"

    def __init__(self, worlds: int = WORLDS) -> None:
        super().__init__()
        self.worlds = worlds

    def play(
        self, view: SeatView, legal: Sequence[Action], kinds: Mapping[str, Action],
        hand: list[Card], rng: random.Random,
    ) -> Action:
        knocks = [a for a in legal if a.kind == "knock"]
        discards = [a for a in legal if a.kind == "discard"]
        live = live_cards(self.memory, view)
        if knocks:
            best_discard = min(
                discards, key=lambda a: discard_score(self.memory, view, hand, a.card, live)  # type: ignore[arg-type]
            ) if discards else None
            return self.knock_or_play(view, hand, knocks, best_discard, rng)
        draw = choose_draw(kinds, view.discard_top, taker(hand, view.knock_limit or 0))
        if draw is not None:
            return draw
        if discards:
            return self.choose_discard(view, hand, discards, live, rng)
        return pick_kind(kinds, CLOSING) or legal[0]

    def choose_discard(
        self, view: SeatView, hand: list[Card], discards: list[Action], live: set[Card],
        rng: random.Random,
    ) -> Action:
        """The model's best discard, unless a close one plays out clearly better."""
        scored = sorted(
            (discard_score(self.memory, view, hand, a.card, live), i, a)  # type: ignore[arg-type]
            for i, a in enumerate(discards)
        )
        close = [a for sc, _, a in scored[:CANDIDATES] if sc <= scored[0][0] + CLOSE]
        if len(close) < 2 or view.stock_size <= view.rules.stock_floor + 2:
            return scored[0][2]
        worlds = self.worlds_for(view, rng, DISCARD_WORLDS)
        value = self._valuer(view)
        best, best_v = close[0], -1.0
        for k, a in enumerate(close):
            assert a.card is not None
            v = self._play_on(view, hand, a.card, worlds, value) - (0 if k == 0 else MARGIN)
            if v > best_v:
                best, best_v = a, v
        return best

    def _valuer(self, view: SeatView) -> Callable[[int, int], float]:
        seat = view.seat or 0
        target = view.rules.game_target
        mine, theirs = view.scores[seat], view.scores[1 - seat]

        def value(winner: int, points: int) -> float:
            if winner == seat:
                return game_win(target, mine + points, theirs)
            if winner == 1 - seat:
                return game_win(target, mine, theirs + points)
            return game_win(target, mine, theirs)

        return value

    @staticmethod
    def _play_on(
        view: SeatView, hand: list[Card], discard: Card,
        worlds: list[tuple[list[Card], list[int]]], value: Callable[[int, int], float],
    ) -> float:
        """The mean value over ``worlds`` of discarding ``discard`` and playing the hand out."""
        rules = view.rules
        seat = view.seat or 0
        me_mask = hand_mask([c for c in hand if c != discard])
        top = card_bit(discard)
        total = 0.0
        for opp, stock in worlds:
            hands = [0, 0]
            hands[seat] = me_mask
            hands[1 - seat] = hand_mask(opp)
            w, pts = playout(hands, stock, top, 1 - seat, view.knock_limit or 0,
                             rules.stock_floor, rules.gin_bonus, rules.undercut_bonus)
            total += value(w, pts)
        return total / len(worlds)

    # -- the knock decision --------------------------------------------------------------

    def worlds_for(
        self, view: SeatView, rng: random.Random, count: int | None = None
    ) -> list[tuple[list[Card], list[int]]]:
        """Sampled (opponent's hand, stock order as bits) consistent with the view."""
        mem = self.memory
        seat = view.seat or 0
        size = view.hand_sizes[1 - seat]
        known = sorted(c for c in mem.opp_has if c not in view.hand)[:size]
        unknown = mem.unknown(view)
        weights = [weight(mem, c) for c in unknown]
        need = max(0, min(size - len(known), len(unknown)))
        # He has kept the best of the cards he drew: deal him ``extra`` more and let him
        # throw the worst (greedy, as a player would), so his hand is as good as his play.
        extra = max(0, min(SELECTION, mem.opp_turns, len(unknown) - need))
        keep = sum(card_bit(c) for c in known)
        out = []
        for _ in range(count or self.worlds):
            keyed = sorted(
                range(len(unknown)), key=lambda j: rng.random() ** (1.0 / weights[j]), reverse=True
            )
            opp_m = keep + sum(card_bit(unknown[j]) for j in keyed[: need + extra])
            for _k in range(extra):
                opp_m ^= _worst(opp_m, keep)
            opp = mask_cards(opp_m)
            rest = [card_bit(unknown[j]) for j in keyed if not opp_m & card_bit(unknown[j])]
            rng.shuffle(rest)
            out.append((opp, rest[: max(view.stock_size, 0)]))
        return out

    def knock_or_play(
        self, view: SeatView, hand: list[Card], knocks: list[Action], play: Action | None,
        rng: random.Random,
    ) -> Action:
        rules = view.rules
        seat = view.seat or 0
        target = rules.game_target
        mine, theirs = view.scores[seat], view.scores[1 - seat]
        value = self._valuer(view)
        counts = []
        for a in knocks:
            melds, dead = best_melds([c for c in hand if c != a.card])
            counts.append((sum(c.value for c in dead), a, melds))
        if counts[0][0] == 0 or mine + counts[0][0] >= target and counts[0][0] == 0:
            return knocks[0]  # gin (G-9)
        if game_win(target, mine + 1, theirs) >= 1.0:
            return knocks[0]
        if view.stock_size <= rules.stock_floor + LATE:
            return knocks[0]  # late: knock, so two hard players never let hands die for ever
        worlds = self.worlds_for(view, rng)
        options = sorted(counts, key=lambda t: t[0])[:3]
        best_knock, best_v = knocks[0], -1.0
        for count, action, melds in options:
            total = 0.0
            for opp, _stock in worlds:
                d = best_defence(opp, melds).count if opp else 99  # G-11.3
                if d <= count and rules.undercut_on_tie or d < count:
                    total += value(1 - seat, count - d + rules.undercut_bonus)  # G-12.1
                else:
                    total += value(seat, d - count)
            v = total / len(worlds)
            if v > best_v:
                best_knock, best_v = action, v
        if play is None or play.card is None:
            return best_knock
        go_on = self._play_on(view, hand, play.card, worlds, value)
        return play if go_on > best_v + MARGIN else best_knock


__all__ = ["HardPlayer", "mask_cards", "playout"]
