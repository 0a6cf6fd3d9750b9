"""Kill-and-resume: SIGKILL headless bot games at random points, restart, compare states.

Each stream plays seeded bot matches in a subprocess journalling into its own state
directory. After every SIGKILL the expected state is computed independently from the
durable journal lines on disk (``rummy.records.replay``); the restarted process must print
``resumed <digest> after <n> actions`` with exactly that digest and count (or start a new
match when no unfinished match is left). With the bot runner the finished matches must also
equal those of an uninterrupted run with the same seed: nothing lost, nothing changed.

The command is a parameter (:data:`COMMANDS`): ``runner`` is ``python -m rummy.session_runner run``,
``app`` is ``rummy-table sim --headless``, the table app itself. Streams run in parallel.
"""

from __future__ import annotations

import importlib.util
import io
import os
import random
import re
import select
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from rummy.records import replay
from rummy.session import ARCHIVE, CURRENT, DAMAGED, MatchSession, state_digest
from rummy.session_runner import run_matches
from rummy.store import Store

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
       "PYTHONUNBUFFERED": "1", "PYTHONDONTWRITEBYTECODE": "1"}
RESUMED = re.compile(r"^resumed ([0-9a-f]{64}) after (\d+) actions$")


def runner_cmd(state_dir: Path, seed: int, game: str, matches: int) -> list[str]:
    return [sys.executable, "-m", "rummy.session_runner", "run", "--state-dir", str(state_dir),
            "--seed", str(seed), "--game", game, "--matches", str(matches), "--delay", "0.002",
            "--record-bots"]


def app_cmd(state_dir: Path, seed: int, game: str, matches: int) -> list[str]:
    return [sys.executable, "-m", "display.cli", "sim", "--headless", "--state-dir",
            str(state_dir), "--seed", str(seed), "--game", game, "--matches", str(matches),
            "--record-bots"]


COMMANDS: dict[str, Callable[[Path, int, str, int], list[str]]] = {
    "runner": runner_cmd,
    "app": app_cmd,
}


@dataclass
class Stream:
    """One state directory, one seed, a series of kills."""

    command: str
    state_dir: Path
    seed: int
    game: str
    kills: int
    matches: int = 50  # more than the kills leave time for: every kill hits a game
    max_actions: int = 60  # a kill lands after 0..max_actions more journalled actions
    startup: float = 30.0  # wait at most this long for a fresh start before the random delay
    log: list[str] = field(default_factory=list)
    verified: int = 0  # kills followed by a checked restart
    resumed: int = 0  # of which resumed an unfinished match

    def cmd(self) -> list[str]:
        return COMMANDS[self.command](self.state_dir, self.seed, self.game, self.matches)


def expected_on_disk(state_dir: Path) -> tuple[str, int] | str | None:
    """What a restart must find: (digest, actions) of the unfinished match, "over", or None."""
    journals = sorted((state_dir / CURRENT).glob("*.jsonl"))
    assert len(journals) <= 1, f"several unfinished journals: {journals}"
    if not journals:
        return None
    rep = replay(journals[0])  # a torn last line is dropped, as on resume
    if rep.journal.ended is not None or rep.engine.is_over(rep.state):
        return "over"
    return state_digest(rep.state), len(rep.journal.actions)


def progress(state_dir: Path) -> int:
    """Actions journalled so far, as a count that only grows: the lines of the unfinished
    journal, plus a large step for every archived match (a finished match is progress)."""
    lines = 0
    for path in (state_dir / CURRENT).glob("*.jsonl"):
        try:
            lines += path.read_bytes().count(b"\n")
        except FileNotFoundError:  # archived between the listing and the read
            pass
    archive = state_dir / ARCHIVE
    archived = sum(1 for _ in archive.glob("*.jsonl")) if archive.is_dir() else 0
    return archived * 1_000_000 + lines


