"""display.table.refusal_text: every refusal code of both games has words, in every language,
with all its params formatted (cards as the table writes them, seats as names)."""

from __future__ import annotations

import re
import string

import pytest

from display.table import i18n
from display.table.refusal_text import TEXTS, refusal_text
from rummy.actions import ActionError, CommonRefusal, RefusalCode
from rummy.cards import parse_card
from rummy.contract.kinds import Refusal as ContractRefusal
from rummy.gin.kinds import Refusal as GinRefusal

ALL_CODES: list[RefusalCode] = [*CommonRefusal, *GinRefusal, *ContractRefusal]
LEFTOVER = re.compile(r"\{\w*\}")
CARD = parse_card("7H")
MELD = (parse_card("4S"), parse_card("5S"), parse_card("6S"))
# A sample value for each param name the engine uses (by the English template's fields).
SAMPLES = {
    "card": CARD, "cards": MELD, "meld": MELD, "extra": (CARD,), "missing": (),
    "seat": 2, "turn": 1, "asker": 3, "seats": 4, "deadwood": 14, "limit": 10, "floor": 2,
    "stock": 2, "melds": 3, "target": 9, "count": 104, "decks": 2, "sets": 2, "sequences": 1,
    "min": 3, "max": 8, "has": 2, "rank": "7", "low": 2, "high": 3, "got": 5, "kind": "knock",
    "phase": "discard", "waiting": ("discard", "knock"), "value": "{'seat': 0}",
    "fields": ("colour",), "known": ("deal", "discard"), "field": "card", "detail": "bad card",
    "reason": GinRefusal.KNOCK_OVER_LIMIT, "place": "hand:1+meld:3", "want": 21,
}


def params_of(code: RefusalCode) -> dict:
    names = {f for _, f, _, _ in string.Formatter().parse(code.text) if f}
    assert names <= set(SAMPLES), f"{code}: add samples for {names - set(SAMPLES)}"
    out = {n: SAMPLES[n] for n in names}
    if "reason" in names:  # the nested reason's own params
        out.update(deadwood=14, limit=10)
    return out


def test_every_code_has_words():
    assert set(TEXTS) == set(ALL_CODES)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_each_code_formats_all_its_params(lang):
    english = {code: refusal_text(code, params_of(code), name=lambda s: f"Player{s}")
               for code in ALL_CODES}
    i18n.set_language(lang)
    try:
        for code in ALL_CODES:
            text = refusal_text(code, params_of(code), name=lambda s: f"Player{s}")
            if lang != "en":  # translated: never the English words on a ru/id/pt table
                assert text != english[code], f"{lang}: {code} is shown in English: {text!r}"
            exc = ActionError(code, **params_of(code))
            assert text and text == refusal_text(exc, name=lambda s: f"Player{s}")
            assert not LEFTOVER.search(text), f"{code}: {text!r}"
            assert "7H" not in text and "gin." not in text and "contract." not in text
    finally:
        i18n.set_language("en")


def test_cards_seats_and_nested_reasons_are_in_the_tables_words():
    assert refusal_text(ActionError(GinRefusal.DISCARD_JUST_TAKEN, card=CARD)) == (
        "You took 7♥ from the pile: discard another card")
    names = {1: "Ann", 3: "Bob"}
    exc = ActionError(CommonRefusal.NOT_YOUR_TURN, seat=0, turn=1)
    assert refusal_text(exc, name=names.__getitem__) == "Not your turn: wait for Ann"
    assert refusal_text(exc) == "Not your turn: wait for Seat 2"
    exc = ActionError(GinRefusal.SECOND_ILLEGAL_KNOCK, reason=GinRefusal.KNOCK_OVER_LIMIT,
                      deadwood=14, limit=10)
    assert refusal_text(exc) == ("A second illegal knock is not allowed: You cannot knock: "
                                 "deadwood 14 is over the knock limit 10.")
    exc = ActionError(ContractRefusal.CONTRACT_TOO_MANY, sets=2, sequences=0)
    assert refusal_text(exc) == "The contract of this deal is two sets, no more and no less."
    assert refusal_text("contract.buy_limit", {"seat": 1, "limit": 2}) == (
        "You have used all 2 buys of this deal.")
    assert refusal_text("no.such.code") == "You cannot do that now"


def test_a_russian_table_shows_no_english_for_a_translated_refusal():
    i18n.set_language("ru")
    try:
        text = refusal_text(ActionError(ContractRefusal.BUY_OWN_DISCARD, seat=0, card=CARD))
    finally:
        i18n.set_language("en")
    assert "7♥" in text and text != "You discarded 7♥: you cannot buy it back"
