"""Player input for display tests: a fake clock, touches and arcade-button presses that go
through the app's real input path (pygame events, gpiozero MockFactory pins)."""

from __future__ import annotations

import os
import weakref
from collections.abc import Iterator
from contextlib import contextmanager

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from display import theme  # noqa: E402


class FakeClock:
    """The app's clock, moved by hand."""

    def __init__(self, t: float = 1000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def _mouse(kind: int, pos) -> pygame.event.Event:
    return pygame.event.Event(kind, pos=pos, button=1, touch=False)


def click(app, pos, clock: FakeClock) -> None:
    """A short touch at ``pos``."""
    app.frame(events=[_mouse(pygame.MOUSEBUTTONDOWN, pos)])
    clock.t += 0.05
    app.frame(events=[_mouse(pygame.MOUSEBUTTONUP, pos)])
    clock.t += 0.05
    app.frame(events=[])


def hold(app, pos, clock: FakeClock, seconds: float = 0.7) -> None:
    """Touch and hold ``pos`` for ``seconds``."""
    app.frame(events=[_mouse(pygame.MOUSEBUTTONDOWN, pos)])
    clock.t += seconds
    app.frame(events=[])
    app.frame(events=[_mouse(pygame.MOUSEBUTTONUP, pos)])


_LOOKS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # app -> seat -> the button he holds to look


def let_pass(app, clock: FakeClock, seconds: float) -> None:
    """Let ``seconds`` pass while the board's poll thread would run (every 10 ms here)."""
    end = clock.t + seconds
    while clock.t < end - 1e-9:
        clock.t = min(end, clock.t + 0.01)
        app.hw.board.poll(clock.t)


def press(app, seat: int, call: str, clock: FakeClock) -> None:
    """Tap the seat's arcade button: the MockFactory pin goes low, then high 80 ms later
    (a tap acts; a hold would be a look). A seat holding this button to see his hand lets
    go first and holds it again afterwards."""
    looks = _LOOKS.setdefault(app, {})
    again = looks.get(seat) == call
    if again:
        conceal(app, seat, clock)
    clock.t += 0.4  # beyond the board's 0.3 s lockout
    assert app.hw.press(seat, call), f"seat {seat} has no {call} button"
    let_pass(app, clock, 0.02)
    app.frame(events=[])
    let_pass(app, clock, 0.06)
    app.hw.release(seat, call)
    let_pass(app, clock, 0.04)
    app.frame(events=[])
    if again and app.scene.name.endswith("_table"):
        reveal(app, seat, clock, button=call)


def settle(app, clock: FakeClock) -> None:
    """Let the board's glitch filter time pass (a level counts once held 8 ms) and poll it,
    as its hold thread does, so the edge reaches the queue before the next frame."""
    clock.t += 0.01
    app.hw.board.poll()


def target(app, name: str):
    """The scene's touch target called ``name``."""
    for t in app.scene.targets:
        if t.name == name:
            return t
    raise AssertionError(f"no touch target {name!r} on {app.scene.name}: "
                         f"{[t.name for t in app.scene.targets][:60]}")


def tap(app, name: str, clock: FakeClock) -> None:
    """Touch the target called ``name``."""
    click(app, target(app, name).rect.center, clock)


def reveal(app, seat: int, clock: FakeClock, *, button: str | None = None) -> None:
    """The seat holds one of his arcade buttons until his hand shows (privacy = peek), and
    keeps holding it (:func:`conceal` lets go); anyone else holding one lets go first.
    ``button``: the one to hold (default: the one he already holds, else KNOCK); a seat
    looking with another button takes this one too and then lets the other go, as a
    player does, so his hand never hides in between (his picks and groups stay)."""
    looks = _LOOKS.setdefault(app, {})
    for other in [s for s in looks if s != seat]:
        conceal(app, other, clock)
    held = looks.get(seat)
    if app.scene.face_up(seat) and button in (None, held):
        return
    button = button or "knock"
    if held is not None and app.scene.face_up(seat):
        _hold(app, seat, button, clock)
        app.hw.release(seat, held)
        let_pass(app, clock, 0.04)
        app.frame(events=[])
        assert app.scene.face_up(seat), "still holding a button of his: the hand stays up"
        return
    conceal(app, seat, clock)  # held since another screen: that press was no look here
    _hold(app, seat, button, clock)
    assert app.scene.face_up(seat), "holding his own button shows the hand"


def _hold(app, seat: int, button: str, clock: FakeClock) -> None:
    """Press ``button`` of ``seat`` and keep it down for a look (a frame is drawn then)."""
    clock.t += 0.4  # beyond the board's lockout
    assert app.hw.press(seat, button), f"seat {seat} has no {button} button"
    _LOOKS.setdefault(app, {})[seat] = button
    let_pass(app, clock, app.match.controller.look_after + 0.05)
    app.frame(events=[])


def confirm_review(app, seat: int, clock: FakeClock) -> None:
    """Leave a hand's or deal's review as a player does (issue 28): wait until it may go
    (``[game] review_min_s``), then hold the seat's DRAW as long as a look and let go."""
    scene = app.scene
    assert scene.name.endswith("_review"), scene.name
    for other in list(_LOOKS.setdefault(app, {})):
        conceal(app, other, clock)  # a button held to look at the table is let go first
    clock.t += scene.gate.left(clock.t) + 0.01
    app.frame(events=[])
    _hold(app, seat, "draw", clock)
    assert app.scene is not scene, "a held DRAW goes on"
    conceal(app, seat, clock)


def held(app, seat: int) -> str | None:
    """The button the seat holds to see his hand (None: none)."""
    return _LOOKS.setdefault(app, {}).get(seat)


def conceal(app, seat: int, clock: FakeClock) -> None:
    """The seat lets go of the button he held to see his hand."""
    button = _LOOKS.setdefault(app, {}).pop(seat, None)
    if button is not None:
        app.hw.release(seat, button)
        let_pass(app, clock, 0.04)
        app.frame(events=[])


@contextmanager
def text_log() -> Iterator[list[theme.TextRecord]]:
    """Record every text the display draws inside the block (the theme's text log)."""
    log = theme.start_text_log()
    try:
        yield log
    finally:
        theme.stop_text_log()


def drawn_texts(app) -> list[theme.TextRecord]:
    """Draw the current scene afresh (its touch targets too); every text it drew."""
    with text_log() as log:
        app.scene.targets = []
        app.scene.draw(app.screen.surface)
    return log


def started_app(tmp_path, *, clock: FakeClock | None = None, **app_kw):
    """The app in sim mode on a fake clock (``clock``, or a new one) over ``tmp_path``'s
    state, started; and the clock."""
    from display.app import App
    from display.table.config import load_config

    clock = FakeClock() if clock is None else clock
    config, errors = load_config(None, env={"RUMMY_TABLE_STATE_DIR": str(tmp_path)})
    assert not errors
    app = App(config, mode="sim", state_dir=tmp_path, clock=clock, **app_kw)
    app.start()
    return app, clock


def humans(*names: str) -> list[dict[str, str]]:
    """Seats for ``App.start_match``: a human player of each name."""
    return [{"name": n, "kind": "human"} for n in names]
