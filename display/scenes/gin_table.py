"""The gin table: a panel per seat along its edge, the stock, the discard pile, the knock card.

A view over ``MatchState`` with no rules of its own: every call (arcade button, touch,
on-screen button) goes to the match's table controller
(:mod:`display.table.controller.gin`), which makes it an engine action and says which
lamps are lit (the app writes them). Touch the stock or press DRAW to draw; touch the pile
to take the discard (G-5.1); touch a card to pick it, touch it again to discard; KNOCK
then touch the discard to knock (G-7). Hands are face down except while the owner holds
one of his arcade buttons (privacy = peek, docs/privacy.md) or face up for practice
(privacy = open).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

from display import cardart, pixels, theme
from display.layout import SeatPanel, centre_area, seat_panels
from display.scenes.base import Target
from display.scenes.gin_centre import GinCentrePainter
from display.scenes.gin_panel import GinPanelPainter
from display.scenes.painting import place_of
from display.scenes.table_base import TableScene
from display.table.controller import Call, TableController
from display.table.controller.gin import GinInput
from display.table.gin_text import event_text
from display.table.i18n import _
from display.table.viewmodels.gin import gin_centre, gin_panel
from rummy.cards import Card
from rummy.gin.kinds import ActionKind as K
from rummy.gin.kinds import EventKind as E
from rummy.gin.state import HandPhase

if TYPE_CHECKING:  # pragma: no cover
    from display.app import App

ANIM_SECONDS = 0.25


@dataclass
class SeatUI:
    """Per-seat touch state (not game state). The picked card and the mode ("" | "knock":
    KNOCK pressed, pick the discard | "take": G-13.3) are the table controller's."""

    ctl: TableController
    seat: int
    flash: str = ""
    flash_until: float = 0.0

    @property
    def selected(self) -> Card | None:
        inp: GinInput = self.ctl.input(self.seat)
        return inp.selected

    @selected.setter
    def selected(self, card: Card | None) -> None:
        self.ctl.set_input(self.seat, replace(self.ctl.input(self.seat), selected=card))

    @property
    def mode(self) -> str:
        inp: GinInput = self.ctl.input(self.seat)
        return str(inp.mode)


@dataclass
class Anim:
    card: Card | None
    face_up: bool
    src: pygame.Rect
    dst: pygame.Rect
    t0: float


