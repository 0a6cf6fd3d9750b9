"""A tag the operator names mid-hand (issue 28) is kept beside the table's deck map
(``<first map>.learned.map``) and read with it after a restart: a replaced sticker is
enrolled once, not every start."""

from __future__ import annotations

from types import SimpleNamespace

from device.shoe.deckmap import DeckMap
from display.real_cards import deck_map_for, learned_path
from rummy.cards import Card


def test_a_learned_tag_is_kept_and_read_after_a_restart(tmp_path):
    from display.real_cards import TableShoe

    base = tmp_path / "deck.map"
    DeckMap({"04AA000000000001": Card.parse("AS")}, "pub").save(base)
    config = SimpleNamespace(shoe=SimpleNamespace(deck_map=str(base), port=str(tmp_path / "no-shoe")))
    shoe = TableShoe.__new__(TableShoe)  # the link is not needed: only the map's part
    shoe.app = SimpleNamespace(config=config)
    shoe.simulated = False
    shoe.link = None
    shoe.deck_map, problem = deck_map_for(config, simulated=False)
    assert problem is None and shoe.deck_map.get("04AA000000000001") == Card.parse("AS")
    assert shoe.learn("04bb000000000002", Card.parse("JD")) is None
    assert shoe.deck_map.get("04BB000000000002") == Card.parse("JD")  # read with at once
    path = learned_path(config)
    assert path == tmp_path / "deck.learned.map" and path.exists()
    again, problem = deck_map_for(config, simulated=False)  # the next start
    assert problem is None
    assert again.get("04BB000000000002") == Card.parse("JD")
    assert again.get("04AA000000000001") == Card.parse("AS")
    assert DeckMap.load(base).get("04BB000000000002") is None  # the enrolled deck's file is untouched
