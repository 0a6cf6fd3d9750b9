"""A seat's panel on the contract table (2–6 seats, flat or upright): name, cards and
points, the status line, the hand (own groups, then the suggested contract, C-3) and the
call buttons from ``legal_actions`` (answers to "Можно?" carry their button, C-8.4)."""

from __future__ import annotations

import pygame

from display import cardart, theme
from display.contract_text import ASK_WORD, NO, YES, points_text
from display.controller import Call
from display.i18n import _, ngettext, pgettext
from display.layout import MIN_TOUCH_PX, SeatPanel, hand_rects, visible_part
from display.scenes.table_base import PanelPainter
from rummy.cards import SUITS
from rummy.contract.state import TURN

SQUEEZED_STRIP = 40  # px: a hand squeezed into one row keeps at least this much of each card


def _one_row(body: pygame.Rect, n: int, ch: int, raise_px: int) -> list[pygame.Rect]:
    """``n`` cards ``ch`` high in one row, centred in ``body``, overlapping as needed."""
    cw, ch = cardart.card_size_for_height(ch)
    step = min(cw + cw / 10, (body.width - cw) / (n - 1)) if n > 1 else 0
    x0 = body.centerx - (cw + step * (n - 1)) / 2
    y = body.top + raise_px
    return [pygame.Rect(round(x0 + i * step), y, cw, ch) for i in range(n)]


