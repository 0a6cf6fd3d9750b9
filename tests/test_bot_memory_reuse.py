"""A gin player's memory is keyed on the hand's identity (issue 30, item 6): one player
reused for a new match (hand 1 of game 1 again) does not carry what it learnt of the last
match's hand (the opponent's takes, the pile) into the new one."""

from __future__ import annotations

import random

from rummy.actions import TABLE, Action
from rummy.cards import shuffled_deck
from rummy.games import get_engine
from rummy.gin.bots_hard import HardPlayer

GIN = get_engine("gin")


def _match(seed: int):
    rules = GIN.rules_from_dict({"preset": "standard"})
    state = GIN.new_match(rules, 2)
    deck = tuple(shuffled_deck(random.Random(seed), 1))
    return GIN.apply(state, Action("deal", TABLE, cards=deck))[0]


def _play(state, players, rng, turns):
    """``turns`` decisions of the match (each seat its own player)."""
    for _ in range(turns):
        to_act = GIN.to_act(state)
        if not to_act:
            break
        seat = to_act[0]
        legal = GIN.legal_actions(state, seat)
        action = players[seat].choose(GIN, GIN.view(state, seat), legal, rng)
        state = GIN.apply(state, action)[0]
    return state


def test_a_reused_player_forgets_the_last_matchs_hand():
    rng = random.Random(1)
    me, other = HardPlayer(), HardPlayer()
    a = _play(_match(11), [me, other], rng, 14)  # a while into match A's first hand
    assert a.game_number == 1 and a.hand_number == 1
    learnt = list(me.memory.pile)
    assert len(learnt) > 1  # it saw the pile grow in match A
    b = _match(12)  # match B: hand 1 of game 1 again, another deal
    seat = GIN.to_act(b)[0]
    players = [me, other] if seat == 0 else [other, me]
    _play(b, players, rng, 1)
    mem = players[seat].memory
    assert mem.pile == [b.hand.upcard] or mem.pile[:1] == [b.hand.upcard]
    assert not (set(mem.opp_took) | mem.opp_has) - set(b.hand.hands[1 - seat])
