"""Hardened readers: the journal reader, replay, resume and the records store survive any
bytes with their own clear error (bounded nesting and line length, short excerpts, an end
line in the middle is damage, headers checked field by field, only StoreError from the
store). Property tests over random bytes and random edits; the budgets (inputs tried per
reader) are the ``max_examples`` below, sized for CI."""

from __future__ import annotations

import io
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from faultkit import damage_db, records_db, unfinished
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummy.records import JournalError, encode_line, read_journal, replay
from rummy.session import CURRENT, DAMAGED, MatchSession
from rummy.store import Store, StoreError

pytestmark = pytest.mark.faults
MAX_REASON = 240  # rummy.records.MAX_REASON: the longest refusal reason

# inputs tried per reader (each a new journal or database file)
BUDGET = {"journal_bytes": 400, "journal_edits": 250, "journal_fields": 300, "resume_edits": 80,
          "store_bytes": 120, "store_values": 120}
FUZZ = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                                  HealthCheck.data_too_large])


class Template(bytes):
    """A file's bytes that a falsifying example prints by name only."""

    def __repr__(self) -> str:
        return f"<{len(self)} bytes>"


@pytest.fixture(scope="module")
def journal_bytes(tmp_path_factory) -> bytes:
    d = tmp_path_factory.mktemp("journal")
    return Template(unfinished(d, 60, seed=21).read_bytes())


@pytest.fixture(scope="module")
def db_bytes(tmp_path_factory) -> bytes:
    return Template(records_db(tmp_path_factory.mktemp("db") / "state").read_bytes())


