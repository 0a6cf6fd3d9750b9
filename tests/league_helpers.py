"""Helpers for the league tests: a migrated database with an operator, venues, tables and
players; finished gin matches recorded in a table's local store (outbox on)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

from league import admin, local, schema, sync
from league.devserver import Cluster
from rummy.players import player as basic_player
from rummy.session import MatchSession
from rummy.session_runner import default_rules, next_action
from rummy.store import DB_NAME, Store


@dataclass(frozen=True)
class TableLogin:
    cred: admin.TableCredentials
    dsn: str


class LeagueDB:
    def __init__(self, cluster: Cluster, name: str, *, migrate: bool = True) -> None:
        self.cluster = cluster
        self.name = name
        self.super_dsn = cluster.create_database(name)
        self.conn = psycopg.connect(self.super_dsn, autocommit=True)
        self.op_dsn = ""
        if migrate:
            self.migrate()

    def migrate(self, target: int | None = None) -> list[int]:
        applied = schema.migrate(self.conn, target)
        if schema.current_version(self.conn) >= 1 and not self.op_dsn:
            role = f"op_{self.name}"
            self.conn.execute(f"CREATE ROLE {role} LOGIN PASSWORD 'op-pw' IN ROLE league_operator")
            self.op_dsn = self.cluster.dsn(self.name, user=role, password="op-pw")
        return applied

    def operator(self) -> psycopg.Connection[Any]:
        return psycopg.connect(self.op_dsn, autocommit=True)

    def table(self, venue: str, name: str) -> TableLogin:
        with self.operator() as op:
            if op.execute("SELECT 1 FROM league.venues WHERE name = %s", (venue,)).fetchone() is None:
                admin.add_venue(op, venue)
            cred = admin.add_table(op, venue, name)
        return TableLogin(cred, self.cluster.dsn(self.name, user=cred.role, password=cred.password,
                                                 connect_timeout="3"))

    def player(self, name: str, pin: str = "2468", venues: list[str] | None = None) -> int:
        """A league player, enrolled at ``venues`` (default: every venue made so far)."""
        with self.operator() as op:
            pid = admin.add_player(op, name, pin)
            if venues is None:
                venues = [r[0] for r in op.execute("SELECT name FROM league.venues")]
        for venue in venues:
            enrol(self, pid, venue)
        return pid

    def count(self, sql: str, *args: Any) -> int:
        return int(self.conn.execute(sql, args).fetchone()[0])

    def close(self) -> None:
        self.conn.close()


def enrol(db: LeagueDB, player_id: int, venue: str) -> None:
    """Enrol a player at a venue (nothing on a schema before enrolments: version 4)."""
    with db.operator() as op:
        if op.execute("SELECT to_regclass('league.enrolments')").fetchone()[0] is not None:
            admin.enrol(op, player_id, venue)


def play_gin(state_dir: Path, seed: int, seats: list[dict[str, Any]], store: Store,
             target: int = 25) -> MatchSession:
    """A real gin match of computer players (short: ``target`` points), recorded."""
    rules, preset = default_rules("gin", None)
    rules = {**rules, "game_target": target}
    s = MatchSession.start(state_dir, "gin", rules, seats, seed=seed, preset=preset, fsync=False)
    players = [basic_player("gin") for _ in seats]
    while not s.is_over:
        s.apply(next_action(s, players))
    s.finish(store)
    return s


def sign_in(login: TableLogin, state_dir: Path, *player_ids: int, pin: str = "2468") -> None:
    """Players sign in at the table with their PIN, as the seating keypad does: the server
    checks it and the seat token lands in the table's cache (issue 31: a league seat's
    match is counted only with one)."""
    state_dir.mkdir(parents=True, exist_ok=True)
    cache = local.LocalLeague(state_dir / DB_NAME)
    try:
        for pid in player_ids:
            answer = sync.check_pin(login.dsn, cache, pid, pin)
            assert answer == "ok", (pid, answer)
    finally:
        cache.close()


def seats_for(*players: tuple[str, int | None]) -> list[dict[str, Any]]:
    out = []
    for name, league_id in players:
        # people (named at the table) whose moves the test makes with the basic player:
        # matches of computers only are not recorded (rummy.store, record_bots)
        seat: dict[str, Any] = {"name": name, "kind": "human", "named": True}
        if league_id is not None:
            seat["league_id"] = league_id
        out.append(seat)
    return out


def table_store(state_dir: Path) -> Store:
    return Store(state_dir / DB_NAME, outbox=True)


def outbox(state_dir: Path) -> list[tuple]:
    db = sqlite3.connect(state_dir / DB_NAME)
    try:
        return db.execute("SELECT id, match_uid, sent, server_id, rejected FROM outbox ORDER BY id"
                          ).fetchall()
    finally:
        db.close()
