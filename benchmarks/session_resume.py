"""Kiosk timings: journalled actions per second (fsync per line), resume time after a cut,
and recording a finished match into SQLite. Prints figures; asserts nothing.

    .venv/bin/python benchmarks/session_resume.py
"""

from __future__ import annotations

import io
import tempfile
import time
from pathlib import Path
from typing import Any

from rummy.records import read_journal
from rummy.session import MatchSession
from rummy.session_runner import run_matches
from rummy.store import Store


def bench(game: str, preset: str | None, seed: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)

        def play(folder: Path, **options: Any) -> None:
            """The one match of ``seed``, quietly, without records."""
            run_matches(folder, seed=seed, game=game, preset=preset, matches=1, records=False,
                        out=io.StringIO(), **options)

        t0 = time.perf_counter()
        play(d / "a")
        played = time.perf_counter() - t0
        (journal,) = (d / "a" / "archive").glob("*.jsonl")
        n = len(read_journal(journal).actions)
        # the same match stopped one action before its end, then resumed (a power cut)
        play(d / "b", stop_at=(1, n - 1), fsync=False)
        t0 = time.perf_counter()
        res = MatchSession.resume(d / "b")
        resumed = time.perf_counter() - t0
        assert res.session is not None and res.session.actions_applied == n - 1
        res.session.close()
        with Store(d / "r.sqlite3") as store:
            t0 = time.perf_counter()
            store.record_match(journal)
            recorded = time.perf_counter() - t0
        label = f"{game}/{preset or 'default preset'}"
        print(
            f"{label:<20} {n:>6} actions  {n / played:>7.0f} actions/s with fsync  "
            f"resume {resumed * 1000:>6.0f} ms  record {recorded * 1000:>6.0f} ms  "
            f"journal {journal.stat().st_size / 1024:.0f} KiB"
        )


if __name__ == "__main__":
    bench("gin", None, 1)
    bench("gin", "tournament", 1)
    bench("contract", None, 1)
