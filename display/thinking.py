"""Computer players think in a worker process, so a search never shares the table's GIL.

A thread kept the frames going but not smooth: while the hard player searched, the main
loop waited up to Python's switch interval for the GIL at every frame (issue 30: frame
intervals of 25 ms at p99 while it thought). One long-lived worker process, forked from a
small server that never imported pygame, takes a pickled copy of the player, the seat's
view and its legal actions, and sends back the action with the copy that saw the view.

Nothing here may leave a table without a move: when the worker cannot be started, dies
(out of memory, killed) or a player cannot be pickled, the thought runs in a thread in
this process as before, and a pool that broke three times is not started again. An error
raised by the player's own ``choose`` is sent back and raised where the move is taken.
"""

from __future__ import annotations

import copy
import multiprocessing
import pickle
import random
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from rummy.actions import Action

GIVE_UP_AFTER = 3  # pools that broke before the table thinks in threads only
LATE_S = 8.0  # a worker that has not answered by then is taken for hung: a thread thinks
_PRELOAD = ["display.thinking", "rummy.gin.bots", "rummy.gin.bots_hard", "rummy.contract.bots"]

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_broken = 0


def _choose_in_worker(game: str, blob: bytes) -> tuple[str, Any, Any]:
    """In the worker: ("ok", action, player) or ("error", exception, None)."""
    from rummy.games import get_engine

    player, view, legal, rng = pickle.loads(blob)
    try:
        action = player.choose(get_engine(game), view, legal, rng)
    except Exception as exc:  # the player's own error, raised again in the main loop
        return "error", exc, None
    return "ok", action, player


def _warm() -> bool:
    return True


def _executor() -> ProcessPoolExecutor | None:
    """The one worker, started on first use (None: think in threads)."""
    global _pool
    with _lock:
        if _pool is None and _broken < GIVE_UP_AFTER:
            try:
                ctx = multiprocessing.get_context("forkserver")
                ctx.set_forkserver_preload(_PRELOAD)
                _pool = ProcessPoolExecutor(max_workers=1, mp_context=ctx)
            except (OSError, ValueError, ImportError):  # no forkserver here: threads
                _pool = None
                _mark_broken_locked()
        return _pool


def _mark_broken_locked() -> None:
    global _pool, _broken
    if _pool is not None:
        for process in list((_pool._processes or {}).values()):  # a hung worker ends now,
            process.kill()  # not at exit (the executor would wait for it there)
        _pool.shutdown(wait=False, cancel_futures=True)
    _pool, _broken = None, _broken + 1


def _mark_broken(pool: ProcessPoolExecutor) -> None:
    with _lock:
        if _pool is pool:
            _mark_broken_locked()


def warm_up() -> None:
    """Start the worker now (it takes a few tenths of a second), so the first thought
    does not wait for it. Does nothing where the worker cannot run."""
    pool = _executor()
    if pool is not None:
        try:
            pool.submit(_warm)
        except RuntimeError:  # shut down meanwhile
            _mark_broken(pool)


def shutdown() -> None:
    """Stop the worker (the app is closing); a later thought starts a new one."""
    global _pool
    with _lock:
        if _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


class Thought:
    """A computer seat's decision worked out during the table's delay.

    It plays a copy of the player (its memory sees the view once); the copy replaces the
    seat's player only when its action is taken, so a thought made stale by a human's call
    (a BUY, a new state) is dropped with no trace. ``done`` is set when the action is ready.
    """

    def __init__(self, seat: int, state: Any, player: Any) -> None:
        self.seat, self.state, self.player = seat, state, player
        self.done = threading.Event()
        self.where = ""  # "process" or "thread": where it was worked out
        self._action: Action | None = None
        self._error: BaseException | None = None
        self._settle = threading.Lock()  # the worker's answer or the late timer, not both
        self._settled = False

    def start(self, game: str, engine: Any, view: Any, legal: list[Action],
              rng: random.Random) -> None:
        pool = _executor()
        if pool is not None:
            try:
                blob = pickle.dumps((self.player, view, legal, rng), pickle.HIGHEST_PROTOCOL)
            except Exception:  # a player that cannot travel (a test's, a lock inside)
                blob = b""
            if blob:
                try:
                    future = pool.submit(_choose_in_worker, game, blob)
                except RuntimeError:  # the pool broke or shut down: threads this time
                    _mark_broken(pool)
                else:
                    self.where = "process"
                    late = threading.Timer(LATE_S, self._late, (pool, engine, view, legal, rng))
                    late.daemon = True
                    late.start()
                    future.add_done_callback(
                        lambda f: self._arrived(f, pool, engine, view, legal, rng))
                    return
        self._in_thread(engine, view, legal, rng)

    def _claim(self) -> bool:
        with self._settle:
            first, self._settled = not self._settled, True
            return first

    def _late(self, pool: ProcessPoolExecutor, engine: Any, view: Any, legal: list[Action],
              rng: random.Random) -> None:
        """No answer in ``LATE_S``: the worker is hung (or never started), think here."""
        if self._claim():
            _mark_broken(pool)
            self._in_thread(engine, view, legal, rng)

    def _arrived(self, future: Future[tuple[str, Any, Any]], pool: ProcessPoolExecutor,
                 engine: Any, view: Any, legal: list[Action], rng: random.Random) -> None:
        if not self._claim():
            return  # too late: a thread is already on it
        try:
            status, value, player = future.result()
        except BaseException:  # the worker died or the answer could not travel back
            _mark_broken(pool)
            self._in_thread(engine, view, legal, rng)
            return
        if status == "ok":
            self._action, self.player = value, player
        else:
            self._error = value
        self.done.set()

    def _in_thread(self, engine: Any, view: Any, legal: list[Action], rng: random.Random) -> None:
        self.where = "thread"
        self.player = copy.deepcopy(self.player)

        def run() -> None:
            try:
                self._action = self.player.choose(engine, view, legal, rng)
            except BaseException as exc:  # raised again in the main loop
                self._error = exc
            finally:
                self.done.set()

        threading.Thread(target=run, name=f"seat-{self.seat}-thinks", daemon=True).start()

    def result(self) -> Action:
        """The action (waits for it if needed); the player's error if it failed."""
        self.done.wait()
        if self._error is not None:
            raise self._error
        assert self._action is not None
        return self._action