def _columns(body: pygame.Rect, n: int, raise_px: int) -> list[pygame.Rect]:
    """A tall, narrow hand: one to three columns of cards overlapping downwards (each card's
    index shows), whichever leaves the biggest part of each card to touch."""
    ratio = cardart.card_size_for_height(100)[0] / 100
    best: list[pygame.Rect] = []
    for cols in (1, 2, 3):
        gap = 4
        cw = (body.width - gap * (cols - 1)) // cols
        if cw < 12:
            break
        ch = min(int(cw / ratio), body.height - raise_px)
        cw, ch = cardart.card_size_for_height(ch)
        per_col = -(-n // cols)
        step = min(ch + ch / 10, (body.height - raise_px - ch) / (per_col - 1)) if per_col > 1 else 0
        x0 = body.centerx - (cols * cw + gap * (cols - 1)) / 2
        rects = [pygame.Rect(round(x0 + (i // per_col) * (cw + gap)), round(body.top + raise_px + (i % per_col) * step),
                             cw, ch) for i in range(n)]
        if not best or _touch_size(rects) > _touch_size(best):
            best = rects
    return best


def _touch_size(rects: list[pygame.Rect]) -> int:
    """The smallest side of any card's visible part (what a finger has to hit)."""
    return max(0, min((min(v.size) for v in (visible_part(rects, i) for i in range(len(rects)))), default=0))


class ContractPanels:
    """Drawing of the contract table's seat panels (mixed into :class:`ContractTableScene`)."""

    def _order(self, seat: int) -> tuple[list[int], list[tuple[int, int]], set[int]]:
        """Display order of hand indices, underlined groups (start, length), suggested indices.

        The player's own groups first, then the table's suggested contract (C-3), then the
        rest by suit and rank.
        """
        h = self.hand(seat)
        ui = self.ui[seat]
        used: set[int] = set()
        order: list[int] = []
        groups: list[tuple[int, int]] = []
        for g in ui.groups:
            groups.append((len(order), len(g)))
            order += g
            used.update(g)
        suggested: set[int] = set()
        a = self.find(seat, "meld") if not ui.groups else None
        if a is not None and a.melds:
            for meld in a.melds:
                idx = []
                for c in meld:
                    j = next((k for k in range(len(h)) if h[k] == c and k not in used and k not in idx), None)
                    if j is not None:
                        idx.append(j)
                groups.append((len(order), len(idx)))
                order += idx
                used.update(idx)
                suggested.update(idx)
        rest = sorted((k for k in range(len(h)) if k not in used), key=lambda k: (SUITS.index(h[k].suit), h[k].rank))
        return order + rest, groups, suggested

    def _words(self, p: SeatPanel) -> tuple:
        """What the panel's top lines say (name, cards and points, status) and in which colours."""
        seat, st, ui = p.seat, self.st, self.ui[p.seat]
        w = p.local_size[0]
        ask = self.asking
        asked_here = ask is not None and ask[1] == seat
        active = seat in self.m.to_act() and (st.phase != TURN or seat == st.turn) or asked_here
        down = st.contract_down[seat] if st.contract_down else False
        name = ("✓ " if down else "") + self.m.name(seat)  # ✓: the contract is down
        count = len(self.hand(seat))
        info = ngettext("{n} card", "{n} cards", count).format(n=count) + " · " + points_text(st.scores[seat])
        if st.dealer == seat and st.deal_number:
            info = _("dealer") + " · " + info
        status = ui.flash or self.hint(seat)
        if asked_here and self.m.is_human(seat) and not ui.flash:
            status = _("{text} · “{yes}” in {n} s").format(text=status, yes=YES, n=int(self.answer_left() + 0.99))
            if w < 600:  # the buttons say only Можно / Нельзя: the mapping goes here
                status = _("DRAW = {yes} · KNOCK = {no} · {n} s").format(
                    yes=YES, no=NO, n=int(self.answer_left() + 0.99))
        status_colour = theme.WARN if ui.flash or asked_here else theme.INK
        return name, info, status, status_colour, active, asked_here

    @staticmethod
    def _words_boxes(w: int, d: int) -> tuple:
        """(tall, row_h, name box, info box, status box) of a panel ``w`` × ``d``: an upright
        side panel (tall) has words over the cards; a narrow one one item per row."""
        narrow = w < 330  # a side panel at 800×480 with 5–6 seats
        if d > w * 1.2:
            row_h = max(14, min(int(w * 0.16), int(d * 0.07)))
            name_box = pygame.Rect(6, 3, w - 12, row_h)
            info_box = pygame.Rect(6, name_box.bottom, w - 12, 2 * row_h)
            return True, row_h, name_box, info_box, pygame.Rect(6, info_box.bottom + 1, w - 12, 3 * row_h)
        row_h = max(15, int(d * (0.11 if narrow else 0.15)))
        header = pygame.Rect(8, 3, w - 16, row_h)
        if narrow:
            name_box, info_box = header, header.move(0, row_h)
        else:
            name_box = pygame.Rect(header.left, header.top, int(header.width * 0.4), header.height)
            info_box = pygame.Rect(header.left + int(header.width * 0.42), header.top, int(header.width * 0.58),
                                   header.height)
        status_box = pygame.Rect(header.left, max(info_box.bottom, header.bottom) + 1, header.width, row_h)
        return False, row_h, name_box, info_box, status_box

    def _draw_words(self, pp: PanelPainter, words: tuple) -> pygame.Rect:
        """The top lines; returns the status line's box (the cards go under it)."""
        name, info, status, status_colour, active, _asked = words
        tall, row_h, name_box, info_box, status_box = self._words_boxes(*pp.p.local_size)
        colour = theme.GOLD if active else theme.INK
        pp.text(name, name_box, bold=True, align="left", colour=colour)
        if tall:
            pp.paragraph(info, info_box, size=int(row_h * 0.8), align="left", colour=theme.INK_DIM)
            pp.paragraph(status, status_box, size=int(row_h * 0.8), align="left", colour=status_colour)
        else:
            right = info_box.top == name_box.top  # name and info share the first row
            pp.text(info, info_box, align="right" if right else "left", colour=theme.INK_DIM)
            pp.text(status, status_box, align="left", colour=status_colour)
        return status_box

    def _repaint_words(self, surf: pygame.Surface, p: SeatPanel, words: tuple) -> None:
        """Only the top lines changed (a new card to ask for, a flash, the countdown)."""
        pp = PanelPainter(self, surf, p)
        _n, _i, _s, _c, active, asked_here = words
        area = pygame.Rect(0, 0, p.local_size[0], self._words_boxes(*p.local_size)[4].bottom + 1)
        clip = pp.surf.get_clip()
        pp.surf.set_clip(pp.at(area))  # the frame is redrawn only where the words are
        try:
            pp.fill(theme.PANEL_ACTIVE if active else theme.PANEL, area)
            self._draw_words(pp, words)
            if active:
                pp.frame(theme.WARN if asked_here else theme.GOLD, max(3, p.local_size[1] // 40))
        finally:
            pp.surf.set_clip(clip)
        pp.finish()

    def _panel_body(self, p: SeatPanel) -> tuple:
        """(tall, status box, hand's body, buttons, buttons per column, column width, column
        height, button height) of a seat's panel in its local coordinates."""
        seat = p.seat
        w, d = p.local_size
        tall, _row_h, _nb, _ib, status_box = self._words_boxes(w, d)
        gap = 4
        human = self.m.is_human(seat)
        if tall:
            per_col = self._slots[seat] = 1
            buttons = self._panel_buttons(seat)
            slots = max(1 if human else 0, len(buttons))
            bh = self.touch
            col_w, col_h = w - 12, slots * (bh + gap)
            body = pygame.Rect(6, status_box.bottom + 2, w - 12, d - status_box.bottom - 6 - col_h)
        else:
            # A human seat always keeps its button column, so picking a card never moves the hand.
            col_h = d - status_box.bottom - 6
            per_col = self._slots[seat] = self._per_col(d, col_h)
            buttons = self._panel_buttons(seat)
            col_w = max(int(self.touch * 1.5), int(w * 0.2)) if human or buttons else 0
            slots = max(per_col if human else 0, len(buttons))
            bh = max(self.touch, min((col_h - gap * (slots - 1)) // max(1, slots), int(d * 0.3)))
            ncols = -(-slots // per_col)
            used = ncols * (col_w + gap) + (4 if ncols else 0)
            body = pygame.Rect(8, status_box.bottom + 2, w - 16 - used, d - status_box.bottom - 5)
        return tall, status_box, body, buttons, per_col, col_w, col_h, bh

    def panel_touch(self, p: SeatPanel) -> int:
        """The smallest side of any card's part to touch in the seat's panel (face up)."""
        body = self._panel_body(p)[2]
        return _touch_size(self._hand_rects(body, len(self.hand(p.seat)), True, max(5, body.height // 10)))

    def _draw_panel(self, surf: pygame.Surface, p: SeatPanel, words: tuple) -> None:
        seat = p.seat
        w, d = p.local_size
        pp = PanelPainter(self, surf, p)  # upright layout, drawn straight onto the screen
        ui = self.ui[seat]
        _n, _i, _s, _c, active, asked_here = words
        bg = theme.PANEL_ACTIVE if active else theme.PANEL
        pp.fill(bg)
        self._draw_words(pp, words)
        gap = 4
        tall, status_box, body, buttons, per_col, col_w, col_h, bh = self._panel_body(p)
        h = self.hand(seat)
        up = self.face_up(seat)
        order, groups, suggested = self._order(seat) if up else (list(range(len(h))), [], set())
        raise_px = max(5, body.height // 10)
        rects = self._hand_rects(body, len(order), up, raise_px if up else 0)
        lifted = [r.move(0, -raise_px) if up and k in ui.selected else r for k, r in zip(order, rects, strict=True)]
        self._blit_hand(pp, seat, body, (h, order, groups, suggested, up, rects, lifted, bg))
        if active:  # drawn after the hand: a group's underline never covers the frame
            pp.frame(theme.WARN if asked_here else theme.GOLD, max(3, d // 40))
        local_targets = [(visible_part(rects, i), k) for i, k in enumerate(order)]  # (visible part, index)
        self.hand_screen_rects[seat] = [p.to_screen(r) for r in lifted]
        if buttons and not tall:
            bh = max(self.touch, min((col_h - gap * (per_col - 1)) // per_col, int(d * 0.3)))
        if buttons:
            col = pygame.Rect(w - 8 - col_w, status_box.bottom + 2, col_w, col_h)
            for i, (label, fn, hot, bname) in enumerate(buttons):
                c, r_ = divmod(i, per_col)
                r = pygame.Rect(col.left - c * (col_w + gap), col.top + r_ * (bh + gap), col_w, bh)
                if tall:
                    r = pygame.Rect(6, d - 4 - (len(buttons) - i) * (bh + gap), col_w, bh)
                pp.button(r, label, fn, hot=hot, name=f"{bname}-{seat}", seat=seat)
        pp.finish()
        self.panel_targets(p, local_targets, self.pick_card)

    def _blit_hand(self, pp: PanelPainter, seat: int, body: pygame.Rect, hand: tuple) -> None:
        """The hand as one cached layer (with the groups' underlines), turned like its panel:
        only a seat whose cards, picks or colours changed is re-rendered."""
        h, order, groups, suggested, up, rects, lifted, bg = hand
        d = pp.whole.height
        area = pygame.Rect(body.left, body.top, body.width, max(1, min(body.height + 4, d - body.top)))
        four = self.app.settings.four_colour
        picked = tuple(self.ui[seat].selected) if up else ()
        key = (h, tuple(order), tuple(groups), tuple(sorted(suggested)), up, picked, tuple(map(tuple, lifted)),
               area.size, bg, four, pp.p.angle)
        if area.width < 1 or area.height < 1:  # no room: cards straight onto the panel, as they fall
            for k, r in zip(order, lifted, strict=True):
                pp.blit(cardart.card_surface(h[k], r.size, face_up=up, four_colour=four), r)
            return
        cached = self._hand_layers.get(seat)
        if cached is None or cached[0] != key:
            layer = cached[1] if cached is not None and cached[1].get_size() == area.size else \
                pygame.Surface(area.size).convert()
            layer.fill(bg)
            dx, dy = -area.left, -area.top
            for k, r in zip(order, lifted, strict=True):
                outline = cardart.SELECT if k in picked else (cardart.HINT if up and k in suggested else None)
                layer.blit(cardart.card_surface(h[k], r.size, face_up=up, four_colour=four, outline=outline),
                           r.move(dx, dy))
            for g_start, g_len in groups:
                if g_len and g_start + g_len <= len(rects) and rects[g_start].top == rects[g_start + g_len - 1].top:
                    a, b = rects[g_start], rects[g_start + g_len - 1]
                    y = min(a.bottom + 2, d - 3) + dy
                    pygame.draw.line(layer, theme.GOLD, (a.left + 3 + dx, y), (b.right - 3 + dx, y), 3)
            shown = self.turn(layer, pp.p.angle) if pp.turned else layer
            cached = self._hand_layers[seat] = (key, layer, shown)
        pp.surf.blit(cached[2], pp.at(area))

    @staticmethod
    def _hand_rects(body: pygame.Rect, n: int, up: bool, raise_px: int) -> list[pygame.Rect]:
        """One row of cards, made smaller if need be so each shows a 9 mm strip; two rows only
        when one row would make them tiny (a face-down hand needs no strips)."""
        if n <= 0:
            return []
        strip_min = MIN_TOUCH_PX if up else 6
        ratio = cardart.card_size_for_height(100)[0] / 100
        if body.height > 1.5 * body.width:  # an upright side panel: cards stacked in columns
            return _columns(body, n, raise_px)
        ch = body.height - raise_px
        cw = int(ch * ratio)
        if n > 1 and body.width - cw < strip_min * (n - 1):
            fit = body.width - strip_min * (n - 1)
            if fit < max(24, cw * 0.55):
                # one row of 40 px strips (7.7 mm) still beats two rows of tiny cards
                if (body.width - max(24, int(cw * 0.7))) / (n - 1) < SQUEEZED_STRIP:
                    wrapped = hand_rects(body, n, body.height, min_strip=strip_min, raise_px=raise_px)
                    # a shallow panel (a flat side seat): two rows of tiny cards can be worse than
                    # one tight row of full-height cards
                    if cw >= body.width:
                        return wrapped
                    row = _one_row(body, n, body.height - raise_px, raise_px)
                    return wrapped if _touch_size(wrapped) >= _touch_size(row) else row
                fit = max(24, int(cw * 0.7))
            ch = min(ch, int(fit / ratio))
        return _one_row(body, n, ch, raise_px)

    def _per_col(self, d: int, col_h: int) -> int:
        """How many buttons fit one above the other in a panel ``d`` deep (at most two)."""
        return max(1, min(2, (col_h + 4) // (self.touch + 4)))

    def _play_slots(self, seat: int) -> int:
        return self._slots.get(seat, 2)

    def _panel_width(self, seat: int) -> int:
        return self.panels()[seat].local_size[0]

    def _panel_buttons(self, seat: int):
        """On-screen call buttons: what the table controller offers the seat now (answers
        to "Можно?" carry their arcade button, C-8.4)."""
        wide = self._panel_width(seat) >= 600
        in_turn = seat == self.st.turn
        out = []
        for b in self.ctl.screen_buttons(seat, face_up=self.face_up(seat)):
            if b.call is Call.CLEAR_BUTTON and self._play_slots(seat) < 2:
                continue  # no more than the reserved column holds, so the hand never moves under a finger
            if b.call is Call.TAKE_CARDS_BUTTON:
                label, name = ngettext("Take {n} card", "Take {n} cards", b.arg).format(n=b.arg), f"take{b.arg}"
            else:
                label, name = {
                    Call.YES_BUTTON: (f"{YES} (DRAW)" if wide else YES, "yes"),
                    Call.NO_BUTTON: (f"{NO} (KNOCK)" if wide else NO, "no"),
                    Call.CANCEL_BUTTON: (_("Cancel"), "cancel"),
                    Call.DRAW_BUTTON: (_("Draw"), "draw"),
                    Call.BUY_BUTTON: (_("Buy several") if in_turn else ASK_WORD, "buy"),  # the word one says
                    Call.DISCARD_BUTTON: (pgettext("call", "Discard"), "discard"),
                    Call.GROUP_BUTTON: (_("Group"), "group"),
                    Call.MELD_BUTTON: (_("Meld"), "meld"),
                    Call.CLEAR_BUTTON: (_("Clear"), "clear"),
                }[b.call]
            out.append((label, lambda c=b.call, a=b.arg: self.call(seat, c, a), b.hot, name))
        return out
