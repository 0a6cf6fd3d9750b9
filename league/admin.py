"""Operator commands on the server: venues, tables (each its own login role), players.

A table's password is made here, stored on the server only as a SCRAM-SHA-256 verifier,
and returned once (:func:`add_table`); nobody can read it back later.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from league import pins

SCRAM_ITERATIONS = 4096


def scram_verifier(password: str, *, salt: bytes | None = None,
                   iterations: int = SCRAM_ITERATIONS) -> str:
    """PostgreSQL's stored form of a password (``SCRAM-SHA-256$<i>:<salt>$<stored>:<server>``)."""
    salt = secrets.token_bytes(16) if salt is None else salt
    salted = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, iterations)
    client_key = hmac.new(salted, b"Client Key", hashlib.sha256).digest()
    server_key = hmac.new(salted, b"Server Key", hashlib.sha256).digest()

    def b64(b: bytes) -> str:
        return base64.b64encode(b).decode()

    return (f"SCRAM-SHA-256${iterations}:{b64(salt)}$"
            f"{b64(hashlib.sha256(client_key).digest())}:{b64(server_key)}")


@dataclass(frozen=True)
class TableCredentials:
    """What a table needs to log in; shown once by ``rummy-table league add-table``."""

    table_id: int
    role: str
    password: str
    venue: str
    name: str

    def config_snippet(self, host: str = "", dbname: str = "") -> str:
        lines = ["[league]", "enabled = true"]
        if host:
            lines.append(f'host = "{host}"')
        if dbname:
            lines.append(f'dbname = "{dbname}"')
        lines += [f'user = "{self.role}"', 'password_file = "/etc/rummy-table/league-password"',
                  f"table_id = {self.table_id}"]
        return "\n".join(lines)


def add_venue(conn: Any, name: str) -> int:
    with conn.transaction():
        return int(conn.execute("INSERT INTO league.venues (name) VALUES (%s) RETURNING id",
                                (name,)).fetchone()[0])


def add_table(conn: Any, venue: str, name: str) -> TableCredentials:
    """A new table at ``venue`` with its own role and a fresh random password."""
    password = secrets.token_urlsafe(24)
    with conn.transaction():
        table_id, role = conn.execute("SELECT * FROM league.create_table(%s, %s, %s)",
                                      (venue, name, scram_verifier(password))).fetchone()
    return TableCredentials(int(table_id), str(role), password, venue, name)


def add_player(conn: Any, name: str, pin: str, venues: list[str] | tuple[str, ...] = ()) -> int:
    """A league player (the PIN is stored hashed), enrolled at ``venues``: only their
    tables may sign him in and report his matches."""
    pin_hash = pins.hash_pin(pin)
    with conn.transaction():
        pid = int(conn.execute(
            "INSERT INTO league.players (name, pin_hash) VALUES (%s, %s) RETURNING id",
            (name.strip(), pin_hash)).fetchone()[0])
        for venue in venues:
            enrol(conn, pid, venue)
    return pid


def reset_table(conn: Any, table_id: int) -> TableCredentials:
    """A new password for a table (after its role changed its own, or a lost one)."""
    password = secrets.token_urlsafe(24)
    with conn.transaction():
        role = conn.execute("SELECT league.reset_table(%s, %s)",
                            (table_id, scram_verifier(password))).fetchone()[0]
        venue, name = conn.execute(
            "SELECT v.name, t.name FROM league.tables t JOIN league.venues v ON v.id = t.venue_id"
            " WHERE t.id = %s", (table_id,)).fetchone()
    return TableCredentials(table_id, str(role), password, str(venue), str(name))


def retire_table(conn: Any, table_id: int) -> None:
    """The table can no longer submit (its matches stay); its role can no longer log in."""
    with conn.transaction():
        role = conn.execute("UPDATE league.tables SET retired = now() WHERE id = %s"
                            " RETURNING role_name", (table_id,)).fetchone()
        if role is None:
            raise LookupError(f"no table {table_id}")


def enrol(conn: Any, player_id: int, venue: str) -> None:
    """Enrol a player at a venue: its tables may sign him in and report his matches."""
    with conn.transaction():
        row = conn.execute("SELECT id FROM league.venues WHERE name = %s", (venue,)).fetchone()
        if row is None:
            raise LookupError(f"no venue {venue!r}")
        conn.execute("INSERT INTO league.enrolments (player_id, venue_id) VALUES (%s, %s)"
                     " ON CONFLICT DO NOTHING", (player_id, row[0]))
