"""One refusal for an action kind a game does not know (issue 30): both engines refuse it
with ``CommonRefusal.UNKNOWN_ACTION`` (data: the kind and the game's known kinds), before
the deal and in a hand, whoever sends it, and the state is left as it was."""

from __future__ import annotations

import copy
import random

import pytest

from rummy.actions import TABLE, Action, ActionError, CommonRefusal
from rummy.contract.kinds import ActionKind as ContractKind
from rummy.games import get_engine
from rummy.gin.kinds import ActionKind as GinKind
from rummy.play import deal_action

KNOWN = {"gin": tuple(GinKind), "contract": tuple(ContractKind)}


def _states(game: str):
    """The match before its first deal, and just after it."""
    engine = get_engine(game)
    state = engine.new_match(engine.rules_from_dict({}), 2 if game == "gin" else 3)
    deal = deal_action(engine, state, random.Random(7))
    assert deal is not None
    dealt, _ = engine.apply(state, deal)
    return engine, {"before the deal": state, "in a hand": dealt}


@pytest.mark.parametrize("game", ["gin", "contract"])
@pytest.mark.parametrize("kind", ["shuffle", "Draw_Stock", ""])
def test_an_unknown_kind_is_refused_as_unknown_action(game: str, kind: str) -> None:
    engine, states = _states(game)
    for where, state in states.items():
        seats = [TABLE, *engine.to_act(state), 0, 5]  # the seat to act, another, none at all
        for seat in seats:
            before = copy.deepcopy(state)
            with pytest.raises(ActionError) as info:
                engine.apply(state, Action(kind, seat))
            exc = info.value
            assert exc.code is CommonRefusal.UNKNOWN_ACTION, (game, where, seat, exc.code)
            assert exc.params == {"kind": kind, "known": KNOWN[game]}, (game, where, seat)
            assert state == before
            assert "{" not in str(exc)


@pytest.mark.parametrize("game", ["gin", "contract"])
def test_the_known_kinds_are_the_games_own_strings(game: str) -> None:
    """The data names every kind of the game, as the strings its journals hold."""
    engine, states = _states(game)
    with pytest.raises(ActionError) as info:
        engine.apply(states["in a hand"], Action.from_dict({"kind": "shuffle", "seat": 0}))
    known = info.value.params["known"]
    assert [str(k) for k in known] == [k.value for k in KNOWN[game]]
    assert "draw_stock" in known and "discard" in known and "deal" in known