class GinTableScene(TableScene):
    """The gin table; its centre and each seat's panel are drawn by painters it owns."""

    centre: GinCentrePainter
    name = "gin_table"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.ui = {s: SeatUI(self.ctl, s) for s in (0, 1)}
        self.banner = ""
        self.banner_until = 0.0
        self.anims: list[Anim] = []
        self.centre = GinCentrePainter(self)
        self.painters = {seat: GinPanelPainter(self) for seat in (0, 1)}
        self._forget += [p.forget for p in self.painters.values()]
        self._static: pygame.Surface | None = None
        self._static_key_v: tuple[Any, ...] = ()
        self._static_targets: list[Target] = []
        self._anim_rects: list[pygame.Rect] = []
        self._deal_anim_at: float | None = None
        self.drawn: dict[int, Card] = {}  # the card each seat last drew or took (marked while it is his turn)

    def exit(self) -> None:
        super().exit()
        for painter in self.painters.values():
            painter.release()
        self._static = None
        self._static_targets = []

    def invalidate(self) -> None:
        super().invalidate()
        self._static_key_v = ()

    # -- state shortcuts ------------------------------------------------------------------
    @property
    def hand(self) -> Any:
        return self.m.state.hand

    @property
    def hand_screen_rects(self) -> dict[int, list[pygame.Rect]]:
        """Where each seat's cards are on the screen (animations fly to them)."""
        return {seat: p.hand_screen_rects for seat, p in self.painters.items()}

    @property
    def busy(self) -> bool:
        return bool(self.anims)

    def screenshot_name(self) -> str | None:
        h = self.hand
        if h is not None and len(h.stock) <= 24 and h.phase is HandPhase.DRAW and not self.anims:
            return "gin_table"
        return None

    # -- calls (what each does is the table controller's, display.table.controller.gin) --------------
    def pick_card(self, seat: int, card: Card) -> None:
        """A touch on one of the seat's own cards (acts only while his hand shows)."""
        self.call(seat, Call.CARD, card)

    # -- update -------------------------------------------------------------------------------
    def update(self, now: float) -> None:
        super().update(now)
        if self.banner and self.banner_until <= now:
            self.banner = ""
            self.dirty = True
        if self.anims:
            self.anims = [a for a in self.anims if now - a.t0 < ANIM_SECONDS]
            self.dirty = True
        if self._deal_anim_at is not None:
            self.dirty = True

    def event_text(self, ev) -> str:
        return event_text(self.m, ev)

    def drawn_card(self, seat: int) -> Card | None:
        """The card ``seat`` just drew or took, while he is still to discard (G-5.2)."""
        h, to_act = self.hand, self.m.to_act()
        card = self.drawn.get(seat)
        if h is None or card is None or to_act[:1] != [seat] or h.phase is not HandPhase.DISCARD:
            return None
        return card if card in h.hands[seat] else None

    def on_event(self, ev) -> None:
        if ev.kind in (E.DREW, E.UPCARD_TAKEN) and ev.data.get("card"):
            self.drawn[ev.seat] = Card.parse(ev.data["card"])
        if ev.kind == E.ILLEGAL_KNOCK:  # G-8
            self.banner = _("Illegal knock by {name}: {count} is over the limit of {limit}. His cards "
                            "stay face up and he must knock as soon as he can.").format(
                name=self.m.name(ev.seat), count=ev.data.get("count"), limit=self.hand.knock_limit)
            self.banner_until = self.now + 8.0
        self._animate(ev)

    def _animate(self, ev) -> None:
        if ev.kind == E.DEALT and not self.app.headless:
            self._deal_anim_at = self.now  # started at the next draw, when the rects are known
            return
        if ev.kind not in (E.DREW, E.DISCARDED, E.UPCARD_TAKEN) or ev.seat not in (0, 1) or self.app.headless:
            return
        hand = self.hand_screen_rects.get(ev.seat) or []
        target = hand[len(hand) // 2] if hand else self.stock_rect
        card: Card | None
        if ev.kind == E.DISCARDED:
            src, dst = target, self.pile_rect
            card, up = Card.parse(ev.data["card"]), True
        else:
            from_pile = ev.kind == E.UPCARD_TAKEN or ev.data.get("pile") == "discard"
            src, dst = (self.pile_rect if from_pile else self.stock_rect), target
            card, up = (Card.parse(ev.data["card"]), True) if from_pile else (None, False)
        if src.width and dst.width:
            self.anims.append(Anim(card, up, pygame.Rect(src), pygame.Rect(dst.topleft, src.size), self.now))

    # -- drawing ------------------------------------------------------------------------------
    def panels(self) -> list[SeatPanel]:
        w, h = self.size
        return seat_panels(self.size, 2, layout=self.app.settings.layout, depth=0.31 * max(1.0, h / w * 0.85))

    def view_models(self) -> tuple[pygame.Rect, Any, tuple[tuple[SeatPanel, Any], ...]]:
        """What each region shows now: (the centre's rect, its view-model, (panel, its
        view-model) per seat)."""
        panels = self.panels()
        centre = centre_area(self.size, panels)
        settings = self.app.settings
        to_act = self.m.to_act()
        seat = to_act[0] if to_act else None
        # the pile outlined: it may be taken now, or (the discard phase) a discard goes there
        pile_hint = seat is not None and bool(self.find(seat, K.DRAW_DISCARD) or self.find(seat, K.TAKE_UPCARD)
                                              or self.find(seat, K.DISCARD))
        centre_vm = gin_centre(self.m, (centre.x, centre.y, centre.width, centre.height), pile_hint=pile_hint,
                               flat=settings.layout == "flat", centre_msg=self.centre_msg, banner=self.banner,
                               four_colour=settings.four_colour, touch=self.touch)
        seats = tuple((p, gin_panel(self.m, p.seat, place_of(p), selected=self.ui[p.seat].selected,
                                    flash=self.ui[p.seat].flash, up=self.face_up(p.seat), hint=self.hint(p.seat),
                                    buttons=self.button_vms(p.seat), touch=self.touch,
                                    four_colour=settings.four_colour, drawn=self.drawn_card(p.seat)))
                      for p in panels)
        return centre, centre_vm, seats

    def draw(self, surf: pygame.Surface) -> list[pygame.Rect] | None:
        """The table is composed once per change; animation frames redraw only their rects."""
        vms = self.view_models()
        key = (self.size, vms[1], tuple(vm for _p, vm in vms[2]))
        static = self._static
        result: list[pygame.Rect] | None
        if static is not None and self._static_key_v == key and theme.TEXT_LOG is None:
            result = list(self._anim_rects)
            for r in result:
                pixels.blit_opaque(surf, static, r, r)
            self.targets = list(self._static_targets)
        else:
            full = self.begin_frame(surf)
            dirty = []
            if not full and self._static is not None:
                for r in self._anim_rects:  # what the moving cards covered in the last frame
                    pixels.blit_opaque(surf, self._static, r, r)
                dirty += self._anim_rects
            self._compose(surf, dirty, vms)
            if self._deal_anim_at is not None:
                self._start_deal_animation()
            self._static_key_v = key
            self._static_targets = list(self.targets)
            if self.anims or static is not None and static.get_size() == self.size:
                # kept to restore what a moving card uncovers
                if static is None or static.get_size() != self.size:
                    static = self._static = pygame.Surface(self.size).convert()
                    full = True
                for r in [static.get_rect()] if full else dirty:
                    pixels.blit_opaque(static, surf, r, r)
            result = None if full else dirty
        self._anim_rects = []
        for a in self.anims:
            if self.now < a.t0:
                continue
            f = min(1.0, (self.now - a.t0) / ANIM_SECONDS)
            r = pygame.Rect(round(a.src.x + (a.dst.x - a.src.x) * f), round(a.src.y + (a.dst.y - a.src.y) * f),
                            a.src.width, a.src.height)
            surf.blit(cardart.card_surface(a.card, r.size, face_up=a.face_up,
                                           four_colour=self.app.settings.four_colour), r)
            self._anim_rects.append(r)
        if result is not None:
            result += self._anim_rects
        return result

    def _start_deal_animation(self) -> None:
        """G-3.2: ten cards each, one at a time, alternately (backs flying from the stock)."""
        self._deal_anim_at = None
        hands = [self.hand_screen_rects.get(s) or [] for s in (0, 1)]
        if not self.stock_rect.width or not all(hands):
            return
        first = 1 - self.hand.dealer
        for i in range(20):
            seat = first if i % 2 == 0 else 1 - first
            dst = hands[seat][min(i // 2, len(hands[seat]) - 1)]
            self.anims.append(Anim(None, False, pygame.Rect(self.stock_rect),
                                   pygame.Rect(dst.topleft, self.stock_rect.size), self.now + i * 0.035))

    def _compose(self, surf: pygame.Surface, dirty: list[pygame.Rect],
                 vms: tuple[pygame.Rect, Any, tuple[tuple[SeatPanel, Any], ...]]) -> None:
        """Redraw the centre and each panel only when its view-model changed."""
        centre, centre_vm, seats = vms
        self.region("centre", centre_vm, centre, lambda: self.centre.draw(surf, centre, centre_vm, self.targets),
                    dirty)
        for p, vm in seats:
            painter = self.painters[p.seat]
            self.region(("panel", p.seat), vm, p.rect, partial(painter.draw, surf, vm, self.targets), dirty)

    def _panel_buttons(self, seat: int) -> list[tuple[str, Callable[[], Any], bool, str]]:
        """On-screen call buttons: what the table controller offers the seat now."""
        mode = self.ui[seat].mode
        words = {
            Call.TAKE_BUTTON: (_("Take"), "take"),
            Call.PASS_BUTTON: (_("Pass"), "pass"),
            Call.DRAW_BUTTON: (_("Draw"), "draw"),
            Call.BIG_GIN_BUTTON: (_("Big Gin!"), "big_gin"),
            Call.KNOCK_BUTTON: ({"knock": _("Cancel knock"), "confirm": _("Knock anyway")}.get(mode, _("Knock")),
                                "knock"),
            Call.TAKE_AND_KNOCK_BUTTON: (_("Take and knock"), "take_and_knock"),
            Call.DECLINE_BUTTON: (_("Decline"), "decline"),
            Call.ACCEPT_BUTTON: (_("Accept knock"), "accept"),
            Call.REFUSE_BUTTON: (_("Refuse"), "refuse"),
            Call.DONE_BUTTON: (_("Done"), "done"),
        }
        out: list[tuple[str, Callable[[], Any], bool, str]] = []
        for b in self.ctl.screen_buttons(seat, face_up=self.face_up(seat)):
            label, name = words[b.call]
            out.append((label, partial(self.call, seat, b.call, b.arg), b.hot, name))
        return out

    def dismiss_banner(self) -> None:
        self.banner = ""
