"""Recall and records read who won from the engine's ``outcome()`` as the store recorded
it (``HandRecord.outcome``, ``Store.matches()[i]["outcome"]``), never from the events' data
or the stored words (issue 30 item 3): each test gives an outcome that disagrees with what
the old reads would have found."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from display.table.recall_text import summary_lines
from rummy.gin.engine import ENGINE as GIN
from rummy.outcome import MatchOutcome, OutcomeReason
from rummy.players import player

NAMES = ("Ann", "Bob", "Cid")


def hand_record(game: str, events: list[dict[str, Any]], outcome: MatchOutcome | None, seats: int = 2) -> Any:
    step = SimpleNamespace(action={"kind": "discard"}, seat=0, events=events)
    return SimpleNamespace(game=game, hand_no=3, players=list(NAMES[:seats]), named=(True,) * seats,
                           kinds=("human",) * seats, results=events, steps=[step], outcome=outcome,
                           match_id=1, finished="2026-12-07T10:00:00")


def test_recall_says_the_recorded_outcome_not_the_match_over_event():
    events = [{"kind": "match_over", "seat": -1, "data": {"winner": 0, "totals": [200, 10]}}]
    won_by_bob = MatchOutcome.won((1,), (10, 200))
    lines = summary_lines(hand_record("gin", events, won_by_bob))
    assert "Bob won the match" in lines and "Ann won the match" not in lines
    abandoned = MatchOutcome(OutcomeReason.ABANDONED, (200, 10))
    assert not [line for line in summary_lines(hand_record("gin", events, abandoned)) if "won the match" in line]
    assert not [line for line in summary_lines(hand_record("gin", events, None)) if "won the match" in line]
    c_events = [{"kind": "match_over", "seat": -1, "data": {"scores": [5, 9, 9], "winners": [1, 2]}}]
    lines = summary_lines(hand_record("contract", c_events, MatchOutcome.won((0,), (5, 9, 9)), 3))
    assert "Ann won the match" in lines and "Bob, Cid share the win" not in lines
    lines = summary_lines(hand_record("contract", [], MatchOutcome.won((1, 2), (5, 9, 9)), 3))
    assert "Bob, Cid share the win" in lines


def test_the_store_gives_the_last_hand_the_engines_outcome(tmp_path):
    from rummy.session import MatchSession
    from rummy.session_runner import default_rules, next_action
    from rummy.store import DB_NAME, Store

    rules, preset = default_rules("gin", None)
    seats = [{"name": n, "kind": "human", "named": True} for n in NAMES[:2]]
    with Store(tmp_path / DB_NAME) as store:
        s = MatchSession.start(tmp_path / "a", "gin", rules, seats, seed=11, preset=preset, fsync=False)
        bots = [player("gin"), player("gin")]
        while not s.is_over:
            s.apply(next_action(s, bots))
        expected = GIN.outcome(s.state)
        s.finish(store)
        hands = store.last_hands(50)
        assert hands[0].outcome == expected and all(h.outcome is None for h in hands[1:])
        assert store.matches()[0]["outcome"] == expected
        # a match given up after a few moves: abandoned, no winner, its totals
        s = MatchSession.start(tmp_path / "b", "gin", rules, seats, seed=12, preset=preset, fsync=False)
        for _ in range(5):
            s.apply(next_action(s, bots))
        s.finish(store, reason="abandoned")
        newest = store.last_hands(1)[0]
        assert newest.outcome == GIN.outcome(s.state, abandoned=True)
        assert newest.outcome.reason is OutcomeReason.ABANDONED and newest.outcome.winners == ()
        assert not [line for line in summary_lines(newest) if "won the match" in line]


def test_records_list_stars_the_outcomes_winners(capsys):
    from display import records_cli

    row = {"id": 7, "finished": "2026-12-07T10:00:00", "game": "contract", "preset": "", "hands": 5,
           "players": list(NAMES), "totals": [5, 9, 9], "named": [True] * 3, "winner": 0, "winners": [0],
           "reason": "finished", "outcome": MatchOutcome.won((1, 2), (5, 9, 9))}
    store = SimpleNamespace(matches=lambda limit: [row])
    records_cli._list(store, 10)
    out = capsys.readouterr().out
    assert "Ann 5," in out and "Bob 9 *" in out and "Cid 9 *" in out
    row["outcome"] = MatchOutcome(OutcomeReason.ABANDONED, (5, 9, 9))
    records_cli._list(store, 10)
    out = capsys.readouterr().out
    assert "*" not in out and "(abandoned: no winner)" in out
    row["outcome"] = MatchOutcome.won((0,), (5, 9, 9))
    row["reason"] = "abandoned"  # the stored word is not what the list reads
    records_cli._list(store, 10)
    out = capsys.readouterr().out
    assert "Ann 5 *" in out and "abandoned" not in out
