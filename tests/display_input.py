"""Player input for display tests: a fake clock, touches and arcade-button presses that go
through the app's real input path (pygame events, gpiozero MockFactory pins)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402


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


def press(app, seat: int, call: str, clock: FakeClock) -> None:
    """Push the seat's arcade button: the MockFactory pin goes low, then high."""
    clock.t += 0.4  # beyond the board's 0.3 s lockout
    assert app.hw.press(seat, call), f"seat {seat} has no {call} button"
    settle(app, clock)
    app.frame(events=[])
    clock.t += 0.07
    app.hw.release(seat, call)
    settle(app, clock)
    app.frame(events=[])


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


def reveal(app, seat: int, clock: FakeClock) -> None:
    """Hold the seat's panel until his hand shows (privacy = peek)."""
    if not app.scene.face_up(seat):
        hold(app, target(app, f"panel-{seat}").rect.center, clock)
        assert app.scene.face_up(seat), "holding the panel must show the hand"
