"""The gin table: a panel per seat along its edge, the stock, the discard pile, the knock card.

A view over ``MatchState`` with no rules of its own: what a seat may do comes from
``engine.legal_actions``; every call (arcade button, touch, on-screen button) becomes one of
those actions and goes through ``app.match.submit``. Touch the stock or press DRAW to draw;
touch the pile to take the discard (G-5.1); touch a card to pick it, touch it again to
discard; KNOCK then touch the discard to knock (G-7). Hands are face down until the owner
holds his panel (privacy = peek) or face up for practice (privacy = open).
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from display import cardart, theme
from display.gin_text import card_name, event_text, phase_hint
from display.i18n import _, ngettext
from display.layout import SeatPanel, centre_area, hand_rects, seat_panels, visible_part
from display.scenes.base import Target
from display.scenes.table_base import PEEK_SECONDS, TableScene
from rummy.actions import Action
from rummy.cards import Card
from rummy.gin.melds import best_discard, best_melds
from rummy.gin.state import HandPhase

ANIM_SECONDS = 0.25


@dataclass
class SeatUI:
    """Per-seat touch state (not game state)."""

    revealed_until: float = 0.0
    selected: Card | None = None
    mode: str = ""  # "" | "knock" (KNOCK pressed, pick the discard) | "take" (G-13.3)
    flash: str = ""
    flash_until: float = 0.0


@dataclass
class Anim:
    card: Card | None
    face_up: bool
    src: pygame.Rect
    dst: pygame.Rect
    t0: float


class GinTableScene(TableScene):
    name = "gin_table"
    LAMPS = {"draw": frozenset({"draw_stock", "pass_upcard", "decline"}),
             "knock": frozenset({"knock", "big_gin", "take_and_knock", "accept_knock"})}

    def __init__(self, app) -> None:
        super().__init__(app)
        self.ui = {0: SeatUI(), 1: SeatUI()}
        self.banner = ""
        self.banner_until = 0.0
        self.anims: list[Anim] = []
        self._bg: pygame.Surface | None = None
        self.hand_screen_rects: dict[int, list[pygame.Rect]] = {0: [], 1: []}
        self._panel_cache: dict[int, tuple] = {}
        self._static: pygame.Surface | None = None
        self._static_key_v: tuple = ()
        self._static_targets: list[Target] = []
        self._anim_rects: list[pygame.Rect] = []
        self._locals: dict[int, pygame.Surface] = {}
        self._deal_anim_at: float | None = None
        self._hands: dict[int, tuple] = {}

    def exit(self) -> None:
        super().exit()
        self._panel_cache.clear()
        self._locals.clear()
        self._hands.clear()
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

    # -- calls --------------------------------------------------------------------------------
    def submit(self, seat: int, action: Action) -> None:
        refusal = self.m.submit(action)
        ui = self.ui[seat]
        ui.selected, ui.mode = None, ""
        if refusal:
            self.flash(seat, refusal)
            return
        if action.kind in ("discard", "knock", "take_and_knock", "big_gin"):
            ui.revealed_until = 0.0  # the turn is over: hide the hand again
        self.dirty = True

    def find(self, seat: int, kind: str, card: Card | None = None) -> Action | None:
        for a in self.legal(seat):
            if a.kind == kind and (card is None or a.card == card):
                return a
        return None

    def not_your_turn(self, seat: int) -> None:
        if seat in self.m.to_act():
            return
        self.flash(seat, _("Not your turn: wait for {name}").format(
            name=self.m.name(self.m.to_act()[0])) if self.m.to_act() else _("Wait"))

    def call_draw(self, seat: int) -> None:
        """DRAW: take the stock; in the first turn pass the upcard (G-4); decline (G-13.3)."""
        for kind in ("draw_stock", "pass_upcard", "decline", "refuse_knock", "done_laying_off"):
            a = self.find(seat, kind)
            if a is not None:
                self.submit(seat, a)
                return
        if self.ui[seat].mode:
            self.ui[seat].mode = ""
            self.dirty = True
            return
        self.not_your_turn(seat) if seat not in self.m.to_act() else self.flash(seat, phase_hint(self, seat))

    def call_knock(self, seat: int) -> None:
        """KNOCK, then touch the discard (G-7.3). Pressed again with Big Gin open: Big Gin (G-10)."""
        h = self.hand
        if seat not in self.m.to_act() or h is None:
            self.not_your_turn(seat)
            return
        ui = self.ui[seat]
        big = self.find(seat, "big_gin")
        if h.phase is HandPhase.DISCARD:
            if ui.mode == "knock" and big is not None:
                self.submit(seat, big)
                return
            ui.mode = "" if ui.mode == "knock" else "knock"
            if ui.mode == "knock" and ui.selected is not None:
                self.pick_card(seat, ui.selected)
                return
            self.dirty = True
        elif h.phase is HandPhase.LAST_CHANCE and self.find(seat, "take_and_knock"):
            ui.mode = "take"
            self.dirty = True
        elif self.find(seat, "accept_knock"):
            self.submit(seat, self.find(seat, "accept_knock"))
        else:
            self.flash(seat, phase_hint(self, seat))

    def touch_pile(self) -> None:
        """The discard pile: take the upcard (G-4) or the discard (G-5.1); with a card picked,
        discard it; in the last-chance turn, take it to knock (G-13.3)."""
        if not self.m.to_act():
            return
        seat = self.m.to_act()[0]
        if not self.m.is_human(seat):
            return
        ui = self.ui[seat]
        for kind in ("take_upcard", "draw_discard"):
            a = self.find(seat, kind)
            if a is not None:
                self.submit(seat, a)
                return
        if self.hand.phase is HandPhase.LAST_CHANCE and self.find(seat, "take_and_knock"):
            ui.mode = "take"
            self.flash(seat, _("Now touch the card you knock with"))
            return
        if ui.selected is not None:
            self.pick_card(seat, ui.selected, confirm=True)

    def touch_stock(self) -> None:
        if self.m.to_act() and self.m.is_human(self.m.to_act()[0]):
            seat = self.m.to_act()[0]
            a = self.find(seat, "draw_stock")
            if a is not None:
                self.submit(seat, a)
            else:
                self.flash(seat, phase_hint(self, seat))

    def pick_card(self, seat: int, card: Card, *, confirm: bool = False) -> None:
        """A touch on one of the seat's own cards."""
        ui = self.ui[seat]
        if not self.face_up(seat):
            self.flash(seat, _("Hold your cards to look at them"))
            return
        ui.revealed_until = self.now + PEEK_SECONDS
        if seat not in self.m.to_act():
            self.not_your_turn(seat)
            return
        h = self.hand
        if ui.mode == "knock":
            a = self.find(seat, "knock", card)
            self.submit(seat, a if a is not None else Action("knock", seat, card=card))  # G-8: the engine judges
            return
        if ui.mode == "take" or h.phase is HandPhase.LAST_CHANCE:
            a = self.find(seat, "take_and_knock", card)
            if a is None:
                self.flash(seat, _("You cannot knock by discarding {card}").format(card=card_name(card)))
            else:
                self.submit(seat, a)
            return
        if h.phase is HandPhase.LAYOFF and self.find(seat, "lay_off", card):
            self.submit(seat, self.find(seat, "lay_off", card))
            return
        if h.phase is not HandPhase.DISCARD:
            self.flash(seat, phase_hint(self, seat))
            return
        if ui.selected == card or confirm:
            a = self.find(seat, "discard", card)
            if a is None:
                self.flash(seat, _("You took {card} from the pile: discard another card").format(
                    card=card_name(card)))  # G-5.3
                ui.selected = None
            else:
                self.submit(seat, a)
            return
        ui.selected = card
        self.dirty = True

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

    def hide_hand(self, ui: SeatUI) -> None:
        ui.selected, ui.mode = None, ""

    def _on_change(self) -> None:
        self._version = self.m.version
        self.dirty = True
        for ev in self.m.events:
            text = event_text(self.m, ev)
            if text:
                self.centre_msg = text
            if ev.kind == "illegal_knock":
                self.banner = _("Illegal knock by {name}: {count} is over the limit of {limit}. His cards "
                                "stay face up and he must knock as soon as he can.").format(
                    name=self.m.name(ev.seat), count=ev.data.get("count"), limit=self.hand.knock_limit)
                self.banner_until = self.now + 8.0
            self._animate(ev)
        if self.m.message:
            seat = self.m.to_act()[0] if self.m.to_act() else 0
            self.flash(seat, self.m.message)

    def _animate(self, ev) -> None:
        if ev.kind == "dealt" and not self.app.headless:
            self._deal_anim_at = self.now  # started at the next draw, when the rects are known
            return
        if ev.kind not in ("drew", "discarded", "upcard_taken") or ev.seat not in (0, 1) or self.app.headless:
            return
        hand = self.hand_screen_rects.get(ev.seat) or []
        target = hand[len(hand) // 2] if hand else self.stock_rect
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
        reuse = self._static is not None and self._static_key_v == key and theme.TEXT_LOG is None
        if reuse:
            dirty = [r for r in self._anim_rects]
            for r in dirty:
                surf.blit(self._static, r, r)
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

    def _draw_centre(self, surf: pygame.Surface, area: pygame.Rect) -> None:
        h = self.hand
        if h is None:
            return
        narrow = area.width < 2.2 * area.height  # portrait: texts above and below the cards
        if narrow:
            info_h = int(area.height * 0.26)
            cards_area = pygame.Rect(area.left, area.top + info_h, area.width, area.height - 2 * info_h)
        else:
            cards_area = area
        card_h = int(min(cards_area.height * 0.72, area.width * 0.22))
        cw, ch = cardart.card_size_for_height(card_h)
        mid_y = cards_area.centery - ch // 2 - int(ch * 0.08)
        self.stock_rect = pygame.Rect(area.centerx - cw - cw // 4, mid_y, cw, ch)
        self.pile_rect = pygame.Rect(area.centerx + cw // 4, mid_y, cw, ch)
        pile_outline = None
        seat = self.m.to_act()[0] if self.m.to_act() else None
        if seat is not None and (self.find(seat, "draw_discard") or self.find(seat, "take_upcard")):
            pile_outline = cardart.HINT
        self.draw_piles(surf, len(h.stock), h.top_discard, pile_outline)
        label_h = max(14, int(ch * 0.16))
        theme.draw_text(surf, _("Stock: {n}").format(n=len(h.stock)),
                        pygame.Rect(self.stock_rect.left - cw // 4, self.stock_rect.bottom + 2, cw + cw // 2, label_h),
                        size=label_h, colour=theme.INK_DIM)
        theme.draw_text(surf, _("Discard"),
                        pygame.Rect(self.pile_rect.left - cw // 4, self.pile_rect.bottom + 2, cw + cw // 2, label_h),
                        size=label_h, colour=theme.INK_DIM)
        # Left (or above): the knock limit and the knock card (G-6). Right (or below): scores.
        if narrow:
            left = pygame.Rect(area.left + 8, area.top + 4, area.width - 16, info_h - 8)
            right = pygame.Rect(area.left + 8, area.bottom - info_h + 4, area.width - 16, info_h - 8)
        else:
            side_w = max(0, (area.width - 2 * (cw + cw // 4) - cw) // 2)
            left = pygame.Rect(area.left + 8, area.top + 6, side_w - 8, area.height - 12)
            right = pygame.Rect(self.pile_rect.right + cw // 2, area.top + 6,
                                area.right - self.pile_rect.right - cw // 2 - 8, area.height - 12)
        line = max(16, min(int(area.height * 0.16), left.height // 4))
        if self.app.settings.layout == "flat":
            # a flat table: the same summary twice, each block turned to the player nearest it
            near0, near1 = (right, left) if narrow else (left, right)
            lines = self._info_lines()
            self._draw_info(surf, near0, lines, 0)
            self._draw_info(surf, near1, lines, 180)
            return
        limit_text, card_text, hand_text = self._limit_lines()
        row = pygame.Rect(left.left, left.top, left.width, line)
        size = theme.common_size([limit_text, card_text, hand_text], row, int(line * 0.8), bold=True)
        theme.draw_text(surf, limit_text, row, size=size, bold=True, colour=theme.GOLD, align="left")
        if card_text:
            theme.draw_text(surf, card_text, row.move(0, line), size=size, align="left")
        theme.draw_text(surf, hand_text, row.move(0, 2 * line), size=size, align="left", colour=theme.INK_DIM)
        if self.centre_msg:
            theme.draw_text(surf, self.centre_msg, pygame.Rect(left.left, left.bottom - line, left.width, line),
                            size=size, align="left", colour=theme.INK)
        self._draw_scores(surf, right, line)

    def _limit_lines(self) -> tuple[str, str, str]:
        """The knock limit (G-6), the knock card in knock-card mode (G-6.2), the hand number."""
        h = self.hand
        limit = _("Gin only: no knocking") if h.knock_limit == 0 else _("Knock with {n} or less").format(
            n=h.knock_limit)
        card = (_("Knock card: {card}").format(card=card_name(h.upcard))
                if self.m.state.rules.knock_limit_mode == "knock_card" else "")
        return limit, card, _("Hand {n}").format(n=self.m.state.hand_number)

    def _score_lines(self) -> tuple[str, list[str]]:
        st = self.m.state
        title = _("Game {g} · to {t}").format(g=st.game_number, t=st.rules.game_target)
        lines = [ngettext("{name}: {points} ({boxes} box)", "{name}: {points} ({boxes} boxes)", st.boxes[seat])
                 .format(name=self.m.name(seat), points=st.scores[seat], boxes=st.boxes[seat]) for seat in (0, 1)]
        if st.rules.match == "best_of":
            lines.append(_("Games won: {a} – {b}").format(a=st.games_won[0], b=st.games_won[1]))
        return title, lines

    def _info_lines(self) -> list[tuple[str, tuple, bool]]:
        limit, card, _hand = self._limit_lines()
        title, scores = self._score_lines()
        out = [(limit, theme.GOLD, True)]
        if card:
            out.append((card, theme.INK, False))
        out.append((title, theme.GOLD, True))
        out += [(t, theme.INK, False) for t in scores]
        if self.centre_msg:
            out.append((self.centre_msg, theme.INK_DIM, False))
        return out

    def _draw_info(self, surf: pygame.Surface, box: pygame.Rect, lines, angle: int) -> None:
        """Summary lines in ``box``, turned by ``angle`` (0 or 180) to face a seat (each line
        drawn turned: no work surface to fill and flip)."""
        from display.layout import rotate_rect

        if box.width <= 0 or box.height <= 0:
            return
        line = min(box.height // max(1, len(lines)), max(16, int(box.height * 0.2)))
        row = pygame.Rect(0, 0, box.width, line)
        # one size for the summary; the last move's line (dim) shrinks on its own if it is long
        size = theme.common_size([t for t, c, _b in lines if c != theme.INK_DIM], row, int(line * 0.8), bold=True)
        for i, (text, colour, bold) in enumerate(lines):
            r = rotate_rect(row.move(0, i * line), box.size, angle).move(box.topleft)
            theme.draw_text(surf, text, r, size=size, colour=colour, bold=bold,
                            align="right" if angle == 180 else "left", turned=angle == 180)

    def _draw_scores(self, surf: pygame.Surface, box: pygame.Rect, line: int) -> None:
        title, lines = self._score_lines()
        row = pygame.Rect(box.left, box.top, box.width, line)
        size = theme.common_size([title, *lines], row, int(line * 0.8), bold=True)
        theme.draw_text(surf, title, row, size=size, align="right", colour=theme.GOLD, bold=True)
        for i, text in enumerate(lines):
            theme.draw_text(surf, text, row.move(0, (i + 1) * line), size=size, align="right",
                            colour=theme.INK if i < 2 else theme.INK_DIM)

    # -- a seat's panel -------------------------------------------------------------------
    def _panel_key(self, p: SeatPanel) -> tuple:
        """Everything a seat's panel shows: it is redrawn only when this changes."""
        seat, ui, h = p.seat, self.ui[p.seat], self.hand
        hand = (tuple(h.hands[seat]), h.dealer) if h is not None else ()
        kinds = tuple(sorted({a.kind for a in self.legal(seat)}))
        return (p.rect.topleft, p.rect.size, p.angle, hand, ui.selected, ui.mode, ui.flash,
                self.face_up(seat), self._settings_key(), tuple(self.m.to_act()), kinds,
                phase_hint(self, seat), self.m.name(seat))

    def _draw_panel(self, surf: pygame.Surface, p: SeatPanel, dirty: list[pygame.Rect]) -> None:
        """Draw a seat's panel when what it shows changed (a full redraw reuses the turned
        surface)."""
        key = self._panel_key(p)
        self.region(("panel", p.seat), key, p.rect, lambda: self._blit_panel(surf, p, key), dirty)

    def _blit_panel(self, surf: pygame.Surface, p: SeatPanel, key: tuple) -> None:
        cached = self._panel_cache.get(p.seat)
        if cached is not None and cached[0] == key and cached[1] is not None and theme.TEXT_LOG is None:
            _key, turned, targets, rects = cached
            surf.blit(turned, p.rect)
            self.targets += targets
            self.hand_screen_rects[p.seat] = rects
            return
        before = len(self.targets)
        turned = self._render_panel(surf, p)
        mine = self.targets[before:]
        self._panel_cache[p.seat] = (key, turned, mine, self.hand_screen_rects[p.seat])

    def _render_panel(self, surf: pygame.Surface, p: SeatPanel) -> pygame.Surface | None:
        """Draw a seat's panel; returns its turned surface (None: drawn straight onto ``surf``)."""
        seat = p.seat
        w, d = p.local_size
        if p.angle == 0:
            local = surf.subsurface(p.rect)  # upright: no work surface to copy
        else:
            local = self._locals.get(seat)
            if local is None or local.get_size() != (w, d):
                local = self._locals[seat] = pygame.Surface((w, d)).convert()
        mark = self.log_mark()
        h = self.hand
        active = bool(self.m.to_act()) and self.m.to_act()[0] == seat
        header = pygame.Rect(8, 4, w - 16, max(22, int(d * 0.2)))
        local.fill(theme.PANEL)
        if active:  # the seat to play: a lit header and a gold frame
            local.fill(theme.PANEL_ACTIVE, (0, 0, w, header.bottom + 2))
        ui = self.ui[seat]
        name = self.m.name(seat) + ("  · " + _("dealer") if h is not None and h.dealer == seat else "")
        theme.draw_text(local, name, pygame.Rect(header.left, header.top, int(header.width * 0.3), header.height),
                        bold=True, align="left", colour=theme.GOLD if active else theme.INK)
        status = ui.flash or phase_hint(self, seat)
        theme.draw_text(local, status, pygame.Rect(header.left + int(header.width * 0.3), header.top,
                                                   int(header.width * 0.7), header.height),
                        align="right", colour=theme.WARN if ui.flash else theme.INK)
        buttons = self._panel_buttons(seat)
        col_w = max(self.touch * 2, int(w * 0.19))
        body = pygame.Rect(8, header.bottom + 4, w - 16 - col_w - 8, d - header.bottom - 8)
        cards = list(h.hands[seat]) if h is not None else []
        up = self.face_up(seat)
        order, suggest, dead_text, groups = self._arrangement(cards) if up else (cards, None, "", [])
        raise_px = max(6, body.height // 10)
        # the deadwood line sits under the header, left of the buttons
        if dead_text:
            info = pygame.Rect(body.left, body.top, body.width, max(16, int(body.height * 0.16)))
            theme.draw_text(local, dead_text, info, align="left", colour=theme.INK_DIM)
            body = pygame.Rect(body.left, info.bottom, body.width, body.bottom - info.bottom)
        rects = hand_rects(body, len(order), body.height, min_strip=self.touch, raise_px=raise_px)
        selected = ui.selected if up else None
        lifted = [r.move(0, -raise_px) if card == selected else r for card, r in zip(order, rects, strict=True)]
        self._blit_hand(local, seat, body, order, lifted, up, selected, suggest, groups, rects, raise_px)
        if active:
            pygame.draw.rect(local, theme.GOLD, local.get_rect(), max(3, d // 40))
        screen_rects = [p.to_screen(r) for r in lifted]
        self.hand_screen_rects[seat] = screen_rects
        # the call buttons column
        col = pygame.Rect(w - 8 - col_w, header.bottom + 4, col_w, d - header.bottom - 10)
        if buttons:
            bh = max(self.touch, min(int(col.height / len(buttons)) - 6, int(d * 0.3)))
            for i, (label, fn, hot, bname) in enumerate(buttons):
                r = pygame.Rect(col.left, col.top + i * (bh + 6), col.width, bh)
                t = self.button(local, r, label, fn, hot=hot, name=f"{bname}-{seat}", seat=seat)
                t.rect = p.to_screen(t.rect)
        self.map_log(mark, p.to_screen)  # texts recorded in local coordinates, on the screen
        turned = None
        if p.angle:
            turned = self.turn(local, p.angle)
            surf.blit(turned, p.rect)
        self.panel_targets(p, [(visible_part(rects, i), card) for i, card in enumerate(order)], self.pick_card)
        return turned

    def _blit_hand(self, local, seat, body, order, lifted, up, selected, suggest, groups, rects, raise_px) -> None:
        """The hand as one cached layer: only the seat whose cards changed is redrawn."""
        key = (tuple(order), up, selected, suggest, tuple(groups), body.size, tuple(map(tuple, lifted)),
               self.app.settings.four_colour)
        cached = self._hands.get(seat)
        if cached is None or cached[0] != key:
            layer = cached[1] if cached is not None and cached[1].get_size() == body.size else \
                pygame.Surface(body.size).convert()
            layer.fill(theme.PANEL)
            origin = (-body.left, -body.top)
            for card, r in zip(order, lifted, strict=True):
                outline = cardart.SELECT if card == selected else (cardart.HINT if up and card == suggest else None)
                layer.blit(cardart.card_surface(card, r.size, face_up=up, four_colour=self.app.settings.four_colour,
                                                outline=outline), r.move(origin))
            for g_start, g_len in groups:
                if g_start + g_len <= len(rects):
                    a, b = rects[g_start].move(origin), rects[g_start + g_len - 1].move(origin)
                    y = a.top - max(3, raise_px // 2)  # a bar over each suggested meld
                    pygame.draw.line(layer, theme.GOLD, (a.left + 4, y), (b.right - 4, y), max(3, raise_px // 3))
            cached = self._hands[seat] = (key, layer)
        local.blit(cached[1], body)

    def _arrangement(self, cards: list[Card]):
        """Suggested order: melds, then deadwood (G-2.4); with 11 cards the suggested discard last."""
        if not cards:
            return cards, None, "", []
        suggest = None
        if len(cards) == 11:
            suggest, melds, dead = best_discard(cards)
        else:
            melds, dead = best_melds(cards)
        order: list[Card] = []
        groups = []
        for meld in melds:
            groups.append((len(order), len(meld)))
            order += sorted(meld, key=lambda c: (c.suit, c.rank))
        order += sorted(dead, key=lambda c: (c.rank, c.suit))
        if suggest is not None:
            order.append(suggest)
        count = sum(c.value for c in dead)
        if suggest is not None:
            text = _("Deadwood {n} after discarding {card}").format(n=count, card=card_name(suggest))
        else:
            text = _("Deadwood {n}").format(n=count)
        return order, suggest, text, groups

    def _panel_buttons(self, seat: int):
        """On-screen call buttons for what the seat may do now (from legal_actions)."""
        legal = self.legal(seat)
        kinds = {a.kind for a in legal}
        ui = self.ui[seat]
        out = []
        if "take_upcard" in kinds:
            out.append((_("Take"), self.touch_pile, True, "take"))
        if "pass_upcard" in kinds:
            out.append((_("Pass"), lambda: self.call_draw(seat), False, "pass"))
        if "draw_stock" in kinds:
            out.append((_("Draw"), lambda: self.call_draw(seat), True, "draw"))
        h = self.hand
        if h is not None and h.phase is HandPhase.DISCARD and legal:
            if "big_gin" in kinds:
                out.append((_("Big Gin!"), lambda: self.submit(seat, self.find(seat, "big_gin")), True, "big_gin"))
            label = _("Cancel knock") if ui.mode == "knock" else _("Knock")
            out.append((label, lambda: self.call_knock(seat), "knock" in kinds and ui.mode != "knock", "knock"))
        if "take_and_knock" in kinds:
            out.append((_("Take and knock"), lambda: self.call_knock(seat), True, "take_and_knock"))
        if "decline" in kinds:
            out.append((_("Decline"), lambda: self.call_draw(seat), False, "decline"))
        if "accept_knock" in kinds:
            out.append((_("Accept knock"), lambda: self.submit(seat, self.find(seat, "accept_knock")), True,
                        "accept"))
            out.append((_("Refuse"), lambda: self.submit(seat, self.find(seat, "refuse_knock")), False, "refuse"))
        if "done_laying_off" in kinds:
            out.append((_("Done"), lambda: self.submit(seat, self.find(seat, "done_laying_off")), True, "done"))
        return out[:3]
