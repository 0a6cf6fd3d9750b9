"""Gin game records: journal replay, corruption, torn tail, and the two CLI commands
(``rummy-table replay`` and ``rummy-table play``)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from rummy import replay_cli, textgame
from rummy.actions import Action
from rummy.gin.bots import BasicPlayer
from rummy.gin.engine import ENGINE
from rummy.gin.rules import preset
from rummy.play import play_match
from rummy.records import Header, JournalError, JournalWriter, encode_line, read_journal, replay

ROOT = Path(__file__).resolve().parents[1]


def record(path: Path, *, seed: int = 7, name: str = "standard", end: bool = True, fsync=False):
    rules = preset(name)
    header = Header(
        game="gin",
        rules=ENGINE.rules_to_dict(rules),
        seats=[{"name": "Ann", "kind": "computer"}, {"name": "Bob", "kind": "computer"}],
        seed=seed,
    )
    state = ENGINE.new_match(rules, 2)
    with JournalWriter.create(path, header, fsync=fsync) as journal:
        state, steps = play_match(
            ENGINE, state, [BasicPlayer(), BasicPlayer()], random.Random(seed), journal=journal
        )
    if not end:  # drop the end line: a match cut off mid-way
        lines = path.read_bytes().splitlines(keepends=True)
        path.write_bytes(b"".join(lines[:-1]))
    return state, steps


def test_replay_rebuilds_the_exact_state(tmp_path):
    path = tmp_path / "g.jsonl"
    state, steps = record(path, fsync=True)
    rep = replay(path)
    assert rep.state == state and rep.journal.ended == "finished"
    assert [a for a, _ in rep.steps] == [a for a, _ in steps]
    assert [evs for _, evs in rep.steps] == [evs for _, evs in steps]
    assert rep.journal.header.rules == ENGINE.rules_to_dict(preset("standard"))


def test_a_flipped_byte_mid_file_is_refused_with_its_line_number(tmp_path):
    path = tmp_path / "g.jsonl"
    record(path)
    lines = path.read_bytes().splitlines(keepends=True)
    target = len(lines) // 2
    line = lines[target]
    pos = line.index(b'"kind":"') + len(b'"kind":"')
    lines[target] = line[:pos] + bytes([line[pos] ^ 0x20]) + line[pos + 1 :]
    path.write_bytes(b"".join(lines))
    with pytest.raises(JournalError) as info:
        read_journal(path)
    assert info.value.line == target + 1 and "checksum" in info.value.reason


def test_a_torn_last_line_is_dropped_and_reported(tmp_path):
    path = tmp_path / "g.jsonl"
    _, steps = record(path, end=False)
    raw = path.read_bytes()
    last_start = raw.rstrip(b"\n").rfind(b"\n") + 1
    path.write_bytes(raw[: last_start + (len(raw) - last_start) // 2])  # power cut
    rep = replay(path)
    assert rep.journal.torn_tail and rep.journal.warnings
    assert f"line {len(steps) + 1}" in rep.journal.warnings[0]
    assert len(rep.steps) == len(steps) - 1
    live = ENGINE.new_match(preset("standard"), 2)
    for action, _ in steps[:-1]:
        live, _ = ENGINE.apply(live, action)
    assert rep.state == live


def test_an_illegal_action_with_a_good_checksum_is_refused_with_its_line(tmp_path):
    path = tmp_path / "g.jsonl"
    record(path)
    lines = path.read_text().splitlines(keepends=True)
    obj = json.loads(lines[3])
    bad = Action("big_gin", obj["seat"] if obj["seat"] >= 0 else 0).to_dict()
    lines[3] = encode_line({"type": "action", "n": obj["n"], "t": obj["t"], **bad})
    path.write_text("".join(lines))
    with pytest.raises(JournalError) as info:
        replay(path)
    assert info.value.line == 4 and "illegal action" in info.value.reason


def test_replay_cli_prints_the_game_hand_by_hand(tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    state, _ = record(path)
    assert replay_cli.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "seats: seat 0: Ann (computer), seat 1: Bob (computer)" in out
    assert out.count("== game 1 hand") == state.hand_number
    assert "KNOCKS" in out or "GIN" in out
    assert "result:" in out and " box" in out and "game score" in out
    totals = state.game_results[-1].totals
    assert f"totals {totals[0]}-{totals[1]}" in out and "## match won" in out
    assert replay_cli.main(["--brief", str(path)]) == 0
    brief = capsys.readouterr().out
    assert " draws " not in brief and "result:" in brief


def test_replay_cli_refuses_a_corrupt_journal_with_exit_2_and_no_traceback(tmp_path):
    path = tmp_path / "g.jsonl"
    record(path)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[5] = lines[5].replace(b'"seat":', b'"seaT":', 1)
    path.write_bytes(b"".join(lines))
    proc = subprocess.run(
        [sys.executable, "-m", "display.cli", "replay", str(path)],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    assert proc.returncode == 2
    assert "line 6" in proc.stderr and "Traceback" not in proc.stderr
    missing = subprocess.run(
        [sys.executable, "-m", "rummy.replay_cli", str(tmp_path / "nope.jsonl")],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    assert missing.returncode == 2 and "cannot read" in missing.stderr
    assert "Traceback" not in missing.stderr


def test_textgame_plays_a_match_and_records_it(tmp_path, capsys):
    path = tmp_path / "play.jsonl"
    assert textgame.main(["--seed", "11", "--preset", "knock_card", "--journal", str(path)]) == 0
    out = capsys.readouterr().out
    assert "seed 11" in out and "result:" in out and "## match won" in out
    rep = replay(path)
    assert ENGINE.is_over(rep.state) and rep.journal.header.seed == 11
    assert rep.state.rules == preset("knock_card")


def test_textgame_other_game_uses_its_default_preset(capsys):
    assert textgame.main(["--game", "contract", "--seed", "2"]) == 0
    assert "contract (seed_002), seed 2: 4 computer players" in capsys.readouterr().out


def test_textgame_refuses_bad_options(tmp_path, capsys):
    assert textgame.main(["--preset", "oklahoma"]) == 2
    assert "unknown preset" in capsys.readouterr().err
    path = tmp_path / "exists.jsonl"
    path.write_text("x")
    assert textgame.main(["--seed", "1", "--journal", str(path)]) == 2
    assert "already exists" in capsys.readouterr().err
