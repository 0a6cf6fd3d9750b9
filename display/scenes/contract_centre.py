"""The middle of the contract table: the deal's contract, stock and pack, the melds on the
table by owner (touch one to lay off, C-5.2), and the "Можно?" question or the last move."""

from __future__ import annotations

import pygame

from display import cardart, theme
from display.contract_text import ASK_WORD, deal_title
from display.gin_text import card_name
from display.i18n import _
from display.scenes.base import Target
from rummy.contract.state import TURN


def _shown(card) -> float:
    """How much of a card's width shows under the next one in a meld: its whole index
    ("10" is wider than one letter)."""
    return 0.62 if card.rank == 10 else 0.42


class ContractCentre:
    """Drawing of the contract table's centre (mixed into :class:`ContractTableScene`)."""

    def _draw_centre(self, surf: pygame.Surface, area: pygame.Rect) -> None:
        surf.fill(theme.FELT, area)
        st = self.st
        area = area.inflate(-12, -8)
        line = max(16, min(int(area.height * 0.12), int(28 * self.u)))
        theme.draw_text(surf, deal_title(st), pygame.Rect(area.left, area.top, area.width, line),
                        colour=theme.GOLD, bold=True, align="left")
        body = pygame.Rect(area.left, area.top + line + 4, area.width, area.height - 2 * line - 8)
        # stock and pack on the left
        ch = int(min(body.height * 0.78, area.width * 0.16))
        cw, ch = cardart.card_size_for_height(ch)
        y = body.top + 2
        self.stock_rect = pygame.Rect(body.left + 2, y, cw, ch)
        self.pile_rect = pygame.Rect(self.stock_rect.right + cw // 5, y, cw, ch)
        outline = None
        if st.phase == TURN and self.find(st.turn, "draw_discard"):
            outline = cardart.HINT
        ask = self.asking
        self.draw_piles(surf, len(st.stock), st.top.card if st.top is not None else None,
                        cardart.SELECT if ask else outline)
        label_h = max(14, min(int(ch * 0.2), line))
        labels = (_("Stock: {n}").format(n=len(st.stock)), _("Pack: {n}").format(n=len(st.discard_pile)))
        lw = cw + cw // 6
        box = pygame.Rect(0, 0, lw, label_h)
        if any(theme.font(theme.fit_size(t, box, label_h)).size(t)[0] > lw for t in labels):
            labels = (str(len(st.stock)), str(len(st.discard_pile)))  # small piles (beside a hand tray)
        size = theme.common_size(labels, box, label_h)
        for text, r in zip(labels, (self.stock_rect, self.pile_rect), strict=True):
            theme.draw_text(surf, text, pygame.Rect(r.centerx - lw // 2, r.bottom + 2, lw, label_h), size=size,
                            colour=theme.INK_DIM)
        melds_box = pygame.Rect(self.pile_rect.right + cw // 3, body.top,
                                body.right - self.pile_rect.right - cw // 3, body.height)
        self._draw_melds(surf, melds_box)
        # the bottom line: the question being asked, or what just happened
        bottom = pygame.Rect(area.left, area.bottom - line, area.width, line)
        if ask is not None:
            asker, asked, card = ask
            text = _("{asker} asks {asked}: “{ask}” {card}").format(
                asker=self.m.name(asker), asked=self.m.name(asked), ask=ASK_WORD, card=card_name(card))
            if self.m.is_human(asked):
                text += "  · " + _("{n} s").format(n=int(self.answer_left() + 0.99))
            pygame.draw.rect(surf, theme.PANEL_ACTIVE, bottom.inflate(8, 4), border_radius=8)
            theme.draw_text(surf, text, bottom, colour=theme.GOLD, bold=True)
        else:
            theme.draw_text(surf, self.centre_msg, bottom, colour=theme.INK, align="left")

    def _draw_melds(self, surf: pygame.Surface, box: pygame.Rect) -> None:
        """The melds on the table, grouped by owner (touch one to lay off onto it)."""
        self.meld_rects = {}
        st = self.st
        owners = [s for s in range(self.seats) if any(m.owner == s for m in st.table_melds)]
        if not owners or box.width < 40 or box.height < 30:
            if box.width >= 40 and box.height >= 20:
                theme.draw_text(surf, _("No melds on the table yet"), pygame.Rect(box.left, box.top, box.width,
                                min(box.height, max(16, int(24 * self.u)))), colour=theme.INK_DIM, align="left")
            return
        cols = 1 if len(owners) <= 3 else 2
        rows = -(-len(owners) // cols)
        bw, bh = box.width // cols, box.height // rows
        four = self.app.settings.four_colour
        for i, owner in enumerate(owners):
            cell = pygame.Rect(box.left + (i % cols) * bw, box.top + (i // cols) * bh, bw - 6, bh - 4)
            label_h = max(14, min(int(bh * 0.24), int(22 * self.u)))
            theme.draw_text(surf, self.m.name(owner), pygame.Rect(cell.left, cell.top, cell.width, label_h),
                            align="left", colour=theme.GOLD if owner == st.turn else theme.INK_DIM, bold=True)
            melds = [m for m in st.table_melds if m.owner == owner]
            units = sum(1 + sum(_shown(c) for c in m.cards[:-1]) for m in melds) + 0.15 * (len(melds) - 1)
            ratio = cardart.card_size_for_height(100)[0] / 100
            ch = int(min(cell.height - label_h - 2, cell.width / max(1.0, units * ratio)))
            ch = max(12, ch)
            cw, ch = cardart.card_size_for_height(ch)
            x, y = cell.left, cell.top + label_h + 1
            for m in melds:
                start = x
                for c in m.cards[:-1]:
                    surf.blit(cardart.card_surface(c, (cw, ch), four_colour=four), (x, y))
                    x += max(1, int(cw * _shown(c)))
                surf.blit(cardart.card_surface(m.cards[-1], (cw, ch), four_colour=four), (x, y))
                r = pygame.Rect(start, y, x + cw - start, ch)
                self.meld_rects[m.id] = r
                t = self.touch
                self.targets.append(Target(r.inflate(max(0, t - r.width), max(0, t - r.height)),
                                           f"meld-{m.id}", lambda i=m.id: self.touch_meld(i)))
                x = r.right + int(cw * 0.15)
