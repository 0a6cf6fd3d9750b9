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


def play_gin(state_dir, seed, names=("Ann", "Bob"), store=None, kind="human"):
    """A gin match played by the basic bot for seats of ``kind`` (human seats by default:
    matches of computers only are not recorded)."""
    seats = [{"name": n, "kind": kind, "bot": "basic"} for n in names]
    return play_gin_seats(state_dir, seed, seats, store)


def play_gin_seats(state_dir, seed, seats, store=None):
    """A gin match played by the basic bot for the given ``seats``; the session and what
    ``finish`` gave."""
    rules, preset = default_rules("gin", None)
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
        assert store.version == SCHEMA_VERSION == len(MIGRATIONS) == 4
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
        assert store.version == SCHEMA_VERSION
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
    assert out.count("(match #1,") == 2 and "dealt" in out and "seat 0" not in out
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
    seats = [{"name": n, "kind": "human", "bot": "basic"} for n in ("Ann", "Bob", "Cy", "Di")]
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


# -- honest records (issue 11, item 4) ---------------------------------------------------------
def play_part(state_dir, seed, names=("Ann", "Bob"), actions=40, kind="human"):
    """A gin match given up after ``actions`` moves (still open)."""
    rules, preset = default_rules("gin", None)
    seats = [{"name": n, "kind": kind, "bot": "basic"} for n in names]
    s = MatchSession.start(state_dir, "gin", rules, seats, seed=seed, preset=preset, fsync=False)
    players = [player("gin") for _ in seats]
    for _ in range(actions):
        s.apply(next_action(s, players))
    assert not s.is_over
    return s


def test_an_abandoned_match_is_recorded_as_abandoned_no_win_no_points(tmp_path):
    with Store(tmp_path / DB_NAME) as store:
        s = play_part(tmp_path, 41, ("Eve", "Fay"))
        s.finish(store, reason="abandoned")  # the operator's "End this match now"
        (m,) = store.matches()
        assert m["reason"] == "abandoned" and m["winner"] is None and m["winners"] == []
        board = store.leaderboard("gin")
        assert {(r.name, r.played, r.won, r.points, r.abandoned) for r in board} == {
            ("Eve", 0, 0, 0, 1), ("Fay", 0, 0, 0, 1)}
        assert all(r.win_rate == 0 for r in board)
        assert len(store.last_hands(10)) >= 1  # its hands are still there to recall
        session, _ = play_gin(tmp_path, 42, ("Eve", "Fay"), store=store)
        board = {r.name: r for r in store.leaderboard("gin")}
        winner = ("Eve", "Fay")[session.state.winner]
        assert board[winner].played == 1 and board[winner].won == 1 and board[winner].abandoned == 1
        assert board[winner].points == session.state.match_totals[session.state.winner]


