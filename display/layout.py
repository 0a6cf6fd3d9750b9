"""Layout helpers: seat panels along the table's edges, rotation maths, hands, touch sizes.

Everything is computed from the logical screen size, so the same code lays out
800×480, 1280×800, 1920×1080 and portrait panels.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

# 9 mm on a 7-inch 800×480 panel (154 × 86 mm visible): 5.2 px/mm → 47 px; we use 48.
MIN_TOUCH_PX = 48
EDGES = ("bottom", "right", "top", "left")
# pygame.transform.rotate angle (counter-clockwise) that turns an upright panel to face
# a player sitting at that edge.
EDGE_ANGLE = {"bottom": 0, "right": 90, "top": 180, "left": 270}


def unit(size: tuple[int, int]) -> float:
    """A scale unit: 1.0 on an 800×480 panel, larger on bigger screens."""
    return max(1.0, min(size) / 480)


def touch_px(size: tuple[int, int]) -> int:
    """Minimum touch target (px) for a screen of this size: at least 9 mm on a 7-inch panel."""
    return max(MIN_TOUCH_PX, round(MIN_TOUCH_PX * unit(size) * 0.8))


def rotate_point(p: tuple[float, float], size: tuple[int, int], angle: int) -> tuple[float, float]:
    """Where point ``p`` of a surface of ``size`` lands after ``pygame.transform.rotate(angle)``."""
    x, y = p
    w, h = size
    angle %= 360
    if angle == 0:
        return (x, y)
    if angle == 90:
        return (y, w - x)
    if angle == 180:
        return (w - x, h - y)
    if angle == 270:
        return (h - y, x)
    raise ValueError(f"rotation must be 0, 90, 180 or 270, got {angle}")


def unrotate_point(p: tuple[float, float], size: tuple[int, int], angle: int) -> tuple[float, float]:
    """Inverse of :func:`rotate_point` (``size`` is the unrotated surface's size): the point
    turned back by ``-angle`` on the turned surface."""
    turned = (size[1], size[0]) if angle % 180 == 90 else (size[0], size[1])
    return rotate_point(p, turned, -angle)


def rotate_rect(r: pygame.Rect, size: tuple[int, int], angle: int) -> pygame.Rect:
    """The axis-aligned rect ``r`` of an unrotated surface after rotation."""
    angle %= 360
    if angle == 0:
        return pygame.Rect(r)
    if angle == 180:
        return pygame.Rect(size[0] - r.right, size[1] - r.bottom, r.width, r.height)
    if type(r) is pygame.Rect:  # whole pixels (a side panel's every card and line): no rounding needed
        if angle == 90:
            return pygame.Rect(r.top, size[0] - r.right, r.height, r.width)
        if angle == 270:
            return pygame.Rect(size[1] - r.bottom, r.left, r.height, r.width)
    a = rotate_point(r.topleft, size, angle)
    b = rotate_point(r.bottomright, size, angle)
    left, right = sorted((a[0], b[0]))
    top, bottom = sorted((a[1], b[1]))
    return pygame.Rect(round(left), round(top), round(right - left), round(bottom - top))


@dataclass(frozen=True)
class SeatPanel:
    """A seat's strip along one edge. Content is drawn upright in ``local_size`` (the player
    at the bottom of it) and turned by ``angle`` onto ``rect`` of the screen."""

    seat: int
    edge: str
    rect: pygame.Rect
    angle: int

    @property
    def local_size(self) -> tuple[int, int]:
        if self.angle in (90, 270):
            return (self.rect.height, self.rect.width)
        return (self.rect.width, self.rect.height)

    def to_screen(self, r: pygame.Rect) -> pygame.Rect:
        """A local rect in screen coordinates."""
        if type(r) is not pygame.Rect:
            r = pygame.Rect(r)
        if self.angle == 0:
            return r.move(self.rect.topleft)  # a new rect (``r`` is left as it was)
        return rotate_rect(r, self.local_size, self.angle).move(self.rect.topleft)

    def to_local(self, pos: tuple[float, float]) -> tuple[float, float]:
        """A screen point in local (upright) coordinates."""
        p = (pos[0] - self.rect.left, pos[1] - self.rect.top)
        return unrotate_point(p, self.local_size, self.angle)


def _slots(n: int) -> list[tuple[str, int, int]]:
    """(edge, index along the edge, slots on that edge) for seats 0..n-1, clockwise from the
    bottom (looking down at the table)."""
    plans = {
        1: [("bottom", 0, 1)],
        2: [("bottom", 0, 1), ("top", 0, 1)],
        3: [("bottom", 0, 1), ("left", 0, 1), ("right", 0, 1)],
        4: [("bottom", 0, 1), ("left", 0, 1), ("top", 0, 1), ("right", 0, 1)],
        5: [("bottom", 1, 2), ("bottom", 0, 2), ("left", 0, 1), ("top", 0, 1), ("right", 0, 1)],
        6: [("bottom", 1, 2), ("bottom", 0, 2), ("left", 0, 1), ("top", 0, 2), ("top", 1, 2),
            ("right", 0, 1)],
    }
    if n not in plans:
        raise ValueError(f"the table seats 1 to 6 players, not {n}")
    return plans[n]


def seat_panels(
    size: tuple[int, int], n: int, *, layout: str = "flat", depth: float = 0.3
) -> list[SeatPanel]:
    """Panels for ``n`` seats. ``depth`` is the panel's share of the short screen side.

    ``layout = "flat"`` turns each panel to face its edge; ``"upright"`` keeps all upright
    (a wall or stand) with the far seats' panels at the top.
    """
    w, h = size
    slots = _slots(n)
    side_edges = {e for e, _, _ in slots if e in ("left", "right")}
    d = round(min(w, h) * depth)
    side_d = round(min(w, h) * depth * (0.8 if n > 2 else 1.0))
    panels = []
    for seat, (edge, i, k) in enumerate(slots):
        if edge in ("bottom", "top"):
            x0 = side_d if "left" in side_edges else 0
            x1 = w - side_d if "right" in side_edges else w
            span = (x1 - x0) // k
            y = h - d if edge == "bottom" else 0
            rect = pygame.Rect(x0 + i * span, y, span, d)
        else:  # a side panel runs the full height: the corners beside the top and bottom panels
            x = 0 if edge == "left" else w - side_d  # are its own (a hand wraps less)
            rect = pygame.Rect(x, 0, side_d, h)
        angle = EDGE_ANGLE[edge] if layout == "flat" else 0
        panels.append(SeatPanel(seat, edge, rect, angle))
    return panels


def centre_area(size: tuple[int, int], panels: list[SeatPanel]) -> pygame.Rect:
    """The table's middle: what the panels leave free."""
    area = pygame.Rect(0, 0, *size)
    for p in panels:
        if p.edge == "bottom":
            area.height = min(area.height, p.rect.top - area.top)
        elif p.edge == "top":
            delta = p.rect.bottom - area.top
            if delta > 0:
                area.top += delta
                area.height -= delta
        elif p.edge == "left":
            delta = p.rect.right - area.left
            if delta > 0:
                area.left += delta
                area.width -= delta
        elif p.edge == "right":
            area.width = min(area.width, p.rect.left - area.left)
    return area


