"""The deal screen of real cards (docs/real_cards.md): the dealer deals out of the shoe in
the order the table shows, one seat highlighted at a time; each seat's panel counts the
cards it has; the middle says where the next card goes and lists what the buttons, the
shoe and the slot mean in this game (the real-card call table).

The table shows no card: the cards are in the players' hands.
"""

from __future__ import annotations

from typing import Any

import pygame

from display import theme
from display.layout import centre_area, seat_panels
from display.real_cards import FIRST_PHASE, deal_text, help_lines
from display.scenes.base import Scene
from display.table.i18n import _, ngettext
from rummy.actions import TABLE

LIT = theme.PANEL_ACTIVE
PLAIN = theme.PANEL


class DealTableScene(Scene):
    name = "deal_table"

    @property
    def m(self) -> Any:
        return self.app.match

    def panels(self) -> list[Any]:
        return seat_panels(self.size, len(self.m.seats), layout=self.app.settings.layout)

    def notice_area(self) -> pygame.Rect:
        return centre_area(self.size, self.panels())

    def on_button(self, event: Any) -> None:
        """Nothing is called while the cards are dealt (every lamp is off: the app's
        ``show_lamps`` lights none on the deal screen)."""

    def next_due(self, now: float) -> float | None:
        return now + 0.05

    def update(self, now: float) -> None:
        super().update(now)
        key = (self.m.version, tuple(self.m.reads.dealt), self.app.settings.language)
        if key != getattr(self, "_key", None):
            self._key = key
            self.dirty = True

    def screenshot_name(self) -> str | None:
        dealt, _total, _seat = self.m.reads.deal_progress()
        return f"real-deal-{self.app.settings.language}" if dealt >= 5 else None

    def draw(self, surf: pygame.Surface) -> None:
        surf.fill(theme.FELT)
        reads, m = self.m.reads, self.m
        dealt, total, next_seat = reads.deal_progress()
        order = reads.dealt
        from display.table.controller.real_cards import deal_order

        seats_of = deal_order(m.game, m.state)
        counts = [sum(1 for i in range(len(order)) if seats_of[i] == s) for s in range(len(m.seats))]
        for panel in self.panels():
            lit = panel.seat == next_seat
            pygame.draw.rect(surf, LIT if lit else PLAIN, panel.rect.inflate(-8, -8), border_radius=14)
            if lit:
                pygame.draw.rect(surf, theme.GOLD, panel.rect.inflate(-8, -8), 4, border_radius=14)
            w, h = (v - 24 for v in panel.local_size)  # inside the lit seat's gold frame
            local = pygame.Surface((w, h)).convert()
            local.fill(LIT if lit else PLAIN)
            theme.draw_text(local, m.name(panel.seat), pygame.Rect(12, int(h * 0.12), w - 24, int(h * 0.3)),
                            bold=True, colour=theme.GOLD if lit else theme.INK)
            n = counts[panel.seat]
            theme.draw_text(local, ngettext("{n} card", "{n} cards", n).format(n=n),
                            pygame.Rect(12, int(h * 0.5), w - 24, int(h * 0.28)))
            if panel.angle:
                local = pygame.transform.rotate(local, panel.angle)
            surf.blit(local, local.get_rect(center=panel.rect.center))
        area = centre_area(self.size, self.panels())
        first, second = deal_text(reads, m.name)
        theme.draw_text(surf, _("Deal from the shoe"), pygame.Rect(area.left, area.top + 6, area.width,
                                                                   int(area.height * 0.12)), colour=theme.GOLD,
                        bold=True)
        theme.draw_text(surf, first, pygame.Rect(area.left, area.top + int(area.height * 0.14), area.width,
                                                 int(area.height * 0.14)), bold=True,
                        colour=theme.GOLD if next_seat == TABLE else theme.INK)
        theme.draw_text(surf, second, pygame.Rect(area.left, area.top + int(area.height * 0.29), area.width,
                                                  int(area.height * 0.1)))
        # what the readers do, and the calls of the phase after the deal (nothing cut short:
        # each line wraps in its share of the box, issue 28)
        lines = help_lines(m.game, (FIRST_PHASE[m.game],))
        box = pygame.Rect(area.left + 12, area.top + int(area.height * 0.42), area.width - 24,
                          int(area.height * 0.56))
        line_h = box.height // max(1, len(lines))
        for i, line in enumerate(lines):
            r = pygame.Rect(box.left, box.top + i * line_h, box.width, line_h)
            theme.draw_paragraph(surf, line, r, size=min(20, max(12, line_h // 2)), colour=theme.INK_DIM, align="left")
