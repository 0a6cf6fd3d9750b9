"""Reviews, recall and records read who won from the engine's ``outcome()`` (issue 30
item 3), never from ``state.winner``, the scores or the events' data: each test gives the
reader an outcome that disagrees with what the old reads would have found, and checks that
the outcome is what the table says."""

from __future__ import annotations

import random
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

from display.table.contract_text import EVENT_WORDS as CONTRACT_EVENT_WORDS
from display.table.gin_text import EVENT_WORDS as GIN_EVENT_WORDS
from display.table.gin_text import OUTCOME_TITLES
from display.table.recall_text import OUTCOMES
from display.table.viewmodels.review import contract_review, gin_review
from rummy.contract.engine import ENGINE as CONTRACT
from rummy.contract.engine import ContractEngine
from rummy.contract.kinds import EventKind as ContractEvent
from rummy.gin.bots import RandomPlayer
from rummy.gin.engine import ENGINE as GIN
from rummy.gin.engine import GinEngine
from rummy.gin.kinds import EventKind as GinEvent
from rummy.gin.kinds import HandOutcome
from rummy.outcome import MatchOutcome
from rummy.play import play_match
from rummy.players import player

NAMES = ("Ann", "Bob", "Cid")


class SwappedGin(GinEngine):
    """Gin whose outcome names the other seat: what the table shows must follow it."""

    def outcome(self, state: Any, *, abandoned: bool = False) -> MatchOutcome:
        out = super().outcome(state, abandoned=abandoned)
        return MatchOutcome.won((1 - out.winners[0],), out.totals) if out.winners else out


class SharedContract(ContractEngine):
    """Contract whose outcome says every seat shares the win, whatever the scores."""

    def outcome(self, state: Any, *, abandoned: bool = False) -> MatchOutcome:
        out = super().outcome(state, abandoned=abandoned)
        return MatchOutcome.won(tuple(range(len(out.totals))), out.totals) if out.finished else out


def fake_match(engine: Any, state: Any, seats: int) -> Any:
    return SimpleNamespace(engine=engine, state=state, is_over=bool(engine.is_over(state)),
                           seats=[{"name": n} for n in NAMES[:seats]], name=lambda s: NAMES[s])


@pytest.fixture(scope="module")
def gin_final():
    state = GIN.new_match(GIN.preset("standard"))
    final, _steps = play_match(GIN, state, [RandomPlayer(), RandomPlayer()], random.Random(5))
    assert GIN.is_over(final) and final.winner is not None
    return final


@pytest.fixture(scope="module")
def contract_final():
    state = CONTRACT.new_match(CONTRACT.preset("seed_002"), 2)
    final, _steps = play_match(CONTRACT, state, [player("contract"), player("contract")], random.Random(3))
    assert CONTRACT.is_over(final) and final.results
    return final


def test_gin_review_names_the_outcomes_winner(gin_final):
    vm = gin_review(fake_match(GIN, gin_final, 2), far_strip=True, four_colour=False)
    real = NAMES[gin_final.winner]
    assert vm.far_text == f"{real} wins the match!"
    assert (f"{real} wins the match!",) in [row.cells for row in vm.sheet_foot]
    swapped = NAMES[1 - gin_final.winner]
    vm = gin_review(fake_match(SwappedGin(), gin_final, 2), far_strip=True, four_colour=False)
    assert vm.far_text == f"{swapped} wins the match!"  # st.winner would say the other name
    texts = [row.cells[0] for row in vm.sheet_foot]
    assert f"{swapped} wins the match!" in texts and f"{real} wins the match!" not in texts


def test_contract_review_title_is_the_outcomes_winners(contract_final):
    names = [NAMES[s] for s in CONTRACT.outcome(contract_final).winners]
    vm = contract_review(fake_match(CONTRACT, contract_final, 2), four_colour=False)
    assert vm.title == (f"{names[0]} wins the match!" if len(names) == 1
                        else f"Shared win: {', '.join(names)}")
    vm = contract_review(fake_match(SharedContract(), contract_final, 2), four_colour=False)
    assert vm.title == "Shared win: Ann, Bob"  # the highest score alone would name one seat


def test_contract_review_a_tie_on_the_real_engine_shares_the_win(contract_final):
    tied = replace(contract_final, scores=(40, 40))  # C-7.4: ties share
    assert CONTRACT.outcome(tied).winners == (0, 1)
    assert contract_review(fake_match(CONTRACT, tied, 2), four_colour=False).title == "Shared win: Ann, Bob"


def test_the_words_are_keyed_by_the_games_enums():
    assert set(OUTCOME_TITLES) == set(HandOutcome)
    assert set(OUTCOMES) == set(HandOutcome) - {HandOutcome.DEAD}
    assert set(GIN_EVENT_WORDS) <= set(GinEvent) and all(isinstance(k, GinEvent) for k in GIN_EVENT_WORDS)
    assert set(CONTRACT_EVENT_WORDS) <= set(ContractEvent)
    assert all(isinstance(k, ContractEvent) for k in CONTRACT_EVENT_WORDS)
    # a journal's plain word finds the same entry (StrEnum values are the journal's strings)
    assert OUTCOME_TITLES["undercut"] is OUTCOME_TITLES[HandOutcome.UNDERCUT]
    assert GIN_EVENT_WORDS["discarded"] == GIN_EVENT_WORDS[GinEvent.DISCARDED]


def test_rule_options_read_as_the_rules_enums():
    """The centre's games-won line (G-16) and the illegal-knock warning (G-8.3) follow the
    rules' members, whether the rules were made from the member or from the word."""
    from display.table.hint_text import illegal_warning_text
    from display.table.viewmodels.gin import gin_centre
    from rummy.gin.rules import IllegalKnock, MatchFormat

    def centre(match_format: Any) -> Any:
        rules = replace(GIN.preset("standard"), match=MatchFormat(match_format), match_games=3)
        state = GIN.new_match(rules)
        state, _events = GIN.apply(state, deal(state))
        vm = gin_centre(fake_match(GIN, state, 2), (0, 0, 800, 480), pile_hint=False, flat=True,
                        centre_msg="", banner="", four_colour=False, touch=48)
        return vm.scores

    assert centre("best_of")[-1] == "Games won: 0 – 0"
    assert centre(MatchFormat.BEST_OF) == centre("best_of")
    assert not any(s.startswith("Games won") for s in centre(MatchFormat.SINGLE_GAME))
    warn = {"count": 12, "limit": 10}
    opponent = illegal_warning_text({**warn, "penalty": IllegalKnock.OPPONENT_OPTION})
    assert "your opponent may accept it" in opponent
    assert illegal_warning_text({**warn, "penalty": "opponent_option"}) == opponent  # a journal's word
    assert "you must knock when you can" in illegal_warning_text({**warn, "penalty": IllegalKnock.EXPOSE_AND_FORCE})


def deal(state: Any) -> Any:
    from rummy.play import deal_action

    return deal_action(GIN, state, random.Random(1))
