"""What the gin and contract reviews share: continue by a confirm that cannot be a stray tap
(issue 28: the review stays at least ``[game] review_min_s``, then a human seat's DRAW held
as long as a look, or a touch on Continue; :class:`display.table.controller.review.ReviewGate`),
the DRAW lamps lit once it may go (the app writes them by
:func:`display.table.controller.lamps.review_lamps`), and the headless runs going straight on; and the
painters' common parts: the Continue footer and, on a flat table, the strip turned to the
far side that repeats the title, a short text and Continue."""

from __future__ import annotations

import math
from collections.abc import Callable

import pygame

from display import theme
from display.layout import rotate_rect
from display.scenes import Go
from display.scenes.base import Scene, Target, draw_button
from display.table.controller import LOOK_AFTER_S
from display.table.controller.review import ReviewGate
from display.table.i18n import _

HEADLESS_PAUSE = 0.0


class ReviewScene(Scene):
    """Base of the hand/deal reviews: :meth:`proceed` deals the next hand or ends the match."""

    def __init__(self, app) -> None:
        super().__init__(app)
        self.t0 = app.clock()
        m = app.match
        hold = m.controller.look_after if m is not None else LOOK_AFTER_S
        self.gate = ReviewGate(self.t0, min_seconds=float(app.config.game.review_min_s), hold_seconds=hold)
        self._left_shown: int | None = None  # the countdown drawn last

    @property
    def m(self):
        return self.app.match

    def waiting(self, now: float | None = None) -> int:
        """Whole seconds until a confirm counts (0: it may go on now)."""
        return math.ceil(self.gate.left(self.app.clock() if now is None else now) - 1e-9)

    def how_to_continue(self) -> str:
        """What the footer says: wait, or how to go on (a held DRAW, or Continue)."""
        left = self.waiting()
        if left > 0:
            return _("Continue in {n} s").format(n=left)
        return _("or hold DRAW")

    def touch_continue(self) -> None:
        """A touch on Continue: goes on once the review has been shown long enough."""
        if self.gate.touch(self.app.clock()):
            self.proceed()

    def proceed(self) -> None:
        if self.m.is_over:
            self.app.after_match()
            return
        self.m.continue_after_review()
        self.app.go(Go.MATCH)

    def on_button(self, event) -> None:
        """A human seat's DRAW held as long as a look goes on (a tap does nothing)."""
        if self.m is None or not 0 <= event.seat < len(self.m.seats):
            return
        self.gate.button(event.seat, event.call, event.edge, event.t, human=self.m.is_human(event.seat))
        if self.gate.held(self.app.clock()):
            self.proceed()

    def update(self, now: float) -> None:
        super().update(now)
        if self.app.headless and self.app.frames > 0 and not self.dirty and now - self.t0 >= HEADLESS_PAUSE:
            self.proceed()
            return
        if self.app.match is None or self.app.scene is not self:
            return
        if self.gate.held(now):  # DRAW held long enough while the review may go
            self.proceed()
            return
        left = self.waiting(now)
        if left != self._left_shown:
            self._left_shown = left
            self.dirty = True  # the countdown, then how to go on

    def next_due(self, now: float) -> float | None:
        """The countdown and a held DRAW are looked at twenty times a second."""
        return now + 0.05


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
                   targets: list[Target], touch: int, proceed: Callable[[], None], *, ready: bool = True,
                   how: str = "") -> None:
    """The strip of ``size`` at the top of ``surf``, turned 180° to the far side: ``title``,
    ``text`` under it and a Continue button (touch target ``continue-far``, lit once
    ``ready``) at least ``touch`` high, ``how`` to go on after the text; the target and the
    text records in ``surf``'s coordinates."""
    if how:
        text = f"{text} · {how}" if text else how
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
    draw_button(local, b, next_label + "  ▶", hot=ready)
    targets.append(Target(rotate_rect(b, size, 180), "continue-far", proceed))
    if log is not None:
        for j in range(mark_l, len(log)):
            rec = log[j]
            log[j] = theme.TextRecord(rec.text, rotate_rect(rec.box, size, 180),
                                      rotate_rect(rec.drawn, size, 180), rec.fits)
    surf.blit(pygame.transform.flip(local, True, True), (0, 0))


def draw_continue(surf: pygame.Surface, size: tuple[int, int], foot_h: int, next_label: str,
                  targets: list[Target], proceed: Callable[[], None], *, ready: bool = True,
                  how: str = "") -> None:
    """The footer: Continue at the bottom right (touch target ``continue``, lit once
    ``ready``), ``foot_h`` high, and ``how`` to go on beside it ("or hold DRAW", or the
    seconds until it may go)."""
    w, h = size
    btn = pygame.Rect(w - int(w * 0.35) - int(w * 0.03), h - foot_h - int(h * 0.02), int(w * 0.35), foot_h)
    draw_button(surf, btn, next_label + "  ▶", hot=ready)
    targets.append(Target(btn, "continue", proceed))
    theme.draw_text(surf, how or _("or hold DRAW"), pygame.Rect(int(w * 0.03), btn.top, btn.left - int(w * 0.06),
                                                                foot_h), align="right", colour=theme.INK_DIM,
                    size=int(foot_h * 0.4))
