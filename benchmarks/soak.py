"""Soak: bot matches for N minutes under injected faults; prints what survived. Asserts nothing.

    sudo nice -n 10 .venv/bin/python benchmarks/soak.py --minutes 10

A child process plays seeded bot matches through ``MatchSession`` the way the table does
(a move refused for storage waits and is tried again; a record that fails stays queued in
``current/`` and is recorded later). The parent injects, at random times:

- **kills**: SIGKILL of the child mid-match, then a restart that must resume at exactly the
  durable journal's action count (``actions lost`` counts any shortfall);
- **torn writes**: after some kills, half a line appended to the live journal (the power
  cut during a write), which the resume must drop;
- **disk-full windows**: the state's small tmpfs filled for 0.2-1.5 s, then freed (needs
  root to mount; skipped with a note otherwise);
- **a locked store**: another connection holds the records database's exclusive lock for
  0.3-2.5 s;
- **shoe restarts**: the shoe firmware's own logic on a pty under the real ``ShoeLink``
  reboots with the port open; every new boot must send a card within 4 s (else a crash).

Each stream of matches ends with checks: every archived journal replays to the digest an
uninterrupted run of the same seed gives, nothing is left in ``current/``, and the records
equal the archive. Figures: resumes, faults survived, actions lost (must be 0), crashes
(must be 0: a child that died by itself, or a traceback).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import re
import select
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rummy.players import player as basic_player  # noqa: E402  # the one registry
from rummy.records import JournalError, read_journal, replay  # noqa: E402
from rummy.session import ARCHIVE, CURRENT, MatchSession, StorageError  # noqa: E402
from rummy.session_runner import default_rules, next_action  # noqa: E402
from rummy.store import DB_NAME, Store, StoreError, UnavailableStore, journal_id  # noqa: E402

RESUMED = re.compile(r"^resumed ([0-9a-f]{64}) after (\d+) actions$")
MATCHES_PER_STREAM = 4


# -- the child: plays like the table ----------------------------------------------------------
def open_store(sd: Path) -> Store:
    try:
        return Store(sd / DB_NAME)
    except StoreError as exc:
        return UnavailableStore(sd / DB_NAME, exc)


def child(sd: Path, seed: int, matches: int, delay: float) -> int:
    say = lambda text: print(text, flush=True)  # noqa: E731
    refused = queued = 0
    store = open_store(sd)
    res = MatchSession.resume(sd, store=store)
    session = res.session
    say(f"resumed {session.digest()} after {session.actions_applied} actions" if session
        else "fresh")
    archive = sd / ARCHIVE

    def archived() -> int:
        return len(list(archive.glob("*.jsonl"))) if archive.is_dir() else 0

    started = len(list(sd.glob("*/*.jsonl")))
    while archived() < matches:
        if session is None:
            if started >= matches:  # the rest are queued: record them, do not play more
                if isinstance(store, UnavailableStore):
                    store = open_store(sd)
                MatchSession.archive_queued(sd, store)
                time.sleep(0.05)
                continue
            rules, preset = default_rules("gin", None)
            seats = [{"name": f"Bot {i + 1}", "kind": "computer"} for i in range(2)]
            try:
                session = MatchSession.start(sd, "gin", rules, seats, seed=seed * 1000 + started,
                                             preset=preset)
            except StorageError:
                refused += 1
                time.sleep(0.05)
                continue
            started += 1
        players = [basic_player("gin") for _ in session.header.seats]
        while not session.is_over:
            try:
                session.apply(next_action(session, players))
            except StorageError:
                refused += 1
                time.sleep(0.02)  # the table waits and tries the same move again
            if delay:
                time.sleep(delay)
        while True:
            if isinstance(store, UnavailableStore):
                store = open_store(sd)
            try:
                session.finish(store)
                break
            except StorageError:
                refused += 1
                time.sleep(0.05)
        if session.record_error:
            queued += 1
        session = None
        if isinstance(store, UnavailableStore):
            store = open_store(sd)
        MatchSession.archive_queued(sd, store)
    say(f"done refused={refused} queued={queued}")
    store.close()
    return 0


# -- the parent: injects faults -----------------------------------------------------------------
@dataclass
class Figures:
    matches: int = 0
    streams: int = 0
    kills: int = 0
    resumes: int = 0
    torn: int = 0
    disk_full: int = 0
    locks: int = 0
    shoe_restarts: int = 0
    refused: int = 0
    queued: int = 0
    actions_lost: int = 0
    crashes: int = 0
    mismatches: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def faults(self) -> int:
        return self.kills + self.torn + self.disk_full + self.locks + self.shoe_restarts


class ShoeRig:
    """The shoe firmware's own logic on a pty (``tests/firmware_pty.py``) under the real
    ``device.shoe.link.ShoeLink``: :meth:`restart` reboots the shoe with the port open and
    waits for a card of the new boot (a stuck link is counted)."""

    def __init__(self, seed: int) -> None:
        sys.path.insert(0, str(ROOT / "tests"))
        import queue

        from firmware_pty import FirmwareShoe

        from device.shoe.link import ShoeLink

        self.events: queue.Queue = queue.Queue()
        self.shoe = FirmwareShoe(seed=seed).__enter__()
        self.link = ShoeLink(self.shoe.path, events=self.events, backoff=(0.02, 0.1)).__enter__()
        self.cards = 0

    def card_from(self, boot: str, seconds: float) -> bool:
        import queue

        from device.events import SHOE_CARD

        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                e = self.events.get(timeout=0.02)
            except queue.Empty:
                continue
            if e.kind == SHOE_CARD:
                self.cards += 1
                if e.boot == boot:
                    return True
        return False

    def restart(self) -> bool:
        self.shoe.restart()
        return self.card_from(self.shoe.boot, 4.0)

    def close(self) -> None:
        self.link.__exit__(None, None, None)
        self.shoe.__exit__(None, None, None)


def make_shoe_rig(seed: int) -> ShoeRig | None:
    """The shoe rig where the link's restart handling and its firmware harness exist."""
    try:
        rig = ShoeRig(seed)
    except Exception as exc:  # noqa: BLE001 - the soak runs without a shoe then
        print(f"note: no shoe restarts ({type(exc).__name__}: {exc})")
        return None
    if not rig.card_from(rig.shoe.boot, 5.0):
        print("note: no shoe restarts (no card before any restart)")
        rig.close()
        return None
    return rig


