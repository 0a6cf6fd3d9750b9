"""The gin table: a panel per seat along its edge, the stock, the discard pile, the knock card.

A view over ``MatchState`` with no rules of its own: every call (arcade button, touch,
on-screen button) goes to the match's table controller (:mod:`display.controller.gin`),
which makes it an engine action and lights the lamps. Touch the stock or press DRAW to draw;
touch the pile to take the discard (G-5.1); touch a card to pick it, touch it again to
discard; KNOCK then touch the discard to knock (G-7). Hands are face down until the owner
holds his panel (privacy = peek) or face up for practice (privacy = open).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pygame

from display import cardart, theme
from display.controller import Call, TableController
from display.controller.gin import GinInput
from display.gin_text import event_text
from display.i18n import _
from display.layout import SeatPanel, centre_area, seat_panels
from display.scenes.base import Target
from display.scenes.gin_centre import GinCentre
from display.scenes.gin_panel import GinPanels
from display.scenes.table_base import PEEK_SECONDS, TableScene
from rummy.actions import Action
from rummy.cards import Card
from rummy.gin.state import HandPhase

ANIM_SECONDS = 0.25


@dataclass
class SeatUI:
    """Per-seat touch state (not game state). The picked card and the mode ("" | "knock":
    KNOCK pressed, pick the discard | "take": G-13.3) are the table controller's."""

    ctl: TableController
    seat: int
    revealed_until: float = 0.0
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


