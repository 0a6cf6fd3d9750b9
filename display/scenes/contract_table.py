"""The contract rummy table for 2–6 seats: panels along the edges, stock, pack, melds, buying.

A view over ``ContractState`` with no rules of its own: every call goes to the match's
table controller (:mod:`display.controller.contract`), which makes it an engine action,
lights the lamps and keeps the answer deadline. In a seat's turn: DRAW (or touch the stock) takes the stock card,
touching the pack takes its top card (C-5.1); then touch cards to pick them, MELD lays the
contract (the table suggests an arrangement, or group picked cards yourself, C-3), a picked
card touched onto a meld lays it off (C-5.2), touched again or onto the pack discards it
(C-5.3). BUY from another seat asks "Можно?" (C-8.3); the asked seat answers with DRAW =
"Можно", KNOCK = "Нельзя" or the on-screen buttons; silence for ``buy_answer_s`` seconds
counts as "Можно" and the controller submits that same ``answer`` action (C-8.4).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

import pygame

from display import theme
from display.contract_text import event_text
from display.controller import Call, TableController
from display.controller.contract import ContractInput, asking
from display.layout import (
    SeatPanel,
    centre_area,
    seat_panels,
)
from display.scenes.contract_centre import ContractCentre
from display.scenes.contract_panel import ContractPanels
from display.scenes.contract_tray import ContractTray, Tray
from display.scenes.table_base import PEEK_SECONDS, TableScene
from rummy.actions import Action
from rummy.cards import Card
from rummy.contract.state import PLAY, TURN


@dataclass
class SeatUI:
    """Per-seat touch state (not game state). The picked cards and groups (hand indices)
    and ``choose_take`` (N pressed BUY: how many cards, C-8.2) are the table controller's."""

    ctl: TableController
    seat: int
    revealed_until: float = 0.0
    flash: str = ""
    flash_until: float = 0.0

    def _input(self) -> ContractInput:
        inp: ContractInput = self.ctl.input(self.seat)
        return inp

    @property
    def selected(self) -> list[int]:
        return list(self._input().selected)

    @selected.setter
    def selected(self, indices: list[int]) -> None:
        self.ctl.set_input(self.seat, replace(self._input(), selected=tuple(indices)))

    @property
    def groups(self) -> list[list[int]]:
        return [list(g) for g in self._input().groups]

    @property
    def choose_take(self) -> bool:
        return self._input().choose_take


