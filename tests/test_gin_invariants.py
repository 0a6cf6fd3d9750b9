"""Invariants over whole bot matches (G-18), drawn by hypothesis: all 52 cards accounted
for, hand sizes 10/11, the stock never below the floor, scores add up, and replaying the
journal gives the live state. Random malformed actions are mixed in: they are refused with
``ActionError`` (never another exception) or, when legal, played and journaled."""

from __future__ import annotations

import random
import tempfile
import time
from collections import Counter
from pathlib import Path

import pytest
from gin_helpers import hand_cards
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummy.actions import TABLE, Action, ActionError
from rummy.cards import ALL_CARDS
from rummy.gin.bots import BasicPlayer, RandomPlayer
from rummy.gin.engine import ENGINE
from rummy.gin.rules import PRESETS, GinRules, preset
from rummy.gin.state import HandPhase, MatchPhase, MatchState
from rummy.play import play_match, step
from rummy.records import Header, JournalWriter, replay

FULL_DECK = Counter(ALL_CARDS)
KINDS = [
    "deal", "take_upcard", "pass_upcard", "draw_stock", "draw_discard", "discard", "knock",
    "big_gin", "take_and_knock", "decline", "lay_off", "done_laying_off", "accept_knock",
    "refuse_knock", "bogus",
]

OVERRIDES = {
    "hand_size": [10, 7],
    "dealer_rotation": ["alternate", "winner_deals", "loser_deals"],
    "redeal_after_dead_hand": ["same_dealer", "rotate"],
    "refused_upcard": ["stays_in_pile", "set_aside"],
    "ace_knock_card": ["gin_only", "one"],
    "spades_double": [False, True],
    "forbid_discarding_taken_card": [True, False],
    "illegal_knock": ["expose_and_force", "reject", "opponent_option"],
    "knocker_arrangement": ["auto_optimal", "agent"],
    "defender_layoffs": ["auto_optimal", "agent"],
    "big_gin_bonus": [31, None],
    "immediate_boxes": [False, True],
    "dead_hand_rule": ["fifty_first", "pagat", "hoyle_pc"],
    "shutout": ["double_hand_points", "game_bonus_200", "double_margin", "none"],
    "undercut_on_tie": [True, False],
}


@st.composite
def rules_strategy(draw) -> GinRules:
    base = preset(draw(st.sampled_from(sorted(PRESETS))))
    changes = {
        name: draw(st.sampled_from(values))
        for name, values in OVERRIDES.items()
        if draw(st.booleans())
    }
    # keep matches short enough for a test: low targets, at most best of three
    changes["game_target"] = draw(st.sampled_from([25, 60, 100]))
    if base.match == "best_of":
        changes["match_games"] = 3
    if draw(st.integers(0, 5)) == 0:
        changes["match"] = "hollywood"
    return base.replace(**changes)


def check_state(state: MatchState, events, tally: dict) -> None:
    rules = state.rules
    h = state.hand
    if h is not None:
        assert hand_cards(h) == FULL_DECK  # G-18: hands, stock, pile, set aside, layoffs
        assert len(h.stock) >= rules.stock_floor  # G-5.6
        n = rules.hand_size
        sizes = [len(x) for x in h.hands]
        if h.phase is HandPhase.DISCARD:
            assert sizes[h.turn] == n + 1 and sizes[1 - h.turn] == n  # G-5.4
        elif h.phase is HandPhase.LAYOFF:
            assert sizes[h.turn] <= n and sizes[1 - h.turn] == n
        elif h.phase is HandPhase.OVER:
            assert set(sizes) <= {n, n + 1} or h.layoffs  # n + 1: big gin, hoyle_pc dead
        else:
            assert sizes == [n, n]
        if h.phase in (HandPhase.DRAW, HandPhase.FORCED_DRAW):  # G-18: not at the floor
            assert len(h.stock) > rules.stock_floor
    for e in events:
        if e.kind == "hand_scored" and e.data["winner"] is not None:
            w = e.data["winner"]
            assert e.data["points"] >= 0 and e.data["boxes"] >= 1
            tally["points"][w] += e.data["points"]
            tally["boxes"][w] += e.data["boxes"]
            assert tuple(e.data["scores"]) == tuple(tally["points"])  # scores add up
        if e.kind == "game_over":
            w, pts, boxes = e.data["winner"], tally["points"], tally["boxes"]
            if rules.match == "hollywood":  # G-17: each game has its own entries
                col = state.columns[e.data["game"] - 1]
                pts, boxes = list(col.scores), list(col.boxes)
            loser = 1 - w
            shut = pts[loser] == 0
            hp = list(pts)
            bonus = [0, 0]
            bonus[w] = rules.game_bonus
            if shut and rules.shutout == "double_hand_points":
                hp[w] *= 2
            if shut and rules.shutout == "game_bonus_200":
                bonus[w] *= 2
            totals = [hp[s] + boxes[s] * rules.box_bonus + bonus[s] for s in (0, 1)]
            assert e.data["totals"] == totals  # G-14.4: totals = hand points + bonuses
            assert e.data["shutout"] == shut
            assert pts[w] + (boxes[w] * rules.box_bonus if rules.immediate_boxes else 0) >= (
                rules.game_target
            )
            if rules.match != "hollywood":
                tally["points"], tally["boxes"] = [0, 0], [0, 0]


