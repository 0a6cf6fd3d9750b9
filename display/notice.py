"""What the table says after a power cut: a banner over the scene, dismissed by a touch or
after :data:`NOTICE_SECONDS`.

:func:`resume_notices` turns ``MatchSession.resume``'s result into notice keys (pure);
:class:`Notice` draws them in the scene's ``notice_area()`` (the table's centre, clear of
the hands' touch targets). On a flat table the words are shown twice, the far copy turned
to the players across the table. The app draws it after the scene, so no scene needs to
know about it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pygame

from display import theme
from display.table.i18n import N_, _

NOTICE_SECONDS = 10.0
NOTICE_BG = (120, 30, 30)
TEXTS = {
    "resumed": N_("The table was switched off. The game continues from the last move."),
    "damaged": N_("A damaged game record was set aside; the games before it are kept. "
                  "Tell the operator."),
    "unreadable": N_("A game record could not be read; it is kept for the operator. "
                     "Tell the operator."),
    "other_cards_virtual": N_("An unfinished game on screen cards is kept: it goes on when the table "
                              "plays without the card shoe again."),
    "other_cards_real": N_("An unfinished game with real cards is kept: it goes on when the card "
                           "shoe is back in use."),
}


def resume_notices(result: Any) -> list[str]:
    """Notice keys for a ``ResumeResult``: a resumed match, damaged or unreadable journals."""
    keys = []
    if result.session is not None:
        keys.append("resumed")
    if result.damaged:
        keys.append("damaged")
    if result.unreadable:
        keys.append("unreadable")
    return keys


def notice_text(keys: Iterable[str]) -> str:
    """The notice in the current language (translated at draw time)."""
    return " ".join(_(TEXTS[k]) for k in keys if k in TEXTS)


class Notice:
    """A banner over the scene until touched or ``NOTICE_SECONDS`` after it first shows."""

    def __init__(self, keys: Iterable[str], *, seconds: float = NOTICE_SECONDS) -> None:
        self.keys = [k for k in keys if k in TEXTS]
        self.seconds = seconds
        self.shown_at: float | None = None
        self.rect = pygame.Rect(0, 0, 0, 0)

    @property
    def text(self) -> str:
        return notice_text(self.keys)

    def expired(self, now: float) -> bool:
        return self.shown_at is not None and now - self.shown_at >= self.seconds

    def hit(self, pos: tuple[float, float]) -> bool:
        return bool(self.rect.width) and self.rect.collidepoint(pos)

    @staticmethod
    def box_in(area: pygame.Rect, *, flat: bool) -> pygame.Rect:
        """The banner's rect in ``area``: most of its width, high enough for two or four lines."""
        w = int(area.width * 0.92)
        h = min(area.height - 8, max(96 if flat else 64, int(area.height * (0.62 if flat else 0.4))))
        box = pygame.Rect(0, 0, w, max(0, h))
        box.midtop = (area.centerx, area.top + 4)
        if flat:
            box.center = area.center
        return box

    def draw(self, surf: pygame.Surface, area: pygame.Rect, *, flat: bool, now: float) -> pygame.Rect:
        """Draw in ``area``; on a flat table two copies, the upper one turned 180°."""
        if self.shown_at is None:
            self.shown_at = now
        box = self.box_in(area, flat=flat)
        self.rect = box
        if box.width < 40 or box.height < 30:
            return box
        pygame.draw.rect(surf, theme.SHADOW, box.move(0, 3), border_radius=12)
        pygame.draw.rect(surf, NOTICE_BG, box, border_radius=12)
        pygame.draw.rect(surf, theme.GOLD, box, 2, border_radius=12)
        text = self.text
        size = max(14, int(28 * max(1.0, min(surf.get_size()) / 480) * 0.7))
        if not flat:
            theme.draw_paragraph(surf, text, box.inflate(-24, -12), size=size, bold=True)
            return box
        half = pygame.Rect(box.left, box.top, box.width, box.height // 2)
        inner = half.inflate(-24, -10)
        local = pygame.Surface(inner.size).convert()
        local.fill(NOTICE_BG)
        theme.draw_paragraph(local, text, local.get_rect(), size=size, bold=True)
        surf.blit(pygame.transform.flip(local, True, True), inner)  # the far players' copy
        pygame.draw.line(surf, theme.GOLD, (box.left + 12, half.bottom), (box.right - 12, half.bottom), 1)
        theme.draw_paragraph(surf, text, inner.move(0, half.height), size=size, bold=True)
        return box
