"""Invariants over random and basic bot games (C-13), journal replay, and a soak."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from contract_helpers import VARIANT_OPTIONS
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.actions import Action
from rummy.contract.bots import BasicPlayer, RandomPlayer
from rummy.contract.engine import ENGINE
from rummy.contract.melds import meld_kind
from rummy.contract.rules import rules_from_dict
from rummy.contract.state import DEAL, OVER, ContractState
from rummy.play import play_match, step
from rummy.records import Header, JournalWriter, replay

PRESETS = ["seed_002", "american_may_i"]


def _between(n: int, start: int, stop: int) -> list[int]:
    out, s = [], start
    while s != stop:
        out.append(s)
        s = (s + 1) % n
    return out


def check_step(before: ContractState, action: Action, after: ContractState, events: list) -> None:
    """C-13 invariants for one applied action."""
    rules = after.rules
    n = after.seats
    if after.deal_number:
        assert after.card_count() == 52 * rules.decks  # C-13: all 104 cards accounted for
    for e in events:
        assert ENGINE.describe(e)
    bought = [e for e in events if e.kind == "bought"]
    new_deal = any(e.kind == "dealt" for e in events)
    if bought and not new_deal:
        (b,) = bought
        buyer, data = b.seat, b.data
        k = len(data["cards"])
        first_free = data["how"] == "in_turn" or (data["how"] == "refused" and buyer == before.turn)
        due = (rules.penalty_in_turn_first_card if first_free else rules.penalty_out_of_turn_per_card)
        due += (k - 1) * rules.penalty_out_of_turn_per_card
        assert len(data["penalty_cards"]) + data["waived"] == due  # C-8.2, C-8.4, C-8.5
        gained = Counter(after.hands[buyer]) - Counter(before.hands[buyer])
        assert sum(gained.values()) == len(after.hands[buyer]) - len(before.hands[buyer])
        assert len(after.hands[buyer]) == len(before.hands[buyer]) + k + len(data["penalty_cards"])
        for seat in range(n):  # nobody discards during a buy
            if seat != buyer:
                assert after.hands[seat] == before.hands[seat]
        started = [e for e in events if e.kind == "turn_started"]
        if started:
            (t,) = started
            N = before.turn
            if data["how"] == "granted" and rules.after_buy_turn == "resume":
                assert t.seat == N and t.data["stock_only"]  # C-15.1
            elif data["how"] == "in_turn":
                assert t.seat == (N + 1) % n
            else:  # C-8.6 jump / refusal: the seats from N to the buyer lose this turn
                assert t.seat == (buyer + 1) % n
                assert t.data["skipped"] == _between(n, N, buyer)
                # a skipped seat plays next only when the order wraps round to N at once
                assert t.seat not in t.data["skipped"] or t.seat == N
    for e in events:
        if e.kind == "melded" and rules.contract_in_one_turn:  # C-3.1, C-3.2 exact contract
            contract = before.contract
            groups = [m["cards"].split() for m in e.data["melds"]]
            kinds = Counter(m["kind"] for m in e.data["melds"])
            assert kinds["set"] == contract.sets and kinds["sequence"] == contract.sequences
            set_ranks = [g[0][0] for g, m in zip(groups, e.data["melds"], strict=True) if m["kind"] == "set"]
            seq_suits = [g[0][1] for g, m in zip(groups, e.data["melds"], strict=True) if m["kind"] == "sequence"]
            assert len(set(set_ranks)) == len(set_ranks) and len(set(seq_suits)) == len(seq_suits)
        if e.kind == "discarded" and before.last_deal and rules.last_deal_no_discard_out:
            assert after.hands[e.seat]  # C-6.3 no discard empties a hand in deal 5
    for m in after.table_melds:
        meld_kind(m.cards, rules)  # every table meld stays valid
    if after.phase not in (DEAL, OVER):  # never a dead end (C-6.3)
        seats = ENGINE.to_act(after)
        assert seats and all(ENGINE.legal_actions(after, s) for s in seats)


def run(rules, n: int, seed: int, players, journal=None) -> ContractState:
    rng = random.Random(seed)
    state = ENGINE.new_match(rules, n, first_dealer=seed % n)
    for _ in range(20_000):
        if ENGINE.is_over(state):
            return state
        action = step(ENGINE, state, players, rng)
        after, events = ENGINE.apply(state, action)
        check_step(state, action, after, events)
        if journal is not None:
            journal.append(action)
        state = after
    raise AssertionError("the match did not end")


def _players(mask: list[bool], n: int):
    return [RandomPlayer() if mask[i] else BasicPlayer() for i in range(n)]


@settings(max_examples=14, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 6),
    preset=st.sampled_from(PRESETS),
    mask=st.lists(st.booleans(), min_size=6, max_size=6),
)
def test_c_13_invariants_over_random_bot_games(seed, n, preset, mask):
    state = run(ENGINE.preset(preset), n, seed, _players(mask, n))
    assert state.phase == OVER and len(state.results) == 5
    totals = [sum(r.points[s] for r in state.results) for s in range(n)]
    assert list(state.scores) == totals


VARIANTS = st.fixed_dictionaries(
    {},
    optional={
        **VARIANT_OPTIONS,
        "max_buys_per_deal": st.sampled_from([None, 0, 3]),
        "buy_after_contract": st.booleans(),
        "contract_in_one_turn": st.booleans(),
        "layoff_same_turn_as_contract": st.booleans(),
        "stock_refills": st.integers(0, 2),
        "refill_shuffle": st.booleans(),
        "forbid_own_discards_in_buy": st.booleans(),
        "layoff_requires_contract": st.booleans(),
        "last_deal_no_discard_out": st.booleans(),
        "forbid_discarding_taken_card": st.booleans(),
        "penalty_out_of_turn_per_card": st.integers(0, 2),
        "penalty_in_turn_first_card": st.integers(0, 1),
    },
)


@settings(max_examples=14, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(3, 5), variant=VARIANTS,
       mask=st.lists(st.booleans(), min_size=6, max_size=6))
def test_c_14_invariants_hold_under_every_parameter(seed, n, variant, mask):
    rules = rules_from_dict(variant)
    state = run(rules, n, seed, _players(mask, n))
    assert state.phase == OVER


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 6), preset=st.sampled_from(PRESETS))
def test_replay_of_a_journal_equals_the_live_state(tmp_path_factory, seed, n, preset):
    rules = ENGINE.preset(preset)
    path = tmp_path_factory.mktemp("j") / "match.jsonl"
    header = Header(game="contract", rules=ENGINE.rules_to_dict(rules),
                    seats=[{"name": f"bot{i}"} for i in range(n)], seed=seed, first_dealer=seed % n)
    players = _players([seed >> i & 1 == 1 for i in range(6)], n)
    with JournalWriter.create(path, header, fsync=False) as journal:
        live = run(rules, n, seed, players, journal=journal)
        journal.end("finished")
    rep = replay(path)
    assert rep.state == live
    printout = [rep.engine.describe(e) for _, evs in rep.steps for e in evs]
    assert any("match over" in line for line in printout)


def test_replay_printout_shows_buys_and_answers(tmp_path):
    rules = ENGINE.preset("seed_002")
    path = tmp_path / "m.jsonl"
    header = Header(game="contract", rules=ENGINE.rules_to_dict(rules),
                    seats=[{"name": f"bot{i}"} for i in range(4)], seed=3)
    with JournalWriter.create(path, header, fsync=False) as journal:
        live, _ = play_match(ENGINE, ENGINE.new_match(rules, 4), [BasicPlayer()] * 4,
                             random.Random(3), journal=journal)
    rep = replay(path)
    assert rep.state == live
    lines = [rep.engine.describe(e) for _, evs in rep.steps for e in evs]
    assert any("Можно?" in x for x in lines)
    assert any('"Можно" (yes)' in x for x in lines)
    assert any(" buys " in x for x in lines)
    assert any("lays down" in x for x in lines)


def test_soak_many_four_bot_five_deal_games_both_presets():
    finished = 0
    for preset in PRESETS:
        rules = ENGINE.preset(preset)
        for seed in range(50):
            state, steps = play_match(ENGINE, ENGINE.new_match(rules, 4, first_dealer=seed % 4),
                                      [BasicPlayer() for _ in range(4)], random.Random(seed))
            assert state.phase == OVER and len(state.results) == 5
            assert state.card_count() == 104
            finished += sum(r.finisher is not None for r in state.results)
    assert finished > 250  # basic bots really finish deals, not only run out of stock


def test_bots_only_choose_legal_actions():
    rules = replace(ENGINE.preset("seed_002"))
    state = ENGINE.new_match(rules, 4)
    rng = random.Random(7)
    players = [BasicPlayer(), RandomPlayer(), BasicPlayer(), RandomPlayer()]
    for _ in range(3000):
        if ENGINE.is_over(state):
            break
        action = step(ENGINE, state, players, rng)
        if action.kind != "deal":
            assert action in ENGINE.legal_actions(state, action.seat)
        state, _ = ENGINE.apply(state, action)


def test_rummy_table_replay_prints_buys_and_permission_answers(tmp_path):
    import io

    from rummy.replay_cli import print_replay

    rules = ENGINE.preset("seed_002")
    for seed in range(10):
        path = tmp_path / f"m{seed}.jsonl"
        header = Header(game="contract", rules=ENGINE.rules_to_dict(rules),
                        seats=[{"name": f"bot{i}"} for i in range(4)], seed=seed)
        with JournalWriter.create(path, header, fsync=False) as journal:
            play_match(ENGINE, ENGINE.new_match(rules, 4), [BasicPlayer() for _ in range(4)],
                       random.Random(seed), journal=journal)
        out = io.StringIO()
        assert print_replay(str(path), out=out) == 0
        text = out.getvalue()
        if "Нельзя" in text:
            break
    assert '"Можно?"' in text and '"Можно" (yes)' in text and '"Нельзя" (no)' in text
    assert "after refusing" in text and "with permission" in text and "match over" in text
