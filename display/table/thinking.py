"""Computer players think in a worker process, so a search never holds the table's GIL.

A thread kept the frames going but not smooth: while the hard player searched, the main
loop waited for the GIL at every frame (issue 30: intervals of 147 ms at p99 at Python's
5 ms switch interval, still 24.5 ms at 0.5 ms). One long-lived worker, a fresh
interpreter (``python -c "...serve()"``: no fork of the pygame process, no pygame, no
multiprocessing or concurrent.futures machinery and their atexit hooks), is started on
first use and reused. It reads ``(id, game, player, view, legal, rng)`` pickles on its
stdin and writes ``(id, "ok", action, player, rng state)`` on a private copy of its
stdout; the copy of the player that saw the view comes back with the move, and the rng
comes back in the state the search left it, so a thought made in the worker is the
thought a thread would have made (``tests/test_thinking_worker.py``).

Nothing here may leave a table without a move: a player that cannot be pickled thinks in
a thread, as before; a worker that dies (out of memory, killed) or does not answer in
:data:`LATE_S` is killed and waited for, each thought it held is worked out in a thread,
one line says so on stderr (the system log), and after :data:`GIVE_UP_AFTER` broken
workers the table thinks in threads only. An error raised by the player's own ``choose``
comes back and is raised where the move is taken. :func:`shutdown` (the app's close, and
at exit) ends the worker: it ends on its own when its stdin closes (the app died), and it
ignores SIGINT (a Ctrl-C in the terminal is the app's).
"""

from __future__ import annotations

import atexit
import copy
import os
import pickle
import random
import select
import struct
import subprocess
import sys
import threading
import time
import traceback
from collections import deque
from pathlib import Path
from typing import IO, Any

from rummy.actions import Action

LATE_S = 8.0  # a worker that has not answered a thought by then is taken for hung
POLL_S = 0.5  # the reply thread looks at the in-flight thought's deadline this often
GIVE_UP_AFTER = 3  # broken workers before the table thinks in threads only
NICE = 5  # the worker yields a shared core to the table's frames
_HEADER = struct.Struct("!Q")
_ROOT = str(Path(__file__).resolve().parents[2])  # the directory holding display/ and rummy/
_PRELOAD = ("rummy.games", "rummy.gin.engine", "rummy.gin.bots", "rummy.gin.bots_hard",
            "rummy.contract.engine", "rummy.contract.bots")


def _log(message: str) -> None:
    print(f"rummy-table: thinking: {message}", file=sys.stderr, flush=True)


# -- the wire ----------------------------------------------------------------------------------
def _send(out: IO[bytes], blob: bytes) -> None:
    out.write(_HEADER.pack(len(blob)) + blob)
    out.flush()


def _receive(inp: IO[bytes]) -> bytes | None:
    """One message, or None at the end of the stream (or a torn message)."""
    head = inp.read(_HEADER.size)
    if len(head) < _HEADER.size:
        return None
    (n,) = _HEADER.unpack(head)
    blob = inp.read(n)
    return blob if len(blob) == n else None


