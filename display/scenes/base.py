"""The scene base class: a view over app/engine state that turns touches into calls.

A scene never applies rules. It draws what the engine state says, offers touch targets,
and turns a touch, key or arcade-button event into a call on the app (usually
``app.match.submit(action)`` with an action taken from ``engine.legal_actions``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame

from display import theme
from display.layout import touch_px, unit

if TYPE_CHECKING:  # pragma: no cover
    from display.app import App


@dataclass
class Target:
    """A touch target in screen (logical) coordinates."""

    rect: pygame.Rect
    name: str
    action: Callable[[], Any] | None = None
    hold: Callable[[], Any] | None = None  # called once after a long press instead
    seat: int | None = None


class ReturnsBack:
    """A screen opened from the attract screen or the operator menu (``self.back_to``)."""

    app: Any
    back_to: str

    def leave(self) -> None:
        """Back where we came from: the attract screen, or the (unlocked) operator menu."""
        from display.scenes import Go

        self.app.go(Go.BACK, back=self.back_to)


class Scene:
    """Base class. Subclasses override :meth:`layout`, :meth:`draw` and the handlers."""

    name = "scene"
    #: seconds between redraws while idle (None: only when dirty)
    animate_every: float | None = None

    def __init__(self, app: App) -> None:
        self.app = app
        self.dirty = True
        self.targets: list[Target] = []
        self.size = app.screen.size
        self._pressed: Target | None = None
        self._press_t = 0.0
        self._held_fired = False
        self._last_anim = 0.0
        self.hold_seconds = 0.6

    # -- sizes ----------------------------------------------------------------------------
    @property
    def u(self) -> float:
        return unit(self.size)

    @property
    def touch(self) -> int:
        return touch_px(self.size)

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        self.dirty = True

    def invalidate(self) -> None:
        """Redraw everything at the next frame (not just the rects that changed)."""
        self.dirty = True

    def notice_area(self) -> pygame.Rect:
        """Where the app may put a notice (a power-cut banner): clear of touch targets that
        matter. Table scenes return their centre."""
        w, h = self.size
        return pygame.Rect(int(w * 0.08), int(h * 0.33), int(w * 0.84), int(h * 0.26))

    # -- lifecycle ----------------------------------------------------------------------------
    def enter(self) -> None:
        """Called when the scene becomes current."""

    def exit(self) -> None:
        """Called when another scene replaces this one. Drops the touch targets: their
        callbacks point back at the scene, and such cycles would keep big surfaces alive
        until the cyclic garbage collector runs."""
        self.targets = []
        self._pressed = None

    # -- input -------------------------------------------------------------------------------
    def target_at(self, pos: tuple[float, float]) -> Target | None:
        for t in reversed(self.targets):
            if t.rect.collidepoint(pos):
                return t
        return None

    def on_pointer(self, kind: str, pos: tuple[float, float], now: float) -> None:
        """``kind`` is ``down``, ``up`` or ``move``; ``pos`` in logical coordinates."""
        if kind == "down":
            self._pressed = self.target_at(pos)
            self._press_t = now
            self._held_fired = False
            if self._pressed is not None:
                self.on_press(self._pressed, now)
        elif kind == "up":
            t, self._pressed = self._pressed, None
            if t is not None and not self._held_fired and t.rect.collidepoint(pos) and t.action:
                t.action()
                self.dirty = True
            self.on_release(t, now)

    def on_press(self, target: Target, now: float) -> None:
        """A target was touched (before release)."""

    def on_release(self, target: Target | None, now: float) -> None:
        """The touch ended (``target`` is what was pressed)."""

    def on_key(self, key: int, text: str) -> None:
        """A key on a real keyboard (the simulator's seat keys never get here)."""

    def on_button(self, event: Any) -> None:
        """An arcade button event (``device`` InputEvent: seat, call, edge)."""

    def update(self, now: float) -> None:
        """Timers and animations; set ``self.dirty`` when the picture changes."""
        t = self._pressed
        if t is not None and t.hold is not None and not self._held_fired:
            if now - self._press_t >= self.hold_seconds:
                self._held_fired = True
                t.hold()
                self.dirty = True
        if self.animate_every is not None and now - self._last_anim >= self.animate_every:
            self._last_anim = now
            self.dirty = True

    def next_due(self, now: float) -> float | None:
        """When :meth:`update` next has something to do without input (the main loop sleeps
        until then): the next animation step, a held touch's long press; None: nothing."""
        due = []
        if self.animate_every is not None:
            due.append(self._last_anim + self.animate_every)
        t = self._pressed
        if t is not None and t.hold is not None and not self._held_fired:
            due.append(self._press_t + self.hold_seconds)
        return min(due, default=None)

    # -- drawing ------------------------------------------------------------------------------
    def draw(self, surf: pygame.Surface) -> list[pygame.Rect] | None:
        """Draw; return the changed rects, or None for the whole screen."""
        surf.fill(theme.FELT)
        return None

    # -- helpers ------------------------------------------------------------------------------
    def heading(self, surf: pygame.Surface, text: str, top: float, height: float) -> None:
        """A menu screen's felt and its gold title (``top`` and ``height``: shares of the
        screen's height)."""
        surf.fill(theme.FELT)
        w, h = self.size
        theme.draw_text(surf, text, pygame.Rect(int(w * 0.05), int(h * top), int(w * 0.9), int(h * height)),
                        colour=theme.GOLD, bold=True)

    def button(
        self,
        surf: pygame.Surface,
        rect: pygame.Rect,
        label: str,
        action: Callable[[], Any] | None,
        *,
        name: str = "",
        enabled: bool = True,
        hot: bool = False,
        size: int | None = None,
        seat: int | None = None,
        turned: bool = False,
    ) -> Target:
        """Draw a big rounded button (:func:`draw_button`) and register it as a touch target."""
        rect = pygame.Rect(rect)
        draw_button(surf, rect, label, enabled=enabled, hot=hot, size=size, turned=turned)
        t = Target(rect, name or label, action if enabled else None, seat=seat)
        self.targets.append(t)
        return t


def draw_button(surf: pygame.Surface, rect: pygame.Rect, label: str, *, enabled: bool = True, hot: bool = False,
                size: int | None = None, turned: bool = False) -> None:
    """A big rounded button (``turned``: upside down, for the player across a flat table)."""
    colour = theme.BUTTON_HOT if hot else theme.BUTTON if enabled else theme.BUTTON_OFF
    radius = max(6, rect.height // 5)
    drop = max(2, rect.height // 16)
    pygame.draw.rect(surf, theme.SHADOW, rect.move(0, -drop if turned else drop), border_radius=radius)
    pygame.draw.rect(surf, colour, rect, border_radius=radius)
    inner = rect.inflate(-min(max(12, rect.height // 3), rect.width // 5), -max(6, rect.height // 4))
    draw_colour = theme.BUTTON_TEXT if enabled else (60, 70, 64)
    theme.draw_text(surf, label, inner, size=size or int(rect.height * 0.42), colour=draw_colour, bold=True,
                    turned=turned)
