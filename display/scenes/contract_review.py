"""The result of a contract rummy deal, the score sheet after each deal, the match end.

Shows what the engine decided (``DealResult``, C-7): who went out (+20, C-7.1), the cards
left in every other hand and what they cost (C-7.2, C-7.3), the running sheet deal by deal,
and after deal 5 the winner(s) (C-7.4, highest total; ties share). Continue (touch, or DRAW
on any human seat's buttons) deals the next deal.
"""

from __future__ import annotations

import pygame

from display import cardart, theme
from display.contract_text import contract_words, points_text
from display.i18n import _
from display.scenes.review_base import ReviewScene
from rummy.contract.scoring import winners


class ContractReviewScene(ReviewScene):
    name = "contract_review"

    @property
    def st(self):
        return self.m.state

    @property
    def result(self):
        return self.st.results[-1] if self.st.results else None

    def screenshot_name(self) -> str | None:
        return "contract_match_end" if self.m.is_over else "contract_deal_review"

    def title(self) -> str:
        r = self.result
        if r is None:
            return _("Score sheet")
        if self.m.is_over:
            names = [self.m.name(s) for s in winners(self.st.scores)]
            if len(names) == 1:
                return _("{name} wins the match!").format(name=names[0])
            return _("Shared win: {names}").format(names=", ".join(names))
        if r.finisher is None:
            return _("Deal {n}: the stock ran out").format(n=r.deal_number)
        return _("Deal {n}: {name} went out").format(n=r.deal_number, name=self.m.name(r.finisher))

    def draw(self, surf: pygame.Surface):
        surf.fill(theme.FELT_DARK)
        w, h = self.size
        theme.draw_text(surf, self.title(), pygame.Rect(int(w * 0.03), int(h * 0.01), int(w * 0.94), int(h * 0.09)),
                        colour=theme.GOLD, bold=True, align="left")
        foot_h = max(self.touch, int(h * 0.1))
        top = int(h * 0.11)
        share = 0.42 if w >= 1000 else 0.36  # a small screen gives the sheet more room
        left = pygame.Rect(int(w * 0.03), top, int(w * share), h - top - foot_h - int(h * 0.04))
        right = pygame.Rect(left.right + int(w * 0.02), top, w - left.right - int(w * 0.05), left.height)
        self._hands(surf, left)
        self._sheet(surf, right)
        label = _("New game") if self.m.is_over else _("Next deal")
        btn = pygame.Rect(w - int(w * 0.35) - int(w * 0.03), h - foot_h - int(h * 0.02), int(w * 0.35), foot_h)
        self.button(surf, btn, label + "  ▶", self.proceed, hot=True, name="continue")
        theme.draw_text(surf, _("or press DRAW"), pygame.Rect(int(w * 0.03), btn.top, btn.left - int(w * 0.06),
                                                              foot_h), align="right", colour=theme.INK_DIM,
                        size=int(foot_h * 0.4))
        return None

    def _hands(self, surf: pygame.Surface, box: pygame.Rect) -> None:
        """Each seat: this deal's points and the cards left in hand (C-7.2)."""
        r = self.result
        if r is None:
            return
        n = len(self.m.seats)
        row_h = box.height // n
        four = self.app.settings.four_colour
        for seat in range(n):
            y = box.top + seat * row_h
            label_h = max(14, min(int(row_h * 0.34), int(h_line(self.size))))
            pts = r.points[seat]
            text = f"{self.m.name(seat)}: {points_text(pts)}"
            if r.finisher == seat:
                text += " · " + _("went out")
            theme.draw_text(surf, text, pygame.Rect(box.left, y, box.width, label_h), align="left",
                            colour=theme.GOLD if r.finisher == seat else theme.INK, bold=r.finisher == seat)
            cards = self.st.hands[seat] if self.st.hands else ()
            ch = max(12, row_h - label_h - 6)
            cw, ch = cardart.card_size_for_height(ch)
            step = max(4, min(int(cw * 0.5), (box.width - cw) // max(1, len(cards) - 1))) if cards else cw
            x = box.left
            for c in cards:
                surf.blit(cardart.card_surface(c, (cw, ch), four_colour=four), (x, y + label_h + 2))
                x += step

    def _sheet(self, surf: pygame.Surface, box: pygame.Rect) -> None:
        """The running sheet: one row per deal with its contract, totals at the bottom.

        One text size for the labels and one for the numbers, so the sheet reads as a table.
        """
        st = self.st
        n = len(self.m.seats)
        line = max(16, min(int(self.size[1] * 0.06), box.height // (st.rules.deals + 2)))
        col_w = max(int(52 * self.u), int(box.width * 0.12))
        first_w = box.width - n * col_w
        name_size = max(12, int(line * 0.6))
        rows: list[tuple[list, tuple, bool]] = [
            ([_("Deal"), *[ellipsize(self.m.name(s), col_w - 4, name_size) for s in range(n)]], theme.GOLD, True)]
        for i, contract in enumerate(st.rules.contracts):
            res = st.results[i] if i < len(st.results) else None
            label = f"{i + 1}. {contract_words(contract)}"
            if res is None:
                rows.append(([label, *[""] * n], theme.INK_DIM, False))
            else:
                rows.append(([label, *[f"{p:+d}" for p in res.points]], theme.INK, False))
        rows.append(([_("Total"), *st.scores], theme.GOLD, True))
        first_box = pygame.Rect(0, 0, first_w - 4, line)
        cell_box = pygame.Rect(0, 0, col_w - 4, line)
        size_first = min(theme.fit_size(str(c[0]), first_box, line, bold) for c, _col, bold in rows)
        size_cells = min(theme.fit_size(str(x), cell_box, line, bold) for c, _col, bold in rows for x in c[1:])
        size_cells = min(size_cells, int(size_first * 1.25) + 1)  # numbers no louder than their labels
        y = box.top
        for cells, colour, bold in rows:
            theme.draw_text(surf, str(cells[0]), pygame.Rect(box.left, y, first_w - 4, line), align="left",
                            colour=colour, bold=bold, size=size_first)
            for i, c in enumerate(cells[1:]):
                theme.draw_text(surf, str(c), pygame.Rect(box.left + first_w + i * col_w, y, col_w - 4, line),
                                align="right", colour=colour, bold=bold, size=size_cells)
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
