"""The contract rummy table for 2–6 seats: panels along the edges, stock, pack, melds, buying.

A view over ``ContractState`` with no rules of its own: every call goes to the match's
table controller (:mod:`display.table.controller.contract`), which makes it an engine
action, says which lamps are lit (the app writes them) and keeps the answer deadline. In a
seat's turn: DRAW (or touch the stock) takes the stock card, touching the pack takes its
top card (C-5.1); then touch cards to pick them, MELD lays the contract (the table
suggests an arrangement, or group picked cards yourself, C-3), a picked card touched onto
a meld lays it off (C-5.2), touched again or onto the pack discards it (C-5.3). BUY from
another seat asks "Можно?" (C-8.3); the asked seat answers with DRAW = "Можно", KNOCK =
"Нельзя" or the on-screen buttons; silence for ``buy_answer_s`` seconds counts as "Можно"
and the controller submits that same ``answer`` action (C-8.4).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

import pygame

from display import theme
from display.layout import SeatPanel, centre_area, seat_panels
from display.scenes.contract_centre import ContractCentrePainter
from display.scenes.contract_panel import (
    ContractPanelPainter,
    panel_body,
    panel_touch,
    play_slots,
    reserve_for,
    words_boxes,
)
from display.scenes.contract_tray import tray_place
from display.scenes.painting import place_of
from display.scenes.table_base import TableScene
from display.table.contract_text import ASK_WORD, event_text
from display.table.controller import Call, TableController
from display.table.controller.contract import ContractInput, asking
from display.table.gin_text import cards_line
from display.table.i18n import _, ngettext, pgettext
from display.table.viewmodels import contract as vm
from display.table.viewmodels.contract import TrayVM
from rummy.cards import Card
from rummy.contract.buying import stock_penalty
from rummy.contract.kinds import ActionKind as K
from rummy.contract.state import PLAY, TURN

if TYPE_CHECKING:  # pragma: no cover
    from display.app import App


@dataclass
class SeatUI:
    """Per-seat touch state (not game state). The picked cards and groups (hand indices)
    and ``choose_take`` (N pressed BUY: how many cards, C-8.2) are the table controller's."""

    ctl: TableController
    seat: int
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


