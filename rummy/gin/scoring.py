"""Gin rummy scoring: hand points and boxes (G-12), the game tally (G-14, G-15), dealer
rotation (G-3.3, G-3.4) and the match (G-16). Pure functions over plain values."""

from __future__ import annotations

from dataclasses import dataclass

from rummy.cards import Card
from rummy.gin.kinds import HandOutcome, KnockKind
from rummy.gin.rules import (
    AceKnockCard,
    DealerRotation,
    GinRules,
    KnockLimitMode,
    RedealAfterDeadHand,
    Shutout,
)
from rummy.gin.state import Column, GameResult


@dataclass(frozen=True)
class HandScore:
    outcome: HandOutcome  # knock | undercut | gin | big_gin
    winner: int
    points: int
    boxes: int
    doubled: bool = False


def knock_limit(rules: GinRules, upcard: Card) -> int:
    """L for a hand (G-6): fixed, or the knock card's value; ace per ``ace_knock_card``."""
    if rules.knock_limit_mode == KnockLimitMode.FIXED:
        return rules.knock_limit  # G-6.1, G-6.6
    if upcard.rank == 1:
        return 0 if rules.ace_knock_card == AceKnockCard.GIN_ONLY else 1  # G-6.3
    return upcard.value  # G-6.2: A..9 pip value, 10/J/Q/K = 10


def spades_double_applies(rules: GinRules, upcard: Card) -> bool:
    """G-6.5: the knock card is a spade and the option is on (knock-card mode only)."""
    return rules.spades_double and rules.knock_limit_mode == KnockLimitMode.KNOCK_CARD and upcard.suit == "S"


def score_hand(
    rules: GinRules,
    *,
    knocker: int,
    kind: KnockKind,
    knocker_count: int,
    defender_count: int,
    doubled: bool = False,
) -> HandScore:
    """Points and boxes for a hand that was knocked (G-12 table).

    ``kind`` is ``knock``, ``gin`` or ``big_gin``; a knock with count 0 is gin (G-7.5).
    """
    defender = 1 - knocker
    if kind == KnockKind.BIG_GIN:
        outcome, winner = HandOutcome.BIG_GIN, knocker
        points = defender_count + (rules.big_gin_bonus or 0)  # G-10.2
        boxes = 1 + rules.extra_boxes_gin
    elif kind == KnockKind.GIN or knocker_count == 0:
        outcome, winner = HandOutcome.GIN, knocker  # G-9.3: gin is never undercut
        points = defender_count + rules.gin_bonus
        boxes = 1 + rules.extra_boxes_gin  # G-12.3
    elif defender_count < knocker_count or (
        defender_count == knocker_count and rules.undercut_on_tie  # G-12.1
    ):
        outcome, winner = HandOutcome.UNDERCUT, defender
        points = knocker_count - defender_count + rules.undercut_bonus
        boxes = 1 + rules.extra_boxes_undercut  # G-12.2
    else:
        # A tie with undercut_on_tie = false goes to the knocker for 0 points.
        outcome, winner = HandOutcome.KNOCK, knocker
        points = defender_count - knocker_count
        boxes = 1
    if doubled:  # G-6.5, G-12.4
        points *= 2
        if rules.spades_double_boxes:
            boxes *= 2
    return HandScore(outcome, winner, points, boxes, doubled)


def next_dealer(rules: GinRules, dealer: int, winner: int | None) -> int:
    """Dealer of the next hand: G-3.3 after a scored hand, G-3.4 after a dead one."""
    if winner is None:
        return dealer if rules.redeal_after_dead_hand == RedealAfterDeadHand.SAME_DEALER else 1 - dealer
    if rules.dealer_rotation == DealerRotation.WINNER_DEALS:
        return winner
    if rules.dealer_rotation == DealerRotation.LOSER_DEALS:
        return 1 - winner
    return 1 - dealer


def toward_target(rules: GinRules, scores: tuple[int, int], boxes: tuple[int, int]) -> tuple[int, int]:
    """What counts toward the target: hand points, plus box points under immediate_boxes
    (G-14.2)."""
    if not rules.immediate_boxes:
        return scores
    return (scores[0] + boxes[0] * rules.box_bonus, scores[1] + boxes[1] * rules.box_bonus)


