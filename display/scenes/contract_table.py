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

from dataclasses import dataclass, field

import pygame

from display import cardart, theme
from display.contract_text import ASK_WORD, NO, YES, deal_title, event_text, phase_hint, points_text
from display.gin_text import card_name
from display.i18n import _, ngettext, pgettext
from display.layout import (
    MIN_TOUCH_PX,
    SeatPanel,
    centre_area,
    hand_rects,
    seat_panels,
    visible_part,
)
from display.scenes.base import Target
from display.scenes.table_base import PEEK_SECONDS, TableScene
from rummy.actions import Action
from rummy.cards import SUITS, Card
from rummy.contract.state import ASK, PLAY, TURN

ANSWER_SECONDS = 8.0  # C-8.4: silence counts as "Можно" (config [game] buy_answer_s)
BUY_WINDOW_SECONDS = 2.5
SQUEEZED_STRIP = 40  # px: a hand squeezed into one row keeps at least this much of each card  # a computer in turn waits this long so people can press BUY


@dataclass
class SeatUI:
    """Per-seat touch state (not game state): picked cards and groups are hand indices."""

    revealed_until: float = 0.0
    selected: list[int] = field(default_factory=list)
    groups: list[list[int]] = field(default_factory=list)
    flash: str = ""
    flash_until: float = 0.0
    choose_take: bool = False  # N pressed BUY: how many cards (C-8.2)


