"""Refusals are codes with params and a rule (issue 9): the engines raise the right code,
every ``raise ActionError`` in ``rummy/`` carries one, and a refused action changes nothing."""

from __future__ import annotations

import copy
import pathlib
import random
import re
from dataclasses import replace

import contract_helpers as ch
import gin_helpers as gh
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from match_walk import Walk, standard_match

from rummy.actions import TABLE, Action, ActionError, CommonRefusal, RefusalCode
from rummy.cards import ALL_CARDS, parse_card
from rummy.contract.engine import ENGINE as CONTRACT
from rummy.contract.kinds import Refusal as CR
from rummy.gin.engine import ENGINE as GIN
from rummy.gin.kinds import Refusal as GR
from rummy.gin.state import HandPhase

ALL_CODES: list[RefusalCode] = [*CommonRefusal, *GR, *CR]
RUMMY = pathlib.Path(__file__).resolve().parent.parent / "rummy"


def refused(engine, state, action) -> ActionError:
    """Apply ``action``, expect a refusal, and check the state was left as it was."""
    before = copy.deepcopy(state)
    with pytest.raises(ActionError) as info:
        engine.apply(state, action)
    assert state == before
    assert "{" not in str(info.value), f"a param of {info.value.code} is missing: {info.value}"
    return info.value


# --- the codes themselves -------------------------------------------------------------------


def test_codes_are_unique_and_cite_rules_of_their_game():
    values = [str(c) for c in ALL_CODES]
    assert len(values) == len(set(values))
    for c in GR:
        assert c.startswith("gin.") and (c.rule is None or re.fullmatch(r"G-\d+(\.\d+)?", c.rule))
    for c in CR:
        assert c.startswith("contract.") and (
            c.rule is None or re.fullmatch(r"C-\d+(\.\d+)?", c.rule)
        )
    for c in CommonRefusal:
        assert "." not in c and c.rule is None


def test_every_raise_in_rummy_carries_a_code():
    bare = []
    for path in RUMMY.rglob("*.py"):
        for n, line in enumerate(path.read_text().splitlines(), start=1):
            m = re.search(r"ActionError\((?!\s*$)", line)
            if m and "class ActionError" not in line and "isinstance" not in line:
                rest = line[m.end():]
                if not re.match(r"\s*(CommonRefusal|Refusal|code|_NOT_NOW|[A-Z]\w*\.)", rest):
                    bare.append(f"{path.name}:{n}: {line.strip()}")
    assert bare == []


def test_error_keeps_code_params_rule_and_an_english_line():
    exc = ActionError(GR.KNOCK_OVER_LIMIT, deadwood=13, limit=10)
    assert exc.code is GR.KNOCK_OVER_LIMIT and exc.code == "gin.knock_over_limit"
    assert exc.params == {"deadwood": 13, "limit": 10} and exc.rule == "G-7.2"
    assert str(exc) == "you cannot knock: deadwood 13 is over the knock limit 10 (G-7.2)"
    exc = ActionError(CR.DISCARD_TAKEN_CARD, card=parse_card("7H"))
    assert str(exc) == "7H was taken from the pack this turn and may not be discarded (C-5.3)"
    with pytest.raises(TypeError):
        ActionError("an English sentence")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"seat": 0}, CommonRefusal.ACTION_FIELDS_MISSING),
        ({"kind": 3, "seat": 0}, CommonRefusal.ACTION_KIND_SEAT_TYPE),
        ({"kind": "x", "seat": 0, "colour": 1}, CommonRefusal.ACTION_UNKNOWN_FIELDS),
        ({"kind": "x", "seat": 0, "card": "ZZ"}, CommonRefusal.ACTION_BAD_CARD),
        ({"kind": "x", "seat": 0, "melds": "7H 8H 9H"}, CommonRefusal.ACTION_BAD_MELDS),
        ({"kind": "x", "seat": 0, "target": "1"}, CommonRefusal.ACTION_BAD_TARGET),
        ({"kind": "x", "seat": 0, "flag": 1}, CommonRefusal.ACTION_BAD_FLAG),
    ],
)
def test_from_dict_refusals_are_coded(data, code):
    with pytest.raises(ActionError) as info:
        Action.from_dict(data)
    assert info.value.code is code


# --- gin --------------------------------------------------------------------------------------

ILLEGAL = "7S 8S 9S KH KD KC 2C 3D 4H 5H 8C"  # 13 deadwood after discarding 8C? see below
DEFENDER = "AS 2S 3S 4S 6D 7D 8D TC JC QC 9H"


