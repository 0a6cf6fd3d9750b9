"""What the gin and contract tables share: per-seat touch state (peek, flashes), the
notice area, and drawing by regions (a seat panel or the centre is redrawn only when what
it shows changed; the rest of the screen is left as it is and reported clean).

A subclass keeps ``self.ui`` (seat -> an object with ``revealed_until``, ``flash`` and
``flash_until``), overrides :meth:`hide_hand` to drop picked cards when a hand hides again,
and draws each region through :meth:`region`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from display import cardart, theme
from display.i18n import _
from display.layout import SeatPanel, centre_area
from display.scenes.base import Scene, Target

PEEK_SECONDS = 12.0  # a revealed hand hides again after this long without a touch
FLASH_SECONDS = 3.0
TIMER_POLL_S = 0.05


class TableScene(Scene):
    """Base of the game tables (see the module docstring)."""

    #: lamp -> the action kinds that light it (a seat's lamps follow its legal calls)
    LAMPS: dict[str, frozenset[str]] = {}

    def __init__(self, app) -> None:
        super().__init__(app)
        self.now = app.clock()
        self.hold_seconds = 0.5
        self.ui: dict[int, Any] = {}
        self.centre_msg = ""  # the last move in words
        self.stock_rect = pygame.Rect(0, 0, 0, 0)
        self.pile_rect = pygame.Rect(0, 0, 0, 0)
        self._version = -1
        self._lamps_key: object = None
        self._regions: dict[object, tuple[object, list[Target]]] = {}
        self._drawn_on: pygame.Surface | None = None
        self._drawn_size: tuple[int, int] = (0, 0)
        self._full = True

    # -- state shortcuts ------------------------------------------------------------------
    @property
    def m(self):
        return self.app.match

    def legal(self, seat: int) -> list:
        return self.m.legal(seat) if self.m.is_human(seat) else []

    def panels(self) -> list[SeatPanel]:  # pragma: no cover - every table overrides it
        raise NotImplementedError

    def notice_area(self) -> pygame.Rect:
        return centre_area(self.size, self.panels())

    # -- seat touch state -----------------------------------------------------------------
    def flash(self, seat: int, text: str) -> None:
        """A short message in the seat's status line (refusals, hints)."""
        ui = self.ui[seat]
        ui.flash, ui.flash_until = text, self.now + FLASH_SECONDS
        self.dirty = True

    def reveal(self, seat: int) -> None:
        """Hold-to-peek: show a human seat's cards for ``PEEK_SECONDS``."""
        if self.m.is_human(seat):
            self.ui[seat].revealed_until = self.now + PEEK_SECONDS
            self.dirty = True

    def _tap_panel(self, seat: int) -> None:
        if self.m.is_human(seat) and not self.face_up(seat):
            self.flash(seat, _("Hold your cards to look at them"))

    def face_up(self, seat: int) -> bool:  # pragma: no cover - every table overrides it
        raise NotImplementedError

    def on_button(self, event) -> None:
        """An arcade button: ``call_draw`` / ``call_knock`` / ``call_buy`` of the seat."""
        if event.edge != "press" or not 0 <= event.seat < len(self.m.seats):
            return
        handler = getattr(self, f"call_{event.call}", None)
        if handler is not None:
            handler(event.seat)
        self.dirty = True

    def next_due(self, now: float) -> float | None:
        """A table looks at its timers (peeks, flashes, computer players, the answer's
        countdown) twenty times a second."""
        return now + TIMER_POLL_S

    def update(self, now: float) -> None:
        """Timers; a new state from the match is taken in by ``_on_change``."""
        self.now = now
        super().update(now)
        if self.m.version != self._version:
            self._on_change()
        self.expire_ui(now)

    def _on_change(self) -> None:
        """The match changed: the last move in words, then :meth:`on_event` for each event
        and :meth:`after_change`."""
        self._version = self.m.version
        self.dirty = True
        for ev in self.m.events:
            text = self.event_text(ev)
            if text:
                self.centre_msg = text
            self.on_event(ev)
        self.after_change()

    def event_text(self, ev) -> str:  # pragma: no cover - every table overrides it
        return ""

    def on_event(self, ev) -> None:
        """One event of the last change (banners, animations)."""

    def after_change(self) -> None:
        """After the events of a change were taken in."""

    def lamps_key(self) -> object:
        """The lamps are set again only when this changes."""
        return self.m.version

    def update_lamps(self) -> None:
        """Lamps follow the legal calls of each seat (:attr:`LAMPS`)."""
        key = self.lamps_key()
        if self._lamps_key == key:
            return
        self._lamps_key = key
        for seat in range(len(self.m.seats)):
            kinds = {a.kind for a in self.legal(seat)}
            self.app.hw.set_lamps(seat, **{lamp: bool(kinds & calls) for lamp, calls in self.LAMPS.items()})

    def hide_hand(self, ui: Any) -> None:
        """The hand hid again: drop what was picked (subclasses)."""

    def expire_ui(self, now: float) -> None:
        """Hide peeked hands and clear flashes whose time is up."""
        for ui in self.ui.values():
            if ui.revealed_until and ui.revealed_until <= now:
                ui.revealed_until = 0.0
                self.hide_hand(ui)
                self.dirty = True
            if ui.flash and ui.flash_until <= now:
                ui.flash = ""
                self.dirty = True

    # -- drawing by regions ---------------------------------------------------------------
    def invalidate(self) -> None:
        super().invalidate()
        self._full = True

    def exit(self) -> None:
        super().exit()
        self._regions.clear()
        self._drawn_on = None

    def begin_frame(self, surf: pygame.Surface) -> bool:
        """True when everything must be drawn (new surface or size, a text log, invalidated)."""
        full = (self._full or surf is not self._drawn_on or self._drawn_size != self.size
                or theme.TEXT_LOG is not None)
        self._full, self._drawn_on, self._drawn_size = False, surf, self.size
        if full:
            self._regions.clear()
        return full

    def region(self, name: object, key: object, rect: pygame.Rect, draw: Callable[[], Any],
               dirty: list[pygame.Rect]) -> bool:
        """Draw region ``name`` with ``draw()`` unless it still shows ``key``; its touch
        targets are kept either way. Returns True when it was drawn (``rect`` is then dirty)."""
        key = (key, tuple(rect))
        cached = self._regions.get(name)
        if cached is not None and cached[0] == key:
            self.targets += cached[1]
            return False
        before = len(self.targets)
        draw()
        self._regions[name] = (key, self.targets[before:])
        dirty.append(pygame.Rect(rect))
        return True

    def mark_region(self, name: object, key: object, rect: pygame.Rect) -> None:
        """Region ``name`` now shows ``key`` (drawn as part of another region)."""
        self._regions[name] = ((key, tuple(rect)), [])

    def _settings_key(self) -> tuple:
        return tuple(vars(self.app.settings).values())

    def draw_piles(self, surf: pygame.Surface, stock: int, top: Any, outline: Any = None) -> None:
        """The stock (up to three backs) at ``stock_rect`` and the discard pile's top card at
        ``pile_rect`` (an empty slot when there is none); both are touch targets."""
        size = self.stock_rect.size
        if stock:
            n = min(3, stock)
            surf.blit(_stock_stack(size, n), self.stock_rect.move(-2 * (n - 1), -2 * (n - 1)))
        else:
            surf.blit(cardart.empty_slot(size), self.stock_rect)
        if top is not None:
            surf.blit(cardart.card_surface(top, self.pile_rect.size, four_colour=self.app.settings.four_colour,
                                           outline=outline), self.pile_rect)
        else:
            surf.blit(cardart.empty_slot(self.pile_rect.size), self.pile_rect)
        t = self.touch
        for name, r, fn in (("stock", self.stock_rect, self.touch_stock), ("pile", self.pile_rect, self.touch_pile)):
            self.targets.append(Target(r.inflate(max(0, t - r.width), max(0, t - r.height)), name, fn))

    # -- a seat panel's last steps --------------------------------------------------------
    @staticmethod
    def log_mark() -> int:
        """Where the text log stands (to map a panel's texts to the screen afterwards)."""
        log = theme.TEXT_LOG
        return len(log) if log is not None else 0

    @staticmethod
    def map_log(mark: int, to_screen: Callable[[pygame.Rect], pygame.Rect]) -> None:
        """Texts recorded (in a panel's or box's local coordinates) since ``mark``, on screen."""
        log = theme.TEXT_LOG
        if log is None:
            return
        for j in range(mark, len(log)):
            r = log[j]
            log[j] = theme.TextRecord(r.text, to_screen(r.box), to_screen(r.drawn), r.fits)

    @staticmethod
    def turn(local: pygame.Surface, angle: int) -> pygame.Surface:
        """A panel drawn upright, turned to face its edge."""
        if angle == 180:
            return pygame.transform.flip(local, True, True)
        if angle:
            return pygame.transform.rotate(local, angle)
        return local

    def panel_targets(self, p: SeatPanel, cards: list[tuple[pygame.Rect, Any]],
                      pick: Callable[[int, Any], Any]) -> None:
        """Touch targets of a drawn panel: the whole panel (tap, hold to peek), each card
        (``(visible part in local coordinates, item)``; a touch calls ``pick(seat, item)``),
        then the panel's buttons, which were registered while drawing, on top."""
        seat = p.seat
        self.targets.append(Target(p.rect, f"panel-{seat}", lambda s=seat: self._tap_panel(s),
                                   hold=lambda s=seat: self.reveal(s), seat=seat))
        for r, item in cards:
            self.targets.append(Target(p.to_screen(r), f"card-{seat}-{item}", lambda s=seat, c=item: pick(s, c),
                                       hold=lambda s=seat: self.reveal(s), seat=seat))
        mine = [t for t in self.targets if t.seat == seat and not t.name.startswith(("panel-", "card-"))]
        self.targets = [t for t in self.targets if t not in mine] + mine