def game_winner(
    rules: GinRules, scores: tuple[int, int], boxes: tuple[int, int] = (0, 0)
) -> int | None:
    """The player who reached the target (G-14.1; only one scores per hand, G-14.3)."""
    progress = toward_target(rules, scores, boxes)
    for seat in (0, 1):
        if progress[seat] >= rules.game_target:
            return seat
    return None


def tally_game(
    rules: GinRules,
    *,
    winner: int,
    hand_points: tuple[int, int],
    boxes: tuple[int, int],
) -> GameResult:
    """End-of-game tally (G-14.4) with the shutout adjustment (G-15, G-22.4).

    ``hand_points`` excludes box points even under ``immediate_boxes``.
    """
    loser = 1 - winner
    points = list(hand_points)
    bonus = [0, 0]
    bonus[winner] = rules.game_bonus
    shutout = hand_points[loser] == 0
    if shutout and rules.shutout == Shutout.DOUBLE_HAND_POINTS:
        points[winner] *= 2  # G-15, G-22.4: hand points only
    elif shutout and rules.shutout == Shutout.GAME_BONUS_200:
        bonus[winner] = 2 * rules.game_bonus  # G-15: 200 instead of 100
    box_points = (boxes[0] * rules.box_bonus, boxes[1] * rules.box_bonus)
    totals = (
        points[0] + box_points[0] + bonus[0],
        points[1] + box_points[1] + bonus[1],
    )
    margin = totals[winner] - totals[loser]
    if shutout and rules.shutout == Shutout.DOUBLE_MARGIN:
        margin *= 2
    return GameResult(
        winner=winner,
        hand_points=(points[0], points[1]),
        boxes=boxes,
        box_points=box_points,
        game_bonus=(bonus[0], bonus[1]),
        shutout=shutout,
        totals=totals,
        margin=margin,
    )


def match_winner(rules: GinRules, games_won: tuple[int, int]) -> int | None:
    """G-16.1: first to win ``games_to_win`` games (1 for a single game)."""
    for seat in (0, 1):
        if games_won[seat] >= rules.games_to_win:
            return seat
    return None


def next_game_first_dealer(previous_first_dealer: int) -> int:
    """G-16.2 (open question G-19): alternate the first dealer of each game."""
    return 1 - previous_first_dealer


HOLLYWOOD_GAMES = 3


def hollywood_enter(
    rules: GinRules,
    columns: tuple[Column, ...],
    *,
    winner: int,
    points: int,
    boxes: int,
) -> tuple[tuple[Column, ...], list[int], list[int]]:
    """Enter a hand win in the Hollywood games (G-17).

    A win goes into the first open game, and into each later open game in which the
    winner already had an entry in the game before it: his 1st win counts in game 1, his
    2nd in games 1-2, his 3rd and later in all three. A closed game takes no more
    entries; a player shut out of a closed game makes his first entry in the next open
    one. Returns (columns, games entered, games closed), game indices from 0.
    """
    open_games = [g for g, c in enumerate(columns) if not c.closed]
    if not open_games:
        return columns, [], []
    first = open_games[0]
    out = list(columns)
    entered: list[int] = []
    closed: list[int] = []
    for g in open_games:
        if g != first and not columns[g - 1].entered[winner]:
            continue
        col = columns[g]
        scores = _add_pair(col.scores, winner, points)
        box = _add_pair(col.boxes, winner, boxes)
        flags = (True, col.entered[1]) if winner == 0 else (col.entered[0], True)
        result = None
        gw = game_winner(rules, scores, box)
        if gw is not None:
            result = tally_game(rules, winner=gw, hand_points=scores, boxes=box)
            closed.append(g)
        out[g] = Column(scores, box, flags, result)
        entered.append(g)
    return tuple(out), entered, closed


def _add_pair(pair: tuple[int, int], seat: int, amount: int) -> tuple[int, int]:
    return (pair[0] + amount, pair[1]) if seat == 0 else (pair[0], pair[1] + amount)


def hollywood_winner(columns: tuple[Column, ...]) -> int:
    """The match winner once all games are closed: higher sum of totals, then more games."""
    totals = [sum(c.result.totals[s] for c in columns if c.result) for s in (0, 1)]
    if totals[0] != totals[1]:
        return 0 if totals[0] > totals[1] else 1
    wins = [sum(1 for c in columns if c.result and c.result.winner == s) for s in (0, 1)]
    return 0 if wins[0] > wins[1] else 1
