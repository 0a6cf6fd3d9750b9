"""``GameEngine.outcome``: the match's result from the engine, not guessed (issue 9)."""

from __future__ import annotations

import random
from dataclasses import replace

from rummy.contract.engine import ENGINE as CONTRACT
from rummy.contract.state import OVER
from rummy.gin.bots import RandomPlayer  # any legal action: plays either game
from rummy.gin.engine import ENGINE as GIN
from rummy.outcome import MatchOutcome, OutcomeReason
from rummy.play import play_match


def test_gin_outcome_follows_the_match():
    state = GIN.new_match(GIN.preset("standard"))
    assert GIN.outcome(state) == MatchOutcome(OutcomeReason.IN_PROGRESS, (0, 0))
    assert not GIN.outcome(state).finished and GIN.outcome(state).winner is None
    final, steps = play_match(GIN, state, [RandomPlayer(), RandomPlayer()], random.Random(5))
    out = GIN.outcome(final)
    assert out.reason is OutcomeReason.WON and out.finished
    assert out.winners == (final.winner,) and out.winner == final.winner
    assert out.totals == final.match_totals
    last = steps[-1][1][-1]
    assert last.kind == "match_over" and last.data["winner"] == out.winner
    assert GIN.outcome(final, abandoned=True) == out  # a won match stays won


def test_abandoned_is_the_sessions_word():
    state = GIN.new_match(GIN.preset("standard"))
    out = GIN.outcome(state, abandoned=True)
    assert out.reason is OutcomeReason.ABANDONED and out.finished and out.winners == ()
    assert GIN.outcome(state).abandon() == out


def test_contract_outcome_ties_share_the_win():
    state = CONTRACT.new_match(CONTRACT.preset("seed_002"), 4)
    assert CONTRACT.outcome(state).reason is OutcomeReason.IN_PROGRESS
    over = replace(state, phase=OVER, scores=(12, 30, -5, 30))
    out = CONTRACT.outcome(over)
    assert out == MatchOutcome(OutcomeReason.WON, (12, 30, -5, 30), (1, 3))
    assert out.winner is None  # a shared win (C-7.4)
    mid = replace(state, scores=(3, 1, 0, 2))
    assert CONTRACT.outcome(mid, abandoned=True) == MatchOutcome(
        OutcomeReason.ABANDONED, (3, 1, 0, 2)
    )
