"""End to end: the simulated shoe as a separate process on a pty, the real ShoeLink."""

from __future__ import annotations

import queue
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from waiting import wait_until

from device.events import ShoeEvent
from device.shoe.deckmap import DeckMap
from device.shoe.link import ShoeLink
from rummy.cards import shuffled_deck

ROOT = Path(__file__).resolve().parents[1]


def run_deal(tmp_path, sim_args, *, expected, decks=1, timeout=20.0, via_cli=False):
    link_path = str(tmp_path / "cardshoe")
    cmd = (
        [sys.executable, "-m", "display.cli", "shoe-sim"]
        if via_cli
        else [sys.executable, "-m", "device.shoe.sim"]
    )
    proc = subprocess.Popen(
        [*cmd, "--link", link_path, "--exit-when-done", *sim_args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    events: list[ShoeEvent] = []
    try:
        assert proc.stdout.readline().startswith("PTY /dev/")
        q: queue.Queue = queue.Queue()
        deadline = time.monotonic() + timeout
        with ShoeLink(
            link_path, events=q, deck_map=DeckMap.simulated(decks), backoff=(0.05, 0.2)
        ) as link:
            while sum(e.kind == "card" for e in events) < expected and time.monotonic() < deadline:
                try:
                    events.append(q.get(timeout=0.2))
                except queue.Empty:
                    pass
            stats = link.stats()
    finally:
        out = finish(proc)
    return events, stats, out


def finish(proc: subprocess.Popen) -> str:
    """Wait for the sim process (kill it if it hangs); its stdout; it must exit 0."""
    try:
        out, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    return out


def cards_of(events):
    return [e.card for e in events if e.kind == "card"]


def test_every_card_once_and_in_order_despite_faults_and_a_disconnect(tmp_path):
    events, stats, out = run_deal(
        tmp_path,
        [
            "--seed",
            "42",
            "--garbage",
            "0.1",
            "--bad-crc",
            "0.1",
            "--drop",
            "0.1",
            "--dup",
            "0.1",
            "--misread",
            "0.05",
            "--disconnect-after",
            "26",
            "--fault-seed",
            "3",
        ],
        expected=52,
    )
    assert cards_of(events) == shuffled_deck(random.Random(42))
    kinds = [e.kind for e in events if e.kind in ("connected", "disconnected")]
    assert kinds == ["connected", "disconnected", "connected"]
    assert "UNPLUGGED" in out
    counters = stats["counters"]
    assert counters["bad_crc"] > 0 and counters["noise"] > 0 and counters["duplicates"] > 0
    assert counters["lost"] == 0 and counters["cards"] == 52
    assert all(e.card is not None for e in events if e.kind == "card")


def test_unplug_and_replug_mid_deal_loses_nothing(tmp_path):
    events, stats, _ = run_deal(
        tmp_path,
        ["--seed", "5", "--disconnect-after", "10", "--disconnect-for", "0.5"],
        expected=52,
    )
    assert cards_of(events) == shuffled_deck(random.Random(5))
    assert stats["counters"]["disconnects"] == 1 and stats["counters"]["connects"] == 2


def test_two_packs_and_misreads_through_the_cli_command(tmp_path):
    events, _, _ = run_deal(
        tmp_path,
        ["--seed", "9", "--decks", "2", "--misread", "0.1", "--count", "40"],
        expected=40,
        decks=2,
        via_cli=True,
    )
    assert cards_of(events) == shuffled_deck(random.Random(9), decks=2)[:40]
    assert any(e.kind == "misread" for e in events)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--order", "AS ZZ"], "bad --order"),
        (["--drop", "1.5"], "--drop must be"),
        (["--boot", "xyz"], "--boot must be"),
    ],
)
def test_sim_rejects_bad_options_with_a_message(args, message):
    proc = subprocess.run(
        [sys.executable, "-m", "device.shoe.sim", *args],
        capture_output=True,
        text=True,
        timeout=10,
        cwd=ROOT,
    )
    assert proc.returncode == 2 and message in proc.stderr


def test_the_sim_process_takes_commands_for_both_gates(tmp_path):
    link_path = str(tmp_path / "cardshoe")
    proc = subprocess.Popen(
        [sys.executable, "-m", "device.shoe.sim", "--link", link_path, "--no-deal", "--commands"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    q: queue.Queue = queue.Queue()
    events: list[ShoeEvent] = []

    def ask(line: str) -> str:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        return proc.stdout.readline().strip()

    try:
        assert proc.stdout.readline().startswith("PTY /dev/")
        assert proc.stdout.readline().startswith("LINK ")
        with ShoeLink(link_path, events=q, deck_map=DeckMap.simulated(2), backoff=(0.05, 0.2)):
            deadline = time.monotonic() + 5
            while not any(e.kind == "connected" for e in events) and time.monotonic() < deadline:
                try:
                    events.append(q.get(timeout=0.1))
                except queue.Empty:
                    pass
            assert ask("feed slot AS").startswith("OK 04")
            assert ask("feed shoe KH 1").startswith("OK 04")
            assert ask("misread shoe") == "OK"
            assert ask("double slot 2C 3C").startswith("OK 04")
            assert ask("unknown shoe").startswith("OK 04FFFE")
            assert ask("feed bin AS").startswith("ERR")
            assert ask("feed slot ZZ").startswith("ERR")
            assert ask("frobnicate").startswith("ERR unknown command")
            assert ask("idle") == "OK"  # every pass judged and ACKed: its event is queued

            def reads_in() -> int:
                while not q.empty():
                    events.append(q.get_nowait())
                return len([e for e in events if e.kind not in ("connected", "status")])

            assert wait_until(lambda: reads_in() >= 5, 5), events  # 3 at the shoe, 2 at the slot
            reads_in()
        proc.stdin.write("quit\n")
        proc.stdin.flush()
    finally:
        finish(proc)
    reads = [e for e in events if e.kind not in ("connected", "status")]
    by_gate = {
        pt: [(e.kind, str(e.card)) for e in reads if e.point == pt] for pt in ("shoe", "slot")
    }
    assert by_gate == {  # each gate in the order of its passes (the two run side by side)
        "shoe": [("card", "KH"), ("misread", "None"), ("card", "None")],
        "slot": [("card", "AS"), ("double", "None")],
    }
    assert events[0].info["points"] == ("shoe", "slot")
