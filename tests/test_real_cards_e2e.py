"""Real cards end to end: whole matches played only through rcdevice's simulated shoe and
slot (the firmware's logic on a pseudo-terminal, the real link) and the mock buttons, with
faults injected and an unplug; each match ends equal to its journal's replay and with the
table's hands equal to the cards the simulated people hold (0 lost, 0 wrong)."""

from __future__ import annotations

from collections import Counter

import pytest
from real_cards_helpers import real_app, run

from rummy.records import replay
from rummy.session import ARCHIVE, state_digest

pytestmark = pytest.mark.timeout(400)


def kinds(history) -> Counter:
    return Counter(str(a.kind) for a, _ev in history)


def events(history) -> Counter:
    return Counter(str(e.kind) for _a, evs in history for e in evs)


def check_ends_as_replayed(result, state_dir) -> None:
    assert result.over
    archived = sorted((state_dir / ARCHIVE).glob("*.jsonl"))
    assert archived, "the finished match is archived"
    rep = replay(archived[-1])
    assert state_digest(rep.state) == result.digest
    assert [a for a, _e in result.history] == list(rep.journal.actions)


def test_a_whole_gin_match_through_the_readers_with_faults_and_an_unplug(tmp_path):
    app, people = real_app(tmp_path, game="gin", seed=1, faults=0.05, unplug_after=40)
    result = run(app, seconds=240)  # about 40-60 s on this machine
    app.close()
    t = people.tally
    assert (t.lost, t.wrong) == (0, 0), t.notes
    assert result.over, t.notes[-3:]
    assert t.read > 200 and t.faults > 3 and t.recovered > 3
    k = kinds(result.history)
    assert k["deal_read"] >= 2 and k["draw_stock"] > 10 and k["discard"] > 10 and k["knock"] >= 1
    assert all(a.card is not None for a, _e in result.history if a.kind == "draw_stock")
    check_ends_as_replayed(result, tmp_path)


def test_a_whole_contract_game_through_the_readers_buys_penalties_and_a_refill(tmp_path):
    """Five deals of four players from one pack (C-1.2 allows it; the shoe then runs empty
    in every deal: the C-10 refill goes back into the shoe and is read again)."""
    app, people = real_app(tmp_path, game="contract", seed=3, faults=0.04, unplug_after=60)
    seats = [{"name": f"P{i + 1}", "kind": "human", "bot": "basic"} for i in range(4)]
    result = run(app, seconds=240, seats=seats, rules={"decks": 1})  # about 50 s
    app.close()
    t = people.tally
    assert (t.lost, t.wrong) == (0, 0), t.notes
    assert result.over, t.notes[-3:]
    k, ev = kinds(result.history), events(result.history)
    assert k["deal_read"] >= 5 and k["buy"] >= 1 and k["stock_cards"] >= 1, k
    assert ev["stock_refilled"] >= 1, ev
    check_ends_as_replayed(result, tmp_path)
