"""Real-card matches for the end-to-end tests: the table app headless (pygame's dummy
driver), rcdevice's simulated shoe and slot on a pseudo-terminal opened by the real link
code, the simulated people pressing the real button board's MockFactory pins."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from display.app import App  # noqa: E402
from display.main import _load  # noqa: E402
from display.sim_real_cards import SimTable, TwinReaders  # noqa: E402


def real_app(state_dir: Path, *, game: str, seed: int, faults: float, unplug_after: int | None = None,
             speed: float = 3.0) -> tuple[App, SimTable]:
    people = SimTable(TwinReaders(seed=seed, speed=speed), game=game, seed=seed, faults=faults, auto=True,
                      unplug_after=unplug_after)
    config, errors = _load(None, env={"HOME": str(state_dir)})
    assert not errors
    app = App(config, mode="headless", seed=seed, game=game, real_cards=True, readers=people, debug=True,
              state_dir=state_dir)
    return app, people


class Run:
    """What a real-card match left: its actions and events, its last state's digest, its
    journal (archived once over)."""

    def __init__(self) -> None:
        self.history: list[tuple[Any, list[Any]]] = []
        self.digest = ""
        self.journal: Path | None = None
        self.over = False


def run(app: App, *, seconds: float, seats: list[dict[str, Any]] | None = None, until: Any = None,
        rules: dict[str, Any] | None = None) -> Run:
    """Frames until the match is over (or ``until(app)``), at most ``seconds``."""
    app.start()
    out = Run()
    t0 = time.monotonic()
    seen: tuple[int, int, int] | None = None  # (match, actions) when history and digest were taken
    while app.running and time.monotonic() - t0 < seconds:
        if seats is not None and app.match is None and not out.history and app.scene.name == "attract":
            app.start_match(app.forced_game or "gin", seats, rules=rules)
        app.frame()
        m = app.match
        if m is not None:
            now = (id(m), m.session.actions_applied, len(m.history))
            if seen != now:  # the state moves only by an applied action
                seen = now
                out.history = list(m.history)
                out.digest = m.session.digest()  # (a whole-state hash: not every frame)
            out.journal = m.session.archived_path or m.session.journal_path
            out.over = m.is_over
            if until is not None and until(app):
                break
        elif out.history:
            break
    return out
