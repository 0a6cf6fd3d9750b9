"""Deck maps (tag UID -> card per physical deck) and the enrol procedure."""

from __future__ import annotations

import pytest

from device.shoe.deckmap import DeckMap, DeckMapError, Enroller, sim_uid
from device.shoe.protocol import is_uid
from rummy.cards import ALL_CARDS, parse_card


def test_simulated_uids_are_valid_and_unique_across_decks():
    uids = [sim_uid(c, d) for d in range(4) for c in ALL_CARDS]
    assert len(set(uids)) == len(uids) and all(is_uid(u) for u in uids)
    assert len(DeckMap.simulated(2)) == 104


def test_save_and_load_roundtrip(tmp_path):
    deck = DeckMap({sim_uid(c): c for c in ALL_CARDS}, "red-1")
    path = tmp_path / "red-1.deck"
    deck.save(path)
    loaded = DeckMap.load(path)
    assert loaded == deck and loaded.name == "red-1"
    assert loaded.get(sim_uid(parse_card("QH")).lower()) == parse_card("QH")


def test_bad_lines_are_all_reported_with_line_numbers(tmp_path):
    path = tmp_path / "bad.deck"
    path.write_text(
        "# deck: x\n04A1B2C3D4E5F6 AS\nnot-a-uid KH\n04A1B2C3D4E5F7 ZZ\n"
        "04A1B2C3D4E5F6 2S\n04A1B2C3D4E5F8 AS\n04A1B2C3D4E5F9\n"
    )
    with pytest.raises(DeckMapError) as info:
        DeckMap.load(path)
    message = str(info.value)
    for fragment in (":3:", ":4:", "listed twice", "already on line 2", ":7: expected 'UID CARD'"):
        assert fragment in message


def test_missing_file_gives_a_clear_error(tmp_path):
    with pytest.raises(DeckMapError, match="cannot read deck map"):
        DeckMap.load(tmp_path / "none.deck")


def test_two_decks_merge_and_clashing_tags_are_refused():
    a = DeckMap({"04AAAAAAAAAAAA": parse_card("AS")}, "a")
    b = DeckMap({"04BBBBBBBBBBBB": parse_card("AS")}, "b")
    assert len(a | b) == 2
    with pytest.raises(DeckMapError, match="share tag"):
        a | DeckMap({"04AAAAAAAAAAAA": parse_card("2S")}, "c")


def test_enrol_a_deck_in_new_deck_order():
    enroller = Enroller(name="blue")
    assert enroller.expected == parse_card("AS")
    for i, card in enumerate(ALL_CARDS):
        assert enroller.add(f"04{i:012X}") == card
    deck = enroller.result()
    assert deck.get("04" + "0" * 11 + "1") == parse_card("2S") and deck.name == "blue"
    with pytest.raises(DeckMapError, match="complete"):
        enroller.add("04FFFFFFFFFFFF")


def test_enrol_rejects_a_repeated_tag_and_can_undo():
    enroller = Enroller(order=[parse_card("AS"), parse_card("KD")])
    enroller.add("04000000000001")
    with pytest.raises(DeckMapError, match="already enrolled as AS: deal KD"):
        enroller.add("04000000000001")
    with pytest.raises(DeckMapError, match="incomplete"):
        enroller.result()
    assert enroller.undo() == parse_card("AS")
    assert enroller.expected == parse_card("AS")
