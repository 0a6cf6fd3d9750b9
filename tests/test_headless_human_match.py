"""``sim --headless --state-dir DIR`` over an unfinished match with people seated (issue 28):
nobody at a headless table can play it, so it is not resumed (it spun at 78 % CPU waiting
for them); it stays in current/ for the table and the run stops at once, saying why."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from display_input import humans, started_app


def test_headless_leaves_a_match_of_people_for_the_table(tmp_path):
    app, _clock = started_app(tmp_path)
    app.start_match("gin", humans("Ann", "Bob"))
    app.frame()
    journal = app.match.session.journal_path
    digest = app.match.session.digest()
    app.match.session.close()
    app.close()
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "display.cli", "sim", "--headless", "--state-dir", str(tmp_path)],
                       capture_output=True, text=True, timeout=60, env=env)
    took = time.monotonic() - t0
    assert r.returncode == 2, r.stdout + r.stderr
    assert "has people at the table" in r.stderr and digest in r.stderr
    assert journal.exists()  # kept for the table
    assert took < 30
    again, _clock = started_app(tmp_path)
    try:
        assert again.match is not None and again.match.session.digest() == digest
    finally:
        again.close()
