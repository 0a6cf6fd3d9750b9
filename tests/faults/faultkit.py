"""Tools for the fault-injection suite: small tmpfs mounts, full disks, read-only remounts,
journals in every state, and the real kiosk started as systemd starts it.

Mounting needs root (``.ci/run`` runs as root); where it is not permitted the tests that
need it skip and say so.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from rummy.players import player as basic_player  # the registry (rummy.players)
from rummy.records import read_journal
from rummy.session import CURRENT, MatchSession
from rummy.session_runner import default_rules, next_action, run_matches

ROOT = Path(__file__).resolve().parents[2]
KIOSK = Path(sys.executable).with_name("rummy-table")  # the unit's ExecStart: rummy-table kiosk


# -- file systems ---------------------------------------------------------------------------
def _mount(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["mount", *args], capture_output=True, text=True, timeout=30)


@contextlib.contextmanager
def tmpfs(path: Path, size: str = "2m") -> Iterator[Path]:
    """A tmpfs of ``size`` at ``path`` (skips the test where mounting is not permitted)."""
    path.mkdir(parents=True, exist_ok=True)
    try:
        proc = _mount("-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(path))
    except (OSError, subprocess.SubprocessError) as exc:
        pytest.skip(f"cannot run mount here ({exc}): the disk-full and read-only cases need root")
    if proc.returncode != 0:
        pytest.skip(f"mounting a tmpfs is not permitted here ({proc.stderr.strip()}); the "
                    "disk-full and read-only cases need root (.ci/run runs as root)")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True, timeout=30)


def remount(path: Path, *, read_only: bool) -> None:
    proc = _mount("-o", f"remount,{'ro' if read_only else 'rw'}", str(path))
    assert proc.returncode == 0, proc.stderr


def fill(path: Path) -> Path:
    """Write a filler file in ``path`` until the file system is full; returns it."""
    filler = path / f"filler-{uuid.uuid4().hex[:6]}"
    chunk = b"\0" * 4096
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(chunk)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC, exc
    for small in (1024, 256, 16, 1):  # the last few bytes too
        with contextlib.suppress(OSError), open(filler, "ab", buffering=0) as f:
            while True:
                f.write(b"\0" * small)
    return filler


@contextlib.contextmanager
def file_size_limit(limit: int) -> Iterator[None]:
    """No file may grow past ``limit`` bytes (RLIMIT_FSIZE; Python ignores SIGXFSZ, so the
    write fails with EFBIG): a disk-full window at exactly the next write, where a tmpfs
    would still take a line into the slack of the file's last page."""
    import resource

    old = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, old[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, old)


def until_refused(step, limit: int = 2000) -> int:
    """Call ``step()`` until it raises StorageError (a full tmpfs still takes lines into the
    slack of the journal's last page); returns how many steps went through."""
    from rummy.session import StorageError

    for k in range(limit):
        try:
            step()
        except StorageError:
            return k
    raise AssertionError(f"no refusal in {limit} steps: the disk is not full")


# -- journals -------------------------------------------------------------------------------
def unfinished(state_dir: Path, actions: int = 40, *, seed: int = 7, game: str = "gin") -> Path:
    """An unfinished match with ``actions`` actions in ``<state_dir>/current/``."""
    run_matches(state_dir, seed=seed, game=game, matches=1, stop_at=(1, actions), records=False,
                fsync=False, out=io.StringIO())
    (path,) = (state_dir / CURRENT).glob("*.jsonl")
    return path


def finished_in_current(state_dir: Path, *, seed: int = 3, game: str = "gin") -> Path:
    """A finished match whose end line is written but which is still in ``current/`` (a
    finish whose recording failed leaves it so)."""
    rules, preset = default_rules(game, None)
    # people's seats (played here by the basic bot): a match of computers only is not recorded
    seats = [{"name": n, "kind": "human"} for n in ("Ann", "Bob", "Cy")[: 2 if game == "gin" else 3]]
    s = MatchSession.start(state_dir, game, rules, seats, seed=seed, preset=preset, fsync=False)
    players = [basic_player(game) for _ in seats]
    while not s.is_over:
        s.apply(next_action(s, players))
    assert s._writer is not None
    s._writer.end("finished")
    s.close()
    assert read_journal(s.journal_path).ended == "finished"
    return s.journal_path


def records_db(state_dir: Path) -> Path:
    """A real records database with one match recorded."""
    from rummy.store import DB_NAME, Store

    sd = state_dir / "seed-records"
    run_matches(sd, seed=11, game="gin", matches=1, records=True, record_bots=True, fsync=False,
                out=io.StringIO())
    db = state_dir / DB_NAME
    state_dir.mkdir(parents=True, exist_ok=True)
    (sd / DB_NAME).rename(db)
    with Store(db) as store:
        assert len(store.matches()) == 1
    return db


def damage_db(db: Path) -> None:
    """Overwrite the database's pages after the first with garbage (the header stays)."""
    data = bytearray(db.read_bytes())
    page = int.from_bytes(data[16:18], "big") or 65536
    for i in range(page, len(data)):
        data[i] = (i * 131 + 7) % 256
    db.write_bytes(bytes(data))