_STACKS: dict[tuple[tuple[int, int], int], pygame.Surface] = {}


def _stock_stack(size: tuple[int, int], n: int) -> pygame.Surface:
    """``n`` card backs stacked up and to the left, on the felt: one opaque blit instead of
    ``n`` blended ones (the stock always lies on the felt)."""
    key = (tuple(size), n)
    stack = _STACKS.get(key)
    if stack is None:
        if len(_STACKS) > 16:
            _STACKS.clear()
        off = 2 * (n - 1)
        stack = pygame.Surface((size[0] + off, size[1] + off)).convert()
        stack.fill(theme.FELT)
        back = cardart.card_surface(None, size, face_up=False)
        for i in range(n):
            stack.blit(back, (off - 2 * i, off - 2 * i))
        _STACKS[key] = stack
    return stack


_TURNED: dict[tuple[int, int], tuple[pygame.Surface, pygame.Surface]] = {}


def turned_copy(img: pygame.Surface, angle: int) -> pygame.Surface:
    """``img`` turned by ``angle`` (cached while ``img`` lives, e.g. a cached card face)."""
    got = _TURNED.get((id(img), angle))
    if got is None or got[0] is not img:
        if len(_TURNED) > 300:
            _TURNED.clear()
        got = _TURNED[(id(img), angle)] = (img, TableScene.turn(img, angle))
    return got[1]


