"""The table app: one main loop over scenes, the hardware queue, touch and the match.

Loop (one frame): drain the device queue and pygame events → scene handlers (every call
becomes an engine action via :class:`display.table.match.MatchDriver`); update (timers, computer
players, deals); draw when something changed; present (dirty rects); tick. A
failsafe catches any error and returns to the attract screen (kiosk and windowed simulator;
``--debug`` and headless runs re-raise).
"""

from __future__ import annotations

import gc
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pygame

from device.events import HOLD, OPERATOR, PRESS, ShoeEvent
from display.backend import Screen, desktop_size, fit_table_size, init_pygame
from display.notice import Notice, resume_notices
from display.scenes import PLAYING, Go, Kind, kind_of, load_scene, match_scene, next_scene
from display.table import i18n, thinking
from display.table.controller.lamps import DARK, TableLamps, review_lamps
from display.table.faults import Fault, one_line, probe_storage, storage_code
from display.table.hw import Hardware
from display.table.match import MatchDriver

SIM_STRIP = 260
CORNER_PX = 64
CORNER_HOLD_S = 3.0
#: longest sleep between looks at SDL's touch/mouse/key events while nothing is due
#: (``pygame.event.wait`` polls every millisecond under the dummy and kmsdrm drivers, which
#: costs more than looking 20 times a second, as often as the idle loop ticked before) ...
INPUT_POLL_S = 0.05
#: ... and once nobody has touched the table for :data:`IDLE_AFTER_S`, ten times a second
IDLE_POLL_S = 0.1
IDLE_AFTER_S = 5.0
INPUT_EVENTS = frozenset((pygame.FINGERDOWN, pygame.FINGERUP, pygame.FINGERMOTION, pygame.MOUSEBUTTONDOWN,
                          pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION, pygame.MOUSEWHEEL, pygame.KEYDOWN, pygame.KEYUP,
                          pygame.TEXTINPUT))
BUY_WINDOW_SECONDS = 2.5  # a computer in turn waits this long so people can press BUY (C-8.3)


