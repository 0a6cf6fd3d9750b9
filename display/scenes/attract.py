"""The attract screen: drifting cards, "touch to play", and the language choice.

Idle cost is kept low: the static picture is cached and only the moving cards' rects are
redrawn, ten times a second; of the words and buttons only those the cards touch are drawn
again, clipped to those rects (so the screen is what a full redraw shows), and the main
loop sleeps until the next step of the drift (``Scene.next_due``).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pygame

from display import cardart, theme
from display.scenes import Go
from display.scenes.base import Scene, Target
from display.table.i18n import LANGUAGES, _
from rummy.cards import Card
from rummy.store import seat_code

SHOW_CARDS = (Card(1, "S"), Card(13, "H"), Card(12, "D"), Card(11, "C"), Card(10, "S"))


class AttractScene(Scene):
    name = "attract"
    animate_every = 0.1

    def __init__(self, app) -> None:
        super().__init__(app)
        self._bg: pygame.Surface | None = None
        self._bg_key: tuple = ()
        self._cards: list[pygame.Rect] = []
        self._t0 = app.clock()
        self._now = self._t0
        self._full = True
        self._overlay_targets: list[Target] = []
        # the overlay's items as the last full redraw made them (what they draw is worded then)
        self._items: tuple[tuple, list[tuple[pygame.Rect, Callable[[pygame.Surface], object]]]] | None = None

    def enter(self) -> None:
        self._full = True

    def invalidate(self) -> None:
        super().invalidate()
        self._full = True

    def screenshot_name(self) -> str | None:
        return "attract" if self.app.frames >= 2 else None

    def update(self, now: float) -> None:
        self._now = now
        super().update(now)
        if self.app.headless and self.app.frames >= 2 and self.app.match is None:
            self.app.start_match(self.app.forced_game or "gin", [
                {"name": seat_code("computer", i), "kind": "computer", "bot": "basic",
                 "named": False}  # the code, worded when shown (display.table.names)
                for i in range(2 if (self.app.forced_game or "gin") == "gin" else 4)])

    # -- layout -------------------------------------------------------------------------------
    def _layout(self) -> dict[str, pygame.Rect]:
        w, h = self.size
        t = self.touch
        cols = 4 if w >= 700 else 2
        lang_h = max(t, int(h * 0.11)) * (4 // cols) + (8 if cols == 2 else 0)
        rects = {
            "title": pygame.Rect(int(w * 0.08), int(h * 0.08), int(w * 0.84), int(h * 0.16)),
            "sub": pygame.Rect(int(w * 0.1), int(h * 0.25), int(w * 0.8), int(h * 0.07)),
            "play": pygame.Rect(0, 0, max(int(w * 0.42), t * 4), max(t, int(h * 0.14))),
            "cols": pygame.Rect(cols, 0, 0, 0),
            "langs": pygame.Rect(int(w * 0.04), h - lang_h - int(h * 0.04), int(w * 0.92), lang_h),
        }
        rects["play"].center = (w // 2, int(h * 0.7))
        rects["resume"] = pygame.Rect(0, 0, rects["play"].width, max(t, int(h * 0.09)))
        rects["resume"].midtop = (w // 2, rects["play"].bottom + int(h * 0.03))
        return rects

    def _card_rects(self) -> list[pygame.Rect]:
        w, h = self.size
        ch = int(min(w, h) * 0.2)
        cw, ch = cardart.card_size_for_height(ch)
        out = []
        t = self._now - self._t0
        for i, _card in enumerate(SHOW_CARDS):
            phase = i * 1.3
            x = (w * (0.1 + 0.2 * i) + math.sin(t * 0.5 + phase) * w * 0.04) % w
            y = h * 0.47 + math.cos(t * 0.4 + phase) * h * 0.03 - ch / 2 + (h * 0.06 if i % 2 else -h * 0.02)
            out.append(pygame.Rect(int(x) - cw // 2, int(y), cw, ch))
        return out

    def _background(self) -> pygame.Surface:
        key = (self.size, self.app.settings.language, self.app.match is not None, len(self.app.hw.problems))
        if self._bg is not None and self._bg_key == key:
            return self._bg
        bg = pygame.Surface(self.size).convert()
        bg.fill(theme.FELT)
        w, h = self.size
        for r in range(0, max(w, h), max(8, h // 40)):
            pygame.draw.circle(bg, theme.FELT_DARK, (w // 2, h // 2), r, 1)
        self._bg, self._bg_key = bg, key
        return bg

    def _overlay_items(self) -> list[tuple[pygame.Rect, Callable[[pygame.Surface], object]]]:
        """Title, play button and language choice (drawn over the cards), each as (the rect
        it may draw on, how to draw it)."""
        r = self._layout()
        w, h = self.size
        items: list[tuple[pygame.Rect, Callable[[pygame.Surface], object]]] = [
            (r["title"], lambda s: theme.draw_text(s, _("Rummy Table"), r["title"], colour=theme.GOLD, bold=True)),
            (r["sub"], lambda s: theme.draw_text(s, _("Gin rummy and contract rummy, refereed by the table"),
                                                 r["sub"], colour=theme.INK)),
            (_shadowed(r["play"]), lambda s: self.button(s, r["play"], _("Touch to play"),
                                                         lambda: self.app.go(Go.PLAY), hot=True, name="play")),
        ]
        if self.app.match is not None and not self.app.match.is_over:
            items.append((_shadowed(r["resume"]), lambda s: self.button(
                s, r["resume"], _("Continue the match"), lambda: self.app.go(Go.MATCH), name="resume")))
        # GLI-11 recall for a dispute, and the leaderboard (top right, clear of the title)
        bw, bh = max(self.touch * 2, int(w * 0.17)), max(self.touch, int(h * 0.08))
        recall, board = pygame.Rect(w - 2 * bw - 16, 8, bw, bh), pygame.Rect(w - bw - 8, 8, bw, bh)
        items.append((_shadowed(recall), lambda s: self.button(s, recall, _("Last hands"),
                                                               lambda: self.app.go(Go.RECALL), name="recall",
                                                               size=int(bh * 0.34))))
        items.append((_shadowed(board), lambda s: self.button(s, board, _("Leaderboard"),
                                                              lambda: self.app.go(Go.LEADERBOARD),
                                                              name="leaderboard", size=int(bh * 0.34))))
        from display.layout import grid

        problems = self.app.hw.problems if self.app.mode == "kiosk" else []
        if problems:  # loud: a table with dead buttons must say so (left of the top buttons, wrapped)
            box = pygame.Rect(8, 4, recall.left - 16, max(bh, int(h * 0.07)))
            # TRANSLATORS: {detail} is the device layer's technical line for the installer (English)
            text = "⚠ " + _("Seat buttons not working. For the operator: {detail}").format(
                detail=problems[0] + (f"  (+{len(problems) - 1})" if len(problems) > 1 else ""))
            items.append((box, lambda s: theme.draw_paragraph(s, text, box, size=max(12, int(h * 0.026)),
                                                              colour=theme.WARN, align="left")))
        league = self._league_item()
        if league is not None:
            items.append(league)
        cells = grid(r["langs"], len(LANGUAGES), r["cols"].x, gap=8)
        for cell, (code, label) in zip(cells, LANGUAGES.items(), strict=True):
            items.append((_shadowed(cell), self._language_button(cell, code, label)))
        return items

    def _league_item(self) -> tuple[pygame.Rect, Callable[[pygame.Surface], object]] | None:
        """The venue's league standings (from the table's cache), when the league is on."""
        league = getattr(self.app, "league", None)
        if league is None:
            return None
        if self._full or not hasattr(self, "_league"):  # read the cache on full redraws only
            game = self.app.config.game.default_game
            rows = self.app.league_standings(game)
            if not rows:  # no matches of the table's own game yet: the first game that has some
                every = self.app.league_standings()
                rows = [x for x in every if x.game == every[0].game]
            self._league = (league.cache.venue(), getattr(rows[0], "game", game) if rows else game,
                            rows)
        venue, game, rows = self._league
        if not rows:
            return None
        from display.league_panel import draw_standings, panel_rect

        w, h = self.size
        box = pygame.Rect(int(w * 0.03), int(h * 0.33), int(w * 0.36), int(h * 0.3))
        return panel_rect(box, rows), lambda s: draw_standings(s, box, venue, game, rows)

    def _language_button(self, cell: pygame.Rect, code: str, label: str) -> Callable[[pygame.Surface], object]:
        def draw(s: pygame.Surface) -> object:
            return self.button(s, cell, label, lambda: self.app.set_language(code),
                               hot=self.app.settings.language == code, name=f"lang-{code}")

        return draw

    def _overlay(self, surf: pygame.Surface, only: list[pygame.Rect] | None = None) -> None:
        """The words and buttons over the cards: all of them (``only`` None), or only those
        touching the rects ``only``, each clipped to them (the touch targets stay as drawn)."""
        if only is None:
            before = len(self.targets)
            self._items = (self._bg_key, self._overlay_items())  # kept for the steps between full redraws
            for _rect, draw in self._items[1]:
                draw(surf)
            self._overlay_targets = self.targets[before:]
            return
        self.targets += self._overlay_targets
        if not only:
            return
        items = self._items[1] if self._items is not None and self._items[0] == self._bg_key else self._overlay_items()
        clip = surf.get_clip()
        try:
            for rect, draw in items:
                for d in only:
                    if rect.colliderect(d):
                        surf.set_clip(d.clip(clip))
                        mark = len(self.targets)
                        draw(surf)
                        del self.targets[mark:]
        finally:
            surf.set_clip(clip)

    def draw(self, surf: pygame.Surface):
        bg = self._background()
        new = self._card_rects()
        full = self._full or theme.TEXT_LOG is not None
        if full:
            surf.blit(bg, (0, 0))
            dirty = None
        else:
            dirty = [a.union(b) for a, b in zip(self._cards, new, strict=False)]
            for d, r in zip(dirty, new, strict=False):
                # the felt comes back where the card was; the middle of its new place is
                # covered by the card's opaque face anyway
                hole = r.inflate(-2 * max(2, r.width // 10), -2 * max(2, r.width // 10)).clip(d)
                for band in _around(d, hole) if hole.width > 0 and hole.height > 0 else [d]:
                    if band.width > 0 and band.height > 0:
                        surf.blit(bg, band, band)
        for card, rect in zip(SHOW_CARDS, new, strict=True):
            surf.blit(cardart.card_surface(card, rect.size, four_colour=self.app.settings.four_colour), rect)
        self._cards = new
        self._overlay(surf, dirty)
        self._full = False
        return dirty

    def on_pointer(self, kind: str, pos, now: float) -> None:
        super().on_pointer(kind, pos, now)
        self._full = True


def _shadowed(r: pygame.Rect) -> pygame.Rect:
    """Where a button drawn at ``r`` paints (its drop shadow below it)."""
    return pygame.Rect(r.left, r.top, r.width, r.height + max(2, r.height // 16))


def _around(outer: pygame.Rect, hole: pygame.Rect) -> list[pygame.Rect]:
    """``outer`` except ``hole`` (which lies inside it) as four rects (some may be empty)."""
    return [pygame.Rect(outer.left, outer.top, outer.width, hole.top - outer.top),
            pygame.Rect(outer.left, hole.bottom, outer.width, outer.bottom - hole.bottom),
            pygame.Rect(outer.left, hole.top, hole.left - outer.left, hole.height),
            pygame.Rect(hole.right, hole.top, outer.right - hole.right, hole.height)]
