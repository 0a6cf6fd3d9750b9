"""rummy.store: records of finished matches, migrations, recall, leaderboard, CSV."""

from __future__ import annotations

import csv
import io
import sqlite3

import pytest

import rummy.games
from display.records_cli import main as records_main
from rummy.gin.bots import RandomPlayer  # any legal action: plays either game
from rummy.players import player
from rummy.session import MatchSession
from rummy.session_runner import default_rules, next_action
from rummy.store import DB_NAME, MIGRATIONS, SCHEMA_VERSION, Store, StoreError, split_hands


@pytest.fixture(autouse=True)
def toy_engine(monkeypatch):
    monkeypatch.setitem(rummy.games.ENGINES, "toy", "test_session_toy:ENGINE")


def play_gin(state_dir, seed, names=("Ann", "Bob"), store=None):
    rules, preset = default_rules("gin", None)
    seats = [{"name": n, "kind": "computer", "bot": "basic"} for n in names]
    s = MatchSession.start(state_dir, "gin", rules, seats, seed=seed, preset=preset, fsync=False)
    players = [player("gin") for _ in seats]
    while not s.is_over:
        s.apply(next_action(s, players))
    return s, s.finish(store)


def play_toy(state_dir, seed, names=("Ann", "Bob"), target=40):
    seats = [{"name": n, "kind": "human"} for n in names]
    s = MatchSession.start(state_dir, "toy", {"target": target}, seats, seed=seed, fsync=False)
    while not s.is_over:
        s.apply(next_action(s, [RandomPlayer()] * len(seats)))
    return s, s.finish(None)


def test_new_database_has_current_schema(tmp_path):
    with Store(tmp_path / "r.db") as store:
        assert store.version == SCHEMA_VERSION == 2
    db = sqlite3.connect(tmp_path / "r.db")
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_gin_match_is_recorded_with_hands_totals_and_winner(tmp_path):
    with Store(tmp_path / DB_NAME) as store:
        session, path = play_gin(tmp_path, 11, store=store)
        (m,) = store.matches()
        state = session.state
        assert m["game"] == "gin" and m["preset"] == "standard"
        assert m["players"] == ["Ann", "Bob"]
        assert m["totals"] == list(state.match_totals)
        assert m["winner"] == state.winner
        assert m["actions"] == session.actions_applied
        assert m["hands"] == sum(1 for a in session_actions(path) if a.kind == "deal")


def session_actions(path):
    from rummy.records import read_journal

    return read_journal(path).actions


def test_recording_twice_is_idempotent(tmp_path):
    _, path = play_gin(tmp_path, 12)
    with Store(tmp_path / DB_NAME) as store:
        first = store.record_match(path)
        assert store.record_match(path) == first
        assert len(store.matches()) == 1


def test_last_hands_recall_steps_in_order(tmp_path):
    with Store(tmp_path / DB_NAME) as store:
        _, path = play_gin(tmp_path, 13, store=store)
        actions = session_actions(path)
        hands = store.last_hands(10)
        assert 1 <= len(hands) <= 10
        assert [h.hand_no for h in hands] == sorted((h.hand_no for h in hands), reverse=True)
        newest = hands[0]
        assert newest.steps[0].action["kind"] == "deal"
        nums = [s.action_no for s in newest.steps]
        assert nums == list(range(nums[0], nums[0] + len(nums)))
        assert nums[-1] == len(actions)  # the last hand ends with the last action
        for step in newest.steps:  # each step is the journalled action, as it happened
            assert step.action == actions[step.action_no - 1].to_dict()
        assert any(r["kind"] == "hand_scored" for r in newest.results)
        assert store.last_hands(1) == hands[:1]


def test_last_hands_spans_matches_newest_first(tmp_path):
    with Store(tmp_path / DB_NAME) as store:
        for seed in (1, 2, 3):
            play_gin(tmp_path, seed, store=store)
        hands = store.last_hands(10)
        assert len(hands) == 10
        ids = [h.match_id for h in hands]
        assert ids == sorted(ids, reverse=True)


def test_leaderboard_by_player_name_case_insensitive(tmp_path):
    with Store(tmp_path / DB_NAME) as store:
        wins = {}
        for seed, names in enumerate([("Ann", "Bob"), ("bob", "Cy"), ("ANN", "Cy")]):
            session, _ = play_gin(tmp_path, seed, names, store=store)
            w = names[session.state.winner].lower()
            wins[w] = wins.get(w, 0) + 1
        board = store.leaderboard()
        assert {r.name.lower(): r.won for r in board if r.won} == wins
        assert {r.name.lower(): r.played for r in board} == {"ann": 2, "bob": 2, "cy": 2}
        assert [r.won for r in board] == sorted((r.won for r in board), reverse=True)
        assert store.leaderboard("contract") == []


