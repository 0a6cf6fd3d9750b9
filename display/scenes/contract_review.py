"""The result of a contract rummy deal, the score sheet after each deal, the match end.

Shows what the engine decided (``DealResult``, C-7): who went out (+20, C-7.1), the cards
left in every other hand and what they cost (C-7.2, C-7.3), the running sheet deal by deal,
and after deal 5 the winner(s) (C-7.4, highest total; ties share). Continue (once it has been
shown ``[game] review_min_s``: a touch on Continue, or DRAW held on a person's buttons)
deals the next deal. Drawn by :class:`ContractReviewPainter`
from :class:`display.table.viewmodels.review.ContractReviewVM`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from display import cardart, theme
from display.layout import touch_px, unit
from display.scenes.base import Target
from display.scenes.review_base import ReviewScene, draw_below_strip, draw_continue, draw_far_strip
from display.table.viewmodels.review import ContractReviewVM, contract_review


class ContractReviewScene(ReviewScene):
    name = "contract_review"

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.painter = ContractReviewPainter(self.touch_continue)

    @property
    def result(self) -> Any:
        st = self.m.state
        return st.results[-1] if st.results else None

    def screenshot_name(self) -> str | None:
        return "contract_match_end" if self.m.is_over else "contract_deal_review"

    def draw(self, surf: pygame.Surface) -> list[pygame.Rect] | None:
        s = self.app.settings
        self.painter.ready, self.painter.how = self.waiting() == 0, self.how_to_continue()
        self.painter.draw(surf, self.size, contract_review(self.m, four_colour=s.four_colour,
                                                           far_strip=s.layout == "flat"), self.targets)
        return None


class ContractReviewPainter:
    """The deal's result by seat on the left, the score sheet on the right, Continue."""

    def __init__(self, proceed: Callable[[], None]) -> None:
        self.proceed = proceed  # a touch on Continue (the scene goes on once it may)
        self.ready = True  # Continue is lit: the review may go on (set by the scene before drawing)
        self.how = ""  # how to go on, beside Continue

    def draw(self, surf: pygame.Surface, size: tuple[int, int], vm: ContractReviewVM,
             targets: list[Target]) -> None:
        """Upright for the near side; on a flat table a strip at the top, turned 180° to the
        far side, repeats the title, the totals and Continue (as the gin review does)."""
        if not vm.far_strip:
            self._draw_main(surf, size, vm, targets)
            return
        strip_h = max(touch_px(size) + 24, int(size[1] * 0.18))
        draw_below_strip(surf, size, strip_h, targets,
                         lambda part, part_size: self._draw_main(part, part_size, vm, targets))
        strip = (size[0], strip_h)
        draw_far_strip(surf, strip, vm.title, vm.far_text, vm.next_label, targets, touch_px(strip), self.proceed,
                       ready=self.ready, how=self.how)

    def _draw_main(self, surf: pygame.Surface, size: tuple[int, int], vm: ContractReviewVM,
                   targets: list[Target]) -> None:
        surf.fill(theme.FELT_DARK)
        w, h = size
        theme.draw_text(surf, vm.title, pygame.Rect(int(w * 0.03), int(h * 0.01), int(w * 0.94), int(h * 0.09)),
                        colour=theme.GOLD, bold=True, align="left")
        foot_h = max(touch_px(size), int(h * 0.1))
        top = int(h * 0.11)
        share = 0.42 if w >= 1000 else 0.36  # a small screen gives the sheet more room
        left = pygame.Rect(int(w * 0.03), top, int(w * share), h - top - foot_h - int(h * 0.04))
        right = pygame.Rect(left.right + int(w * 0.02), top, w - left.right - int(w * 0.05), left.height)
        self._hands(surf, left, size, vm)
        self._sheet(surf, right, size, vm)
        draw_continue(surf, size, foot_h, vm.next_label, targets, self.proceed, ready=self.ready, how=self.how)

    @staticmethod
    def _hands(surf: pygame.Surface, box: pygame.Rect, size: tuple[int, int], vm: ContractReviewVM) -> None:
        """Each seat: this deal's points and the cards left in hand (C-7.2)."""
        if not vm.seats:
            return
        row_h = box.height // len(vm.seats)
        for seat, line in enumerate(vm.seats):
            y = box.top + seat * row_h
            label_h = max(14, min(int(row_h * 0.34), int(h_line(size))))
            theme.draw_text(surf, line.text, pygame.Rect(box.left, y, box.width, label_h), align="left",
                            colour=theme.GOLD if line.finisher else theme.INK, bold=line.finisher)
            cards = line.cards
            ch = max(12, row_h - label_h - 6)
            cw, ch = cardart.card_size_for_height(ch)
            step = max(4, min(int(cw * 0.5), (box.width - cw) // max(1, len(cards) - 1))) if cards else cw
            x = box.left
            for c in cards:
                surf.blit(cardart.card_surface(c, (cw, ch), four_colour=vm.four_colour), (x, y + label_h + 2))
                x += step

    @staticmethod
    def _sheet(surf: pygame.Surface, box: pygame.Rect, size: tuple[int, int], vm: ContractReviewVM) -> None:
        """The running sheet: one row per deal with its contract, totals at the bottom.

        One text size for the labels and one for the numbers, so the sheet reads as a table.
        """
        n = len(vm.names)
        line = max(16, min(int(size[1] * 0.06), box.height // (vm.deals + 2)))
        col_min = max(int(52 * unit(size)), int(box.width * 0.12))
        rows: list[tuple[tuple[str, ...], tuple[int, int, int], bool]] = [((vm.head, *vm.names), theme.GOLD, True)]
        rows += [(r.cells, theme.INK_DIM if r.ink == "dim" else theme.INK, r.bold) for r in vm.sheet]
        rows.append((vm.total.cells, theme.GOLD, True))
        # the seats' columns as wide as their names and numbers want, the labels keeping theirs
        widest_first = pygame.Rect(0, 0, max(1, box.width - n * col_min - 4), line)
        size_first = min(theme.fit_size(c[0], widest_first, line, bold) for c, _col, bold in rows)
        need_first = max(theme.font(size_first, bold).size(c[0])[0] for c, _col, bold in rows) + 8
        want_size = min(theme.ladder(line * 0.9), int(size_first * 1.25) + 1)
        want = max(theme.font(want_size, True).size(x)[0] for c, _col, _b in rows for x in c[1:]) + 10
        col_w = max(col_min, min(want, (box.width - need_first) // max(1, n)))
        first_w = box.width - n * col_w
        first_box = pygame.Rect(0, 0, first_w - 4, line)
        cell_box = pygame.Rect(0, 0, col_w - 4, line)
        size_first = min(theme.fit_size(c[0], first_box, line, bold) for c, _col, bold in rows)
        size_cells = min(theme.fit_size(x, cell_box, line, bold) for c, _col, bold in rows[1:] for x in c[1:])
        size_cells = min(size_cells, int(size_first * 1.25) + 1)  # numbers no louder than their labels
        # the names smaller than the numbers when that makes them fit their columns; cut only
        # when they fit at no readable size (about half the numbers' size: "Duarte" at 18 px
        # beside 30 px numbers, not "Dua…" at 20)
        name_size = max(min(theme.fit_size(x, cell_box, size_cells, True) for x in vm.names or ("",)),
                        theme.ladder(size_cells * 0.55), 12)
        rows[0] = ((vm.head, *[ellipsize(name, col_w - 4, name_size) for name in vm.names]), theme.GOLD, True)
        y = box.top
        for k, (cells, colour, bold) in enumerate(rows):
            theme.draw_text(surf, cells[0], pygame.Rect(box.left, y, first_w - 4, line), align="left",
                            colour=colour, bold=bold, size=size_first)
            for i, c in enumerate(cells[1:]):
                theme.draw_text(surf, c, pygame.Rect(box.left + first_w + i * col_w, y, col_w - 4, line),
                                align="right", colour=colour, bold=bold, size=name_size if k == 0 else size_cells)
            y += line


def ellipsize(text: str, width: int, size: int) -> str:
    """``text`` as initials or cut with "…" so it fits ``width`` at ``size`` px (narrow columns)."""
    f = theme.font(size, True)
    if f.size(text)[0] <= width:
        return text
    words = text.split()
    if len(words) > 1:  # "Computer 3" -> "C3", "Ana Maria" -> "AM"
        short = "".join(w if w.isdigit() else w[0] for w in words)
        if f.size(short)[0] <= width:
            return short
    while len(text) > 1 and f.size(text + "…")[0] > width:
        text = text[:-1]
    return text + "…"


def h_line(size: tuple[int, int]) -> float:
    return max(16, size[1] * 0.045)
