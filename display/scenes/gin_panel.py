"""A seat's panel on the gin table: name, status line, the hand (suggested melds under a
gold bar, G-2.4; the suggested discard outlined), the deadwood count and the call buttons
(from ``legal_actions``). Redrawn only when what it shows changed."""

from __future__ import annotations

import pygame

from display import cardart, theme
from display.gin_text import card_name, phase_hint
from display.i18n import _
from display.layout import SeatPanel, hand_rects, visible_part
from rummy.cards import Card
from rummy.gin.melds import best_discard, best_melds
from rummy.gin.state import HandPhase


class GinPanels:
    """Drawing of the gin table's seat panels (mixed into :class:`GinTableScene`)."""

    def _panel_key(self, p: SeatPanel) -> tuple:
        """Everything a seat's panel shows: it is redrawn only when this changes."""
        seat, ui, h = p.seat, self.ui[p.seat], self.hand
        hand = (tuple(h.hands[seat]), h.dealer) if h is not None else ()
        kinds = tuple(sorted({a.kind for a in self.legal(seat)}))
        return (p.rect.topleft, p.rect.size, p.angle, hand, ui.selected, ui.mode, ui.flash,
                self.face_up(seat), self._settings_key(), tuple(self.m.to_act()), kinds,
                phase_hint(self, seat), self.m.name(seat))

    def _draw_panel(self, surf: pygame.Surface, p: SeatPanel, dirty: list[pygame.Rect]) -> None:
        """Draw a seat's panel when what it shows changed (a full redraw reuses the turned
        surface)."""
        key = self._panel_key(p)
        self.region(("panel", p.seat), key, p.rect, lambda: self._blit_panel(surf, p, key), dirty)

    def _blit_panel(self, surf: pygame.Surface, p: SeatPanel, key: tuple) -> None:
        cached = self._panel_cache.get(p.seat)
        if cached is not None and cached[0] == key and cached[1] is not None and theme.TEXT_LOG is None:
            _key, turned, targets, rects = cached
            surf.blit(turned, p.rect)
            self.targets += targets
            self.hand_screen_rects[p.seat] = rects
            return
        before = len(self.targets)
        turned = self._render_panel(surf, p)
        mine = self.targets[before:]
        self._panel_cache[p.seat] = (key, turned, mine, self.hand_screen_rects[p.seat])

    def _render_panel(self, surf: pygame.Surface, p: SeatPanel) -> pygame.Surface | None:
        """Draw a seat's panel; returns its turned surface (None: drawn straight onto ``surf``)."""
        seat = p.seat
        w, d = p.local_size
        local = self.panel_surface(surf, p)
        mark = self.log_mark()
        h = self.hand
        active = bool(self.m.to_act()) and self.m.to_act()[0] == seat
        header = pygame.Rect(8, 4, w - 16, max(22, int(d * 0.2)))
        local.fill(theme.PANEL)
        if active:  # the seat to play: a lit header and a gold frame
            local.fill(theme.PANEL_ACTIVE, (0, 0, w, header.bottom + 2))
        ui = self.ui[seat]
        name = self.m.name(seat) + ("  · " + _("dealer") if h is not None and h.dealer == seat else "")
        theme.draw_text(local, name, pygame.Rect(header.left, header.top, int(header.width * 0.3), header.height),
                        bold=True, align="left", colour=theme.GOLD if active else theme.INK)
        status = ui.flash or phase_hint(self, seat)
        theme.draw_text(local, status, pygame.Rect(header.left + int(header.width * 0.3), header.top,
                                                   int(header.width * 0.7), header.height),
                        align="right", colour=theme.WARN if ui.flash else theme.INK)
        buttons = self._panel_buttons(seat)
        col_w = max(self.touch * 2, int(w * 0.19))
        body = pygame.Rect(8, header.bottom + 4, w - 16 - col_w - 8, d - header.bottom - 8)
        cards = list(h.hands[seat]) if h is not None else []
        up = self.face_up(seat)
        order, suggest, dead_text, groups = self._arrangement(cards) if up else (cards, None, "", [])
        raise_px = max(6, body.height // 10)
        # the deadwood line sits under the header, left of the buttons
        if dead_text:
            info = pygame.Rect(body.left, body.top, body.width, max(16, int(body.height * 0.16)))
            theme.draw_text(local, dead_text, info, align="left", colour=theme.INK_DIM)
            body = pygame.Rect(body.left, info.bottom, body.width, body.bottom - info.bottom)
        rects = hand_rects(body, len(order), body.height, min_strip=self.touch, raise_px=raise_px)
        selected = ui.selected if up else None
        lifted = [r.move(0, -raise_px) if card == selected else r for card, r in zip(order, rects, strict=True)]
        self._blit_hand(local, seat, body, order, lifted, up, selected, suggest, groups, rects, raise_px)
        if active:
            pygame.draw.rect(local, theme.GOLD, local.get_rect(), max(3, d // 40))
        screen_rects = [p.to_screen(r) for r in lifted]
        self.hand_screen_rects[seat] = screen_rects
        # the call buttons column
        col = pygame.Rect(w - 8 - col_w, header.bottom + 4, col_w, d - header.bottom - 10)
        if buttons:
            bh = max(self.touch, min(int(col.height / len(buttons)) - 6, int(d * 0.3)))
            for i, (label, fn, hot, bname) in enumerate(buttons):
                r = pygame.Rect(col.left, col.top + i * (bh + 6), col.width, bh)
                t = self.button(local, r, label, fn, hot=hot, name=f"{bname}-{seat}", seat=seat)
                t.rect = p.to_screen(t.rect)
        self.map_log(mark, p.to_screen)  # texts recorded in local coordinates, on the screen
        turned = None
        if p.angle:
            turned = self.turn(local, p.angle)
            surf.blit(turned, p.rect)
        self.panel_targets(p, [(visible_part(rects, i), card) for i, card in enumerate(order)], self.pick_card)
        return turned

    def _blit_hand(self, local, seat, body, order, lifted, up, selected, suggest, groups, rects, raise_px) -> None:
        """The hand as one cached layer: only the seat whose cards changed is redrawn."""
        key = (tuple(order), up, selected, suggest, tuple(groups), body.size, tuple(map(tuple, lifted)),
               self.app.settings.four_colour)
        cached = self._hands.get(seat)
        if cached is None or cached[0] != key:
            layer = cached[1] if cached is not None and cached[1].get_size() == body.size else \
                pygame.Surface(body.size).convert()
            layer.fill(theme.PANEL)
            origin = (-body.left, -body.top)
            for card, r in zip(order, lifted, strict=True):
                outline = cardart.SELECT if card == selected else (cardart.HINT if up and card == suggest else None)
                layer.blit(cardart.card_surface(card, r.size, face_up=up, four_colour=self.app.settings.four_colour,
                                                outline=outline), r.move(origin))
            for g_start, g_len in groups:
                if g_start + g_len <= len(rects):
                    a, b = rects[g_start].move(origin), rects[g_start + g_len - 1].move(origin)
                    y = a.top - max(3, raise_px // 2)  # a bar over each suggested meld
                    pygame.draw.line(layer, theme.GOLD, (a.left + 4, y), (b.right - 4, y), max(3, raise_px // 3))
            cached = self._hands[seat] = (key, layer)
        local.blit(cached[1], body)

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
        """On-screen call buttons for what the seat may do now (from legal_actions)."""
        legal = self.legal(seat)
        kinds = {a.kind for a in legal}
        ui = self.ui[seat]
        out = []
        if "take_upcard" in kinds:
            out.append((_("Take"), self.touch_pile, True, "take"))
        if "pass_upcard" in kinds:
            out.append((_("Pass"), lambda: self.call_draw(seat), False, "pass"))
        if "draw_stock" in kinds:
            out.append((_("Draw"), lambda: self.call_draw(seat), True, "draw"))
        h = self.hand
        if h is not None and h.phase is HandPhase.DISCARD and legal:
            if "big_gin" in kinds:
                out.append((_("Big Gin!"), lambda: self.submit(seat, self.find(seat, "big_gin")), True, "big_gin"))
            label = _("Cancel knock") if ui.mode == "knock" else _("Knock")
            out.append((label, lambda: self.call_knock(seat), "knock" in kinds and ui.mode != "knock", "knock"))
        if "take_and_knock" in kinds:
            out.append((_("Take and knock"), lambda: self.call_knock(seat), True, "take_and_knock"))
        if "decline" in kinds:
            out.append((_("Decline"), lambda: self.call_draw(seat), False, "decline"))
        if "accept_knock" in kinds:
            out.append((_("Accept knock"), lambda: self.submit(seat, self.find(seat, "accept_knock")), True,
                        "accept"))
            out.append((_("Refuse"), lambda: self.submit(seat, self.find(seat, "refuse_knock")), False, "refuse"))
        if "done_laying_off" in kinds:
            out.append((_("Done"), lambda: self.submit(seat, self.find(seat, "done_laying_off")), True, "done"))
        return out[:3]
