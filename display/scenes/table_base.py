"""What the gin and contract tables share: per-seat touch state (peek, flashes), the
notice area, and drawing by regions (a seat panel or the centre is redrawn only when what
it shows changed; the rest of the screen is left as it is and reported clean).

A subclass keeps ``self.ui`` (seat -> an object with ``seat``, ``flash`` and
``flash_until``), overrides :meth:`hide_hand` to drop picked cards when a hand hides
again, and draws each region through :meth:`region`: a painter draws a region's view-model
(``display.table.viewmodels``), and the view-model is the region's cache key.

What a call does (an arcade button, a touch, an on-screen button) is the match's table
controller's (:mod:`display.table.controller`): :meth:`call` performs it and words what
came back (the engine's refusal, a hint); the lamps are the controller's too (the app
writes them once a frame, :mod:`display.table.controller.lamps`), and so is the privacy
rule (docs/privacy.md): a hand shows only while its owner holds one of his own arcade
buttons (:meth:`face_up` asks the controller each frame; a release hides it in the frame
that drains it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import pygame

from display import theme
from display.layout import SeatPanel, centre_area
from display.scenes import load_scene
from display.scenes.base import Scene, Target
from display.table.controller import BUTTONS, Call, Hint, HintCode, Lamp, Result, TableController
from display.table.faults import storage_text
from display.table.hint_text import hint_text
from display.table.refusal_text import refusal_text
from display.table.viewmodels import ButtonVM
from rummy.actions import Action, ActionError
from rummy.session import StorageError

if TYPE_CHECKING:  # pragma: no cover
    from display.app import App
    from display.table.match import MatchDriver

FLASH_SECONDS = 3.0
RECENT_MOVES = 4  # the moves a table lists in its middle
TIMER_POLL_S = 0.05
BUTTON_CALLS = {str(b): b for b in BUTTONS}  # an arcade button event's call name -> its call


class PilePlaces(Protocol):
    """Where a centre painter drew the piles."""

    stock_rect: pygame.Rect
    pile_rect: pygame.Rect


class TableScene(Scene):
    """Base of the game tables (see the module docstring)."""

    centre: PilePlaces  # the table's centre painter

    def __init__(self, app: App) -> None:
        super().__init__(app)
        # the hand's review is imported now, not in the frame that ends the hand (10-15 ms)
        load_scene(f"{app.match.game if app.match is not None else 'gin'}_review")
        self.now = app.clock()
        self.hold_seconds = 0.5
        self.ui: dict[int, Any] = {}
        self.centre_msg = ""  # the last move in words
        self._recent_events: list[Any] = []  # the last few moves, oldest first (worded when drawn)
        self._version = -1  # the match version last taken in
        self._taken: object = None  # the move whose events were taken in (actions applied, its events)
        self._rewording = False  # a new language: the last move's words and banners again
        self._regions: dict[object, tuple[object, list[Target]]] = {}
        self._forget: list[Callable[[], None]] = []  # painters' "the screen was drawn over"
        self._drawn_on: pygame.Surface | None = None
        self._drawn_size: tuple[int, int] = (0, 0)
        self._full = True
        self._shown: tuple[bool, ...] = ()  # whose hands showed in the last update

    def enter(self) -> None:
        super().enter()
        self.ctl.release_all()  # presses made on another screen are no looks here

    # -- state shortcuts ------------------------------------------------------------------
    @property
    def m(self) -> MatchDriver:
        match = self.app.match
        assert match is not None, "a table scene shows a match"
        return match

    @property
    def ctl(self) -> TableController:
        """The match's table controller (it outlives this scene)."""
        m = self.app.match
        assert m is not None, "a table scene shows a match"
        ctl: TableController = m.controller
        return ctl

    @property
    def stock_rect(self) -> pygame.Rect:
        return self.centre.stock_rect

    @property
    def pile_rect(self) -> pygame.Rect:
        return self.centre.pile_rect

    def legal(self, seat: int) -> list[Any]:
        return self.m.legal(seat) if self.m.is_human(seat) else []

    def find(self, seat: int, kind: str, **fields: Any) -> Action | None:
        """The seat's first legal action of ``kind`` with ``fields`` (what to show)."""
        for a in self.legal(seat):
            if a.kind == kind and all(getattr(a, k) == v for k, v in fields.items()):
                return a
        return None

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

    def reveal(self, seat: int, button: str = "draw") -> None:
        """The seat holds ``button`` down from now on as if for a look already (tests and
        screenshots; a real look is a press through :meth:`on_button`)."""
        self.ctl.button(seat, button, "press", self.now - self.ctl.look_after)
        self.dirty = True

    def tap_panel(self, seat: int) -> None:
        """A tap on a seat's panel (outside his cards and buttons)."""
        self.call(seat, Call.PANEL)

    def hold_panel(self, seat: int) -> None:
        """A long press on a seat's panel or cards: shows nothing (anyone may touch any
        panel); a face-down hand says how to look."""
        self.call(seat, Call.HOLD)

    @property
    def open_hands(self) -> bool:
        """The operator chose open hands (a table of friends, practice); real cards: never."""
        return bool(self.app.open_hands)

    def face_up(self, seat: int) -> bool:
        """Does the seat's hand show now (the controller's privacy rule)?"""
        return self.ctl.face_up(seat, self.now, open_hands=self.open_hands)

    def on_button(self, event: Any) -> None:
        """An arcade button edge: a tap (press and release within the controller's
        ``look_after``) is the seat's DRAW / KNOCK / BUY call; holding it shows his hand."""
        if event.call not in BUTTON_CALLS or not 0 <= event.seat < len(self.m.seats):
            return
        call = self.ctl.button(event.seat, event.call, event.edge, event.t, open_hands=self.open_hands)
        if call is not None:
            self.call(event.seat, call)
        self.dirty = True
        self._look_changed()

    def next_due(self, now: float) -> float | None:
        """A table looks at its timers (peeks, flashes, computer players, the answer's
        countdown) twenty times a second."""
        return now + TIMER_POLL_S

    # -- calls --------------------------------------------------------------------------------
    def call(self, seat: int | None, call: Call, arg: Any = None) -> Result | None:
        """``seat``'s call through the table controller; a refusal or a hint flashes in his
        status line, an applied action goes to :meth:`after_submit`."""
        if seat is None:
            return None
        up = self.face_up(seat)
        result = self.ctl.perform(seat, call, arg, face_up=up)
        # what is said of a face-down hand tells nothing it holds (docs/privacy.md); what is
        # said while he looks goes when his hand hides (_look_changed)
        if result.refusal is not None:
            self.flash(seat, self.refusal_words(result.action_tried, result.refusal, hidden=not up))
        elif result.hint is not None:
            self.flash(seat, hint_text(result.hint, self.m.name, hidden=not up))
        elif result.action is not None:
            self.after_submit(seat, result.action)
        self.take_in()  # the move's events now, not at the next poll
        self.dirty = True
        return result

    def table_call(self, call: Call, arg: Any = None) -> Result | None:
        """A touch on the table (the stock, the pile, a meld): the call of the seat it is for."""
        return self.call(self.ctl.touch_seat(), call, arg)

    def touch_stock(self) -> None:
        self.table_call(Call.STOCK)

    def touch_pile(self) -> None:
        """The discard pile (gin) or the pack (contract)."""
        self.table_call(Call.DISCARD_PILE)

    def refusal_words(self, action: Action | None, refusal: Exception, *, hidden: bool = False) -> str:
        """Why a call was not applied, in words (``hidden``: made on a face-down hand)."""
        if isinstance(refusal, StorageError):
            return storage_text(refusal.kind)
        if isinstance(refusal, ActionError):
            return refusal_text(refusal, name=self.m.name, hidden=hidden,
                                looks=self.ctl.game.shows_hands)  # the engine's code, translated
        return hint_text(Hint.of(HintCode.CANNOT_NOW), self.m.name)  # never an English str(exc)

    def after_submit(self, seat: int, action: Action) -> None:
        """``seat``'s call was applied by the engine."""

    def hint(self, seat: int) -> str:
        """What ``seat`` should do now, in words (his status line)."""
        up = self.face_up(seat)
        return hint_text(self.ctl.hint(seat, face_up=up), self.m.name, hidden=not up)

    def update(self, now: float) -> None:
        """Timers; what the match did without this scene's calls (a computer's move, a rule
        timer, a card read) is taken in here (:meth:`take_in`)."""
        self.now = now
        super().update(now)
        self.take_in()
        self.expire_ui(now)

    def take_in(self) -> None:
        """The match changed since this scene last looked: take it in (``_on_change``)."""
        if self.m.version != self._version:
            self._on_change()

    def _on_change(self) -> None:
        """The match changed: the last move in words, then :meth:`on_event` for each of its
        events (once per move: a refused call, a question of the table, a review going on
        change nothing the move did) and :meth:`after_change`."""
        m = self.m
        move = (m.session.actions_applied, id(m.events))
        fresh, again = move != self._taken, self._rewording
        self._version, self._taken, self._rewording = m.version, move, False
        self.dirty = True
        for ev in m.events:
            text = self.event_text(ev)
            if text:
                self.centre_msg = text
                if fresh:
                    self._recent_events = [*self._recent_events, ev][-RECENT_MOVES:]
            if fresh or again:
                self.on_event(ev)  # banners, animations (worded again in a new language)
        self.after_change()

    def reword(self) -> None:
        """The table's language changed: word the last move again at the next update."""
        self._version, self._rewording = -1, True

    @property
    def recent(self) -> list[str]:
        """The last few moves in words (the table's language now), oldest first."""
        return [t for t in map(self.event_text, self._recent_events) if t]

    def event_text(self, ev: Any) -> str:  # pragma: no cover - every table overrides it
        return ""

    def on_event(self, ev: Any) -> None:
        """One event of the last change (banners, animations)."""

    def after_change(self) -> None:
        """After the events of a change were taken in: a computer's move the journal could
        not take is said in the status line of the seat to act."""
        if self.m.storage_error is not None:
            to_act = self.m.to_act()
            self.flash(to_act[0] if to_act else 0, self.m.message)

    def seat_lamps(self, seat: int) -> dict[str, Lamp]:
        """The seat's lamps (the table controller's), on the buttons his seat has: what the
        app's ``show_lamps`` writes for this seat now (a query; no lamp is written here)."""
        return self.ctl.lamp_states(seat, self.now, face_up=self.face_up(seat), open_hands=self.open_hands,
                                    wired=self.app.hw.wired_calls(seat))

    def hide_hand(self, ui: Any) -> None:
        """The hand hid again: drop what was picked."""
        self.ctl.clear(ui.seat)

    def _look_changed(self) -> None:
        """Whose hand shows changed (a look began or ended): redraw; a hand that hid drops
        what was picked in it."""
        self.ctl.note_looks(self.now, len(self.m.seats), open_hands=self.open_hands)
        shown = tuple(self.face_up(s) for s in range(len(self.m.seats)))
        if shown == self._shown:
            return
        for seat, (was, now_up) in enumerate(zip(self._shown, shown, strict=False)):
            if was and not now_up and seat in self.ui:
                self.hide_hand(self.ui[seat])
                self.ui[seat].flash = ""  # what he was told while he looked (a refusal, a count) goes too
        self._shown = shown
        self.dirty = True

    def expire_ui(self, now: float) -> None:
        """A look that began (held long enough), flashes whose time is up."""
        self._look_changed()
        for ui in self.ui.values():
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
            for forget in self._forget:
                forget()
        return full

    def region(self, name: object, key: object, rect: pygame.Rect, draw: Callable[[], Any],
               dirty: list[pygame.Rect]) -> bool:
        """Draw region ``name`` with ``draw()`` unless it still shows ``key`` (its view-model);
        its touch targets are kept either way. Returns True when it was drawn (``rect`` is
        then dirty)."""
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

    def forget_region(self, name: object) -> None:
        """Region ``name`` was drawn over: draw it at its next :meth:`region`."""
        self._regions.pop(name, None)

    def mark_region(self, name: object, key: object, rect: pygame.Rect) -> None:
        """Region ``name`` now shows ``key`` (drawn as part of another region)."""
        self._regions[name] = ((key, tuple(rect)), [])

    def press(self, seat: int, name: str) -> None:
        """An on-screen button of ``seat`` (named as in :meth:`_panel_buttons`) was touched."""
        for _label, fn, _hot, bname in self._panel_buttons(seat):
            if bname == name:
                fn()
                return

    def _panel_buttons(self, seat: int) -> list[tuple[str, Callable[[], Any], bool, str]]:
        """(label, call, hot, name) of the seat's on-screen buttons now (each table's)."""
        return []

    def button_vms(self, seat: int) -> tuple[ButtonVM, ...]:
        return tuple(ButtonVM(label, name, hot) for label, _fn, hot, name in self._panel_buttons(seat))
