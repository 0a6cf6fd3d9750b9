"""What the table painters share: a panel drawn upright and turned into place
(:class:`PanelCanvas`), the piles, a panel's touch targets, turned copies of cached art, and
the text log's coordinates. Painters draw a view-model (``display.table.viewmodels``) and append
the touch targets they draw to a list; what a touch does is the scene's (its hooks)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import pygame

from display import cardart, pixels, theme
from display.layout import SeatPanel, rotate_rect
from display.scenes.base import Target, draw_button
from display.table.viewmodels import Box, ButtonVM, Place

RGB = tuple[int, int, int]


class PanelHooks(Protocol):
    """What a touch on a seat's panel does (the table scene)."""

    def tap_panel(self, seat: int) -> None: ...

    def hold_panel(self, seat: int) -> None: ...

    def pick_card(self, seat: int, item: Any) -> None: ...

    def press(self, seat: int, name: str) -> None: ...


class PileHooks(Protocol):
    def touch_stock(self) -> None: ...

    def touch_pile(self) -> None: ...


def rect(box: Box) -> pygame.Rect:
    return pygame.Rect(box)


def seat_panel(place: Place) -> SeatPanel:
    return SeatPanel(place.seat, place.edge, pygame.Rect(place.rect), place.angle)


def place_of(p: SeatPanel) -> Place:
    return Place(p.seat, p.edge, (p.rect.x, p.rect.y, p.rect.width, p.rect.height), p.angle)


# -- the text log ---------------------------------------------------------------------------
def log_mark() -> int:
    """Where the text log stands (to map a panel's texts to the screen afterwards)."""
    log = theme.TEXT_LOG
    return len(log) if log is not None else 0


def map_log(mark: int, to_screen: Callable[[pygame.Rect], pygame.Rect]) -> None:
    """Texts recorded (in a panel's or box's local coordinates) since ``mark``, on screen."""
    log = theme.TEXT_LOG
    if log is None:
        return
    for j in range(mark, len(log)):
        r = log[j]
        log[j] = theme.TextRecord(r.text, to_screen(r.box), to_screen(r.drawn), r.fits)


def new_layer(size: tuple[int, int], reuse: pygame.Surface | None = None) -> pygame.Surface:
    """An opaque work surface in the screen's pixel format (``reuse`` when it has the size)."""
    if reuse is not None and reuse.get_size() == tuple(size):
        return reuse
    screen = pygame.display.get_surface()
    return pygame.Surface(size, 0, screen) if screen is not None else pygame.Surface(size)


# -- turned art -----------------------------------------------------------------------------
def turn(local: pygame.Surface, angle: int) -> pygame.Surface:
    """A panel drawn upright, turned to face its edge."""
    if angle == 180:
        return pygame.transform.flip(local, True, True)
    if angle:
        return pygame.transform.rotate(local, angle)
    return local


_TURNED: dict[tuple[int, int], tuple[pygame.Surface, pygame.Surface]] = {}


def turned_copy(img: pygame.Surface, angle: int) -> pygame.Surface:
    """``img`` turned by ``angle`` (cached while ``img`` lives, e.g. a cached card face)."""
    key = (id(img), angle)
    got = _TURNED.pop(key, None)
    if got is None or got[0] is not img:
        if len(_TURNED) > 300:
            del _TURNED[next(iter(_TURNED))]  # the least recently used: no frame re-renders them all at once
        got = (img, turn(img, angle))
    _TURNED[key] = got  # the newest
    return got[1]


def blit_card(layer: pygame.Surface, img: pygame.Surface, r: pygame.Rect, nxt: pygame.Rect | None, angle: int,
              place: Callable[[pygame.Rect], pygame.Rect]) -> None:
    """Card face ``img`` (upright) laid at local rect ``r`` of a hand drawn turned by
    ``angle`` (``place`` maps a local rect onto ``layer``), without the part that the next
    card ``nxt`` covers: a face is opaque but in its rounded corners, so only the columns
    up to the next card's corner are blended; the result is the same pixels."""
    src = turned_copy(img, angle) if angle else img
    cut = nxt.left + cardart.corner_radius(r.size) + 1 if nxt is not None else r.right
    if (nxt is None or nxt.size != r.size or nxt.top > r.top or nxt.bottom < r.bottom
            or nxt.left <= r.left or not r.left < cut < r.right):
        layer.blit(src, place(r))
        return
    part = pygame.Rect(r.left, r.top, cut - r.left, r.height)
    own = part.move(-r.left, -r.top)  # in the card's own coordinates
    layer.blit(src, place(part), rotate_rect(own, r.size, angle) if angle else own)