# -- the worker process ------------------------------------------------------------------------
def serve() -> None:
    """The worker's loop: one thought at a time until its stdin ends."""
    import gc
    import importlib
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the app's; it closes us
    try:
        os.nice(NICE)
    except OSError:
        pass
    out = os.fdopen(os.dup(1), "wb")  # the replies' own pipe: a player's print goes to stderr
    os.dup2(2, 1)
    inp = sys.stdin.buffer
    for name in _PRELOAD:
        importlib.import_module(name)
    from rummy.games import get_engine

    gc.freeze()  # the modules' objects are not walked again at every collection
    while True:
        blob = _receive(inp)
        if blob is None:
            return
        tid = -1
        try:
            tid, game, player, view, legal, rng = pickle.loads(blob)
            engine = get_engine(game)
        except Exception as exc:  # noqa: BLE001 - the app thinks this one in a thread
            reply: tuple[Any, ...] = (tid, "unloadable", f"{type(exc).__name__}: {exc}")
        else:
            try:
                action = player.choose(engine, view, legal, rng)
            except Exception as exc:  # noqa: BLE001 - the player's own error, raised in the app
                exc.add_note("(in the thinking worker)\n" + traceback.format_exc().rstrip())
                reply = (tid, "error", exc, f"{type(exc).__name__}: {exc}")
            else:
                reply = (tid, "ok", action, player, rng.getstate())
        try:
            data = pickle.dumps(reply, pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # noqa: BLE001 - an answer that cannot travel: a thread thinks
            data = pickle.dumps((tid, "unloadable", f"reply: {type(exc).__name__}: {exc}"))
        try:
            _send(out, data)
        except OSError:  # the app is gone
            return


# -- the app's side ----------------------------------------------------------------------------
class Worker:
    """The running worker process: one thought in flight, the others queued here (so a
    thought dropped before it was sent costs nothing)."""

    def __init__(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (_ROOT, env.get("PYTHONPATH", "")) if p)
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from display.table.thinking import serve; serve()"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, close_fds=True)
        self.pid = self.proc.pid
        self._lock = threading.Lock()
        self._queue: deque[Thought] = deque()
        self._in_flight: Thought | None = None
        self._deadline = 0.0  # when the thought in flight is late (time.monotonic)
        self.closing = False
        self.broken = False
        threading.Thread(target=self._read, name="thinking-replies", daemon=True).start()

    def submit(self, thought: Thought) -> None:
        with self._lock:
            if self.broken or self.closing:
                raise BrokenPipeError("the thinking worker has ended")
            self._queue.append(thought)
            self._pump_locked()

    def drop(self, thought: Thought) -> None:
        """``thought`` is stale: not sent yet, it never will be."""
        with self._lock:
            if thought in self._queue:
                self._queue.remove(thought)

    def _pump_locked(self) -> None:
        if self._in_flight is not None or not self._queue or self.broken:
            return
        thought = self._queue.popleft()
        assert self.proc.stdin is not None
        try:
            _send(self.proc.stdin, thought.blob)
        except OSError:
            self._queue.appendleft(thought)
            threading.Thread(target=self._fail, args=("its stdin is closed",), daemon=True).start()
            return
        self._in_flight = thought
        self._deadline = time.monotonic() + LATE_S  # the reply thread watches it

    def _read(self) -> None:
        """The reply thread: waits on the worker's pipe (no GIL held) for the replies, and
        for the in-flight thought's deadline, waking at least every :data:`POLL_S`."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        buf = bytearray()
        while True:
            with self._lock:
                deadline, late = self._deadline, self._in_flight
            now = time.monotonic()
            if late is not None and now >= deadline:
                self._fail(f"no answer in {LATE_S:g} s", late)
                return
            wait = POLL_S if late is None else min(POLL_S, deadline - now)
            try:
                ready, _, _ = select.select([fd], [], [], wait)
                chunk = os.read(fd, 1 << 16) if ready else None
            except OSError:
                chunk = b""
            if chunk is None:
                if self.closing or self.broken:
                    return
                continue
            if not chunk:  # the end of the stream: the worker has ended (or closed it)
                if not self.closing:
                    try:
                        code: int | None = self.proc.wait(timeout=1.0)
                    except subprocess.TimeoutExpired:  # it closed its end but lives on
                        code = None
                    self._fail("it ended" + ("" if code is None else f" (exit code {code})"))
                return
            buf += chunk
            while len(buf) >= _HEADER.size:
                (n,) = _HEADER.unpack_from(buf)
                if len(buf) < _HEADER.size + n:
                    break
                blob = bytes(buf[_HEADER.size:_HEADER.size + n])
                del buf[:_HEADER.size + n]
                self._reply(blob)

    def _reply(self, blob: bytes) -> None:
        try:
            reply = pickle.loads(blob)
        except Exception as exc:  # noqa: BLE001 - a class the app cannot load back
            reply = (-1, "unloadable", f"reply: {type(exc).__name__}: {exc}")
        with self._lock:
            thought, self._in_flight = self._in_flight, None
            self._pump_locked()
        if thought is not None:
            thought._answer(reply)

    def _fail(self, why: str, late: Thought | None = None) -> None:
        """The worker is dead or hung (``late``: the thought it has not answered in time):
        kill it, think what it held in threads."""
        with self._lock:
            if self.broken or self.closing or (late is not None and self._in_flight is not late):
                return
            self.broken = True
            held = ([self._in_flight] if self._in_flight is not None else []) + list(self._queue)
            self._in_flight = None
            self._queue.clear()
        _log(f"the worker (pid {self.pid}) failed: {why}; "
             f"{len(held)} thought(s) go on in threads")
        _forget(self)
        self._end(kill=True)
        for thought in held:
            thought._in_thread()

    def close(self) -> list[Thought]:
        """End the worker (at once if it is thinking); returns the thoughts it held."""
        with self._lock:
            self.closing = True
            busy = self._in_flight is not None
            held = ([self._in_flight] if self._in_flight is not None else []) + list(self._queue)
            self._in_flight = None
            self._queue.clear()
        self._end(kill=busy)
        return held

    def _end(self, *, kill: bool) -> None:
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()  # an idle worker ends on its own
        except OSError:
            pass
        try:
            if kill:
                self.proc.kill()
            self.proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        except OSError:
            pass


_lock = threading.Lock()
_worker: Worker | None = None
_broken = 0
_atexit = False
_unpicklable: set[str] = set()  # the kinds of player already said to think in threads


def worker() -> Worker | None:
    """The worker, started on first use (None: the table thinks in threads)."""
    global _worker, _broken, _atexit
    with _lock:
        if _worker is None and _broken < GIVE_UP_AFTER:
            try:
                _worker = Worker()
            except OSError as exc:
                _broken += 1
                _log(f"cannot start the worker ({exc}); thoughts go on in threads")
                return None
            if not _atexit:
                atexit.register(_at_exit)
                _atexit = True
        return _worker


def _forget(w: Worker) -> None:
    global _worker, _broken
    with _lock:
        if _worker is w:
            _worker = None
            _broken += 1
            if _broken >= GIVE_UP_AFTER:
                _log(f"{_broken} workers failed: computer players think in threads from now on")


def warm_up() -> None:
    """Start the worker now (a fresh interpreter takes a few tenths of a second), so the
    first thought does not wait for it."""
    worker()


def shutdown(*, rethink: bool = True) -> None:
    """End the worker (the app closes); a later thought starts a new one. A thought it
    held goes on in a thread (``rethink``), so no table is left waiting for a move."""
    global _worker
    with _lock:
        w, _worker = _worker, None
    if w is not None:
        held = w.close()
        if rethink:
            for thought in held:
                thought._in_thread()


def _at_exit() -> None:
    """The interpreter exits without the app's close: end the worker, silently."""
    try:
        shutdown(rethink=False)
    except BaseException:  # noqa: BLE001 - nothing to say at exit; the worker ends on EOF anyway
        pass


def worker_pid() -> int | None:
    """The running worker's process id (None: none running)."""
    w = _worker
    return None if w is None else w.pid


class Thought:
    """A computer seat's decision worked out during the table's delay.

    It plays a copy of the player (its memory sees the view once); the copy replaces the
    seat's player only when its action is taken, so a thought made stale by a human's call
    (a BUY, a new state) is dropped with no trace. ``done`` is set when the action (or the
    player's error) is ready; ``where`` says where it was worked out ("process", or
    "thread"); ``rng`` is left in the state the player's search left it."""

    def __init__(self, seat: int, state: Any, player: Any) -> None:
        self.seat, self.state, self.player = seat, state, player
        self.done = threading.Event()
        self.where = ""
        self.rng: random.Random | None = None
        self.blob = b""
        self._action: Action | None = None
        self._error: BaseException | None = None
        self._engine: Any = None
        self._args: tuple[Any, list[Action]] | None = None  # (view, legal) for a thread
        self._worker: Worker | None = None
        self._settled = threading.Lock()  # one answer: the worker's or a thread's

    def start(self, game: str, engine: Any, view: Any, legal: list[Action],
              rng: random.Random) -> None:
        self._engine, self.rng = engine, rng
        try:
            self.blob = pickle.dumps((0, game, self.player, view, legal, rng),
                                     pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # noqa: BLE001 - a player that cannot travel (a lock inside)
            kind = type(self.player).__name__
            if kind not in _unpicklable:  # said once per kind of player, not every move
                _unpicklable.add(kind)
                _log(f"{kind} cannot be pickled ({type(exc).__name__}); it thinks in a thread")
            self._args = (view, legal)
            self.blob = b""
        w = worker() if self.blob else None
        if w is not None:
            self._worker = w
            self.where = "process"
            try:
                w.submit(self)
                return
            except OSError:
                _log("the worker is gone; this thought goes on in a thread")
        self._in_thread()

    def drop(self) -> None:
        """The state moved on: a thought not yet sent to the worker is not sent."""
        if self._worker is not None:
            self._worker.drop(self)

    def _answer(self, reply: tuple[Any, ...]) -> None:
        status = reply[1]
        if status == "unloadable":
            _log(f"the worker could not take or give back a thought ({reply[2]}); "
                 "it goes on in a thread")
            self._in_thread()
            return
        if not self._settled.acquire(blocking=False):
            return
        if status == "ok":
            _, _, action, player, rng_state = reply
            assert self.rng is not None
            self.rng.setstate(rng_state)
            self._action, self.player = action, player
        else:  # the player's own error
            self._error = reply[2] if isinstance(reply[2], BaseException) else RuntimeError(reply[3])
        self.done.set()

    def _in_thread(self) -> None:
        """Think in a thread of this process, on the same copy the worker would have had."""
        if self._settled.locked():
            return
        self.where = "thread"

        def run() -> None:
            if not self._settled.acquire(blocking=False):
                return
            try:
                if self.blob:
                    _, _, player, view, legal, rng = pickle.loads(self.blob)
                else:
                    assert self._args is not None
                    (view, legal), rng = self._args, self.rng
                    player = copy.deepcopy(self.player)
                self.player = player
                self._action = player.choose(self._engine, view, legal, rng)
                if rng is not self.rng:
                    assert self.rng is not None
                    self.rng.setstate(rng.getstate())
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
