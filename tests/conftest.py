"""Shared fixtures. The league tests run against a real PostgreSQL server: one throwaway
cluster per test session (Debian's server binaries, as an unprivileged user, on a Unix
socket in a temporary directory; see league.devserver), a fresh database per test."""

from __future__ import annotations

import itertools
import shutil
import tempfile
from pathlib import Path

import pytest

_db_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def pg_cluster():
    devserver = pytest.importorskip("league.devserver", reason="the league extra is not installed")
    reason = devserver.available()
    if reason:
        pytest.skip(reason)
    root = Path(tempfile.mkdtemp(prefix="rummy-pg-"))  # short: a socket path has ~107 bytes
    cluster = devserver.Cluster(root)
    try:
        cluster.start()
    except Exception:
        log = cluster.log.read_text() if cluster.log.exists() else ""
        shutil.rmtree(root, ignore_errors=True)
        raise RuntimeError(f"the test PostgreSQL server did not start: {log[-2000:]}") from None
    yield cluster
    cluster.destroy()


@pytest.fixture
def league_db(pg_cluster):
    """A new database with the league schema; ``league_db.table(...)`` makes table logins."""
    from league_helpers import LeagueDB

    if not pg_cluster.is_running():
        pg_cluster.start()
    db = LeagueDB(pg_cluster, f"league{next(_db_numbers)}")
    yield db
    db.close()
