"""Gin in read mode (issue 10): a game played with the cards supplied one by one as they
are read out of the shoe is the same game as with the pack's order known in advance; every
refused read leaves the state as it was; the journal of a read-mode game replays to the
live state."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from read_mode_helpers import chooser, described_and_counted, lockstep

from rummy.gin.engine import ENGINE
from rummy.gin.rules import preset
from rummy.records import replay

LEVELS = ("random", "easy", "basic", "medium")
VARIANTS = {
    "standard": {},
    "knock_card": {},
    "pagat_classic": {},
    "standard+review": {"illegal_knock": "opponent_option", "defender_layoffs": "agent"},
    "standard+set_aside": {"refused_upcard": "set_aside", "dead_hand_rule": "hoyle_pc",
                           "game_target": 60},
}


def rules_of(name: str):
    base = preset(name.split("+")[0])
    return base.replace(**VARIANTS[name])


GAMES = st.tuples(
    st.integers(0, 2**31 - 1),
    st.sampled_from(sorted(VARIANTS)),
    st.tuples(st.sampled_from(LEVELS), st.sampled_from(LEVELS)),
    st.sampled_from((0.0, 0.1, 0.5)),
    st.integers(0, 1),
)


FAST = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow],
        "phases": [Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink]}


@settings(max_examples=60, **FAST)
@given(GAMES)
def test_read_mode_is_the_same_game_and_refused_reads_change_nothing(game):
    seed, variant, levels, slip, first = game
    run = lockstep(ENGINE, rules_of(variant), 2, seed, chooser(ENGINE, levels, slip),
                   first_dealer=first, max_deals=8)
    assert run.read_events == run.virt_events  # every event, in order
    assert run.read.scores == run.virt.scores and run.read.match_totals == run.virt.match_totals
    assert run.read.winner == run.virt.winner
    described_and_counted(ENGINE, run)


@settings(max_examples=20, **FAST)
@given(GAMES)
def test_the_journal_of_a_read_mode_game_replays_to_the_live_state(game):
    seed, variant, levels, slip, first = game
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "read.jsonl"
        run = lockstep(ENGINE, rules_of(variant), 2, seed, chooser(ENGINE, levels, slip),
                       first_dealer=first, probe_rate=0.0, journal=path, max_deals=8)
        rep = replay(path)
    assert rep.state == run.read
    assert rep.steps == run.read_steps
    assert any(a.kind == "deal_read" for a, _ in rep.steps)
    assert any(a.kind == "draw_stock" and a.card is not None for a, _ in rep.steps)