class GinTableScene(GinCentre, GinPanels, TableScene):
    name = "gin_table"

    def __init__(self, app) -> None:
        super().__init__(app)
        self.ui = {s: SeatUI(self.ctl, s) for s in (0, 1)}
        self.banner = ""
        self.banner_until = 0.0
        self.anims: list[Anim] = []
        self._bg: pygame.Surface | None = None
        self.hand_screen_rects: dict[int, list[pygame.Rect]] = {0: [], 1: []}
        self._static: pygame.Surface | None = None
        self._static_key_v: tuple = ()
        self._static_targets: list[Target] = []
        self._anim_rects: list[pygame.Rect] = []
        self._deal_anim_at: float | None = None
        self._hands: dict[int, tuple] = {}
        self._hand_shown: dict[int, tuple] = {}  # seat -> (hand layer key, screen rect) last blitted

    def exit(self) -> None:
        super().exit()
        self._hands.clear()
        self._hand_shown.clear()
        self._static = None
        self._static_targets = []

    def invalidate(self) -> None:
        super().invalidate()
        self._static_key_v = ()

    # -- state shortcuts ------------------------------------------------------------------
    @property
    def hand(self):
        return self.m.state.hand

    def face_up(self, seat: int) -> bool:
        h = self.hand
        if h is None:
            return False
        if h.phase is HandPhase.OVER or h.exposed[seat]:  # G-8.2: an illegal knocker's hand is open
            return True
        if not self.m.is_human(seat):
            return False
        return self.app.settings.privacy == "open" or self.ui[seat].revealed_until > self.now

    @property
    def busy(self) -> bool:
        return bool(self.anims)

    def screenshot_name(self) -> str | None:
        h = self.hand
        if h is not None and len(h.stock) <= 24 and h.phase is HandPhase.DRAW and not self.anims:
            return "gin_table"
        return None

    # -- calls (what each does is the table controller's, display.controller.gin) --------------
    def pick_card(self, seat: int, card: Card) -> None:
        """A touch on one of the seat's own cards (it keeps a peeked hand showing)."""
        if self.face_up(seat):
            self.ui[seat].revealed_until = self.now + PEEK_SECONDS
        self.call(seat, Call.CARD, card)

    def after_submit(self, seat: int, action: Action) -> None:
        if action.kind in ("discard", "knock", "take_and_knock", "big_gin"):
            self.ui[seat].revealed_until = 0.0  # the turn is over: hide the hand again

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
        self.update_lamps()

    def event_text(self, ev) -> str:
        return event_text(self.m, ev)

    def on_event(self, ev) -> None:
        if ev.kind == "illegal_knock":  # G-8
            self.banner = _("Illegal knock by {name}: {count} is over the limit of {limit}. His cards "
                            "stay face up and he must knock as soon as he can.").format(
                name=self.m.name(ev.seat), count=ev.data.get("count"), limit=self.hand.knock_limit)
            self.banner_until = self.now + 8.0
        self._animate(ev)

    def _animate(self, ev) -> None:
        if ev.kind == "dealt" and not self.app.headless:
            self._deal_anim_at = self.now  # started at the next draw, when the rects are known
            return
        if ev.kind not in ("drew", "discarded", "upcard_taken") or ev.seat not in (0, 1) or self.app.headless:
            return
        hand = self.hand_screen_rects.get(ev.seat) or []
        target = hand[len(hand) // 2] if hand else self.stock_rect
        card: Card | None
        if ev.kind == "discarded":
            src, dst = target, self.pile_rect
            card, up = Card.parse(ev.data["card"]), True
        else:
            from_pile = ev.kind == "upcard_taken" or ev.data.get("pile") == "discard"
            src, dst = (self.pile_rect if from_pile else self.stock_rect), target
            card, up = (Card.parse(ev.data["card"]), True) if from_pile else (None, False)
        if src.width and dst.width:
            self.anims.append(Anim(card, up, pygame.Rect(src), pygame.Rect(dst.topleft, src.size), self.now))

    # -- drawing ------------------------------------------------------------------------------
    def panels(self) -> list[SeatPanel]:
        w, h = self.size
        return seat_panels(self.size, 2, layout=self.app.settings.layout, depth=0.31 * max(1.0, h / w * 0.85))

    def background(self) -> pygame.Surface:
        if self._bg is None or self._bg.get_size() != self.size:
            self._bg = pygame.Surface(self.size).convert()
            self._bg.fill(theme.FELT)
        return self._bg

    def _static_key(self) -> tuple:
        return (self.size, self.m.version, self._settings_key(), self.banner, self.centre_msg,
                tuple((u.revealed_until, u.selected, u.mode, u.flash) for u in self.ui.values()),
                tuple(self.m.to_act()))

    def draw(self, surf: pygame.Surface):
        """The table is composed once per change; animation frames redraw only their rects."""
        key = self._static_key()
        static = self._static
        dirty: list[pygame.Rect] | None
        if static is not None and self._static_key_v == key and theme.TEXT_LOG is None:
            dirty = [r for r in self._anim_rects]
            for r in dirty:
                surf.blit(static, r, r)
            self.targets = list(self._static_targets)
        else:
            full = self.begin_frame(surf)
            dirty = []
            if not full and self._static is not None:
                for r in self._anim_rects:  # what the moving cards covered in the last frame
                    surf.blit(self._static, r, r)
                dirty += self._anim_rects
            self._compose(surf, dirty)
            if self._deal_anim_at is not None:
                self._start_deal_animation()
            self._static_key_v = key
            self._static_targets = list(self.targets)
            if self.anims or self._static is not None and self._static.get_size() == self.size:
                # kept to restore what a moving card uncovers
                if self._static is None or self._static.get_size() != self.size:
                    self._static = pygame.Surface(self.size).convert()
                    full = True
                for r in [self._static.get_rect()] if full else dirty:
                    self._static.blit(surf, r, r)
            dirty = None if full else dirty
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
        if dirty is not None:
            dirty += self._anim_rects
        return dirty

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

    def _compose(self, surf: pygame.Surface, dirty: list[pygame.Rect]) -> None:
        """Redraw the centre and each panel only when what it shows changed."""
        panels = self.panels()
        centre = centre_area(self.size, panels)
        key = (self.m.version, self.centre_msg, self.banner, self._settings_key(), tuple(self.m.to_act()))
        self.region("centre", key, centre, lambda: self._draw_centre_and_banner(surf, centre), dirty)
        for p in panels:
            self._draw_panel(surf, p, dirty)

    def _draw_centre_and_banner(self, surf: pygame.Surface, centre: pygame.Rect) -> None:
        surf.fill(theme.FELT, centre)  # the panels cover the rest
        self._draw_centre(surf, centre)
        if self.banner:
            box = pygame.Rect(centre.left + centre.width // 12, centre.top + 4, centre.width * 10 // 12,
                              centre.height - 8)
            pygame.draw.rect(surf, (120, 30, 30), box, border_radius=12)
            theme.draw_paragraph(surf, self.banner, box.inflate(-24, -12), size=max(16, box.height // 6))
            self.targets.append(Target(box, "banner", self._dismiss_banner))

    def _dismiss_banner(self) -> None:
        self.banner = ""

    # -- a seat's panel -------------------------------------------------------------------






