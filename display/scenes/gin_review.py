"""Knock and layoff review, the hand's verdict, the running score sheet, game and match end.

Shows what the engine decided (``HandResult``, ``GameResult``): the knocker's melds and
deadwood, the defender's melds, layoffs and deadwood, both counts, and the verdict in
words (knock, gin, Big Gin, undercut, dead hand; G-12). Continue (touch, or DRAW on any
seat's buttons) deals the next hand. Drawn by :class:`GinReviewPainter` from
:class:`display.viewmodels.review.GinReviewVM`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from display import cardart, theme
from display.i18n import _
from display.layout import rotate_rect, touch_px
from display.scenes.base import Target, draw_button
from display.scenes.review_base import ReviewScene
from display.viewmodels.review import CardRow, GinReviewVM, SheetRow, gin_review

if TYPE_CHECKING:  # pragma: no cover
    from display.app import App

INKS = {"ink": theme.INK, "gold": theme.GOLD, "dim": theme.INK_DIM, "warn": theme.WARN}


class GinReviewScene(ReviewScene):
    name = "gin_review"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.shot = False
        self.painter = GinReviewPainter(self.proceed)

    def screenshot_name(self) -> str | None:
        if self.shot:
            return None
        r = self.result
        if self.m.is_over:
            return "gin_match_end"
        if r is not None and r.outcome in ("knock", "undercut"):
            return "gin_knock_review"
        if r is not None and r.outcome in ("gin", "big_gin"):
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
        self.painter.draw(surf, self.size, self.view_model(), self.targets)
        self.shot = False
        return None


class GinReviewPainter:
    """Upright for the near seat; on a flat table a strip turned to the far seat repeats
    the verdict and the Continue button."""

    def __init__(self, proceed: Callable[[], None]) -> None:
        self.proceed = proceed

    def draw(self, surf: pygame.Surface, size: tuple[int, int], vm: GinReviewVM, targets: list[Target]) -> None:
        w, h = size
        touch = touch_px(size)
        if not vm.far_strip:
            self._draw_main(surf, size, vm, targets, touch)
            return
        strip_h = max(touch + 24, int(h * 0.2))
        log = theme.TEXT_LOG
        mark_t, mark_l = len(targets), (len(log) if log is not None else 0)
        self._draw_main(surf.subsurface((0, strip_h, w, h - strip_h)), (w, h - strip_h), vm, targets, touch)
        for t in targets[mark_t:]:
            t.rect = t.rect.move(0, strip_h)
        if log is not None:
            for j in range(mark_l, len(log)):
                r = log[j]
                log[j] = theme.TextRecord(r.text, r.box.move(0, strip_h), r.drawn.move(0, strip_h), r.fits)
        self._draw_far_strip(surf, (w, strip_h), vm, targets, touch)

    def _button(self, surf: pygame.Surface, r: pygame.Rect, label: str, name: str, targets: list[Target]) -> None:
        draw_button(surf, r, label, hot=True)
        targets.append(Target(r, name, self.proceed))

    def _draw_far_strip(self, surf: pygame.Surface, size: tuple[int, int], vm: GinReviewVM,
                        targets: list[Target], touch: int) -> None:
        w, sh = size
        local = pygame.Surface(size).convert()
        local.fill(theme.PANEL)
        log = theme.TEXT_LOG
        mark_t, mark_l = len(targets), (len(log) if log is not None else 0)
        btn_w = max(touch * 3, int(w * 0.26))
        text_box = pygame.Rect(10, 6, w - btn_w - 30, sh - 12)
        line = max(16, min(int(sh * 0.3), 40))
        theme.draw_text(local, vm.title, pygame.Rect(text_box.left, text_box.top, text_box.width, line),
                        colour=theme.GOLD, bold=True, align="left")
        theme.draw_paragraph(local, vm.far_text, pygame.Rect(text_box.left, text_box.top + line, text_box.width,
                                                             text_box.height - line),
                             size=max(14, int(line * 0.6)), align="left")
        b = pygame.Rect(w - btn_w - 10, (sh - max(touch, int(sh * 0.6))) // 2, btn_w, max(touch, int(sh * 0.6)))
        self._button(local, b, vm.next_label + "  ▶", "continue-far", targets)
        for t in targets[mark_t:]:
            t.rect = rotate_rect(t.rect, size, 180)
        if log is not None:
            for j in range(mark_l, len(log)):
                rec = log[j]
                log[j] = theme.TextRecord(rec.text, rotate_rect(rec.box, size, 180),
                                          rotate_rect(rec.drawn, size, 180), rec.fits)
        surf.blit(pygame.transform.flip(local, True, True), (0, 0))

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
        btn = pygame.Rect(w - int(w * 0.35) - int(w * 0.03), h - foot_h - int(h * 0.02), int(w * 0.35), foot_h)
        self._button(surf, btn, vm.next_label + "  ▶", "continue", targets)
        theme.draw_text(surf, _("or press DRAW"), pygame.Rect(int(w * 0.03), btn.top, btn.left - int(w * 0.06),
                                                              foot_h), align="right", colour=theme.INK_DIM,
                        size=int(foot_h * 0.4))

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