class PanelPainter:
    """Draws a seat panel laid out upright (in its local coordinates) straight onto the
    screen: an upright panel on a subsurface; a turned panel piece by piece, each piece
    turned into place (texts and buttons from small cached copies), so no panel-sized work
    surface is filled, turned and copied."""

    def __init__(self, scene: TableScene, surf: pygame.Surface, p: SeatPanel) -> None:
        self.scene, self.p = scene, p
        self.turned = p.angle != 0
        self.surf = surf if self.turned else surf.subsurface(p.rect)
        self.mark = scene.log_mark()
        self.whole = pygame.Rect((0, 0), p.local_size)

    def at(self, r: pygame.Rect) -> pygame.Rect:
        """Where a local rect is drawn on :attr:`surf`."""
        return self.p.to_screen(r) if self.turned else pygame.Rect(r)

    def fill(self, colour, r: pygame.Rect | None = None) -> None:
        self.surf.fill(colour, self.at(self.whole if r is None else r))

    def frame(self, colour, width: int) -> None:
        pygame.draw.rect(self.surf, colour, self.at(self.whole), width)

    def text(self, text: str, box: pygame.Rect, **kw) -> None:
        if self.turned:
            theme.draw_text_turned(self.surf, text, box, self.p.to_screen, self.p.angle, **kw)
        else:
            theme.draw_text(self.surf, text, box, **kw)

    def paragraph(self, text: str, box: pygame.Rect, **kw) -> None:
        if self.turned:
            theme.draw_paragraph(self.surf, text, box, line=lambda s, t, b, offset=(0, 0), **k: self.text(t, b, **k),
                                 **kw)
        else:
            theme.draw_paragraph(self.surf, text, box, **kw)

    def blit(self, img: pygame.Surface, r: pygame.Rect) -> None:
        """``img`` (drawn upright) at local rect ``r``."""
        self.surf.blit(turned_copy(img, self.p.angle) if self.turned else img, self.at(r))

    def button(self, r: pygame.Rect, label: str, action, **kw) -> Target:
        """:meth:`Scene.button` at local rect ``r``; its target is in screen coordinates."""
        scene = self.scene
        if not self.turned:
            t = scene.button(self.surf, r, label, action, **kw)
            t.rect = self.p.to_screen(t.rect)
            return t
        drop = max(2, r.height // 16)  # the button's shadow below it
        key = (label, r.size, kw.get("hot", False), kw.get("enabled", True), kw.get("size"))
        cache = scene.__dict__.setdefault("_button_art", {})
        img = cache.get(key) if theme.TEXT_LOG is None else None
        mark = scene.log_mark()
        if img is None:
            img = pygame.Surface((r.width, r.height + drop), pygame.SRCALPHA)
            scene.button(img, pygame.Rect(0, 0, r.width, r.height), label, None, **kw)
            scene.targets.pop()
            if len(cache) > 64:
                cache.clear()
            cache[key] = img
        self.surf.blit(turned_copy(img, self.p.angle), self.at(pygame.Rect(r.left, r.top, r.width, r.height + drop)))
        scene.map_log(mark, lambda b: self.p.to_screen(b.move(r.topleft)))
        t = Target(self.p.to_screen(r), kw.get("name") or label, action if kw.get("enabled", True) else None,
                   seat=kw.get("seat"))
        scene.targets.append(t)
        return t

    def finish(self) -> None:
        """Texts drawn on an upright panel's subsurface, logged in screen coordinates."""
        if not self.turned:
            self.scene.map_log(self.mark, self.p.to_screen)
