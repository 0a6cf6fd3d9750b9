"""Seating: how many seats (2 for gin, 2–6 for contract), human or computer, and names."""

from __future__ import annotations

import functools

import pygame

from display import theme
from display.i18n import _
from display.scenes.base import Scene

SEATS = {"gin": (2, 2), "contract": (2, 6)}


class SeatingScene(Scene):
    name = "seating"

    def __init__(self, app, *, game: str = "gin", preset: str | None = None, seats: list[dict] | None = None) -> None:
        """``seats``: the last match's (a "New game" after it: the same seats and names)."""
        super().__init__(app)
        self.game = game
        self.preset = preset
        lo, hi = SEATS[game]
        self.count = lo
        # Computer players fill the seats nobody takes; seat 1 is the first human.
        self.kinds = ["human"] + ["computer"] * (hi - 1)
        self.names: list[str | None] = [None] * hi
        for i, seat in enumerate((seats or [])[:hi]):
            self.count = max(lo, i + 1)
            self.kinds[i] = "computer" if seat.get("kind") == "computer" else "human"
            name = str(seat.get("name") or "")
            self.names[i] = name if name and name != self._default_name(i) else None

    def _default_name(self, i: int) -> str:
        if self.kinds[i] == "computer":
            return _("Computer {n}").format(n=i + 1)
        return _("Player {n}").format(n=i + 1)

    def seat_name(self, i: int) -> str:
        if self.names[i]:
            return str(self.names[i])
        return self._default_name(i)

    def seats(self) -> list[dict]:
        return [{"name": self.seat_name(i), "kind": self.kinds[i], "bot": "basic"}
                for i in range(self.count)]

    def toggle(self, i: int) -> None:
        self.kinds[i] = "computer" if self.kinds[i] == "human" else "human"
        self.dirty = True

    def edit_name(self, i: int) -> None:
        def done(text: str | None) -> None:
            if text is not None:
                self.names[i] = text.strip() or None
            self.app.scene = self
            self.dirty = True

        self.app.goto("keyboard", text=self.names[i] or "", title=_("Name for seat {n}").format(n=i + 1),
                      on_done=done)

    def set_count(self, n: int) -> None:
        lo, hi = SEATS[self.game]
        self.count = max(lo, min(hi, n))
        self.dirty = True

    def draw(self, surf: pygame.Surface):
        self.heading(surf, _("Who is playing?"), 0.02, 0.1)
        w, h = self.size
        t = self.touch
        lo, hi = SEATS[self.game]
        foot_h = max(t, int(h * 0.11))
        top = int(h * 0.14)
        if hi > lo:
            row = pygame.Rect(int(w * 0.05), top, int(w * 0.9), max(t, int(h * 0.09)))
            bw = max(t, row.height)
            self.button(surf, pygame.Rect(row.left, row.top, bw, bw), "−", lambda: self.set_count(self.count - 1),
                        enabled=self.count > lo, name="fewer")
            theme.draw_text(surf, _("{n} players").format(n=self.count),
                            pygame.Rect(row.left + bw + 10, row.top, int(w * 0.3), bw))
            self.button(surf, pygame.Rect(row.left + bw + 20 + int(w * 0.3), row.top, bw, bw), "+",
                        lambda: self.set_count(self.count + 1), enabled=self.count < hi, name="more")
            top = row.bottom + int(h * 0.02)
        bottom = h - foot_h - int(h * 0.05)
        row_h = min(max(t + 8, int(h * 0.16)), (bottom - top) // self.count)
        for i in range(self.count):
            y = top + i * row_h
            label = pygame.Rect(int(w * 0.05), y, int(w * 0.14), row_h - 8)
            theme.draw_text(surf, _("Seat {n}").format(n=i + 1), label, size=int(row_h * 0.35), align="left")
            name = pygame.Rect(label.right, y, int(w * 0.46), max(t, row_h - 8))
            self.button(surf, name, self.seat_name(i), functools.partial(self.edit_name, i), name=f"name-{i}")
            kind = pygame.Rect(name.right + int(w * 0.03), y, int(w * 0.3), max(t, row_h - 8))
            self.button(surf, kind, _("Human") if self.kinds[i] == "human" else _("Computer"),
                        functools.partial(self.toggle, i), hot=self.kinds[i] == "human", name=f"kind-{i}")
        foot = pygame.Rect(int(w * 0.05), h - foot_h - int(h * 0.03), int(w * 0.9), foot_h)
        self.button(surf, pygame.Rect(foot.left, foot.top, int(w * 0.25), foot_h), _("Back"),
                    lambda: self.app.goto("choice"), name="back")
        self.button(surf, pygame.Rect(foot.right - int(w * 0.4), foot.top, int(w * 0.4), foot_h), _("Deal!"),
                    self.start, hot=True, name="start")
        return None

    def start(self) -> None:
        self.app.start_match(self.game, self.seats(), preset=self.preset)
