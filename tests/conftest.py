"""Shared fixtures.

Every test runs against throwaway state: no test may reach the table's real state
directory (journals, records). Before this guard, a test or a subprocess that fell back
on the default state directory (``~/.local/state/rummy-table``, see
``display.table.config.default_state_dir``) could leave a match in the real records.

The league tests run against a real PostgreSQL server: one throwaway cluster per test
session (Debian's server binaries, as an unprivileged user, on a Unix socket in a temporary
directory; see league.devserver), a fresh database per test."""

from __future__ import annotations

import itertools
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

_db_numbers = itertools.count(1)


def pytest_configure(config) -> None:
    guard = tempfile.mkdtemp(prefix="rummy-table-tests-state-")
    # tests and the programs they start (which inherit the environment) fall back here
    os.environ["RUMMY_TABLE_STATE_DIR"] = os.path.join(guard, "state")
    os.environ["XDG_STATE_HOME"] = os.path.join(guard, "xdg-state")
    os.environ.pop("STATE_DIRECTORY", None)


def _settle_heap_in_tests() -> None:
    """display.app.settle_heap in the tests' own processes: nothing (see below)."""


def pytest_runtest_setup(item) -> None:
    """``display.app.settle_heap`` (a full ``gc.collect`` and ``gc.freeze`` at start-up and at
    each new match, so that a Pi's frame is never a full collection) walks the whole heap of a
    test worker, which holds everything the suite has loaded: 30-100 ms a call, some 400
    calls in a run (27 s of the display tests' 146 s, measured). In the tests' own processes
    it does nothing (no test measures frame times); ``tests/test_settle_heap.py`` checks the
    real one, which ``_settle_heap_in_tests.real`` keeps, and programs the tests start
    (kiosk, sim) run it as shipped."""
    app = sys.modules.get("display.app")
    if app is not None and app.settle_heap is not _settle_heap_in_tests:
        _settle_heap_in_tests.real = app.settle_heap  # type: ignore[attr-defined]
        app.settle_heap = _settle_heap_in_tests
    # The table's language is one module-wide setting: a test that switched it (a loop over
    # the four languages ends on the last one) left the next tests of its worker speaking
    # Portuguese. Every test starts in English, the source language.
    i18n = sys.modules.get("display.table.i18n")
    if i18n is not None:
        i18n.set_language(i18n.SOURCE_LANGUAGE)


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
