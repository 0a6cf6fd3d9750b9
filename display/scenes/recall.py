"""Last game recall (GLI-11): the last ten hands played, step by step as they happened.

Reads ``rummy.store.Store.last_hands(10)``: each hand's players, results and every step
(the action and the events it caused), so a dispute can be settled at the table. Beside
the steps, the hand's summary: both gin hands' melds and deadwood, the layoffs, the knock
and the score; per contract player the melds, cards laid off, cards left and penalty
(``display.table.recall_text``). Names, never seat numbers; steps numbered within the hand.
Reached from the attract screen and the operator menu; nothing here can change a record.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import pygame

from display import theme
from display.scenes.base import ReturnsBack, Scene
from display.table.controller.calls import Call
from display.table.i18n import _
from display.table.names import record_names
from display.table.recall_text import hand_label, step_text_lines, summary_lines

if TYPE_CHECKING:  # pragma: no cover
    from display.app import App

HANDS = 10


def step_text(game: str, players: list[str], step: Any) -> str:
    """One step in words (translated), its lines joined (``display.table.recall_text``)."""
    return "; ".join(step_text_lines(game, players, step))


class RecallScene(ReturnsBack, Scene):
    name = "recall"

    def __init__(self, app: App, *, back: str = "attract") -> None:
        super().__init__(app)
        self.back_to = back
        self.error = ""
        self.hands: list[Any] = []
        try:
            if app.store is None:
                self.error = _("No records on this table")
            else:
                self.hands = list(app.store.last_hands(HANDS))
        except Exception as exc:  # noqa: BLE001 - a broken database is shown, not raised
            self.error = _("The records cannot be read: {error}").format(error=exc)
        self.index = 0  # which hand (0 = the newest)
        self.step = 0

    @property
    def hand(self) -> Any:
        return self.hands[self.index] if self.hands else None

    def pick(self, i: int) -> None:
        self.index, self.step = i, 0
        self.dirty = True

    def move(self, delta: int) -> None:
        if self.hand is not None:
            self.step = max(0, min(len(self.hand.steps) - 1, self.step + delta))
            self.dirty = True

    def on_key(self, key: int, text: str) -> None:
        if key in (pygame.K_RIGHT, pygame.K_DOWN):
            self.move(1)
        elif key in (pygame.K_LEFT, pygame.K_UP):
            self.move(-1)
        elif key == pygame.K_ESCAPE:
            self.leave()

    def on_button(self, event: Any) -> None:
        if event.edge == "press":
            self.move(1 if event.call == Call.DRAW else -1 if event.call == Call.KNOCK else 0)

    def hand_label(self, rec: Any) -> str:
        """"Gin · hand 6" / "Contract · deal 3" (the players are in the hand's heading)."""
        return hand_label(rec)

    def draw(self, surf: pygame.Surface) -> list[pygame.Rect] | None:
        surf.fill((24, 40, 34))
        w, h = self.size
        t = self.touch
        theme.draw_text(surf, _("Last hands played"), pygame.Rect(int(w * 0.03), int(h * 0.02), int(w * 0.6),
                                                                  int(h * 0.09)), colour=theme.GOLD, bold=True,
                        align="left")
        close = pygame.Rect(w - int(w * 0.22) - int(w * 0.03), int(h * 0.02), int(w * 0.22), max(t, int(h * 0.09)))
        self.button(surf, close, _("Back"), self.leave, name="back")
        top = close.bottom + int(h * 0.03)
        if self.error or not self.hands:
            theme.draw_paragraph(surf, self.error or _("No hands have been played yet"),
                                 pygame.Rect(int(w * 0.05), top, int(w * 0.9), int(h * 0.3)), size=int(h * 0.05))
            return None
        # the hands, newest first
        list_box = pygame.Rect(int(w * 0.03), top, int(w * 0.27), h - top - int(h * 0.03))
        row_h = max(t, min(int(h * 0.1), list_box.height // len(self.hands) - 6))
        rows = max(1, (list_box.height + 6) // (row_h + 6))
        first = max(0, min(self.index - rows // 2, len(self.hands) - rows))
        for i in range(first, min(len(self.hands), first + rows)):
            r = pygame.Rect(list_box.left, list_box.top + (i - first) * (row_h + 6), list_box.width, row_h)
            self.button(surf, r, self.hand_label(self.hands[i]), functools.partial(self.pick, i), hot=i == self.index,
                        name=f"hand-{i}", size=int(row_h * 0.3))
        self._steps(surf, pygame.Rect(list_box.right + int(w * 0.03), top, w - list_box.right - int(w * 0.06),
                                      h - top - int(h * 0.03)))
        return None

    def _steps(self, surf: pygame.Surface, box: pygame.Rect) -> None:
        rec = self.hand
        t = self.touch
        line = max(16, int(self.size[1] * 0.045))
        names = record_names(rec)  # default seats in this table's language (display.table.names)
        head = " – ".join(names) + " · " + _("finished {when}").format(
            when=rec.finished.replace("T", " ")[:16])
        theme.draw_text(surf, head, pygame.Rect(box.left, box.top, box.width, line), align="left",
                        colour=theme.INK_DIM)
        nav_h = max(t, int(self.size[1] * 0.1))
        nav = pygame.Rect(box.left, box.bottom - nav_h, box.width, nav_h)
        bw = (nav.width - 18) // 4
        for i, (label, delta, name) in enumerate((("◀◀", -10_000, "first"), ("◀", -1, "prev"),
                                                  ("▶", 1, "next"), ("▶▶", 10_000, "last"))):
            self.button(surf, pygame.Rect(nav.left + i * (bw + 6), nav.top, bw, nav_h), label,
                        functools.partial(self.move, delta), name=name)
        count = len(rec.steps)
        theme.draw_text(surf, _("Step {n} of {total}").format(n=self.step + 1, total=count),
                        pygame.Rect(box.left, nav.top - line - 4, box.width, line), colour=theme.GOLD, bold=True)
        # the hand at a glance: hands, melds, deadwood, layoffs, the score
        top = box.top + line + 4
        summary = pygame.Rect(box.left, top, box.width, int((nav.top - top) * 0.55))
        pygame.draw.rect(surf, theme.PANEL, summary.inflate(8, 4), border_radius=6)
        theme.draw_paragraph(surf, "\n".join(summary_lines(rec)), summary, size=int(line * 0.8),
                             align="left", colour=theme.INK)
        # the current step in full (a deal shows both hands), the steps before it one line each
        detail_h = 4 * int(line * 0.9) + 6
        detail = pygame.Rect(box.left, nav.top - line - 8 - detail_h, box.width, detail_h)
        current = step_text_lines(rec.game, names, rec.steps[self.step])
        pygame.draw.rect(surf, theme.PANEL_ACTIVE, detail.inflate(6, 2), border_radius=6)
        theme.draw_paragraph(surf, f"{self.step + 1}. " + "\n".join(current), detail,
                             size=int(line * 0.8), align="left", colour=theme.GOLD)
        area = pygame.Rect(box.left, summary.bottom + 8, box.width, detail.top - 6 - summary.bottom - 8)
        rows = max(0, area.height // line)
        first = max(0, self.step - rows)
        size = max(12, int(line * 0.75))
        for j in range(first, self.step):
            text = clip(f"{j + 1}. {step_text(rec.game, names, rec.steps[j])}", area.width, size)
            r = pygame.Rect(area.left, area.top + (j - first) * line, area.width, line)
            theme.draw_text(surf, text, r, align="left", size=size, colour=theme.INK_DIM)


def clip(text: str, width: int, size: int) -> str:
    """``text`` cut with "…" to fit ``width`` at ``size`` px (the full text is in the box below)."""
    f = theme.font(size, True)
    if f.size(text)[0] <= width:
        return text
    while len(text) > 1 and f.size(text + "…")[0] > width:
        text = text[:-1]
    return text + "…"
