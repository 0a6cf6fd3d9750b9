"""Journals written before read mode (issue 10) replay unchanged: the same events (the
refill event only gained its ``shoe`` list) and the same totals. The two journals in
``tests/old_journals/`` were written by main at e9ffe65 (a gin match of basic players, and a
three-seat contract match of random players with 201 buys and two C-10 refills); the digests
below are of their events as that code produced them."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from rummy.records import replay

HERE = Path(__file__).parent / "old_journals"
WRITTEN = {
    "gin_basic_seed3.jsonl": (
        "146dcbc2e3afd3e771c23d6fa9b4b7d47a3d8b03d9246975e0a9987db41df452", (167, 375)),
    "contract_random_seed9.jsonl": (
        "690eb5005444a5d2b16ff044fc27992c147982aaf3d3460eeb731f51be0431ba", (-617, -725, -729)),
}


def events_digest(steps) -> str:
    events = [[e.kind, e.seat, {k: v for k, v in e.data.items() if k != "shoe"}]
              for _, evs in steps for e in evs]
    return hashlib.sha256(json.dumps(events, sort_keys=True, default=str).encode()).hexdigest()


@pytest.mark.parametrize("name", sorted(WRITTEN))
def test_an_old_journal_replays_to_the_same_events_and_totals(name):
    digest, totals = WRITTEN[name]
    rep = replay(HERE / name)
    assert events_digest(rep.steps) == digest
    assert rep.engine.outcome(rep.state).totals == totals and rep.engine.is_over(rep.state)
    assert not any(a.kind in ("deal_read", "void_hand", "stock_cards") for a, _ in rep.steps)
    refills = [e for _, evs in rep.steps for e in evs if e.kind == "stock_refilled"]
    assert all(len(e.data["shoe"]) == e.data["cards"] for e in refills)
    assert len(refills) == (2 if name.startswith("contract") else 0)
