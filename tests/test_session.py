"""rummy.session.MatchSession: durable journal, resume, torn and damaged journals, finish."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rummy.games
from rummy.actions import TABLE, Action, ActionError
from rummy.gin.bots import RandomPlayer  # any legal action: plays either game
from rummy.records import JournalError, read_journal, replay
from rummy.session import (
    ARCHIVE,
    CURRENT,
    DAMAGED,
    MatchSession,
    SessionError,
    StorageError,
    canonical,
    state_digest,
)
from rummy.session_runner import next_action
from rummy.store import Store, StoreError

SEATS = [{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "computer", "bot": "basic"}]


@pytest.fixture(autouse=True)
def toy_engine(monkeypatch):
    monkeypatch.setitem(rummy.games.ENGINES, "toy", "test_session_toy:ENGINE")


def start(tmp_path: Path, seed: int | None = 7, target: int = 500) -> MatchSession:
    return MatchSession.start(tmp_path, "toy", {"target": target}, SEATS, seed=seed)


def play(session: MatchSession, n: int) -> None:
    players = [RandomPlayer(), RandomPlayer()]
    for _ in range(n):
        if session.is_over:
            return
        session.apply(next_action(session, players))


def only_journal(tmp_path: Path, folder: str = CURRENT) -> Path:
    (path,) = sorted((tmp_path / folder).glob("*.jsonl"))
    return path


def test_start_creates_journal_in_current(tmp_path):
    s = start(tmp_path)
    assert s.journal_path.parent == tmp_path / CURRENT
    assert s.journal_path.name.endswith("-toy.jsonl")
    assert s.header.seed == 7 and s.actions_applied == 0
    assert read_journal(s.journal_path).header.seats[0]["name"] == "Ann"


@pytest.mark.parametrize("seats, reason", [
    ([], "non-empty"),
    ([{"kind": "human"}], "name"),
    ([{"name": "A", "kind": "robot"}], "kind"),
    ([{"name": "A", "kind": "computer", "bot": 3}], "'bot' must be text"),  # its journal could not be read
])
def test_start_refuses_bad_seats(tmp_path, seats, reason):
    with pytest.raises(SessionError, match=reason):
        MatchSession.start(tmp_path, "toy", {}, seats)


def test_start_refuses_unknown_game_and_bad_rules(tmp_path):
    with pytest.raises(SessionError, match="unknown game"):
        MatchSession.start(tmp_path, "poker", {}, SEATS)
    with pytest.raises(SessionError, match="unknown rule"):
        MatchSession.start(tmp_path, "toy", {"colour": 1}, SEATS)


def test_illegal_action_writes_nothing(tmp_path):
    s = start(tmp_path)
    s.deal_if_needed()
    size = s.journal_path.stat().st_size
    with pytest.raises(ActionError):
        s.apply(Action("draw", 1))  # seat 0 is to act
    assert s.journal_path.stat().st_size == size and s.actions_applied == 1


def test_deal_if_needed_is_seeded_per_deal_and_empty_when_no_deal(tmp_path):
    a, b = start(tmp_path / "a"), start(tmp_path / "b")
    assert a.deal_if_needed() and b.deal_if_needed()
    assert a.state.deck == b.state.deck
    assert a.deal_if_needed() == []
    expected = list(rummy.cards.new_deck())
    random.Random("7:1").shuffle(expected)
    assert list(a.state.deck) == expected


def test_unseeded_deals_differ(tmp_path):
    a, b = start(tmp_path / "a", seed=None), start(tmp_path / "b", seed=None)
    a.deal_if_needed()
    b.deal_if_needed()
    assert a.state.deck != b.state.deck


def test_resume_rebuilds_exact_state(tmp_path):
    s = start(tmp_path)
    play(s, 25)
    digest, n = s.digest(), s.actions_applied
    s.close()
    res = MatchSession.resume(tmp_path)
    assert res.messages == []
    assert res.session.digest() == digest and res.session.actions_applied == n
    assert res.session.state == s.state


def test_resume_without_state_dir_is_empty(tmp_path):
    res = MatchSession.resume(tmp_path / "nothing")
    assert res.session is None and res.messages == []


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), cut=st.integers(1, 60), kills=st.integers(1, 4))
def test_resumed_runs_end_like_uninterrupted_runs(tmp_path_factory, seed, cut, kills):
    """Property: however often a seeded match is interrupted, it ends in the same state."""
    base = tmp_path_factory.mktemp("p")
    ref = MatchSession.start(base / "ref", "toy", {"target": 50}, SEATS, seed=seed, fsync=False)
    play(ref, 10_000)
    s = MatchSession.start(base / "cut", "toy", {"target": 50}, SEATS, seed=seed, fsync=False)
    for _ in range(kills):
        play(s, cut)
        s.close()
        s = MatchSession.resume(base / "cut", fsync=False).session or s
    play(s, 10_000)
    assert s.is_over and s.digest() == ref.digest()


def test_torn_last_line_is_dropped_and_reported(tmp_path):
    s = start(tmp_path)
    play(s, 12)
    good = s.digest()
    s.apply(next_action(s, [RandomPlayer(), RandomPlayer()]))
    s.close()
    raw = s.journal_path.read_bytes()
    s.journal_path.write_bytes(raw[: len(raw) - 9])  # cut inside the last line
    res = MatchSession.resume(tmp_path)
    assert res.session.digest() == good and res.session.actions_applied == 12
    assert any("torn write" in m for m in res.messages)
    play(res.session, 3)  # appending after the cut yields a clean journal
    res.session.close()
    assert len(read_journal(s.journal_path).actions) == 15
    assert not read_journal(s.journal_path).torn_tail


def test_corrupt_middle_line_moves_journal_aside_and_salvages_prefix(tmp_path):
    s = start(tmp_path)
    play(s, 20)
    s.close()
    lines = s.journal_path.read_bytes().split(b"\n")
    original = s.journal_path.read_bytes()
    lines[8] = lines[8].replace(b'"kind":"draw"', b'"kind":"drew"')  # line 9: CRC now wrong
    s.journal_path.write_bytes(b"\n".join(lines))
    damaged_bytes = s.journal_path.read_bytes()
    assert damaged_bytes != original
    res = MatchSession.resume(tmp_path)
    (moved,) = (tmp_path / DAMAGED).glob("*.jsonl")
    assert moved.read_bytes() == damaged_bytes  # moved aside, never deleted or changed
    assert any("damaged at line 9" in m and "7 action(s)" in m for m in res.messages)
    assert res.session.actions_applied == 7
    with pytest.raises(JournalError):
        replay(moved)
    ref = start(tmp_path / "ref")
    play(ref, 7)
    assert res.session.digest() == ref.digest()


def test_unreadable_header_is_moved_aside(tmp_path):
    (tmp_path / CURRENT).mkdir(parents=True)
    junk = tmp_path / CURRENT / "20260101T000000Z-toy.jsonl"
    junk.write_bytes(b"\x00\xff garbage\n")
    res = MatchSession.resume(tmp_path)
    assert res.session is None
    assert (tmp_path / DAMAGED / junk.name).read_bytes() == b"\x00\xff garbage\n"
    assert any("damaged at line 1" in m for m in res.messages)
    assert not list((tmp_path / CURRENT).glob("*.jsonl"))


def test_older_unfinished_journals_are_set_aside(tmp_path):
    old = start(tmp_path)
    play(old, 5)
    old.close()
    new = start(tmp_path, seed=8)
    play(new, 9)
    new.close()
    res = MatchSession.resume(tmp_path)
    assert res.session.journal_path == new.journal_path
    assert (tmp_path / DAMAGED / old.journal_path.name).exists()


def test_finish_records_and_archives(tmp_path):
    s = start(tmp_path, target=30)
    play(s, 10_000)
    with Store(tmp_path / "r.db") as store:
        archived = s.finish(store)
        assert archived.parent == tmp_path / ARCHIVE
        assert read_journal(archived).ended == "finished"
        assert len(store.matches()) == 1
    assert MatchSession.resume(tmp_path).session is None
    with pytest.raises(SessionError):
        s.apply(Action("draw", 0))


def test_finish_refuses_unfinished_match_but_abandon_archives(tmp_path):
    s = start(tmp_path)
    play(s, 4)
    with pytest.raises(SessionError, match="not over"):
        s.finish(None)
    path = s.finish(None, reason="abandoned")
    assert read_journal(path).ended == "abandoned"


def test_cut_between_last_action_and_end_line_is_finished_on_resume(tmp_path):
    s = start(tmp_path, target=30)
    play(s, 10_000)
    s.close()  # power cut before finish(): no end line, journal still in current/
    with Store(tmp_path / "r.db") as store:
        res = MatchSession.resume(tmp_path, store=store)
        assert res.session is None and len(res.finished) == 1
        assert read_journal(res.finished[0]).ended == "finished"
        assert store.matches()[0]["actions"] == s.actions_applied


def test_digest_is_canonical_for_sets_and_maps():
    assert state_digest({"b": 1, "a": {3, 1, 2}}) == state_digest({"a": {2, 3, 1}, "b": 1})
    assert canonical((1, [2])) == [1, [2]]
    assert state_digest({"a": 1}) != state_digest({"a": 2})


def test_deal_action_is_table_seat(tmp_path):
    s = start(tmp_path)
    assert s.deal_action().seat == TABLE


def test_store_failure_at_finish_keeps_the_journal_for_the_next_start(tmp_path):
    class BrokenStore:
        def record_match(self, journal):
            raise StoreError("disk full")

    s = start(tmp_path, target=30)
    play(s, 10_000)
    path = s.finish(BrokenStore())  # type: ignore[arg-type]
    assert path.parent == tmp_path / CURRENT and s.record_error == "disk full"
    with Store(tmp_path / "r.db") as store:
        res = MatchSession.resume(tmp_path, store=store)
        assert res.session is None and len(res.finished) == 1 and len(store.matches()) == 1
    assert not list((tmp_path / CURRENT).glob("*.jsonl"))


def test_failed_write_leaves_no_half_line(tmp_path, monkeypatch):
    import rummy.records as records

    s = start(tmp_path)
    play(s, 5)
    digest = s.digest()
    real_write = os.write

    def half_write(fd, data):
        real_write(fd, bytes(data[: len(data) // 2]))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(records.os, "write", half_write)
    with pytest.raises(StorageError) as info:
        s.apply(next_action(s, [RandomPlayer(), RandomPlayer()]))
    assert info.value.code == "storage_full"
    assert s.digest() == digest and s.actions_applied == 5
    monkeypatch.setattr(records.os, "write", real_write)
    play(s, 3)  # the disk has room again
    s.close()
    journal = read_journal(s.journal_path)
    assert len(journal.actions) == 8 and not journal.torn_tail


def test_cut_while_creating_a_journal_leaves_no_journal(tmp_path):
    (tmp_path / CURRENT).mkdir(parents=True)
    stale = tmp_path / CURRENT / "20260101T000000000000Z-toy.jsonl.new"
    stale.write_text('{"type":"header"')
    res = MatchSession.resume(tmp_path)
    assert res.session is None and res.messages == [] and not stale.exists()
    s = start(tmp_path)
    assert s.journal_path.exists() and not list((tmp_path / CURRENT).glob("*.new"))


def test_runner_cli_plays_stops_resumes_and_refuses_bad_options(tmp_path, capsys):
    from rummy.session_runner import main

    sd = ["--state-dir", str(tmp_path)]
    assert main(["run", *sd, "--seed", "2", "--stop-at", "1:30"]) == 0
    assert "stopped after 30 actions" in capsys.readouterr().out
    assert main(["run", *sd, "--seed", "2", "--record-bots"]) == 0
    out = capsys.readouterr().out
    assert "resumed " in out and "after 30 actions" in out and out.strip().endswith("done")
    with Store(tmp_path / "records.sqlite3") as store:
        assert len(store.matches()) == 1
    # without --record-bots a bot run leaves the records alone
    bots = tmp_path / "bots"
    assert main(["run", "--state-dir", str(bots), "--seed", "3"]) == 0
    assert len(list((bots / "archive").glob("*.jsonl"))) == 1
    with Store(bots / "records.sqlite3") as store:
        assert store.matches() == []
    assert main(["run", "--state-dir", str(tmp_path / "new"), "--preset", "nope"]) == 2
    assert "unknown gin preset 'nope'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["run", *sd, "--stop-at", "x"])
    assert main([]) == 2


def test_engine_bug_during_replay_leaves_the_journal_and_does_not_raise(tmp_path, monkeypatch):
    s = start(tmp_path)
    play(s, 6)
    s.close()
    toy = rummy.games.get_engine("toy")

    def broken_apply(state, action):
        raise KeyError("engine bug")

    with monkeypatch.context() as m:
        m.setattr(toy, "apply", broken_apply)
        res = MatchSession.resume(tmp_path)
    assert res.session is None
    assert any("KeyError" in m and "left in current/" in m for m in res.messages)
    assert s.journal_path.exists() and not (tmp_path / DAMAGED).exists()
    assert MatchSession.resume(tmp_path).session.actions_applied == 6  # after the fix
