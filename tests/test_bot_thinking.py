"""A computer seat thinks during the table's delay, in a thread, so the frames never wait
for it (issue 12: "the bot's delay is the table's, not its thinking")."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from display.table.match import MatchDriver
from rummy.session import MatchSession
from rummy.session_runner import default_rules

SEATS = [{"name": "Ann", "kind": "human"}, {"name": "Hard", "kind": "computer", "bot": "hard"}]


class Gate:
    """A player that waits for ``release`` before choosing (the slowest search there is)."""

    name = "gate"

    def __init__(self, inner: Any) -> None:
        self.inner, self.release, self.calls = inner, threading.Event(), 0
        self.error: Exception | None = None

    def __deepcopy__(self, memo: dict) -> Gate:
        return self  # the test watches the one object the thread runs

    def choose(self, engine: Any, view: Any, legal: Any, rng: Any) -> Any:
        self.calls += 1
        assert self.release.wait(10)
        if self.error is not None:
            raise self.error
        return self.inner.choose(engine, view, legal, rng)


def driver(tmp_path, delay: float = 0.8) -> MatchDriver:
    rules, preset = default_rules("gin", None)
    session = MatchSession.start(tmp_path, "gin", rules, SEATS, seed=3, preset=preset, fsync=False)
    d = MatchDriver(session, bot_delay=delay, seed=3)
    d.update(0.0)  # deals
    return d


def until_computer(d: MatchDriver) -> None:
    """Let the human seat play basic moves until the computer is to act."""
    from rummy.players import player

    basic = player("gin", "basic")
    for _ in range(50):
        seats = d.to_act()
        if 1 in seats:
            return
        legal = d.engine.legal_actions(d.state, 0)
        assert d.submit(basic.choose(d.engine, d.engine.view(d.state, 0), legal, d.rng)) is None
    raise AssertionError("the computer never got a turn")


def test_the_move_is_worked_out_during_the_delay_and_taken_when_it_ends(tmp_path):
    d = driver(tmp_path)
    until_computer(d)
    before = d.session.actions_applied
    assert d.update(10.0) is False  # the delay starts, and so does the thinking
    thought = d._thought
    assert thought is not None and thought.seat == 1
    assert thought.done.wait(10), "the hard player's search finished in its thread"
    assert d.update(10.5) is False and d.session.actions_applied == before  # not yet due
    seen = thought.player
    d.update(10.9)  # due: the thought's action is taken at once
    assert d.session.actions_applied == before + 1
    assert d.players[1] is seen  # the copy whose memory saw the view plays on


def test_frames_go_on_while_a_slow_computer_is_still_thinking(tmp_path):
    d = driver(tmp_path)
    until_computer(d)
    gate = Gate(d.players[1])
    d.players[1] = gate
    before = d.session.actions_applied
    d.update(10.0)
    for t in (10.9, 11.5, 12.0):  # past due, the thread still thinking: no frame waits
        assert d.update(t) is False and d.session.actions_applied == before
    assert gate.calls == 1  # one thought per state, not one per frame
    gate.release.set()
    d._thought.done.wait(10)
    d.update(12.1)
    assert d.session.actions_applied == before + 1


def test_a_thought_made_stale_is_dropped_and_its_copy_forgotten(tmp_path):
    d = driver(tmp_path)
    until_computer(d)
    original = d.players[1]
    d.update(10.0)
    thought = d._thought
    assert thought is not None and thought.done.wait(10)
    # The state moves on without it (here: the computer seat's move made another way).
    legal = d.engine.legal_actions(d.state, 1)
    assert d.submit(legal[0]) is None
    assert d.players[1] is original  # the copy that thought about the old state is gone
    assert thought.state is not d.state


def test_an_error_in_the_thinking_thread_reaches_the_main_loop(tmp_path):
    d = driver(tmp_path)
    until_computer(d)
    gate = Gate(d.players[1])
    gate.error = RuntimeError("bot bug")
    gate.release.set()
    d.players[1] = gate
    d.update(10.0)
    d._thought.done.wait(10)
    with pytest.raises(RuntimeError, match="bot bug"):
        d.update(10.9)  # where the app's failsafe catches it, as before


def test_no_delay_chooses_in_the_main_loop_with_the_drivers_random_generator(tmp_path):
    d = driver(tmp_path, delay=0.0)
    until_computer(d)
    before = d.session.actions_applied
    d.update(10.0)
    assert d._thought is None and d.session.actions_applied == before + 1