def hand_rects(
    area: pygame.Rect, n: int, card_h: int, *, min_strip: int = MIN_TOUCH_PX, raise_px: int = 0
) -> list[pygame.Rect]:
    """Overlapping card rects for a hand of ``n`` in ``area`` (local coords), left to right.

    Each card shows at least ``min_strip`` px (a touch target) — the hand wraps into two
    rows when one row would be tighter. ``raise_px`` leaves room above for a raised card.
    """
    if n <= 0:
        return []
    from display.cardart import card_size_for_height

    rows = 1
    cw, ch = card_size_for_height(min(card_h, area.height - raise_px))
    while True:
        per_row = -(-n // rows)
        strip = min(cw + cw // 10, (area.width - cw) / max(1, per_row - 1)) if per_row > 1 else cw
        if strip >= min_strip or rows >= 2:
            break
        rows += 1
        cw, ch = card_size_for_height(min(card_h, (area.height - raise_px) * 0.62,
                                          area.height - raise_px - min_strip))
    per_row = -(-n // rows)
    rects = []
    row_gap = (area.height - raise_px - ch) // max(1, rows - 1) if rows > 1 else 0
    for r in range(rows):
        count = min(per_row, n - r * per_row)
        strip = min(cw + cw // 10, (area.width - cw) / max(1, count - 1)) if count > 1 else 0
        total = cw + strip * (count - 1)
        x0 = area.centerx - total / 2
        y = area.top + raise_px + r * row_gap
        for j in range(count):
            rects.append(pygame.Rect(round(x0 + j * strip), y, cw, ch))
    return rects


def visible_part(rects: list[pygame.Rect], i: int) -> pygame.Rect:
    """The part of card ``i`` not covered by cards drawn after it (its touch target)."""
    r = pygame.Rect(rects[i])
    for other in rects[i + 1:]:
        if not other.colliderect(r):
            continue
        if other.top == r.top and other.left > r.left:
            r.width = min(r.width, other.left - r.left)
        elif other.top > r.top:
            r.height = min(r.height, other.top - r.top)
    return r


def grid(area: pygame.Rect, count: int, cols: int, *, gap: int = 8) -> list[pygame.Rect]:
    """``count`` equal cells, ``cols`` per row, centred in ``area``."""
    rows = -(-count // cols)
    cw = (area.width - gap * (cols - 1)) // cols
    chh = (area.height - gap * (rows - 1)) // max(1, rows)
    return [pygame.Rect(area.left + (i % cols) * (cw + gap), area.top + (i // cols) * (chh + gap), cw, chh)
            for i in range(count)]
