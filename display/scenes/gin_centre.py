"""The middle of the gin table: stock and discard pile, the knock limit and knock card
(G-6), the scores, and the last move, turned to each player on a flat table; a banner over
it (an illegal knock, G-8). Drawn from :class:`display.table.viewmodels.gin.GinCentreVM`."""

from __future__ import annotations

from typing import Protocol

import pygame

from display import cardart, pixels, theme
from display.layout import rotate_rect
from display.scenes.base import Target
from display.scenes.painting import PileHooks, draw_piles, rect
from display.table.i18n import _
from display.table.viewmodels.gin import GinCentreVM

INKS = {"gold": theme.GOLD, "ink": theme.INK, "dim": theme.INK_DIM}
Line = tuple[str, str, bool]


class CentreHooks(PileHooks, Protocol):
    def dismiss_banner(self) -> None: ...


class GinCentrePainter:
    """Draws the centre; keeps where the piles are (touches and animations)."""

    def __init__(self, hooks: CentreHooks) -> None:
        self.hooks = hooks
        self.stock_rect = pygame.Rect(0, 0, 0, 0)
        self.pile_rect = pygame.Rect(0, 0, 0, 0)
        self._info_art: dict[tuple[object, ...], tuple[pygame.Surface, pygame.Rect]] = {}

    def draw(self, surf: pygame.Surface, area: pygame.Rect, vm: GinCentreVM | None, targets: list[Target]) -> None:
        pixels.fill(surf, theme.FELT, area)  # the panels cover the rest
        if vm is not None:
            self._draw(surf, rect(vm.area), vm, targets)
            if vm.banner:
                box = pygame.Rect(area.left + area.width // 12, area.top + 4, area.width * 10 // 12, area.height - 8)
                pygame.draw.rect(surf, (120, 30, 30), box, border_radius=12)
                theme.draw_paragraph(surf, vm.banner, box.inflate(-24, -12), size=max(16, box.height // 6))
                targets.append(Target(box, "banner", self.hooks.dismiss_banner))

    def _draw(self, surf: pygame.Surface, area: pygame.Rect, vm: GinCentreVM, targets: list[Target]) -> None:
        narrow = area.width < 2.2 * area.height  # portrait: texts above and below the cards
        if narrow:
            info_h = int(area.height * 0.26)
            cards_area = pygame.Rect(area.left, area.top + info_h, area.width, area.height - 2 * info_h)
        else:
            cards_area = area
        card_h = int(min(cards_area.height * 0.72, area.width * 0.22))
        cw, ch = cardart.card_size_for_height(card_h)
        mid_y = cards_area.centery - ch // 2 - int(ch * 0.08)
        self.stock_rect = pygame.Rect(area.centerx - cw - cw // 4, mid_y, cw, ch)
        self.pile_rect = pygame.Rect(area.centerx + cw // 4, mid_y, cw, ch)
        draw_piles(surf, self.stock_rect, self.pile_rect, vm.stock, vm.top,
                   outline=cardart.HINT if vm.pile_hint else None, four_colour=vm.four_colour, touch=vm.touch,
                   hooks=self.hooks, targets=targets)
        label_h = max(14, int(ch * 0.16))
        theme.draw_text(surf, _("Stock: {n}").format(n=vm.stock),
                        pygame.Rect(self.stock_rect.left - cw // 4, self.stock_rect.bottom + 2, cw + cw // 2, label_h),
                        size=label_h, colour=theme.INK_DIM)
        theme.draw_text(surf, _("Discard"),
                        pygame.Rect(self.pile_rect.left - cw // 4, self.pile_rect.bottom + 2, cw + cw // 2, label_h),
                        size=label_h, colour=theme.INK_DIM)
        # Left (or above): the knock limit and the knock card (G-6). Right (or below): scores.
        if narrow:
            left = pygame.Rect(area.left + 8, area.top + 4, area.width - 16, info_h - 8)
            right = pygame.Rect(area.left + 8, area.bottom - info_h + 4, area.width - 16, info_h - 8)
        else:
            side_w = max(0, (area.width - 2 * (cw + cw // 4) - cw) // 2)
            left = pygame.Rect(area.left + 8, area.top + 6, side_w - 8, area.height - 12)
            right = pygame.Rect(self.pile_rect.right + cw // 2, area.top + 6,
                                area.right - self.pile_rect.right - cw // 2 - 8, area.height - 12)
        line = max(16, min(int(area.height * 0.16), left.height // 4))
        if vm.flat:
            # a flat table: the same summary twice, each block turned to the player nearest it
            near0, near1 = (right, left) if narrow else (left, right)
            lines = vm.info_lines()
            self._draw_info(surf, near0, lines, 0, bool(vm.centre_msg))
            self._draw_info(surf, near1, lines, 180, bool(vm.centre_msg))
            return
        row = pygame.Rect(left.left, left.top, left.width, line)
        size = theme.common_size([vm.limit, vm.knock_card, vm.hand_line], row, int(line * 0.8), bold=True)
        theme.draw_text(surf, vm.limit, row, size=size, bold=True, colour=theme.GOLD, align="left")
        if vm.knock_card:
            theme.draw_text(surf, vm.knock_card, row.move(0, line), size=size, align="left")
        theme.draw_text(surf, vm.hand_line, row.move(0, 2 * line), size=size, align="left", colour=theme.INK_DIM)
        if vm.centre_msg:
            theme.draw_text(surf, vm.centre_msg, pygame.Rect(left.left, left.bottom - line, left.width, line),
                            size=size, align="left", colour=theme.INK)
        self._draw_scores(surf, right, line, vm)

    def _draw_info(self, surf: pygame.Surface, box: pygame.Rect, lines: tuple[Line, ...], angle: int,
                   last_move: bool) -> None:
        """Summary lines in ``box``, turned by ``angle`` (0 or 180) to face a seat (each line
        drawn turned: no work surface to fill and flip)."""
        if box.width <= 0 or box.height <= 0:
            return
        if theme.TEXT_LOG is not None:
            _draw_info_lines(surf, box, lines, angle)
            return
        # the lines that stay for a hand are drawn once on the felt and then blitted as one
        # piece; the last move (which changes every time) is drawn on top of it
        moving = len(lines) - 1 if last_move else len(lines)
        key = (box.size, lines[:moving], len(lines), angle)
        cache = self._info_art
        if key not in cache:
            if len(cache) > 8:
                cache.clear()
            img = pygame.Surface(box.size).convert()
            img.fill(theme.FELT)
            drawn = _draw_info_lines(img, img.get_rect(), lines, angle, stop=moving).clip(img.get_rect())
            cache[key] = img, drawn
        img, drawn = cache[key]
        pixels.blit_opaque(surf, img, drawn.move(box.topleft), drawn)  # the rest of the box is bare felt
        _draw_info_lines(surf, box, lines, angle, start=moving)

    @staticmethod
    def _draw_scores(surf: pygame.Surface, box: pygame.Rect, line: int, vm: GinCentreVM) -> None:
        row = pygame.Rect(box.left, box.top, box.width, line)
        size = theme.common_size([vm.title, *vm.scores], row, int(line * 0.8), bold=True)
        theme.draw_text(surf, vm.title, row, size=size, align="right", colour=theme.GOLD, bold=True)
        for i, text in enumerate(vm.scores):
            theme.draw_text(surf, text, row.move(0, (i + 1) * line), size=size, align="right",
                            colour=theme.INK if i < 2 else theme.INK_DIM)


def _draw_info_lines(surf: pygame.Surface, box: pygame.Rect, lines: tuple[Line, ...], angle: int, *,
                     start: int = 0, stop: int | None = None) -> pygame.Rect:
    """Lines ``start:stop`` of the summary in ``box``; returns where they were drawn."""
    line = min(box.height // max(1, len(lines)), max(16, int(box.height * 0.2)))
    row = pygame.Rect(0, 0, box.width, line)
    # one size for the summary; the last move's line (dim) shrinks on its own if it is long
    size = theme.common_size([t for t, ink, _b in lines if ink != "dim"], row, int(line * 0.8), bold=True)
    drawn = pygame.Rect(box.topleft, (0, 0))
    for i, (text, ink, bold) in list(enumerate(lines))[start:stop]:
        r = rotate_rect(row.move(0, i * line), box.size, angle).move(box.topleft)
        got = theme.draw_text(surf, text, r, size=size, colour=INKS[ink], bold=bold,
                              align="right" if angle == 180 else "left", turned=angle == 180)
        drawn = got if not drawn.width else drawn.union(got)
    return drawn
