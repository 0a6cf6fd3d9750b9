"""A power cut in the middle of a real-card hand: SIGKILL the real app process
(``rummy-table sim --headless --real-cards``), start it again on the same state folder:
it resumes with the state of the durable journal (every card where it was: the hands, the
pile, the stock the table has not seen), the simulated people hold their cards as before,
and the match plays to its end with 0 lost and 0 wrong. A cut in the middle of a deal keeps
the cards dealt so far (beside the journal)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rummy.records import replay
from rummy.session import CURRENT, state_digest

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONUNBUFFERED": "1"}
RESUMED = re.compile(r"^resumed ([0-9a-f]{64}) after (\d+) actions$", re.M)
SUMMARY = re.compile(r"^real cards: (\d+) cards read, (\d+) faults recovered, (\d+) lost, (\d+) wrong$")

pytestmark = pytest.mark.timeout(900)


def cmd(state_dir: Path, seed: int) -> list[str]:
    return [sys.executable, "-m", "display.cli", "sim", "--headless", "--real-cards", "--state-dir",
            str(state_dir), "--seed", str(seed), "--faults", "0.03", "--reader-speed", "3"]


def journal_actions(state_dir: Path) -> tuple[Path | None, int]:
    journals = sorted((state_dir / CURRENT).glob("*.jsonl"))
    if not journals:
        return None, 0
    return journals[-1], max(0, len(journals[-1].read_bytes().splitlines()) - 1)


def kill_when(state_dir: Path, seed: int, ready) -> None:
    proc = subprocess.Popen(cmd(state_dir, seed), cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        t0 = time.monotonic()
        while not ready() and time.monotonic() - t0 < 300:
            assert proc.poll() is None, "the match ended before the cut"
            time.sleep(0.05)
        assert ready()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)


def test_a_power_cut_mid_hand_and_mid_deal_resumes_with_every_card_where_it_was(tmp_path):
    state = tmp_path / "state"

    def mid_hand() -> bool:  # a hand under way: dealt, and a few moves made
        path, n = journal_actions(state)
        return path is not None and n >= 12 and b"deal_read" in path.read_bytes()

    kill_when(state, 5, mid_hand)
    path, n = journal_actions(state)
    rep = replay(path)
    want = state_digest(rep.state)
    assert rep.state.hand is not None and rep.state.hand.read  # a real-card hand in play

    def mid_deal() -> bool:  # the next deal under way: cards read, the deal not yet complete
        pending = path.with_name(path.name + ".reads")
        return pending.exists() and pending.stat().st_size > 30

    proc = subprocess.Popen(cmd(state, 5), cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    first = ""
    try:
        t0 = time.monotonic()
        while not RESUMED.search(first) and time.monotonic() - t0 < 60:
            first += proc.stdout.readline()  # the line comes before the first frame
        got = RESUMED.search(first)
        assert got is not None, first
        assert got.group(1) == want and int(got.group(2)) == n
        t0 = time.monotonic()
        while not mid_deal() and time.monotonic() - t0 < 300:
            assert proc.poll() is None, "the match ended before the second cut"
            time.sleep(0.05)
        assert mid_deal()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    path, n = journal_actions(state)
    dealt = path.with_name(path.name + ".reads").read_text(encoding="utf-8")
    out = subprocess.run(cmd(state, 5), cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=800)
    lines = out.stdout.strip().splitlines()
    got = RESUMED.search(out.stdout)
    assert got is not None and int(got.group(2)) == n
    summary = SUMMARY.match(lines[-1])
    assert summary is not None, out.stdout[-2000:] + out.stderr[-2000:]
    assert summary.group(3) == "0" and summary.group(4) == "0", out.stdout[-3000:]
    assert out.returncode == 0
    assert dealt  # the cards dealt before the cut were kept, and the deal went on from them
