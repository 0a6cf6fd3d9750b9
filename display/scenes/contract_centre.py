"""The middle of the contract table: the deal's contract, stock and pack, the melds on the
table by owner (touch one to lay off, C-5.2), and the "Можно?" question or the last move;
on a small screen with open hands the hand tray of the seat in turn beside it (never for a
private hand: a look shows only in its owner's panel, docs/privacy.md). Drawn from
:class:`display.table.viewmodels.contract.ContractCentreVM`."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol

import pygame

from display import cardart, pixels, theme
from display.scenes.base import Target
from display.scenes.contract_tray import TrayHooks, draw_tray
from display.scenes.painting import PileHooks, draw_piles, new_layer, rect
from display.table.i18n import _
from display.table.viewmodels.contract import ContractCentreVM, OwnerMelds, TrayVM
from rummy.cards import Card

OUTLINES = {"": None, "hint": cardart.HINT, "select": cardart.SELECT}


class CentreHooks(PileHooks, TrayHooks, Protocol):
    def touch_meld(self, meld_id: int) -> None: ...


def tp_rect(tray: TrayVM) -> pygame.Rect:
    """Where the tray lies on the screen."""
    return rect(tray.place.rect)


@contextmanager
def _clipped(surf: pygame.Surface, box: pygame.Rect) -> Iterator[None]:
    """Drawing on ``surf`` stays inside ``box`` (and the clip it had)."""
    clip = surf.get_clip()
    surf.set_clip(box.clip(clip))
    try:
        yield
    finally:
        surf.set_clip(clip)


def _shown(card: Card) -> float:
    """How much of a card's width shows under the next one in a meld: its whole index
    ("10" is wider than one letter)."""
    return 0.62 if card.rank == 10 else 0.42


@dataclass(frozen=True)
class _Layout:
    """Where the parts of the middle go (a function of the area, the scale and the deal's
    card size): each part paints only inside its own rect, and the rects do not overlap,
    so a part is repainted on its own when only what it shows changed."""

    area: pygame.Rect  # the middle the parts share (all of it, or what the tray leaves)
    title: pygame.Rect
    stock: pygame.Rect
    pile: pygame.Rect
    label_h: int
    lw: int
    piles: pygame.Rect  # the stock (with its stacked backs), the pile and their labels
    melds: pygame.Rect
    bottom: pygame.Rect  # the last moves' rows
    band: pygame.Rect  # what the bottom rows may paint (the question's box reaches past them)
    band_alone: bool  # the band touches no other part (else the rows are repainted with all)
    rows: int
    line: int


def _layout(area: pygame.Rect, u: float) -> _Layout:
    inner = area.inflate(-12, -8)
    line = max(16, min(int(inner.height * 0.12), int(28 * u)))
    # the last moves at the bottom, a short list (more rows when the middle is deep)
    small = max(14, int(line * 0.72))
    rows = 3 if inner.height >= 5 * line + 3 * small else (2 if inner.height >= 4 * line + 2 * small else 1)
    list_h = line if rows == 1 else small * rows
    body = pygame.Rect(inner.left, inner.top + line + 4, inner.width, inner.height - line - list_h - 8)
    # stock and pack on the left
    ch = int(min(body.height * 0.78, inner.width * 0.16))
    cw, ch = cardart.card_size_for_height(ch)
    y = body.top + 2
    stock = pygame.Rect(body.left + 2, y, cw, ch)
    pile = pygame.Rect(stock.right + cw // 5, y, cw, ch)
    label_h = max(14, min(int(ch * 0.2), line))
    lw = cw + cw // 6
    labels = [pygame.Rect(r.centerx - lw // 2, r.bottom + 2, lw, label_h) for r in (stock, pile)]
    piles = stock.move(-4, -4).unionall([pile, *labels])  # up to three backs, 2 px apart
    melds = pygame.Rect(pile.right + cw // 3, body.top, body.right - pile.right - cw // 3, body.height)
    bottom = pygame.Rect(inner.left, inner.bottom - list_h, inner.width, list_h)
    band = bottom.inflate(8, 4).clip(area)
    title = pygame.Rect(inner.left, inner.top, inner.width, line)
    parts = [title, piles, melds]
    return _Layout(area, title, stock, pile, label_h, lw, piles, melds, bottom, band,
                   band.collidelist(parts) == -1, rows, line)


# what each part shows: the fields of the view-model it draws
_PARTS = {
    "title": ("title",),
    "piles": ("stock", "pack", "top", "pile_outline", "four_colour", "touch"),
    "melds": ("melds", "four_colour", "touch", "u"),
    "bottom": ("ask_text", "centre_msg", "recent"),
    "tray": ("tray",),
}


class ContractCentrePainter:
    """Draws the centre (and the tray); keeps where the piles and melds are (touches).
    Its parts (title, piles, melds, the last moves, the tray) lie apart: after a move only
    the parts whose view-model fields changed are painted again (a card drawn repaints the
    piles, not the melds)."""

    def __init__(self, hooks: CentreHooks) -> None:
        self.hooks = hooks
        self.stock_rect = pygame.Rect(0, 0, 0, 0)
        self.pile_rect = pygame.Rect(0, 0, 0, 0)
        self.meld_rects: dict[int, pygame.Rect] = {}
        # what the screen shows: (centre rect, view-model, layout, each part's touch targets)
        self._shown: tuple[pygame.Rect, ContractCentreVM, _Layout, dict[str, list[Target]]] | None = None
        # each owner's melds drawn once on the felt: (what, where) -> (image, meld rects in it)
        self._melds_art: dict[object, tuple[pygame.Surface, dict[int, pygame.Rect]]] = {}

    def forget(self) -> None:
        """The screen was drawn over: the next draw draws everything."""
        self._shown = None

    def draw(self, surf: pygame.Surface, centre: pygame.Rect, vm: ContractCentreVM, targets: list[Target]) -> None:
        """The centre; when the layout is as it was, only the parts whose fields changed."""
        shown = self._shown
        tray = vm.tray
        area = centre if tray is None else rect(tray.rest)
        same = (shown is not None and shown[0] == centre and theme.TEXT_LOG is None and shown[1].area == vm.area
                and shown[1].u == vm.u and shown[2].area == area
                and (tray is None) == (shown[1].tray is None)
                and (tray is None or shown[1].tray is None or tray.place == shown[1].tray.place))
        if shown is not None and same:
            old, lay, parts = shown[1], shown[2], dict(shown[3])
            changed = [name for name, fields in _PARTS.items()
                       if any(getattr(vm, f) != getattr(old, f) for f in fields)]
            if "bottom" in changed and not lay.band_alone:
                changed = list(_PARTS)  # the last moves' rows touch another part: everything
            for name in changed:
                parts[name] = self._part(surf, name, lay, vm)
        else:
            if tray is not None:
                pixels.fill(surf, theme.FELT, centre)
            lay = _layout(area, vm.u)
            pixels.fill(surf, theme.FELT, area)
            parts = {name: self._part(surf, name, lay, vm, filled=True) for name in _PARTS}
        for name in _PARTS:  # the touch targets in the order a full draw makes them
            targets += parts[name]
        self._shown = (centre, vm, lay, parts)

    def _part(self, surf: pygame.Surface, name: str, lay: _Layout, vm: ContractCentreVM,
              filled: bool = False) -> list[Target]:
        """Paint part ``name`` inside its own rect (the felt under it first unless the whole
        middle was just ``filled``); returns its touch targets."""
        out: list[Target] = []
        if name == "tray":
            if vm.tray is not None:
                box = tp_rect(vm.tray)
                if not filled:
                    pixels.fill(surf, theme.FELT, box)
                with _clipped(surf, box):
                    draw_tray(surf, vm.tray, self.hooks, out)
            return out
        box = {"title": lay.title, "piles": lay.piles, "melds": lay.melds,
               "bottom": lay.band}[name]
        with _clipped(surf, box.clip(lay.area)):
            if not filled:
                pixels.fill(surf, theme.FELT, box)
            if name == "title":
                theme.draw_text(surf, vm.title, lay.title, colour=theme.GOLD, bold=True, align="left")
            elif name == "piles":
                self._draw_piles(surf, lay, vm, out)
            elif name == "melds":
                self._draw_melds(surf, lay.melds, vm, out)
            else:
                self._bottom_line(surf, lay, vm)
        return out

    def _draw_piles(self, surf: pygame.Surface, lay: _Layout, vm: ContractCentreVM, targets: list[Target]) -> None:
        self.stock_rect, self.pile_rect = pygame.Rect(lay.stock), pygame.Rect(lay.pile)
        draw_piles(surf, self.stock_rect, self.pile_rect, vm.stock, vm.top, outline=OUTLINES[vm.pile_outline],
                   four_colour=vm.four_colour, touch=vm.touch, hooks=self.hooks, targets=targets)
        labels = (_("Stock: {n}").format(n=vm.stock), _("Discard pile: {n}").format(n=vm.pack))
        label_h, lw = lay.label_h, lay.lw
        box = pygame.Rect(0, 0, lw, label_h)
        if any(theme.font(theme.fit_size(t, box, label_h)).size(t)[0] > lw for t in labels):
            labels = (str(vm.stock), str(vm.pack))  # small piles (beside a hand tray)
        size = theme.common_size(labels, box, label_h)
        for text, r in zip(labels, (self.stock_rect, self.pile_rect), strict=True):
            box = pygame.Rect(r.centerx - lw // 2, r.bottom + 2, lw, label_h)
            theme.draw_text(surf, text, box, size=size, colour=theme.INK_DIM)

    def _bottom_line(self, surf: pygame.Surface, lay: _Layout, vm: ContractCentreVM) -> None:
        """The last moves (the newest last, brightest); a question being asked takes the
        newest row."""
        rows, bottom = lay.rows, lay.bottom
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
