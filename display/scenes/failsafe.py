"""The failsafe (an error in kiosk mode) and the config-error screen."""

from __future__ import annotations

import pygame

from display import theme
from display.scenes import Go
from display.scenes.base import Scene
from display.table.config import describe
from display.table.faults import OPERATOR_HINT, Fault
from display.table.i18n import _

FAILSAFE_SECONDS = 8.0


class FailsafeScene(Scene):
    """"Sorry" and back to the attract screen; the match is journalled and resumable."""

    name = "failsafe"
    animate_every = 1.0

    def __init__(self, app, *, error: str = "") -> None:
        super().__init__(app)
        self.error = error
        self.t0 = app.clock()

    def update(self, now: float) -> None:
        super().update(now)
        if now - self.t0 >= FAILSAFE_SECONDS:
            self.app.go(Go.HOME)

    def draw(self, surf: pygame.Surface):
        surf.fill(theme.FELT_DARK)
        w, h = self.size
        theme.draw_text(surf, _("Sorry, something went wrong."), pygame.Rect(int(w * 0.05), int(h * 0.15),
                        int(w * 0.9), int(h * 0.14)), colour=theme.GOLD, bold=True)
        theme.draw_paragraph(surf, _("Nothing is lost: every move is saved. The table restarts in a moment."),
                             pygame.Rect(int(w * 0.1), int(h * 0.33), int(w * 0.8), int(h * 0.2)),
                             size=int(h * 0.05))
        theme.draw_text(surf, self.error[:120], pygame.Rect(int(w * 0.05), int(h * 0.56), int(w * 0.9),
                        int(h * 0.06)), colour=theme.INK_DIM)
        b = pygame.Rect(0, 0, max(self.touch * 4, int(w * 0.3)), max(self.touch, int(h * 0.12)))
        b.midbottom = (w // 2, int(h * 0.9))
        self.button(surf, b, _("OK"), lambda: self.app.go(Go.HOME), name="ok")
        return None


class ConfigErrorScene(Scene):
    """The fault screen: bad configuration or a start-up fault, instead of crash-looping.

    Each fault (``display.table.faults.Fault``) shows its title, what to do and its details; the
    button plays on where the table can (built-in settings, records queued) and the
    operator menu stays reachable (corner hold or F10).
    """

    name = "config_error"

    def __init__(self, app, *, errors: list[str] | None = None,
                 faults: list[Fault] | None = None) -> None:
        super().__init__(app)
        self.errors = list(errors if errors is not None else app.config_errors)
        self.faults = list(faults if faults is not None else app.faults)
        if self.errors and not any(f.code == "config" for f in self.faults):
            self.faults.insert(0, Fault("config", "; ".join(self.errors)))

    def lines(self) -> list[tuple[str, str]]:
        """What the screen says, as (style, text): title, advice, detail."""
        out: list[tuple[str, str]] = []
        for fault in self.faults:
            out.append(("title", fault.title()))
            out.append(("advice", fault.advice()))
            details = self.errors if fault.code == "config" else [fault.detail] if fault.detail else []
            out += [("detail", "• " + describe(d, _)) for d in details]  # config: in its words
        return out

    def draw(self, surf: pygame.Surface):
        surf.fill((70, 20, 20))
        w, h = self.size
        foot = max(self.touch, int(h * 0.11))
        hint_h = max(14, int(h * 0.04))
        area = pygame.Rect(int(w * 0.05), int(h * 0.03), int(w * 0.9),
                           h - int(h * 0.06) - foot - hint_h - 8)
        lines = self.lines()
        weight = {"title": 2.0, "advice": 1.3, "detail": 1.0}
        total = sum(weight[k] for k, _t in lines) or 1.0
        unit_h = max(14, min(int(h * 0.045), int(area.height / total)))
        y = area.top
        for kind, text in lines:
            line_h = int(unit_h * weight[kind])
            if y + line_h > area.bottom:
                break
            box = pygame.Rect(area.left, y, area.width, line_h)
            if kind == "title":
                theme.draw_text(surf, text, box, colour=theme.GOLD, bold=True)
            elif kind == "advice":
                theme.draw_text(surf, text, box)
            else:
                theme.draw_text(surf, text, box, align="left", colour=theme.INK_DIM)
            y += line_h
        theme.draw_text(surf, _(OPERATOR_HINT), pygame.Rect(area.left, h - foot - hint_h - int(h * 0.04),
                        area.width, hint_h), colour=theme.INK_DIM)
        b = pygame.Rect(0, 0, int(w * 0.5), foot)
        b.midbottom = (w // 2, h - int(h * 0.03))
        label = (_("Play with the built-in settings") if any(f.code == "config" for f in self.faults)
                 else _("OK"))
        self.button(surf, b, label, self.go_on, name="continue")
        return None

    def go_on(self) -> None:
        self.app.config_errors = []
        self.app.after_faults()
