"""The hand tray of the contract table: on a small screen the seat in turn gets his cards
again, spread over the width of the table's middle next to his panel, so each card keeps a
part a finger can hit (9 mm ≈ 48 px on a 7-inch 800×480 panel) while he picks, groups,
melds (C-3), lays off (C-5.2) and discards (C-5.3). His panel keeps its small cards; the
middle is drawn in what the tray leaves free, so the melds and the pack stay in sight.
:func:`tray_place` says where (or None); :func:`draw_tray` draws a
:class:`display.table.viewmodels.contract.TrayVM`."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Protocol

import pygame

from display import cardart, theme
from display.layout import MIN_TOUCH_PX, SeatPanel, hand_rects, visible_part
from display.scenes.base import Target
from display.scenes.contract_panel import _touch_size
from display.scenes.painting import rect, seat_panel, turned_copy
from display.table.viewmodels.contract import TrayVM

TRAY_SHARES = (0.5, 0.56, 0.62, 0.68)  # of the middle's depth: 13+ cards need two rows
SIDE_SHARES = (0.3, 0.38, 0.46, 0.54, 0.62)  # of the middle's width, for a seat at the left or right


def _spot(edge: str, centre: pygame.Rect, share: float) -> tuple[pygame.Rect, pygame.Rect]:
    """(the tray, the middle it leaves) along the middle's side nearest ``edge``."""
    if edge in ("top", "bottom"):
        depth = int(centre.height * share)
        top = centre.top if edge == "top" else centre.bottom - depth
        rest_top = centre.top if edge == "bottom" else top + depth
        return (pygame.Rect(centre.left, top, centre.width, depth),
                pygame.Rect(centre.left, rest_top, centre.width, centre.height - depth))
    width = int(centre.width * share)
    left = centre.left if edge == "left" else centre.right - width
    rest_left = centre.left if edge == "right" else left + width
    return (pygame.Rect(left, centre.top, width, centre.height),
            pygame.Rect(rest_left, centre.top, centre.width - width, centre.height))


@lru_cache(maxsize=64)
def _grid(inner: tuple[int, int, int, int], n: int, raise_px: int) -> list[pygame.Rect]:
    """``n`` cards in rows overlapping down and across (aligned columns), sized so the
    smallest part left to touch is as big as it can be."""
    area = pygame.Rect(inner)
    high = area.height - raise_px
    best = None
    for rows in range(1, 7):
        per_row = -(-n // rows)
        for ch in range(high, 19, -2):
            cw = cardart.card_size_for_height(ch)[0]
            if cw > area.width:
                continue
            step = min(cw + cw / 10, (area.width - cw) / (per_row - 1)) if per_row > 1 else cw
            down = min(ch + ch / 10, (high - ch) / (rows - 1)) if rows > 1 else ch
            score = min(step, cw, down, ch)
            if best is None or score > best[0]:
                best = (score, rows, per_row, ch, cw, step, down)
    if best is None:
        return []
    _score, rows, per_row, ch, cw, step, down = best
    x0 = area.centerx - (cw + step * (per_row - 1)) / 2
    return [pygame.Rect(round(x0 + (i % per_row) * step), round(area.top + raise_px + (i // per_row) * down), cw, ch)
            for i in range(n)]


def _raise(depth: int) -> int:
    """How far a picked card rises in a tray ``depth`` deep."""
    return max(5, depth // 12)


class TrayHooks(Protocol):
    def pick_card(self, seat: int, item: Any) -> None: ...

    def hold_panel(self, seat: int) -> None: ...


def tray_place(p: SeatPanel, centre: pygame.Rect, n: int, own: int) -> tuple[SeatPanel, pygame.Rect,
                                                                              list[pygame.Rect]] | None:
    """(the tray, the middle it leaves, its card rects) for the seat of panel ``p`` with
    ``n`` cards, when his panel's cards (smallest part ``own`` px) are under a touch target
    and the tray gives bigger ones; None otherwise."""
    got = _tray_place(p.seat, p.edge, tuple(p.rect), p.angle, tuple(centre), n, own)
    if got is None:
        return None
    tp, rest, rects = got
    return SeatPanel(tp.seat, tp.edge, pygame.Rect(tp.rect), tp.angle), pygame.Rect(rest), [pygame.Rect(r) for r in rects]


@lru_cache(maxsize=64)  # asked every frame for the seat in turn: the search is a few milliseconds
def _tray_place(seat: int, edge: str, panel: tuple[int, int, int, int], angle: int,
                middle: tuple[int, int, int, int], n: int, own: int) -> tuple[SeatPanel, pygame.Rect,
                                                                              list[pygame.Rect]] | None:
    p, centre = SeatPanel(seat, edge, pygame.Rect(panel), angle), pygame.Rect(middle)
    if n == 0 or min(centre.size) < 2 * MIN_TOUCH_PX:
        return None
    if own >= MIN_TOUCH_PX:  # 9 mm on the 7-inch panel; bigger screens' panels already give it
        return None
    side = p.edge in ("left", "right")
    best = None
    for share in SIDE_SHARES if side else TRAY_SHARES:  # the smallest tray whose cards are big enough
        r, rest = _spot(p.edge, centre, share)
        tp = SeatPanel(p.seat, p.edge, r, p.angle)
        w, d = tp.local_size
        inner = pygame.Rect(8, 6, w - 16, d - 10)
        if inner.width < MIN_TOUCH_PX or inner.height < MIN_TOUCH_PX:
            continue
        if side:
            rects = _grid((inner.x, inner.y, inner.width, inner.height), n, _raise(d))
        else:
            rects = hand_rects(inner, n, inner.height, min_strip=MIN_TOUCH_PX, raise_px=_raise(d))
        size = _touch_size(rects)
        if best is None or size > best[0]:
            best = (size, tp, rects, rest)
        if size >= MIN_TOUCH_PX:
            break
    if best is None or best[0] <= own:
        return None
    return best[1], best[3], best[2]


def draw_tray(surf: pygame.Surface, tray: TrayVM, hooks: TrayHooks, targets: list[Target]) -> None:
    """The tray's cards (picked ones raised and outlined); each is a touch target."""
    tp = seat_panel(tray.place)
    seat = tp.seat
    hand = tray.hand
    pygame.draw.rect(surf, theme.PANEL_ACTIVE, tp.rect, border_radius=10)
    pygame.draw.rect(surf, theme.GOLD, tp.rect, 2, border_radius=10)
    raise_px = _raise(tp.local_size[1])
    rects = [rect(b) for b in tray.rects]
    for k, r in zip(hand.order, rects, strict=True):
        picked = k in hand.picked
        outline = cardart.SELECT if picked else (cardart.HINT if k in hand.suggested else None)
        img = cardart.card_surface(hand.cards[k], r.size, four_colour=hand.four_colour, outline=outline)
        if tp.angle:
            img = turned_copy(img, tp.angle)
        surf.blit(img, tp.to_screen(r.move(0, -raise_px) if picked else r))
    for i, k in enumerate(hand.order):
        targets.append(Target(tp.to_screen(visible_part(rects, i)), f"tray-{seat}-{k}", _picker(hooks, seat, k),
                              hold=lambda: hooks.hold_panel(seat), seat=seat))


def _picker(hooks: TrayHooks, seat: int, k: int) -> Any:
    return lambda: hooks.pick_card(seat, k)
