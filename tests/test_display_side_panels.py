"""Side seats on a small table (4+ seats at 800×480): the side panels run the full height,
a shallow hand stays in one row rather than two rows of tiny cards, and an upright side
panel stacks its cards in columns, so every card keeps a part big enough to touch."""

from __future__ import annotations

import os
import random

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from display.app import App  # noqa: E402
from display.layout import seat_panels  # noqa: E402
from display.table.config import load_config  # noqa: E402
from display.table.match import make_player  # noqa: E402


def test_side_panels_run_the_full_height_clear_of_the_others():
    for n in (3, 4, 5, 6):
        panels = seat_panels((800, 480), n)
        sides = [p for p in panels if p.edge in ("left", "right")]
        assert sides and all(p.rect.height == 480 for p in sides)
        for a in panels:
            for b in panels:
                assert a is b or not a.rect.colliderect(b.rect)


@pytest.mark.parametrize(("seats", "layout", "least"), [(4, "flat", 32), (6, "flat", 32), (4, "upright", 40),
                                                        (5, "upright", 40)])
def test_side_seats_cards_keep_a_touchable_part(tmp_path, seats, layout, least):
    config, _errors = load_config(None, env={"RUMMY_TABLE_STATE_DIR": str(tmp_path)})
    app = App(config, mode="headless", size=(800, 480), state_dir=tmp_path, seed=1)
    app.change(privacy="open", layout=layout)
    app.start_match("contract", [{"name": f"P{i + 1}", "kind": "human"} for i in range(seats)])
    m, rng, bot = app.match, random.Random(1), make_player("contract")
    for _ in range(3):
        s = m.to_act()[0]
        m.submit(bot.choose(m.engine, m.engine.view(m.state, s), m.legal(s), rng))
    app.frame(events=[])
    for p in app.scene.panels():
        if p.edge not in ("left", "right"):
            continue
        cards = [t.rect for t in app.scene.targets if t.name.startswith(f"card-{p.seat}-")]
        assert len(cards) >= 10
        assert min(min(r.size) for r in cards) >= least, f"seat {p.seat} ({p.edge}, {layout})"
        assert all(p.rect.contains(r) for r in cards)
    app.close()
