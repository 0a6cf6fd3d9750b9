"""Computer players think in a worker process (display.thinking), and a table never waits
for a move that cannot come: a player that cannot be pickled, or a worker that dies,
thinks in a thread instead (issue 30: no frame hitch while the hard player thinks)."""

from __future__ import annotations

import os
import signal
import threading

from test_bot_thinking import driver, until_computer

from display import thinking


def test_the_hard_player_thinks_in_the_worker_process_and_its_copy_plays_on(tmp_path):
    d = driver(tmp_path)
    until_computer(d)
    before = d.session.actions_applied
    d.update(10.0)
    thought = d._thought
    assert thought is not None and thought.where == "process"
    assert thought.done.wait(20)
    d.update(10.9)
    assert d.session.actions_applied == before + 1
    assert d.players[1] is thought.player  # the copy that came back with the move


class Unpicklable:
    """A basic player carrying a lock (which pickle refuses)."""

    def __init__(self, inner):
        self.inner, self.lock = inner, threading.Lock()

    def choose(self, engine, view, legal, rng):
        return self.inner.choose(engine, view, legal, rng)

    def __deepcopy__(self, memo):
        return Unpicklable(self.inner)


def test_a_player_that_cannot_be_pickled_thinks_in_a_thread(tmp_path):
    d = driver(tmp_path)
    until_computer(d)
    d.players[1] = Unpicklable(d.players[1])
    before = d.session.actions_applied
    d.update(10.0)
    assert d._thought.where == "thread" and d._thought.done.wait(20)
    d.update(10.9)
    assert d.session.actions_applied == before + 1


def test_a_worker_killed_mid_thought_falls_back_to_a_thread_and_the_move_is_made(tmp_path):
    d = driver(tmp_path)
    until_computer(d)
    pool = thinking._executor()
    assert pool is not None
    pool.submit(thinking._warm).result(20)  # the worker is up
    for pid in list(pool._processes):  # the worker dies (OOM killer, kill -9)
        os.kill(pid, signal.SIGKILL)
    before = d.session.actions_applied
    d.update(10.0)
    thought = d._thought
    assert thought.done.wait(30), "the move still comes"
    assert thought.where == "thread"
    d.update(10.9)
    assert d.session.actions_applied == before + 1
    assert thinking._executor() is not pool  # a new worker for the next thought


def test_a_worker_that_never_answers_is_given_up_and_a_thread_makes_the_move(tmp_path, monkeypatch):
    d = driver(tmp_path)
    until_computer(d)
    pool = thinking._executor()
    assert pool is not None
    pool.submit(thinking._warm).result(20)
    pids = list(pool._processes)
    for pid in pids:  # hung: stopped, never answers
        os.kill(pid, signal.SIGSTOP)
    monkeypatch.setattr(thinking, "LATE_S", 0.3)
    try:
        d.update(10.0)
        thought = d._thought
        assert thought.where == "process"
        assert thought.done.wait(30), "the move still comes"
        assert thought.where == "thread"
        d.update(10.9)
        assert d.session.actions_applied > 0 and d._thought is None
        assert all(not os.path.exists(f"/proc/{pid}/status") or "zombie" in
                   open(f"/proc/{pid}/status").read() for pid in pids), "the hung worker ended"
    finally:
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