# -- the kiosk ------------------------------------------------------------------------------
@dataclass
class KioskRun:
    returncode: int | None
    alive: bool  # still running when the test stopped it
    stdout: str
    stderr: str
    notes: list[str] = field(default_factory=list)  # sd_notify datagrams received
    ran: float = 0.0  # seconds from READY=1 to SIGTERM (or to its end)

    @property
    def watchdog_pings(self) -> int:
        return sum(1 for n in self.notes if n == "WATCHDOG=1")

    @property
    def status(self) -> str:
        return "\n".join(n for n in self.notes if "STATUS=" in n)

    @property
    def ready(self) -> bool:
        return any(n.startswith("READY=1") for n in self.notes)


PINGS = 2  # watchdog pings (at most one a second, display.table.hw) a run waits for
SETTLE_S = 0.3  # and then this long with nothing new said, before SIGTERM


def run_kiosk(state_dir: Path, tmp: Path, *, seconds: float = 3.0, env: dict[str, str] | None = None,
              config: str | None = "", args: tuple[str, ...] = ()) -> KioskRun:
    """Start the real kiosk (``rummy-table kiosk``, dummy video, mock pins, a notify socket),
    let it run, stop it with SIGTERM as systemd does, and return what it said.

    It runs from its first frame (READY=1, bounded at 30 s for a busy machine) until it has
    pinged the watchdog ``PINGS`` times and then said nothing new (stdout, stderr, notify)
    for ``SETTLE_S``, or ``seconds`` have passed, or it ended by itself: a kiosk that stops,
    never pings or keeps logging is seen as before (``alive``, ``watchdog_pings``), and a
    healthy one is stopped after about a second of watchdog pings, not a fixed 3 s."""
    sock_path = tmp / f"notify-{uuid.uuid4().hex[:6]}.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    sock.settimeout(0.2)
    notes: list[str] = []
    said: dict[str, list[str]] = {"out": [], "err": []}
    last = [time.monotonic()]  # when anything was last said
    stop = threading.Event()

    def listen() -> None:
        while not stop.is_set():
            try:
                notes.append(sock.recv(65536).decode(errors="replace"))
                last[0] = time.monotonic()
            except TimeoutError:
                continue
            except OSError:
                return

    def read(stream: io.TextIOBase, into: list[str]) -> None:
        for line in iter(stream.readline, ""):
            into.append(line)
            last[0] = time.monotonic()

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    cfg = tmp / f"config-{uuid.uuid4().hex[:6]}.toml"
    if config is not None:
        cfg.write_text(config or "[display]\nwidth = 800\nheight = 480\n")
    full_env = {k: v for k, v in os.environ.items() if not k.startswith(("NOTIFY_", "WATCHDOG_"))}
    full_env.update({"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
                     "GPIOZERO_PIN_FACTORY": "mock", "PYTHONUNBUFFERED": "1",
                     "RUMMY_TABLE_STATE_DIR": str(state_dir), "RUMMY_TABLE_CONFIG": str(cfg),
                     "NOTIFY_SOCKET": str(sock_path), "PYGAME_HIDE_SUPPORT_PROMPT": "1"})
    full_env.update(env or {})
    proc = subprocess.Popen([str(KIOSK), "kiosk", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=full_env, cwd=str(tmp))
    assert proc.stdout is not None and proc.stderr is not None
    readers = [threading.Thread(target=read, args=(proc.stdout, said["out"]), daemon=True),
               threading.Thread(target=read, args=(proc.stderr, said["err"]), daemon=True)]
    for r in readers:
        r.start()
    ran = 0.0
    try:
        extra = time.monotonic() + 30
        while not any(n.startswith("READY=1") for n in notes) and proc.poll() is None \
                and time.monotonic() < extra:
            time.sleep(0.01)
        t0 = time.monotonic()

        def done() -> bool:
            if proc.poll() is not None:
                return True
            now = time.monotonic()
            if now - t0 >= seconds:
                return True
            return (sum(1 for n in notes if n == "WATCHDOG=1") >= PINGS
                    and now - last[0] >= SETTLE_S)

        while not done():
            time.sleep(0.01)
        ran = time.monotonic() - t0
        alive = proc.poll() is None
        if alive:
            proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        for r in readers:
            r.join(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        stop.set()
        listener.join(timeout=2)
        sock.setblocking(False)
        with contextlib.suppress(OSError):  # what it said last, still in the socket
            while True:
                notes.append(sock.recv(65536).decode(errors="replace"))
        sock.close()
    return KioskRun(proc.returncode, alive, "".join(said["out"]), "".join(said["err"]), notes, ran)


def assert_kiosk_survived(run: KioskRun, *messages: str) -> None:
    """No traceback, still running until stopped, exit 0, the watchdog pinged, and stderr reads
    like journalctl lines (every line ``rummy-table: …``) carrying each message."""
    assert "Traceback" not in run.stderr, run.stderr
    assert run.alive, f"the kiosk stopped by itself (code {run.returncode}):\n{run.stderr}"
    assert run.returncode == 0, run.stderr
    assert run.ready, f"no READY=1 (no first frame): {run.notes[:5]}\n{run.stderr}"
    assert run.watchdog_pings >= 2, f"{run.watchdog_pings} watchdog pings: {run.notes}"
    lines = [ln for ln in run.stderr.splitlines() if ln.strip()]
    assert lines or not messages, "nothing logged"
    for ln in lines:
        assert ln.startswith("rummy-table: "), f"not a log line: {ln!r}\n{run.stderr}"
    for message in messages:
        assert message in run.stderr, f"{message!r} not logged:\n{run.stderr}"
