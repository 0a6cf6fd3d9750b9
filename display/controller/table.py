"""The table controller: one object per match that turns seat calls into engine actions,
keeps each seat's input state (picked cards, knock mode …), lights the lamps and owns the
rule timers (C-8.4 answer deadline, the buy window) on an injected clock.

What a call does is in one table per game (:mod:`display.controller.gin`,
:mod:`display.controller.contract`); the call handlers and the lamps both read it, so a
lamp is lit exactly when its button's call acts (changes the engine state or the seat's
input state). It lives on the :class:`display.match.MatchDriver`, so it survives a scene
rebuild (the operator menu, a language change). No pygame.

A scene asks:

* ``ctl.perform(seat, Call.DRAW)`` — do what DRAW does for ``seat`` now (a hold on his
  panel, ``Call.HOLD``, is a :class:`Peek` for the display); the
  :class:`Result` says what happened (an engine refusal, a hint to word, the action);
* ``ctl.resolve(seat, Call.DRAW)`` — what it would do (an :data:`Outcome`), nothing done;
* ``ctl.lamps(seat)`` — ``{"draw": bool, "knock": bool, "buy": bool}``;
* ``ctl.hint(seat, face_up=…)`` — what the seat should do now, as a :class:`Hint`;
* ``ctl.screen_buttons(seat)`` — the on-screen buttons the seat's panel offers now;
* ``ctl.answer_left(now)`` / ``ctl.answer_deadline`` — the C-8.4 countdown;
* ``ctl.settling()`` — the moment after a deal before anyone may ask "Можно?".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from display.controller.calls import (
    BUTTONS,
    NOTHING,
    PEEK,
    Call,
    Change,
    Hint,
    HintCode,
    Nothing,
    Outcome,
    Peek,
    Say,
    ScreenButton,
    Submit,
)
from rummy.actions import Action, ActionError


class Driver(Protocol):
    """What the controller needs of the match (``display.match.MatchDriver``)."""

    engine: Any

    @property
    def state(self) -> Any: ...

    def to_act(self) -> list[int]: ...

    def legal(self, seat: int) -> list[Action]: ...

    def is_human(self, seat: int) -> bool: ...

    def try_submit(self, action: Action) -> Exception | None:
        """None when applied; else why not (the engine's ``ActionError``, or a storage error)."""
        ...

    def hold_computers_until(self, t: float) -> None: ...


@dataclass(frozen=True)
class Situation:
    """Everything a game's call table reads: the state, the seat, its legal actions, its
    input state and whether its hand shows (``face_up``, from the display's privacy)."""

    engine: Any
    state: Any
    seat: int
    legal: tuple[Action, ...]
    to_act: tuple[int, ...]
    human: bool
    input: Any
    face_up: bool = True
    settling: bool = False  # just dealt: people are still looking at their new cards

    @property
    def kinds(self) -> frozenset[str]:
        return frozenset(a.kind for a in self.legal)

    @property
    def in_turn(self) -> bool:
        return self.seat in self.to_act

    def find(self, kind: str, **fields: Any) -> Action | None:
        """The first legal action of ``kind`` whose fields equal ``fields``."""
        for a in self.legal:
            if a.kind == kind and all(getattr(a, k) == v for k, v in fields.items()):
                return a
        return None

    def submit(self, kind: str, **fields: Any) -> Submit | None:
        a = self.find(kind, **fields)
        return Submit(a) if a is not None else None


class GameTable(Protocol):
    """One game's call table (see :mod:`display.controller.gin`)."""

    def new_input(self) -> Any: ...

    def input_key(self, state: Any, seat: int) -> object:
        """The seat's input state is dropped when this changes (e.g. his hand)."""
        ...

    def touch_seat(self, driver: Driver) -> int | None:
        """The seat a touch on the table (stock, pile, a meld) is for."""
        ...

    def resolve(self, sit: Situation, call: Call, arg: Any) -> Outcome: ...

    def after_submit(self, sit: Situation, action: Action, ok: bool) -> Any:
        """The seat's input state after ``action`` was applied (``ok``) or refused."""
        ...

    def hint(self, sit: Situation) -> Hint | None: ...

    def screen_buttons(self, sit: Situation) -> tuple[ScreenButton, ...]: ...

    def observe(self, ctl: TableController, now: float) -> None:
        """The state may have changed: arm the game's timers."""
        ...

    def tick(self, ctl: TableController, now: float) -> bool:
        """Timers due at ``now``; True when the state changed."""
        ...


@dataclass(frozen=True)
class Result:
    """What a performed call did: the outcome, and why it was not applied if it was not
    (the engine's ``ActionError`` with its code and params, or the journal's storage error)."""

    outcome: Outcome
    refusal: Exception | None = None

    @property
    def action_tried(self) -> Action | None:
        """The action sent to the engine (applied or refused), if any."""
        o = self.outcome
        return o.action if isinstance(o, Submit) else None

    @property
    def action(self) -> Action | None:
        """The action the engine applied (None when nothing was applied)."""
        return self.action_tried if self.refusal is None else None

    @property
    def hint(self) -> Hint | None:
        o = self.outcome
        if isinstance(o, Say):
            return o.hint
        if isinstance(o, Change):
            return o.hint
        return None


class Deadline:
    """A timer armed by a key: it restarts when the key changes (a new question, a new
    turn), and not when a scene is rebuilt."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.key: object = None
        self.t0 = 0.0

    def arm(self, key: object, now: float) -> None:
        if key != self.key:
            self.key, self.t0 = key, now

    @property
    def at(self) -> float:
        return self.t0 + self.seconds

    def left(self, now: float) -> float:
        return max(0.0, self.at - now)

    def due(self, now: float) -> bool:
        return self.key is not None and now >= self.at


class TableController:
    """The controller of one match (see the module docstring)."""

    def __init__(self, game: GameTable, driver: Driver, *, clock: Callable[[], float],
                 answer_seconds: float = 15.0, buy_window: float = 2.5, deal_grace: float = 3.0) -> None:
        self.game = game
        self.driver = driver
        self.clock = clock
        self.answer = Deadline(answer_seconds)  # C-8.4
        self.window = Deadline(buy_window)  # people may press BUY before a computer takes a card
        self.grace = Deadline(deal_grace)  # after a deal: no question before everyone saw his cards
        self._inputs: dict[int, tuple[object, Any]] = {}
        self.observe()

    # -- the seats' input state -------------------------------------------------------------
    def input(self, seat: int) -> Any:
        """The seat's input state (fresh when its key, e.g. the hand, changed)."""
        key = self.game.input_key(self.driver.state, seat)
        got = self._inputs.get(seat)
        if got is None or got[0] != key:
            got = self._inputs[seat] = (key, self.game.new_input())
        return got[1]

    def set_input(self, seat: int, value: Any) -> None:
        self._inputs[seat] = (self.game.input_key(self.driver.state, seat), value)

    def clear(self, seat: int) -> None:
        self.set_input(seat, self.game.new_input())

    # -- what a call does -------------------------------------------------------------------
    def situation(self, seat: int, *, face_up: bool = True) -> Situation:
        d = self.driver
        human = d.is_human(seat)
        return Situation(d.engine, d.state, seat, tuple(d.legal(seat)) if human else (), tuple(d.to_act()),
                         human, self.input(seat), face_up, self.settling())

    def touch_seat(self) -> int | None:
        """The seat a touch on the stock, the pile or a table meld is for (None: nobody)."""
        return self.game.touch_seat(self.driver)

    def resolve(self, seat: int | None, call: Call, arg: Any = None, *, face_up: bool = True) -> Outcome:
        """What ``call`` by ``seat`` would do now (nothing is done)."""
        if seat is None:
            return NOTHING
        sit = self.situation(seat, face_up=face_up)
        if not sit.human:
            return NOTHING  # a computer's buttons do nothing
        if call is Call.HOLD:
            return PEEK
        if call is Call.PANEL:
            return NOTHING if face_up else Say(Hint.of(HintCode.HOLD_TO_LOOK))
        return self.game.resolve(sit, call, arg)

    def changes(self, seat: int, outcome: Outcome) -> bool:
        """Would ``outcome`` change the engine state or the seat's input state? (A refused
        action changes only what its refusal drops of the seat's picks.)"""
        if isinstance(outcome, Submit):
            if not outcome.judged and outcome.action in self.driver.legal(seat):
                return True
            try:
                self.driver.engine.apply(self.driver.state, outcome.action)  # pure: a copy
            except ActionError:
                sit = self.situation(seat)
                return bool(self.game.after_submit(sit, outcome.action, False) != sit.input)
            return True
        if isinstance(outcome, Change):
            return bool(outcome.input != self.input(seat))
        return False

    def acts(self, seat: int, call: Call, arg: Any = None, *, face_up: bool = True) -> bool:
        """Does ``call`` by ``seat`` do something now (his hand showing or not)?"""
        return self.changes(seat, self.resolve(seat, call, arg, face_up=face_up))

    def lamps(self, seat: int, *, face_up: bool = True) -> dict[str, bool]:
        """The seat's lamps: each lit exactly when its button acts (``face_up``: whether
        his hand shows; a call that acts on cards he cannot see does not act)."""
        return {str(b): self.acts(seat, b, face_up=face_up) for b in BUTTONS}

    def perform(self, seat: int | None, call: Call, arg: Any = None, *, face_up: bool = True) -> Result:
        """Do what ``call`` by ``seat`` does now."""
        outcome = self.resolve(seat, call, arg, face_up=face_up)
        if seat is None or isinstance(outcome, Say | Peek | Nothing):
            return Result(outcome)
        if isinstance(outcome, Change):
            self.set_input(seat, outcome.input)
            return Result(outcome)
        sit = self.situation(seat, face_up=face_up)
        refusal = self.driver.try_submit(outcome.action)
        if refusal is None:
            self.observe()  # a new question, a new turn (the driver observes its computers' moves)
        self.set_input(seat, self.game.after_submit(sit, outcome.action, refusal is None))
        return Result(outcome, refusal)

    # -- what to show -----------------------------------------------------------------------
    def hint(self, seat: int, *, face_up: bool = True) -> Hint | None:
        """What ``seat`` should do now (None: nothing to say)."""
        return self.game.hint(self.situation(seat, face_up=face_up))

    def screen_buttons(self, seat: int, *, face_up: bool = True) -> tuple[ScreenButton, ...]:
        """The on-screen buttons of the seat's panel now (none for a computer)."""
        sit = self.situation(seat, face_up=face_up)
        return self.game.screen_buttons(sit) if sit.human else ()

    def not_your_turn(self) -> Hint:
        to_act = self.driver.to_act()
        return Hint.of(HintCode.NOT_YOUR_TURN, seat=to_act[0]) if to_act else Hint.of(HintCode.WAIT)

    # -- timers -----------------------------------------------------------------------------
    @property
    def answer_seconds(self) -> float:
        return self.answer.seconds

    @property
    def answer_deadline(self) -> float | None:
        """When silence counts as "Можно" (C-8.4); None when no human seat is asked."""
        return self.answer.at if self.answer.key is not None else None

    def answer_left(self, now: float | None = None) -> float:
        return self.answer.left(self.clock() if now is None else now)

    def settling(self, now: float | None = None) -> bool:
        """True in the moment after a deal when nobody may ask "Можно?" yet."""
        now = self.clock() if now is None else now
        return self.grace.key is not None and now < self.grace.at

    def observe(self) -> None:
        """The state may have changed: arm the timers (a new question, a new turn)."""
        self.game.observe(self, self.clock())

    def update(self, now: float | None = None) -> bool:
        """Timers due at ``now`` (the injected clock when None); True when the state changed."""
        now = self.clock() if now is None else now
        self.game.observe(self, now)
        return self.game.tick(self, now)


def first(*outcomes: Outcome | None) -> Outcome | None:
    """The first outcome that is not None."""
    for o in outcomes:
        if o is not None:
            return o
    return None
