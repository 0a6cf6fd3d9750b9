"""Computer players think in a worker process (display.table.thinking, issue 30): the same
move, memory and rng as a thread's thought; one worker started lazily, reused, ended
cleanly; a player that cannot be pickled, a dead or a hung worker: a thread thinks, and
a line says so; the kiosk stopped by SIGTERM leaves no traceback and no worker behind."""

from __future__ import annotations

import copy
import os
import random
import signal
import sys
import threading
import time
from pathlib import Path

import pytest
from test_bot_thinking import driver, until_computer

from display.table import thinking
from display.table.match import MatchDriver
from rummy.games import get_engine
from rummy.play import deal_action
from rummy.players import names, player
from rummy.session import MatchSession
from rummy.session_runner import default_rules

SERVE = "display.table.thinking import serve"


@pytest.fixture(autouse=True)
def fresh_worker(monkeypatch):
    """Each test starts with no worker and the real limits, and ends its worker."""
    thinking.shutdown()
    monkeypatch.setattr(thinking, "_broken", 0)
    monkeypatch.setattr(thinking, "_unpicklable", set())
    yield
    thinking.shutdown()


def gone(pid: int) -> bool:
    """The process has ended and been reaped (no zombie left)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            return "zombie" in f.read()  # pragma: no cover - a zombie fails the callers' checks
    except FileNotFoundError:
        return True


def reaped(pid: int) -> bool:
    return not os.path.exists(f"/proc/{pid}")


def positions(game: str, level: str, count: int, seed: int):
    """``count`` decisions of a seeded match between two (gin) or three (contract) players
    of ``level``: (engine, player of the seat, view, legal, seat) just before each, with
    each seat's player fed every earlier view of its own (its memory is the real one)."""
    engine = get_engine(game)
    rules, _ = default_rules(game, None)
    rules = engine.rules_from_dict(rules) if isinstance(rules, dict) else rules
    seats = 2 if game == "gin" else 3
    players = [player(game, level) for _ in range(seats)]
    rng = random.Random(seed)
    state = engine.new_match(rules, seats)
    n = 0
    while n < count and not engine.is_over(state):
        if engine.decks_to_deal(state):
            state, _ = engine.apply(state, deal_action(engine, state, rng))
            continue
        seat = engine.to_act(state)[0]
        legal = list(engine.legal_actions(state, seat))
        view = engine.view(state, seat)
        yield engine, players, seat, view, legal, rng.getrandbits(64)
        state, _ = engine.apply(state, players[seat].choose(engine, view, legal, random.Random(0)))
        n += 1


@pytest.mark.parametrize("game", ["gin", "contract"])
def test_the_worker_gives_the_threads_move_memory_and_rng_for_every_level(game):
    checked = 0
    for level in names(game):
        if level == "random":
            continue
        for engine, players, seat, view, legal, bits in positions(game, level, 24, seed=11):
            thread_copy, thread_rng = copy.deepcopy(players[seat]), random.Random(bits)
            expected = thread_copy.choose(engine, view, legal, thread_rng)
            thought = thinking.Thought(seat, None, players[seat])
            thought.start(game, engine, view, legal, random.Random(bits))
            assert thought.done.wait(60), f"{game} {level}: no answer"
            assert thought.where == "process", f"{game} {level} thought in a thread"
            assert thought.result() == expected, f"{game} {level}: another move"
            assert thought.player is not players[seat]  # a copy; the seat's own is untouched
            assert vars(thought.player) == vars(thread_copy), f"{game} {level}: another memory"
            assert thought.rng is not None and thought.rng.getstate() == thread_rng.getstate()
            checked += 1
    assert checked >= 3 * 24


