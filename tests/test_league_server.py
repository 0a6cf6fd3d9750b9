"""The league server schema on a real PostgreSQL server: migrations, submissions,
standings, ratings, and every privilege boundary of a table's role, tried and refused."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime, timedelta

import psycopg
import pytest
from league_helpers import LeagueDB
from psycopg import errors

from league import admin, pins, ratings, schema
from league.cli import main as league_main

UID_A = "a" * 64
UID_B = "b" * 64


def ago(**kw):
    return (datetime.now(UTC) - timedelta(**kw)).isoformat(timespec="seconds")


def season(iso_time):
    t = datetime.fromisoformat(iso_time)
    return f"{t.year}-Q{(t.month - 1) // 3 + 1}"


def payload(seats, *, digest="d1", game="gin", finished=None, reason="finished", hands=None):
    finished = finished or ago(minutes=1)
    if hands is None:
        hands = ([[{"kind": "knocked", "seat": 0, "data": {"deadwood": "2S 3H"}}]] if game == "gin"
                 else [[{"kind": "went_out", "seat": 0, "data": {}}]] * 5)  # C-3: five deals
    won = [s["won"] for s in seats]
    winner = won.index(True) if reason == "finished" and won.count(True) == 1 else None
    return json.dumps({"game": game, "preset": "standard",
                       "started": (datetime.fromisoformat(finished) - timedelta(minutes=30)
                                   ).isoformat(timespec="seconds"),
                       "finished": finished, "winner": winner, "reason": reason,
                       "digest": hashlib.sha256(digest.encode()).hexdigest(), "seats": seats,
                       "hands": hands})


def seat(name, league_id=None, points=0, won=False, pin="2468"):
    s = {"name": name, "kind": "human", "points": points, "won": won, "league_id": league_id}
    if league_id is not None:
        s["pin"] = pin  # typed at the table: submit signs the player in first
    return s


def sign_in(conn, player_id, pin, typed=None):
    """The PIN check of the seating screen: the server's seat token for this table (None on
    a schema before seat tokens: version 4 and earlier). ``typed``: a PIN typed off line
    then, checked now (the sync's late check)."""
    if conn.execute("SELECT to_regclass('league.seat_tokens')").fetchone()[0] is None:
        return None
    salt = conn.execute("SELECT league.pin_salt(%s)", (player_id,)).fetchone()[0]
    row = conn.execute("SELECT answer, token FROM league.check_pin(%s, %s, %s)",
                       (player_id, pins.digest_for(salt, pin), typed)).fetchone()
    assert row[0] == "ok", row
    return row[1]


def submit(dsn, uid, body):
    with psycopg.connect(dsn, autocommit=True) as conn:
        p = json.loads(body)
        started = datetime.fromisoformat(p["started"])
        late = started if started < datetime.now(UTC) - timedelta(hours=1) else None
        for s in p["seats"]:
            pin = s.pop("pin", None)
            if pin is not None:
                s["token"] = sign_in(conn, s["league_id"], pin, late)
        return conn.execute("SELECT league.submit_match(%s, %s::jsonb)",
                            (uid, json.dumps(p))).fetchone()[0]


def catalog(conn):
    """The schema as data: columns, views' definitions, functions, grants on league objects."""
    cols = conn.execute(
        "SELECT table_name, column_name, data_type, is_nullable, column_default"
        " FROM information_schema.columns WHERE table_schema = 'league'"
        " ORDER BY table_name, column_name").fetchall()
    views = conn.execute("SELECT viewname, definition FROM pg_views WHERE schemaname = 'league'"
                         " ORDER BY viewname").fetchall()
    funcs = conn.execute(
        "SELECT p.proname, pg_get_function_identity_arguments(p.oid), p.prosecdef, p.proacl::text"
        " FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
        " WHERE n.nspname = 'league' ORDER BY 1, 2").fetchall()
    grants = conn.execute(
        "SELECT table_name, grantee, privilege_type FROM information_schema.role_table_grants"
        " WHERE table_schema = 'league' ORDER BY 1, 2, 3").fetchall()
    indexes = conn.execute("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'league'"
                           " ORDER BY 1").fetchall()
    return cols, views, funcs, grants, indexes


# -- migrations ---------------------------------------------------------------------------
def test_migrations_are_numbered_and_each_is_a_version():
    migs = schema.migrations()
    assert [m.version for m in migs] == list(range(1, schema.SCHEMA_VERSION + 1))
    assert schema.SCHEMA_VERSION >= 4


def test_migrate_from_empty_then_again_is_a_no_op(pg_cluster):
    db = LeagueDB(pg_cluster, "mig_empty", migrate=False)
    try:
        assert schema.current_version(db.conn) == 0
        assert db.migrate() == list(range(1, schema.SCHEMA_VERSION + 1))
        assert schema.current_version(db.conn) == schema.SCHEMA_VERSION
        assert db.migrate() == []
        names = [r[0] for r in db.conn.execute(
            "SELECT name FROM league.schema_version ORDER BY version")]
        assert names == [m.name for m in schema.migrations()]
    finally:
        db.close()


@pytest.mark.parametrize("start", range(1, schema.SCHEMA_VERSION))
def test_migrate_from_each_earlier_version_keeps_data_and_matches_a_fresh_schema(pg_cluster, start):
    fresh = LeagueDB(pg_cluster, f"mig_fresh{start}")
    old = LeagueDB(pg_cluster, f"mig_from{start}", migrate=False)
    try:
        old.migrate(start)
        assert schema.current_version(old.conn) == start
        login = old.table("The Crown", "Table 1")
        ann = old.player("Ann")
        submit(login.dsn, UID_A, payload([seat("Ann", ann, 100, True), seat("Guest", None, 40)]))
        assert old.migrate() == list(range(start + 1, schema.SCHEMA_VERSION + 1))
        # the same schema as migrating from empty (apart from the database's own name)
        assert catalog(old.conn) == catalog(fresh.conn)
        # and the data is still there, readable through the newest views
        assert old.count("SELECT count(*) FROM league.matches") == 1
        row = old.conn.execute("SELECT name, played, won, points FROM league.standings").fetchall()
        assert row == [("Ann", 1, 1, 100)]
        assert submit(login.dsn, UID_A, payload([seat("Ann", ann, 100, True),
                                                 seat("Guest", None, 40)])) == 1
    finally:
        old.close()
        fresh.close()


def test_a_newer_schema_is_refused(league_db):
    league_db.conn.execute("INSERT INTO league.schema_version VALUES (99, 'future', now())")
    with pytest.raises(schema.SchemaError, match="newer than this app"):
        schema.migrate(league_db.conn, schema.SCHEMA_VERSION + 1)


# -- submissions and standings ------------------------------------------------------------
def test_submissions_make_standings_per_game_season_and_venue(league_db):
    a = league_db.table("The Crown", "Table 1")
    b = league_db.table("The Anchor", "Table 1")
    ann, bob = league_db.player("Ann"), league_db.player("Bob")
    early, late = ago(days=25), ago(minutes=5)  # two seasons when a quarter began between
    submit(a.dsn, UID_A, payload([seat("Ann", ann, 120, True), seat("Bob", bob, 30)],
                                 finished=early))
    submit(a.dsn, "c" * 64, payload([seat("Ann", ann, 10), seat("Bob", bob, 110, True)],
                                    finished=late))
    submit(b.dsn, UID_B, payload([seat("Ann", ann, 100, True), seat("Zed", None, -3)],
                                 game="contract"))
    # an abandoned match is kept but does not count
    submit(b.dsn, "d" * 64, payload([seat("Ann", ann, 0), seat("Bob", bob, 0)],
                                    reason="abandoned"))
    st = league_db.conn.execute("SELECT game, season, name, played, won, points"
                                " FROM league.standings ORDER BY 1, 2, 3").fetchall()
    gin_rows = {(season(early), "Ann"): [1, 1, 120], (season(early), "Bob"): [1, 0, 30]}
    for who, row in (("Ann", [1, 0, 10]), ("Bob", [1, 1, 110])):
        got = gin_rows.setdefault((season(late), who), [0, 0, 0])
        gin_rows[(season(late), who)] = [x + y for x, y in zip(got, row, strict=True)]
    assert st == [("contract", season(late), "Ann", 1, 1, 100)] + sorted(
        ("gin", s_, n, *v) for (s_, n), v in gin_rows.items())
    crown = league_db.conn.execute("SELECT name, sum(played) FROM league.venue_standings"
                                   " WHERE venue = 'The Crown' GROUP BY name ORDER BY name"
                                   ).fetchall()
    assert crown == [("Ann", 2), ("Bob", 2)]
    # the guest seat is stored with its name but no league player
    assert league_db.count("SELECT count(*) FROM league.match_seats WHERE player_id IS NULL") == 1
    assert league_db.count("SELECT count(*) FROM league.matches") == 4


def test_the_same_match_twice_is_one_match_and_another_digest_is_refused(league_db):
    a = league_db.table("The Crown", "Table 1")
    ann = league_db.player("Ann")
    body = payload([seat("Ann", ann, 100, True), seat("G", None, 0)])
    first = submit(a.dsn, UID_A, body)
    assert submit(a.dsn, UID_A, body) == first
    with pytest.raises(errors.UniqueViolation, match="another digest"):
        submit(a.dsn, UID_A, payload([seat("Ann", ann, 999, True), seat("G", None, 0)],
                                     digest="tampered"))
    assert league_db.count("SELECT count(*) FROM league.matches") == 1
    assert league_db.count("SELECT sum(points) FROM league.match_seats") == 100


def test_bad_submissions_are_refused(league_db):
    a = league_db.table("The Crown", "Table 1")
    with pytest.raises(errors.InvalidParameterValue):
        submit(a.dsn, "not hex!", payload([seat("A"), seat("B")]))
    with pytest.raises(errors.InvalidParameterValue):
        submit(a.dsn, UID_A, payload([seat("A")]))
    with pytest.raises(errors.CheckViolation):
        submit(a.dsn, UID_A, payload([seat("A"), seat("B")], game="poker"))
    assert league_db.count("SELECT count(*) FROM league.matches") == 0


# -- privilege boundaries -----------------------------------------------------------------
FORBIDDEN_READS = [
    "SELECT * FROM league.matches", "SELECT * FROM league.match_hands",
    "SELECT * FROM league.match_seats", "SELECT * FROM league.players",
    "SELECT pin_hash FROM league.players", "SELECT * FROM league.tables",
    "SELECT * FROM league.venues", "SELECT * FROM league.ratings",
]
FORBIDDEN_WRITES = [
    "UPDATE league.matches SET reason = 'abandoned'", "DELETE FROM league.matches",
    "UPDATE league.match_seats SET points = 1000", "DELETE FROM league.match_seats",
    "INSERT INTO league.matches (table_id, match_uid, game, season, finished, reason, digest)"
    " VALUES (1, 'ffffffffffffffff', 'gin', 'x', now(), 'finished', 'x')",
    "INSERT INTO league.players (name, pin_hash) VALUES ('Mallory', 'x')",
    "UPDATE league.players SET retired = now()",
    "INSERT INTO league.ratings VALUES ('gin', 1, 99, 1, 1, now())",
    "TRUNCATE league.matches", "CREATE TABLE league.mine (x int)", "CREATE TABLE public.mine (x int)",
    "CREATE FUNCTION league.f() RETURNS int LANGUAGE sql AS 'SELECT 1'",
    "SELECT * FROM league.create_table('The Crown', 'Fake', 'SCRAM-SHA-256$4096:YQ==$YQ==:YQ==')",
    "CREATE ROLE mallory LOGIN", "GRANT league_operator TO CURRENT_USER",
]


@pytest.fixture
def crown(league_db):
    a = league_db.table("The Crown", "Table 1")
    b = league_db.table("The Crown", "Table 2")
    ann = league_db.player("Ann", "1357")
    submit(a.dsn, UID_A, payload([seat("Ann", ann, 100, True, "1357"), seat("G", None, 5)]))
    submit(b.dsn, UID_B, payload([seat("Ann", ann, 7, pin="1357"), seat("H", None, 80, True)]))
    return league_db, a, b, ann


@pytest.mark.parametrize("sql", FORBIDDEN_READS + FORBIDDEN_WRITES)
def test_a_table_role_is_refused(crown, sql):
    league_db, a, _b, _ann = crown
    with psycopg.connect(a.dsn, autocommit=True) as conn, pytest.raises(errors.InsufficientPrivilege):
        conn.execute(sql)
    assert league_db.count("SELECT count(*) FROM league.matches") == 2
    assert league_db.count("SELECT sum(points) FROM league.match_seats") == 192


def test_a_table_reads_standings_and_its_own_identity_but_no_pin(crown):
    league_db, a, _b, ann = crown
    with psycopg.connect(a.dsn, autocommit=True) as conn:
        assert conn.execute("SELECT name, played, won FROM league.venue_standings").fetchall() == [
            ("Ann", 2, 1)]
        me = conn.execute("SELECT table_id, table_name, venue FROM league.my_table()").fetchone()
        assert me == (a.cred.table_id, "Table 1", "The Crown")
        assert conn.execute("SELECT * FROM league.league_players()").fetchall() == [(ann, "Ann")]
        salt = conn.execute("SELECT league.pin_salt(%s)", (ann,)).fetchone()[0]
    stored = league_db.conn.execute("SELECT pin_hash FROM league.players").fetchone()[0]
    assert stored.startswith(salt + "$") and stored.rsplit("$", 1)[1] not in salt


def test_a_table_cannot_submit_as_another_table_or_change_its_own(crown):
    league_db, a, b, ann = crown
    # a match id is one table's for good: B cannot send A's (a replay, issue 31)
    with pytest.raises(errors.UniqueViolation, match="belongs to another table"):
        submit(b.dsn, UID_A, payload([seat("Ann", ann, 1, pin="1357"),
                                      seat("X", None, 50, True)], digest="other"))
    owners = league_db.conn.execute("SELECT table_id FROM league.matches WHERE match_uid = %s"
                                    " ORDER BY id", (UID_A,)).fetchall()
    assert owners == [(a.cred.table_id,)]
    # and A cannot rewrite what it sent
    with pytest.raises(errors.UniqueViolation):
        submit(a.dsn, UID_A, payload([seat("Ann", ann, 0, pin="1357"), seat("G", None, 500, True)],
                                     digest="rewritten"))
    assert league_db.conn.execute("SELECT points FROM league.match_seats s JOIN league.matches m"
                                  " ON m.id = s.match_id WHERE m.id = 1 ORDER BY seat"
                                  ).fetchall() == [(100,), (5,)]


def test_a_retired_table_cannot_submit(crown):
    league_db, a, _b, ann = crown
    with league_db.operator() as op:
        admin.retire_table(op, a.cred.table_id)
    with pytest.raises(errors.InsufficientPrivilege, match="not an active league table"):
        submit(a.dsn, "e" * 64, payload([seat("Ann", ann, pin="1357"), seat("G", won=True)]))


def test_another_login_is_not_a_table(league_db):
    league_db.conn.execute("CREATE ROLE stranger LOGIN PASSWORD 'pw'")
    dsn = league_db.cluster.dsn(league_db.name, user="stranger", password="pw")
    with pytest.raises(psycopg.OperationalError, match="CONNECT privilege"):  # not even that
        psycopg.connect(dsn).close()
    league_db.conn.execute("GRANT league_table TO stranger")  # a table's group, but no table row
    with pytest.raises(errors.InsufficientPrivilege, match="not an active league table"):
        submit(dsn, UID_A, payload([seat("A", won=True), seat("B")]))


def test_a_wrong_password_is_refused(crown):
    _db, a, _b, _ann = crown
    pw = a.cred.password
    bad = a.dsn.replace(pw, pw[:-1] + ("y" if pw.endswith("x") else "x"))  # one letter off
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        psycopg.connect(bad).close()


def test_operator_administers(league_db):
    with league_db.operator() as op:
        vid = admin.add_venue(op, "The Crown")
        cred = admin.add_table(op, "The Crown", "Corner")
        pid = admin.add_player(op, "Ann", "2468")
        assert op.execute("SELECT venue_id, name, role_name FROM league.tables").fetchall() == [
            (vid, "Corner", cred.role)]
        assert pins.verify(op.execute("SELECT pin_hash FROM league.players WHERE id = %s",
                                      (pid,)).fetchone()[0], "2468")
        with pytest.raises(errors.ForeignKeyViolation):
            admin.add_table(op, "Nowhere", "T")
        with pytest.raises(errors.InvalidParameterValue, match="SCRAM"):
            op.execute("SELECT * FROM league.create_table('The Crown', 'T2', 'plain-password')")
    # the role's password is stored only as a verifier
    stored = league_db.conn.execute("SELECT rolpassword FROM pg_authid WHERE rolname = %s",
                                    (cred.role,)).fetchone()[0]
    assert stored.startswith("SCRAM-SHA-256$") and cred.password not in stored


def test_pin_check_on_the_server_with_lockout(crown):
    _db, a, _b, ann = crown
    with psycopg.connect(a.dsn, autocommit=True) as conn:
        salt = conn.execute("SELECT league.pin_salt(%s)", (ann,)).fetchone()[0]

        def check(pin):
            return conn.execute("SELECT answer FROM league.check_pin(%s, %s)",
                                (ann, pins.digest_for(salt, pin))).fetchone()[0]

        assert check("1357") == "ok"
        assert [check("0000") for _ in range(5)] == ["wrong"] * 5
        assert check("1357") == "locked"  # five wrong: ten minutes locked, even the right PIN
        assert conn.execute("SELECT answer FROM league.check_pin(99999, 'x')"
                            ).fetchone()[0] == "unknown"


# -- ratings --------------------------------------------------------------------------------
def test_seat_ranks():
    assert ratings.seat_ranks([True, False], [120, 30]) == [1, 2]
    assert ratings.seat_ranks([False, True, False, False], [40, 90, 60, 40]) == [3, 1, 2, 3]
    assert ratings.seat_ranks([True, True, False], [50, 50, 10]) == [1, 1, 2]
    assert ratings.seat_ranks([True, False, False], [5, 30, 80]) == [1, 2, 3]  # low is good


def test_ratings_for_two_and_for_many_players(league_db):
    a = league_db.table("The Crown", "Table 1")
    ann, bob, cy, di = (league_db.player(n) for n in ("Ann", "Bob", "Cy", "Di"))
    for i in range(6):  # Ann beats Bob at gin every time
        submit(a.dsn, f"{i:064x}", payload([seat("Ann", ann, 100, True), seat("Bob", bob, 20)],
                                          digest=f"g{i}"))
    for i in range(4):  # contract rummy, four players: Cy first, then Di, Ann, Bob
        submit(a.dsn, f"{100 + i:064x}", payload(
            [seat("Ann", ann, 30), seat("Bob", bob, 10), seat("Cy", cy, 90, True),
             seat("Di", di, 60)], game="contract", digest=f"c{i}"))
    with league_db.operator() as op:
        assert ratings.rate(op) == {"gin": 6, "contract": 4}
        assert ratings.rate(op) == {"gin": 6, "contract": 4}  # repeatable: rewritten, not added
        gin = op.execute("SELECT name, rating FROM league.standings WHERE game = 'gin'"
                         " ORDER BY rating DESC").fetchall()
        contract = [n for n, _ in op.execute(
            "SELECT name, rating FROM league.standings WHERE game = 'contract'"
            " ORDER BY rating DESC").fetchall()]
        assert op.execute("SELECT count(*) FROM league.ratings").fetchone()[0] == 6
    assert [n for n, _ in gin] == ["Ann", "Bob"] and gin[0][1] > gin[1][1]
    assert contract == ["Cy", "Di", "Ann", "Bob"]


# -- the command line ------------------------------------------------------------------------
def test_cli_migrate_add_and_standings(pg_cluster, capsys):
    db = LeagueDB(pg_cluster, "cli", migrate=False)
    try:
        assert league_main(["--dsn", db.super_dsn, "migrate"]) == 0
        assert f"0 -> {schema.SCHEMA_VERSION}" in capsys.readouterr().out
        assert league_main(["--dsn", db.super_dsn, "migrate"]) == 0
        assert "up to date" in capsys.readouterr().out
        db.migrate()  # the operator login
        op = ["--dsn", db.op_dsn]
        assert league_main([*op, "add-venue", "The Crown"]) == 0
        assert league_main([*op, "add-table", "--venue", "The Crown", "Bar"]) == 0
        out = capsys.readouterr().out
        password = next(line.split()[-1] for line in out.splitlines() if "password:" in line)
        role = next(line.split()[-1] for line in out.splitlines() if "role:" in line)
        assert 'user = "' + role + '"' in out and "table_id = 1" in out
        assert league_main([*op, "add-player", "Ann", "--pin", "4321", "--venue", "The Crown"]) == 0
        assert league_main([*op, "add-player", "Bob", "--pin", "12"]) == 1  # too short
        assert "4 to 8 digits" in capsys.readouterr().err
        ann = db.count("SELECT id FROM league.players WHERE name = 'Ann'")
        submit(db.cluster.dsn("cli", user=role, password=password), UID_A,
               payload([seat("Ann", ann, 100, True, "4321"), seat("G", None, 1)]))
        assert league_main([*op, "rate"]) == 0
        assert league_main([*op, "standings", "--venue", "The Crown"]) == 0
        out = capsys.readouterr().out
        assert "gin 1 matches" not in out  # one league player: nobody to rate against
        assert "Ann" in out and season(ago(minutes=1)) in out
        assert league_main(["--dsn", db.cluster.dsn("cli", password="wrong"), "migrate"]) == 1
        assert "password authentication failed" in capsys.readouterr().err
    finally:
        db.close()
