"""Knock and layoff review, the hand's verdict, the running score sheet, game and match end.

Shows what the engine decided (``HandResult``, ``GameResult``): the knocker's melds and
deadwood, the defender's melds, layoffs and deadwood, both counts, and the verdict in
words (knock, gin, Big Gin, undercut, dead hand; G-12). Continue (once it has been shown
``[game] review_min_s``: a touch on Continue, or DRAW held on a person's buttons) deals the
next hand. Drawn by :class:`GinReviewPainter` from
:class:`display.table.viewmodels.review.GinReviewVM`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from display import cardart, theme
from display.layout import touch_px
from display.scenes.base import Target
from display.scenes.review_base import ReviewScene, draw_below_strip, draw_continue, draw_far_strip
from display.table.viewmodels.review import CardRow, GinReviewVM, SheetRow, gin_review
from rummy.gin.kinds import HandOutcome

if TYPE_CHECKING:  # pragma: no cover
    from display.app import App

INKS = {"ink": theme.INK, "gold": theme.GOLD, "dim": theme.INK_DIM, "warn": theme.WARN}


class GinReviewScene(ReviewScene):
    name = "gin_review"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.shot = False
        self.painter = GinReviewPainter(self.touch_continue)

    def screenshot_name(self) -> str | None:
        if self.shot:
            return None
        r = self.result
        if self.m.is_over:
            return "gin_match_end"
        if r is not None and r.outcome in (HandOutcome.KNOCK, HandOutcome.UNDERCUT):
            return "gin_knock_review"
        if r is not None and r.outcome in (HandOutcome.GIN, HandOutcome.BIG_GIN):
            return "gin_gin_review"
        return None

    @property
    def result(self) -> Any:
        h = self.m.state.hand
        return h.result if h is not None else None

    def view_model(self) -> GinReviewVM:
        s = self.app.settings
        return gin_review(self.m, far_strip=s.layout == "flat" and len(self.m.seats) == 2,
                          four_colour=s.four_colour)

    def draw(self, surf: pygame.Surface) -> list[pygame.Rect] | None:
        self.painter.ready, self.painter.how = self.waiting() == 0, self.how_to_continue()
        self.painter.draw(surf, self.size, self.view_model(), self.targets)
        self.shot = False
        return None


class GinReviewPainter:
    """Upright for the near seat; on a flat table a strip turned to the far seat repeats
    the verdict and the Continue button."""

    def __init__(self, proceed: Callable[[], None]) -> None:
        self.proceed = proceed  # a touch on Continue (the scene goes on once it may)
        self.ready = True  # Continue is lit: the review may go on (set by the scene before drawing)
        self.how = ""  # how to go on, beside Continue

    def draw(self, surf: pygame.Surface, size: tuple[int, int], vm: GinReviewVM, targets: list[Target]) -> None:
        w, h = size
        touch = touch_px(size)
        if not vm.far_strip:
            self._draw_main(surf, size, vm, targets, touch)
            return
        strip_h = max(touch + 24, int(h * 0.2))
        draw_below_strip(surf, size, strip_h, targets,
                         lambda part, part_size: self._draw_main(part, part_size, vm, targets, touch))
        draw_far_strip(surf, (w, strip_h), vm.title, vm.far_text, vm.next_label, targets, touch, self.proceed,
                       ready=self.ready, how=self.how)

    def _draw_main(self, surf: pygame.Surface, size: tuple[int, int], vm: GinReviewVM, targets: list[Target],
                   touch: int) -> None:
        surf.fill(theme.FELT_DARK)
        w, h = size
        theme.draw_text(surf, vm.title, pygame.Rect(int(w * 0.03), int(h * 0.01), int(w * 0.94), int(h * 0.1)),
                        colour=theme.GOLD, bold=True, align="left")
        foot_h = max(touch, int(h * 0.1))
        if w < h * 1.1:  # portrait: the cards and verdict above, the score sheet below
            left = pygame.Rect(int(w * 0.03), int(h * 0.1), int(w * 0.94), int(h * 0.5))
            right = pygame.Rect(left.left, left.bottom + int(h * 0.02), left.width,
                                h - left.bottom - int(h * 0.06) - foot_h)
        else:
            left = pygame.Rect(int(w * 0.03), int(h * 0.12), int(w * 0.55), h - int(h * 0.15) - foot_h)
            right = pygame.Rect(left.right + int(w * 0.03), left.top, w - left.right - int(w * 0.06), left.height)
        vbox = left
        if vm.rows:
            ch = min(int(left.height * 0.3), int(left.width / 8))
            for i, row in enumerate(vm.rows):
                self._row(surf, row, left.top + int(ch * 1.6) * i, ch, left, vm.four_colour)
            down = int(ch * 3.3) if len(vm.rows) > 1 else int(ch * 1.6)
            vbox = pygame.Rect(left.left, left.top + down, left.width, left.height - down)
        if vm.verdict:
            theme.draw_paragraph(surf, vm.verdict, vbox, size=max(16, int(h * 0.045)), align="left")
        self._sheet(surf, right, h, vm)
        draw_continue(surf, size, foot_h, vm.next_label, targets, self.proceed, ready=self.ready, how=self.how)

    @staticmethod
    def _cards(surf: pygame.Surface, cards: tuple[Any, ...], x: int, y: int, ch: int, four_colour: bool, *,
               highlight: tuple[Any, ...] = ()) -> int:
        cw, ch = cardart.card_size_for_height(ch)
        step = int(cw * 0.62)
        bar = max(4, ch // 14)
        for c in cards:  # a laid-off card (G-11): outlined in gold, a gold bar under it
            laid = c in highlight
            outline = cardart.SELECT if laid else None
            surf.blit(cardart.card_surface(c, (cw, ch), four_colour=four_colour, outline=outline), (x, y))
            if laid:
                surf.fill(theme.GOLD, pygame.Rect(x, y + ch + 2, step if c != cards[-1] else cw, bar))
            x += step
        return x + cw - step

    def _row(self, surf: pygame.Surface, row: CardRow, y: int, ch: int, area: pygame.Rect,
             four_colour: bool) -> None:
        theme.draw_text(surf, row.label, pygame.Rect(area.left, y, area.width, max(16, int(ch * 0.3))),
                        align="left", colour=theme.GOLD, bold=True)
        x = area.left
        y2 = y + max(18, int(ch * 0.32))
        for meld in row.melds:
            x = self._cards(surf, meld, x, y2, ch, four_colour, highlight=row.laid) + int(ch * 0.12)
        if row.dead:
            x += int(ch * 0.1)
            end = self._cards(surf, row.dead, x, y2, ch, four_colour)
            pygame.draw.line(surf, theme.WARN, (x, y2 + ch + 3), (end, y2 + ch + 3), 3)

    @staticmethod
    def _sheet(surf: pygame.Surface, box: pygame.Rect, height: int, vm: GinReviewVM) -> None:
        """The running score sheet: hand by hand, boxes, and the game tally when a game ends."""
        line = max(16, min(int(height * 0.05), box.height // 12))
        y = box.top
        col = [box.left, box.left + int(box.width * 0.4), box.left + int(box.width * 0.7)]
        colw = [int(box.width * 0.4), int(box.width * 0.3), int(box.width * 0.3)]

        def row(r: SheetRow) -> None:
            nonlocal y
            colour = INKS[r.ink]
            if all(c == "" for c in r.cells[1:]):  # a message across the whole sheet
                theme.draw_text(surf, r.cells[0], pygame.Rect(box.left, y, box.width, line),
                                align="left", colour=colour, bold=r.bold)
            else:
                for i, c in enumerate(r.cells):
                    theme.draw_text(surf, c, pygame.Rect(col[i], y, colw[i] - 6, line),
                                    align="left" if i == 0 else "right", colour=colour, bold=r.bold)
            y += line

        row(vm.sheet_head)
        if not vm.tally:
            fit = max(1, (box.bottom - y) // line - 3)  # the last hands that fit above the totals
            for r in vm.hands[-fit:]:
                row(r)
        for r in vm.sheet_foot:
            row(r)