def play(d: MatchDriver, moves: int) -> list:
    """``moves`` actions of a driver with a delay: the human plays basic at once, the
    computer's thought is taken when its delay has passed (waiting for it on wall time)."""
    basic = player("gin", "basic")
    t = 0.0
    while len(d.history) < moves and not d.is_over:
        if d.review_pending:
            d.continue_after_review()
            continue
        if 0 in d.to_act():
            legal = d.legal(0)
            d.submit(basic.choose(d.engine, d.engine.view(d.state, 0), legal, random.Random(len(d.history))))
            continue
        d.update(t)
        assert d.thought_ready(60)
        t += 1.0
        d.update(t)
    return [a for a, _ in d.history]


def test_a_seeded_table_plays_the_same_match_with_the_worker_as_with_threads(tmp_path, monkeypatch):
    with_worker = play(driver(tmp_path / "a"), 60)
    assert thinking.worker_pid() is not None
    monkeypatch.setattr(thinking, "worker", lambda: None)  # threads only
    with_threads = play(driver(tmp_path / "b"), 60)
    assert len(with_worker) == 60 and with_worker == with_threads


def test_the_worker_starts_lazily_is_reused_and_ends_on_shutdown(tmp_path):
    import pygame  # noqa: F401 - as in the app, whose process the worker must not copy

    assert thinking.worker_pid() is None
    d = driver(tmp_path)  # a computer seat with a delay: the worker starts with the match
    pid = thinking.worker_pid()
    assert pid is not None
    play(d, 20)
    assert thinking.worker_pid() == pid, "one worker for every thought"
    maps = Path(f"/proc/{pid}/maps").read_text()
    assert "pygame" in Path(f"/proc/{os.getpid()}/maps").read_text()  # the app has it ...
    assert "pygame" not in maps and "libSDL" not in maps, \
        "... the worker does not: a fresh interpreter, not a fork of the app"
    thinking.shutdown()
    assert thinking.worker_pid() is None and reaped(pid), "ended and waited for"
    d.update(100.0)  # the next thought starts a new one
    assert thinking.worker_pid() not in (None, pid)


def test_no_worker_for_a_table_without_a_delay(tmp_path):
    driver(tmp_path, delay=0.0)
    assert thinking.worker_pid() is None


class Unpicklable:
    """A basic player carrying a lock (which pickle refuses)."""

    def __init__(self, inner):
        self.inner, self.lock = inner, threading.Lock()

    def choose(self, engine, view, legal, rng):
        return self.inner.choose(engine, view, legal, rng)

    def __deepcopy__(self, memo):
        return Unpicklable(self.inner)


def test_a_player_that_cannot_be_pickled_thinks_in_a_thread_and_says_so(tmp_path, capfd):
    d = driver(tmp_path)
    until_computer(d)
    d.players[1] = Unpicklable(d.players[1])
    before = d.session.actions_applied
    d.update(10.0)
    assert d._thought.where == "thread" and d._thought.done.wait(20)
    d.update(10.9)
    assert d.session.actions_applied == before + 1
    assert capfd.readouterr().err.count("rummy-table: thinking: Unpicklable cannot be pickled") == 1
    until_computer(d)
    d.update(20.0)
    assert d._thought.where == "thread" and d._thought.done.wait(20)
    assert "cannot be pickled" not in capfd.readouterr().err, "said once, not at every move"


def test_an_error_in_the_workers_search_is_raised_where_the_move_is_taken():
    engine = get_engine("gin")
    thought = thinking.Thought(1, None, player("gin", "hard"))
    thought.start("gin", engine, "not a view", [], random.Random(1))
    assert thought.done.wait(30) and thought.where == "process"
    with pytest.raises(AttributeError) as info:
        thought.result()
    assert any("in the thinking worker" in n for n in getattr(info.value, "__notes__", []))


