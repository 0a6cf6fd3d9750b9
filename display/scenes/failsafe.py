"""The failsafe (an error in kiosk mode) and the config-error screen."""

from __future__ import annotations

import pygame

from display import theme
from display.config import describe
from display.i18n import _
from display.scenes.base import Scene

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
            self.app.goto("attract")

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
        self.button(surf, b, _("OK"), lambda: self.app.goto("attract"), name="ok")
        return None


class ConfigErrorScene(Scene):
    """Bad configuration: list every error instead of crash-looping."""

    name = "config_error"

    def __init__(self, app, *, errors: list[str]) -> None:
        super().__init__(app)
        self.errors = list(errors)

    def draw(self, surf: pygame.Surface):
        surf.fill((70, 20, 20))
        w, h = self.size
        theme.draw_text(surf, _("The table's settings have errors"), pygame.Rect(int(w * 0.05), int(h * 0.03),
                        int(w * 0.9), int(h * 0.1)), colour=theme.GOLD, bold=True)
        theme.draw_text(surf, _("Fix the configuration file and restart. Until then the table uses its "
                                "built-in settings."),
                        pygame.Rect(int(w * 0.05), int(h * 0.14), int(w * 0.9), int(h * 0.06)))
        foot = max(self.touch, int(h * 0.11))
        area = pygame.Rect(int(w * 0.05), int(h * 0.22), int(w * 0.9), h - int(h * 0.28) - foot)
        line_h = max(16, min(int(h * 0.05), area.height // max(1, len(self.errors))))
        for i, err in enumerate(self.errors[: area.height // line_h]):
            theme.draw_text(surf, "• " + describe(err, _), pygame.Rect(area.left, area.top + i * line_h, area.width, line_h),
                            align="left", colour=theme.INK)
        b = pygame.Rect(0, 0, int(w * 0.5), foot)
        b.midbottom = (w // 2, h - int(h * 0.03))
        self.button(surf, b, _("Play with the built-in settings"), self.go_on, name="continue")
        return None

    def go_on(self) -> None:
        self.app.config_errors = []
        if not self.app.try_resume():
            self.app.goto("attract")
