"""The server schema: numbered SQL migrations in ``league/migrations/NNN_name.sql``.

``migrate(conn)`` brings a database from empty (or any earlier version) to
:data:`SCHEMA_VERSION`, one transaction per migration, under an advisory lock so two
operators cannot migrate at once. The version is the highest row of
``league.schema_version``. Run it as the database's owner with CREATEROLE (it makes the
``league_operator`` and ``league_table`` group roles).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
LOCK_KEY = 0x52554D4D  # "RUMM": pg_advisory_xact_lock key for migrations


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def migrations() -> list[Migration]:
    """The packaged migrations, in order (numbered 1, 2, ... without gaps)."""
    out = []
    for path in sorted(MIGRATIONS_DIR.glob("*.sql")):
        m = re.fullmatch(r"([0-9]{3})_([a-z0-9_]+)\.sql", path.name)
        if m is None:
            raise RuntimeError(f"{path.name}: migrations are named NNN_name.sql")
        out.append(Migration(int(m[1]), m[2], path.read_text(encoding="utf-8")))
    if [m.version for m in out] != list(range(1, len(out) + 1)):
        raise RuntimeError("league migrations must be numbered 1..N without gaps")
    return out


SCHEMA_VERSION = len(migrations())


class SchemaError(RuntimeError):
    """The database's schema cannot be used by this version."""


def current_version(conn: Any) -> int:
    """0 for an empty database, else the applied version."""
    row = conn.execute("SELECT to_regclass('league.schema_version')").fetchone()
    if row[0] is None:
        return 0
    return int(conn.execute("SELECT coalesce(max(version), 0) FROM league.schema_version")
               .fetchone()[0])


def _lock(conn: Any) -> None:
    """Only one migration at a time. From version 5 the lock is ``league.migration_lock``,
    a table no table role may lock (an advisory key is anyone's to take, issue 31); before
    that (a new or an old database) the advisory lock."""
    if conn.execute("SELECT to_regclass('league.migration_lock')").fetchone()[0] is not None:
        conn.execute("LOCK TABLE league.migration_lock IN EXCLUSIVE MODE")
    else:
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY,))


def _end_table_sessions(conn: Any) -> None:
    """Close the tables' sessions before a migration changes the schema, so none can hold
    it up with an open transaction (a table may switch its own timeouts off; its sync
    reconnects later). Needs a superuser or ``pg_signal_backend``; skipped otherwise."""
    if conn.execute("SELECT to_regclass('league.tables')").fetchone()[0] is None:
        return
    allowed = conn.execute(
        "SELECT rolsuper OR pg_has_role(current_user, 'pg_signal_backend', 'MEMBER')"
        " FROM pg_roles WHERE rolname = current_user").fetchone()
    if not allowed or not allowed[0]:
        return
    conn.execute("SELECT pg_terminate_backend(a.pid) FROM pg_stat_activity a"
                 " JOIN league.tables t ON t.role_name = a.usename"
                 " WHERE a.datname = current_database() AND a.pid <> pg_backend_pid()")


def migrate(conn: Any, target: int | None = None) -> list[int]:
    """Apply the missing migrations up to ``target`` (default: all); returns those applied."""
    target = SCHEMA_VERSION if target is None else target
    applied = []
    for mig in migrations():
        if mig.version > target:
            break
        with conn.transaction():
            _lock(conn)
            version = current_version(conn)
            if version > SCHEMA_VERSION:
                raise SchemaError(f"the database is at schema version {version}, newer than "
                                  f"this app ({SCHEMA_VERSION}): update the app")
            if mig.version <= version:
                continue
            _end_table_sessions(conn)
            conn.execute(mig.sql)
            conn.execute("INSERT INTO league.schema_version (version, name) VALUES (%s, %s)",
                         (mig.version, mig.name))
            applied.append(mig.version)
    return applied
