"""Gin rummy state: frozen dataclasses the engine builds and the display reads directly.

``MatchState`` holds the rules, the running game score and the current ``HandState``.
Seats are 0 and 1. Cards are :class:`rummy.cards.Card`; the stock's top card is
``stock[0]`` and the discard pile's top card is ``discard_pile[-1]``. In read mode
(``HandState.read``, dealt by ``deal_read``) the stock's order is unknown: ``stock`` holds
the cards it can hold, sorted (the pack less every card seen), and a draw names its card.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rummy.cards import Card
from rummy.gin.kinds import HandOutcome, KnockKind
from rummy.gin.rules import GinRules

Meld = tuple[Card, ...]


class HandPhase(StrEnum):
    """Where a hand stands (G-18). The seat to act is ``HandState.turn``."""

    UPCARD = "upcard"  # G-4.1/4.3: take_upcard or pass_upcard
    FORCED_DRAW = "forced_draw"  # G-4.4: both passed, the non-dealer must draw from the stock
    DRAW = "draw"  # G-5.1: draw_stock or draw_discard
    DISCARD = "discard"  # G-5.2: discard, knock or big_gin (11 cards in hand)
    LAST_CHANCE = "last_chance"  # G-13.3: take_and_knock or decline
    KNOCK_REVIEW = "knock_review"  # G-8.3 opponent_option: accept_knock / refuse_knock
    LAYOFF = "layoff"  # G-11.3 agent: lay_off / done_laying_off
    OVER = "over"  # scored or dead; see HandState.result


class MatchPhase(StrEnum):
    DEAL = "deal"  # a deal is pending (decks_to_deal == 1)
    HAND = "hand"  # a hand is in play
    OVER = "over"  # the match has ended


@dataclass(frozen=True)
class Knock:
    """A knock declaration (G-7.3): the face-down discard, melds and deadwood shown."""

    seat: int
    discard: Card | None  # None for big gin (no discard, G-10.1)
    melds: tuple[Meld, ...]
    deadwood: tuple[Card, ...]
    count: int
    kind: KnockKind = KnockKind.KNOCK
    declared: bool = False  # the knocker declared the arrangement himself


@dataclass(frozen=True)
class HandResult:
    """How a hand ended (G-12). ``outcome``: knock, undercut, gin, big_gin or dead."""

    outcome: HandOutcome
    winner: int | None = None
    points: int = 0
    boxes: int = 0
    knocker: int | None = None
    knocker_count: int = 0
    defender_count: int = 0
    knocker_melds: tuple[Meld, ...] = ()
    knocker_deadwood: tuple[Card, ...] = ()
    defender_melds: tuple[Meld, ...] = ()
    defender_deadwood: tuple[Card, ...] = ()
    layoffs: tuple[tuple[Card, int], ...] = ()  # (card, index of the knocker's meld)
    doubled: bool = False  # G-6.5 spades double applied


@dataclass(frozen=True)
class HandState:
    """One hand of gin (G-3 … G-13)."""

    dealer: int
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    stock: tuple[Card, ...]
    discard_pile: tuple[Card, ...]
    upcard: Card  # the 21st card (G-3.2); the knock card in knock_card mode (G-6.2)
    knock_limit: int  # L for this hand (G-6); 0 = gin only
    turn: int
    phase: HandPhase
    set_aside: tuple[Card, ...] = ()  # refused upcard under refused_upcard = set_aside
    last_taken: Card | None = None  # taken from the pile this turn (G-5.3)
    exposed: tuple[bool, bool] = (False, False)  # G-8.2
    must_knock: tuple[bool, bool] = (False, False)  # G-8.2
    illegal_knocks: tuple[int, int] = (0, 0)
    knock: Knock | None = None
    table_melds: tuple[Meld, ...] = ()  # knocker's melds with layoffs (layoff phase)
    layoffs: tuple[tuple[Card, int], ...] = ()  # made so far (layoff phase)
    result: HandResult | None = None
    read: bool = False  # read mode: the stock's order is unknown, each draw is read (issue 10)

    @property
    def non_dealer(self) -> int:
        return 1 - self.dealer

    @property
    def top_discard(self) -> Card | None:
        return self.discard_pile[-1] if self.discard_pile else None


@dataclass(frozen=True)
class GameResult:
    """End-of-game tally (G-14.4, G-15)."""

    winner: int
    hand_points: tuple[int, int]  # after any shutout doubling
    boxes: tuple[int, int]  # boxes won (hands won + extra boxes)
    box_points: tuple[int, int]
    game_bonus: tuple[int, int]
    shutout: bool
    totals: tuple[int, int]
    margin: int  # winner's total minus the loser's (doubled under double_margin)


@dataclass(frozen=True)
class Column:
    """One of the three Hollywood games (G-17): its entries and, once closed, its tally."""

    scores: tuple[int, int] = (0, 0)
    boxes: tuple[int, int] = (0, 0)
    entered: tuple[bool, bool] = (False, False)  # the seat has an entry in this game
    result: GameResult | None = None

    @property
    def closed(self) -> bool:
        return self.result is not None


@dataclass(frozen=True)
class MatchState:
    """A match: one game, best of n games (G-16) or Hollywood (G-17).

    Under Hollywood, ``scores``/``boxes``/``hands_won`` run over the whole match and the
    three games are in ``columns``; ``game_number`` is the first open game."""

    rules: GinRules
    phase: MatchPhase
    dealer: int  # dealer of the current or next hand
    hand: HandState | None = None
    scores: tuple[int, int] = (0, 0)  # hand points this game (count toward the target)
    boxes: tuple[int, int] = (0, 0)  # boxes this game
    hands_won: tuple[int, int] = (0, 0)
    hand_number: int = 0  # hands dealt this game (dead hands included)
    game_number: int = 1
    game_first_dealer: int = 0
    games_won: tuple[int, int] = (0, 0)
    hand_results: tuple[HandResult, ...] = ()  # this game
    game_results: tuple[GameResult, ...] = ()
    match_totals: tuple[int, int] = (0, 0)  # sum of game totals
    winner: int | None = None  # match winner once over
    columns: tuple[Column, ...] = ()  # Hollywood games 1-3 (match = hollywood, G-17)
    before_deal: MatchState | None = None  # while a hand is in play: the state before its deal