def test_a_worker_killed_mid_thought_gives_way_to_a_thread_and_a_new_worker(tmp_path, capfd):
    d = driver(tmp_path)
    until_computer(d)
    pid = thinking.worker_pid()
    assert pid is not None
    os.kill(pid, signal.SIGSTOP)  # it cannot answer before it dies
    before = d.session.actions_applied
    d.update(10.0)
    thought = d._thought
    assert thought.where == "process"
    os.kill(pid, signal.SIGKILL)  # the OOM killer, kill -9
    assert thought.done.wait(30), "the move still comes"
    assert thought.where == "thread"
    d.update(10.9)
    assert d.session.actions_applied == before + 1
    assert reaped(pid)
    assert f"the worker (pid {pid}) failed: it ended (exit code -9)" in capfd.readouterr().err
    assert thinking.worker_pid() is None
    until_computer(d)
    d.update(20.0)  # the next thought: a new worker
    assert thinking.worker_pid() not in (None, pid)


def test_a_worker_that_never_answers_is_killed_and_a_thread_makes_the_move(tmp_path, monkeypatch, capfd):
    monkeypatch.setattr(thinking, "LATE_S", 0.5)
    d = driver(tmp_path)
    until_computer(d)
    pid = thinking.worker_pid()
    assert pid is not None
    os.kill(pid, signal.SIGSTOP)  # hung: never answers
    try:
        d.update(10.0)
        thought = d._thought
        assert thought.where == "process"
        assert not thought.done.wait(0.3)
        assert thought.done.wait(30), "the move still comes"
        assert thought.where == "thread"
        d.update(10.9)
        assert d._thought is None and d.history[-1][0].seat == 1
        assert reaped(pid), "the hung worker is killed and waited for"
        assert "failed: no answer in 0.5 s" in capfd.readouterr().err
    finally:
        if not reaped(pid):  # pragma: no cover - only when the test fails
            os.kill(pid, signal.SIGKILL)


def test_after_three_broken_workers_the_table_thinks_in_threads(tmp_path, monkeypatch, capfd):
    monkeypatch.setattr(thinking, "_broken", thinking.GIVE_UP_AFTER - 1)
    d = driver(tmp_path)
    until_computer(d)
    pid = thinking.worker_pid()
    os.kill(pid, signal.SIGKILL)
    d.update(10.0)
    assert d._thought.done.wait(30) and d._thought.where == "thread"
    d.update(10.9)
    assert thinking.worker() is None and thinking.worker_pid() is None
    assert "computer players think in threads from now on" in capfd.readouterr().err


def worker_pids_for(state_dir: Path) -> list[int]:
    """The thinking workers whose environment names ``state_dir`` (this test's kiosk's)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmd = (entry / "cmdline").read_bytes()
            env = (entry / "environ").read_bytes()
        except OSError:
            continue
        if SERVE.encode() in cmd and f"RUMMY_TABLE_STATE_DIR={state_dir}".encode() in env:
            found.append(int(entry.name))
    return found


def test_the_kiosk_stopped_while_a_computer_thinks_ends_its_worker_silently(tmp_path):
    sys.path.insert(0, str(Path(__file__).parent / "faults"))
    from faultkit import assert_kiosk_survived, run_kiosk

    sd = tmp_path / "state"
    rules, preset = default_rules("gin", None)
    seats = [{"name": "Ann", "kind": "human"}, {"name": "Hard", "kind": "computer", "bot": "hard"}]
    s = MatchSession.start(sd, "gin", rules, seats, seed=3, preset=preset, fsync=False)
    d = MatchDriver(s, bot_delay=0.0, seed=3)
    d.update(0.0)
    until_computer(d)  # the kiosk resumes it with the computer to move
    s.close()
    thinking.shutdown()
    seen: set[int] = set()
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            seen.update(worker_pids_for(sd))
            time.sleep(0.05)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        run = run_kiosk(sd, tmp_path, seconds=6.0)
    finally:
        stop.set()
        watcher.join()
    assert_kiosk_survived(run)
    assert seen, "the resumed table's computer thought in a worker"
    assert "Traceback" not in run.stderr and "Exception" not in run.stderr
    assert worker_pids_for(sd) == [], "no worker left behind"
