"""The leaderboard: one game's players by matches won, then points, from
``rummy.store.Store.leaderboard``.

Touch the game buttons for gin or contract (their points are never added up). Named
human players only: a default seat ("Player 2") is nobody's record, and the computers, one
per match when listed at all (``rummy-table records leaderboard --all``), are no players of
this board. Equal wins and points share a rank. Read only. Names are drawn through
``display.table.names`` (a default seat's code in the table's language, should one be shown).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import pygame

from display import theme
from display.scenes.base import ReturnsBack, Scene
from display.table.i18n import N_, _
from display.table.names import display_name

if TYPE_CHECKING:  # pragma: no cover
    from display.app import App

FILTERS = (("gin", N_("Gin")), ("contract", N_("Contract")))
LEAGUE = "league"  # the venue's league standings (cached from the server)
ROWS = 10


class LeaderboardScene(ReturnsBack, Scene):
    name = "leaderboard"

    def __init__(self, app: App, *, back: str = "attract") -> None:
        super().__init__(app)
        self.back_to = back
        self.game: str = "gin"
        self.rows: list[Any] = []
        self.error = ""
        self.load()

    def load(self) -> None:
        self.error = ""
        try:
            if self.game == LEAGUE:
                game = self.app.config.game.default_game
                self.rows = self.app.league_standings(game) or self.app.league_standings()
            elif self.app.store is None:
                self.rows, self.error = [], _("No records on this table")
            else:
                self.rows = list(self.app.store.leaderboard(self.game))
        except Exception as exc:  # noqa: BLE001 - a broken database is shown, not raised
            self.rows, self.error = [], _("The records cannot be read: {error}").format(error=exc)
        self.dirty = True

    def invalidate(self) -> None:
        super().invalidate()
        if self.game == LEAGUE:  # the league's standings were refreshed
            self.load()

    def set_game(self, game: str) -> None:
        self.game = game
        self.load()

    def on_key(self, key: int, text: str) -> None:
        if key == pygame.K_ESCAPE:
            self.leave()

    def draw(self, surf: pygame.Surface) -> list[pygame.Rect] | None:
        surf.fill((24, 40, 34))
        w, h = self.size
        t = self.touch
        theme.draw_text(surf, _("Leaderboard"), pygame.Rect(int(w * 0.03), int(h * 0.02), int(w * 0.5),
                                                            int(h * 0.09)), colour=theme.GOLD, bold=True, align="left")
        close = pygame.Rect(w - int(w * 0.22) - int(w * 0.03), int(h * 0.02), int(w * 0.22), max(t, int(h * 0.09)))
        self.button(surf, close, _("Back"), self.leave, name="back")
        fy = close.bottom + int(h * 0.02)
        filters = FILTERS + (((LEAGUE, N_("League")),) if getattr(self.app, "league", None) else ())
        fw = int(w * 0.94 - 12) // len(filters)
        for i, (game, label) in enumerate(filters):
            r = pygame.Rect(int(w * 0.03) + i * (fw + 6), fy, fw, max(t, int(h * 0.09)))
            self.button(surf, r, _(label), functools.partial(self.set_game, game), hot=self.game == game,
                        name=f"filter-{game or 'all'}")
        top = fy + max(t, int(h * 0.09)) + int(h * 0.03)
        box = pygame.Rect(int(w * 0.05), top, int(w * 0.9), h - top - int(h * 0.03))
        if self.error or not self.rows:
            theme.draw_paragraph(surf, self.error or _("No matches recorded yet"), box, size=int(h * 0.05))
            return None
        line = max(16, min(int(h * 0.065), box.height // (ROWS + 1)))
        cols = [0.0, 0.08, 0.5, 0.64, 0.78]  # rank, name, played, won, points
        widths = [0.08, 0.42, 0.14, 0.14, 0.22]
        heads = ["#", _("Player"), _("Played"), _("Won"), _("Points")]

        def row(cells: list[Any], y: int, colour: tuple[int, int, int] = theme.INK, bold: bool = False) -> None:
            for i, c in enumerate(cells):
                r = pygame.Rect(box.left + int(box.width * cols[i]), y, int(box.width * widths[i]) - 6, line)
                theme.draw_text(surf, str(c), r, align="left" if i == 1 else "right", colour=colour, bold=bold)

        row(heads, box.top, theme.GOLD, True)
        for n, r in enumerate(self.rows[:ROWS], start=1):
            # the league's standings come ranked by rating, without a rank of their own
            name = r.name if self.game == LEAGUE else display_name(r)  # league names: as registered
            row([getattr(r, "rank", n), name, r.played, r.won, r.points], box.top + n * line)
        return None
