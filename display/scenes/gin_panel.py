"""A seat's panel on the gin table: name, status line, the hand (suggested melds under a
gold bar, G-2.4; the suggested discard outlined), the deadwood count and the call buttons
(from ``legal_actions``). Redrawn only when what it shows changed."""

from __future__ import annotations

import pygame

from display import cardart, theme
from display.controller import Call
from display.gin_text import card_name
from display.i18n import _
from display.layout import SeatPanel, hand_rects, rotate_rect, visible_part
from display.scenes.table_base import turned_copy
from rummy.cards import Card
from rummy.gin.melds import best_discard, best_melds


class GinPanels:
    """Drawing of the gin table's seat panels (mixed into :class:`GinTableScene`)."""

    def _panel_key(self, p: SeatPanel) -> tuple:
        """Everything a seat's panel shows: it is redrawn only when this changes."""
        seat, ui, h = p.seat, self.ui[p.seat], self.hand
        hand = (tuple(h.hands[seat]), h.dealer) if h is not None else ()
        kinds = tuple(sorted({a.kind for a in self.legal(seat)}))
        return (p.rect.topleft, p.rect.size, p.angle, hand, ui.selected, ui.mode, ui.flash,
                self.face_up(seat), self._settings_key(), tuple(self.m.to_act()), kinds,
                self.hint(seat), self.m.name(seat))

    def _draw_panel(self, surf: pygame.Surface, p: SeatPanel, dirty: list[pygame.Rect]) -> None:
        """Draw a seat's panel when what it shows changed."""
        self.region(("panel", p.seat), self._panel_key(p), p.rect, lambda: self._render_panel(surf, p), dirty)

    def _render_panel(self, surf: pygame.Surface, p: SeatPanel) -> None:
        """Draw a seat's panel straight onto the screen: laid out upright in local
        coordinates, each piece placed with ``p.to_screen`` (turned pieces for the far seat,
        so no work surface is filled and flipped)."""
        seat = p.seat
        w, d = p.local_size
        turned = p.angle == 180
        at = p.to_screen

        def text(t: str, box: pygame.Rect, align: str, **kw) -> None:
            if turned:
                align = {"left": "right", "right": "left"}.get(align, align)
            theme.draw_text(surf, t, at(box), align=align, turned=turned, **kw)

        h = self.hand
        active = bool(self.m.to_act()) and self.m.to_act()[0] == seat
        header = pygame.Rect(8, 4, w - 16, max(22, int(d * 0.2)))
        ui = self.ui[seat]
        buttons = self._panel_buttons(seat)
        col_w = max(self.touch * 2, int(w * 0.19))
        body = pygame.Rect(8, header.bottom + 4, w - 16 - col_w - 8, d - header.bottom - 8)
        cards = list(h.hands[seat]) if h is not None else []
        up = self.face_up(seat)
        order, suggest, dead_text, groups = self._arrangement(cards) if up else (cards, None, "", [])
        raise_px = max(6, body.height // 10)
        info = None
        if dead_text:  # the deadwood line sits under the header, left of the buttons
            info = pygame.Rect(body.left, body.top, body.width, max(16, int(body.height * 0.16)))
            body = pygame.Rect(body.left, info.bottom, body.width, body.bottom - info.bottom)
        rects = hand_rects(body, len(order), body.height, min_strip=self.touch, raise_px=raise_px)
        selected = ui.selected if up else None
        lifted = [r.move(0, -raise_px) if card == selected else r for card, r in zip(order, rects, strict=True)]
        hand_key = (tuple(order), up, selected, suggest, tuple(groups), body.size, tuple(map(tuple, lifted)),
                    self.app.settings.four_colour, turned)
        hand_at = at(body)
        frame_w = max(3, d // 40)
        # The hand is left as it is on the screen when only the header or the buttons changed
        # (it lies clear of the header; where the gold frame may cross it, it is put back below).
        keep_hand = (("panel", seat) in self._regions and self._hand_shown.get(seat) == (hand_key, tuple(hand_at))
                     and self._hands.get(seat, (None,))[0] == hand_key and theme.TEXT_LOG is None)
        if keep_hand:
            _fill_around(surf, p.rect, hand_at, theme.PANEL)
            layer = self._hands[seat][1]
            inner = p.rect.inflate(-2 * frame_w, -2 * frame_w)
            for band in _around(p.rect, inner):  # the frame's band: the hand as it is without it
                part = band.clip(hand_at)
                if part.width and part.height:
                    surf.blit(layer, part, part.move(-hand_at.left, -hand_at.top))
        else:
            surf.fill(theme.PANEL, p.rect)
        if active:  # the seat to play: a lit header and a gold frame
            surf.fill(theme.PANEL_ACTIVE, at(pygame.Rect(0, 0, w, header.bottom + 2)))
        name = self.m.name(seat) + ("  · " + _("dealer") if h is not None and h.dealer == seat else "")
        text(name, pygame.Rect(header.left, header.top, int(header.width * 0.3), header.height),
             bold=True, align="left", colour=theme.GOLD if active else theme.INK)
        status = ui.flash or self.hint(seat)
        text(status, pygame.Rect(header.left + int(header.width * 0.3), header.top, int(header.width * 0.7),
                                 header.height), align="right", colour=theme.WARN if ui.flash else theme.INK)
        if info is not None:
            text(dead_text, info, align="left", colour=theme.INK_DIM)
        if not keep_hand:
            self._blit_hand(surf, p, body, order, lifted, up, selected, suggest, groups, rects, raise_px, hand_key)
            self._hand_shown[seat] = (hand_key, tuple(hand_at))
        if active:
            pygame.draw.rect(surf, theme.GOLD, p.rect, frame_w)
        screen_rects = [p.to_screen(r) for r in lifted]
        self.hand_screen_rects[seat] = screen_rects
        # the call buttons column
        col = pygame.Rect(w - 8 - col_w, header.bottom + 4, col_w, d - header.bottom - 10)
        if buttons:
            bh = max(self.touch, min(int(col.height / len(buttons)) - 6, int(d * 0.3)))
            for i, (label, fn, hot, bname) in enumerate(buttons):
                r = pygame.Rect(col.left, col.top + i * (bh + 6), col.width, bh)
                self.button(surf, at(r), label, fn, hot=hot, name=f"{bname}-{seat}", seat=seat, turned=turned)
        self.panel_targets(p, [(visible_part(rects, i), card) for i, card in enumerate(order)], self.pick_card)

    def _blit_hand(self, surf, p, body, order, lifted, up, selected, suggest, groups, rects, raise_px,
                   key) -> None:
        """The hand as one cached layer, already turned to face the seat: only the seat
        whose cards changed is redrawn."""
        turned = p.angle == 180
        cached = self._hands.get(p.seat)
        if cached is None or cached[0] != key:
            size = body.size

            def place(r: pygame.Rect) -> pygame.Rect:
                return rotate_rect(r, size, 180) if turned else r

            layer = cached[1] if cached is not None and cached[1].get_size() == size else \
                pygame.Surface(size).convert()
            layer.fill(theme.PANEL)
            origin = (-body.left, -body.top)
            for card, r in zip(order, lifted, strict=True):
                outline = cardart.SELECT if card == selected else (cardart.HINT if up and card == suggest else None)
                img = cardart.card_surface(card, r.size, face_up=up, four_colour=self.app.settings.four_colour,
                                           outline=outline)
                layer.blit(turned_copy(img, 180) if turned else img, place(r.move(origin)))
            for g_start, g_len in groups:
                if g_start + g_len <= len(rects):
                    a, b = rects[g_start].move(origin), rects[g_start + g_len - 1].move(origin)
                    width = max(3, raise_px // 3)
                    y = a.top - max(3, raise_px // 2)  # a bar over each suggested meld
                    bar = place(pygame.Rect(a.left + 4, y - width // 2, b.right - a.left - 8, width))
                    layer.fill(theme.GOLD, bar)
            cached = self._hands[p.seat] = (key, layer)
        surf.blit(cached[1], p.to_screen(body))

    def _arrangement(self, cards: list[Card]):
        """Suggested order: melds, then deadwood (G-2.4); with 11 cards the suggested discard last."""
        if not cards:
            return cards, None, "", []
        suggest = None
        if len(cards) == 11:
            suggest, melds, dead = best_discard(cards)
        else:
            melds, dead = best_melds(cards)
        order: list[Card] = []
        groups = []
        for meld in melds:
            groups.append((len(order), len(meld)))
            order += sorted(meld, key=lambda c: (c.suit, c.rank))
        order += sorted(dead, key=lambda c: (c.rank, c.suit))
        if suggest is not None:
            order.append(suggest)
        count = sum(c.value for c in dead)
        if suggest is not None:
            text = _("Deadwood {n} after discarding {card}").format(n=count, card=card_name(suggest))
        else:
            text = _("Deadwood {n}").format(n=count)
        return order, suggest, text, groups

    def _panel_buttons(self, seat: int):
        """On-screen call buttons: what the table controller offers the seat now."""
        knocking = self.ui[seat].mode == "knock"
        words = {
            Call.TAKE_BUTTON: (_("Take"), "take"),
            Call.PASS_BUTTON: (_("Pass"), "pass"),
            Call.DRAW_BUTTON: (_("Draw"), "draw"),
            Call.BIG_GIN_BUTTON: (_("Big Gin!"), "big_gin"),
            Call.KNOCK_BUTTON: (_("Cancel knock") if knocking else _("Knock"), "knock"),
            Call.TAKE_AND_KNOCK_BUTTON: (_("Take and knock"), "take_and_knock"),
            Call.DECLINE_BUTTON: (_("Decline"), "decline"),
            Call.ACCEPT_BUTTON: (_("Accept knock"), "accept"),
            Call.REFUSE_BUTTON: (_("Refuse"), "refuse"),
            Call.DONE_BUTTON: (_("Done"), "done"),
        }
        out = []
        for b in self.ctl.screen_buttons(seat, face_up=self.face_up(seat)):
            label, name = words[b.call]
            out.append((label, lambda c=b.call, a=b.arg: self.call(seat, c, a), b.hot, name))
        return out


def _around(outer: pygame.Rect, hole: pygame.Rect) -> list[pygame.Rect]:
    """``outer`` except ``hole`` (which lies inside it) as four rects (some may be empty)."""
    return [pygame.Rect(outer.left, outer.top, outer.width, hole.top - outer.top),
            pygame.Rect(outer.left, hole.bottom, outer.width, outer.bottom - hole.bottom),
            pygame.Rect(outer.left, hole.top, hole.left - outer.left, hole.height),
            pygame.Rect(hole.right, hole.top, outer.right - hole.right, hole.height)]


def _fill_around(surf: pygame.Surface, outer: pygame.Rect, hole: pygame.Rect, colour) -> None:
    """Fill ``outer`` except ``hole`` (which lies inside it)."""
    for r in _around(outer, hole):
        if r.width > 0 and r.height > 0:
            surf.fill(colour, r)