def test_export_csv_rows(tmp_path):
    with Store(tmp_path / DB_NAME) as store:
        play_gin(tmp_path, 5, store=store)
        play_gin(tmp_path, 6, ("Cy", "Di"), store=store)
        buf = io.StringIO()
        assert store.export_csv(buf) == 4
    rows = list(csv.DictReader(io.StringIO(buf.getvalue())))
    assert [r["player"] for r in rows] == ["Ann", "Bob", "Cy", "Di"]
    assert sum(int(r["won"]) for r in rows) == 2
    assert set(rows[0]) == set(Store.CSV_FIELDS)


def test_migration_from_version_1_keeps_data(tmp_path):
    path = tmp_path / DB_NAME
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[0])
    db.execute("INSERT INTO players (name) VALUES ('Old Timer')")
    db.execute("INSERT INTO matches (journal_id, journal_name, game, started, finished, actions,"
               " winner_seat, rules_json) VALUES ('x', 'x.jsonl', 'gin', 't0', 't1', 9, 0, '{}')")
    db.execute("INSERT INTO match_players VALUES (1, 0, 1, 'human', 120, 1)")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    with Store(path) as store:
        assert store.version == 2
        (m,) = store.matches()
        assert m["players"] == ["Old Timer"] and m["preset"] == "" and m["totals"] == [120]
        assert store.leaderboard()[0].name == "Old Timer"
        play_gin(tmp_path, 9, store=store)  # the new tables work after migrating
        assert len(store.matches()) == 2 and store.last_hands(1)[0].steps


def test_newer_schema_is_refused_clearly(tmp_path):
    path = tmp_path / DB_NAME
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(StoreError, match="newer than this app"):
        Store(path)


def test_not_a_database_is_refused_clearly(tmp_path):
    path = tmp_path / DB_NAME
    path.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(StoreError, match="not a usable records database"):
        Store(path)


def test_split_hands_starts_a_hand_at_each_deal(tmp_path):
    from rummy.records import replay

    _, path = play_toy(tmp_path, 4, target=200)
    rep = replay(path)
    hands = split_hands(rep.steps)
    assert sum(len(h) for h in hands) == len(rep.steps)
    assert all(h[0][1].kind == "deal" for h in hands)


def test_toy_match_totals_and_highest_total_wins(tmp_path):
    with Store(tmp_path / DB_NAME) as store:
        session, path = play_toy(tmp_path, 1)
        store.record_match(path)
        (m,) = store.matches()
        scores = list(session.state.scores)
        assert m["totals"] == scores and m["winner"] == scores.index(max(scores))


def test_records_cli(tmp_path, capsys):
    with Store(tmp_path / DB_NAME) as store:
        play_gin(tmp_path, 21, ("Ann", "Bob"), store=store)
    sd = ["--state-dir", str(tmp_path)]
    assert records_main(["list", *sd]) == 0
    assert "Ann" in capsys.readouterr().out
    assert records_main(["leaderboard", *sd]) == 0
    assert "win %" in capsys.readouterr().out
    assert records_main(["recall", "2", *sd]) == 0
    out = capsys.readouterr().out
    assert out.count("== match #1") == 2 and "table deal" in out
    out_csv = tmp_path / "out.csv"
    assert records_main(["export", str(out_csv), *sd]) == 0
    assert len(out_csv.read_text().splitlines()) == 3
    assert records_main(["export", *sd]) == 2


def test_records_cli_import_rebuilds_a_lost_database(tmp_path, capsys):
    play_gin(tmp_path, 31)
    play_gin(tmp_path, 32)
    assert records_main(["import", "--state-dir", str(tmp_path)]) == 0
    assert "2 archived match(es) recorded" in capsys.readouterr().out
    with Store(tmp_path / DB_NAME) as store:
        assert len(store.matches()) == 2


def test_records_cli_without_database(tmp_path, capsys):
    assert records_main(["list", "--state-dir", str(tmp_path)]) == 0
    assert "no records yet" in capsys.readouterr().out


def test_contract_match_highest_total_wins_and_ties_share(tmp_path):
    rules, preset = default_rules("contract", None)
    seats = [{"name": n, "kind": "computer", "bot": "basic"} for n in ("Ann", "Bob", "Cy", "Di")]
    with Store(tmp_path / DB_NAME) as store:
        s = MatchSession.start(tmp_path, "contract", rules, seats, seed=3, preset=preset,
                               fsync=False)
        players = [player("contract") for _ in seats]
        while not s.is_over:
            s.apply(next_action(s, players))
        s.finish(store)
        (m,) = store.matches()
        scores = list(s.state.scores)
        assert m["totals"] == scores
        best = max(scores)
        winners = [i for i, x in enumerate(scores) if x == best]  # C-7.4
        board = {r.name: r.won for r in store.leaderboard()}
        assert [seat for seat, name in enumerate(m["players"]) if board[name]] == winners
        assert m["winner"] == (winners[0] if len(winners) == 1 else None)
        assert len(store.last_hands(10)) == 5  # C-3: five deals