def test_import_records_abandoned_matches_without_a_win(tmp_path, capsys):
    """The import path: five people each at one abandoned match were 1 played, 1 won."""
    for i, pair in enumerate((("Ann", "Bob"), ("Cy", "Di"), ("Eve", "Ann"))):
        play_part(tmp_path, 50 + i, pair).finish(None, reason="abandoned")
    play_gin(tmp_path, 60, ("Cy", "Di"))
    assert records_main(["import", "--state-dir", str(tmp_path)]) == 0
    assert "4 archived match(es) recorded" in capsys.readouterr().out
    with Store(tmp_path / DB_NAME) as store:
        ms = store.matches()
        assert [m["reason"] for m in ms].count("abandoned") == 3
        board = {r.name: r for r in store.leaderboard("gin")}
        assert sum(r.won for r in board.values()) == 1
        assert board["Ann"].played == 0 and board["Ann"].won == 0 and board["Ann"].abandoned == 2
        assert board["Cy"].played == board["Di"].played == 1
    assert records_main(["list", "--state-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.count("abandoned: no winner") == 3


def test_matches_of_computers_only_stay_out_unless_asked(tmp_path, capsys):
    with Store(tmp_path / DB_NAME) as store:
        _, path = play_gin(tmp_path, 70, ("Computer 1", "Computer 2"), store=store, kind="computer")
        assert store.matches() == [] and store.record_match(path) is None
    assert path.parent.name == "archive"  # archived all the same
    assert records_main(["import", "--state-dir", str(tmp_path)]) == 0
    assert "1 of computers only left out" in capsys.readouterr().out
    with Store(tmp_path / DB_NAME, record_bots=True) as store:
        assert store.record_match(path) is not None and len(store.matches()) == 1
        assert store.leaderboard() == []  # humans only by default
        assert {r.name for r in store.leaderboard(humans_only=False)} == {"Computer 1", "Computer 2"}
    assert records_main(["leaderboard", "--all", "--state-dir", str(tmp_path)]) == 0
    assert "Computer 1" in capsys.readouterr().out


def test_a_human_against_the_computer_is_recorded_the_computer_listed_with_all(tmp_path):
    seats = [{"name": "Gus", "kind": "human", "named": True},
             {"name": "Computer 2", "kind": "computer", "bot": "basic", "named": False}]
    with Store(tmp_path / DB_NAME) as store:
        play_gin_seats(tmp_path, 71, seats, store)
        assert [r.name for r in store.leaderboard()] == ["Gus"]
        assert {r.name for r in store.leaderboard(humans_only=False)} == {"Gus", "Computer 2"}


def test_default_seat_names_are_not_players(tmp_path):
    """Every "Player 1" of different matches is not one row; entered names are."""
    with Store(tmp_path / DB_NAME) as store:
        play_gin(tmp_path, 80, ("Player 1", "Ann"), store=store)
        play_gin(tmp_path, 81, ("Player 1", "Player 2"), store=store)
        play_gin(tmp_path, 82, ("Jogador 1", "Игрок 2"), store=store)
        assert [r.name for r in store.leaderboard()] == ["Ann"]
        assert len(store.matches()) == 3  # the matches are recorded all the same
    seats = [{"name": "Player 1", "kind": "human", "named": True},  # typed in as a name
             {"name": "Ann", "kind": "human", "named": True}]
    with Store(tmp_path / DB_NAME) as store:
        play_gin_seats(tmp_path, 83, seats, store)
        assert {r.name for r in store.leaderboard()} == {"Ann", "Player 1"}
        assert next(r for r in store.leaderboard() if r.name == "Player 1").played == 1


def _board_db(tmp_path, rows):
    """A store with finished matches given as (game, [(name, total, won), ...])."""
    store = Store(tmp_path / DB_NAME)
    db = store._db
    for n, (game, seats) in enumerate(rows, start=1):
        db.execute("INSERT INTO matches (journal_id, journal_name, game, started, finished, actions,"
                   " winner_seat, rules_json) VALUES (?, ?, ?, 't0', 't1', 1, NULL, '{}')",
                   (f"j{n}", f"j{n}.jsonl", game))
        for seat, (name, total, won) in enumerate(seats):
            db.execute("INSERT OR IGNORE INTO players (name) VALUES (?)", (name,))
            pid = db.execute("SELECT id FROM players WHERE name = ?", (name,)).fetchone()[0]
            db.execute("INSERT INTO match_players (match_id, seat, player_id, kind, total, won)"
                       " VALUES (?, ?, ?, 'human', ?, ?)", (n, seat, pid, total, won))
    return store


def test_leaderboard_per_game_ties_by_points_then_a_shared_rank(tmp_path):
    with _board_db(tmp_path, [
        ("gin", [("Zed", 300, 1), ("Amy", 100, 0)]),
        ("gin", [("Bea", 250, 1), ("Cal", 120, 0)]),
        ("gin", [("Cal", 300, 1), ("Amy", 80, 0)]),
        ("contract", [("Zed", -40, 0), ("Amy", 25, 1)]),
        ("contract", [("Dan", 25, 1), ("Eli", -99, 0)]),  # a tie with Amy: wins and points
    ]) as store:
        gin = store.leaderboard("gin")
        # Cal and Zed: one win each; Cal 420 points, Zed 300: sorted by points, not name
        assert [(r.rank, r.name, r.won, r.points) for r in gin] == [
            (1, "Cal", 1, 420), (2, "Zed", 1, 300), (3, "Bea", 1, 250), (4, "Amy", 0, 180)]
        contract = store.leaderboard("contract")
        assert [(r.rank, r.name) for r in contract] == [(1, "Amy"), (1, "Dan"), (3, "Zed"), (4, "Eli")]
        both = store.leaderboard()  # every game's board, never one column of points
        assert {r.game for r in both} == {"gin", "contract"}
        assert [r for r in both if r.game == "gin"] == gin
        assert next(r for r in both if r.name == "Zed" and r.game == "contract").points == -40


def test_records_cli_leaderboard_one_board_per_game(tmp_path, capsys):
    _board_db(tmp_path, [("gin", [("Amy", 100, 1), ("Bea", 50, 0)]),
                         ("contract", [("Amy", 5, 1), ("Bea", 5, 1)])]).close()
    assert records_main(["leaderboard", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "== gin" in out and "== contract" in out
    contract = out.split("== contract")[1]
    assert contract.count(" 1= ") == 2  # Amy and Bea share first place


def test_migration_3_takes_the_win_from_abandoned_matches_of_an_old_store(tmp_path):
    """A version-2 store as ``records import`` left it: an abandoned match won, default
    names merged into one "Player 1"."""
    quit_ = play_part(tmp_path, 90, ("Ann", "Player 1"))
    abandoned = quit_.finish(None, reason="abandoned")
    _, finished = play_gin(tmp_path, 91, ("Bob", "Player 1"))
    path = tmp_path / DB_NAME
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[0] + ";" + MIGRATIONS[1])
    db.execute("INSERT INTO players (name) VALUES ('Ann'), ('Player 1'), ('Bob')")
    for mid, (journal, seats) in enumerate(((abandoned, ((1, 1), (2, 0))),
                                            (finished, ((3, 1), (2, 0)))), start=1):
        db.execute("INSERT INTO matches (journal_id, journal_name, game, started, finished, actions,"
                   " winner_seat, rules_json) VALUES (?, ?, 'gin', 't0', 't1', 9, 0, '{}')",
                   (f"j{mid}", journal.name))
        for seat, (pid, won) in enumerate(seats):
            db.execute("INSERT INTO match_players VALUES (?, ?, ?, 'human', 50, ?)", (mid, seat, pid, won))
    db.execute("PRAGMA user_version = 2")
    db.commit()
    db.close()
    with Store(path) as store:
        assert store.version == SCHEMA_VERSION
        old, new = store.matches()[::-1]
        assert old["reason"] == "abandoned" and old["winner"] is None and old["winners"] == []
        assert new["reason"] == "finished" and new["winners"] == [0]
        board = {r.name: r for r in store.leaderboard("gin")}
        assert set(board) == {"Ann", "Bob"}  # "Player 1" is nobody
        assert (board["Ann"].won, board["Ann"].played, board["Ann"].abandoned) == (0, 0, 1)
        assert (board["Bob"].won, board["Bob"].points) == (1, 50)
