"""Issue 30, item 4: a DRAW press from the GPIO to the pixels in one frame and eight steps
(docs/architecture.md, "A DRAW press"): the move applied, worded, the lamps written and
the screen drawn in the frame that drains the release; a refused call repeats no move."""

from __future__ import annotations

import os
import re
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from display_input import FakeClock, humans, let_pass, started_app  # noqa: E402

from display.app import App  # noqa: E402
from display.table.controller import Call  # noqa: E402
from rummy.actions import Action  # noqa: E402
from rummy.gin.state import HandPhase  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def gin_app(tmp_path, clock) -> App:
    app, _clock = started_app(tmp_path, clock=clock, size=(800, 480), seed=11)
    app.start_match("gin", humans("Ann", "Bob"))
    app.frame(events=[])
    return app


def test_a_draw_tap_is_applied_worded_lit_and_drawn_in_the_frame_of_its_release(tmp_path):
    clock = FakeClock(500.0)
    app = gin_app(tmp_path, clock)
    m, scene = app.match, app.scene
    seat = m.to_act()[0]
    assert m.state.hand.phase is HandPhase.UPCARD and app.hw.lamps[seat]["draw"]
    clock.t += 0.4
    assert app.hw.press(seat, "draw")
    let_pass(app, clock, 0.02)
    app.frame(events=[])
    assert m.session.actions_applied == 1, "a press only starts the clock"
    let_pass(app, clock, 0.06)
    app.hw.release(seat, "draw")
    let_pass(app, clock, 0.04)
    frames = app.frames
    app.frame(events=[])  # the one frame that drains the release
    action, _events = m.history[-1]
    assert action == Action("pass_upcard", seat), "DRAW passes the upcard (G-4)"
    assert scene.centre_msg.endswith("passed") and scene.recent[-1] == scene.centre_msg, "worded at once"
    other = m.to_act()[0]
    assert other != seat and app.hw.lamps[other]["draw"] and not app.hw.lamps[seat]["draw"], "the lamps moved on"
    assert app.frames == frames + 1 and not scene.dirty, "and drawn"
    app.close()


def test_a_refused_call_repeats_no_move(tmp_path):
    """Found on the way (issue 30): a refusal bumps the match's version, and the table took
    the last move's events in again: "Bob passed" twice among the last moves, and its
    animations and banners again."""
    clock = FakeClock(500.0)
    app = gin_app(tmp_path, clock)
    m, scene = app.match, app.scene
    scene.call(m.to_act()[0], Call.DRAW)
    app.frame(events=[])
    before = list(scene.recent)
    assert len(before) == 2 and before[-1].endswith("passed")
    waiting = 1 - m.to_act()[0]
    assert m.try_submit(Action("draw_stock", waiting)) is not None  # not his turn: refused
    app.frame(events=[])
    assert scene.recent == before
    app.close()


def test_the_frame_routes_events_by_type_and_the_walk_is_documented():
    app_src = (ROOT / "display/app.py").read_text(encoding="utf-8")
    assert 'hasattr(ev, "call")' not in app_src and 'ev.call == "operator"' not in app_src
    doc = (ROOT / "docs/architecture.md").read_text(encoding="utf-8")
    walk = doc[doc.index("### A DRAW press"):]
    walk = walk[:walk.index("\nBefore issue 30")]
    steps = re.findall(r"^(\d+)\. `([\w/]+\.py):(\w+)(?:\.(\w+))?`", walk, flags=re.M)
    assert [int(n) for n, *_ in steps] == list(range(1, len(steps) + 1)) and len(steps) <= 8, steps
    for _n, path, first, second in steps:
        src = (ROOT / path).read_text(encoding="utf-8")
        for name in (first, second):
            if name:
                assert re.search(rf"(def|class) {name}\b", src), f"{path}: no {name}"
    assert "](rules/README.md)" in doc and "](real_cards.md)" in doc
