"""Seating: how many seats (2 for gin, 2–6 for contract), human or computer, and names.

A seat nobody names goes into the match as the language-neutral code "Player 1" /
"Computer 2" with ``named: false`` (``rummy.store.seat_code``); it is worded in the table's
language wherever it is shown (``display.table.names``), here too.
"""

from __future__ import annotations

import functools
from typing import Any

import pygame

from display import theme
from display.scenes import Go
from display.scenes.base import Scene
from display.table.i18n import _
from display.table.names import default_name
from rummy.players import DEFAULT_LEVEL, LEVELS
from rummy.store import seat_code, seat_named

SEATS = {"gin": (2, 2), "contract": (2, 6)}


def level_name(level: str) -> str:
    """A computer player's level, in the table's language (rummy.players.LEVELS)."""
    return {"easy": _("Easy"), "medium": _("Medium"), "hard": _("Hard")}.get(level, level)


class SeatingScene(Scene):
    name = "seating"

    def __init__(self, app, *, game: str = "gin", preset: str | None = None, seats: list[dict] | None = None) -> None:
        """``seats``: the last match's (a "New game" after it: the same seats and names)."""
        super().__init__(app)
        self.game = game
        self.preset = preset
        lo, hi = SEATS[game]
        self.count = lo
        # Computer players fill the seats nobody takes; seat 1 is the first human. With real
        # cards every seat is a person: a computer cannot hold cards (display.real_cards).
        self.real_cards = getattr(app, "real", None) is not None
        self.kinds = ["human"] + ["human" if self.real_cards else "computer"] * (hi - 1)
        self.names: list[str | None] = [None] * hi
        self.levels = [DEFAULT_LEVEL] * hi  # per computer seat (the journal's seat "bot")
        self.league_ids: list[int | None] = [None] * hi  # a league player's id (PIN checked)
        for i, seat in enumerate((seats or [])[:hi]):  # "New game": the last match's seats
            self.count = max(lo, i + 1)
            computer = seat.get("kind") == "computer" and not self.real_cards
            self.kinds[i] = "computer" if computer else "human"
            if computer and seat.get("bot"):
                self.levels[i] = str(seat["bot"])
            if seat.get("league_id") is not None:
                self.league_ids[i] = int(seat["league_id"])
            # a default seat stays one, in whatever language it was stored ("Игрок 1" of a
            # Russian table is "Jogador 1" here on a Portuguese one, not a typed name)
            name = str(seat.get("name") or "").strip()
            self.names[i] = name if name and seat_named(seat) else None

    def seat_name(self, i: int) -> str:
        """Seat ``i``'s name as shown: the entered one, else the default in this language."""
        if self.names[i]:
            return str(self.names[i])
        return default_name(seat_code(self.kinds[i], i))

    def seats(self) -> list[dict]:
        # ``named``: a name entered here makes a player in the records; a default
        # "Player 1" does not (rummy.store keys the records by entered names only). The
        # default is stored as its code, never in this table's language (display.table.names).
        out = []
        for i in range(self.count):
            name = self.names[i] or seat_code(self.kinds[i], i)
            seat: dict[str, Any] = {"name": name, "kind": self.kinds[i],
                                    "bot": self.levels[i], "named": bool(self.names[i])}
            if self.league_ids[i] is not None and self.kinds[i] == "human":
                seat["league_id"] = self.league_ids[i]
            out.append(seat)
        return out

    def toggle(self, i: int) -> None:
        if self.real_cards:
            return  # real cards: people only
        self.kinds[i] = "computer" if self.kinds[i] == "human" else "human"
        self.league_ids[i] = None
        self.dirty = True

    @staticmethod
    def level_size(rect: pygame.Rect) -> int:
        """One text size for every level name on this screen (the largest at which the
        longest fits its button): "Easy" and "Medium" side by side never in two sizes."""
        inner = rect.inflate(-min(max(12, rect.height // 3), rect.width // 5), -max(6, rect.height // 4))
        return min(theme.fit_size(level_name(lv), inner, int(rect.height * 0.42), True) for lv in LEVELS)

    def next_level(self, i: int) -> None:
        self.levels[i] = LEVELS[(LEVELS.index(self.levels[i]) + 1) % len(LEVELS)]
        self.dirty = True

    def league_login(self, i: int) -> None:
        """A league player takes seat ``i`` (name picked, PIN checked); None: a guest."""
        def done(player: tuple[int, str] | None) -> None:
            if player is not None:
                taken = [j for j in range(len(self.league_ids)) if self.league_ids[j] == player[0]]
                for j in taken:  # one player, one seat
                    self.league_ids[j], self.names[j] = None, None
                self.league_ids[i], self.names[i] = player
                self.kinds[i] = "human"
            self.app.go(Go.RESUME, scene=self)

        self.app.go(Go.LEAGUE_LOGIN, seat=i, on_done=done)

    def edit_name(self, i: int) -> None:
        def done(text: str | None) -> None:
            if text is not None:
                self.names[i] = text.strip() or None
                self.league_ids[i] = None  # a typed name is a guest
            self.app.go(Go.RESUME, scene=self)

        self.app.go(Go.KEYBOARD, text=self.names[i] or "", title=_("Name for seat {n}").format(n=i + 1),
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
        if self.real_cards:  # why there is no Human/Computer choice, above the footer
            note_h = max(18, int(h * 0.06))
            bottom -= note_h
            theme.draw_text(surf, _("Real cards: every seat is a player holding cards"),
                            pygame.Rect(int(w * 0.05), bottom + int(h * 0.01), int(w * 0.9), note_h))
        row_h = min(max(t + 8, int(h * 0.16)), (bottom - top) // self.count)
        for i in range(self.count):
            y = top + i * row_h
            label = pygame.Rect(int(w * 0.05), y, int(w * 0.14), row_h - 8)
            theme.draw_text(surf, _("Seat {n}").format(n=i + 1), label, size=int(row_h * 0.35), align="left")
            league = getattr(self.app, "league", None) is not None
            name = pygame.Rect(label.right, y, int(w * (0.3 if league else 0.46)), max(t, row_h - 8))
            self.button(surf, name, self.seat_name(i), functools.partial(self.edit_name, i), name=f"name-{i}",
                        hot=self.league_ids[i] is not None)
            if league:  # the league button: pick a league name, type the PIN
                lg = pygame.Rect(name.right + int(w * 0.01), y, int(w * 0.15), max(t, row_h - 8))
                self.button(surf, lg, _("League"), functools.partial(self.league_login, i), name=f"league-{i}")
                name = pygame.Rect(label.right, y, int(w * 0.46), name.height)
            if self.real_cards:
                continue  # no Human/Computer choice: every seat holds real cards
            computer = self.kinds[i] == "computer"
            kind = pygame.Rect(name.right + int(w * 0.03), y, int(w * (0.16 if computer else 0.3)),
                               max(t, row_h - 8))
            self.button(surf, kind, _("Computer") if computer else _("Human"),
                        functools.partial(self.toggle, i), hot=not computer, name=f"kind-{i}")
            if computer:  # the level, one tap to the next (easy, medium, hard)
                level = pygame.Rect(kind.right + int(w * 0.01), y, int(w * 0.13), kind.height)
                self.button(surf, level, level_name(self.levels[i]), functools.partial(self.next_level, i),
                            name=f"level-{i}", size=self.level_size(level))
        foot = pygame.Rect(int(w * 0.05), h - foot_h - int(h * 0.03), int(w * 0.9), foot_h)
        self.button(surf, pygame.Rect(foot.left, foot.top, int(w * 0.25), foot_h), _("Back"),
                    lambda: self.app.go(Go.PLAY), name="back")
        self.button(surf, pygame.Rect(foot.right - int(w * 0.4), foot.top, int(w * 0.4), foot_h), _("Deal!"),
                    self.start, hot=True, name="start")
        return None

    def start(self) -> None:
        self.app.start_match(self.game, self.seats(), preset=self.preset)
