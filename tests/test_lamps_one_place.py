"""Issue 30: the lamps are written in one place, once a frame, whatever scene shows
(``App.show_lamps`` over ``display.table.controller.lamps``): a table's from its
controller, a review's by its rule, every other screen's off; no scene writes a lamp."""

from __future__ import annotations

import os
import re
from pathlib import Path
from types import SimpleNamespace

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from display_input import FakeClock, humans, started_app  # noqa: E402

from display.app import App  # noqa: E402
from display.table.controller import BUTTONS, Lamp, lamp_lit  # noqa: E402
from display.table.controller.lamps import TableLamps, review_lamps  # noqa: E402
from display.table.controller.review import ReviewGate  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def lit_now(app: App) -> dict[int, dict[str, bool]]:
    return {s: dict(v) for s, v in app.hw.lamps.items()}


def test_no_scene_writes_a_lamp():
    """Only the app's show_lamps writes lamps (display/table/hw.py is the board's side)."""
    writers = []
    for path in sorted((ROOT / "display").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if re.search(r"\.(set_lamps|all_lamps_off)\(", code) and rel != "display/table/hw.py":
                writers.append(f"{rel}:{n}")
    assert [w.split(":")[0] for w in writers] == ["display/app.py"], writers
    app_src = (ROOT / "display/app.py").read_text(encoding="utf-8")
    show = app_src[app_src.index("    def show_lamps"):]
    assert "self.hw.set_lamps(" in show[:show.index("\n    def ", 10)], "written by App.show_lamps"


def test_a_table_shows_the_controllers_lamps_and_a_menu_none(tmp_path):
    app, clock = started_app(tmp_path, clock=FakeClock(500.0), size=(800, 480), seed=11)
    assert not any(any(v.values()) for v in lit_now(app).values())
    app.start_match("gin", humans("Ann", "Bob"))
    app.frame(events=[])
    m = app.match
    seat = m.to_act()[0]
    want = {s: {str(b): lamp_lit(lamp, clock.t) for b, lamp in app.scene.seat_lamps(s).items()} for s in (0, 1)}
    assert lit_now(app) == want
    assert want[seat]["draw"] and not any(want[1 - seat].values()), "DRAW passes the upcard (G-4); the other: dark"
    app.open_operator()
    app.frame(events=[])
    assert app.scene.name == "operator"
    assert not any(any(v.values()) for v in lit_now(app).values()), "a menu: every lamp off"
    app.scene.leave()
    app.frame(events=[])
    assert app.scene.name == "gin_table" and lit_now(app) == want, "back at the table: its lamps again"
    app.close()


def test_a_review_lights_the_human_draw_lamps_once_it_may_go(tmp_path):
    app, clock = started_app(tmp_path, clock=FakeClock(500.0), size=(800, 480), seed=11)
    app.start_match("gin", [{"name": "Ann", "kind": "human"}, {"name": "Cy", "kind": "computer"}])
    app.frame(events=[])
    m = app.match
    m.review_pending = True  # a hand over (the review's rule does not depend on how)
    app.frame(events=[])
    assert app.scene.name == "gin_review"
    assert not any(any(v.values()) for v in lit_now(app).values()), "not yet: DRAW does nothing"
    clock.t = app.scene.t0 + app.config.game.review_min_s + 0.01
    app.frame(events=[])
    assert lit_now(app)[0] == {"draw": True, "knock": False, "buy": False}
    assert not any(lit_now(app)[1].values()), "a computer's seat: dark"
    app.close()


def test_review_lamps_rule():
    gate = ReviewGate(10.0, min_seconds=3.0, hold_seconds=0.3)
    assert review_lamps(gate, 12.0, [True, False]) == {0: dict.fromkeys(("draw", "knock", "buy"), False),
                                                        1: dict.fromkeys(("draw", "knock", "buy"), False)}
    got = review_lamps(gate, 13.0, [True, False, True])
    assert got[0]["draw"] and got[2]["draw"] and not got[1]["draw"]
    assert not any(got[s][b] for s in got for b in ("knock", "buy"))


class CountingController:
    """A controller stand-in: its lamps change with its state; counts how often asked."""

    def __init__(self) -> None:
        self.driver = SimpleNamespace(version=0, state=object(), session=SimpleNamespace(actions_applied=0))
        self.asked = 0
        self.flash = False

    def face_up(self, seat, now, *, open_hands=False):
        return False

    def input(self, seat):
        return None

    def looking_with(self, seat, now, *, open_hands=False):
        return frozenset()

    def settling(self, now=None):
        return False

    def lamp_states(self, seat, now, *, face_up, open_hands, wired):
        self.asked += 1
        return {str(b): (Lamp.DISCARD if self.flash else Lamp.ON) for b in BUTTONS}


def test_table_lamps_are_worked_out_again_only_when_the_match_changes_and_flash_every_frame():
    ctl = CountingController()
    lamps = TableLamps()
    wired = dict.fromkeys(range(2)).__getitem__
    first = lamps.lit(ctl, 2, 1.0, open_hands=False, wired=wired)  # type: ignore[arg-type]
    assert ctl.asked == 2 and all(all(v.values()) for v in first.values())
    lamps.lit(ctl, 2, 1.1, open_hands=False, wired=wired)  # type: ignore[arg-type]
    assert ctl.asked == 2, "nothing changed: the cached states"
    ctl.flash = True
    ctl.driver.version += 1  # the match changed
    on = lamps.lit(ctl, 2, 0.05, open_hands=False, wired=wired)  # type: ignore[arg-type]
    assert ctl.asked == 4
    off = lamps.lit(ctl, 2, 0.2, open_hands=False, wired=wired)  # type: ignore[arg-type]
    assert ctl.asked == 4 and on[0]["draw"] and not off[0]["draw"], "the flashes are timed every frame"
