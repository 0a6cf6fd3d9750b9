"""The middle of the gin table: stock and discard pile, the knock limit and knock card
(G-6), the scores, and the last move, turned to each player on a flat table."""

from __future__ import annotations

import pygame

from display import cardart, theme
from display.gin_text import card_name
from display.i18n import _, ngettext


class GinCentre:
    """Drawing of the gin table's centre (mixed into :class:`GinTableScene`)."""

    def _draw_centre(self, surf: pygame.Surface, area: pygame.Rect) -> None:
        h = self.hand
        if h is None:
            return
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
        pile_outline = None
        seat = self.m.to_act()[0] if self.m.to_act() else None
        if seat is not None and (self.find(seat, "draw_discard") or self.find(seat, "take_upcard")):
            pile_outline = cardart.HINT
        self.draw_piles(surf, len(h.stock), h.top_discard, pile_outline)
        label_h = max(14, int(ch * 0.16))
        theme.draw_text(surf, _("Stock: {n}").format(n=len(h.stock)),
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
        if self.app.settings.layout == "flat":
            # a flat table: the same summary twice, each block turned to the player nearest it
            near0, near1 = (right, left) if narrow else (left, right)
            lines = self._info_lines()
            self._draw_info(surf, near0, lines, 0)
            self._draw_info(surf, near1, lines, 180)
            return
        limit_text, card_text, hand_text = self._limit_lines()
        row = pygame.Rect(left.left, left.top, left.width, line)
        size = theme.common_size([limit_text, card_text, hand_text], row, int(line * 0.8), bold=True)
        theme.draw_text(surf, limit_text, row, size=size, bold=True, colour=theme.GOLD, align="left")
        if card_text:
            theme.draw_text(surf, card_text, row.move(0, line), size=size, align="left")
        theme.draw_text(surf, hand_text, row.move(0, 2 * line), size=size, align="left", colour=theme.INK_DIM)
        if self.centre_msg:
            theme.draw_text(surf, self.centre_msg, pygame.Rect(left.left, left.bottom - line, left.width, line),
                            size=size, align="left", colour=theme.INK)
        self._draw_scores(surf, right, line)

    def _limit_lines(self) -> tuple[str, str, str]:
        """The knock limit (G-6), the knock card in knock-card mode (G-6.2), the hand number."""
        h = self.hand
        limit = _("Gin only: no knocking") if h.knock_limit == 0 else _("Knock with {n} or less").format(
            n=h.knock_limit)
        card = (_("Knock card: {card}").format(card=card_name(h.upcard))
                if self.m.state.rules.knock_limit_mode == "knock_card" else "")
        return limit, card, _("Hand {n}").format(n=self.m.state.hand_number)

    def _score_lines(self) -> tuple[str, list[str]]:
        st = self.m.state
        title = _("Game {g} · to {t}").format(g=st.game_number, t=st.rules.game_target)
        lines = [ngettext("{name}: {points} ({boxes} box)", "{name}: {points} ({boxes} boxes)", st.boxes[seat])
                 .format(name=self.m.name(seat), points=st.scores[seat], boxes=st.boxes[seat]) for seat in (0, 1)]
        if st.rules.match == "best_of":
            lines.append(_("Games won: {a} – {b}").format(a=st.games_won[0], b=st.games_won[1]))
        return title, lines

    def _info_lines(self) -> list[tuple[str, tuple, bool]]:
        limit, card, _hand = self._limit_lines()
        title, scores = self._score_lines()
        out = [(limit, theme.GOLD, True)]
        if card:
            out.append((card, theme.INK, False))
        out.append((title, theme.GOLD, True))
        out += [(t, theme.INK, False) for t in scores]
        if self.centre_msg:
            out.append((self.centre_msg, theme.INK_DIM, False))
        return out

    def _draw_info(self, surf: pygame.Surface, box: pygame.Rect, lines, angle: int) -> None:
        """Summary lines in ``box``, turned by ``angle`` (0 or 180) to face a seat (each line
        drawn turned: no work surface to fill and flip)."""
        if box.width <= 0 or box.height <= 0:
            return
        if theme.TEXT_LOG is not None:
            self._draw_info_lines(surf, box, lines, angle)
            return
        # the lines that stay for a hand are drawn once on the felt and then blitted as one
        # piece; the last move (which changes every time) is drawn on top of it
        moving = len(lines) if not self.centre_msg else len(lines) - 1
        key = (box.size, tuple(lines[:moving]), len(lines), angle)
        cache = self.__dict__.setdefault("_info_art", {})
        if key not in cache:
            if len(cache) > 8:
                cache.clear()
            img = pygame.Surface(box.size).convert()
            img.fill(theme.FELT)
            drawn = self._draw_info_lines(img, img.get_rect(), lines, angle, stop=moving).clip(img.get_rect())
            cache[key] = img, drawn
        img, drawn = cache[key]
        surf.blit(img, drawn.move(box.topleft), drawn)  # the rest of the box is bare felt
        self._draw_info_lines(surf, box, lines, angle, start=moving)

    @staticmethod
    def _draw_info_lines(surf: pygame.Surface, box: pygame.Rect, lines, angle: int, *, start: int = 0,
                         stop: int | None = None) -> pygame.Rect:
        """Lines ``start:stop`` of the summary in ``box``; returns where they were drawn."""
        from display.layout import rotate_rect

        line = min(box.height // max(1, len(lines)), max(16, int(box.height * 0.2)))
        row = pygame.Rect(0, 0, box.width, line)
        # one size for the summary; the last move's line (dim) shrinks on its own if it is long
        size = theme.common_size([t for t, c, _b in lines if c != theme.INK_DIM], row, int(line * 0.8), bold=True)
        drawn = pygame.Rect(box.topleft, (0, 0))
        for i, (text, colour, bold) in list(enumerate(lines))[start:stop]:
            r = rotate_rect(row.move(0, i * line), box.size, angle).move(box.topleft)
            got = theme.draw_text(surf, text, r, size=size, colour=colour, bold=bold,
                                  align="right" if angle == 180 else "left", turned=angle == 180)
            drawn = got if not drawn.width else drawn.union(got)
        return drawn

    def _draw_scores(self, surf: pygame.Surface, box: pygame.Rect, line: int) -> None:
        title, lines = self._score_lines()
        row = pygame.Rect(box.left, box.top, box.width, line)
        size = theme.common_size([title, *lines], row, int(line * 0.8), bold=True)
        theme.draw_text(surf, title, row, size=size, align="right", colour=theme.GOLD, bold=True)
        for i, text in enumerate(lines):
            theme.draw_text(surf, text, row.move(0, (i + 1) * line), size=size, align="right",
                            colour=theme.INK if i < 2 else theme.INK_DIM)
