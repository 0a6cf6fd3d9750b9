"""The gin rummy engine (``rummy.games`` name ``gin``): the match around the hands.

``ENGINE`` implements :class:`rummy.games.GameEngine`. The hand itself is in
:mod:`rummy.gin.hand`; this module deals (G-3), scores hands into the game (G-12, G-14),
ends games with their tally (G-14.4, G-15) and plays matches (G-16, Hollywood G-17).
No randomness and no clocks: the deal is an action carrying the deck order.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rummy.actions import TABLE, Action, ActionError, CommonRefusal, Event
from rummy.gin import hand as hands
from rummy.gin import rules as rules_mod
from rummy.gin.describe import describe
from rummy.gin.kinds import RESULT_EVENTS, Refusal
from rummy.gin.kinds import ActionKind as A
from rummy.gin.kinds import EventKind as E
from rummy.gin.reads import expected
from rummy.gin.rules import GinRules, MatchFormat
from rummy.gin.scoring import (
    HOLLYWOOD_GAMES,
    game_winner,
    hollywood_enter,
    hollywood_winner,
    match_winner,
    next_dealer,
    next_game_first_dealer,
    tally_game,
)
from rummy.gin.state import Column, GameResult, HandPhase, HandResult, MatchPhase, MatchState
from rummy.gin.view import SeatView, seat_view
from rummy.outcome import MatchOutcome
from rummy.reads import ReadNeed

if TYPE_CHECKING:
    from rummy.games import GameEngine


def _add(pair: tuple[int, int], seat: int, amount: int) -> tuple[int, int]:
    return (pair[0] + amount, pair[1]) if seat == 0 else (pair[0], pair[1] + amount)


def new_match(rules: GinRules, seats: int = 2, *, first_dealer: int = 0) -> MatchState:
    """The state before the first deal. Gin is for two seats (G-1.1)."""
    if seats != 2:
        raise ValueError(f"gin rummy is for 2 players, got {seats} seats")
    if first_dealer not in (0, 1):
        raise ValueError(f"first_dealer must be seat 0 or 1, got {first_dealer!r}")
    columns = (Column(),) * HOLLYWOOD_GAMES if rules.match == MatchFormat.HOLLYWOOD else ()
    return MatchState(
        rules=rules,
        phase=MatchPhase.DEAL,
        dealer=first_dealer,
        game_first_dealer=first_dealer,
        columns=columns,
    )


def legal_actions(state: MatchState, seat: int) -> list[Action]:
    """Every legal action of ``seat`` (knocks with the automatic arrangement)."""
    if state.phase is not MatchPhase.HAND or state.hand is None:
        return []
    return hands.legal_actions(state.rules, state.hand, seat)


def to_act(state: MatchState) -> tuple[int, ...]:
    if state.phase is MatchPhase.HAND and state.hand is not None:
        if state.hand.phase is not HandPhase.OVER:
            return (state.hand.turn,)
    return ()


_KINDS = frozenset(A)


def apply(state: MatchState, action: Action) -> tuple[MatchState, list[Event]]:
    """The next state and its events; ``ActionError`` with a readable reason otherwise."""
    if not isinstance(action, Action):
        raise ActionError(CommonRefusal.NOT_AN_ACTION, value=repr(action))
    if state.phase is MatchPhase.OVER:
        raise ActionError(CommonRefusal.MATCH_OVER)
    if action.kind in (A.DEAL, A.DEAL_READ):
        return _deal(state, action)
    if action.kind == A.VOID_HAND:
        return _void_hand(state, action)
    if action.kind not in _KINDS:  # not a gin verb at all (contract refuses it the same way)
        raise ActionError(CommonRefusal.UNKNOWN_ACTION, kind=action.kind, known=tuple(A))
    if state.phase is MatchPhase.DEAL:
        raise ActionError(CommonRefusal.DEAL_FIRST, kind=action.kind)
    if action.seat not in (0, 1):
        raise ActionError(CommonRefusal.SEAT_NOT_AT_TABLE, seat=action.seat, seats=2)
    assert state.hand is not None
    hand, events = hands.apply(state.rules, state.hand, action)
    state = dataclasses.replace(state, hand=hand)
    if hand.phase is HandPhase.OVER:
        assert hand.result is not None
        state = dataclasses.replace(state, before_deal=None)
        state, more = _finish_hand(state, hand.result)
        events.extend(more)
    return state, events


def _deal(state: MatchState, action: Action) -> tuple[MatchState, list[Event]]:
    if action.seat != TABLE:
        raise ActionError(CommonRefusal.ONLY_TABLE_DEALS, seat=action.seat)
    if state.phase is not MatchPhase.DEAL:
        raise ActionError(CommonRefusal.NO_DEAL_DUE)
    deal = hands.deal_read if action.kind == A.DEAL_READ else hands.deal
    hand, events = deal(state.rules, state.dealer, action.cards)
    number = state.hand_number + 1
    events = [
        Event(e.kind, e.seat, {**e.data, "hand": number, "game": state.game_number})
        for e in events
    ]
    new = dataclasses.replace(
        state, phase=MatchPhase.HAND, hand=hand, hand_number=number,
        before_deal=dataclasses.replace(state, before_deal=None),
    )
    return new, events


def _void_hand(state: MatchState, action: Action) -> tuple[MatchState, list[Event]]:
    """A misdeal (the operator voids the hand): back to this hand's deal, same dealer, no
    score (G-3.4: the hand is redealt); the state is the one before the deal."""
    if action.seat != TABLE:
        raise ActionError(CommonRefusal.ONLY_TABLE_DEALS, seat=action.seat)
    before = state.before_deal
    if state.phase is not MatchPhase.HAND or before is None:
        raise ActionError(Refusal.NOTHING_TO_VOID)
    data = {"hand": state.hand_number, "game": state.game_number, "dealer": before.dealer}
    return before, [Event(E.HAND_VOIDED, TABLE, data)]


def _finish_hand(state: MatchState, result: HandResult) -> tuple[MatchState, list[Event]]:
    rules = state.rules
    results = (*state.hand_results, result)
    if result.winner is None:  # G-13.5 dead hand, G-3.4 redeal
        dealer = next_dealer(rules, state.dealer, None)
        ev = Event(E.HAND_SCORED, TABLE, _result_data(state, result, state.scores, state.boxes))
        return dataclasses.replace(
            state, phase=MatchPhase.DEAL, dealer=dealer, hand_results=results
        ), [ev]
    w = result.winner
    scores = _add(state.scores, w, result.points)
    boxes = _add(state.boxes, w, result.boxes)
    hands_won = _add(state.hands_won, w, 1)
    if rules.match == MatchFormat.HOLLYWOOD:
        return _finish_hollywood(state, result, scores, boxes, hands_won, results)
    events = [Event(E.HAND_SCORED, w, _result_data(state, result, scores, boxes))]
    state = dataclasses.replace(
        state, scores=scores, boxes=boxes, hands_won=hands_won, hand_results=results
    )
    gw = game_winner(rules, scores, boxes)
    if gw is None:
        dealer = next_dealer(rules, state.dealer, w)  # G-3.3
        return dataclasses.replace(state, phase=MatchPhase.DEAL, dealer=dealer), events
    # G-14.4 tally; under immediate_boxes the box points were already counted (G-14.2)
    tally = tally_game(rules, winner=gw, hand_points=scores, boxes=boxes)
    games_won = _add(state.games_won, gw, 1)
    totals = (state.match_totals[0] + tally.totals[0], state.match_totals[1] + tally.totals[1])
    events.append(Event(E.GAME_OVER, gw, _game_over_data(state.game_number, tally, games_won)))
    state = dataclasses.replace(
        state,
        games_won=games_won,
        game_results=(*state.game_results, tally),
        match_totals=totals,
    )
    mw = match_winner(rules, games_won)
    if mw is not None:
        events.append(
            Event(
                E.MATCH_OVER,
                mw,
                {"winner": mw, "games_won": list(games_won), "totals": list(totals)},
            )
        )
        return dataclasses.replace(state, phase=MatchPhase.OVER, winner=mw), events
    first = next_game_first_dealer(state.game_first_dealer)  # G-16.2
    return dataclasses.replace(
        state,
        phase=MatchPhase.DEAL,
        dealer=first,
        game_first_dealer=first,
        game_number=state.game_number + 1,
        scores=(0, 0),
        boxes=(0, 0),
        hands_won=(0, 0),
        hand_number=0,
        hand_results=(),
    ), events


def _game_over_data(number: int, tally: GameResult, games_won: tuple[int, int]) -> dict[str, Any]:
    return {
        "game": number,
        "winner": tally.winner,
        "hand_points": list(tally.hand_points),
        "boxes": list(tally.boxes),
        "box_points": list(tally.box_points),
        "game_bonus": list(tally.game_bonus),
        "shutout": tally.shutout,
        "totals": list(tally.totals),
        "margin": tally.margin,
        "games_won": list(games_won),
    }


def _finish_hollywood(
    state: MatchState,
    result: HandResult,
    scores: tuple[int, int],
    boxes: tuple[int, int],
    hands_won: tuple[int, int],
    results: tuple[HandResult, ...],
) -> tuple[MatchState, list[Event]]:
    """G-17: enter the win in the open games, close and tally games that reach the target."""
    rules = state.rules
    w = result.winner
    assert w is not None
    columns, entered, closed = hollywood_enter(
        rules, state.columns, winner=w, points=result.points, boxes=result.boxes
    )
    data = _result_data(state, result, scores, boxes)
    data["entered_games"] = [g + 1 for g in entered]
    data["columns"] = [list(c.scores) for c in columns]
    events = [Event(E.HAND_SCORED, w, data)]
    games_won, totals, game_results = state.games_won, state.match_totals, state.game_results
    for g in closed:
        tally = columns[g].result
        assert tally is not None
        games_won = _add(games_won, tally.winner, 1)
        totals = (totals[0] + tally.totals[0], totals[1] + tally.totals[1])
        game_results = (*game_results, tally)
        events.append(Event(E.GAME_OVER, tally.winner, _game_over_data(g + 1, tally, games_won)))
    open_games = [g for g, c in enumerate(columns) if not c.closed]
    state = dataclasses.replace(
        state,
        scores=scores,
        boxes=boxes,
        hands_won=hands_won,
        hand_results=results,
        columns=columns,
        games_won=games_won,
        match_totals=totals,
        game_results=game_results,
        game_number=open_games[0] + 1 if open_games else state.game_number,
    )
    if open_games:
        dealer = next_dealer(rules, state.dealer, w)  # G-3.3
        return dataclasses.replace(state, phase=MatchPhase.DEAL, dealer=dealer), events
    mw = hollywood_winner(columns)
    events.append(
        Event(E.MATCH_OVER, mw, {"winner": mw, "games_won": list(games_won), "totals": list(totals)})
    )
    return dataclasses.replace(state, phase=MatchPhase.OVER, winner=mw), events


def _result_data(
    state: MatchState, r: HandResult, scores: tuple[int, int], boxes: tuple[int, int]
) -> dict[str, Any]:
    return {
        "game": state.game_number,
        "hand": state.hand_number,
        "outcome": r.outcome,
        "winner": r.winner,
        "points": r.points,
        "boxes": r.boxes,
        "knocker": r.knocker,
        "knocker_count": r.knocker_count,
        "defender_count": r.defender_count,
        "knocker_melds": hands.melds_data(r.knocker_melds),
        "knocker_deadwood": hands.cards_text(r.knocker_deadwood),
        "defender_melds": hands.melds_data(r.defender_melds),
        "defender_deadwood": hands.cards_text(r.defender_deadwood),
        "layoffs": [[str(c), i] for c, i in r.layoffs],
        "doubled": r.doubled,
        "scores": list(scores),
        "game_boxes": list(boxes),
    }


class GinEngine:
    """``rummy.games.GameEngine`` for gin rummy."""

    name = "gin"
    result_events = RESULT_EVENTS

    def rules_from_dict(self, data: Mapping[str, Any]) -> GinRules:
        return rules_mod.rules_from_dict(data)

    def rules_to_dict(self, rules: GinRules) -> dict[str, Any]:
        return rules_mod.rules_to_dict(rules)

    def preset(self, name: str) -> GinRules:
        return rules_mod.preset(name)

    def new_match(self, rules: GinRules, seats: int = 2, *, first_dealer: int = 0) -> MatchState:
        return new_match(rules, seats, first_dealer=first_dealer)

    def decks_to_deal(self, state: MatchState) -> int:
        return 1 if state.phase is MatchPhase.DEAL else 0

    def to_act(self, state: MatchState) -> Sequence[int]:
        return to_act(state)

    def legal_actions(self, state: MatchState, seat: int) -> list[Action]:
        return legal_actions(state, seat)

    def apply(self, state: MatchState, action: Action) -> tuple[MatchState, list[Event]]:
        return apply(state, action)

    def is_over(self, state: MatchState) -> bool:
        return state.phase is MatchPhase.OVER

    def outcome(self, state: MatchState, *, abandoned: bool = False) -> MatchOutcome:
        """Totals are the match totals (G-14.4, G-16); the winner is the match winner."""
        if state.phase is MatchPhase.OVER:
            assert state.winner is not None  # G-16, G-17: a finished match has one winner
            return MatchOutcome.won((state.winner,), state.match_totals)
        result = MatchOutcome.in_progress(state.match_totals)
        return result.abandon() if abandoned else result

    def view(self, state: MatchState, seat: int | None) -> SeatView:
        return seat_view(state, seat)

    def player(self, level: str = "basic") -> Any:
        """A new computer player of ``level`` (``rummy.players``: easy, medium, hard, basic)."""
        from rummy.players import player

        return player(self.name, level)

    def describe(self, event: Event) -> str:
        return describe(event)

    def expected(self, state: MatchState) -> ReadNeed | None:
        """Cards out of the shoe due now (read mode; :func:`rummy.gin.reads.expected`)."""
        return expected(state)


ENGINE = GinEngine()

if TYPE_CHECKING:  # mypy checks that ENGINE offers the whole interface over gin's types
    _CONFORMS: GameEngine[MatchState, GinRules, SeatView] = ENGINE
