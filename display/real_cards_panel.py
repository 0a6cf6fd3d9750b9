"""The simulator's strip in real-card mode (``rummy-table sim --real-cards``): the seats'
arcade buttons (:class:`display.sim.SimPanel`) and beside them each seat's cards in hand as
a person would hold them, the shoe, the pile, and switches for faults.

A click on the shoe deals or draws its next card (through the simulated shoe's gate); a
click on one of a seat's cards pushes it through the simulated slot; the switches make the
next card passed a misread, a double or an unknown tag, or unplug the readers for two
seconds. "Computer players" lets the simulated people play by themselves. Nothing here calls
the game: every card goes through rcdevice's simulated readers and the real link.
"""

from __future__ import annotations

from typing import Any

import pygame

from display import theme
from display.sim import SimPanel
from display.table.gin_text import card_name as card_label
from display.table.i18n import N_, _, ngettext

BUTTONS_W = 260  # the seats' buttons (display.sim)
CARDS_W = 340  # the cards in hand
STRIP_W = BUTTONS_W + CARDS_W
CHIP = (36, 24)
SWITCHES = (("misread", N_("Misread")), ("double", N_("Double")), ("unknown", N_("Unknown tag")),
            ("reader_error", N_("Reader error")), ("slot_unplug", N_("Slot out")), ("unplug", N_("Unplug")))
SWITCH_ROWS = 2


class RealCardsPanel:
    """The strip: the buttons on the left, the cards on the right."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.buttons = SimPanel(app)
        self.dirty = True
        self.targets: list[tuple[pygame.Rect, Any]] = []
        self._key: object = None

    @property
    def people(self) -> Any:
        return self.app.real.readers if self.app.real is not None else None

    # -- input --------------------------------------------------------------------------------
    def owns(self, wpos: Any, kind: str) -> bool:
        return self.buttons.owns(wpos, kind)

    def on_pointer(self, kind: str, wpos: Any) -> None:
        strip = self.app.screen.strip_rect
        local = (wpos[0] - strip.left, wpos[1] - strip.top)
        if local[0] < BUTTONS_W or kind != "down":
            self.buttons.on_pointer(kind, wpos)
            return
        pos = (local[0] - BUTTONS_W, local[1])
        for rect, act in self.targets:
            if rect.collidepoint(pos):
                act()
                self.dirty = True
                return

    def on_key(self, key: int, down: bool) -> bool:
        return self.buttons.on_key(key, down)

    # -- what to draw -------------------------------------------------------------------------
    def _cards_key(self) -> object:
        p = self.people
        if p is None:
            return None
        return (tuple((s, tuple(h)) for s, h in sorted(p.hands.items())), len(p.shoe), tuple(p.tray[-1:]),
                p.auto, p._forced, self.app.settings.language)

    def update(self) -> bool:
        key = self._cards_key()
        if key != self._key:
            self._key = key
            self.dirty = True
        b = self.buttons.update()
        d, self.dirty = self.dirty or b, False
        return d

    def draw(self, surf: pygame.Surface) -> None:
        w, h = surf.get_size()
        self.buttons.draw(surf.subsurface(pygame.Rect(0, 0, min(BUTTONS_W, w), h)))
        if w <= BUTTONS_W:
            return
        right = surf.subsurface(pygame.Rect(BUTTONS_W, 0, w - BUTTONS_W, h))
        self._draw_cards(right)

    def _draw_cards(self, surf: pygame.Surface) -> None:
        surf.fill((28, 30, 36))
        w, h = surf.get_size()
        self.targets = []
        p = self.people
        theme.draw_text(surf, _("Cards in hand"), pygame.Rect(8, 4, w - 16, 26), colour=theme.GOLD, bold=True)
        if p is None:
            return
        y = 34
        shoe = pygame.Rect(8, y, w // 2 - 12, 44)
        self._button(surf, shoe, _("Shoe: next card ({n})").format(n=len(p.shoe)), p.click_shoe, hot=True)
        auto = pygame.Rect(w // 2 + 4, y, w // 2 - 12, 44)
        self._button(surf, auto, _("Computer players: on") if p.auto else _("Computer players: off"),
                     self._toggle_auto, hot=p.auto)
        y += 50
        per_row = -(-len(SWITCHES) // SWITCH_ROWS)
        sw = (w - 16) // per_row
        for i, (name, label) in enumerate(SWITCHES):
            r = pygame.Rect(8 + (i % per_row) * sw, y + (i // per_row) * 34, sw - 4, 30)
            self._button(surf, r, _(label), lambda n=name: p.inject(n), hot=p._forced == name, size=13)
        y += 34 * SWITCH_ROWS + 6
        top = p.tray[-1][0] if p.tray else None
        theme.draw_text(surf, ngettext("Pile: {card} ({n} card)", "Pile: {card} ({n} cards)", len(p.tray)).format(
                            card=card_label(top) if top else "-", n=len(p.tray)),
                        pygame.Rect(8, y, w - 16, 20), size=14, align="left", colour=theme.INK_DIM)
        y += 24
        m = self.app.match
        seats = len(m.seats) if m is not None else 0
        per = max(60, (h - y - 8) // max(1, seats))
        for seat in range(seats):
            block = pygame.Rect(6, y + seat * per, w - 12, per - 6)
            pygame.draw.rect(surf, (44, 46, 56), block, border_radius=8)
            theme.draw_text(surf, f"{seat + 1}. {m.name(seat)}", pygame.Rect(block.left + 6, block.top + 2,
                                                                            block.width - 12, 18),
                            size=14, align="left")
            cols = max(1, (block.width - 8) // (CHIP[0] + 3))
            for i, (card, _deck) in enumerate(sorted(p.held(seat))):
                r = pygame.Rect(block.left + 4 + (i % cols) * (CHIP[0] + 3), block.top + 22 + (i // cols) * (CHIP[1] + 3),
                                *CHIP)
                if r.bottom > block.bottom:
                    break
                red = card.suit in ("H", "D") if hasattr(card, "suit") else False
                pygame.draw.rect(surf, (245, 245, 240), r, border_radius=4)
                theme.draw_text(surf, card_label(card), r.inflate(-2, -2), size=13, bold=True,
                                colour=theme.RED if red else theme.BLACK)
                self.targets.append((r, lambda s=seat, c=card: p.click_card(s, c)))

    def _button(self, surf: pygame.Surface, rect: pygame.Rect, label: str, act: Any, *, hot: bool = False,
                size: int = 15) -> None:
        pygame.draw.rect(surf, theme.BUTTON_HOT if hot else theme.BUTTON, rect, border_radius=8)
        # wrapped (two lines at most on these small buttons), never cut short in any language
        theme.draw_paragraph(surf, label, rect.inflate(-6, -4), size=size, colour=theme.BUTTON_TEXT, bold=True)
        self.targets.append((rect, act))

    def _toggle_auto(self) -> None:
        p = self.people
        if p is not None:
            p.auto = not p.auto
