"""Game choice: gin rummy (standard, knock card, tournament, Pagat classic) on the left,
contract rummy (the seed rules, American May-I) on the right."""

from __future__ import annotations

import functools

import pygame

from display import theme
from display.scenes import Go
from display.scenes.base import Scene
from display.table.i18n import N_, _

GIN_CHOICES = (
    ("standard", N_("Gin rummy"), N_("Knock with 10 or less. First to 100 wins.")),
    ("knock_card", N_("Gin: knock card"), N_("The upcard sets the knock limit (Oklahoma).")),
    ("tournament", N_("Gin: tournament"), N_("Best of five games to 250.")),
    ("pagat_classic", N_("Gin: Pagat classic"), N_("Gin 20, undercut 10, the winner deals.")),
)
CONTRACT_CHOICES = (
    ("seed_002", N_("Contract rummy"), N_("Five deals, 2 to 6 players, buy with \u201cМожно?\u201d")),
    ("american_may_i", N_("Contract: May I"), N_("Runs of four; play goes on from the player in turn.")),
)


class ChoiceScene(Scene):
    name = "choice"

    def draw(self, surf: pygame.Surface):
        self.heading(surf, _("Choose a game"), 0.03, 0.12)
        w, h = self.size
        t = self.touch
        top, bottom = int(h * 0.17), h - max(t, int(h * 0.11)) - int(h * 0.05)
        gap = int(w * 0.03)
        col_w = (int(w * 0.9) - gap) // 2
        for c, (game, choices) in enumerate((("gin", GIN_CHOICES), ("contract", CONTRACT_CHOICES))):
            row_h = (bottom - top) // len(GIN_CHOICES)
            x = int(w * 0.05) + c * (col_w + gap)
            for i, (preset, title, blurb) in enumerate(choices):
                row = pygame.Rect(x, top + i * row_h, col_w, row_h - int(h * 0.015))
                btn = pygame.Rect(row.left, row.top, row.width, max(t, int(row.height * 0.55)))
                self.button(surf, btn, _(title), functools.partial(self.pick, game, preset),
                            name=f"game-{game}-{preset}")
                theme.draw_paragraph(surf, _(blurb), pygame.Rect(row.left, btn.bottom + 2, row.width,
                                                                 max(12, row.bottom - btn.bottom - 2)),
                                     size=max(12, int(row.height * 0.17)), align="left")
        back = pygame.Rect(int(w * 0.05), h - max(t, int(h * 0.11)) - int(h * 0.03), int(w * 0.25),
                           max(t, int(h * 0.11)))
        self.button(surf, back, _("Back"), lambda: self.app.go(Go.HOME), name="back")
        return None

    def pick(self, game: str, preset: str) -> None:
        self.app.go(Go.SEATING, game=game, preset=preset)
