"""What a gin computer player remembers of a hand, from its seat's view only.

A :class:`Memory` is fed every view its seat is shown at a decision (``observe``) and the
action the seat took (``acted``). From the changes of the discard pile between two of
its own turns it infers what the opponent did: took the card on offer or passed it,
and what he discarded (G-4, G-5). It never sees the stock order or the other hand.

It keeps, per hand:

* ``dead``: cards known to be out of play for both hands (buried in the discard pile);
* ``opp_has``: cards the opponent took from the pile and has not discarded since;
* ``opp_passed``: cards the opponent passed or discarded (he does not want them);
* ``unknown``: every other card not in the own hand — in the stock or the other hand.

:func:`danger` and :func:`outs` price a card for the opponent and a hand's live draws;
:func:`game_win` turns a score into a chance of winning the game (G-14.1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

from rummy.cards import ALL_CARDS, SUITS, Card
from rummy.gin.view import SeatView


def _key(c: Card) -> tuple[int, int]:
    return SUITS.index(c.suit), c.rank


_AT = {_key(c): c for c in ALL_CARDS}


def card_at(suit: int, rank: int) -> Card | None:
    """The card of suit index ``suit`` and rank ``rank`` (None off the A..K range)."""
    return _AT.get((suit, rank))


@dataclass
class Memory:
    """One seat's knowledge of the current hand (see the module docstring)."""

    hand_key: tuple[int, int, int, Card | None] = (-1, -1, -1, None)
    stock_seen: int = 10**6  # the smallest stock seen in this hand: it never grows within one
    dead: set[Card] = field(default_factory=set)
    opp_has: set[Card] = field(default_factory=set)
    opp_took: list[Card] = field(default_factory=list)  # in order, kept after discards
    opp_passed: set[Card] = field(default_factory=set)
    pile: list[Card] = field(default_factory=list)  # the pile as this seat knows it
    after_me: tuple[Card | None, int] | None = None  # (top, size) after our last action
    own_last_discard: Card | None = None
    own_discards: set[Card] = field(default_factory=set)  # every card we discarded this hand
    opp_turns: int = 0
    # His turns in order: ("take", card taken, discard), ("draw", card passed or None,
    # discard) or ("pass", upcard, None).
    opp_events: list[tuple[str, Card | None, Card | None]] = field(default_factory=list)

    def observe(self, view: SeatView) -> None:
        """Update from the view at one of our decisions."""
        # The hand's identity: its number in the match and the deal's public marks (dealer,
        # upcard, G-3.2); the stock only shrinks within a hand (G-5.1). A player reused for
        # another match (hand 1 of game 1 again) starts afresh (issue 30).
        key = (view.game_number, view.hand_number, view.dealer, view.upcard)
        if key != self.hand_key or view.stock_size > self.stock_seen:
            self.reset(key, view)
            self.stock_seen = view.stock_size
        elif self.after_me is not None and view.hand_phase in ("draw", "forced_draw", "last_chance"):
            self._opponent_turn(view, *self.after_me)
        self.after_me = None
        self.stock_seen = min(self.stock_seen, view.stock_size)
        self._sync_pile(view)

    def reset(self, key: tuple[int, int, int, Card | None], view: SeatView) -> None:
        """A new hand: only the upcard is known (G-3.2)."""
        self.__init__()  # type: ignore[misc]
        self.hand_key = key
        if view.upcard is None:
            return
        self.pile = [view.upcard]
        if view.seat == view.dealer and view.hand_phase == "upcard":
            self.opp_passed.add(view.upcard)  # G-4.3: the non-dealer passed it
            self.opp_events.append(("pass", view.upcard, None))
        elif view.seat == view.dealer:
            self._opponent_turn(view, view.upcard, 1)  # he took it (G-4.1) and discarded

    def _opponent_turn(self, view: SeatView, top: Card | None, size: int) -> None:
        """What the opponent did since our last action, from the pile's top and size."""
        if view.hand_phase == "forced_draw":
            if view.upcard is not None:
                self.opp_passed.add(view.upcard)  # the dealer passed it too (G-4.4)
                self.opp_events.append(("pass", view.upcard, None))
            return
        now = view.discard_top
        if now is None:
            return
        if view.discard_size == size + 1:  # he drew from the stock, passed ours
            if top is not None:
                self.opp_passed.add(top)
            self.opp_events.append(("draw", top, now))
        elif view.discard_size == size and top is not None and now != top:
            self.opp_took.append(top)  # he took ours and discarded another
            self.opp_has.add(top)
            if self.pile and self.pile[-1] == top:
                self.pile.pop()
            self.opp_events.append(("take", top, now))
        else:
            return
        self.opp_has.discard(now)
        self.opp_passed.add(now)
        self.pile.append(now)
        self.opp_turns += 1

    def _sync_pile(self, view: SeatView) -> None:
        if len(view.discard_pile) > 1:  # the whole pile is shown (G-5.5 all)
            self.pile = list(view.discard_pile)
        self.dead = set(self.pile[:-1])

    def acted(self, view: SeatView, kind: str, card: Card | None) -> None:
        """Record our own action (so the next view can be compared)."""
        if kind in ("take_upcard", "draw_discard", "take_and_knock") and self.pile:
            self.pile.pop()
        elif kind == "discard" and card is not None:
            self.pile.append(card)
            self.own_discards.add(card)
            self.after_me = (card, view.discard_size + 1)
        elif kind == "pass_upcard":
            self.after_me = (view.discard_top, view.discard_size)

    def unknown(self, view: SeatView) -> list[Card]:
        """Cards in the stock or the opponent's hand, as far as this seat knows."""
        seen = set(view.hand) | set(self.pile) | self.opp_has | set(view.discard_pile)
        return [c for c in ALL_CARDS if c not in seen]


