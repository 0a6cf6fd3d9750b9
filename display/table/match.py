"""Driving a live match from the app: submit calls, deal, let computer seats play.

Every call — a touch, an arcade button, a computer player — becomes an ``Action`` taken
from ``engine.legal_actions`` and goes through ``MatchSession.apply`` (journalled and
fsynced before the table shows it). The driver has no rules of its own.
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable
from typing import Any

from display.table.controller import TableController, controller_for
from display.table.names import display_name
from display.table.refusal_text import refusal_text
from display.table.thinking import Thought, warm_up
from rummy.actions import Action, ActionError, Event
from rummy.players import player
from rummy.session import MatchSession, StorageError

STORAGE_RETRY_S = 1.0  # a computer player's move refused for storage waits this long


def make_player(game: str, bot: str = "basic") -> Any:
    """The computer player of level ``bot`` for ``game`` (one registry: ``rummy.players``)."""
    return player(game, bot)


class MatchDriver:
    """The app's handle on one match in progress, with its table controller
    (:attr:`controller`: what the seats' calls do, the lamps, the rule timers on ``clock``)."""

    def __init__(self, session: MatchSession, *, bot_delay: float = 0.8, seed: int | None = None,
                 resumed: bool = False, clock: Callable[[], float] = time.monotonic,
                 answer_seconds: float = 15.0, buy_window: float = 2.5, deal_grace: float = 3.0,
                 real_cards: bool = False) -> None:
        self.session = session
        self.engine = session.engine
        self.game = session.header.game
        self.seats = session.seats
        self.bot_delay = bot_delay
        self.rng: random.Random = random.Random(seed) if seed is not None else secrets.SystemRandom()
        self.players = {i: make_player(self.game, s.get("bot", "basic"))
                        for i, s in enumerate(self.seats) if s.get("kind") == "computer"}
        if self.players and bot_delay > 0:
            warm_up()  # the thinking worker starts during the deal, not at the first move
        self.events: list[Event] = []
        self.history: list[tuple[Action, list[Event]]] = []
        self.version = 0  # bumped on every change; views cache on it
        self.message: str = ""
        self.storage_error: StorageError | None = None  # the last move refused for storage
        self._bot_due: float | None = None
        self._thought: Thought | None = None  # a computer seat thinking during its delay
        self.resumed = resumed
        self._legal_key: tuple[object, ...] = ()
        self._legal_cache: dict[int, list[Action]] = {}
        self._to_act: list[int] | None = None
        # A deal is pending after a hand: show the hand's result until someone continues.
        self.review_pending = self._deal_pending() and session.actions_applied > 0
        self.reads: Any = None  # real cards: the readers' part (display.table.controller.real_cards)
        timers = {"answer_seconds": answer_seconds, "buy_window": buy_window, "deal_grace": deal_grace}
        self.controller: TableController
        if real_cards:
            from display.table.controller.real_cards import real_controller

            self.controller, self.reads = real_controller(self.game, self, clock=clock, **timers)
        else:
            self.controller = controller_for(self.game, self, clock=clock, **timers)

    # -- queries ----------------------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self.session.state

    @property
    def is_over(self) -> bool:
        return bool(self.engine.is_over(self.state))

    def is_human(self, seat: int) -> bool:
        return seat not in self.players

    def name(self, seat: int) -> str:
        """Seat ``seat``'s name in the table's language now (display.table.names: a default
        "Player 1" is worded at draw time, not when the seat was made)."""
        return display_name(self.seats[seat]) or f"Seat {seat + 1}"

    def _deal_pending(self) -> bool:
        return bool(self.engine.decks_to_deal(self.state))

    def _fresh(self) -> None:
        """Drop the answers kept for an older state: the state is immutable, so the same
        state object (and version) means the same seats to act and legal actions. A frame
        asks for them dozens of times (every panel's words, lamps and buttons)."""
        state = self.state
        if self._legal_key and self._legal_key[2] is state and self._legal_key[:2] == (
                self.version, self.session.actions_applied):
            return
        self._legal_key = (self.version, self.session.actions_applied, state)
        self._legal_cache = {}
        self._to_act = None

    def to_act(self) -> list[int]:
        self._fresh()
        if self._to_act is None:
            self._to_act = ([] if self._deal_pending() or self.is_over else list(self.engine.to_act(self.state)))
        return list(self._to_act)

    def legal(self, seat: int) -> list[Action]:
        """Legal actions for ``seat`` right now ([] when it is not his move)."""
        self._fresh()  # one cache for every seat
        if seat not in self._legal_cache:
            self._legal_cache[seat] = (list(self.engine.legal_actions(self.state, seat))
                                       if seat in self.to_act() else [])
        return list(self._legal_cache[seat])

    # -- changes ----------------------------------------------------------------------------
    def submit(self, action: Action) -> str | None:
        """Apply ``action`` through the session; returns the refusal in the table's words
        (the engine's refusal code translated, or the storage fault) or None."""
        refusal = self.try_submit(action)
        if refusal is None:
            self.controller.observe()  # a computer's move (or a test's): the controller's timers for it
            return None
        return refusal_text(refusal, name=self.name) if isinstance(refusal, ActionError) else self.message

    def try_submit(self, action: Action) -> ActionError | StorageError | None:
        """Apply ``action`` through the session; returns why not (the engine's refusal, or
        storage that cannot take the journal line, both unworded) or None. It calls nothing
        back: the caller arms the controller's timers (``TableController.perform``, the
        reads, :meth:`submit`)."""
        try:
            events = self.session.apply(action)
        except ActionError as exc:  # the engine's code: worded once, by whoever shows it (issue 30)
            self.message = ""
            self.version += 1
            return exc
        except StorageError as exc:  # not applied: the same move works once storage is back
            from display.table.faults import storage_text

            self.storage_error = exc
            self.message = storage_text(exc.kind)
            self.version += 1
            return exc
        self.storage_error = None
        self.events = events
        self.history.append((action, events))
        self.message = ""
        self.version += 1
        self._bot_due = None
        if self._deal_pending() or self.is_over:
            self.review_pending = True
        return None  # the caller arms the controller's timers (perform, a read, submit): no call back

    def continue_after_review(self) -> None:
        """The players have seen the hand's result: deal the next hand."""
        self.review_pending = False
        self.version += 1
        self.deal_if_needed()

    def deal_if_needed(self) -> list[Event]:
        if self.is_over or self.review_pending or self.reads is not None:
            return []  # real cards: the deal comes out of the shoe
        try:
            events = self.session.deal_if_needed()
        except StorageError as exc:  # tried again on the next update
            from display.table.faults import storage_text

            self.storage_error = exc
            self.message = storage_text(exc.kind)
            return []
        self.storage_error = None
        if events:
            self.events = events
            self.version += 1
            self.controller.observe()
        return events

    def _think(self, seat: int, player: Any) -> None:
        """Start ``seat``'s decision on a copy of its player, once per state: in the
        thinking worker process (:mod:`display.table.thinking`), or in a thread."""
        t = self._thought
        if t is not None and t.state is self.state and t.seat == seat:
            return
        legal = self.engine.legal_actions(self.state, seat)
        if not legal:
            return
        if t is not None:
            t.drop()  # stale: if the worker has not begun it, it never will
        self._thought = Thought(seat, self.state, player)  # it thinks on its own copy
        self._thought.start(self.game, self.engine, self.engine.view(self.state, seat), legal,
                            random.Random(self.rng.getrandbits(64)))

    def thought_ready(self, timeout: float = 10.0) -> bool:
        """Wait (up to ``timeout`` s of wall time) until a computer seat's thought under way
        is worked out; True when none is under way or it is ready. For a run on a fake
        clock (a test, a benchmark): its second passes at once, a search's does not."""
        t = self._thought
        return t is None or t.done.wait(timeout)

    def hold_computers_until(self, t: float) -> None:
        """Keep computer players from acting before ``t`` (e.g. a window for BUY presses)."""
        if self._bot_due is None or self._bot_due < t:
            self._bot_due = t

    def update(self, now: float) -> bool:
        """Deal when due and let one computer seat act when its delay has passed.

        Returns True when the state changed.
        """
        if self.is_over or self.review_pending:
            return False
        if self._deal_pending():
            return bool(self.deal_if_needed())
        if self.controller.update(now):  # rule timers: C-8.4 silence, the buy window
            return True
        for seat in self.to_act():
            player = self.players.get(seat)
            if player is None:
                continue
            if self._bot_due is None:
                self._bot_due = now + self.bot_delay
            if now < self._bot_due:
                if self.bot_delay > 0:
                    self._think(seat, player)  # the delay is the table's, not the thinking's
                return False
            thought, self._thought = self._thought, None
            if thought is not None and thought.state is self.state and thought.seat == seat:
                if self.bot_delay > 0 and not thought.done.is_set():
                    self._thought = thought  # rare: still thinking, the frames go on
                    return False
                action = thought.result()
                self.players[seat] = thought.player  # the copy that saw this view
            else:
                if thought is not None:
                    thought.drop()  # made stale: if the worker has not begun it, it never will
                legal = self.engine.legal_actions(self.state, seat)
                if not legal:
                    continue
                action = player.choose(self.engine, self.engine.view(self.state, seat), legal, self.rng)
            if self.submit(action) is None:
                return True
            if self.storage_error is not None:
                self._bot_due = now + STORAGE_RETRY_S
                return True  # the refusal is shown
            return False
        return False

