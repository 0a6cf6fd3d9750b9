"""The contract rummy table for 2–6 seats: panels along the edges, stock, pack, melds, buying.

A view over ``ContractState`` with no rules of its own: what a seat may do comes from
``engine.legal_actions`` and every call becomes one of those actions via
``app.match.submit``. In a seat's turn: DRAW (or touch the stock) takes the stock card,
touching the pack takes its top card (C-5.1); then touch cards to pick them, MELD lays the
contract (the table suggests an arrangement, or group picked cards yourself, C-3), a picked
card touched onto a meld lays it off (C-5.2), touched again or onto the pack discards it
(C-5.3). BUY from another seat asks "Можно?" (C-8.3); the asked seat answers with DRAW =
"Можно", KNOCK = "Нельзя" or the on-screen buttons; silence for ``buy_answer_s`` seconds
counts as "Можно" and the table submits that same ``answer`` action (C-8.4).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import pygame

from display import theme
from display.contract_text import event_text, phase_hint
from display.gin_text import card_name
from display.i18n import _
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
from rummy.contract.state import ASK, PLAY, TURN

ANSWER_SECONDS = 8.0  # C-8.4: silence counts as "Можно" (config [game] buy_answer_s)
BUY_WINDOW_SECONDS = 2.5  # a computer in turn waits this long so people can press BUY


@dataclass
class SeatUI:
    """Per-seat touch state (not game state): picked cards and groups are hand indices."""

    revealed_until: float = 0.0
    selected: list[int] = field(default_factory=list)
    groups: list[list[int]] = field(default_factory=list)
    flash: str = ""
    flash_until: float = 0.0
    choose_take: bool = False  # N pressed BUY: how many cards (C-8.2)


class ContractTableScene(ContractCentre, ContractPanels, ContractTray, TableScene):
    name = "contract_table"
    LAMPS = {"draw": frozenset({"draw_stock", "answer", "take_cards"}), "knock": frozenset({"answer", "meld"}),
             "buy": frozenset({"buy"})}

    def __init__(self, app) -> None:
        super().__init__(app)
        n = len(app.match.seats)
        self.ui = {s: SeatUI() for s in range(n)}
        self._hands: dict[int, tuple[Card, ...]] = {}
        self.hand_screen_rects: dict[int, list[pygame.Rect]] = {s: [] for s in range(n)}
        self.meld_rects: dict[int, pygame.Rect] = {}
        self.answer_seconds = float(getattr(app.config.game, "buy_answer_s", ANSWER_SECONDS))
        self.buy_window = 0.0 if app.headless else BUY_WINDOW_SECONDS
        self._ask_key: tuple | None = None
        self._ask_t = 0.0
        self._turn_key: tuple | None = None
        self._turn_t = 0.0
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

    def find(self, seat: int, kind: str, **match) -> Action | None:
        for a in self.legal(seat):
            if a.kind == kind and all(getattr(a, k) == v for k, v in match.items()):
                return a
        return None

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
        b = self.st.buy
        if self.st.phase == ASK and b is not None and b.asked is not None and b.asker is not None:
            return (b.asker, b.asked, b.card)
        return None

    def answer_left(self) -> float:
        return max(0.0, self.answer_seconds - (self.now - self._ask_t))

    def screenshot_name(self) -> str | None:
        if self.st.table_melds and self.st.phase in (TURN, PLAY):
            return "contract_table"
        return None

    # -- calls --------------------------------------------------------------------------------
    def submit(self, seat: int, action: Action | None) -> bool:
        if action is None:
            self.flash(seat, _("You cannot do that now"))
            return False
        refusal = self.m.submit(action)
        ui = self.ui[seat]
        ui.choose_take = False
        if refusal:
            self.flash(seat, refusal)  # the engine's reason, translated (display.refusal_text)
            return False
        ui.selected, ui.groups = [], []
        if action.kind == "discard":
            ui.revealed_until = 0.0  # the turn is over: hide the hand again
        self.dirty = True
        return True

    def not_your_turn(self, seat: int) -> None:
        self.flash(seat, _("Not your turn: wait for {name}").format(name=self.m.name(self.st.turn)))

    def call_draw(self, seat: int) -> None:
        """DRAW: "Можно" when asked; take the stock card in one's turn (C-5.1)."""
        a = self.find(seat, "answer", flag=True)
        if a is not None:
            self.submit(seat, a)
            return
        if self.ui[seat].choose_take:
            self.ui[seat].choose_take = False
            self.dirty = True
            return
        a = self.find(seat, "draw_stock") or self.find(seat, "take_cards", target=1)
        if a is not None:
            self.submit(seat, a)
            return
        if seat not in self.m.to_act():
            self.not_your_turn(seat)
        else:
            self.flash(seat, phase_hint(self, seat))

    def call_knock(self, seat: int) -> None:
        """KNOCK: "Нельзя" when asked (C-8.4); lay the contract in one's turn (C-3)."""
        a = self.find(seat, "answer", flag=False)
        if a is not None:
            self.submit(seat, a)
            return
        if self.st.phase == PLAY and seat == self.st.turn and self.m.is_human(seat):
            self.meld(seat)
            return
        if seat not in self.m.to_act():
            self.not_your_turn(seat)
        else:
            self.flash(seat, phase_hint(self, seat))

    def call_buy(self, seat: int) -> None:
        """BUY: "Можно?" from another seat (C-8.3); the player in turn buys k ≥ 2 (C-8.2)."""
        if seat == self.st.turn and self.st.phase == TURN:
            if self.find(seat, "buy") is not None:
                self.ui[seat].choose_take = not self.ui[seat].choose_take
                self.dirty = True
            else:
                self.flash(seat, _("You cannot buy from the pack now"))
            return
        a = self.find(seat, "buy")
        if a is not None:
            self.submit(seat, a)
            return
        top = self.st.top
        if self.st.phase in (TURN, ASK) and top is not None and top.discarder == seat:
            self.flash(seat, _("You discarded {card}: you cannot buy it back").format(card=card_name(top.card)))
        else:
            self.flash(seat, _("Nothing to buy now"))

    def take(self, seat: int, k: int) -> None:
        """How many pack cards: an in-turn buy (C-8.2) or a granted/refusing buyer (C-8.5)."""
        a = self.find(seat, "take_cards", target=k) or self.find(seat, "buy", target=k)
        self.submit(seat, a)

    def answer(self, seat: int, flag: bool) -> None:
        self.submit(seat, self.find(seat, "answer", flag=flag))

    def meld(self, seat: int) -> None:
        """Lay the contract: the player's own groups, or the table's suggestion (C-3, C-15.3)."""
        ui = self.ui[seat]
        h = self.hand(seat)
        if ui.groups:
            groups = tuple(tuple(h[i] for i in g) for g in ui.groups)
            self.submit(seat, Action("meld", seat, melds=groups))  # the engine judges
            return
        a = self.find(seat, "meld")
        if a is None:
            self.flash(seat, _("No contract in your hand yet"))
            return
        self.submit(seat, a)

    def group(self, seat: int) -> None:
        ui = self.ui[seat]
        if len(ui.selected) >= 2:
            ui.groups.append(sorted(ui.selected))
            ui.selected = []
            self.dirty = True

    def clear(self, seat: int) -> None:
        ui = self.ui[seat]
        ui.selected, ui.groups, ui.choose_take = [], [], False
        self.dirty = True

    def touch_pile(self) -> None:
        """The pack: take its top card (C-5.1), or discard the one picked card (C-5.3)."""
        seat = self.st.turn
        if not self.m.is_human(seat) or seat not in self.m.to_act():
            return
        a = self.find(seat, "draw_discard")
        if a is not None:
            self.submit(seat, a)
            return
        sel = self.selected_cards(seat)
        if self.st.phase == PLAY and len(sel) == 1:
            self._discard(seat, sel[0])
        elif self.st.phase == PLAY:
            self.flash(seat, _("Pick one card, then touch the pack to discard it"))
        else:
            self.flash(seat, phase_hint(self, seat))

    def touch_stock(self) -> None:
        seat = self.st.turn
        if self.m.is_human(seat) and self.find(seat, "draw_stock") is not None:
            self.submit(seat, self.find(seat, "draw_stock"))

    def touch_meld(self, meld_id: int) -> None:
        """A meld on the table: lay off the picked card onto it (C-5.2)."""
        seat = self.st.turn
        if not self.m.is_human(seat) or self.st.phase != PLAY:
            return
        sel = self.selected_cards(seat)
        if len(sel) != 1:
            self.flash(seat, _("Pick one card, then touch a meld to lay it off"))
            return
        a = self.find(seat, "lay_off", card=sel[0], target=meld_id)
        if a is None:
            if not self.st.contract_down[seat]:
                self.flash(seat, _("Lay your contract first, then lay off"))
            else:
                self.flash(seat, _("{card} does not fit that meld").format(card=card_name(sel[0])))
            return
        self.submit(seat, a)

    def _discard(self, seat: int, card: Card) -> None:
        a = self.find(seat, "discard", card=card)
        if a is None:
            if card == self.st.taken_card:
                self.flash(seat, _("You took {card} from the pack: discard another card").format(
                    card=card_name(card)))  # C-5.3
            elif len(self.hand(seat)) == 1:
                self.flash(seat, _("Your last card must go on a meld"))  # C-6.3
            else:
                self.flash(seat, _("You cannot discard {card} now").format(card=card_name(card)))
            self.ui[seat].selected = []
            return
        self.submit(seat, a)

    def pick_card(self, seat: int, index: int) -> None:
        """A touch on one of the seat's own cards (``index`` into his hand)."""
        ui = self.ui[seat]
        if not self.face_up(seat):
            self.flash(seat, _("Hold your cards to look at them"))
            return
        ui.revealed_until = self.now + PEEK_SECONDS
        if seat != self.st.turn or self.st.phase != PLAY:
            if seat in self.m.to_act():
                self.flash(seat, phase_hint(self, seat))
            else:
                self.not_your_turn(seat)
            return
        if any(index in g for g in ui.groups):
            ui.groups = [g for g in ui.groups if index not in g]
        elif ui.selected == [index]:
            self._discard(seat, self.hand(seat)[index])
            return
        elif index in ui.selected:
            ui.selected.remove(index)
        else:
            ui.selected.append(index)
        self.dirty = True

    def on_button(self, event) -> None:
        if 0 <= event.seat < self.seats and self.m.is_human(event.seat):  # a computer's buttons do nothing
            super().on_button(event)

    # -- update -------------------------------------------------------------------------------
    def update(self, now: float) -> None:
        super().update(now)
        self._buy_window(now)
        ask = self.asking
        if ask is not None and self.m.is_human(ask[1]):
            left = int(self.answer_left() + 0.99)
            if left != self._shown_left:  # the countdown on screen
                self._shown_left = left
                self.dirty = True
        if ask is not None and self.m.is_human(ask[1]) and now - self._ask_t >= self.answer_seconds:
            # C-8.4: no answer in time counts as "Можно"; the table issues the same action.
            self.submit(ask[1], Action("answer", ask[1], flag=True))
        self.update_lamps()

    def hide_hand(self, ui: SeatUI) -> None:
        ui.selected, ui.groups = [], []

    def _buy_window(self, now: float) -> None:
        """A computer in turn waits a moment so people at the table can press BUY (C-8.3)."""
        st = self.st
        if st.phase != TURN or self.m.is_human(st.turn):
            return
        if not any(self.m.is_human(s) and self.find(s, "buy") for s in range(self.seats) if s != st.turn):
            return
        self.m.hold_computers_until(self._turn_t + self.buy_window)

    def event_text(self, ev) -> str:
        return event_text(self.m, ev)

    def after_change(self) -> None:
        ask = self.asking
        key = (ask, self.st.turns_started) if ask else None
        if key != self._ask_key:
            self._ask_key, self._ask_t = key, self.now
        tkey = (self.st.deal_number, self.st.turns_started)
        if tkey != self._turn_key:
            self._turn_key, self._turn_t = tkey, self.now
        for s in range(self.seats):  # a changed hand invalidates picked indices
            h = self.hand(s)
            if self._hands.get(s) != h:
                self._hands[s] = h
                self.ui[s].selected, self.ui[s].groups = [], []

    def lamps_key(self) -> object:
        return (self.m.version, self.asking is not None)

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