def wait_for_actions(proc: subprocess.Popen, state_dir: Path, more: int, timeout: float) -> None:
    """Let the process journal ``more`` actions (or end, or the timeout pass) before the kill.

    Counting actions rather than seconds lands the kills at the same points of the game on
    a quiet machine and on a loaded one; a last sub-frame sleep still cuts some writes.
    """
    target = progress(state_dir) + more
    deadline = time.monotonic() + timeout
    while progress(state_dir) < target and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.003)


def read_lines(proc: subprocess.Popen, stop: Callable[[str], bool],
               timeout: float) -> tuple[str, list[str]]:
    """Read stdout lines until one satisfies ``stop`` (returned), the timeout, or the end."""
    assert proc.stdout is not None
    fd, buf, seen = proc.stdout.fileno(), b"", []
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        ready, _, _ = select.select([fd], [], [], min(left, 0.2))
        if not ready:
            if proc.poll() is not None:
                break
            continue
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            text = line.decode(errors="replace").strip()
            seen.append(text)
            if stop(text):
                return text, seen
    return "", seen


def is_resume(text: str) -> bool:
    return bool(RESUMED.match(text))


def run_stream(stream: Stream) -> Stream:
    rng = random.Random(f"kill:{stream.seed}:{stream.game}")
    expected = expected_on_disk(stream.state_dir)
    where = f"{stream.command} {stream.game} seed {stream.seed}"
    for _ in range(stream.kills):
        proc = subprocess.Popen(stream.cmd(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=ENV, cwd=ROOT)
        more = rng.randint(0, stream.max_actions)
        tail = rng.uniform(0.0, 0.01)
        try:
            if isinstance(expected, tuple):  # an unfinished match on disk: it must resume
                status, seen = read_lines(proc, is_resume, 60.0)
                m = RESUMED.match(status)
                if not m:
                    proc.kill()
                    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
                    listing = sorted(str(p.relative_to(stream.state_dir))
                                     for p in stream.state_dir.rglob("*"))
                    pytest.fail(f"{where}: expected a resume of {expected}, got {seen}; "
                                f"exit {proc.wait()}; files {listing}; stderr {err[-1500:]}")
                assert (m[1], int(m[2])) == expected, \
                    f"{where}: resumed state differs from the durable journal"
                stream.resumed += 1
            else:  # nothing to resume: it must start afresh, never claim a resume
                # the runner says "started"; the app says nothing: its first action shows it
                _, seen = read_lines(proc, lambda t: t.startswith("started"),
                                     stream.startup if stream.command == "runner" else 0.0)
            wait_for_actions(proc, stream.state_dir, more, stream.startup)
            _, later = read_lines(proc, lambda _: False, tail)
            seen += later
            assert not any(is_resume(x) for x in seen[1 if isinstance(expected, tuple) else 0:]), \
                f"{where}: unexpected resume {seen}"
            stream.verified += 1
            if proc.poll() is not None:
                err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
                assert proc.returncode == 0, f"{where}: exit {proc.returncode}: {err[-2000:]}"
                break  # all matches played
        finally:
            proc.kill()
            proc.wait()
            for pipe in (proc.stdout, proc.stderr):
                if pipe is not None:
                    pipe.close()
        expected = expected_on_disk(stream.state_dir)
    assert not (stream.state_dir / DAMAGED).exists(), "a SIGKILL must never damage a journal"
    return stream


def check_against_uninterrupted_run(stream: Stream, ref_dir: Path) -> int:
    """The killed stream holds exactly the matches of an uninterrupted run, plus the same
    unfinished match at the same action; the records database has every archived match."""
    with Store.in_state_dir(stream.state_dir, record_bots=True) as store:
        res = MatchSession.resume(stream.state_dir, store=store)  # archive a finished one
        current = res.session
        archived = archived_digests(stream.state_dir)
        assert len(store.matches()) == len(archived)
    partial = (len(archived) + 1, current.actions_applied) if current else None
    if current:
        current.close()
    run_matches(ref_dir, seed=stream.seed, game=stream.game, matches=len(archived) + 1,
                stop_at=partial, records=False, fsync=False, out=io.StringIO())
    ref = MatchSession.resume(ref_dir).session
    assert archived_digests(ref_dir)[: len(archived)] == archived
    if current:
        assert ref is not None and ref.digest() == current.digest()
        ref.close()
    return len(archived)


def archived_digests(state_dir: Path) -> list[str]:
    return [state_digest(replay(p).state) for p in sorted((state_dir / ARCHIVE).glob("*.jsonl"))]


def app_available() -> bool:
    try:
        import display.main  # noqa: F401
    except Exception:  # noqa: BLE001 - any import problem means: not available
        return False
    return True


PLAN = [  # (command, game, kills): 200 kills with the runner
    ("runner", "gin", 50), ("runner", "contract", 50),
    ("runner", "gin", 50), ("runner", "contract", 50),
]


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_kill_and_resume_runner_200_kills(tmp_path):
    streams = [Stream(cmd, tmp_path / f"s{i}", 100 + i, game, kills)
               for i, (cmd, game, kills) in enumerate(PLAN)]
    t0 = time.monotonic()
    with ThreadPoolExecutor(len(streams)) as pool:
        done = list(pool.map(run_stream, streams))
    kills = sum(s.verified for s in done)
    t_kills = time.monotonic() - t0
    assert kills >= 200, f"only {kills} kills verified"
    assert sum(s.resumed for s in done) >= 100  # most kills landed inside a match
    finished = sum(check_against_uninterrupted_run(s, tmp_path / f"ref{i}")
                   for i, s in enumerate(done))
    assert finished >= 2  # kills also landed around the end of matches
    print(f"{kills} kills verified in {t_kills:.1f}s, {finished} matches finished, "
          f"{time.monotonic() - t0:.1f}s with the comparison")


@pytest.mark.slow
@pytest.mark.timeout(240)
@pytest.mark.skipif(not app_available(), reason="the table app (display.main) is not importable")
def test_kill_and_resume_table_app(tmp_path):
    """A share of kills against the real app: ``rummy-table sim --headless``."""
    games = [g for g in ("gin", "contract")
             if importlib.util.find_spec(f"display.scenes.{g}_table") is not None]
    games = (games * 2)[:2]
    # More matches than eight kills leave time for, so every kill hits a game even when the
    # machine is quiet and the app plays fast (with 2 matches a stream could end early).
    streams = [Stream("app", tmp_path / f"a{i}", 300 + i, game, 8, matches=6, max_actions=120,
                      startup=60.0)
               for i, game in enumerate(games)]
    with ThreadPoolExecutor(len(streams)) as pool:
        done = list(pool.map(run_stream, streams))
    assert sum(s.verified for s in done) >= 14
    assert sum(s.resumed for s in done) >= 6


@pytest.mark.skipif(not app_available(), reason="the table app (display.main) is not importable")
def test_app_resumes_to_the_table_with_hands_private(tmp_path, monkeypatch):
    """After a cut the app goes straight back to the table; no human hand is face up."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    from display.app import App
    from display.table.config import load_config
    from rummy.players import player
    from rummy.session_runner import default_rules, next_action

    rules, preset = default_rules("gin", None)
    seats = [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}]
    s = MatchSession.start(tmp_path, "gin", rules, seats, seed=8, preset=preset)
    bots = [player("gin"), player("gin")]
    for _ in range(9):  # a deal and a few turns, then the power goes
        s.apply(next_action(s, bots))
    digest = s.digest()
    s.close()
    config, errors = load_config(None, env={"HOME": str(tmp_path)})
    assert errors == [] and config.display.privacy == "peek"
    out = io.StringIO()
    app = App(config, mode="sim", state_dir=tmp_path, out=out)
    try:
        app.start()
        assert f"resumed {digest} after 9 actions" in out.getvalue()
        assert app.match is not None and app.scene.name == "gin_table"
        assert app.match.session.digest() == digest
        assert not any(app.scene.face_up(seat) for seat in range(2))
    finally:
        if app.match is not None:
            app.match.session.close()
        import pygame

        pygame.quit()
