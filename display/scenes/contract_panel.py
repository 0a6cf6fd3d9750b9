"""A seat's panel on the contract table (2–6 seats, flat or upright): name, cards and
points, the status line, the hand (own groups, then the suggested contract, C-3) and the
call buttons (answers to "Можно?" carry their button, C-8.4). Drawn from its view-models
(:class:`display.table.viewmodels.contract.ContractPanelVM` and ``WordsVM``); the layout helpers
here are plain functions of a panel's size."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import pygame

from display import cardart, pixels, theme
from display.layout import MIN_TOUCH_PX, SeatPanel, hand_rects, visible_part
from display.scenes.base import Target
from display.scenes.painting import (
    PanelCanvas,
    PanelHooks,
    blit_card,
    panel_targets,
    seat_panel,
)
from display.table.viewmodels import Place
from display.table.viewmodels.contract import ButtonsVM, ContractHandVM, ContractPanelVM, WordsVM

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


class WordsBoxes(NamedTuple):
    tall: bool
    row_h: int
    name: pygame.Rect
    info: pygame.Rect
    status: pygame.Rect


@lru_cache(maxsize=64)  # asked ~16 times a frame for each of a few panel sizes
def words_boxes(w: int, d: int) -> WordsBoxes:
    """The top lines' boxes in a panel ``w`` × ``d``: an upright side panel (tall) has words
    over the cards; a narrow one one item per row. Shared (cached): copy a box to change it."""
    narrow = w < 330  # a side panel at 800×480 with 5–6 seats
    if d > w * 1.2:
        row_h = max(14, min(int(w * 0.16), int(d * 0.07)))
        name_box = pygame.Rect(6, 3, w - 12, row_h)
        info_box = pygame.Rect(6, name_box.bottom, w - 12, 2 * row_h)
        return WordsBoxes(True, row_h, name_box, info_box, pygame.Rect(6, info_box.bottom + 1, w - 12, 3 * row_h))
    row_h = max(15, int(d * (0.11 if narrow else 0.15)))
    header = pygame.Rect(8, 3, w - 16, row_h)
    if narrow:
        name_box, info_box = header, header.move(0, row_h)
    else:
        name_box = pygame.Rect(header.left, header.top, int(header.width * 0.4), header.height)
        info_box = pygame.Rect(header.left + int(header.width * 0.42), header.top, int(header.width * 0.58),
                               header.height)
    status_box = pygame.Rect(header.left, max(info_box.bottom, header.bottom) + 1, header.width, row_h)
    return WordsBoxes(False, row_h, name_box, info_box, status_box)


def per_col(col_h: int, touch: int) -> int:
    """How many buttons fit one above the other in a column ``col_h`` high (at most two)."""
    return max(1, min(2, (col_h + 4) // (touch + 4)))


def play_slots(place: Place, touch: int) -> int:
    """How many buttons a seat's column holds one above the other (1 in a tall panel)."""
    p = seat_panel(place)
    w, d = p.local_size
    boxes = words_boxes(w, d)
    return 1 if boxes.tall else per_col(d - boxes.status.bottom - 6, touch)


class Body(NamedTuple):
    tall: bool
    status: pygame.Rect
    body: pygame.Rect  # where the hand goes
    per_col: int
    col_w: int
    col_h: int
    bh: int