def random_action(rng: random.Random) -> Action:
    kind = rng.choice(KINDS)
    seat = rng.choice([TABLE, 0, 1, 1, 0, 2])
    card = rng.choice(ALL_CARDS) if rng.random() < 0.8 else None
    melds = None
    if kind in ("knock", "take_and_knock") and rng.random() < 0.5:
        pool = rng.sample(ALL_CARDS, 9)
        melds = (tuple(pool[:3]), tuple(pool[3:6]))
    cards = tuple(rng.sample(ALL_CARDS, 52)) if kind == "deal" and rng.random() < 0.5 else ()
    target = rng.choice([None, 0, 1, 2, 5, -1])
    return Action(kind, seat, card=card, cards=cards, melds=melds, target=target)


def run_match(
    seed: int, rules: GinRules, players, *, chaos: float, max_actions: int = 60_000,
    must_end: bool = True,
):
    rng = random.Random(seed)
    first = seed % 2
    state = ENGINE.new_match(rules, 2, first_dealer=first)
    tally = {"points": [0, 0], "boxes": [0, 0]}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "match.jsonl"
        header = Header(
            game="gin",
            rules=ENGINE.rules_to_dict(rules),
            seats=[{"name": type(p).__name__, "kind": "computer"} for p in players],
            seed=seed,
            first_dealer=first,
        )
        with JournalWriter.create(path, header, fsync=False) as journal:
            for _ in range(max_actions):
                if ENGINE.is_over(state):
                    journal.end()
                    break
                action = None
                if chaos and state.phase is MatchPhase.HAND and rng.random() < chaos:
                    action = random_action(rng)
                    try:
                        new, events = ENGINE.apply(state, action)
                    except ActionError as exc:
                        assert str(exc)
                        action = None
                if action is None:
                    action = step(ENGINE, state, players, rng)
                    new, events = ENGINE.apply(state, action)
                journal.append(action)
                check_state(new, events, tally)
                state = new
            else:
                assert not must_end, "match did not end"
        rep = replay(path)
        assert rep.state == state  # replay(journal) equals the live state
    if must_end and rules.match == "hollywood":
        assert all(c.closed for c in state.columns) and sum(state.games_won) == 3
    elif must_end:
        assert state.winner is not None
        assert state.games_won[state.winner] == rules.games_to_win
    return state


PLAYERS = {
    "basic-basic": (BasicPlayer(), BasicPlayer()),
    "random-basic": (RandomPlayer(), BasicPlayer()),
    "basic-random": (BasicPlayer(), RandomPlayer()),
}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    rules=rules_strategy(),
    players=st.sampled_from(sorted(PLAYERS)),
    chaos=st.sampled_from([0.0, 0.05]),
)
def test_g_18_invariants_over_random_bot_matches(seed, rules, players, chaos):
    run_match(seed, rules, PLAYERS[players], chaos=chaos)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), name=st.sampled_from(sorted(PRESETS)))
def test_g_18_invariants_random_against_random(seed, name):
    # random players rarely knock: play the first 400 actions (several hands), not a match
    rules = preset(name).replace(defender_layoffs="agent", illegal_knock="opponent_option")
    run_match(seed, rules, (RandomPlayer(), RandomPlayer()), chaos=0.05, max_actions=400,
              must_end=False)


SOAK = {"standard": 25, "knock_card": 25, "pagat_classic": 25, "tournament": 3}


@pytest.mark.parametrize("name", sorted(SOAK))
def test_soak_many_bot_matches_per_preset(name):
    start = time.monotonic()
    rules = preset(name)
    hands = 0
    for seed in range(SOAK[name]):
        players = (BasicPlayer(), BasicPlayer() if seed % 3 else RandomPlayer())
        state = ENGINE.new_match(rules, 2, first_dealer=seed % 2)
        state, steps = play_match(ENGINE, state, players, random.Random(seed))
        assert ENGINE.is_over(state) and state.winner is not None
        hands += sum(1 for _, evs in steps for e in evs if e.kind == "hand_scored")
    assert hands > SOAK[name]
    assert time.monotonic() - start < 30