class ContractTableScene(TableScene):
    """The contract table; its centre (with the tray) and each seat's panel are drawn by
    painters it owns."""

    centre: ContractCentrePainter
    name = "contract_table"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        n = len(self.m.seats)
        self.ui = {s: SeatUI(self.ctl, s) for s in range(n)}
        self.centre = ContractCentrePainter(self)
        self._forget.append(self.centre.forget)
        self.painters = {s: ContractPanelPainter(self) for s in range(n)}
        self._panels: tuple[object, list[SeatPanel]] = ((), [])
        self._shown_left = -1
        self._settling = False

    def exit(self) -> None:
        super().exit()
        for painter in self.painters.values():
            painter.release()

    # -- state shortcuts ------------------------------------------------------------------
    @property
    def st(self) -> Any:
        return self.m.state

    @property
    def meld_rects(self) -> dict[int, pygame.Rect]:
        return self.centre.meld_rects

    @property
    def hand_screen_rects(self) -> dict[int, list[pygame.Rect]]:
        """Where each seat's cards are on the screen."""
        return {seat: p.hand_screen_rects for seat, p in self.painters.items()}

    @property
    def seats(self) -> int:
        return len(self.m.seats)

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

    # -- calls (what each does is the table controller's, display.table.controller.contract) ---------
    def pick_card(self, seat: int, index: int) -> None:
        """A touch on one of the seat's own cards (``index`` into his hand; acts only while
        his hand shows)."""
        self.call(seat, Call.CARD, index)

    def touch_meld(self, meld_id: int) -> None:
        """A meld on the table: lay off the picked card onto it (C-5.2)."""
        self.table_call(Call.TABLE_MELD, meld_id)

    # -- update -------------------------------------------------------------------------------
    def update(self, now: float) -> None:
        super().update(now)
        settling = self.ctl.settling(now)
        if settling != self._settling:  # BUY opens: the status lines and the buttons change
            self._settling = settling
            self.dirty = True
        ask = self.asking
        if ask is not None and self.m.is_human(ask[1]):
            left = int(self.answer_left() + 0.99)
            if left != self._shown_left:  # the countdown on screen
                self._shown_left = left
                self.dirty = True

    def hide_hand(self, ui: SeatUI) -> None:
        """The hand hid: picks are dropped, the groups he arranged stay (issue 11)."""
        self.ctl.set_input(ui.seat, replace(self.ctl.input(ui.seat), selected=()))

    def event_text(self, ev) -> str:
        return event_text(self.m, ev)

    # -- drawing ------------------------------------------------------------------------------
    def panels(self) -> list[SeatPanel]:
        key = (self.size, self.seats, self.app.settings.layout)
        if self._panels[0] != key:
            depth = 0.3 if self.seats <= 2 else 0.27
            self._panels = (key, seat_panels(self.size, self.seats, layout=self.app.settings.layout, depth=depth))
        return list(self._panels[1])

    def asking_countdown(self) -> int | None:
        """Seconds left for a human asked "Можно?" to answer (None: nobody human asked)."""
        ask = self.asking
        return int(self.answer_left() + 0.99) if ask is not None and self.m.is_human(ask[1]) else None

    def view_models(self, panels: list[SeatPanel], centre: pygame.Rect) -> tuple[
            vm.ContractCentreVM, list[tuple[vm.ContractPanelVM, vm.ButtonsVM, vm.WordsVM]]]:
        """What the centre and each seat's panel show now."""
        st, settings = self.st, self.app.settings
        ask, countdown, touch = self.asking, self.asking_countdown(), self.touch
        seats = []
        for p in panels:
            seat = p.seat
            place = place_of(p)
            ui = self.ui[seat]
            up = self.face_up(seat)
            hand = vm.hand(self.hand(seat), picked=ui.selected, groups=ui.groups, up=up,
                           suggestion=self.find(seat, K.MELD) if up else None, four_colour=settings.four_colour)
            words = vm.words(self.m, seat, place, flash=ui.flash, hint=self.hint(seat), asking=ask,
                             countdown=countdown, width=p.local_size[0])
            human, buttons = self.m.is_human(seat), self.button_vms(seat)
            reserve = reserve_for(p.local_size, touch, human, len(buttons))
            tall = words_boxes(*p.local_size).tall
            body = vm.ContractPanelVM(place, touch, reserve, hand, words.active, words.asked,
                                      buttons if tall else ())
            column = vm.ButtonsVM(place, touch, reserve, words.active, words.asked, () if tall else buttons)
            seats.append((body, column, words))
        tray = self.tray(panels, centre, [(body, column) for body, column, _w in seats])
        c = (centre.x, centre.y, centre.width, centre.height)
        centre_vm = vm.centre(self.m, c, asking=ask, countdown=countdown,
                              pile_hint=st.phase == TURN and bool(self.find(st.turn, K.DRAW_DISCARD)),
                              centre_msg=self.centre_msg, four_colour=settings.four_colour, u=self.u, touch=touch,
                              tray=tray, recent=tuple(self.recent))
        return centre_vm, seats

    def tray(self, panels: list[SeatPanel], centre: pygame.Rect,
             bodies: list[tuple[vm.ContractPanelVM, vm.ButtonsVM]]) -> TrayVM | None:
        """The tray for the seat in turn when his panel's cards are too small to touch; only
        with open hands: a private hand shows in its owner's panel and nowhere else, not
        again in the table's middle for everybody (docs/privacy.md, issue 28)."""
        st = self.st
        seat = st.turn
        if not self.open_hands or st.phase != PLAY or not 0 <= seat < len(panels) or not self.m.is_human(seat) or not self.face_up(seat):
            return None
        body, column = bodies[seat]
        n = len(body.hand.cards)
        own = panel_touch(body.place, body.touch, True, len(body.buttons) + len(column.buttons), n)
        got = tray_place(panels[seat], centre, n, own)
        if got is None:
            return None
        tp, rest, rects = got
        return TrayVM(place_of(tp), (rest.x, rest.y, rest.width, rest.height),
                      tuple((r.x, r.y, r.width, r.height) for r in rects), body.hand)

    def draw(self, surf: pygame.Surface) -> list[pygame.Rect] | None:
        """Redraw the centre and each panel only when its view-model changed (a panel's top
        lines on their own when only they changed)."""
        full = self.begin_frame(surf)
        if full:
            surf.fill(theme.FELT)  # the corners no panel covers
        panels = self.panels()
        centre = centre_area(self.size, panels)
        dirty: list[pygame.Rect] = []
        centre_vm, seats = self.view_models(panels, centre)
        self.region("centre", centre_vm, centre, partial(self.centre.draw, surf, centre, centre_vm, self.targets),
                    dirty)
        for p, (body, column, words) in zip(panels, seats, strict=True):
            painter = self.painters[p.seat]
            if self.region(("panel", p.seat), body, p.rect, partial(painter.draw, surf, body, words, self.targets),
                           dirty):
                self.mark_region(("words", p.seat), words, p.rect)
                self.forget_region(("buttons", p.seat))  # the panel was painted over its column
            else:  # the cards are as they were: only the top lines may have changed
                self.region(("words", p.seat), words, p.rect, partial(painter.draw_words, surf, words, self.targets),
                            dirty)
            self.region(("buttons", p.seat), column, p.rect,
                        partial(painter.draw_buttons, surf, column, self.targets), dirty)
        return None if full else dirty

    def _play_slots(self, seat: int) -> int:
        return play_slots(place_of(self.panels()[seat]), self.touch)

    def _button_size(self, seat: int, n: int) -> tuple[int, int]:
        """How big each of ``n`` on-screen buttons of ``seat`` is drawn (upright px)."""
        size = self.panels()[seat].local_size
        b = panel_body(size, self.touch, reserve_for(size, self.touch, self.m.is_human(seat), n))
        return b.col_w, b.bh

    def _panel_buttons(self, seat: int) -> list[tuple[str, Callable[[], Any], bool, str]]:
        """On-screen call buttons: what the table controller offers the seat now (answers
        to "Можно?" carry their arcade button, C-8.4); each label the longest of its wordings
        that fits its button."""
        in_turn = seat == self.st.turn
        calls = [b for b in self.ctl.screen_buttons(seat, face_up=self.face_up(seat))
                 if not (b.call is Call.CLEAR_BUTTON and self._play_slots(seat) < 2)]
        # no more than the reserved column holds, so the hand never moves under a finger
        box = self._button_size(seat, len(calls))
        out: list[tuple[str, Callable[[], Any], bool, str]] = []
        for b in calls:
            if b.call is Call.TAKE_CARDS_BUTTON:  # the cards he would take, top first (C-8.2, C-8.5)
                cards = cards_line([p.card for p in reversed(self.st.discard_pile[-b.arg:])])
                st = self.st
                first_free = st.phase == TURN or (st.buy is not None and st.buy.first_free)
                extra = stock_penalty(st.rules, b.arg, first_free)
                ends = st.phase == TURN or (st.buy is not None and st.buy.buyer == st.turn)  # C-8.2, C-8.4
                if ends:
                    also = ngettext("+{n} from the stock, your turn ends", "+{n} from the stock, your turn ends",
                                    extra).format(n=extra) if extra else _("your turn ends")
                else:
                    also = ngettext("+{n} from the stock", "+{n} from the stock", extra).format(n=extra) \
                        if extra else ""
                words: tuple[str, ...] = (
                    ngettext("Take {n} card: {cards}", "Take {n} cards: {cards}", b.arg).format(
                        n=b.arg, cards=cards) + (" " + also if also else ""), f"{cards} {also}".strip(),
                    f"{cards} +{extra}" if extra else cards, cards)
                name = f"take{b.arg}"
            else:
                words, name = {
                    Call.YES_BUTTON: ((_("Yes — they take it"), _("Yes")), "yes"),  # C-8.4
                    Call.NO_BUTTON: ((_("No — you buy it, your turn ends"), _("No — you buy it"), _("No")), "no"),
                    Call.CANCEL_BUTTON: ((_("Cancel"),), "cancel"),
                    Call.DRAW_BUTTON: ((_("Draw"),), "draw"),
                    # BUY in turn buys pack cards (C-8.2); out of turn it asks "Можно?" (C-8.3)
                    Call.BUY_BUTTON: (((_("Buy from the discard pile"), _("Buy several")) if in_turn
                                       else (_("Ask “{ask}”").format(ask=ASK_WORD), ASK_WORD)), "buy"),
                    Call.DISCARD_BUTTON: ((pgettext("call", "Discard"),), "discard"),
                    Call.GROUP_BUTTON: ((_("Group"),), "group"),
                    Call.MELD_BUTTON: ((_("Meld"),), "meld"),
                    Call.CLEAR_BUTTON: ((_("Clear"),), "clear"),
                }[b.call]
            out.append((button_words(words, box), partial(self.call, seat, b.call, b.arg), b.hot, name))
        return out


@lru_cache(maxsize=512)
def button_words(words: tuple[str, ...], size: tuple[int, int]) -> str:
    """The first (longest) of ``words`` that fits a button of ``size`` at a readable size
    (the last one otherwise): the same inner box and text size as ``draw_button``. Measured
    once per wording and size (each panel asks every frame), as ``theme.fit_size`` is."""
    w, h = size
    inner = pygame.Rect(0, 0, w, h).inflate(-min(max(12, h // 3), w // 5), -max(6, h // 4))
    for text in words[:-1]:
        px = theme.fit_size(text, inner, int(h * 0.42), True)
        if px >= 12 and theme.font(px, True).size(text)[0] <= inner.width:
            return text
    return words[-1]
