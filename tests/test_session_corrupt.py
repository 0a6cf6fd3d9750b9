"""Damaged gin journals on resume: any single damaged byte never loses the hands before it.

Property: flip one byte anywhere in a real journal of an unfinished gin match. Resume never
raises; the damaged file is kept byte for byte (moved to damaged/, or for a damaged last line
only that line is cut); the session resumes exactly at the last intact action before the
damage, in the state the replay of those actions gives.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummy.games import get_engine
from rummy.records import read_journal
from rummy.session import CURRENT, DAMAGED, MatchSession, state_digest
from rummy.session_runner import run_matches


@pytest.fixture(scope="module")
def journal(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("gin")
    run_matches(d, seed=42, game="gin", matches=1, stop_at=(1, 120), records=False,
                fsync=False, out=io.StringIO())
    (path,) = (d / CURRENT).glob("*.jsonl")
    return path


def prefix_digest(path: Path, k: int) -> str:
    j = read_journal(path)
    engine = get_engine(j.header.game)
    state = engine.new_match(engine.rules_from_dict(j.header.rules), len(j.header.seats),
                             first_dealer=j.header.first_dealer)
    for action in j.actions[:k]:
        state, _ = engine.apply(state, action)
    return state_digest(state)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.floats(0, 1, exclude_max=True), xor=st.integers(1, 255))
def test_any_damaged_byte_keeps_the_actions_before_it(journal, tmp_path_factory, where, xor):
    state_dir = tmp_path_factory.mktemp("s")
    (state_dir / CURRENT).mkdir()
    target = state_dir / CURRENT / journal.name
    raw = bytearray(journal.read_bytes())
    offset = int(where * len(raw))
    raw[offset] ^= xor
    target.write_bytes(bytes(raw))
    lines = bytes(raw).split(b"\n")
    line_no = bytes(raw[:offset]).count(b"\n") + 1
    total = len(lines) - 1  # complete lines (the file ends with a newline)

    res = MatchSession.resume(state_dir)  # never raises

    damaged = list((state_dir / DAMAGED).glob("*.jsonl"))
    if damaged:
        assert damaged[0].read_bytes() == bytes(raw)  # kept, byte for byte
    if line_no == 1:
        assert res.session is None and damaged
        return
    assert res.session is not None, res.messages
    expected = line_no - 2  # intact actions before the damaged line
    if line_no >= total and not damaged:  # a damaged last line is cut like a torn write
        assert any("dropped" in m for m in res.messages)
    assert res.session.actions_applied == expected, (line_no, total, res.messages)
    assert res.session.digest() == prefix_digest(journal, expected)
    assert res.messages  # the table says what happened
    res.session.close()
    shutil.rmtree(state_dir)
