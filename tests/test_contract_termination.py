"""Basic bots always finish a match, under every rules variant and 2-6 players (C-10).

After ``PATIENCE`` turns of a deal a basic player neither takes nor buys pack cards, so
every further turn draws from the stock; the stock is refilled at most ``stock_refills``
times (C-10.2), so a deal lasts at most PATIENCE + (1 + stock_refills) x 104 + 1 turns.
"""

from __future__ import annotations

import random
from dataclasses import replace

from contract_helpers import VARIANT_OPTIONS, B, C, D, act, buy, position
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.contract.bots import PATIENCE, BasicPlayer
from rummy.contract.engine import ENGINE
from rummy.contract.rules import rules_from_dict
from rummy.contract.state import OVER
from rummy.play import step

VARIANTS = st.fixed_dictionaries(
    {},
    optional={
        "preset": st.sampled_from(["seed_002", "american_may_i"]),
        **VARIANT_OPTIONS,
        "max_buys_per_deal": st.sampled_from([None, 0, 1, 3]),
        "buy_after_contract": st.booleans(),
        "contract_in_one_turn": st.booleans(),
        "layoff_requires_contract": st.booleans(),
        "layoff_same_turn_as_contract": st.booleans(),
        "forbid_discarding_taken_card": st.booleans(),
        "forbid_own_discards_in_buy": st.booleans(),
        "last_deal_no_discard_out": st.booleans(),
        "penalty_out_of_turn_per_card": st.integers(0, 2),
        "penalty_in_turn_first_card": st.integers(0, 1),
        "stock_refills": st.integers(0, 3),
        "refill_shuffle": st.booleans(),
        "contract_distinct": st.booleans(),
        "min_set_len": st.sampled_from([3, 4]),
    },
)


@settings(max_examples=60, deadline=None)
@given(variant=VARIANTS, n=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_c_10_basic_bots_finish_every_deal_under_every_variant(variant, n, seed):
    rules = rules_from_dict(variant)
    bound = PATIENCE + (1 + rules.stock_refills) * 52 * rules.decks + 1
    state = ENGINE.new_match(rules, n, first_dealer=seed % n)
    rng = random.Random(seed)
    players = [BasicPlayer() for _ in range(n)]
    longest = 0
    for _ in range(200_000):
        if state.phase == OVER:
            break
        action = step(ENGINE, state, players, rng)
        state, _ = ENGINE.apply(state, action)
        longest = max(longest, state.turns_started)
        assert state.turns_started <= bound, f"a deal ran past {bound} turns"
    assert state.phase == OVER and len(state.results) == rules.deals
    assert longest <= bound


def test_c_10_after_patience_a_basic_bot_neither_asks_nor_refuses():
    """With ``take_as_draw`` a refusal takes no stock card: a keen bot could loop for ever."""
    rules = rules_from_dict({"next_player_refusal": "take_as_draw"})
    hands = ["2C 3C 5C 8C", "7S 7D 5S 8S", "7C 7D 6S 9S", "2S 5H 6H 8H"]
    s = position(hands=hands, pile=[("7H", 0)], stock="4D 5D", turn=B, rules=rules)
    bot, rng = BasicPlayer(), random.Random(1)

    def choice(state, seat):
        return bot.choose(ENGINE, ENGINE.view(state, seat), ENGINE.legal_actions(state, seat), rng)

    asked, _ = act(s, buy(D))
    assert choice(s, C).kind == "buy"  # a keen bot asks for the seven it needs
    assert choice(asked, B).flag is False  # and refuses it to others
    tired = replace(s, turns_started=PATIENCE + 1)
    assert choice(tired, C).kind == "no_buy"
    assert choice(replace(asked, turns_started=PATIENCE + 1), B).flag is True
