"""Fills and opaque copies that stay fast wherever a rect starts.

On x86 SDL fills a rect and copies an opaque surface with SSE streaming stores, 64 bytes
at a time from the first 16-byte boundary of each row. When a row does not start on a
64-byte cache line, those stores write partial lines, and on this kind of machine a fill
of a card-sized rect then takes ~60 µs instead of ~3 µs (measured: a 120x165 fill at x=100
on a 1920-wide screen, against x=96 or x=112). :func:`fill` and :func:`blit_opaque` split
off the few pixels before the next cache line (SDL does those with plain stores) so the
rest starts on a line. The result is pixel for pixel what ``Surface.fill`` and
``Surface.blit`` draw; elsewhere (a Pi's ARM, rows whose pitch is not a whole number of
lines) they are the plain calls.

Those streaming stores also leave the filled pixels out of the cache, and cards blended
onto a panel right after read them back from memory (on a turned panel, cards laid right
to left, up to 7x slower per card). So :func:`fill` with ``banded`` paints a wide rect
(>= 256 px) by copying a cached band of the colour instead (ordinary stores): the same
pixels. Only the upside-down panels ask for it: elsewhere the copies cost more than they
save (the gin table's frames were ~10 % slower with every wide fill banded).
"""

from __future__ import annotations

import pygame

LINE = 64  # bytes in a cache line
RGB = tuple[int, int, int]


def _lead(surf: pygame.Surface, x: int, width: int) -> int:
    """Pixels from column ``x`` to the next cache line, when splitting them off helps."""
    bpp = surf.get_bytesize()
    if bpp != 4 or width * bpp <= LINE or surf.get_pitch() % LINE:
        return 0
    return (-(surf._pixels_address + x * bpp) % LINE) // bpp


TILE_ROWS = 64
TILE_MIN_WIDTH = 256  # narrower fills (a side panel's) stay SDL fills: a band per 64 rows costs more there
_TILES: dict[tuple[object, ...], pygame.Surface] = {}


def _tile(surf: pygame.Surface, colour: RGB, width: int) -> pygame.Surface | None:
    """A band of ``colour`` in ``surf``'s (opaque 32-bit) pixel format, at least ``width``
    wide (None for other surfaces)."""
    if surf.get_bytesize() != 4 or surf.get_flags() & pygame.SRCALPHA:
        return None
    key = (tuple(colour), surf.get_masks())
    tile = _TILES.get(key)
    if tile is None or tile.get_width() < width:
        if len(_TILES) > 8:
            _TILES.clear()
        tile = pygame.Surface((max(width, surf.get_width()), TILE_ROWS), 0, surf)
        tile.fill(colour)
        _TILES[key] = tile
    return tile


def fill(surf: pygame.Surface, colour: RGB, rect: pygame.Rect | None = None, *, banded: bool = False) -> pygame.Rect:
    """``surf.fill(colour, rect)`` (the clip applies; returns the rect filled); ``banded``: a
    wide rect by copies of a band of the colour (for cards blended right after, right to
    left: a turned panel)."""
    r = surf.get_clip() if rect is None else pygame.Rect(rect).clip(surf.get_clip())
    if r.width <= 0 or r.height <= 0:
        return pygame.Rect(r.x, r.y, 0, 0)
    if banded and r.width >= TILE_MIN_WIDTH and r.height >= 16:
        tile = _tile(surf, colour, r.width)
        if tile is not None:
            for y in range(r.top, r.bottom, TILE_ROWS):
                blit_opaque(surf, tile, (r.x, y), pygame.Rect(0, 0, r.width, min(TILE_ROWS, r.bottom - y)))
            return r
    lead = _lead(surf, r.x, r.width)
    if lead:
        surf.fill(colour, (r.x, r.y, lead, r.height))
        surf.fill(colour, (r.x + lead, r.y, r.width - lead, r.height))
        return r
    return surf.fill(colour, r)


def blit_opaque(dst: pygame.Surface, src: pygame.Surface, pos: tuple[int, int] | pygame.Rect,
                area: pygame.Rect | None = None) -> pygame.Rect:
    """``dst.blit(src, pos, area)`` for an opaque ``src`` in ``dst``'s pixel format (a plain
    copy; ``pos`` may be a rect, its top-left counts)."""
    x, y = (pos.x, pos.y) if isinstance(pos, pygame.Rect) else pos
    part = src.get_rect() if area is None else pygame.Rect(area)
    if not src.get_rect().contains(part):  # SDL moves the copy by what lies outside: its call
        return dst.blit(src, (x, y), part)
    whole = pygame.Rect(x, y, part.width, part.height)
    r = whole.clip(dst.get_clip())
    if r.width <= 0 or r.height <= 0:
        return pygame.Rect(r.x, r.y, 0, 0)
    lead = _lead(dst, r.x, r.width)
    sx, sy = part.x + r.x - whole.x, part.y + r.y - whole.y
    if lead:
        dst.blit(src, (r.x, r.y), (sx, sy, lead, r.height))
        dst.blit(src, (r.x + lead, r.y), (sx + lead, sy, r.width - lead, r.height))
        return r
    return dst.blit(src, (r.x, r.y), (sx, sy, r.width, r.height))