class ContractTableScene(TableScene):
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
        self._locals: dict[int, pygame.Surface] = {}
        self._hand_layers: dict[int, tuple] = {}

    def exit(self) -> None:
        super().exit()
        self._locals.clear()
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
            if action.kind == "meld":
                self.flash(seat, _("That is not the contract of this deal"))
            else:
                self.flash(seat, refusal)
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
        due = self._turn_t + self.buy_window
        if self.m._bot_due is None or self.m._bot_due < due:  # noqa: SLF001 - the driver's timer
            self.m._bot_due = due  # noqa: SLF001

    def _on_change(self) -> None:
        self._version = self.m.version
        self.dirty = True
        for ev in self.m.events:
            text = event_text(self.m, ev)
            if text:
                self.centre_msg = text
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
        key = (self.m.version, self.centre_msg, self._settings_key(), countdown)
        self.region("centre", key, centre, lambda: self._draw_centre(surf, centre), dirty)
        for p in panels:
            self.region(("panel", p.seat), self._panel_key(p, countdown), p.rect,
                        lambda p=p: self._draw_panel(surf, p), dirty)
        return None if full else dirty

    def _panel_key(self, p: SeatPanel, countdown: int | None) -> tuple:
        """Everything a seat's panel shows: it is redrawn only when this changes."""
        seat, st, ui = p.seat, self.st, self.ui[p.seat]
        ask = self.asking
        in_turn = seat == st.turn
        return (p.angle, self._settings_key(), self.m.name(seat), self.hand(seat), self.face_up(seat),
                tuple(ui.selected), tuple(map(tuple, ui.groups)), ui.flash, ui.choose_take,
                tuple(self.legal(seat)), seat in self.m.to_act(), in_turn, st.phase if in_turn else None,
                st.dealer == seat and st.deal_number, st.scores[seat],
                bool(st.contract_down and st.contract_down[seat]),
                ask is not None and ask[1] == seat and countdown, phase_hint(self, seat))

    def _draw_centre(self, surf: pygame.Surface, area: pygame.Rect) -> None:
        surf.fill(theme.FELT, area)
        st = self.st
        area = area.inflate(-12, -8)
        line = max(16, min(int(area.height * 0.12), int(28 * self.u)))
        theme.draw_text(surf, deal_title(st), pygame.Rect(area.left, area.top, area.width, line),
                        colour=theme.GOLD, bold=True, align="left")
        body = pygame.Rect(area.left, area.top + line + 4, area.width, area.height - 2 * line - 8)
        # stock and pack on the left
        ch = int(min(body.height * 0.78, area.width * 0.16))
        cw, ch = cardart.card_size_for_height(ch)
        y = body.top + 2
        self.stock_rect = pygame.Rect(body.left + 2, y, cw, ch)
        self.pile_rect = pygame.Rect(self.stock_rect.right + cw // 5, y, cw, ch)
        outline = None
        if st.phase == TURN and self.find(st.turn, "draw_discard"):
            outline = cardart.HINT
        ask = self.asking
        self.draw_piles(surf, len(st.stock), st.top.card if st.top is not None else None,
                        cardart.SELECT if ask else outline)
        label_h = max(14, min(int(ch * 0.2), line))
        labels = (_("Stock: {n}").format(n=len(st.stock)), _("Pack: {n}").format(n=len(st.discard_pile)))
        lw = cw + cw // 6
        size = theme.common_size(labels, pygame.Rect(0, 0, lw, label_h), label_h)
        for text, r in zip(labels, (self.stock_rect, self.pile_rect), strict=True):
            theme.draw_text(surf, text, pygame.Rect(r.centerx - lw // 2, r.bottom + 2, lw, label_h), size=size,
                            colour=theme.INK_DIM)
        melds_box = pygame.Rect(self.pile_rect.right + cw // 3, body.top,
                                body.right - self.pile_rect.right - cw // 3, body.height)
        self._draw_melds(surf, melds_box)
        # the bottom line: the question being asked, or what just happened
        bottom = pygame.Rect(area.left, area.bottom - line, area.width, line)
        if ask is not None:
            asker, asked, card = ask
            text = _("{asker} asks {asked}: “{ask}” {card}").format(
                asker=self.m.name(asker), asked=self.m.name(asked), ask=ASK_WORD, card=card_name(card))
            if self.m.is_human(asked):
                text += "  · " + _("{n} s").format(n=int(self.answer_left() + 0.99))
            pygame.draw.rect(surf, theme.PANEL_ACTIVE, bottom.inflate(8, 4), border_radius=8)
            theme.draw_text(surf, text, bottom, colour=theme.GOLD, bold=True)
        else:
            theme.draw_text(surf, self.centre_msg, bottom, colour=theme.INK, align="left")

    def _draw_melds(self, surf: pygame.Surface, box: pygame.Rect) -> None:
        """The melds on the table, grouped by owner (touch one to lay off onto it)."""
        self.meld_rects = {}
        st = self.st
        owners = [s for s in range(self.seats) if any(m.owner == s for m in st.table_melds)]
        if not owners or box.width < 40 or box.height < 30:
            if box.width >= 40 and box.height >= 20:
                theme.draw_text(surf, _("No melds on the table yet"), pygame.Rect(box.left, box.top, box.width,
                                min(box.height, max(16, int(24 * self.u)))), colour=theme.INK_DIM, align="left")
            return
        cols = 1 if len(owners) <= 3 else 2
        rows = -(-len(owners) // cols)
        bw, bh = box.width // cols, box.height // rows
        four = self.app.settings.four_colour
        for i, owner in enumerate(owners):
            cell = pygame.Rect(box.left + (i % cols) * bw, box.top + (i // cols) * bh, bw - 6, bh - 4)
            label_h = max(14, min(int(bh * 0.24), int(22 * self.u)))
            theme.draw_text(surf, self.m.name(owner), pygame.Rect(cell.left, cell.top, cell.width, label_h),
                            align="left", colour=theme.GOLD if owner == st.turn else theme.INK_DIM, bold=True)
            melds = [m for m in st.table_melds if m.owner == owner]
            units = sum(1 + 0.42 * (len(m.cards) - 1) for m in melds) + 0.15 * (len(melds) - 1)
            ratio = cardart.card_size_for_height(100)[0] / 100
            ch = int(min(cell.height - label_h - 2, cell.width / max(1.0, units * ratio)))
            ch = max(12, ch)
            cw, ch = cardart.card_size_for_height(ch)
            step = max(1, int(cw * 0.42))  # enough to read "10"
            x, y = cell.left, cell.top + label_h + 1
            for m in melds:
                start = x
                for c in m.cards:
                    surf.blit(cardart.card_surface(c, (cw, ch), four_colour=four), (x, y))
                    x += step
                r = pygame.Rect(start, y, x - step + cw - start, ch)
                self.meld_rects[m.id] = r
                t = self.touch
                self.targets.append(Target(r.inflate(max(0, t - r.width), max(0, t - r.height)),
                                           f"meld-{m.id}", lambda i=m.id: self.touch_meld(i)))
                x = r.right + int(cw * 0.15)

    # -- a seat's panel -------------------------------------------------------------------
    def _order(self, seat: int) -> tuple[list[int], list[tuple[int, int]], set[int]]:
        """Display order of hand indices, underlined groups (start, length), suggested indices.

        The player's own groups first, then the table's suggested contract (C-3), then the
        rest by suit and rank.
        """
        h = self.hand(seat)
        ui = self.ui[seat]
        used: set[int] = set()
        order: list[int] = []
        groups: list[tuple[int, int]] = []
        for g in ui.groups:
            groups.append((len(order), len(g)))
            order += g
            used.update(g)
        suggested: set[int] = set()
        a = self.find(seat, "meld") if not ui.groups else None
        if a is not None and a.melds:
            for meld in a.melds:
                idx = []
                for c in meld:
                    j = next((k for k in range(len(h)) if h[k] == c and k not in used and k not in idx), None)
                    if j is not None:
                        idx.append(j)
                groups.append((len(order), len(idx)))
                order += idx
                used.update(idx)
                suggested.update(idx)
        rest = sorted((k for k in range(len(h)) if k not in used), key=lambda k: (SUITS.index(h[k].suit), h[k].rank))
        return order + rest, groups, suggested

    def _draw_panel(self, surf: pygame.Surface, p: SeatPanel) -> None:
        seat = p.seat
        w, d = p.local_size
        if p.angle == 0:
            local = surf.subsurface(p.rect)  # upright: drawn straight onto the screen
        else:
            local = self._locals.get(seat)
            if local is None or local.get_size() != (w, d):
                local = self._locals[seat] = pygame.Surface((w, d)).convert()
        mark = self.log_mark()
        st = self.st
        ask = self.asking
        asked_here = ask is not None and ask[1] == seat
        active = seat in self.m.to_act() and (st.phase != TURN or seat == st.turn) or asked_here
        bg = theme.PANEL_ACTIVE if active else theme.PANEL
        local.fill(bg)
        narrow = w < 330  # a side panel at 800×480 with 5–6 seats: one item per row
        tall = d > w * 1.2  # an upright side panel: words over the cards, buttons under them
        ui = self.ui[seat]
        down = st.contract_down[seat] if st.contract_down else False
        name = ("✓ " if down else "") + self.m.name(seat)  # ✓: the contract is down
        count = len(self.hand(seat))
        info = ngettext("{n} card", "{n} cards", count).format(n=count) + " · " + points_text(st.scores[seat])
        if st.dealer == seat and st.deal_number:
            info = _("dealer") + " · " + info
        colour = theme.GOLD if active else theme.INK
        status = ui.flash or phase_hint(self, seat)
        if asked_here and self.m.is_human(seat) and not ui.flash:
            status = _("{text} · “{yes}” in {n} s").format(text=status, yes=YES, n=int(self.answer_left() + 0.99))
            if narrow or w < 600:  # the buttons say only Можно / Нельзя: the mapping goes here
                status = _("DRAW = {yes} · KNOCK = {no} · {n} s").format(
                    yes=YES, no=NO, n=int(self.answer_left() + 0.99))
        status_colour = theme.WARN if ui.flash or asked_here else theme.INK
        gap = 4
        human = self.m.is_human(seat)
        if tall:
            row_h = max(14, min(int(w * 0.16), int(d * 0.07)))
            header = pygame.Rect(6, 3, w - 12, row_h)
            theme.draw_text(local, name, header, bold=True, align="left", colour=colour)
            info_box = pygame.Rect(6, header.bottom, w - 12, 2 * row_h)
            theme.draw_paragraph(local, info, info_box, size=int(row_h * 0.8), align="left", colour=theme.INK_DIM)
            status_box = pygame.Rect(6, info_box.bottom + 1, w - 12, 3 * row_h)
            theme.draw_paragraph(local, status, status_box, size=int(row_h * 0.8), align="left",
                                 colour=status_colour)
            per_col = self._slots[seat] = 1
            buttons = self._panel_buttons(seat)
            slots = max(1 if human else 0, len(buttons))
            bh = self.touch
            col_w, col_h = w - 12, slots * (bh + gap)
            body = pygame.Rect(6, status_box.bottom + 2, w - 12, d - status_box.bottom - 6 - col_h)
        else:
            row_h = max(15, int(d * (0.11 if narrow else 0.15)))
            header = pygame.Rect(8, 3, w - 16, row_h)
            if narrow:
                theme.draw_text(local, name, header, bold=True, align="left", colour=colour)
                info_box = header.move(0, row_h)
                theme.draw_text(local, info, info_box, align="left", colour=theme.INK_DIM)
            else:
                theme.draw_text(local, name, pygame.Rect(header.left, header.top, int(header.width * 0.4),
                                                         header.height), bold=True, align="left", colour=colour)
                info_box = header
                theme.draw_text(local, info, pygame.Rect(header.left + int(header.width * 0.42), header.top,
                                                         int(header.width * 0.58), header.height),
                                align="right", colour=theme.INK_DIM)
            status_box = pygame.Rect(header.left, info_box.bottom + 1, header.width, row_h)
            theme.draw_text(local, status, status_box, align="left", colour=status_colour)
            # A human seat always keeps its button column, so picking a card never moves the hand.
            col_h = d - status_box.bottom - 6
            per_col = self._slots[seat] = self._per_col(d, col_h)
            buttons = self._panel_buttons(seat)
            col_w = max(int(self.touch * 1.5), int(w * 0.2)) if human or buttons else 0
            slots = max(per_col if human else 0, len(buttons))
            bh = max(self.touch, min((col_h - gap * (slots - 1)) // max(1, slots), int(d * 0.3)))
            ncols = -(-slots // per_col)
            used = ncols * (col_w + gap) + (4 if ncols else 0)
            body = pygame.Rect(8, status_box.bottom + 2, w - 16 - used, d - status_box.bottom - 5)
        h = self.hand(seat)
        up = self.face_up(seat)
        order, groups, suggested = self._order(seat) if up else (list(range(len(h))), [], set())
        raise_px = max(5, body.height // 10)
        rects = self._hand_rects(body, len(order), up, raise_px if up else 0)
        lifted = [r.move(0, -raise_px) if up and k in ui.selected else r for k, r in zip(order, rects, strict=True)]
        self._blit_hand(local, seat, body, (h, order, groups, suggested, up, rects, lifted, bg))
        if active:  # drawn after the hand: a group's underline never covers the frame
            pygame.draw.rect(local, theme.WARN if asked_here else theme.GOLD, local.get_rect(), max(3, d // 40))
        local_targets = [(visible_part(rects, i), k) for i, k in enumerate(order)]  # (visible part, index)
        self.hand_screen_rects[seat] = [p.to_screen(r) for r in lifted]
        if buttons and not tall:
            bh = max(self.touch, min((col_h - gap * (per_col - 1)) // per_col, int(d * 0.3)))
        if buttons:
            col = pygame.Rect(w - 8 - col_w, status_box.bottom + 2, col_w, col_h)
            for i, (label, fn, hot, bname) in enumerate(buttons):
                c, r_ = divmod(i, per_col)
                r = pygame.Rect(col.left - c * (col_w + gap), col.top + r_ * (bh + gap), col_w, bh)
                if tall:
                    r = pygame.Rect(6, d - 4 - (len(buttons) - i) * (bh + gap), col_w, bh)
                t = self.button(local, r, label, fn, hot=hot, name=f"{bname}-{seat}", seat=seat)
                t.rect = p.to_screen(t.rect)
        self.map_log(mark, p.to_screen)
        if p.angle:
            surf.blit(self.turn(local, p.angle), p.rect)
        self.panel_targets(p, local_targets, self.pick_card)

    def _blit_hand(self, local: pygame.Surface, seat: int, body: pygame.Rect, hand: tuple) -> None:
        """The hand as one cached layer (with the groups' underlines): only a seat whose
        cards, picks or colours changed is re-rendered."""
        h, order, groups, suggested, up, rects, lifted, bg = hand
        d = local.get_height()
        area = pygame.Rect(body.left, body.top, body.width, max(1, min(body.height + 4, d - body.top)))
        four = self.app.settings.four_colour
        picked = tuple(self.ui[seat].selected) if up else ()
        key = (h, tuple(order), tuple(groups), tuple(sorted(suggested)), up, picked, tuple(map(tuple, lifted)),
               area.size, bg, four)
        cached = self._hand_layers.get(seat)
        squeezed = area.width < 1 or area.height < 1  # no room: straight onto the panel, as it falls
        if squeezed or cached is None or cached[0] != key:
            if squeezed:
                layer, dx, dy = local, 0, 0
            else:
                layer = cached[1] if cached is not None and cached[1].get_size() == area.size else \
                    pygame.Surface(area.size).convert()
                layer.fill(bg)
                dx, dy = -area.left, -area.top
            for k, r in zip(order, lifted, strict=True):
                outline = cardart.SELECT if k in picked else (cardart.HINT if up and k in suggested else None)
                layer.blit(cardart.card_surface(h[k], r.size, face_up=up, four_colour=four, outline=outline),
                           r.move(dx, dy))
            for g_start, g_len in groups:
                if g_len and g_start + g_len <= len(rects):
                    a, b = rects[g_start], rects[g_start + g_len - 1]
                    y = min(a.bottom + 2, d - 3) + dy
                    pygame.draw.line(layer, theme.GOLD, (a.left + 3 + dx, y), (b.right - 3 + dx, y), 3)
            if squeezed:
                return
            cached = self._hand_layers[seat] = (key, layer)
        local.blit(cached[1], area)

    @staticmethod
    def _hand_rects(body: pygame.Rect, n: int, up: bool, raise_px: int) -> list[pygame.Rect]:
        """One row of cards, made smaller if need be so each shows a 9 mm strip; two rows only
        when one row would make them tiny (a face-down hand needs no strips)."""
        if n <= 0:
            return []
        strip_min = MIN_TOUCH_PX if up else 6
        ratio = cardart.card_size_for_height(100)[0] / 100
        ch = body.height - raise_px
        cw = int(ch * ratio)
        if n > 1 and body.width - cw < strip_min * (n - 1):
            fit = body.width - strip_min * (n - 1)
            if fit < max(24, cw * 0.55):
                # one row of 40 px strips (7.7 mm) still beats two rows of tiny cards
                if (body.width - max(24, int(cw * 0.7))) / (n - 1) < SQUEEZED_STRIP:
                    return hand_rects(body, n, body.height, min_strip=strip_min, raise_px=raise_px)
                fit = max(24, int(cw * 0.7))
            ch = min(ch, int(fit / ratio))
        cw, ch = cardart.card_size_for_height(ch)
        step = min(cw + cw / 10, (body.width - cw) / (n - 1)) if n > 1 else 0
        x0 = body.centerx - (cw + step * (n - 1)) / 2
        y = body.top + raise_px
        return [pygame.Rect(round(x0 + i * step), y, cw, ch) for i in range(n)]

    def _per_col(self, d: int, col_h: int) -> int:
        """How many buttons fit one above the other in a panel ``d`` deep (at most two)."""
        return max(1, min(2, (col_h + 4) // (self.touch + 4)))

    def _play_slots(self, seat: int) -> int:
        return self._slots.get(seat, 2)

    def _panel_width(self, seat: int) -> int:
        return self.panels()[seat].local_size[0]

    def _panel_buttons(self, seat: int):
        """On-screen call buttons for what the seat may do now (from legal_actions)."""
        legal = self.legal(seat)
        kinds = {a.kind for a in legal}
        ui = self.ui[seat]
        st = self.st
        out = []
        if "answer" in kinds:  # C-8.4: the mapping is on the buttons themselves
            wide = self._panel_width(seat) >= 600
            out.append((f"{YES} (DRAW)" if wide else YES, lambda: self.answer(seat, True), True, "yes"))
            out.append((f"{NO} (KNOCK)" if wide else NO, lambda: self.answer(seat, False), False, "no"))
            return out
        takes = sorted(a.target for a in legal if a.kind == "take_cards")
        if ui.choose_take and st.phase == TURN:
            takes = sorted(a.target for a in legal if a.kind == "buy" and a.target)
        if takes:
            for k in takes[:3]:
                out.append((ngettext("Take {n} card", "Take {n} cards", k).format(n=k),
                            lambda k=k: self.take(seat, k), k == takes[0], f"take{k}"))
            if ui.choose_take:
                out.append((_("Cancel"), lambda: self.clear(seat), False, "cancel"))
            return out
        if "draw_stock" in kinds:
            out.append((_("Draw"), lambda: self.call_draw(seat), True, "draw"))
        if "buy" in kinds:
            label = _("Buy several") if seat == st.turn else ASK_WORD  # the word one says
            out.append((label, lambda: self.call_buy(seat), seat != st.turn, "buy"))
        if st.phase == PLAY and seat == st.turn and legal:
            # no more than the reserved column holds, so the hand never moves under a finger
            sel = ui.selected
            if len(sel) == 1:
                card = self.hand(seat)[sel[0]]
                out.append((pgettext("call", "Discard"), lambda c=card: self._discard(seat, c), True, "discard"))
            elif len(sel) >= 2 and not st.contract_down[seat]:
                out.append((_("Group"), lambda: self.group(seat), True, "group"))
            elif "meld" in kinds or ui.groups:
                out.append((_("Meld"), lambda: self.meld(seat), True, "meld"))
            if (sel or ui.groups) and self._play_slots(seat) >= 2:
                out.append((_("Clear"), lambda: self.clear(seat), False, "clear"))
        return out[:4]