def _write(tmp_path: Path, data: bytes, name: str = "20260101T000000000000Z-gin.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _resealed(data: bytes, i: int, **changes) -> list[bytes]:
    """The journal's lines with line ``i``'s fields changed, under a valid CRC."""
    lines = _lines(data)
    obj = json.loads(lines[i])
    obj.pop("crc")
    obj.update(changes)
    lines[i] = encode_line(obj).rstrip("\n").encode()
    return lines


def _edit_header(data: bytes, **changes) -> bytes:
    return b"\n".join(_resealed(data, 0, **changes))


# -- the cases of the issue ---------------------------------------------------------------
def test_deeply_nested_line_is_a_clear_error_not_recursion(tmp_path, journal_bytes):
    lines = _lines(journal_bytes)
    lines[5] = b"[" * 20_000 + b"]" * 20_000  # 40 KB, under the line limit: json recursed
    path = _write(tmp_path, b"\n".join(lines))
    for reader in (read_journal, replay):
        with pytest.raises(JournalError) as info:
            reader(path)
        assert info.value.line == 6 and "nested deeper" in info.value.reason
    sd = tmp_path / "sd"
    (sd / CURRENT).mkdir(parents=True)
    shutil.copy(path, sd / CURRENT / path.name)
    res = MatchSession.resume(sd)
    assert res.session is not None and res.session.actions_applied == 4 and len(res.damaged) == 1
    assert res.salvaged_actions == 4 and res.salvaged
    res.session.close()


def test_a_one_megabyte_line_is_quoted_as_a_short_excerpt(tmp_path, journal_bytes):
    lines = _resealed(journal_bytes, 3, kind="x" * 1_000_000)
    for data, why in ((b"\n".join(lines), "line too long"),
                      (b"\n".join(lines[:3] + [b'{"type":"action","kind":"' + b"y" * 50_000 + b'"}'] + lines[4:]),
                       "checksum")):
        with pytest.raises(JournalError) as info:
            read_journal(_write(tmp_path, data))
        assert why in info.value.reason and len(info.value.reason) <= MAX_REASON
        assert len(str(info.value)) <= MAX_REASON + len(str(tmp_path)) + 80


def test_a_long_value_with_a_valid_crc_is_quoted_short(tmp_path, journal_bytes):
    lines = _resealed(journal_bytes, 3, type="z" * 30_000)
    with pytest.raises(JournalError) as info:
        read_journal(_write(tmp_path, b"\n".join(lines)))
    assert "unknown line type" in info.value.reason and len(info.value.reason) < 120


def test_an_end_line_in_the_middle_is_damage_not_an_end(tmp_path, journal_bytes):
    lines = _lines(journal_bytes)
    end = encode_line({"type": "end", "n": 20, "reason": "finished"}).rstrip("\n").encode()
    data = b"\n".join(lines[:20] + [end] + lines[20:])
    with pytest.raises(JournalError) as info:
        read_journal(_write(tmp_path, data))
    assert info.value.line == 21 and "end line in the middle" in info.value.reason
    sd = tmp_path / "sd"
    (sd / CURRENT).mkdir(parents=True)
    _write(sd / CURRENT, data)
    res = MatchSession.resume(sd)
    assert res.finished == [] and res.session is not None
    assert res.session.actions_applied == 19, "resumed before the false end, not archived as finished"
    res.session.close()


@pytest.mark.parametrize("changes, words", [
    ({"first_dealer": None}, "'first_dealer' must be a seat number"),
    ({"first_dealer": 5}, "'first_dealer' is 5, not a seat"),
    ({"first_dealer": True}, "'first_dealer' must be a seat number"),
    ({"seats": ["Ann", "Bob"]}, "seat 0: expected a table"),
    ({"seats": [{"name": "Ann"}, {"name": ""}]}, "seat 1: 'name' must be non-empty text"),
    ({"seats": [{"name": "Ann", "kind": "robot"}, {"name": "Bob"}]}, "'kind' must be human or computer"),
    ({"seats": []}, "'seats' is empty"),
    ({"seed": [1]}, "'seed' must be"),
    ({"created": 5}, "'created' must be text"),
    ({"extra": "x"}, "'extra' must be a table"),
    ({"format": True}, "not supported"),
    ({"rules": {"knock_limit": "ten" * 1000}}, "rules"),
])
def test_header_fields_are_checked_one_by_one(tmp_path, journal_bytes, changes, words):
    path = _write(tmp_path, _edit_header(journal_bytes, **changes))
    with pytest.raises(JournalError) as info:
        replay(path)
    assert info.value.line == 1 and words in info.value.reason, info.value.reason
    assert len(info.value.reason) <= MAX_REASON


def test_store_negative_schema_version_and_damaged_file_raise_store_error(tmp_path, db_bytes):
    db = tmp_path / "records.sqlite3"
    db.write_bytes(db_bytes)
    with sqlite3.connect(db) as c:
        c.execute("PRAGMA user_version = -1")
    with pytest.raises(StoreError, match="schema version -1 is not valid"):
        Store(db)
    db.write_bytes(db_bytes)
    damage_db(db)
    _every_use_raises_only_store_error(db, tmp_path)


def test_store_damaged_rows_raise_store_error(tmp_path, db_bytes):
    db = tmp_path / "records.sqlite3"
    db.write_bytes(db_bytes)
    with sqlite3.connect(db) as c:
        c.execute("UPDATE hands SET results_json = '{not json'")
        c.execute("UPDATE hand_steps SET events_json = '[[[['")
    with Store(db) as store:
        with pytest.raises(StoreError, match="cannot read the last hands: a stored value is damaged"):
            store.last_hands()
        assert len(store.matches()) == 1  # what is intact still reads


def _every_use_raises_only_store_error(db: Path, tmp_path: Path, journal: Path | None = None) -> int:
    """Open and use the store; any failure must be StoreError. Returns the errors seen."""
    errors = 0
    try:
        store = Store(db)
    except StoreError as exc:
        assert str(db) in str(exc)
        return 1
    uses = [store.last_hands, store.matches, store.leaderboard, lambda: store.leaderboard("gin", humans_only=True),
            lambda: store.export_csv(io.StringIO()), lambda: list(store.export_rows())]
    if journal is not None:
        uses.append(lambda: store.record_match(journal))
    for use in uses:
        try:
            use()
        except StoreError as exc:
            assert str(exc) and exc.kind in ("damaged", "locked", "full", "read_only", "newer", "io")
            errors += 1
    store.close()
    return errors


# -- property tests -----------------------------------------------------------------------
def _reads_or_refuses(path: Path) -> None:
    try:
        replay(path)
    except JournalError as exc:
        assert len(exc.reason) <= MAX_REASON and exc.line >= 0


@settings(max_examples=BUDGET["journal_bytes"], **FUZZ)
@given(data=st.binary(max_size=3000) | st.lists(st.sampled_from(
    [b"{", b"}", b"[", b"]", b'"', b"\n", b"\\", b'"crc":"0"', b'{"type":"header"', b"\xff", b" ", b"1e999",
     b"null", b":", b",", b"[" * 1500, b'{"a":' * 800, b"x" * 70_000]), max_size=400).map(b"".join))
def test_random_bytes_give_a_journal_or_a_journal_error(tmp_path_factory, data):
    _reads_or_refuses(_write(tmp_path_factory.mktemp("b"), data))


def _mutate(data: bytes, edits: list[tuple[int, int, int]]) -> bytes:
    buf = bytearray(data)
    for op, pos, val in edits:
        if not buf:
            break
        i = pos % len(buf)
        if op == 0:
            buf[i] = val
        elif op == 1:
            buf.insert(i, val)
        elif op == 2:
            del buf[i]
        elif op == 6:  # a run of brackets or a long run of text
            buf[i:i] = (b"[" if val % 2 else b"x") * (val * 40)
        else:  # a whole line duplicated, dropped or swapped
            lines = bytes(buf).split(b"\n")
            j, k = pos % len(lines), val % len(lines)
            if op == 3:
                lines.insert(j, lines[k])
            elif op == 4:
                del lines[j]
            elif op == 5:
                lines[j], lines[k] = lines[k], lines[j]
            else:  # a line whose value nests deeper than any parser's stack
                lines[j] = b'{"type":"action","n":' + b"[" * (val * 40) + b"]" * (val * 40) + b"}"
            buf = bytearray(b"\n".join(lines))
    return bytes(buf)


EDITS = st.lists(st.tuples(st.integers(0, 7), st.integers(0, 1 << 20), st.integers(0, 255)),
                 min_size=1, max_size=6)


@settings(max_examples=BUDGET["journal_edits"], **FUZZ)
@given(edits=EDITS)
def test_random_edits_give_a_journal_or_a_journal_error(tmp_path_factory, journal_bytes, edits):
    _reads_or_refuses(_write(tmp_path_factory.mktemp("e"), _mutate(journal_bytes, edits)))


JSON = st.recursive(st.none() | st.booleans() | st.integers(-(1 << 70), 1 << 70) | st.floats()
                    | st.text(max_size=30),
                    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
                    max_leaves=12)
FIELDS = ["type", "n", "t", "kind", "seat", "card", "cards", "melds", "target", "flag", "reason",
          "game", "rules", "seats", "seed", "first_dealer", "created", "extra", "format", "zz"]


@settings(max_examples=BUDGET["journal_fields"], **FUZZ)
@given(line=st.integers(0, 70), key=st.sampled_from(FIELDS), value=JSON, drop=st.booleans())
def test_random_field_values_with_valid_crcs_give_a_journal_error(tmp_path_factory, journal_bytes,
                                                                   line, key, value, drop):
    lines = _lines(journal_bytes)
    i = line % (len(lines) - 1)
    obj = json.loads(lines[i])
    obj.pop("crc")
    if drop:
        obj.pop(key, None)
    else:
        obj[key] = value
    lines[i] = encode_line(obj).rstrip("\n").encode()
    path = _write(tmp_path_factory.mktemp("f"), b"\n".join(lines))
    _reads_or_refuses(path)


@settings(max_examples=BUDGET["resume_edits"], **FUZZ)
@given(edits=EDITS)
def test_resume_never_raises_and_keeps_every_byte(tmp_path_factory, journal_bytes, edits):
    sd = tmp_path_factory.mktemp("r")
    (sd / CURRENT).mkdir()
    data = _mutate(journal_bytes, edits)
    path = _write(sd / CURRENT, data)
    res = MatchSession.resume(sd)
    kept = [p.read_bytes() for p in (sd / DAMAGED).glob("*.jsonl")] if (sd / DAMAGED).is_dir() else []
    if path.exists():
        kept.append(path.read_bytes())
    assert any(k == data or data.startswith(k) for k in kept) or res.session is not None
    # nothing unreadable is left behind in current/: it resumed, or it was moved aside
    live = {res.session.journal_path} if res.session is not None else set()
    assert set((sd / CURRENT).glob("*.jsonl")) <= live, res.messages
    if res.session is not None:
        res.session.close()


@settings(max_examples=BUDGET["store_bytes"], **FUZZ)
@given(edits=st.lists(st.tuples(st.integers(0, 1 << 20), st.binary(min_size=1, max_size=64)),
                      min_size=1, max_size=8))
def test_random_bytes_in_the_records_database_give_only_store_errors(tmp_path_factory, db_bytes, edits):
    d = tmp_path_factory.mktemp("s")
    buf = bytearray(db_bytes)
    for pos, chunk in edits:
        i = pos % len(buf)
        buf[i:i + len(chunk)] = chunk
    db = d / "records.sqlite3"
    db.write_bytes(bytes(buf[: len(db_bytes)]))
    _every_use_raises_only_store_error(db, d)


COLUMNS = [("matches", "journal_id"), ("matches", "game"), ("matches", "finished"), ("matches", "actions"),
           ("matches", "winner_seat"), ("matches", "rules_json"), ("players", "name"),
           ("match_players", "seat"), ("match_players", "total"), ("match_players", "won"),
           ("match_players", "player_id"), ("hands", "results_json"), ("hands", "hand_no"),
           ("hand_steps", "action_json"), ("hand_steps", "events_json"), ("hand_steps", "text"),
           ("hand_steps", "seat")]
SQL_VALUES = st.none() | st.integers(-(1 << 63), (1 << 63) - 1) | st.floats(allow_nan=False) | st.text(max_size=20) \
    | st.binary(max_size=20) | st.sampled_from(["[", "{}", "[1,2]", '{"kind":1}', "null", "[[[[[[", '"x"'])


@settings(max_examples=BUDGET["store_values"], **FUZZ)
@given(changes=st.lists(st.tuples(st.sampled_from(COLUMNS), SQL_VALUES), min_size=1, max_size=4))
def test_random_values_in_the_records_give_only_store_errors(tmp_path_factory, db_bytes, changes):
    d = tmp_path_factory.mktemp("v")
    db = d / "records.sqlite3"
    db.write_bytes(db_bytes)
    with sqlite3.connect(db) as c:
        c.execute("PRAGMA foreign_keys = OFF")
        for (table, column), value in changes:
            c.execute(f"UPDATE OR IGNORE {table} SET {column} = ?", (value,))
    _every_use_raises_only_store_error(db, d)
