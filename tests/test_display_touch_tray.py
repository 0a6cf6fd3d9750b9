"""Touch targets of the seat in turn on small panels (9 mm ≈ 48 px on a 7-inch 800×480
screen): the contract table's hand tray gives the seat in turn his cards again,
big enough to touch, in the middle next to his panel (C-3, C-5.2, C-5.3 are played by
touching cards); a side seat's tray runs along the middle's side."""

from __future__ import annotations

import os
import random

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from display.app import App  # noqa: E402
from display.layout import MIN_TOUCH_PX, centre_area  # noqa: E402
from display.table.config import load_config  # noqa: E402
from display.table.match import make_player  # noqa: E402
from rummy.contract.state import PLAY  # noqa: E402


def _table(tmp_path, size, seats, layout):
    config, _errors = load_config(None, env={"RUMMY_TABLE_STATE_DIR": str(tmp_path)})
    app = App(config, mode="headless", size=size, state_dir=tmp_path, seed=1)
    app.change(privacy="open", layout=layout)
    app.start_match("contract", [{"name": f"P{i + 1}", "kind": "human"} for i in range(seats)])
    return app


def _turns_in_play(app, turns):
    """Play on with the computer player; yield each time a seat in turn is to pick cards."""
    m, rng, bot = app.match, random.Random(1), make_player("contract")
    seen = 0
    for _ in range(400):
        if m.review_pending or not m.to_act():
            return
        if m.state.phase == PLAY and m.state.turn in m.to_act():
            app.frame(events=[])
            yield m.state.turn
            seen += 1
            if seen >= turns:
                return
        s = m.to_act()[0]
        m.submit(bot.choose(m.engine, m.engine.view(m.state, s), m.legal(s), rng))


def _cards(scene, seat):
    tray = [t for t in scene.targets if t.name.startswith(f"tray-{seat}-")]
    return tray or [t for t in scene.targets if t.name.startswith(f"card-{seat}-")]


@pytest.mark.parametrize("size", [(800, 480), (1280, 800)])
@pytest.mark.parametrize("layout", ["flat", "upright"])
@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_c_5_the_seat_in_turn_touches_cards_of_9_mm(tmp_path, seats, layout, size):
    """Every card of the seat in turn (top, bottom or side) keeps a part at least 48 px wide
    and high (9 mm on the 7-inch 800x480 panel; the bigger screens' panels mostly give it
    without the tray)."""
    app = _table(tmp_path, size, seats, layout)
    scene = app.scene
    checked = 0
    for seat in _turns_in_play(app, 2 * seats):
        p = scene.panels()[seat]
        cards = _cards(scene, seat)
        assert len(cards) == len(scene.hand(seat)), "every card of the hand can be touched"
        least = min(min(t.rect.size) for t in cards)
        assert least >= MIN_TOUCH_PX, f"{seats} seats, seat {seat} ({p.edge}): {least} px"
        checked += 1
    assert checked >= seats
    app.close()


def test_c_3_touching_a_tray_card_picks_it_and_the_tray_leaves_the_melds_in_sight(tmp_path):
    app = _table(tmp_path, (800, 480), 6, "flat")
    scene = app.scene
    seat = None
    for s in _turns_in_play(app, 12):
        if any(t.name.startswith(f"tray-{s}-") for t in scene.targets):
            seat = s
            break
    assert seat is not None, "a bottom or top seat in turn gets the tray at 800x480 with 6 seats"
    tray = [t for t in scene.targets if t.name.startswith(f"tray-{seat}-")]
    centre = centre_area(scene.size, scene.panels())
    assert all(centre.contains(t.rect) for t in tray)
    # the stock and the pack are drawn in what the tray leaves free, never under it
    assert not any(scene.pile_rect.colliderect(t.rect) for t in tray)
    assert not any(scene.stock_rect.colliderect(t.rect) for t in tray)
    t = tray[len(tray) // 2]
    index = int(t.name.rsplit("-", 1)[1])
    now = app.clock()
    scene.on_pointer("down", t.rect.center, now)
    scene.on_pointer("up", t.rect.center, now + 0.1)
    assert scene.ui[seat].selected == [index]
    app.frame(events=[])
    # the picked card is shown picked in the tray too (and stays touchable there)
    again = [x for x in scene.targets if x.name == t.name]
    assert again and again[0].rect == t.rect
    app.close()


def test_no_tray_when_the_panel_already_has_big_enough_cards(tmp_path):
    app = _table(tmp_path, (1920, 1080), 2, "flat")
    for _seat in _turns_in_play(app, 2):
        assert not any(t.name.startswith("tray-") for t in app.scene.targets)
    app.close()