def _near(a: Card, b: Card) -> int:
    """2 for the same rank, 2 for suit neighbours, 1 for a suit gap of two, else 0."""
    if a.rank == b.rank:
        return 2
    if a.suit == b.suit:
        d = abs(a.rank - b.rank)
        return 2 if d == 1 else 1 if d == 2 else 0
    return 0


def weight(mem: Memory, card: Card) -> float:
    """How likely an unknown card is in the opponent's hand, relative to 1.0."""
    w = 1.0
    for t in sorted(mem.opp_has):
        n = _near(card, t)
        if n:
            w *= 1.0 + 0.9 * n
    for p in sorted(mem.opp_passed):
        n = _near(card, p)
        if n:
            w *= 1.0 - 0.18 * n
    return w


def danger(mem: Memory, live: set[Card], card: Card) -> float:
    """A rough chance that ``card`` helps the opponent meld (0 .. 1)."""
    s, r = _key(card)
    score = 0.0
    for t in sorted(mem.opp_has):
        n = _near(card, t)
        if n == 2:
            score += 0.45
        elif n == 1:
            score += 0.2
    same = sum(1 for k in range(4) if k != s and _AT[(k, r)] in live)
    score += 0.05 * same
    for d in (-2, -1, 1, 2):
        c = _AT.get((s, r + d))
        if c is not None and c in live:
            score += 0.04 if abs(d) == 1 else 0.02
    for p in sorted(mem.opp_passed):
        n = _near(card, p)
        if n == 2:
            score -= 0.08
    if card in mem.opp_passed:
        score = 0.0
    return max(0.0, min(1.0, score))


def outs(dead_cards: tuple[Card, ...], live: set[Card]) -> float:
    """Live cards that would meld with pairs and run pieces among ``dead_cards``."""
    keys = {_key(c) for c in dead_cards}
    total = 0.0
    for s, r in keys:
        for t in range(s + 1, 4):  # a pair: the other two of the rank
            if (t, r) in keys:
                total += sum(1 for k in range(4) if k not in (s, t) and _AT[(k, r)] in live)
        if (s, r + 1) in keys:  # two in a row: either end
            total += sum(1 for x in (r - 1, r + 2) if _AT.get((s, x)) in live)
        elif (s, r + 2) in keys:  # a gap: the middle card
            total += 1 if _AT[(s, r + 1)] in live else 0
    return total


# A hand's points to the winner, roughly as two greedy players score them (G-12).
_HAND_POINTS = ((6, 0.14), (12, 0.18), (18, 0.16), (24, 0.14), (30, 0.12), (40, 0.14), (55, 0.12))
_STEP = 2


@lru_cache(maxsize=8)
def _win_table(target: int) -> tuple[tuple[float, ...], ...]:
    """W[a][b]: chance to win the game needing ``a*_STEP`` points against ``b*_STEP``."""
    n = target // _STEP + 1
    w = [[0.5] * n for _ in range(n)]
    pts = [(max(1, p // _STEP), q) for p, q in _HAND_POINTS]
    for a in range(n):
        for b in range(n):
            if a == 0:
                w[a][b] = 1.0 if b else 0.5
                continue
            if b == 0:
                w[a][b] = 0.0
                continue
            mine = sum(q * (w[a - p][b] if a > p else 1.0) for p, q in pts)
            theirs = sum(q * (w[a][b - p] if b > p else 0.0) for p, q in pts)
            w[a][b] = 0.5 * mine + 0.5 * theirs
    return tuple(tuple(row) for row in w)


def game_win(target: int, mine: int, theirs: int) -> float:
    """Chance to win a game to ``target`` from scores ``mine`` and ``theirs`` (G-14.1)."""
    if mine >= target:
        return 1.0
    if theirs >= target:
        return 0.0
    scale = 1.0
    if target > 200:  # long games: the same shape on a coarser grid
        scale = 200 / target
        target = 200
    a = max(0, math.ceil((target - mine * scale) / _STEP))
    b = max(0, math.ceil((target - theirs * scale) / _STEP))
    table = _win_table(target)
    a, b = min(a, len(table) - 1), min(b, len(table) - 1)
    return table[a][b] if a and b else (1.0 if a == 0 else 0.0)
