"""The simulator's strip: clickable arcade buttons for each seat and the keyboard map.

Clicks and keys never call the game: they drive the real button code's gpiozero
``MockFactory`` pins low and high (``Hardware.press``/``release``), exactly as a switch
would; the board puts the ``InputEvent`` on the queue the main loop drains. Lamps show
what the board was told to light.
"""

from __future__ import annotations

import pygame

from display import theme
from display.table.hw import BUY, DRAW, KNOCK
from display.table.i18n import _

CALLS = (DRAW, KNOCK, BUY)
CALL_LABEL = {DRAW: "DRAW", KNOCK: "KNOCK", BUY: "BUY"}
LAMP_ON = {DRAW: (80, 220, 120), KNOCK: (250, 190, 60), BUY: (110, 170, 255)}
TYPING_SCENES = ("keyboard", "operator")


class SimPanel:
    """The right-hand strip of the simulator window."""

    def __init__(self, app) -> None:
        self.app = app
        self.dirty = True
        self.buttons: list[tuple[pygame.Rect, int, str]] = []
        self._held: tuple[int, str] | None = None
        self._keys_down: set[int] = set()
        self._last_lamps: dict = {}
        self._last_seats: tuple = ()
        self._last_words: tuple = ()  # the language and the game the strip was worded for

    def seat_count(self) -> int:
        m = self.app.match
        return len(m.seats) if m is not None else 2

    def owns(self, wpos, kind: str) -> bool:
        return self.app.screen.strip_rect.collidepoint(wpos) or (kind == "up" and self._held is not None)

    def on_pointer(self, kind: str, wpos) -> None:
        strip = self.app.screen.strip_rect
        local = (wpos[0] - strip.left, wpos[1] - strip.top)
        if kind == "down":
            for rect, seat, call in self.buttons:
                if rect.collidepoint(local):
                    self._held = (seat, call)
                    self.app.hw.press(seat, call)
                    self.dirty = True
                    return
        elif kind == "up" and self._held is not None:
            seat, call = self._held
            self._held = None
            self.app.hw.release(seat, call)
            self.dirty = True

    def on_key(self, key: int, down: bool) -> bool:
        """A seat key drives its pin; returns True when the key was a seat key."""
        if self.app.scene is not None and self.app.scene.name in TYPING_SCENES:
            return False
        sim = self.app.hw.sim
        name = pygame.key.name(key).lower()
        if sim is None or name not in sim.keys:
            return False
        if down and key not in self._keys_down:
            self._keys_down.add(key)
            sim.key_down(name)
        elif not down and key in self._keys_down:
            self._keys_down.discard(key)
            sim.key_up(name)
        self.dirty = True
        return True

    def update(self) -> bool:
        """True when the strip must be redrawn (lamps, seats, the language or the game changed)."""
        lamps = {s: dict(v) for s, v in self.app.hw.lamps.items()}
        seats = tuple((s.get("name"), s.get("kind")) for s in self.app.match.seats) if self.app.match else ()
        words = (self.app.settings.language, self.app.match.game if self.app.match else None)
        if lamps != self._last_lamps or seats != self._last_seats or words != self._last_words:
            self._last_lamps, self._last_seats, self._last_words = lamps, seats, words
            self.dirty = True
        d, self.dirty = self.dirty, False
        return d

    def _seat_order(self, n: int) -> list[int]:
        """Seats from the top of the strip down, matching where they sit on the table."""
        from display.layout import seat_panels

        panels = seat_panels(self.app.screen.size, n, layout=self.app.settings.layout)
        return [p.seat for p in sorted(panels, key=lambda p: (p.rect.centery, p.rect.centerx))]

    def draw(self, surf: pygame.Surface) -> None:
        surf.fill((34, 34, 40))
        w, h = surf.get_size()
        n = self.seat_count()
        game = self.app.match.game if self.app.match else "gin"
        calls = tuple(c for c in (CALLS if game == "contract" else (DRAW, KNOCK))
                      if any(self.app.hw.wired(s, c) for s in range(n)))  # gin seats have no BUY
        theme.draw_text(surf, _("Simulated buttons"), pygame.Rect(8, 4, w - 16, 28), colour=theme.GOLD, bold=True)
        key_h = 42 + 18 * min(n, 6)
        area = pygame.Rect(6, 36, w - 12, h - 36 - key_h)
        block_h = area.height // n
        self.buttons = []
        m = self.app.match  # names in the table's language (display.table.names)
        names = {i: m.name(i) for i in range(len(m.seats))} if m is not None else {}
        for row, seat in enumerate(self._seat_order(n)):
            block = pygame.Rect(area.left, area.top + row * block_h, area.width, block_h - 6)
            pygame.draw.rect(surf, (48, 48, 58), block, border_radius=10)
            title = f"{seat + 1}. {names.get(seat, '')}".strip()
            theme.draw_text(surf, title, pygame.Rect(block.left + 6, block.top + 2, block.width - 12, 22),
                            align="left", size=16)
            size = max(48, min((block.width - 12) // len(calls) - 6, block.height - 48))
            for i, call in enumerate(c for c in calls if self.app.hw.wired(seat, c)):
                c = pygame.Rect(block.left + 6 + i * (size + 6), block.top + 26, size, size)
                lit = self.app.hw.lamps.get(seat, {}).get(call, False)
                held = self._held == (seat, call)
                colour = LAMP_ON[call] if lit else (90, 90, 96)
                pygame.draw.circle(surf, (10, 10, 10), c.center, size // 2)
                pygame.draw.circle(surf, colour, c.center, size // 2 - (6 if held else 3))
                theme.draw_text(surf, CALL_LABEL[call], c.inflate(-10, -size // 2), colour=theme.BLACK, bold=True)
                keyname = (self.app.hw.key_for(seat, call) or "").upper()
                theme.draw_text(surf, keyname, pygame.Rect(c.left, c.bottom - 2, c.width, 18), size=14,
                                colour=theme.INK_DIM)
                self.buttons.append((c, seat, call))
        y = h - key_h
        theme.draw_text(surf, _("Keys: draw / knock / buy") if BUY in calls else _("Keys: draw / knock"),
                        pygame.Rect(8, y, w - 16, 20), size=14, colour=theme.INK_DIM, align="left")
        for seat in range(min(n, 6)):
            keys = " / ".join((self.app.hw.key_for(seat, c) or "-").upper() for c in calls)
            theme.draw_text(surf, _("Seat {n}: {keys}").format(n=seat + 1, keys=keys),
                            pygame.Rect(8, y + 20 + seat * 18, w - 16, 18), size=14, align="left")
        look = _("The screen shows no hand") if getattr(self.app, "real", None) is not None \
            else _("Hold a seat's key to see its cards")  # docs/privacy.md
        theme.draw_text(surf, look,
                        pygame.Rect(8, y + 22 + min(n, 6) * 18, w - 16, 18), size=14, colour=theme.INK_DIM,
                        align="left")
