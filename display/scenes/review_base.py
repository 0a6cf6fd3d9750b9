"""What the gin and contract reviews share: continue by touch or by DRAW on a human seat's
buttons, the DRAW lamps lit meanwhile, and the headless runs going straight on; and the
painters' common parts: the Continue footer and, on a flat table, the strip turned to the
far side that repeats the title, a short text and Continue."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from display import theme
from display.i18n import _
from display.layout import rotate_rect
from display.scenes.base import Scene, Target, draw_button

HEADLESS_PAUSE = 0.0


class ReviewScene(Scene):
    """Base of the hand/deal reviews: :meth:`proceed` deals the next hand or ends the match."""

    def __init__(self, app) -> None:
        super().__init__(app)
        self.t0 = app.clock()

    @property
    def m(self):
        return self.app.match

    def proceed(self) -> None:
        self.app.hw.all_lamps_off()
        if self.m.is_over:
            self.app.after_match()
            return
        self.m.continue_after_review()
        self.app.show_match()

    def on_button(self, event) -> None:
        if event.edge == "press" and event.call == "draw" and self.m.is_human(event.seat):
            self.proceed()

    def update(self, now: float) -> None:
        super().update(now)
        if self.app.headless and self.app.frames > 0 and not self.dirty and now - self.t0 >= HEADLESS_PAUSE:
            self.proceed()
        if self.app.match is not None and self.app.scene is self:
            for seat in range(len(self.m.seats)):
                self.app.hw.set_lamps(seat, draw=self.m.is_human(seat))


def draw_below_strip(surf: pygame.Surface, size: tuple[int, int], strip_h: int, targets: list[Target],
                     draw_main: Callable[[pygame.Surface, tuple[int, int]], None]) -> None:
    """``draw_main(part, part_size)`` paints the part of ``surf`` below a strip ``strip_h``
    high at the top; its touch targets and text records are moved to ``surf``'s place."""
    w, h = size
    log = theme.TEXT_LOG
    mark_t, mark_l = len(targets), (len(log) if log is not None else 0)
    draw_main(surf.subsurface((0, strip_h, w, h - strip_h)), (w, h - strip_h))
    for t in targets[mark_t:]:
        t.rect = t.rect.move(0, strip_h)
    if log is not None:
        for j in range(mark_l, len(log)):
            r = log[j]
            log[j] = theme.TextRecord(r.text, r.box.move(0, strip_h), r.drawn.move(0, strip_h), r.fits)


def draw_far_strip(surf: pygame.Surface, size: tuple[int, int], title: str, text: str, next_label: str,
                   targets: list[Target], touch: int, proceed: Callable[[], None]) -> None:
    """The strip of ``size`` at the top of ``surf``, turned 180° to the far side: ``title``,
    ``text`` under it and a Continue button (touch target ``continue-far``) at least ``touch``
    high; the target and the text records in ``surf``'s coordinates."""
    w, sh = size
    local = pygame.Surface(size).convert()
    local.fill(theme.PANEL)
    log = theme.TEXT_LOG
    mark_l = len(log) if log is not None else 0
    btn_w = max(touch * 3, int(w * 0.26))
    text_box = pygame.Rect(10, 6, w - btn_w - 30, sh - 12)
    line = max(16, min(int(sh * 0.3), 40))
    theme.draw_text(local, title, pygame.Rect(text_box.left, text_box.top, text_box.width, line),
                    colour=theme.GOLD, bold=True, align="left")
    theme.draw_paragraph(local, text, pygame.Rect(text_box.left, text_box.top + line, text_box.width,
                                                  text_box.height - line),
                         size=max(14, int(line * 0.6)), align="left")
    bh = max(touch, int(sh * 0.6))
    b = pygame.Rect(w - btn_w - 10, (sh - bh) // 2, btn_w, bh)
    draw_button(local, b, next_label + "  ▶", hot=True)
    targets.append(Target(rotate_rect(b, size, 180), "continue-far", proceed))
    if log is not None:
        for j in range(mark_l, len(log)):
            rec = log[j]
            log[j] = theme.TextRecord(rec.text, rotate_rect(rec.box, size, 180),
                                      rotate_rect(rec.drawn, size, 180), rec.fits)
    surf.blit(pygame.transform.flip(local, True, True), (0, 0))


def draw_continue(surf: pygame.Surface, size: tuple[int, int], foot_h: int, next_label: str,
                  targets: list[Target], proceed: Callable[[], None]) -> None:
    """The footer: Continue at the bottom right (touch target ``continue``), ``foot_h`` high,
    and "or press DRAW" beside it."""
    w, h = size
    btn = pygame.Rect(w - int(w * 0.35) - int(w * 0.03), h - foot_h - int(h * 0.02), int(w * 0.35), foot_h)
    draw_button(surf, btn, next_label + "  ▶", hot=True)
    targets.append(Target(btn, "continue", proceed))
    theme.draw_text(surf, _("or press DRAW"), pygame.Rect(int(w * 0.03), btn.top, btn.left - int(w * 0.06),
                                                          foot_h), align="right", colour=theme.INK_DIM,
                    size=int(foot_h * 0.4))
