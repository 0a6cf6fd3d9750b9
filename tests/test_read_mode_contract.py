"""Contract rummy in read mode (issue 10): a game played with the cards supplied one by one
as they are read out of the shoe (the deal, stock draws, buys' stock cards, reads after a
C-10 refill) is the same game as with the packs' order known in advance; every refused read
leaves the state as it was; the journal of a read-mode game replays to the live state."""

from __future__ import annotations

import dataclasses
import tempfile
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from read_mode_helpers import chooser, described_and_counted, lockstep

from rummy.contract.engine import ENGINE
from rummy.contract.rules import preset
from rummy.records import replay

LEVELS = ("random", "random", "basic", "easy")
VARIANTS = {
    "seed_002": {},
    "american_may_i": {},
    "take_as_draw": {"next_player_refusal": "take_as_draw", "in_turn_single_card_buy": True},
    "two_refills": {"stock_refills": 2, "refill_shuffle": False, "penalty_in_turn_first_card": 1},
    "limited": {"max_buys_per_deal": 3, "buy_after_contract": False,
                "refuser_may_take_more": False},
}
FAST = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow],
        "phases": [Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink]}


def rules_of(name: str):
    base = preset("american_may_i" if name == "american_may_i" else "seed_002")
    return dataclasses.replace(base, **VARIANTS[name])


GAMES = st.integers(2, 6).flatmap(lambda seats: st.tuples(
    st.integers(0, 2**31 - 1),
    st.sampled_from(sorted(VARIANTS)),
    st.tuples(*[st.sampled_from(LEVELS)] * seats),
    st.sampled_from((0.0, 0.2)),
    st.integers(0, seats - 1),
))


def play(game, **kw):
    seed, variant, levels, slip, first = game
    return lockstep(ENGINE, rules_of(variant), len(levels), seed, chooser(ENGINE, levels, slip),
                    first_dealer=first, **kw)


@settings(max_examples=40, **FAST)
@given(GAMES)
def test_read_mode_is_the_same_game_and_refused_reads_change_nothing(game):
    run = play(game)
    assert run.read_events == run.virt_events  # every event, in order
    assert run.read.scores == run.virt.scores and run.read.results == run.virt.results
    described_and_counted(ENGINE, run)


@settings(max_examples=10, **FAST)
@given(GAMES)
def test_the_journal_of_a_read_mode_game_replays_to_the_live_state(game):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "read.jsonl"
        run = play(game, probe_rate=0.0, journal=path)
        rep = replay(path)
    assert rep.state == run.read
    assert rep.steps == run.read_steps


def test_the_generator_reaches_buys_penalty_cards_and_refills():
    """The games above are random; these fixed ones show what such games reach (C-8.2,
    C-8.4, C-8.5, C-10 refills during a draw and during a buy, C-10.2 the stock gone)."""
    total: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    for seed, variant, levels in [
        (1, "seed_002", ("random", "basic", "easy", "random")),
        (5, "two_refills", ("random", "random")),
        (3, "american_may_i", ("easy", "random", "random")),
        (4, "limited", ("random",) * 6),
    ]:
        run = play((seed, variant, levels, 0.2, 0))
        assert run.read_events == run.virt_events
        total.update(run.tally.reached)
        refused.update(run.tally.refused)
    for key in ("buy:granted", "buy:refused", "buy:in_turn", "penalty_cards", "stock_cards",
                "cards_in_buy_action", "refill_draw", "refill_in_buy", "stock_gone",
                "penalty_waived", "void_hand"):
        assert total[key] > 0, (key, total)
    for code in ("contract.card_already_placed", "contract.card_not_in_stock",
                 "contract.card_read_needed", "contract.read_too_many",
                 "contract.deal_read_size"):
        assert refused[code] > 0, (code, refused)
