"""'Last hands' marks the hand an abandoned match stopped: it has no result (every hand
played out has one: a knock, gin, a dead hand, going out, the stock running out)."""

from __future__ import annotations

from types import SimpleNamespace

from display.table.recall_text import hand_label


def test_a_hand_without_a_result_is_marked_not_finished():
    done = SimpleNamespace(game="gin", hand_no=1, results=[{"kind": "knocked"}])
    stopped = SimpleNamespace(game="gin", hand_no=1, results=[])
    deal = SimpleNamespace(game="contract", hand_no=3, results=[])
    assert hand_label(done) == "Gin · hand 1"
    assert hand_label(stopped) == "Gin · hand 1 · not finished"
    assert hand_label(deal) == "Contract · deal 3 · not finished"
