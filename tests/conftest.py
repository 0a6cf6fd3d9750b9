"""Every test runs against throwaway state: no test may reach the table's real state
directory (journals, records). Before this guard, a test or a subprocess that fell back
on the default state directory (``~/.local/state/rummy-table``, see
``display.config.default_state_dir``) could leave a match in the real records."""

from __future__ import annotations

import os
import tempfile


def pytest_configure(config) -> None:
    guard = tempfile.mkdtemp(prefix="rummy-table-tests-state-")
    # tests and the programs they start (which inherit the environment) fall back here
    os.environ["RUMMY_TABLE_STATE_DIR"] = os.path.join(guard, "state")
    os.environ["XDG_STATE_HOME"] = os.path.join(guard, "xdg-state")
    os.environ.pop("STATE_DIRECTORY", None)