def test_gin_knock_over_limit_names_deadwood_and_limit():
    rules = gh.rules_of("standard", illegal_knock="reject")
    st = gh.position(rules, hands=(ILLEGAL, DEFENDER), turn=0, upcard="TD")
    exc = refused(GIN, st, Action("knock", 0, card=parse_card("8C")))
    assert exc.code is GR.KNOCK_OVER_LIMIT and exc.rule == "G-7.2"
    assert exc.params == {"deadwood": 14, "limit": 10}


def test_gin_second_illegal_knock_carries_the_reason():
    st = gh.position("standard", hands=(ILLEGAL, DEFENDER), turn=0, upcard="TD", stock="QD")
    st, ev = gh.act(st, "knock", 0, "8C")
    assert gh.event(ev, "illegal_knock").data["reason"] == GR.KNOCK_OVER_LIMIT
    st, _ = gh.act(st, "draw_stock", 1)
    st, _ = gh.act(st, "discard", 1, "QD")
    st, _ = gh.act(st, "draw_stock", 0)
    exc = refused(GIN, st, Action("knock", 0, card=st.hand.hands[0][-1]))
    assert exc.code is GR.SECOND_ILLEGAL_KNOCK
    assert exc.params["reason"] is GR.KNOCK_OVER_LIMIT and exc.params["limit"] == 10


def test_gin_discard_just_taken_and_not_your_turn():
    st = gh.position(
        "standard", hands=(DEFENDER[:-3], ILLEGAL[:-3]), turn=0, phase=HandPhase.DRAW,
        pile="9H 8C",
    )
    st, _ = gh.act(st, "draw_discard", 0)
    exc = refused(GIN, st, Action("discard", 0, card=parse_card("8C")))
    assert exc.code is GR.DISCARD_JUST_TAKEN and exc.params == {"card": parse_card("8C")}
    exc = refused(GIN, st, Action("discard", 1, card=parse_card("7S")))
    assert exc.code is CommonRefusal.NOT_YOUR_TURN and exc.params == {"seat": 1, "turn": 0}
    exc = refused(GIN, st, Action("draw_stock", 0))
    assert exc.code is CommonRefusal.NOT_NOW and "discard" in exc.params["waiting"]
    exc = refused(GIN, st, Action("discard", 0, card=parse_card("QS")))
    assert exc.code is GR.CARD_NOT_IN_HAND


def test_gin_table_refusals():
    st = GIN.new_match(GIN.preset("standard"))
    assert refused(GIN, st, Action("draw_stock", 0)).code is CommonRefusal.DEAL_FIRST
    assert refused(GIN, st, Action("deal", 0)).code is CommonRefusal.ONLY_TABLE_DEALS
    exc = refused(GIN, st, Action("deal", TABLE, cards=tuple(ALL_CARDS[:51])))
    assert exc.code is GR.DEAL_NEEDS_ONE_PACK
    st, _ = GIN.apply(st, Action("deal", TABLE, cards=tuple(ALL_CARDS)))
    assert refused(GIN, st, Action("deal", TABLE, cards=tuple(ALL_CARDS))).code is CommonRefusal.NO_DEAL_DUE
    assert refused(GIN, st, Action("draw_stock", 5)).code is CommonRefusal.SEAT_NOT_AT_TABLE


# --- contract -------------------------------------------------------------------------------

HANDS = ["2C 3C 4C 9S JD", "5S 6S KD QC 8H", "2D 3D 7S 7C QH", "8C 9C TD JS KH"]


def test_contract_buy_refusals():
    s = ch.position(hands=HANDS, pile=[("9D", ch.B), ("KS", ch.A)], stock="4D 5D 6D", turn=ch.B)
    exc = refused(CONTRACT, s, ch.buy(ch.A))
    assert exc.code is CR.BUY_OWN_DISCARD and exc.params == {"seat": ch.A, "card": parse_card("KS")}
    capped = replace(s, rules=replace(s.rules, max_buys_per_deal=1), buys=(0, 0, 1, 0))
    exc = refused(CONTRACT, capped, ch.buy(ch.C))
    assert exc.code is CR.BUY_LIMIT and exc.params == {"seat": ch.C, "limit": 1} and exc.rule == "C-8.7"
    exc = refused(CONTRACT, s, ch.buy(ch.B, 2))  # N's in-turn buy: the 9D under KS is his
    assert exc.code is CR.IN_TURN_BUY_NOT_NOW
    asked, _ = ch.act(s, ch.buy(ch.C))
    exc = refused(CONTRACT, asked, ch.buy(ch.D))
    assert exc.code is CR.BUY_PRIORITY and exc.params["asker"] == ch.C
    exc = refused(CONTRACT, asked, ch.buy(ch.B))
    assert exc.code is CR.ASKED_MUST_ANSWER
    exc = refused(CONTRACT, asked, Action("answer", ch.D, flag=True))
    assert exc.code is CR.NOT_ASKED
    played, _ = ch.act(s, Action("draw_stock", ch.B))
    assert refused(CONTRACT, played, ch.buy(ch.C)).code is CR.BUY_NOT_NOW


