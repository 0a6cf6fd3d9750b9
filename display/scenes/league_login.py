"""A league player takes a seat: pick the league name, type the PIN on the keypad.

The names come from the table's cached copy of the league's players; the PIN is checked
by the server (or, off line, against this table's own hash of a PIN it accepted before)
on another thread, so the screen keeps drawing while it waits. Guests need none of this.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from functools import partial
from typing import Any

import pygame

from display import theme
from display.layout import grid
from display.scenes import Go
from display.scenes.base import Scene
from display.table.i18n import _

PAGE = 12
ANSWERS = {
    "wrong": lambda: _("Wrong PIN. Try again."),
    "locked": lambda: _("Too many wrong PINs: try again in ten minutes."),
    "unknown": lambda: _("This player is no longer in the league."),
    "offline": lambda: _("The league cannot be reached now: play as a guest, or try again."),
}


class LeagueLoginScene(Scene):
    name = "league_login"

    def __init__(self, app, *, seat: int, on_done: Callable[[tuple[int, str] | None], None]) -> None:
        super().__init__(app)
        self.seat = seat
        self.on_done = on_done
        self.page = 0
        self.message = ""
        self.pending: tuple[int, str, Future[str]] | None = None
        league = getattr(app, "league", None)
        self.players: list[tuple[int, str]] = league.cache.players() if league is not None else []

    @property
    def busy(self) -> bool:
        return self.pending is not None

    def pick(self, player_id: int, name: str) -> None:
        def typed(pin: str | None) -> None:
            self.app.go(Go.RESUME, scene=self)
            if pin:
                self.message = _("Checking the PIN…")
                self.pending = (player_id, name, self.app.league.check_pin(player_id, pin))

        self.message = ""
        self.app.go(Go.KEYBOARD, title=_("PIN for {name}").format(name=name), digits=True,
                    on_done=typed)

    def update(self, now: float) -> None:
        super().update(now)
        if self.pending is None or not self.pending[2].done():
            return
        player_id, name, future = self.pending
        self.pending = None
        try:
            answer = future.result()
        except Exception:  # noqa: BLE001 - any failure is "cannot be reached"
            answer = "offline"
        if answer == "ok":
            self.on_done((player_id, name))
            return
        self.message = ANSWERS.get(answer, ANSWERS["offline"])()
        self.dirty = True

    def turn_page(self, step: int) -> None:
        pages = max(1, -(-len(self.players) // PAGE))
        self.page = (self.page + step) % pages
        self.dirty = True

    def on_key(self, key: int, text: str) -> None:
        if key == pygame.K_ESCAPE:
            self.on_done(None)

    def draw(self, surf: pygame.Surface) -> Any:
        surf.fill(theme.FELT_DARK)
        w, h = self.size
        t = self.touch
        theme.draw_text(surf, _("Seat {n}: who are you?").format(n=self.seat + 1),
                        pygame.Rect(int(w * 0.05), int(h * 0.02), int(w * 0.9), int(h * 0.09)),
                        colour=theme.GOLD, bold=True)
        foot_h = max(t, int(h * 0.11))
        msg = pygame.Rect(int(w * 0.05), int(h * 0.12), int(w * 0.9), int(h * 0.07))
        if self.message:
            theme.draw_text(surf, self.message, msg, colour=theme.WARN if self.pending is None
                            else theme.INK)
        box = pygame.Rect(int(w * 0.05), msg.bottom + int(h * 0.02), int(w * 0.9),
                          h - msg.bottom - foot_h - int(h * 0.08))
        shown = self.players[self.page * PAGE:(self.page + 1) * PAGE]
        if not shown:
            theme.draw_paragraph(surf, _("No league players on this table yet: the list comes "
                                         "from the league server."), box, size=int(h * 0.05))
        cols = 3 if w >= 700 else 2
        cell_h = max(t, int(h * 0.11))
        rows = max(1, -(-len(shown) // cols))
        box.height = min(box.height, rows * (cell_h + 10))
        for cell, (pid, name) in zip(grid(box, max(1, len(shown)), cols, gap=10), shown,
                                     strict=False):
            self.button(surf, cell, name, partial(self.pick, pid, name),
                        enabled=self.pending is None, name=f"player-{pid}")
        foot = pygame.Rect(int(w * 0.05), h - foot_h - int(h * 0.03), int(w * 0.9), foot_h)
        self.button(surf, pygame.Rect(foot.left, foot.top, int(w * 0.3), foot_h),
                    _("Play as a guest"), lambda: self.on_done(None), name="guest")
        if len(self.players) > PAGE:
            bw = max(t, int(w * 0.12))
            self.button(surf, pygame.Rect(foot.right - 2 * bw - 10, foot.top, bw, foot_h), "‹",
                        lambda: self.turn_page(-1), name="prev")
            self.button(surf, pygame.Rect(foot.right - bw, foot.top, bw, foot_h), "›",
                        lambda: self.turn_page(1), name="next")
        return None
