"""Game choice: gin rummy (standard, knock card, tournament) or contract rummy."""

from __future__ import annotations

import functools

import pygame

from display import theme
from display.i18n import N_, _
from display.scenes.base import Scene

GIN_CHOICES = (
    ("standard", N_("Gin rummy"), N_("Knock with 10 or less. First to 100 wins.")),
    ("knock_card", N_("Gin: knock card"), N_("The upcard sets the knock limit (Oklahoma).")),
    ("tournament", N_("Gin: tournament"), N_("Best of five games to 250.")),
)
CONTRACT = ("standard", N_("Contract rummy"), N_("Five deals, 2 to 6 players, buy with \u201cМожно?\u201d"))


class ChoiceScene(Scene):
    name = "choice"

    def draw(self, surf: pygame.Surface):
        self.heading(surf, _("Choose a game"), 0.03, 0.12)
        w, h = self.size
        t = self.touch
        choices = [("gin", *c) for c in GIN_CHOICES]
        choices.append(("contract", *CONTRACT))
        top, bottom = int(h * 0.18), h - max(t, int(h * 0.11)) - int(h * 0.05)
        row_h = (bottom - top) // len(choices)
        for i, (game, preset, title, blurb) in enumerate(choices):
            row = pygame.Rect(int(w * 0.05), top + i * row_h, int(w * 0.9), row_h - int(h * 0.02))
            btn = pygame.Rect(row.left, row.top, int(row.width * 0.42), max(t, row.height))
            self.button(surf, btn, _(title), functools.partial(self.pick, game, preset), name=f"game-{game}-{preset}")
            theme.draw_paragraph(surf, _(blurb), pygame.Rect(btn.right + int(w * 0.03), row.top,
                                                         row.right - btn.right - int(w * 0.03), row.height),
                                 size=max(14, int(row.height * 0.28)), align="left")
        back = pygame.Rect(int(w * 0.05), h - max(t, int(h * 0.11)) - int(h * 0.03), int(w * 0.25),
                           max(t, int(h * 0.11)))
        self.button(surf, back, _("Back"), lambda: self.app.goto("attract"), name="back")
        return None

    def pick(self, game: str, preset: str) -> None:
        self.app.goto("seating", game=game, preset=preset)