def reserve_for(size: tuple[int, int], touch: int, human: bool, buttons: int) -> int:
    """How much room a panel keeps for ``buttons`` buttons: rows in a tall side panel,
    columns in a wide one (a human seat always keeps one, so picking never moves the hand)."""
    w, d = size
    boxes = words_boxes(w, d)
    if boxes.tall:
        return max(1 if human else 0, buttons)
    n_col = per_col(d - boxes.status.bottom - 6, touch)
    slots = max(n_col if human else 0, buttons)
    return -(-slots // n_col)


@lru_cache(maxsize=256)  # asked for each seat every frame (its buttons' size) and at each draw
def panel_body(size: tuple[int, int], touch: int, reserve: int) -> Body:
    """Where the hand and the button column go in a seat's panel (local coordinates).
    Shared (cached): copy a rect to change it."""
    w, d = size
    boxes = words_boxes(w, d)
    status_box = boxes.status
    gap = 4
    if boxes.tall:
        bh = touch
        col_w, col_h = w - 12, reserve * (bh + gap)
        body = pygame.Rect(6, status_box.bottom + 2, w - 12, d - status_box.bottom - 6 - col_h)
        return Body(True, status_box, body, 1, col_w, col_h, bh)
    col_h = d - status_box.bottom - 6
    n_col = per_col(col_h, touch)
    col_w = max(int(touch * 1.5), int(w * 0.2)) if reserve else 0
    bh = max(touch, min((col_h - gap * (n_col - 1)) // n_col, int(d * 0.3)))
    used = reserve * (col_w + gap) + (4 if reserve else 0)
    body = pygame.Rect(8, status_box.bottom + 2, w - 16 - used, d - status_box.bottom - 5)
    return Body(False, status_box, body, n_col, col_w, col_h, bh)


def buttons_area(b: Body, size: tuple[int, int], reserve: int) -> pygame.Rect:
    """What a wide panel's button column may paint (down to the panel's edge: the shadows
    and the frame's band), clear of the hand and the words."""
    w, d = size
    left = w - 8 - b.col_w - (reserve - 1) * (b.col_w + 4)
    top = b.status.bottom + 2
    return pygame.Rect(left, top, w - left, d - top)


@lru_cache(maxsize=256)  # asked every frame for the seat in turn; a pure function of its arguments
def panel_touch(place: Place, touch: int, human: bool, buttons: int, cards: int) -> int:
    """The smallest side of any card's part to touch in the seat's panel (face up)."""
    size = seat_panel(place).local_size
    body = panel_body(size, touch, reserve_for(size, touch, human, buttons)).body
    return _touch_size(hand_rects_for(body, cards, True, max(5, body.height // 10)))


def hand_rects_for(body: pygame.Rect, n: int, up: bool, raise_px: int) -> list[pygame.Rect]:
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


class ContractPanelPainter:
    """Draws one seat's panel, or only its top lines when nothing else changed. The cards
    go straight onto the screen: a panel-sized work layer cost a fill and a copy of the
    hand's area on top of the cards (and a new surface whenever its size changed), and a
    redrawn panel mostly shows a changed hand or colour anyway."""

    def __init__(self, hooks: PanelHooks) -> None:
        self.hooks = hooks
        self.hand_screen_rects: list[pygame.Rect] = []

    def release(self) -> None:
        """The scene is left (nothing kept beyond the shared caches of faces and texts)."""

    def draw(self, surf: pygame.Surface, vm: ContractPanelVM, words: WordsVM, targets: list[Target]) -> None:
        """The whole panel but a wide panel's button column (:meth:`draw_buttons` next)."""
        p = seat_panel(vm.place)
        w, d = p.local_size
        start = len(targets)
        pp = PanelCanvas(surf, p, targets)  # upright layout, drawn straight onto the screen
        bg = theme.PANEL_ACTIVE if vm.active else theme.PANEL
        gap = 4
        b = panel_body((w, d), vm.touch, vm.reserve)
        pp.fill(bg)
        _draw_words(pp, words)
        hand = vm.hand
        body = b.body
        raise_px = max(5, body.height // 10)
        rects = hand_rects_for(body, len(hand.order), hand.up, raise_px if hand.up else 0)
        lifted = [r.move(0, -raise_px) if hand.up and k in hand.picked else r
                  for k, r in zip(hand.order, rects, strict=True)]
        self._blit_hand(pp, body, hand, rects, lifted)
        if vm.active:  # drawn after the hand: a group's underline never covers the frame
            pp.frame(theme.WARN if vm.asked else theme.GOLD, max(3, d // 40))
        local_targets = [(visible_part(rects, i), k) for i, k in enumerate(hand.order)]  # (visible part, index)
        self.hand_screen_rects = [p.to_screen(r) for r in lifted]
        for i, button in enumerate(vm.buttons):  # a tall panel's, in rows at its foot
            r = pygame.Rect(6, d - 4 - (len(vm.buttons) - i) * (b.bh + gap), b.col_w, b.bh)
            pp.button(r, button, self.hooks)
        pp.finish()
        panel_targets(p, local_targets, self.hooks, targets, start)

    def draw_buttons(self, surf: pygame.Surface, vm: ButtonsVM, targets: list[Target]) -> None:
        """A wide panel's button column, with the frame's band where it runs."""
        p = seat_panel(vm.place)
        w, d = p.local_size
        b = panel_body((w, d), vm.touch, vm.reserve)
        if b.tall or not vm.reserve:
            return
        pp = PanelCanvas(surf, p, targets)
        area = buttons_area(b, (w, d), vm.reserve)
        clip = pp.surf.get_clip()
        pp.surf.set_clip(pp.at(area).clip(clip))
        try:
            pp.fill(theme.PANEL_ACTIVE if vm.active else theme.PANEL, area)
            if vm.active:
                pp.frame(theme.WARN if vm.asked else theme.GOLD, max(3, d // 40))
            gap = 4
            col = pygame.Rect(w - 8 - b.col_w, b.status.bottom + 2, b.col_w, b.col_h)
            for i, button in enumerate(vm.buttons):
                c, r_ = divmod(i, b.per_col)
                r = pygame.Rect(col.left - c * (b.col_w + gap), col.top + r_ * (b.bh + gap), b.col_w, b.bh)
                pp.button(r, button, self.hooks)
        finally:
            pp.surf.set_clip(clip)
        pp.finish()

    def draw_words(self, surf: pygame.Surface, words: WordsVM, targets: list[Target]) -> None:
        """Only the top lines changed (a new card to ask for, a flash, the countdown)."""
        p = seat_panel(words.place)
        pp = PanelCanvas(surf, p, targets)
        area = pygame.Rect(0, 0, p.local_size[0], words_boxes(*p.local_size).status.bottom + 1)
        clip = pp.surf.get_clip()
        pp.surf.set_clip(pp.at(area))  # the frame is redrawn only where the words are
        try:
            pp.fill(theme.PANEL_ACTIVE if words.active else theme.PANEL, area)
            _draw_words(pp, words)
            if words.active:
                pp.frame(theme.WARN if words.asked else theme.GOLD, max(3, p.local_size[1] // 40))
        finally:
            pp.surf.set_clip(clip)
        pp.finish()

    def _blit_hand(self, pp: PanelCanvas, body: pygame.Rect, hand: ContractHandVM, rects: list[pygame.Rect],
                   lifted: list[pygame.Rect]) -> None:
        """The cards straight onto the panel (filled already), each from its cached face
        (turned like the panel), blended only where the next card leaves it in sight, and
        clipped to the hand's area; then the groups' underlines."""
        d = pp.whole.height
        area = _layer_area(body, d)
        if area.width < 1 or area.height < 1:  # no room: cards straight onto the panel, as they fall
            for k, r in zip(hand.order, lifted, strict=True):
                pp.blit(cardart.card_surface(hand.cards[k], r.size, face_up=hand.up, four_colour=hand.four_colour),
                        r)
            return
        angle, surf = pp.p.angle, pp.surf
        clip = surf.get_clip()
        surf.set_clip(pp.at(area).clip(clip))
        try:
            for i, (k, r) in enumerate(zip(hand.order, lifted, strict=True)):
                outline = cardart.SELECT if k in hand.picked else (
                    cardart.HINT if hand.up and k in hand.suggested else None)
                img = cardart.card_surface(hand.cards[k], r.size, face_up=hand.up, four_colour=hand.four_colour,
                                           outline=outline)
                blit_card(surf, img, r, lifted[i + 1] if i + 1 < len(lifted) else None, angle, pp.at)
            for g_start, g_len in hand.groups:
                if g_len and g_start + g_len <= len(rects) and rects[g_start].top == rects[g_start + g_len - 1].top:
                    a, b = rects[g_start], rects[g_start + g_len - 1]
                    y = min(a.bottom + 2, d - 3)
                    pixels.fill(surf, theme.GOLD, pp.at(pygame.Rect(a.left + 3, y - 1, b.right - a.left - 5, 3)))
        finally:
            surf.set_clip(clip)


def _layer_area(body: pygame.Rect, d: int) -> pygame.Rect:
    """Where a panel ``d`` deep keeps its hand's layer (the cards' body and the underlines)."""
    return pygame.Rect(body.left, body.top, body.width, max(1, min(body.height + 4, d - body.top)))


def _draw_words(pp: PanelCanvas, words: WordsVM) -> pygame.Rect:
    """The top lines; returns the status line's box (the cards go under it)."""
    tall, row_h, name_box, info_box, status_box = words_boxes(*pp.p.local_size)
    colour = theme.GOLD if words.active else theme.INK
    status_colour = theme.WARN if words.warn else theme.INK
    pp.text(words.name, name_box, bold=True, align="left", colour=colour)
    if tall:
        pp.paragraph(words.info, info_box, size=int(row_h * 0.8), align="left", colour=theme.INK_DIM)
        pp.paragraph(words.status, status_box, size=int(row_h * 0.8), align="left", colour=status_colour)
    else:
        right = info_box.top == name_box.top  # name and info share the first row
        pp.text(words.info, info_box, align="right" if right else "left", colour=theme.INK_DIM)
        pp.text(words.status, status_box, align="left", colour=status_colour)
    return status_box


__all__ = ["ContractPanelPainter", "MIN_TOUCH_PX", "SeatPanel", "hand_rects", "panel_body", "panel_touch",
           "play_slots", "reserve_for", "words_boxes"]
