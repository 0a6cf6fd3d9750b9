"""The venue's league standings as a small panel (the attract screen), from the table's
cached copy (``App.league_standings``): drawn only when the league is on and the cache
has rows, so a table without the league looks as before."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygame

from display import theme
from display.table.i18n import _

ROWS = 5


def standings_lines(rows: Sequence[Any], limit: int = ROWS) -> list[tuple[str, str]]:
    """``(left, right)`` text per shown row: rank and name, matches won of played."""
    return [(f"{n}. {r.name}", _("{won} won of {played}").format(won=r.won, played=r.played))
            for n, r in enumerate(rows[:limit], start=1)]


def _line_height(box: pygame.Rect, rows: Sequence[Any]) -> int:
    return max(14, box.height // (min(len(rows), ROWS) + 2))


def panel_rect(box: pygame.Rect, rows: Sequence[Any]) -> pygame.Rect:
    """Where :func:`draw_standings` paints for these rows (the top of ``box``)."""
    line_h = _line_height(box, rows)
    return pygame.Rect(box.left, box.top, box.width,
                       line_h * (min(len(rows), ROWS) + 1) + line_h // 2)


def draw_standings(surf: pygame.Surface, box: pygame.Rect, venue: str, game: str,
                   rows: Sequence[Any]) -> pygame.Rect | None:
    """Draw the panel in ``box``; returns its rect, or None when there is nothing to show."""
    if not rows:
        return None
    lines = standings_lines(rows)
    line_h = _line_height(box, rows)
    panel = panel_rect(box, rows)
    pygame.draw.rect(surf, theme.PANEL, panel, border_radius=max(6, line_h // 3))
    pad = max(6, box.width // 30)
    season = getattr(rows[0], "season", "")
    head = (_("League at {venue}").format(venue=venue) if venue else _("League")) + \
        f" · {_('Gin') if game == 'gin' else _('Contract')} {season}".rstrip()
    theme.draw_text(surf, head, pygame.Rect(panel.left + pad, panel.top + line_h // 4,
                                            panel.width - 2 * pad, line_h),
                    colour=theme.GOLD, bold=True, align="left")
    for i, (left, right) in enumerate(lines, start=1):
        y = panel.top + line_h // 4 + i * line_h
        theme.draw_text(surf, left, pygame.Rect(panel.left + pad, y, int(panel.width * 0.6) - pad,
                                                line_h), align="left")
        theme.draw_text(surf, right, pygame.Rect(panel.left + int(panel.width * 0.6), y,
                                                 int(panel.width * 0.4) - pad, line_h),
                        colour=theme.INK_DIM, align="right")
    return panel
