"""Gin rummy scoring: hand points and boxes (G-12), the game tally (G-14, G-15), dealer
rotation (G-3.3, G-3.4) and the match (G-16). Pure functions over plain values."""

from __future__ import annotations

from dataclasses import dataclass

from rummy.cards import Card
from rummy.gin.rules import GinRules
from rummy.gin.state import GameResult


@dataclass(frozen=True)
class HandScore:
    outcome: str  # knock | undercut | gin | big_gin
    winner: int
    points: int
    boxes: int
    doubled: bool = False


def knock_limit(rules: GinRules, upcard: Card) -> int:
    """L for a hand (G-6): fixed, or the knock card's value; ace per ``ace_knock_card``."""
    if rules.knock_limit_mode == "fixed":
        return rules.knock_limit  # G-6.1, G-6.6
    if upcard.rank == 1:
        return 0 if rules.ace_knock_card == "gin_only" else 1  # G-6.3
    return upcard.value  # G-6.2: A..9 pip value, 10/J/Q/K = 10


def spades_double_applies(rules: GinRules, upcard: Card) -> bool:
    """G-6.5: the knock card is a spade and the option is on (knock-card mode only)."""
    return rules.spades_double and rules.knock_limit_mode == "knock_card" and upcard.suit == "S"


def score_hand(
    rules: GinRules,
    *,
    knocker: int,
    kind: str,
    knocker_count: int,
    defender_count: int,
    doubled: bool = False,
) -> HandScore:
    """Points and boxes for a hand that was knocked (G-12 table).

    ``kind`` is ``knock``, ``gin`` or ``big_gin``; a knock with count 0 is gin (G-7.5).
    """
    defender = 1 - knocker
    if kind == "big_gin":
        outcome, winner = "big_gin", knocker
        points = defender_count + (rules.big_gin_bonus or 0)  # G-10.2
        boxes = 1 + rules.extra_boxes_gin
    elif kind == "gin" or knocker_count == 0:
        outcome, winner = "gin", knocker  # G-9.3: gin is never undercut
        points = defender_count + rules.gin_bonus
        boxes = 1 + rules.extra_boxes_gin  # G-12.3
    elif defender_count < knocker_count or (
        defender_count == knocker_count and rules.undercut_on_tie  # G-12.1
    ):
        outcome, winner = "undercut", defender
        points = knocker_count - defender_count + rules.undercut_bonus
        boxes = 1 + rules.extra_boxes_undercut  # G-12.2
    else:
        # A tie with undercut_on_tie = false goes to the knocker for 0 points.
        outcome, winner = "knock", knocker
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
        return dealer if rules.redeal_after_dead_hand == "same_dealer" else 1 - dealer
    if rules.dealer_rotation == "winner_deals":
        return winner
    if rules.dealer_rotation == "loser_deals":
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
    if shutout and rules.shutout == "double_hand_points":
        points[winner] *= 2  # G-15, G-22.4: hand points only
    elif shutout and rules.shutout == "game_bonus_200":
        bonus[winner] = 2 * rules.game_bonus  # G-15: 200 instead of 100
    box_points = (boxes[0] * rules.box_bonus, boxes[1] * rules.box_bonus)
    totals = (
        points[0] + box_points[0] + bonus[0],
        points[1] + box_points[1] + bonus[1],
    )
    margin = totals[winner] - totals[loser]
    if shutout and rules.shutout == "double_margin":
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