class ContractTableScene(ContractCentre, ContractPanels, ContractTray, TableScene):
    name = "contract_table"

    def __init__(self, app) -> None:
        super().__init__(app)
        n = len(app.match.seats)
        self.ui = {s: SeatUI(self.ctl, s) for s in range(n)}
        self.hand_screen_rects: dict[int, list[pygame.Rect]] = {s: [] for s in range(n)}
        self.meld_rects: dict[int, pygame.Rect] = {}
        self._shown_left = -1
        self._slots: dict[int, int] = {}
        self._hand_layers: dict[int, tuple] = {}

    def exit(self) -> None:
        super().exit()
        self._hand_layers.clear()

    # -- state shortcuts ------------------------------------------------------------------
    @property
    def st(self):
        return self.m.state

    @property
    def seats(self) -> int:
        return len(self.m.seats)

    def face_up(self, seat: int) -> bool:
        if not self.m.is_human(seat):
            return False
        return self.app.settings.privacy == "open" or self.ui[seat].revealed_until > self.now

    def hand(self, seat: int) -> tuple[Card, ...]:
        return tuple(self.st.hands[seat]) if self.st.hands else ()

    def selected_cards(self, seat: int) -> list[Card]:
        h = self.hand(seat)
        return [h[i] for i in self.ui[seat].selected if i < len(h)]

    @property
    def asking(self) -> tuple[int, int, Card] | None:
        """(asker, asked, card) while a "Можно?" question waits for its answer."""
        return asking(self.st)

    @property
    def answer_seconds(self) -> float:
        """C-8.4: silence this long counts as "Можно" (config ``[game] buy_answer_s``)."""
        return self.ctl.answer_seconds

    def answer_left(self) -> float:
        """Seconds to the answer deadline (the controller's: it survives this scene)."""
        return self.ctl.answer_left(self.now)

    def screenshot_name(self) -> str | None:
        if self.st.table_melds and self.st.phase in (TURN, PLAY):
            return "contract_table"
        return None

    # -- calls (what each does is the table controller's, display.controller.contract) ---------
    def pick_card(self, seat: int, index: int) -> None:
        """A touch on one of the seat's own cards (``index`` into his hand); it keeps a
        peeked hand showing."""
        if self.face_up(seat):
            self.ui[seat].revealed_until = self.now + PEEK_SECONDS
        self.call(seat, Call.CARD, index)

    def touch_meld(self, meld_id: int) -> None:
        """A meld on the table: lay off the picked card onto it (C-5.2)."""
        self.table_call(Call.TABLE_MELD, meld_id)

    def after_submit(self, seat: int, action: Action) -> None:
        if action.kind == "discard":
            self.ui[seat].revealed_until = 0.0  # the turn is over: hide the hand again

    # -- update -------------------------------------------------------------------------------
    def update(self, now: float) -> None:
        super().update(now)
        ask = self.asking
        if ask is not None and self.m.is_human(ask[1]):
            left = int(self.answer_left() + 0.99)
            if left != self._shown_left:  # the countdown on screen
                self._shown_left = left
                self.dirty = True
        self.update_lamps()

    def hide_hand(self, ui: SeatUI) -> None:
        self.ctl.set_input(ui.seat, replace(self.ctl.input(ui.seat), selected=(), groups=()))

    def event_text(self, ev) -> str:
        return event_text(self.m, ev)

    # -- drawing ------------------------------------------------------------------------------
    def panels(self) -> list[SeatPanel]:
        depth = 0.3 if self.seats <= 2 else 0.27
        return seat_panels(self.size, self.seats, layout=self.app.settings.layout, depth=depth)

    def draw(self, surf: pygame.Surface):
        """Redraw the centre and each panel only when what it shows changed."""
        full = self.begin_frame(surf)
        if full:
            surf.fill(theme.FELT)  # the corners no panel covers
        panels = self.panels()
        centre = centre_area(self.size, panels)
        dirty: list[pygame.Rect] = []
        ask = self.asking
        countdown = int(self.answer_left() + 0.99) if ask is not None and self.m.is_human(ask[1]) else None
        tray = self.tray(panels, centre)  # the seat in turn's cards, big enough to touch
        key = (self.m.version, self.centre_msg, self._settings_key(), countdown, tray and tray.key)
        self.region("centre", key, centre, lambda: self._draw_centre_and_tray(surf, centre, tray), dirty)
        for p in panels:
            words = self._words(p)
            wkey = (words, p.angle, self._settings_key())
            if self.region(("panel", p.seat), self._panel_key(p, words), p.rect,
                           functools.partial(self._draw_panel, surf, p, words), dirty):
                self.mark_region(("words", p.seat), wkey, p.rect)
            else:  # the cards and buttons are as they were: only the top lines may have changed
                self.region(("words", p.seat), wkey, p.rect,
                            functools.partial(self._repaint_words, surf, p, words), dirty)
        return None if full else dirty

    def _draw_centre_and_tray(self, surf: pygame.Surface, centre: pygame.Rect, tray: Tray | None) -> None:
        if tray is None:
            self._draw_centre(surf, centre)
            return
        surf.fill(theme.FELT, centre)
        clip = surf.get_clip()
        surf.set_clip(tray.rest.clip(clip))  # a shallow middle's small labels must not spill over
        try:
            self._draw_centre(surf, tray.rest)
        finally:
            surf.set_clip(clip)
        self.draw_tray(surf, tray)

    def _panel_key(self, p: SeatPanel, words: tuple) -> tuple:
        """What a seat's panel shows apart from its top lines' words: it is redrawn only when
        this changes (the words alone are repainted on their own)."""
        seat, st, ui = p.seat, self.st, self.ui[p.seat]
        in_turn = seat == st.turn
        return (p.angle, self._settings_key(), self.hand(seat), self.face_up(seat),
                tuple(ui.selected), tuple(map(tuple, ui.groups)), ui.choose_take,
                tuple(self.legal(seat)), seat in self.m.to_act(), in_turn, st.phase if in_turn else None,
                words[4], words[5])  # active, asked: the panel's colour and frame
