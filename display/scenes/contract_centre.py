"""The middle of the contract table: the deal's contract, stock and pack, the melds on the
table by owner (touch one to lay off, C-5.2), and the "Можно?" question or the last move;
on a small screen the hand tray of the seat in turn beside it. Drawn from
:class:`display.viewmodels.contract.ContractCentreVM`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

import pygame

from display import cardart, pixels, theme
from display.i18n import _
from display.scenes.base import Target
from display.scenes.contract_tray import TrayHooks, draw_tray
from display.scenes.painting import PileHooks, draw_piles, new_layer, rect
from display.viewmodels.contract import ContractCentreVM, OwnerMelds, TrayVM
from rummy.cards import Card

OUTLINES = {"": None, "hint": cardart.HINT, "select": cardart.SELECT}


class CentreHooks(PileHooks, TrayHooks, Protocol):
    def touch_meld(self, meld_id: int) -> None: ...


def tp_rect(tray: TrayVM) -> pygame.Rect:
    """Where the tray lies on the screen."""
    return rect(tray.place.rect)


def _shown(card: Card) -> float:
    """How much of a card's width shows under the next one in a meld: its whole index
    ("10" is wider than one letter)."""
    return 0.62 if card.rank == 10 else 0.42


class ContractCentrePainter:
    """Draws the centre (and the tray); keeps where the piles and melds are (touches)."""

    def __init__(self, hooks: CentreHooks) -> None:
        self.hooks = hooks
        self.stock_rect = pygame.Rect(0, 0, 0, 0)
        self.pile_rect = pygame.Rect(0, 0, 0, 0)
        self.meld_rects: dict[int, pygame.Rect] = {}
        # what the screen shows: (centre rect, view-model, the bottom line's band or None
        # when it touches something else, the bottom line's box, the targets drawn)
        self._shown: tuple[pygame.Rect, ContractCentreVM, pygame.Rect | None, pygame.Rect, list[Target]] | None = None
        self._band: pygame.Rect | None = None
        self._bottom = pygame.Rect(0, 0, 0, 0)
        self._labels: list[pygame.Rect] = []
        self._rows = 1  # rows of the last moves' list
        # each owner's melds drawn once on the felt: (what, where) -> (image, meld rects in it)
        self._melds_art: dict[object, tuple[pygame.Surface, dict[int, pygame.Rect]]] = {}

    def forget(self) -> None:
        """The screen was drawn over: the next draw draws everything."""
        self._shown = None

    def draw(self, surf: pygame.Surface, centre: pygame.Rect, vm: ContractCentreVM, targets: list[Target]) -> None:
        """The centre; when only its bottom line changed (the last move, the question's
        countdown), only that line."""
        shown = self._shown
        if (shown is not None and shown[0] == centre and shown[2] is not None and theme.TEXT_LOG is None
                and replace(vm, ask_text=shown[1].ask_text, centre_msg=shown[1].centre_msg,
                            recent=shown[1].recent) == shown[1]):
            band = shown[2]
            clip = surf.get_clip()
            surf.set_clip(band.clip(clip))
            try:
                pixels.fill(surf, theme.FELT, band)
                self._bottom_line(surf, shown[3], vm)
            finally:
                surf.set_clip(clip)
            targets += shown[4]
            self._shown = (centre, vm, band, shown[3], shown[4])
            return
        start = len(targets)
        self._band = None
        tray = vm.tray
        if tray is None:
            self._draw(surf, centre, vm, targets)
        else:
            pixels.fill(surf, theme.FELT, centre)
            clip = surf.get_clip()
            surf.set_clip(rect(tray.rest).clip(clip))  # a shallow middle's small labels must not spill over
            try:
                self._draw(surf, rect(tray.rest), vm, targets)
            finally:
                surf.set_clip(clip)
            draw_tray(surf, tray, self.hooks, targets)
            if self._band is not None and self._band.colliderect(tp_rect(tray)):
                self._band = None
        self._shown = (centre, vm, self._band, self._bottom, list(targets[start:]))

    def _draw(self, surf: pygame.Surface, area: pygame.Rect, vm: ContractCentreVM, targets: list[Target]) -> None:
        pixels.fill(surf, theme.FELT, area)
        area = area.inflate(-12, -8)
        line = max(16, min(int(area.height * 0.12), int(28 * vm.u)))
        theme.draw_text(surf, vm.title, pygame.Rect(area.left, area.top, area.width, line),
                        colour=theme.GOLD, bold=True, align="left")
        # the last moves at the bottom, a short list (more rows when the middle is deep)
        small = max(14, int(line * 0.72))
        rows = 3 if area.height >= 5 * line + 3 * small else (2 if area.height >= 4 * line + 2 * small else 1)
        list_h = line if rows == 1 else small * rows
        self._rows = rows
        body = pygame.Rect(area.left, area.top + line + 4, area.width, area.height - line - list_h - 8)
        # stock and pack on the left
        ch = int(min(body.height * 0.78, area.width * 0.16))
        cw, ch = cardart.card_size_for_height(ch)
        y = body.top + 2
        self.stock_rect = pygame.Rect(body.left + 2, y, cw, ch)
        self.pile_rect = pygame.Rect(self.stock_rect.right + cw // 5, y, cw, ch)
        draw_piles(surf, self.stock_rect, self.pile_rect, vm.stock, vm.top, outline=OUTLINES[vm.pile_outline],
                   four_colour=vm.four_colour, touch=vm.touch, hooks=self.hooks, targets=targets)
        label_h = max(14, min(int(ch * 0.2), line))
        labels = (_("Stock: {n}").format(n=vm.stock), _("Discard pile: {n}").format(n=vm.pack))
        lw = cw + cw // 6
        box = pygame.Rect(0, 0, lw, label_h)
        if any(theme.font(theme.fit_size(t, box, label_h)).size(t)[0] > lw for t in labels):
            labels = (str(vm.stock), str(vm.pack))  # small piles (beside a hand tray)
        size = theme.common_size(labels, box, label_h)
        self._labels = []
        for text, r in zip(labels, (self.stock_rect, self.pile_rect), strict=True):
            box = pygame.Rect(r.centerx - lw // 2, r.bottom + 2, lw, label_h)
            self._labels.append(box)
            theme.draw_text(surf, text, box, size=size, colour=theme.INK_DIM)
        melds_box = pygame.Rect(self.pile_rect.right + cw // 3, body.top,
                                body.right - self.pile_rect.right - cw // 3, body.height)
        self._draw_melds(surf, melds_box, vm, targets)
        # the bottom line: the question being asked, or what just happened
        bottom = pygame.Rect(area.left, area.bottom - list_h, area.width, list_h)
        self._bottom_line(surf, bottom, vm)
        # the band it may paint, kept apart from the rest (then it may be repainted alone)
        band = bottom.inflate(8, 4).clip(surf.get_clip())
        above = [self.stock_rect, self.pile_rect, melds_box, *self._labels]
        self._bottom, self._band = bottom, (band if band.collidelist(above) == -1 else None)

    def _bottom_line(self, surf: pygame.Surface, bottom: pygame.Rect, vm: ContractCentreVM) -> None:
        """The last moves (the newest last, brightest); a question being asked takes the
        newest row."""
        rows = self._rows
        row_h = bottom.height // rows
        lines = list(vm.recent or ((vm.centre_msg,) if vm.centre_msg else ()))
        keep = rows - 1 if vm.ask_text else rows
        lines = lines[-keep:] if keep else []
        first = rows - len(lines) - (1 if vm.ask_text else 0)
        for i, text in enumerate(lines):
            r = pygame.Rect(bottom.left, bottom.top + (first + i) * row_h, bottom.width, row_h)
            newest = i == len(lines) - 1 and not vm.ask_text
            theme.draw_text(surf, text, r, colour=theme.INK if newest else theme.INK_DIM, align="left")
        if vm.ask_text:
            r = pygame.Rect(bottom.left, bottom.bottom - row_h, bottom.width, row_h)
            pygame.draw.rect(surf, theme.PANEL_ACTIVE, r.inflate(8, 4), border_radius=8)
            theme.draw_text(surf, vm.ask_text, r, colour=theme.GOLD, bold=True)

    def _draw_melds(self, surf: pygame.Surface, box: pygame.Rect, vm: ContractCentreVM,
                    targets: list[Target]) -> None:
        """The melds on the table, grouped by owner (touch one to lay off onto it)."""
        self.meld_rects = {}
        if not vm.melds or box.width < 40 or box.height < 30:
            if box.width >= 40 and box.height >= 20:
                theme.draw_text(surf, _("No melds on the table yet"), pygame.Rect(box.left, box.top, box.width,
                                min(box.height, max(16, int(24 * vm.u)))), colour=theme.INK_DIM, align="left")
            return
        cols = 1 if len(vm.melds) <= 3 else 2
        rows = -(-len(vm.melds) // cols)
        bw, bh = box.width // cols, box.height // rows
        rects: dict[int, pygame.Rect] = {}
        cells: dict[object, tuple[pygame.Surface, dict[int, pygame.Rect]]] = {}
        label_h = max(14, min(int(bh * 0.24), int(22 * vm.u)))
        places = [(owner, pygame.Rect(box.left + (i % cols) * bw, box.top + (i // cols) * bh, bw - 6, bh - 4))
                  for i, owner in enumerate(vm.melds)]
        keys = [(owner.melds, cell.size, label_h, vm.four_colour) for owner, cell in places]
        spare = [art[0] for key, art in self._melds_art.items() if key not in keys]  # to draw again on
        for (owner, cell), key in zip(places, keys, strict=True):
            art = self._melds_art.get(key)
            if art is None or theme.TEXT_LOG is not None:
                # an owner's melds change seldom: drawn on the felt once, then one blit a frame
                img = next((x for x in spare if x.get_size() == cell.size), None)
                if img is not None:
                    spare.remove(img)
                img = new_layer(cell.size, img)
                img.fill(theme.FELT)
                local: dict[int, pygame.Rect] = {}
                self._draw_owner(img, pygame.Rect((0, 0), cell.size), label_h, owner, vm, local)
                art = (img, local)
            cells[key] = art
            pixels.blit_opaque(surf, art[0], cell)
            # the owner's name (gold for the seat in turn) is drawn on the felt left above the cards
            theme.draw_text(surf, owner.name, pygame.Rect(cell.left, cell.top, cell.width, label_h),
                            align="left", colour=theme.GOLD if owner.in_turn else theme.INK_DIM, bold=True)
            rects.update({i: r.move(cell.topleft) for i, r in art[1].items()})
        self._melds_art = cells
        t = vm.touch
        for meld_id, r in rects.items():
            self.meld_rects[meld_id] = r
            targets.append(Target(r.inflate(max(0, t - r.width), max(0, t - r.height)), f"table-meld-{meld_id}",
                                  self._toucher(meld_id)))

    @staticmethod
    def _draw_owner(surf: pygame.Surface, cell: pygame.Rect, label_h: int, owner: OwnerMelds, vm: ContractCentreVM,
                    rects: dict[int, pygame.Rect]) -> None:
        """One owner's melds in ``cell`` under a row ``label_h`` high left for his name;
        each meld's rect into ``rects``."""
        units = sum(1 + sum(_shown(c) for c in cards[:-1]) for _id, cards in owner.melds) + 0.15 * (
            len(owner.melds) - 1)
        ratio = cardart.card_size_for_height(100)[0] / 100
        ch = int(min(cell.height - label_h - 2, cell.width / max(1.0, units * ratio)))
        ch = max(12, ch)
        cw, ch = cardart.card_size_for_height(ch)
        x, y = cell.left, cell.top + label_h + 1
        for meld_id, cards in owner.melds:
            start = x
            for c in cards[:-1]:
                surf.blit(cardart.card_surface(c, (cw, ch), four_colour=vm.four_colour), (x, y))
                x += max(1, int(cw * _shown(c)))
            surf.blit(cardart.card_surface(cards[-1], (cw, ch), four_colour=vm.four_colour), (x, y))
            r = rects[meld_id] = pygame.Rect(start, y, x + cw - start, ch)
            x = r.right + int(cw * 0.15)

    def _toucher(self, meld_id: int) -> Callable[[], None]:
        return lambda: self.hooks.touch_meld(meld_id)