_BUTTON_ART: dict[tuple[Any, ...], pygame.Surface] = {}


def button_art(label: str, size: tuple[int, int], *, hot: bool, text_size: int | None = None) -> pygame.Surface:
    """A button drawn upright on a transparent surface (with its shadow below), cached."""
    key = (label, size, hot, text_size)
    img = _BUTTON_ART.get(key)
    if img is None:
        w, h = size
        img = pygame.Surface((w, h + max(2, h // 16)), pygame.SRCALPHA)
        draw_button(img, pygame.Rect(0, 0, w, h), label, hot=hot, size=text_size)
        if len(_BUTTON_ART) > 64:
            _BUTTON_ART.clear()
        _BUTTON_ART[key] = img
    return img


# -- the piles ------------------------------------------------------------------------------
_STACKS: dict[tuple[tuple[int, int], int], pygame.Surface] = {}


def _stock_stack(size: tuple[int, int], n: int) -> pygame.Surface:
    """``n`` card backs stacked up and to the left, on the felt: one opaque blit instead of
    ``n`` blended ones (the stock always lies on the felt)."""
    key = (size, n)
    stack = _STACKS.get(key)
    if stack is None:
        if len(_STACKS) > 16:
            _STACKS.clear()
        off = 2 * (n - 1)
        stack = pygame.Surface((size[0] + off, size[1] + off)).convert()
        stack.fill(theme.FELT)
        back = cardart.card_surface(None, size, face_up=False)
        for i in range(n):
            stack.blit(back, (off - 2 * i, off - 2 * i))
        _STACKS[key] = stack
    return stack


def draw_piles(surf: pygame.Surface, stock_rect: pygame.Rect, pile_rect: pygame.Rect, stock: int, top: Any,
               *, outline: RGB | None, four_colour: bool, touch: int, hooks: PileHooks,
               targets: list[Target]) -> None:
    """The stock (up to three backs) at ``stock_rect`` and the discard pile's top card at
    ``pile_rect`` (an empty slot when there is none); both are touch targets."""
    size = (stock_rect.width, stock_rect.height)
    if stock:
        n = min(3, stock)
        pixels.blit_opaque(surf, _stock_stack(size, n), stock_rect.move(-2 * (n - 1), -2 * (n - 1)))
    else:
        surf.blit(cardart.empty_slot(size), stock_rect)
    if top is not None:
        surf.blit(cardart.card_surface(top, pile_rect.size, four_colour=four_colour, outline=outline), pile_rect)
    else:
        surf.blit(cardart.empty_slot(pile_rect.size, outline or theme.FELT_LIGHT), pile_rect)
    for name, r, fn in (("stock", stock_rect, hooks.touch_stock), ("pile", pile_rect, hooks.touch_pile)):
        targets.append(Target(r.inflate(max(0, touch - r.width), max(0, touch - r.height)), name, fn))


# -- a seat's panel -------------------------------------------------------------------------
def panel_targets(p: SeatPanel, cards: Sequence[tuple[pygame.Rect, Any]], hooks: PanelHooks,
                  targets: list[Target], start: int) -> None:
    """Touch targets of a panel drawn since ``targets[start]``: the whole panel (tap, hold to
    peek), each card (``(visible part in local coordinates, item)``; a touch picks it), then
    the panel's buttons, which were registered while drawing, on top."""
    seat = p.seat
    buttons = targets[start:]
    del targets[start:]
    targets.append(Target(p.rect, f"panel-{seat}", lambda: hooks.tap_panel(seat),
                          hold=lambda: hooks.hold_panel(seat), seat=seat))
    for r, item in cards:
        targets.append(Target(p.to_screen(r), f"card-{seat}-{item}", _picker(hooks, seat, item),
                              hold=lambda: hooks.hold_panel(seat), seat=seat))
    targets += buttons


def _picker(hooks: PanelHooks, seat: int, item: Any) -> Callable[[], None]:
    return lambda: hooks.pick_card(seat, item)


def presser(hooks: PanelHooks, seat: int, name: str) -> Callable[[], None]:
    """What a touch on button ``name`` of ``seat`` does."""
    return lambda: hooks.press(seat, name)


class PanelCanvas:
    """Draws a seat panel laid out upright (in its local coordinates) straight onto the
    screen: an upright panel on a subsurface; a turned panel piece by piece, each piece
    turned into place (texts and buttons from small cached copies), so no panel-sized work
    surface is filled, turned and copied."""

    def __init__(self, surf: pygame.Surface, p: SeatPanel, targets: list[Target]) -> None:
        self.p, self.targets = p, targets
        self.turned = p.angle != 0
        self.surf = surf if self.turned else surf.subsurface(p.rect)
        self.mark = log_mark()
        self.whole = pygame.Rect((0, 0), p.local_size)

    def at(self, r: pygame.Rect) -> pygame.Rect:
        """Where a local rect is drawn on :attr:`surf`."""
        return self.p.to_screen(r) if self.turned else pygame.Rect(r)

    def fill(self, colour: RGB, r: pygame.Rect | None = None) -> None:
        # an upside-down panel's cards are laid right to left after the fill (pixels.fill)
        pixels.fill(self.surf, colour, self.at(self.whole if r is None else r), banded=self.p.angle == 180)

    def fill_except(self, colour: RGB, hole: pygame.Rect) -> None:
        """Fill the panel except local rect ``hole`` (which something opaque covers next)."""
        fill_around(self.surf, self.at(self.whole), self.at(hole.clip(self.whole)), colour)

    def frame(self, colour: RGB, width: int) -> None:
        pygame.draw.rect(self.surf, colour, self.at(self.whole), width)

    def text(self, text: str, box: pygame.Rect, **kw: Any) -> None:
        if self.turned:
            theme.draw_text_turned(self.surf, text, box, self.p.to_screen, self.p.angle, **kw)
        else:
            theme.draw_text(self.surf, text, box, **kw)

    def paragraph(self, text: str, box: pygame.Rect, **kw: Any) -> None:
        if self.turned:
            def line(_s: pygame.Surface, t: str, b: pygame.Rect, offset: tuple[int, int] = (0, 0),
                     **k: Any) -> None:
                self.text(t, b, **k)

            theme.draw_paragraph(self.surf, text, box, line=line, **kw)
        else:
            theme.draw_paragraph(self.surf, text, box, **kw)

    def blit(self, img: pygame.Surface, r: pygame.Rect) -> None:
        """``img`` (drawn upright) at local rect ``r``."""
        self.surf.blit(turned_copy(img, self.p.angle) if self.turned else img, self.at(r))

    def button(self, r: pygame.Rect, b: ButtonVM, hooks: PanelHooks) -> None:
        """Button ``b`` at local rect ``r``; its touch target is in screen coordinates."""
        seat = self.p.seat
        if not self.turned:
            draw_button(self.surf, r, b.label, hot=b.hot)
        else:
            drop = max(2, r.height // 16)  # the button's shadow below it
            mark = log_mark()
            if theme.TEXT_LOG is None:
                img = button_art(b.label, r.size, hot=b.hot)
            else:  # drawn again, so its words are logged
                img = pygame.Surface((r.width, r.height + drop), pygame.SRCALPHA)
                draw_button(img, pygame.Rect(0, 0, r.width, r.height), b.label, hot=b.hot)
            self.surf.blit(turned_copy(img, self.p.angle),
                           self.at(pygame.Rect(r.left, r.top, r.width, r.height + drop)))
            map_log(mark, lambda box: self.p.to_screen(box.move(r.topleft)))
        self.targets.append(Target(self.p.to_screen(r), f"{b.name}-{seat}", presser(hooks, seat, b.name), seat=seat))

    def finish(self) -> None:
        """Texts drawn on an upright panel's subsurface, logged in screen coordinates."""
        if not self.turned:
            map_log(self.mark, self.p.to_screen)


def around(outer: pygame.Rect, hole: pygame.Rect) -> list[pygame.Rect]:
    """``outer`` except ``hole`` (which lies inside it) as four rects (some may be empty)."""
    return [pygame.Rect(outer.left, outer.top, outer.width, hole.top - outer.top),
            pygame.Rect(outer.left, hole.bottom, outer.width, outer.bottom - hole.bottom),
            pygame.Rect(outer.left, hole.top, hole.left - outer.left, hole.height),
            pygame.Rect(hole.right, hole.top, outer.right - hole.right, hole.height)]


def fill_around(surf: pygame.Surface, outer: pygame.Rect, hole: pygame.Rect, colour: RGB) -> None:
    """Fill ``outer`` except ``hole`` (which lies inside it)."""
    for r in around(outer, hole):
        if r.width > 0 and r.height > 0:
            pixels.fill(surf, colour, r)
