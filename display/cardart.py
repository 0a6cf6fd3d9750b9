"""Cards drawn by code: crisp at any size, big corner indices, optional four-colour deck.

:func:`card_surface` returns a cached surface for a card (or a back) at a pixel size. The
index (rank over suit) fills the top-left corner, readable at arm's length and still
visible when cards overlap in a hand; a big suit pip fills the middle.
"""

from __future__ import annotations

import pygame

from display import theme
from rummy.cards import SUIT_SYMBOLS, Card

FACE = (252, 250, 244)
EDGE = (60, 60, 60)
BACK_A = (150, 28, 36)
BACK_B = (196, 62, 62)
SELECT = (246, 196, 72)
HINT = (120, 200, 255)

TWO_COLOUR = {"S": theme.BLACK, "C": theme.BLACK, "H": theme.RED, "D": theme.RED}
FOUR_COLOUR = {"S": theme.BLACK, "H": theme.RED, "D": theme.BLUE, "C": theme.GREEN}

# the faces, bounded by their pixels: a count of 400 (oldest first) dropped the faces a big
# screen draws every move (two packs at several sizes: the hands, the melds, the piles, the
# tray) and made them again, up to 50 in one frame. 48 MB: about 1,500 faces at 1920x1080
_cache = theme.SurfaceCache(48_000_000)


def suit_colour(suit: str, four_colour: bool = False) -> tuple[int, int, int]:
    return (FOUR_COLOUR if four_colour else TWO_COLOUR)[suit]


def card_size_for_height(height: float) -> tuple[int, int]:
    """Poker proportions (63 × 88 mm)."""
    return (max(8, round(height * 63 / 88)), max(10, int(height)))


def corner_radius(size: tuple[int, int]) -> int:
    """The rounding of a card's corners: a face is opaque everywhere else."""
    return max(2, int(size[0]) // 10)


def _rounded(surf: pygame.Surface, rect: pygame.Rect, colour, radius: int, width: int = 0) -> None:
    pygame.draw.rect(surf, colour, rect, width, border_radius=radius)


def card_surface(
    card: Card | None,
    size: tuple[int, int],
    *,
    four_colour: bool = False,
    face_up: bool = True,
    outline=None,
) -> pygame.Surface:
    """A card face (or the back when ``face_up`` is False or ``card`` is None)."""
    w, h = int(size[0]), int(size[1])
    key = (card, w, h, four_colour, face_up and card is not None, outline)
    surf = _cache.get(key)
    if surf is not None:
        return surf
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    radius = corner_radius((w, h))
    rect = surf.get_rect()
    if card is None or not face_up:
        _rounded(surf, rect, FACE, radius)
        inner = rect.inflate(-max(4, w // 8), -max(4, w // 8))
        _rounded(surf, inner, BACK_A, max(2, radius // 2))
        step = max(4, w // 7)
        for x in range(inner.left - inner.height, inner.right, step):
            pygame.draw.line(surf, BACK_B, (x, inner.bottom - 1), (x + inner.height, inner.top), max(1, w // 40))
        _rounded(surf, inner, BACK_A, max(2, radius // 2), max(1, w // 30))
    else:
        _rounded(surf, rect, FACE, radius)
        colour = suit_colour(card.suit, four_colour)
        label = card.rank_label
        pad = max(2, w // 18)
        idx_h = int(h * 0.30)
        rank_box = pygame.Rect(pad, pad, int(w * 0.46) if len(label) == 1 else int(w * 0.56), idx_h)
        size_px = theme.fit_size(label, rank_box, idx_h, bold=True, min_size=6)
        # the index and pips from the shared cache of rendered lines: a new size renders
        # each label and suit once, not once per card
        img = theme.render(label, size_px, colour, True)
        r = img.get_rect(midtop=(pad + rank_box.width // 2, pad - size_px // 12))
        surf.blit(img, r)
        pip_h = int(h * 0.22)
        pip = theme.render(SUIT_SYMBOLS[card.suit], pip_h, colour, True)
        surf.blit(pip, pip.get_rect(midtop=(r.centerx, r.bottom - pip_h // 8)))
        big_h = int(h * 0.5)
        big = theme.render(SUIT_SYMBOLS[card.suit], big_h, colour, False)
        surf.blit(big, big.get_rect(center=(int(w * 0.62), int(h * 0.66))))
        if card.rank >= 11:
            pygame.draw.rect(surf, colour, pygame.Rect(int(w * 0.36), int(h * 0.36), int(w * 0.52),
                                                       int(h * 0.58)), max(1, w // 40), border_radius=radius // 2)
    _rounded(surf, rect, EDGE, radius, max(1, w // 60))
    if outline is not None:
        _rounded(surf, rect, outline, radius, max(3, w // 14))
    screen = pygame.display.get_surface()
    if screen is not None and not _alpha_format_is_native(screen):
        surf = surf.convert_alpha()  # the display's pixel format blits several times faster
    _cache.put(key, surf)
    return surf


_native: dict[tuple[int, int, int, int, int], bool] = {}


def _alpha_format_is_native(screen: pygame.Surface) -> bool:
    """Is a new ``SRCALPHA`` surface already in the format ``convert_alpha`` makes for this
    display? Then converting is only a copy (and a slow one: SDL copies with streaming
    stores, which cost ~20x on rows that do not start on a 64-byte line)."""
    key = (screen.get_bitsize(), *screen.get_masks())
    got = _native.get(key)
    if got is None:
        probe = pygame.Surface((1, 1), pygame.SRCALPHA)
        conv = probe.convert_alpha()
        got = _native[key] = (probe.get_bitsize(), probe.get_masks()) == (conv.get_bitsize(), conv.get_masks())
    return got


def empty_slot(size: tuple[int, int], colour=theme.FELT_LIGHT) -> pygame.Surface:
    """An outline where a pile would be."""
    w, h = size
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(surf, colour, surf.get_rect(), max(2, w // 30), border_radius=max(2, w // 10))
    return surf