def inject_shoe_restart(rig: ShoeRig | None, figures: Figures) -> None:
    """Reboot the shoe with its port open; a boot that never sends a card is a crash."""
    if rig is None:
        return
    figures.shoe_restarts += 1
    if not rig.restart():
        figures.crashes += 1
        figures.notes.append(f"shoe restart {figures.shoe_restarts}: no card from the new boot")


class Tmpfs:
    """A small tmpfs for the state (disk-full windows), or a plain directory without root."""

    def __init__(self, size: str) -> None:
        self.path = Path(tempfile.mkdtemp(prefix="rummy-soak-"))
        proc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(self.path)],
                              capture_output=True, text=True)
        self.mounted = proc.returncode == 0
        self.reason = proc.stderr.strip()

    def fill(self) -> Path:
        filler = self.path / "filler"
        with open(filler, "wb", buffering=0) as f, contextlib.suppress(OSError):
            while True:
                f.write(b"\0" * 65536)
        for size in (4096, 256, 1):
            with open(filler, "ab", buffering=0) as f, contextlib.suppress(OSError):
                while True:
                    f.write(b"\0" * size)
        return filler

    def close(self) -> None:
        if self.mounted:
            subprocess.run(["umount", "-l", str(self.path)], capture_output=True)
        shutil.rmtree(self.path, ignore_errors=True)


class Lock(threading.Thread):
    """Holds the records database's exclusive lock for ``seconds``."""

    def __init__(self, db: Path, seconds: float) -> None:
        super().__init__(daemon=True)
        self.db, self.seconds, self.held = db, seconds, threading.Event()

    def run(self) -> None:
        try:
            c = sqlite3.connect(self.db, isolation_level=None, timeout=0.5)
            c.execute("BEGIN EXCLUSIVE")
        except sqlite3.Error:
            return
        self.held.set()
        time.sleep(self.seconds)
        c.execute("ROLLBACK")
        c.close()


