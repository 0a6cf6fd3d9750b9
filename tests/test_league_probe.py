"""Issue 31: a probe of the league server, connected as one table's own role.

Every attack a table could make with its own login (the issue's "Why") is tried against
the real server and must be refused; at the end, the standings recomputed from the
legitimate matches alone equal the server's. Before the fix (schema version 4) 25 of the
31 attacks here went through; after it none do.

The legitimate path is the one the table's sync uses: a PIN typed at the table and
checked by the server (``league.check_pin``, which hands back a short-lived seat token),
then ``league.submit_match`` with that token on the league player's seat.
"""

from __future__ import annotations

import json
import threading
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest
from league_helpers import LeagueDB, enrol
from psycopg import errors

from league import pins, schema

PIN = {"Ann": "1357", "Bob": "2468", "Cy": "3579", "Di": "4680", "Eve": "5791"}


def now() -> datetime:
    return datetime.now(UTC)


def iso(t: datetime) -> str:
    return t.isoformat(timespec="seconds")


def sign_in(dsn: str, player: int, pin: str) -> str | None:
    """The table's PIN check; the seat token the server hands back (None from a server
    without seat tokens: schema version 4)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        salt = conn.execute("SELECT league.pin_salt(%s)", (player,)).fetchone()[0]
        if salt is None:
            return None
        cur = conn.execute("SELECT * FROM league.check_pin(%s, %s)",
                           (player, pins.digest_for(salt, pin)))
        row = cur.fetchone()
        if len(cur.description) == 1:
            return None  # the old server: a bare answer
        return str(row[1]) if row[0] == "ok" else None


def check(dsn: str, player: int, digest: str) -> str:
    with psycopg.connect(dsn, autocommit=True) as conn:
        return str(conn.execute("SELECT * FROM league.check_pin(%s, %s)",
                                (player, digest)).fetchone()[0])


def gin_hands(winner: int, n: int = 3, points: int = 30) -> list[list[dict[str, Any]]]:
    """``n`` hands won by ``winner`` with a knock worth ``points`` each (G-12)."""
    return [[{"kind": "knocked", "seat": winner, "data": {"count": 2}},
             {"kind": "hand_scored", "seat": winner,
              "data": {"outcome": "knock", "points": points, "winner": winner, "boxes": 1}}]
            for _ in range(n)]


def gin_match(seats: list[dict[str, Any]], *, winner: int = 0, finished: datetime | None = None,
              hands: list | None = None, digest: str = "d" * 64) -> dict[str, Any]:
    fin = finished or now()
    return {"game": "gin", "preset": "standard", "started": iso(fin - timedelta(minutes=20)),
            "finished": iso(fin), "winner": winner, "reason": "finished", "digest": digest,
            "seats": seats, "hands": gin_hands(winner) if hands is None else hands}


def seat(name: str, pid: int | None = None, token: str | None = None, *, points: int = 0,
         won: bool = False, kind: str = "human") -> dict[str, Any]:
    s: dict[str, Any] = {"name": name, "kind": kind, "points": points, "won": won,
                         "league_id": pid}
    if token is not None:
        s["token"] = token
    return s


def submit(dsn: str, uid: str, body: dict[str, Any] | str) -> int:
    text = body if isinstance(body, str) else json.dumps(body)
    with psycopg.connect(dsn, autocommit=True) as conn:
        return int(conn.execute("SELECT league.submit_match(%s, %s::jsonb)",
                                (uid, text)).fetchone()[0])


class Probe:
    """Two venues: The Crown (tables A and A2; Ann, Bob, Di, Eve enrolled) and The Anchor
    (table B; Cy enrolled). Di is retired; Eve gets locked out."""

    def __init__(self, db: LeagueDB) -> None:
        self.db = db
        self.a = db.table("The Crown", "Table 1")
        self.a2 = db.table("The Crown", "Table 2")
        self.b = db.table("The Anchor", "Table 1")
        self.ids = {n: db.player(n, PIN[n], venues=[v]) for n, v in
                    (("Ann", "The Crown"), ("Bob", "The Crown"), ("Cy", "The Anchor"),
                     ("Di", "The Crown"), ("Eve", "The Crown"))}
        with db.operator() as op:
            op.execute("UPDATE league.players SET retired = now() WHERE name = 'Di'")
        self.legit: list[dict[str, Any]] = []
        self._n = 0

    def uid(self) -> str:
        self._n += 1
        return f"{0xA11CE000 + self._n:064x}"

    def token(self, name: str, login=None) -> str | None:
        return sign_in((login or self.a).dsn, self.ids[name], PIN[name])

    def legit_match(self, login=None, *, points=(120, 30)) -> tuple[str, dict[str, Any]]:
        """Ann beats Bob at table A (or ``login``), both signed in with their PINs."""
        login = login or self.a
        ta, tb = self.token("Ann", login), self.token("Bob", login)
        body = gin_match([seat("Ann", self.ids["Ann"], ta, points=points[0], won=True),
                          seat("Bob", self.ids["Bob"], tb, points=points[1])],
                         digest=f"{self._n + 1:064x}")
        uid = self.uid()
        submit(login.dsn, uid, body)
        self.legit.append(body)
        return uid, body

    def matches(self) -> int:
        return self.db.count("SELECT count(*) FROM league.matches"
                             " WHERE reason NOT IN ('replayed')")


@pytest.fixture
def probe(league_db) -> Probe:
    return Probe(league_db)


# -- attacks on the data: each returns (login, uid, payload) for submit_match ------------------
def replay_other_tables_match(p: Probe):
    uid, body = p.legit_match(p.a2)  # table A2's real match, replayed by A
    return p.a, uid, body


def replay_other_tables_match_new_digest(p: Probe):
    uid, body = p.legit_match(p.a2)
    return p.a, uid, {**body, "digest": "e" * 64}


def player_of_another_venue(p: Probe):
    tc = p.token("Cy", p.a)  # Cy plays at The Anchor, not here
    return p.a, p.uid(), gin_match([seat("Ann", p.ids["Ann"], p.token("Ann"), points=120,
                                         won=True), seat("Cy", p.ids["Cy"], tc, points=3)])


def player_of_another_venue_with_its_token(p: Probe):
    tc = p.token("Cy", p.b)  # a token issued to table B, used at table A
    return p.a, p.uid(), gin_match([seat("Ann", p.ids["Ann"], p.token("Ann"), points=120,
                                         won=True), seat("Cy", p.ids["Cy"], tc, points=3)])


def nonexistent_player(p: Probe):
    return p.a, p.uid(), gin_match([seat("Ann", p.ids["Ann"], p.token("Ann"), points=120,
                                         won=True), seat("Ghost", 424242, "f" * 64, points=3)])


def retired_player(p: Probe):
    return p.a, p.uid(), gin_match([seat("Ann", p.ids["Ann"], p.token("Ann"), points=120,
                                         won=True), seat("Di", p.ids["Di"], None, points=3)])


def pin_never_checked(p: Probe):
    return p.a, p.uid(), gin_match([seat("Ann", p.ids["Ann"], p.token("Ann"), points=120,
                                         won=True), seat("Bob", p.ids["Bob"], None, points=3)])


def forged_token(p: Probe):
    return p.a, p.uid(), gin_match([seat("Ann", p.ids["Ann"], p.token("Ann"), points=120,
                                         won=True), seat("Bob", p.ids["Bob"], "0" * 64, points=3)])


def another_players_token(p: Probe):
    ta = p.token("Ann")  # Ann's token on Bob's seat
    return p.a, p.uid(), gin_match([seat("Ann", p.ids["Ann"], p.token("Ann"), points=120,
                                         won=True), seat("Bob", p.ids["Bob"], ta, points=3)])


def locked_out_player(p: Probe):
    with psycopg.connect(p.a.dsn, autocommit=True) as conn:
        salt = conn.execute("SELECT league.pin_salt(%s)", (p.ids["Eve"],)).fetchone()[0]
    for _ in range(6):
        check(p.a.dsn, p.ids["Eve"], pins.digest_for(salt, "0000"))
    te = p.token("Eve")  # the right PIN, but Eve is locked: no token
    return p.a, p.uid(), gin_match([seat("Ann", p.ids["Ann"], p.token("Ann"), points=120,
                                         won=True), seat("Eve", p.ids["Eve"], te, points=3)])


def same_player_both_seats(p: Probe):
    return p.a, p.uid(), gin_match([seat("Ann", p.ids["Ann"], p.token("Ann"), points=120,
                                         won=True), seat("Ann", p.ids["Ann"], p.token("Ann"))])


def computer_seat_with_league_id(p: Probe):
    return p.a, p.uid(), gin_match([seat("Ann", p.ids["Ann"], p.token("Ann"), points=120,
                                         won=True),
                                    seat("Bob", p.ids["Bob"], p.token("Bob"), kind="computer")])


def negative_score(p: Probe):
    return p.a, p.uid(), gin_match([seat("Ann", p.ids["Ann"], p.token("Ann"), points=120,
                                         won=True),
                                    seat("Bob", p.ids["Bob"], p.token("Bob"), points=-1_000_000)])


def absurd_score(p: Probe):
    return p.a, p.uid(), gin_match([seat("Ann", p.ids["Ann"], p.token("Ann"), points=2**31 - 1,
                                         won=True), seat("Bob", p.ids["Bob"], p.token("Bob"))])


def score_beyond_the_hands(p: Probe):  # 3 hands cannot make 5,000 points (G-12, G-14)
    return p.a, p.uid(), gin_match([seat("Ann", p.ids["Ann"], p.token("Ann"), points=5000,
                                         won=True), seat("Bob", p.ids["Bob"], p.token("Bob"))])


def every_seat_a_winner(p: Probe):
    return p.a, p.uid(), gin_match([seat("Ann", p.ids["Ann"], p.token("Ann"), points=120,
                                         won=True),
                                    seat("Bob", p.ids["Bob"], p.token("Bob"), points=120,
                                         won=True)])


def winner_seat_99(p: Probe):
    return p.a, p.uid(), gin_match([seat("Ann", p.ids["Ann"], p.token("Ann"), points=120,
                                         won=True), seat("Bob", p.ids["Bob"], p.token("Bob"))],
                                   winner=99)


def no_winner_in_a_finished_match(p: Probe):
    return p.a, p.uid(), gin_match([seat("Ann", p.ids["Ann"], p.token("Ann"), points=120),
                                    seat("Bob", p.ids["Bob"], p.token("Bob"))], winner=None)


def three_seats_at_gin(p: Probe):
    return p.a, p.uid(), gin_match([seat("Ann", p.ids["Ann"], p.token("Ann"), points=120,
                                         won=True), seat("Bob", p.ids["Bob"], p.token("Bob")),
                                    seat("Guest")])


def twenty_thousand_hands(p: Probe):
    return p.a, p.uid(), gin_match([seat("Ann", p.ids["Ann"], p.token("Ann"), points=120,
                                         won=True), seat("Bob", p.ids["Bob"], p.token("Bob"))],
                                   hands=gin_hands(0, 20_000, 1))


def seven_contract_deals(p: Probe):  # C-3: five deals
    body = gin_match([seat("Ann", p.ids["Ann"], p.token("Ann"), points=100, won=True),
                      seat("Bob", p.ids["Bob"], p.token("Bob"), points=-40)],
                     hands=[[{"kind": "deal_scored", "seat": 0, "data": {}}]] * 7)
    return p.a, p.uid(), {**body, "game": "contract", "preset": "seed_002"}


def ten_megabyte_payload(p: Probe):
    body = gin_match([seat("Ann", p.ids["Ann"], p.token("Ann"), points=120, won=True),
                      seat("Bob", p.ids["Bob"], p.token("Bob"))])
    body["hands"][0][0]["data"]["padding"] = "x" * 10_000_000
    return p.a, p.uid(), body


def ten_megabyte_name(p: Probe):
    return p.a, p.uid(), gin_match([seat("Ann", p.ids["Ann"], p.token("Ann"), points=120,
                                         won=True), seat("G" * 10_000_000)])


def ten_megabyte_preset(p: Probe):
    body = gin_match([seat("Ann", p.ids["Ann"], p.token("Ann"), points=120, won=True),
                      seat("Guest")])
    return p.a, p.uid(), {**body, "preset": "p" * 10_000_000}


def finished_in_1970(p: Probe):
    return p.a, p.uid(), gin_match([seat("Ann", p.ids["Ann"], p.token("Ann"), points=120,
                                         won=True), seat("Bob", p.ids["Bob"], p.token("Bob"))],
                                   finished=datetime(1970, 1, 2, tzinfo=UTC))


def finished_in_9999(p: Probe):
    return p.a, p.uid(), gin_match([seat("Ann", p.ids["Ann"], p.token("Ann"), points=120,
                                         won=True), seat("Bob", p.ids["Bob"], p.token("Bob"))],
                                   finished=datetime(9999, 6, 1, tzinfo=UTC))


DATA_ATTACKS = [
    replay_other_tables_match, replay_other_tables_match_new_digest, player_of_another_venue,
    player_of_another_venue_with_its_token, nonexistent_player, retired_player,
    pin_never_checked, forged_token, another_players_token, locked_out_player,
    same_player_both_seats, computer_seat_with_league_id, negative_score, absurd_score,
    score_beyond_the_hands, every_seat_a_winner, winner_seat_99, no_winner_in_a_finished_match,
    three_seats_at_gin, twenty_thousand_hands, seven_contract_deals, ten_megabyte_payload,
    ten_megabyte_name, ten_megabyte_preset, finished_in_1970, finished_in_9999,
]


def try_attack(p: Probe, attack) -> bool:
    """True when the server took the attack (a match was stored or changed)."""
    login, uid, body = attack(p)
    before = p.matches()
    try:
        submit(login.dsn, uid, body)
    except psycopg.Error:
        return False
    return p.matches() > before or attack in (replay_other_tables_match,)


@pytest.mark.parametrize("attack", DATA_ATTACKS, ids=lambda f: f.__name__)
def test_a_dishonest_match_is_refused(probe, attack):
    probe.legit_match()  # the table's honest matches still go in
    assert not try_attack(probe, attack), f"{attack.__name__} went through"
    assert probe.matches() == len(probe.legit)


def test_the_honest_match_and_its_resend_are_taken(probe):
    uid, body = probe.legit_match()
    assert submit(probe.a.dsn, uid, body) == submit(probe.a.dsn, uid, body)  # a resend
    assert probe.matches() == 1


# -- attacks on the server itself -------------------------------------------------------------
def table_conn(login) -> psycopg.Connection[Any]:
    return psycopg.connect(login.dsn, autocommit=True)


@pytest.mark.parametrize("sql", [
    "SELECT rolname FROM pg_roles", "SELECT usename FROM pg_user",
    "SELECT * FROM pg_auth_members", "SELECT usename FROM pg_stat_activity",
    "SELECT setrole FROM pg_db_role_setting",
])
def test_a_table_cannot_list_the_roles(probe, sql):
    with table_conn(probe.a) as conn:
        try:
            rows = conn.execute(sql).fetchall()
        except errors.InsufficientPrivilege:
            return
    others = {r[0] for r in rows} - {probe.a.cred.role, None}
    assert not others, f"{sql} shows {len(others)} other roles"


@pytest.mark.parametrize("sql", [
    "SELECT lo_from_bytea(0, 'x'::bytea)", "SELECT lo_create(0)", "SELECT lo_creat(-1)",
])
def test_a_table_cannot_write_large_objects(probe, sql):
    with table_conn(probe.a) as conn, pytest.raises(errors.InsufficientPrivilege):
        conn.execute(sql)
    assert probe.db.count("SELECT count(*) FROM pg_largeobject_metadata") == 0


def test_a_table_cannot_change_its_password(probe):
    """PostgreSQL lets any role set its own password (ALTER ROLE is not hookable in SQL):
    the server notices the changed verifier and the role can no longer do anything in the
    league, so a thief who changes it locks himself (and nobody else) out."""
    login = probe.a
    try:
        with table_conn(login) as conn:
            conn.execute("ALTER ROLE CURRENT_USER PASSWORD 'mine-now'")
    except errors.InsufficientPrivilege:
        return
    dsn = login.dsn.replace(login.cred.password, "mine-now")
    with psycopg.connect(dsn, autocommit=True) as conn:
        for sql in ("SELECT * FROM league.my_table()",
                    f"SELECT league.pin_salt({probe.ids['Ann']})",
                    f"SELECT * FROM league.check_pin({probe.ids['Ann']}, 'x')"):
            with pytest.raises(errors.InsufficientPrivilege, match="password"):
                conn.execute(sql)
    body = gin_match([seat("G1", points=120, won=True), seat("G2")])
    with pytest.raises(errors.InsufficientPrivilege, match="password"):
        submit(dsn, probe.uid(), body)


def test_another_venues_table_cannot_lock_a_player_out(probe):
    ann = probe.ids["Ann"]
    with table_conn(probe.a) as conn:
        salt = conn.execute("SELECT league.pin_salt(%s)", (ann,)).fetchone()[0]
    wrong = pins.digest_for(salt, "0000")
    for _ in range(10):  # table B (The Anchor) brute-forces Ann (The Crown)
        try:
            check(probe.b.dsn, ann, wrong)
        except psycopg.Error:
            break
    assert check(probe.a.dsn, ann, pins.digest_for(salt, PIN["Ann"])) == "ok"


def test_pin_guessing_is_rate_limited_per_player_and_per_table(probe):
    ann, bob = probe.ids["Ann"], probe.ids["Bob"]
    with table_conn(probe.a) as conn:
        salt = {p: conn.execute("SELECT league.pin_salt(%s)", (p,)).fetchone()[0]
                for p in (ann, bob)}
    answers = [check(probe.a.dsn, ann, pins.digest_for(salt[ann], f"{i:04d}"))
               for i in range(1, 7)]
    assert answers[:5] == ["wrong"] * 5 and answers[5] == "locked"
    assert check(probe.a.dsn, ann, pins.digest_for(salt[ann], PIN["Ann"])) == "locked"
    # a table that guesses across players is stopped too (20 failures in ten minutes)
    with probe.db.operator() as op:
        extra = [op.execute("INSERT INTO league.players (name, pin_hash) VALUES (%s, %s)"
                            " RETURNING id", (f"P{i}", pins.hash_pin("9999"))).fetchone()[0]
                 for i in range(6)]
    for pid in extra:
        enrol(probe.db, pid, "The Crown")
    seen = []
    for pid in extra:
        s = sign_salt(probe.a, pid)
        for i in range(4):
            seen.append(check(probe.a.dsn, pid, pins.digest_for(s, f"{i:04d}")))
    assert "locked" in seen[15:], seen
    # another table of the same venue is not slowed by it
    assert check(probe.a2.dsn, bob, pins.digest_for(salt[bob], PIN["Bob"])) == "ok"


def sign_salt(login, pid):
    with table_conn(login) as conn:
        return conn.execute("SELECT league.pin_salt(%s)", (pid,)).fetchone()[0]


def test_a_pin_check_holds_no_row_lock_that_stalls_another_tables_sync(probe):
    ann = probe.ids["Ann"]
    holder = table_conn(probe.a)
    try:
        holder.execute("BEGIN")
        holder.execute("SET LOCAL lock_timeout = 0")
        salt = holder.execute("SELECT league.pin_salt(%s)", (ann,)).fetchone()[0]
        holder.execute("SELECT * FROM league.check_pin(%s, %s)",
                       (ann, pins.digest_for(salt, "0000")))
        # table A2 sends a match with Ann while A sits in its transaction
        done: list[object] = []

        def other() -> None:
            try:
                done.append(probe.legit_match(probe.a2))
            except Exception as exc:  # noqa: BLE001 - reported below
                done.append(exc)

        t = threading.Thread(target=other)
        t.start()
        t.join(8)
        stalled = t.is_alive()
    finally:
        holder.close()
    t.join(30)
    assert not stalled, "a table's open transaction stalled another table's sync"
    assert not isinstance(done[0], Exception), done


def test_a_table_cannot_block_migrate(probe):
    holder = table_conn(probe.a)
    try:
        try:
            holder.execute("SELECT pg_advisory_lock(%s)", (schema.LOCK_KEY,))
        except errors.InsufficientPrivilege:
            return
        result: list[object] = []

        def migrate() -> None:
            with psycopg.connect(probe.db.super_dsn, autocommit=True) as conn:
                result.append(schema.migrate(conn))

        t = threading.Thread(target=migrate, daemon=True)
        t.start()
        t.join(8)
        blocked = t.is_alive()
    finally:
        holder.close()
    t.join(30)
    assert not blocked, "a table's advisory lock blocked league migrate"


def test_a_table_cannot_hold_many_connections(probe):
    conns = []
    try:
        with pytest.raises(psycopg.OperationalError, match="too many connections"):
            for _ in range(50):
                conns.append(table_conn(probe.a))
        assert len(conns) <= 5
    finally:
        for c in conns:
            c.close()


def test_a_table_session_has_server_side_timeouts(probe):
    with table_conn(probe.a) as conn:
        for name in ("statement_timeout", "idle_in_transaction_session_timeout", "lock_timeout"):
            value = conn.execute(f"SHOW {name}").fetchone()[0]
            assert value not in ("0", "0ms"), f"{name} is off for a table's role"


# -- the end: the standings are the legitimate matches' ---------------------------------------
def recomputed(matches: list[dict[str, Any]], names: dict[int, str]) -> list[tuple]:
    acc: dict[tuple, list[int]] = defaultdict(lambda: [0, 0, 0])
    for m in matches:
        fin = datetime.fromisoformat(m["finished"])
        season = f"{fin.year}-Q{(fin.month - 1) // 3 + 1}"
        for s in m["seats"]:
            if s.get("league_id") is None:
                continue
            a = acc[(m["game"], season, names[s["league_id"]])]
            a[0] += 1
            a[1] += int(bool(s["won"]))
            a[2] += int(s["points"])
    return sorted((*k, *v) for k, v in acc.items())


def test_standings_after_every_attack_are_the_legitimate_matches(probe):
    through = []
    for attack in DATA_ATTACKS:
        probe.legit_match(points=(100 + len(probe.legit), 10))
        if try_attack(probe, attack):
            through.append(attack.__name__)
    server = sorted(probe.db.conn.execute(
        "SELECT game, season, name, played, won, points FROM league.standings").fetchall())
    names = {v: k for k, v in probe.ids.items()}
    assert through == [] and server == recomputed(probe.legit, names), through