def settle_heap() -> None:
    """Collect everything now and set what lives on aside (``gc.freeze``), at a moment when
    the screen changes anyway (start-up, a new match): otherwise the collector's oldest
    generation walks every module, function and cache now and then in the middle of a
    match, a 30-80 ms frame on this machine (a Pi is 3-4x slower). The frozen objects of the
    previous match are thawed first, so whatever of it is garbage is collected now."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


@dataclass
class Settings:
    """What the operator may change at run time (starts from the config)."""

    language: str = "en"
    privacy: str = "peek"
    layout: str = "flat"
    four_colour: bool = False
    rotation: int = 0
    gin_preset: str = "standard"
    contract_preset: str = "standard"
    bot_delay_s: float = 0.8
    gin_target: int | None = None  # None: the preset's own target (G-14.1)


class App:
    """The app. ``mode`` is ``sim``, ``kiosk`` or ``headless``."""

    def __init__(
        self,
        config: Any,
        *,
        mode: str = "sim",
        size: tuple[int, int] | None = None,
        state_dir: str | Path | None = None,
        seed: int | None = None,
        matches: int = 1,
        game: str | None = None,
        preset: str | None = None,
        screenshots: str | Path | None = None,
        debug: bool = False,
        config_errors: list[str] | None = None,
        clock: Callable[[], float] = time.monotonic,
        out: Any = None,
        record_bots: bool = False,
        real_cards: bool = False,
        readers: Any = None,
        shoe_port: str | None = None,
    ) -> None:
        self.config = config
        self.mode = mode
        self.headless = mode == "headless"
        self.debug = debug
        self.clock = clock
        self.out = out if out is not None else sys.stdout
        self.seed = seed
        self.matches_wanted = max(1, matches)
        self.matches_done = 0
        self.forced_game = game
        self.screenshot_dir = Path(screenshots) if screenshots else None
        self.screenshots_taken: set[str] = set()
        if state_dir is None and self.headless:
            # A headless run plays computers only: never into the table's real state
            # directory unless asked for by name (--state-dir).
            state_dir = tempfile.mkdtemp(prefix="rummy-table-headless-")
        self.state_dir = Path(state_dir or config.paths.state_dir).expanduser()
        self.record_bots = record_bots  # record matches of computers only (sim --record-bots)
        d, g = config.display, config.game
        self.settings = Settings(
            language=d.language, privacy=d.privacy, layout=d.layout, four_colour=d.four_colour,
            rotation=d.rotation, gin_preset=preset if (preset and game != "contract") else g.gin_preset,
            contract_preset=preset if (preset and game == "contract") else g.contract_preset,
            bot_delay_s=0.0 if self.headless else g.bot_delay_s,
        )
        i18n.set_language(self.settings.language)
        init_pygame(headless=self.headless)
        real = bool(real_cards or config.shoe.enabled)
        self.strip_w = SIM_STRIP
        if real and mode == "sim":
            from display.real_cards_panel import STRIP_W

            self.strip_w = STRIP_W  # the buttons and the cards in hand
        size = size or (d.width, d.height)
        if mode == "sim":  # the window (table + button strip) must fit the desktop
            desk = desktop_size()
            fitted = fit_table_size(size, self.strip_w, desk) if desk else size
            if desk and fitted != tuple(size):
                print(f"window: the table is {fitted[0]}x{fitted[1]} (not {size[0]}x{size[1]}) "
                      f"to fit the {desk[0]}x{desk[1]} desktop", file=self.out, flush=True)
            size = fitted
        self.screen = Screen(
            size, fullscreen=(mode == "kiosk" and d.fullscreen), rotation=d.rotation,
            hide_cursor=(mode == "kiosk"), side_strip=self.strip_w if mode == "sim" else 0,
        )
        self._wake = threading.Event()  # set by a hardware thread's event: the loop wakes at once
        self.hw = Hardware(simulated=(mode != "kiosk"), buttons_config=config.buttons, clock=clock,
                           wake=self._wake.set)
        self.config_errors: list[str] = list(config_errors or [])
        self.problems: list[str] = self.config_errors + self.hw.problems
        self.faults: list[Fault] = []  # start-up and storage faults, shown on the fault screen
        self.faults_seen = False
        if self.config_errors:
            self.faults.append(Fault("config", "; ".join(self.config_errors)))
        self.sim: Any = None
        if mode == "sim":
            from display.sim import SimPanel

            self.sim = SimPanel(self)
        self.match: MatchDriver | None = None
        self.real: Any = None  # real-card mode (display.real_cards.RealMode), else None
        if real:
            from display.real_cards import RealMode

            self.real = RealMode(self, port=shoe_port or getattr(readers, "port", None),
                                 simulated=readers is not None, readers=readers)
            if readers is not None:
                readers.attach(self)
            if self.sim is not None:
                from display.real_cards_panel import RealCardsPanel

                self.sim = RealCardsPanel(self)  # the buttons and the cards in hand
        self.store = self._open_store()
        self.league = self._start_league()  # None unless [league] enabled = true
        self.scene: Any = None
        self.running = True
        self.exit_code = 0
        self.frames = 0
        self.first_frame_t: float | None = None
        self._fingers: set[int] = set()
        self._corner_t: float | None = None
        self.fps = d.fps
        self.resume_messages: list[str] = []
        self.notice: Notice | None = None  # "the table was switched off" after a power cut
        self.last_input: Any = None
        self._input_t = float("-inf")  # when the last touch, key or button came
        self._lamps = TableLamps()  # the table's lamps, worked out in one place (show_lamps)

    # -- records ------------------------------------------------------------------------------
    def _open_store(self) -> Any:
        """The records store; when it cannot be opened, a stand-in that refuses every use
        (finished journals stay queued in current/) and a ``records`` fault. Play goes on."""
        from rummy.store import DB_NAME, Store, StoreError, UnavailableStore

        path = self.state_dir / DB_NAME
        try:
            league = getattr(self.config, "league", None)
            return Store(path, outbox=bool(league is not None and league.enabled),
                         record_bots=self.record_bots)
        except StoreError as exc:
            self.problems.append(f"records: {exc}")
            self.add_fault(Fault("records", str(exc)))
            return UnavailableStore(path, exc)

    # -- faults -------------------------------------------------------------------------------
    def add_fault(self, fault: Fault) -> None:
        """Log a fault (one journalctl line) and keep it for the fault screen (once per code)."""
        if any(f.code == fault.code for f in self.faults):
            return
        self.faults.append(fault)
        print(fault.log_line(), file=sys.stderr, flush=True)
        self.hw.status(f"fault: {fault.code}: {fault.title()}")

    def show_faults(self, faults: list[Fault] | None = None) -> None:
        """The fault screen (its button: :meth:`after_faults`)."""
        self.go(Go.FAULTS, errors=self.config_errors, faults=faults or self.faults)
        self.hw.status("fault screen: " + "; ".join(f.title() for f in (faults or self.faults)))

    def after_faults(self) -> None:
        """The fault screen was acknowledged: play on where the table can."""
        self.faults_seen = True
        if self.match is not None:
            self.show_match()
        elif not self.try_resume():
            self.go(Go.HOME)

    def check_start(self) -> None:
        """Faults found before the first frame: the state directory and the font."""
        fault = probe_storage(self.state_dir)
        if fault is not None:
            self.add_fault(fault)
        from display import theme

        theme.font(20)
        theme.font(20, bold=True)
        if theme.FONT_PROBLEMS:
            self.add_fault(Fault("fonts", "; ".join(theme.FONT_PROBLEMS)))

    def _start_league(self) -> Any:
        """The league sync worker and cached standings, when ``[league]`` is enabled."""
        from rummy.store import UnavailableStore

        cfg = getattr(self.config, "league", None)
        if cfg is None or not cfg.enabled or self.store is None or isinstance(self.store, UnavailableStore):
            return None  # no records database: nothing to send (the journals wait in current/)
        try:
            from league.runtime import TableLeague
        except ImportError as exc:
            self.problems.append(f"league: the league extra is not installed ({exc.name})")
            return None
        try:
            return TableLeague.start(cfg, self.store.path)
        except Exception as exc:  # noqa: BLE001 - the table plays without the league
            self.problems.append(f"league: {exc}")
            return None

    def league_standings(self, game: str | None = None) -> list[Any]:
        """The venue's standings from the local cache ([] without the league)."""
        if self.league is None:
            return []
        try:
            return list(self.league.cache.standings(game))
        except Exception:  # noqa: BLE001 - a cache problem hides the standings, no more
            return []

    # -- scenes -------------------------------------------------------------------------------
    def go(self, go: Go, **data: Any) -> Any:
        """The one way the screen changes: ``go`` says why, :func:`display.scenes.next_scene`
        says which scene follows (from the app's and the match's state)."""
        target = next_scene(self, go, **data)
        if target is None:
            return self.scene
        if not isinstance(target, tuple):  # a scene kept aside (Go.RESUME): current again, as it was
            self.scene = target
            target.dirty = True
            return target
        name, kwargs = target
        return self.goto(name, **kwargs)

    def goto(self, name: str, **kwargs: Any) -> Any:
        """Make scene ``name`` (see display.scenes.SCENES) current (what :meth:`go` decided;
        tests and the screenshot tool name a scene directly). Its lamps are the next
        :meth:`show_lamps`' (every lamp off outside a table and a review)."""
        if self.scene is not None:
            self.scene.exit()
        self.scene = load_scene(name)(self, **kwargs)
        if self.notice is not None:
            self.notice.rect = pygame.Rect(0, 0, 0, 0)  # shown (and touchable) again only once drawn
        self.scene.enter()
        self.scene.dirty = True
        return self.scene

    def table_scene_name(self) -> str:
        """The match's table scene (attract without a match)."""
        from display.scenes import GAME_SCENES

        return GAME_SCENES[self.match.game][0] if self.match else "attract"

    def show_match(self) -> None:
        """The right scene for the match's state: its table, its review, the deal out of the
        shoe, or the end (:func:`display.scenes.match_scene`)."""
        self.go(Go.MATCH)

    def follow_match(self) -> None:
        """On a playing screen (a table, the deal out of the shoe): the match's own screen
        when it changed (a hand over: the review; a deal out of the shoe begun or done)."""
        if self.match is not None and self.scene is not None and kind_of(self.scene.name) in PLAYING \
                and match_scene(self) != self.scene.name:
            self.go(Go.MATCH)

    # -- matches ------------------------------------------------------------------------------
    def start_match(self, game: str, seats: list[dict[str, Any]], *, preset: str | None = None,
                    rules: dict[str, Any] | None = None) -> None:
        from rummy.session import MatchSession

        preset = preset or (self.settings.gin_preset if game == "gin" else self.settings.contract_preset)
        rules = {"preset": preset, **(rules or {})}
        if game == "gin" and self.settings.gin_target is not None:
            rules.setdefault("game_target", self.settings.gin_target)
        seed = None if self.seed is None else self.seed + self.matches_done
        from rummy.session import StorageError

        if self.real is not None:
            seats = self.real.seats(seats)
        try:  # a match that cannot be journalled never starts (full or read-only state)
            session = MatchSession.start(self.state_dir, game, rules, seats, seed=seed, preset=preset,
                                         cards=self.cards_mode)
        except StorageError as exc:
            if self.headless:
                raise
            fault = Fault(storage_code(exc.kind), f"{self.state_dir}: {exc}")
            self.faults = [f for f in self.faults if f.code != fault.code]
            self.add_fault(fault)
            self.show_faults([fault])
            return
        self.match = MatchDriver(session, bot_delay=self.settings.bot_delay_s, seed=seed, **self._driver_options())
        if self.real is not None:
            self.real.attach(self.match)
        self.hw.set_seats(len(seats))
        self.match.deal_if_needed()
        self.show_match()
        settle_heap()

    @property
    def cards_mode(self) -> str:
        """How this table plays: ``real`` cards from the shoe, or ``virtual`` on the screen."""
        return "real" if self.real is not None else "virtual"

    def _driver_options(self) -> dict[str, Any]:
        """The table controller's clock and rule timers (C-8.4 ``buy_answer_s``, the
        moment after a deal ``deal_grace_s``; the buy window and that moment are skipped when
        nobody watches)."""
        game = self.config.game
        return {"clock": self.clock, "answer_seconds": float(game.buy_answer_s),
                "buy_window": 0.0 if self.headless else BUY_WINDOW_SECONDS,
                "deal_grace": 0.0 if self.headless else float(game.deal_grace_s),
                "real_cards": self.real is not None}

    def try_resume(self) -> bool:
        """Go straight back to an unfinished match (hands private)."""
        from rummy.session import MatchSession

        try:
            result = MatchSession.resume(self.state_dir, store=self.store)
        except Exception as exc:  # noqa: BLE001 - a start that cannot resume still shows a table
            if self.debug or self.headless:
                raise
            self.add_fault(Fault("journal", f"{self.state_dir}: {type(exc).__name__}: {one_line(str(exc))}"))
            return False
        self.resume_messages = list(result.messages)
        for m in result.messages:
            print(m, file=self.out, flush=True)
        if result.record_error is not None:
            self.add_fault(Fault("records", str(result.record_error)))
        if result.storage_error is not None:
            self.add_fault(Fault(storage_code(result.storage_error.kind), str(result.storage_error)))
        if result.unreadable:
            self.add_fault(Fault("journal", ", ".join(p.name for p in result.unreadable)))
        keys = resume_notices(result)
        self.notice = Notice(keys) if keys else None  # the table says so, not only stdout
        if self.notice is not None and self.mode == "kiosk":
            print(f"rummy-table: notice: {one_line(self.notice.text)}",
                  file=sys.stderr, flush=True)
            self.hw.status(f"notice: {self.notice.text}")
        if result.session is None:
            return False
        s = result.session
        if self.headless and self.real is None and any(seat.get("kind", "human") == "human" for seat in s.seats):
            # nobody is at a headless table to play it (it would wait for ever, spinning):
            # it stays in current/ for the table, and the run stops saying so (issue 28)
            s.close()
            print(f"headless: not resumed: {s.digest()} in {self.state_dir} has people at the table; "
                  "it waits there for the table (use another --state-dir)", file=sys.stderr, flush=True)
            self.running = False
            self.exit_code = 2
            return True
        if s.cards not in (None, self.cards_mode):
            # a match of the other kind (virtual cards with computers on a real-card table,
            # or the shoe's cards on a virtual one) cannot go on here: it waits in current/
            # for a table of its kind; the players are told (issue 28)
            s.close()
            print(f"not resumed: {s.digest()} was played with {s.cards} cards", file=self.out, flush=True)
            kept = [k for k in (self.notice.keys if self.notice else []) if k != "resumed"]
            self.notice = Notice([*kept, f"other_cards_{s.cards}"])
            return False
        print(f"resumed {s.digest()} after {s.actions_applied} actions", file=self.out, flush=True)
        self.match = MatchDriver(s, bot_delay=self.settings.bot_delay_s, seed=self.seed, resumed=True,
                                 **self._driver_options())
        if self.real is not None:
            self.real.attach(self.match)
        self.hw.set_seats(len(s.seats))
        self.match.deal_if_needed()
        self.show_match()
        return True

    def finish_match(self) -> None:
        """Record the finished match and archive its journal; what cannot be recorded or
        written now stays queued in current/ for the next start (or the next finish)."""
        from rummy.session import MatchSession, StorageError

        if self.match is not None and self.match.is_over and self.match.session.is_open:
            session = self.match.session
            try:
                session.finish(self.store)
            except StorageError as exc:
                if self.headless:
                    raise
                session.close()  # over and journalled: the next start ends and records it
                print(f"rummy-table: finished match queued in current/: {exc}", file=sys.stderr, flush=True)
            if session.record_error:
                print(f"rummy-table: finished match queued in current/: {one_line(session.record_error)}",
                      file=sys.stderr, flush=True)
            self.matches_done += 1
            if not self.headless:
                MatchSession.archive_queued(self.state_dir, self.store, live=session.journal_path)
            if self.league is not None:
                self.league.match_recorded()  # the worker sends it when it can

    def abandon_match(self) -> None:
        """"End this match now": archived and recorded as abandoned (no win, no points;
        a store that fails leaves it queued in current/ for the next start)."""
        if self.match is not None and self.match.session.is_open:
            self.match.session.finish(self.store, reason="abandoned")
        self.match = None

    def after_match(self) -> None:
        """Match over and seen ("New game"): the next match (headless), else the seating
        screen for a new match of the same game with the same seats, names and rules."""
        m = self.match
        again = None
        if m is not None:
            again = {"game": m.game, "seats": [dict(s) for s in m.seats],
                     "preset": m.session.header.extra.get("preset")
                     or (self.settings.gin_preset if m.game == "gin" else self.settings.contract_preset)}
        self.finish_match()
        self.match = None
        if self.headless and self.matches_done >= self.matches_wanted:
            self.running = False
            return
        self.go(Go.AFTER_MATCH, again=again)

    # -- settings -----------------------------------------------------------------------------
    def change_pin(self, pin: str) -> str | None:
        """Store a new operator PIN (hashed) in the config file this table read (else the
        system one) and use it from now on; returns why not, or None."""
        import os

        from display.table.config import SYSTEM_CONFIG, hash_pin, set_pin_in_file

        sources = self.config.sources
        path = Path(sources[-1] if len(sources) > 1 else os.environ.get("RUMMY_TABLE_CONFIG") or SYSTEM_CONFIG)
        pin_hash = hash_pin(pin)
        try:
            set_pin_in_file(path, pin_hash)
        except (OSError, ValueError) as exc:
            return f"{path}: {one_line(str(exc))}"
        self.config = replace(self.config, operator=replace(self.config.operator, pin_hash=pin_hash))
        return None

    def set_language(self, lang: str) -> None:
        self.settings.language = i18n.set_language(lang)
        if self.scene is not None:
            self.scene.invalidate()  # every word on the screen changes: a full redraw
            reword = getattr(self.scene, "reword", None)
            if reword is not None:
                reword()  # the last move's line too (worded when it happened)

    def change(self, **kwargs: Any) -> None:
        self.settings = replace(self.settings, **kwargs)
        if self.match is not None and "bot_delay_s" in kwargs:
            self.match.bot_delay = self.settings.bot_delay_s
        if self.scene is not None:
            self.scene.invalidate()

    def set_rotation(self, rotation: int) -> None:
        """Turn the picture for a panel mounted at ``rotation`` degrees (touch follows)."""
        self.settings.rotation = rotation
        d = self.config.display
        self.screen = Screen(
            self.screen.panel_rect.size, fullscreen=(self.mode == "kiosk" and d.fullscreen),
            rotation=rotation, hide_cursor=(self.mode == "kiosk"),
            side_strip=self.strip_w if self.mode == "sim" else 0,
        )
        if self.scene is not None:
            self.scene.resize(self.screen.size)
        if self.sim is not None:
            self.sim.dirty = True

    # -- input --------------------------------------------------------------------------------
    def _pointer(self, kind: str, wpos: tuple[float, float], now: float) -> None:
        if self.sim is not None and self.sim.owns(wpos, kind):
            self.sim.on_pointer(kind, wpos)
            return
        pos = self.screen.to_logical(wpos)
        if pos is None:
            return
        if self.notice is not None and kind == "down" and self.notice.hit(pos):
            self.dismiss_notice()  # a touch on the notice only dismisses it
            return
        if self.real is not None and kind == "down" and self.real.touch(pos):
            return  # the table's question: its OK
        if kind == "down":
            self._corner_t = now if (pos[0] < CORNER_PX and pos[1] < CORNER_PX) else None
        elif kind == "up":
            self._corner_t = None
        self.scene.on_pointer(kind, pos, now)

    def handle_pygame_event(self, ev: pygame.event.Event, now: float) -> None:
        t = ev.type
        if t in INPUT_EVENTS:  # a person at the table (not the window's own events at start-up)
            self._input_t = now
        if t == pygame.QUIT:
            self.running = False
        elif t in (pygame.FINGERDOWN, pygame.FINGERUP, pygame.FINGERMOTION):
            w, h = self.screen.window.get_size()
            kind = {pygame.FINGERDOWN: "down", pygame.FINGERUP: "up", pygame.FINGERMOTION: "move"}[t]
            if t == pygame.FINGERDOWN:
                self._fingers.add(ev.finger_id)
            elif t == pygame.FINGERUP:
                self._fingers.discard(ev.finger_id)
            self._pointer(kind, (ev.x * w, ev.y * h), now)
        elif t in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION):
            if getattr(ev, "touch", False):
                return  # the same touch arrives as FINGER* events
            if t == pygame.MOUSEMOTION:
                if ev.buttons[0]:
                    self._pointer("move", ev.pos, now)
                return
            if getattr(ev, "button", 1) != 1:
                return
            self._pointer("down" if t == pygame.MOUSEBUTTONDOWN else "up", ev.pos, now)
        elif t in (pygame.KEYDOWN, pygame.KEYUP):
            if self.sim is not None and self.sim.on_key(ev.key, t == pygame.KEYDOWN):
                return
            if t == pygame.KEYDOWN:
                if ev.key == pygame.K_F10:
                    self.open_operator()
                elif ev.key == pygame.K_ESCAPE and self.mode != "kiosk" and self.scene.name == "attract":
                    self.running = False
                else:
                    self.scene.on_key(ev.key, getattr(ev, "unicode", ""))

    def handle_input_event(self, ev: Any) -> None:
        self.last_input = ev
        self._input_t = self.clock()
        if self.scene is not None and self.scene.name == "operator":
            self.scene.dirty = True  # diagnostics show the last button
        if ev.call == OPERATOR:
            if ev.edge in (PRESS, HOLD):
                self.open_operator()
            return
        self.scene.on_button(ev)

    def notice_here(self) -> bool:
        """The notice shows on the attract screen and the tables (not over the operator
        menu's keypad or a review); its ten seconds start when it first shows."""
        return self.scene is not None and (self.scene.name == "attract" or kind_of(self.scene.name) in PLAYING)

    def dismiss_notice(self) -> None:
        """Take the notice away and redraw what it covered."""
        self.notice = None
        if self.scene is not None:
            self.scene.invalidate()

    def open_operator(self) -> None:
        if self.scene is not None:
            self.go(Go.OPERATOR)  # over itself: stays

    # -- the loop -----------------------------------------------------------------------------
    def start(self) -> None:
        """The first scene: the fault screen (config errors, start-up faults), a resumed
        match, or the attract screen. Nothing here may stop the kiosk: an unexpected error
        becomes a ``startup`` fault on the screen."""
        try:
            self.check_start()
            if self.config_errors and self.mode == "kiosk":
                self.show_faults()
                return
            resumed = self.try_resume()
            if self.faults and self.mode == "kiosk":
                self.show_faults()
            elif not resumed:
                self.go(Go.HOME)
            settle_heap()
        except Exception as exc:  # noqa: BLE001 - the kiosk shows it instead of crash-looping
            if self.debug or self.headless:
                raise
            print("rummy-table: start-up error:\n" + "".join(traceback.format_exception(exc)).rstrip()
                  .replace("\n", "\n  "), file=sys.stderr, flush=True)
            self.add_fault(Fault("startup", f"{type(exc).__name__}: {one_line(str(exc))}"))
            self.show_faults()

    def frame(self, now: float | None = None, events: list[pygame.event.Event] | None = None) -> None:
        """One iteration of the main loop (without the tick)."""
        now = self.clock() if now is None else now
        try:
            for ev in self.hw.drain():
                if isinstance(ev, ShoeEvent):
                    if self.real is not None:
                        self.real.on_event(ev)  # the card shoe and the discard slot
                else:
                    self.handle_input_event(ev)
            for ev in (pygame.event.get() if events is None else events):
                self.handle_pygame_event(ev, now)
            if self._corner_t is not None and now - self._corner_t >= CORNER_HOLD_S:
                self._corner_t = None
                self.open_operator()
            if self.match is not None and kind_of(self.scene.name) in PLAYING:
                if self.match.update(now):
                    self.scene.dirty = True
                self.follow_match()
            if self.league is not None and self.league.changed:
                self.league.changed = False  # fresh standings from the server
                self.scene.invalidate()
            self.scene.update(now)
            if self.real is not None:
                self.real.update(now)
                self.follow_match()  # a deal out of the shoe begun or done
            self.show_lamps(now)
            if self.notice is not None and self.notice.expired(now):
                self.dismiss_notice()
            self.render()
        except Exception as exc:  # noqa: BLE001 - the failsafe
            if self.debug or self.headless:  # CI and developers want the traceback
                raise
            self.failsafe(exc)
        self.hw.ping()  # systemd watchdog: only a live main loop pings (a failsafe is live)

    def show_lamps(self, now: float) -> None:
        """Every button lamp, once a frame, whatever the scene (the one place that writes
        them, :mod:`display.table.controller.lamps`): a table's from its controller, a
        review's by its rule, every other screen's off."""
        m, scene = self.match, self.scene
        kind = kind_of(scene.name) if scene is not None else Kind.MENU
        lit: Any = DARK
        if m is not None and kind is Kind.TABLE:
            lit = self._lamps.lit(m.controller, len(m.seats), now, open_hands=self.open_hands,
                                  wired=self.hw.wired_calls)
        elif m is not None and kind is Kind.REVIEW:
            lit = review_lamps(scene.gate, now, [m.is_human(s) for s in range(len(m.seats))])
        for seat in list(self.hw.lamps):
            self.hw.set_lamps(seat, **lit.get(seat, {}))

    @property
    def open_hands(self) -> bool:
        """The operator chose open hands (a table of friends, practice); never with real cards."""
        return self.settings.privacy == "open" and (self.match is None or self.match.reads is None)

    def failsafe(self, exc: BaseException) -> None:
        """Kiosk mode: log the error, show an apology, then the attract screen."""
        print("rummy-table: error, back to the attract screen: " + one_line(f"{type(exc).__name__}: {exc}")
              + "\n  " + "".join(traceback.format_exception(exc)).rstrip().replace("\n", "\n  "),
              file=sys.stderr, flush=True)
        try:
            self.go(Go.FAILED, error=f"{type(exc).__name__}: {exc}")
        except Exception:  # noqa: BLE001
            try:
                self.go(Go.HOME)
            except Exception as again:  # noqa: BLE001 - keep the loop (and the watchdog) alive
                print(f"rummy-table: the attract screen failed too: {one_line(str(again))}",
                      file=sys.stderr, flush=True)

    def render(self) -> None:
        strip_dirty = bool(self.sim is not None and self.sim.update())
        if not self.scene.dirty and not strip_dirty:
            return
        rects: list[pygame.Rect] | None = []
        if self.real is not None and self.real.changed():
            self.scene.invalidate()  # the table's question came or went: all of it again
        if self.scene.dirty:
            self.scene.dirty = False
            self.scene.targets = []
            rects = self.scene.draw(self.screen.surface)
            if self.real is not None:
                box = self.real.draw(self.screen.surface, self.scene.notice_area())
                if rects is not None and box is not None:
                    rects.append(box)
            if self.notice is not None and self.notice_here():
                box = self.notice.draw(self.screen.surface, self.scene.notice_area(),
                                       flat=self.settings.layout == "flat" and kind_of(self.scene.name) in PLAYING,
                                       now=self.clock())
                if rects is not None:
                    rects.append(box)
        if strip_dirty and self.sim is not None and self.screen.strip is not None:
            self.sim.draw(self.screen.strip)
        self.screen.present(rects, strip_dirty=strip_dirty)
        self.frames += 1
        if self.first_frame_t is None:
            self.first_frame_t = self.clock()
            self.hw.ready()
        self.autoshoot()

    def shoot(self, name: str, *, once: bool = True) -> Path | None:
        """Save the table (logical surface) as ``<screenshots>/<name>.png``."""
        if self.screenshot_dir is None or (once and name in self.screenshots_taken):
            return None
        self.screenshot_dir.mkdir(parents=True, exist_ok=True)
        path = self.screenshot_dir / f"{name}.png"
        pygame.image.save(self.screen.surface, str(path))
        self.screenshots_taken.add(name)
        return path

    def autoshoot(self) -> None:
        if self.screenshot_dir is None or self.scene is None:
            return
        name = getattr(self.scene, "screenshot_name", lambda: None)()
        if name:
            self.shoot(name)

    def run(self) -> int:
        """The main loop; returns the exit code. While something moves it runs at ``fps``;
        otherwise it sleeps until the next timer is due (:meth:`next_due`), a hardware event
        arrives, or it is time to look at SDL's input events again (:data:`INPUT_POLL_S`,
        :data:`IDLE_POLL_S` while nobody is using the table)."""
        clock = pygame.time.Clock()
        self.start()
        try:
            while self.running:
                self.frame()
                if self.headless:
                    continue
                if self.scene_is_busy():
                    clock.tick(self.fps)
                    continue
                now = self.clock()
                poll = INPUT_POLL_S if now - self._input_t < IDLE_AFTER_S else IDLE_POLL_S
                self._wake.wait(max(0.0, min(self.next_due(now), now + poll) - now))
                self._wake.clear()
                clock.tick()  # keep the clock's idea of the last frame current
        finally:
            self.close()
        return self.exit_code

    def scene_is_busy(self) -> bool:
        return bool(self.scene is not None and (self.scene.dirty or getattr(self.scene, "busy", False)))

    def next_due(self, now: float) -> float:
        """When the loop must run again even without input: the scene's next timer or
        animation step, the corner hold, the notice's end, the watchdog ping."""
        due = [self.hw.next_ping()]
        if self.scene is not None:
            scene_due = self.scene.next_due(now)
            if scene_due is not None:
                due.append(scene_due)
        if self._corner_t is not None:
            due.append(self._corner_t + CORNER_HOLD_S)
        if self.notice is not None and self.notice.shown_at is not None:
            due.append(self.notice.shown_at + self.notice.seconds)
        return min(due)

    def real_changed(self) -> None:
        """A read changed the match or the table's question: draw again."""
        if self.scene is not None:
            self.scene.dirty = True

    def close(self) -> None:
        if self.real is not None:
            self.real.close()
        if self.match is not None:
            self.match.session.close()
        if self.league is not None:
            self.league.close()
        if self.store is not None and hasattr(self.store, "close"):
            self.store.close()
        self.hw.close()
        thinking.shutdown(rethink=False)  # the computer players' worker process
        pygame.display.quit()
