"""Seating: how many seats (2 for gin, 2–6 for contract), human or computer, and names."""

from __future__ import annotations

import functools

import pygame

from display import theme
from display.i18n import _
from display.scenes.base import Scene
from rummy.players import DEFAULT_LEVEL, LEVELS

SEATS = {"gin": (2, 2), "contract": (2, 6)}


def level_name(level: str) -> str:
    """A computer player's level, in the table's language (rummy.players.LEVELS)."""
    return {"easy": _("Easy"), "medium": _("Medium"), "hard": _("Hard")}.get(level, level)


class SeatingScene(Scene):
    name = "seating"

    def __init__(self, app, *, game: str = "gin", preset: str = "standard") -> None:
        super().__init__(app)
        self.game = game
        self.preset = preset
        lo, hi = SEATS[game]
        self.count = lo
        # Computer players fill the seats nobody takes; seat 1 is the first human.
        self.kinds = ["human"] + ["computer"] * (hi - 1)
        self.names: list[str | None] = [None] * hi
        self.levels = [DEFAULT_LEVEL] * hi  # per computer seat (the journal's seat "bot")

    def seat_name(self, i: int) -> str:
        if self.names[i]:
            return str(self.names[i])
        if self.kinds[i] == "computer":
            return _("Computer {n}").format(n=i + 1)
        return _("Player {n}").format(n=i + 1)

    def seats(self) -> list[dict]:
        return [{"name": self.seat_name(i), "kind": self.kinds[i], "bot": self.levels[i]}
                for i in range(self.count)]

    def toggle(self, i: int) -> None:
        self.kinds[i] = "computer" if self.kinds[i] == "human" else "human"
        self.dirty = True

    def next_level(self, i: int) -> None:
        self.levels[i] = LEVELS[(LEVELS.index(self.levels[i]) + 1) % len(LEVELS)]
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
            computer = self.kinds[i] == "computer"
            kind = pygame.Rect(name.right + int(w * 0.03), y, int(w * (0.16 if computer else 0.3)),
                               max(t, row_h - 8))
            self.button(surf, kind, _("Computer") if computer else _("Human"),
                        functools.partial(self.toggle, i), hot=not computer, name=f"kind-{i}")
            if computer:  # the level, one tap to the next (easy, medium, hard)
                level = pygame.Rect(kind.right + int(w * 0.01), y, int(w * 0.13), kind.height)
                self.button(surf, level, level_name(self.levels[i]), functools.partial(self.next_level, i),
                            name=f"level-{i}")
        foot = pygame.Rect(int(w * 0.05), h - foot_h - int(h * 0.03), int(w * 0.9), foot_h)
        self.button(surf, pygame.Rect(foot.left, foot.top, int(w * 0.25), foot_h), _("Back"),
                    lambda: self.app.goto("choice"), name="back")
        self.button(surf, pygame.Rect(foot.right - int(w * 0.4), foot.top, int(w * 0.4), foot_h), _("Deal!"),
                    self.start, hot=True, name="start")
        return None

    def start(self) -> None:
        self.app.start_match(self.game, self.seats(), preset=self.preset if self.game == "gin" else None)