def durable(sd: Path) -> int | None:
    """Actions in the unfinished journal in current/ (what a resume must give), or None."""
    for path in sorted((sd / CURRENT).glob("*.jsonl"), reverse=True):
        try:
            j = read_journal(path)
        except JournalError:
            continue
        if j.ended is None:
            rep = replay(j)
            if not rep.engine.is_over(rep.state):
                return len(j.actions)
    return None


def expected_digest(seed: int) -> str:
    """The final digest of the match an uninterrupted run of ``seed`` plays."""
    with tempfile.TemporaryDirectory() as tmp:
        rules, preset = default_rules("gin", None)
        seats = [{"name": f"Bot {i + 1}", "kind": "computer"} for i in range(2)]
        s = MatchSession.start(tmp, "gin", rules, seats, seed=seed, preset=preset, fsync=False)
        players = [basic_player("gin") for _ in seats]
        while not s.is_over:
            s.apply(next_action(s, players))
        s.close()
        return s.digest()


class Child:
    def __init__(self, sd: Path, seed: int, delay: float) -> None:
        cmd = [sys.executable, str(Path(__file__).resolve()), "--child", "--state-dir", str(sd),
               "--seed", str(seed), "--matches", str(MATCHES_PER_STREAM), "--delay", str(delay)]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
        self.buf = b""
        self.lines: list[str] = []

    def read(self, timeout: float) -> None:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        ready, _, _ = select.select([fd], [], [], timeout)
        if ready:
            chunk = os.read(fd, 4096)
            self.buf += chunk
            while b"\n" in self.buf:
                line, self.buf = self.buf.split(b"\n", 1)
                self.lines.append(line.decode(errors="replace").strip())

    def first_line(self, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        while not self.lines and time.monotonic() < deadline and self.proc.poll() is None:
            self.read(0.1)
        if not self.lines:
            self.read(0.5)
        return self.lines[0] if self.lines else ""

    def stderr(self) -> str:
        assert self.proc.stderr is not None
        return self.proc.stderr.read().decode(errors="replace")


def stream(root: Tmpfs, k: int, end: float, rng: random.Random, fig: Figures, delay: float,
           rig: ShoeRig | None = None) -> None:
    sd = root.path / f"stream-{k}"
    seed = 1000 + k
    filler: Path | None = None
    lock: Lock | None = None
    full_until = lock_until = 0.0
    child = Child(sd, seed, delay)
    next_kill = time.monotonic() + rng.uniform(0.3, 2.0)
    next_full = time.monotonic() + rng.uniform(0.5, 4.0)
    next_lock = time.monotonic() + rng.uniform(0.5, 5.0)
    next_shoe = time.monotonic() + rng.uniform(1.0, 6.0)
    try:
        while True:
            now = time.monotonic()
            child.read(0.05)
            if child.proc.poll() is not None:
                child.read(0.2)
                err = child.stderr()
                if child.proc.returncode != 0 or "Traceback" in err:
                    fig.crashes += 1
                    fig.notes.append(f"stream {k}: child exit {child.proc.returncode}: {err[-800:]}")
                    return
                done = [ln for ln in child.lines if ln.startswith("done")]
                if done:
                    m = re.search(r"refused=(\d+) queued=(\d+)", done[-1])
                    if m:
                        fig.refused += int(m[1])
                        fig.queued += int(m[2])
                break
            if filler is None and now >= next_full and now < end and root.mounted:
                filler, full_until = root.fill(), now + rng.uniform(0.2, 1.5)
                fig.disk_full += 1
            if filler is not None and now >= full_until:
                filler.unlink()
                filler, next_full = None, now + rng.uniform(1.0, 5.0)
            if now >= next_lock and now >= lock_until and (sd / DB_NAME).exists():
                seconds = rng.uniform(0.3, 2.5)
                lock = Lock(sd / DB_NAME, seconds)
                lock.start()
                fig.locks += 1
                lock_until, next_lock = now + seconds, now + seconds + rng.uniform(1.0, 6.0)
            if now >= next_shoe:
                inject_shoe_restart(rig, fig)
                next_shoe = time.monotonic() + rng.uniform(1.0, 4.0)
            if now >= next_kill:
                child.proc.send_signal(signal.SIGKILL)
                child.proc.wait()
                fig.kills += 1
                want = durable(sd)
                if want is not None and filler is None and rng.random() < 0.35:
                    (live,) = [p for p in (sd / CURRENT).glob("*.jsonl") if read_journal(p).ended is None][:1]
                    try:  # the power cut in the middle of a write: half a line
                        with open(live, "ab") as f:
                            f.write(b'{"type":"action","n":' + str(want + 1).encode() + b',"kind":"dra')
                        fig.torn += 1
                    except OSError:
                        pass
                child = Child(sd, seed, delay)
                first = child.first_line()
                m = RESUMED.match(first)
                if want is not None:
                    if m is None:
                        fig.mismatches += 1
                        fig.notes.append(f"stream {k}: expected a resume at {want}, got {first!r}")
                    else:
                        fig.resumes += 1
                        fig.actions_lost += max(0, want - int(m[2]))
                        if int(m[2]) != want:
                            fig.mismatches += 1
                next_kill = time.monotonic() + rng.uniform(0.3, 2.5)
        # the stream's checks (after the last lock window)
        if filler is not None:
            filler.unlink()
            filler = None
        if lock is not None:
            lock.join()
        left = list((sd / CURRENT).glob("*.jsonl")) if (sd / CURRENT).is_dir() else []
        archived = sorted((sd / ARCHIVE).glob("*.jsonl"))
        if left:
            fig.mismatches += 1
            fig.notes.append(f"stream {k}: {len(left)} journal(s) left in current/")
        with Store(sd / DB_NAME) as store:
            recorded = {m["id"] for m in store.matches(10_000)}
            ids = {journal_id(p) for p in archived}
            with sqlite3.connect(sd / DB_NAME) as c:
                stored_ids = {r[0] for r in c.execute("SELECT journal_id FROM matches")}
        if stored_ids != ids or len(recorded) != len(archived):
            fig.mismatches += 1
            fig.notes.append(f"stream {k}: {len(archived)} archived, {len(recorded)} recorded")
        for path in archived:
            rep = replay(path)
            from rummy.session import state_digest

            if state_digest(rep.state) != expected_digest(int(rep.journal.header.seed or 0)):
                fig.mismatches += 1
                fig.notes.append(f"stream {k}: {path.name} differs from an uninterrupted run")
        fig.matches += len(archived)
        fig.streams += 1
    finally:
        if child.proc.poll() is None:
            child.proc.kill()
            child.proc.wait()
        if filler is not None and filler.exists():
            filler.unlink()
        shutil.rmtree(sd, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--minutes", type=float, default=1.0)
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--delay", type=float, default=0.002, help="seconds between a child's moves")
    p.add_argument("--tmpfs-size", default="24m")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--state-dir", help=argparse.SUPPRESS)
    p.add_argument("--matches", type=int, default=MATCHES_PER_STREAM, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        return child(Path(args.state_dir), args.seed, args.matches, args.delay)
    rng = random.Random(args.seed)
    fig = Figures()
    root = Tmpfs(args.tmpfs_size)
    if not root.mounted:
        print(f"note: no tmpfs ({root.reason or 'mount not permitted'}): no disk-full windows")
    rig = make_shoe_rig(args.seed)
    t0 = time.monotonic()
    end = t0 + args.minutes * 60
    try:
        k = 0
        while time.monotonic() < end:
            stream(root, k, end, rng, fig, args.delay, rig)
            k += 1
    finally:
        root.close()
        if rig is not None:
            rig.close()
    shoe = f" ({rig.cards} shoe cards read)" if rig is not None else " (no shoe rig)"
    print(f"soak {time.monotonic() - t0:.0f} s: {fig.streams} streams, {fig.matches} matches")
    print(f"  injected: kills {fig.kills}, torn writes {fig.torn}, disk-full windows {fig.disk_full}, "
          f"locked store {fig.locks}, shoe restarts {fig.shoe_restarts}{shoe}")
    print(f"  resumes {fig.resumes}, faults survived {fig.faults if not fig.crashes else 'n/a'}, "
          f"moves refused for storage and retried {fig.refused}, records queued {fig.queued}")
    print(f"  actions lost {fig.actions_lost}, crashes {fig.crashes}, mismatches {fig.mismatches}")
    for note in fig.notes[:20]:
        print(f"  ! {note}")
    return 0 if not (fig.actions_lost or fig.crashes or fig.mismatches) else 1


if __name__ == "__main__":
    sys.exit(main())
