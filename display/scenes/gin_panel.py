"""A seat's panel on the gin table: name, status line, the hand (suggested melds under a
gold bar, G-2.4; the suggested discard outlined), the deadwood count and the call buttons.
Drawn from its view-model (:class:`display.table.viewmodels.gin.GinPanelVM`)."""

from __future__ import annotations

import pygame

from display import cardart, pixels, theme
from display.layout import hand_rects, rotate_rect, visible_part
from display.scenes.base import Target, draw_button
from display.scenes.painting import (
    PanelHooks,
    around,
    blit_card,
    fill_around,
    new_layer,
    panel_targets,
    presser,
    seat_panel,
)
from display.table.viewmodels.gin import GinHandVM, GinPanelVM


class GinPanelPainter:
    """Draws one seat's panel straight onto the screen: laid out upright in local
    coordinates, each piece placed with ``p.to_screen`` (turned pieces for the far seat, so
    no work surface is filled and flipped). The hand is one cached layer; when only the
    header or the buttons changed, the hand is left on the screen as it is."""

    def __init__(self, hooks: PanelHooks) -> None:
        self.hooks = hooks
        self.hand_layer: tuple[tuple[GinHandVM, tuple[int, int, int, int], int, int], pygame.Surface] | None = None
        self.shown: GinPanelVM | None = None  # what the screen shows of this panel
        self.hand_screen_rects: list[pygame.Rect] = []  # where each card is (animations)

    def forget(self) -> None:
        """The screen was drawn over: the next draw draws everything."""
        self.shown = None

    def release(self) -> None:
        """The scene is left: drop the cached hand layer (a panel-sized surface)."""
        self.hand_layer = None
        self.shown = None

    def draw(self, surf: pygame.Surface, vm: GinPanelVM, targets: list[Target]) -> None:
        p = seat_panel(vm.place)
        seat = p.seat
        w, d = p.local_size
        turned = p.angle == 180
        at = p.to_screen
        start = len(targets)

        def text(t: str, box: pygame.Rect, align: str, **kw: object) -> None:
            if turned:
                align = {"left": "right", "right": "left"}.get(align, align)
            theme.draw_text(surf, t, at(box), align=align, turned=turned, **kw)  # type: ignore[arg-type]

        header = pygame.Rect(8, 4, w - 16, max(22, int(d * 0.2)))
        col_w = max(vm.touch * 2, int(w * 0.19))
        body = pygame.Rect(8, header.bottom + 4, w - 16 - col_w - 8, d - header.bottom - 8)
        hand = vm.hand
        raise_px = max(6, body.height // 10)
        info = None
        if vm.dead_text:  # the deadwood line sits under the header, left of the buttons
            info = pygame.Rect(body.left, body.top, body.width, max(16, int(body.height * 0.16)))
            body = pygame.Rect(body.left, info.bottom, body.width, body.bottom - info.bottom)
        rects = hand_rects(body, len(hand.cards), body.height, min_strip=vm.touch, raise_px=raise_px)
        lifted = [r.move(0, -raise_px) if card == hand.selected else r
                  for card, r in zip(hand.cards, rects, strict=True)]
        layer_key = (hand, (body.x, body.y, body.width, body.height), p.angle, vm.touch)
        hand_at = at(body)
        frame_w = max(3, d // 40)
        # The hand is left as it is on the screen when only the header or the buttons changed
        # (it lies clear of the header; where the gold frame may cross it, it is put back below).
        keep_hand = (self.shown is not None and self.shown.place == vm.place and self.shown.touch == vm.touch
                     and self.shown.hand == hand and bool(self.shown.dead_text) == bool(vm.dead_text)
                     and self.hand_layer is not None and self.hand_layer[0] == layer_key
                     and theme.TEXT_LOG is None)
        if keep_hand and self.hand_layer is not None:
            fill_around(surf, p.rect, hand_at, theme.PANEL)
            layer = self.hand_layer[1]
            inner = p.rect.inflate(-2 * frame_w, -2 * frame_w)
            for band in around(p.rect, inner):  # the frame's band: the hand as it is without it
                part = band.clip(hand_at)
                if part.width and part.height:
                    pixels.blit_opaque(surf, layer, part, part.move(-hand_at.left, -hand_at.top))
        else:
            fill_around(surf, p.rect, hand_at, theme.PANEL)  # the hand's layer covers the rest
        if vm.active:  # the seat to play: a lit header and a gold frame
            pixels.fill(surf, theme.PANEL_ACTIVE, at(pygame.Rect(0, 0, w, header.bottom + 2)))
        text(vm.name, pygame.Rect(header.left, header.top, int(header.width * 0.3), header.height),
             bold=True, align="left", colour=theme.GOLD if vm.active else theme.INK)
        text(vm.status, pygame.Rect(header.left + int(header.width * 0.3), header.top, int(header.width * 0.7),
                                    header.height), align="right", colour=theme.WARN if vm.warn else theme.INK)
        if info is not None:
            text(vm.dead_text, info, align="left", colour=theme.INK_DIM)
        if not keep_hand:
            self._blit_hand(surf, p.to_screen(body), body, hand, lifted, rects, raise_px, turned, layer_key)
        if vm.active:
            pygame.draw.rect(surf, theme.GOLD, p.rect, frame_w)
        self.hand_screen_rects = [p.to_screen(r) for r in lifted]
        # the call buttons column
        col = pygame.Rect(w - 8 - col_w, header.bottom + 4, col_w, d - header.bottom - 10)
        if vm.buttons:
            bh = max(vm.touch, min(int(col.height / len(vm.buttons)) - 6, int(d * 0.3)))
            for i, b in enumerate(vm.buttons):
                r = at(pygame.Rect(col.left, col.top + i * (bh + 6), col.width, bh))
                draw_button(surf, r, b.label, hot=b.hot, turned=turned)
                targets.append(Target(r, f"{b.name}-{seat}", presser(self.hooks, seat, b.name), seat=seat))
        panel_targets(p, [(visible_part(rects, i), card) for i, card in enumerate(hand.cards)], self.hooks,
                      targets, start)
        self.shown = vm

    def _blit_hand(self, surf: pygame.Surface, dst: pygame.Rect, body: pygame.Rect, hand: GinHandVM,
                   lifted: list[pygame.Rect], rects: list[pygame.Rect], raise_px: int, turned: bool,
                   key: tuple[GinHandVM, tuple[int, int, int, int], int, int]) -> None:
        """The hand as one cached layer, already turned to face the seat: only the seat
        whose cards changed is redrawn."""
        cached = self.hand_layer
        if cached is None or cached[0] != key:
            size = body.size

            def place(r: pygame.Rect) -> pygame.Rect:
                return rotate_rect(r, size, 180) if turned else r

            layer = new_layer(size, cached[1] if cached is not None else None)
            layer.fill(theme.PANEL)
            origin = (-body.left, -body.top)
            for i, (card, r) in enumerate(zip(hand.cards, lifted, strict=True)):
                outline = cardart.SELECT if card == hand.selected else (
                    cardart.HINT if hand.up and card == hand.suggest else None)
                img = cardart.card_surface(card, r.size, face_up=hand.up, four_colour=hand.four_colour,
                                           outline=outline)
                if card == hand.drawn:  # the card just drawn: a gold dot low in its visible strip
                    img = img.copy()
                    rad = max(4, r.width // 9)
                    centre = (max(rad + 3, r.width // 5), r.height - rad - max(4, r.height // 14))
                    pygame.draw.circle(img, theme.PANEL, centre, rad + 2)
                    pygame.draw.circle(img, theme.GOLD, centre, rad)
                nxt = lifted[i + 1].move(origin) if i + 1 < len(lifted) else None
                blit_card(layer, img, r.move(origin), nxt, 180 if turned else 0, place)
            for g_start, g_len in hand.groups:
                if g_start + g_len <= len(rects):
                    a, b = rects[g_start].move(origin), rects[g_start + g_len - 1].move(origin)
                    width = max(3, raise_px // 3)
                    y = a.top - max(3, raise_px // 2)  # a bar over each suggested meld
                    bar = place(pygame.Rect(a.left + 4, y - width // 2, b.right - a.left - 8, width))
                    layer.fill(theme.GOLD, bar)
            cached = self.hand_layer = (key, layer)
        pixels.blit_opaque(surf, cached[1], dst)