def test_contract_turn_refusals():
    s = ch.position(hands=HANDS, pile=[("9D", ch.B), ("KS", ch.A)], stock="4D 5D 6D", turn=ch.A)
    exc = refused(CONTRACT, s, Action("draw_discard", ch.A))
    assert exc.code is CR.TAKE_BACK_OWN_DISCARD and exc.rule == "C-5.1"
    exc = refused(CONTRACT, s, Action("draw_stock", ch.C))
    assert exc.code is CommonRefusal.NOT_YOUR_TURN and exc.params == {"seat": ch.C, "turn": ch.A}
    s2 = ch.position(hands=HANDS, pile=[("9D", ch.D)], stock="4D 5D 6D", turn=ch.A)
    s2, _ = ch.act(s2, Action("draw_discard", ch.A))
    exc = refused(CONTRACT, s2, ch.discard(ch.A, "9D"))
    assert exc.code is CR.DISCARD_TAKEN_CARD and exc.params == {"card": parse_card("9D")}
    exc = refused(CONTRACT, s2, Action("meld", ch.A, melds=(ch.cards("2C 3C 4C"),)))
    assert exc.code is CR.CONTRACT_TOO_MANY or exc.code is CR.CONTRACT_TOO_FEW
    exc = refused(CONTRACT, s2, Action("lay_off", ch.A, card=parse_card("9S"), target=1))
    assert exc.code is CR.LAYOFF_BEFORE_CONTRACT
    exc = refused(CONTRACT, s2, Action("shuffle", ch.A))
    assert exc.code is CommonRefusal.UNKNOWN_ACTION


# --- a refused action changes nothing (random positions) -----------------------------------


def _probe_actions(engine, state, rng: random.Random) -> list[Action]:
    """Actions worth trying now: every seat's legal ones, moved to other seats, plus junk."""
    seats = range(getattr(state, "seats", 2))
    legal = [a for s in seats for a in engine.legal_actions(state, s)]
    probes = list(legal)
    for a in legal[:6]:
        probes.append(replace(a, seat=(a.seat + 1) % len(seats)))
    card = rng.choice(ALL_CARDS)
    kinds = {a.kind for a in legal} | {"discard", "buy", "answer", "take_cards", "knock", "lay_off"}
    for kind in sorted(kinds):
        probes.append(Action(kind, rng.choice(list(seats)), card=card, target=rng.randint(-1, 4)))
    return probes


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(["gin", "contract"]))
def test_refused_actions_leave_the_state_unchanged(seed, game):
    engine = GIN if game == "gin" else CONTRACT
    rng = random.Random(seed)
    walk = Walk(engine, standard_match(engine, game), rng)
    codes = set(ALL_CODES)
    for _ in walk.steps(80):
        state = walk.state
        before = copy.deepcopy(state)
        for probe in _probe_actions(engine, state, rng):
            try:
                engine.apply(state, probe)
            except ActionError as exc:
                assert exc.code in codes and str(exc) and "{" not in str(exc), str(exc)
            assert state == before
        seat = rng.choice(list(engine.to_act(state)))
        walk.state, _ = engine.apply(state, rng.choice(engine.legal_actions(state, seat)))


def test_kinds_keep_the_journal_strings():
    from rummy.actions import DEAL
    from rummy.contract.kinds import ActionKind as CA
    from rummy.contract.kinds import EventKind as CE
    from rummy.gin.kinds import ActionKind as GA
    from rummy.gin.kinds import EventKind as GE

    assert GA.DEAL == CA.DEAL == DEAL == "deal"
    assert GA.DRAW_STOCK == "draw_stock" and CA.BUY == "buy" and GE.KNOCKED == "knocked"
    assert CE.BOUGHT == "bought" and Action.from_dict({"kind": "knock", "seat": 0}).kind == GA.KNOCK
    for enum in (GA, CA, GE, CE):
        assert all(m.value == m.name.lower() for m in enum)
