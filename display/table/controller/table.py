"""The table controller: one object per match that turns seat calls into engine actions,
keeps each seat's input state (picked cards, knock mode …), lights the lamps and owns the
rule timers (C-8.4 answer deadline, the buy window) on an injected clock.

What a call does is in one table per game (:mod:`display.table.controller.gin`,
:mod:`display.table.controller.contract`); the call handlers and the lamps both read it, so a
lamp is lit exactly when its button's call acts (changes the engine state or the seat's
input state). It lives on the :class:`display.table.match.MatchDriver`, so it survives a scene
rebuild (the operator menu, a language change). No pygame.

A scene asks:

* ``ctl.button(seat, "draw", "press" | "release", t)`` — an arcade button edge; returns
  the call to perform for a *tap* (released within ``look_after``), None for a *look*;
* ``ctl.face_up(seat, now, open_hands=…)`` — the privacy rule (docs/privacy.md): a human
  seat's hand shows only while he holds one of his own buttons, one hand at a time;
* ``ctl.perform(seat, Call.DRAW)`` — do what DRAW does for ``seat`` now (a hold on his
  panel, ``Call.HOLD``, only says how to look: a touch cannot tell who touches); the
  :class:`Result` says what happened (an engine refusal, a hint to word, the action);
* ``ctl.resolve(seat, Call.DRAW)`` — what it would do (an :data:`Outcome`), nothing done;
* ``ctl.lamps(seat)`` — ``{"draw": bool, "knock": bool, "buy": bool}``: each lit exactly
  when its call acts;
* ``ctl.lamp_states(seat, now, face_up=…)`` — ``{"draw": Lamp, …}``: the same, less the
  buttons held to look (letting go ends the look, it is no tap), and the "discard now"
  flashes on the dark lamps of a seat at his discard (docs/buttons.md, "Lamps");
* ``ctl.hint(seat, face_up=…)`` — what the seat should do now, as a :class:`Hint`;
* ``ctl.screen_buttons(seat)`` — the on-screen buttons the seat's panel offers now;
* ``ctl.answer_left(now)`` / ``ctl.answer_deadline`` — the C-8.4 countdown;
* ``ctl.settling()`` — the moment after a deal before anyone may ask "Можно?".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from display.table.controller.calls import (
    BUTTONS,
    NOTHING,
    PANEL_BUTTONS,
    Call,
    Change,
    Hint,
    HintCode,
    Lamp,
    Nothing,
    Outcome,
    Say,
    ScreenButton,
    Submit,
)
from rummy.actions import Action, ActionError


class Driver(Protocol):
    """What the controller needs of the match (``display.table.match.MatchDriver``)."""

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
    """One game's call table (see :mod:`display.table.controller.gin`). ``shows_hands``: a held
    button shows the seat his hand on the screen (False with real cards: the hand is in his
    hands, the screen never shows it, docs/privacy.md)."""

    shows_hands: bool

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

    def open_hand(self, state: Any, seat: int) -> bool:
        """The rules show this hand to everybody (gin: G-8.2 an illegal knocker's, a hand over)."""
        ...

    def discarding(self, sit: Situation) -> bool:
        """Is the seat at the step of his turn that ends with his discard (his lamps say
        "discard now")?"""
        ...

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


#: a button held this long is a look (the hand shows while it is held), not a tap
LOOK_AFTER_S = 0.3


class TableController:
    """The controller of one match (see the module docstring)."""

    def __init__(self, game: GameTable, driver: Driver, *, clock: Callable[[], float],
                 answer_seconds: float = 15.0, buy_window: float = 2.5, deal_grace: float = 3.0,
                 look_after: float = LOOK_AFTER_S) -> None:
        self.game = game
        self.driver = driver
        self.clock = clock
        self.answer = Deadline(answer_seconds)  # C-8.4
        self.window = Deadline(buy_window)  # people may press BUY before a computer takes a card
        self.look_after = look_after
        self.grace = Deadline(deal_grace)  # after a deal: no question before everyone saw his cards
        self._inputs: dict[int, tuple[object, Any]] = {}
        self._down: dict[tuple[int, str], float] = {}  # (seat, button) held -> its press time
        self._looks: set[tuple[int, str]] = set()  # held presses that have been a look
        self.looked: set[int] = set()  # seats that have seen their hand (the how-to-look hint stops)
        self.observe()

    # -- privacy: who sees his hand (docs/privacy.md) --------------------------------------------
    def button(self, seat: int, button: str, edge: str, t: float, *, open_hands: bool = False) -> Call | None:
        """An arcade button edge of ``seat`` at ``t``. A press only starts the clock; its
        release is a *tap* (returns the button's call, to perform now) when it came within
        ``look_after`` and the press never showed the hand, else the end of a *look* (None).
        With open hands nobody needs to look: every release is a tap. ``hold`` edges (the
        board's own, after seconds) say nothing new."""
        key = (seat, button)
        if edge == "press":
            self._down[key] = t
            self._looks.discard(key)
            return None
        if edge != "release":
            return None
        t0 = self._down.pop(key, None)
        looked = key in self._looks
        self._looks.discard(key)
        if t0 is None:
            return None  # pressed before this table heard of it (another screen): no call
        if not open_hands and (looked or self._long(t - t0)):
            return None
        return Call(button) if button in {str(b) for b in BUTTONS} else None

    def _long(self, held: float) -> bool:
        return held >= self.look_after - 1e-9  # clock sums are floats

    def release_all(self) -> None:
        """Forget every held button (a table screen is entered: presses it did not see)."""
        self._down.clear()
        self._looks.clear()

    def holding(self, seat: int) -> bool:
        """Is ``seat`` holding one of his buttons now?"""
        return any(s == seat for s, _b in self._down)

    def looking_with(self, seat: int, now: float, *, open_hands: bool = False) -> frozenset[str]:
        """The buttons ``seat`` holds as a look at ``now`` (held ``look_after`` or longer):
        their release is no tap. With open hands every release is a tap: none."""
        if open_hands:
            return frozenset()
        return frozenset(b for (s, b), t0 in self._down.items()
                         if s == seat and (self._long(now - t0) or (s, b) in self._looks))

    def viewer(self, now: float) -> int | None:
        """The one seat whose hand the privacy rule shows at ``now``: of the human seats
        holding one of their own buttons for ``look_after`` or longer, the one who began
        first (a later one waits until he lets go). A query: nothing changes."""
        held = [(t0, seat) for (seat, _b), t0 in self._down.items()
                if self._long(now - t0) and self.driver.is_human(seat)]
        return min(held)[1] if held else None

    def note_looks(self, now: float, seats: int, *, open_hands: bool = False) -> None:
        """A frame is shown at ``now`` (the scene's update, before it draws): the presses
        held long enough are looks (their release is no tap), and the human seats that see
        their hands know how to look (the first-turn hint stops)."""
        for key, t0 in self._down.items():
            if self._long(now - t0):
                self._looks.add(key)
        self.looked.update(s for s in range(seats)
                           if self.driver.is_human(s) and self.face_up(s, now, open_hands=open_hands))

    def face_up(self, seat: int, now: float | None = None, *, open_hands: bool = False) -> bool:
        """Does ``seat``'s hand show at ``now``? The rules' open hands (G-8.2) always; a
        computer's never; a human's with open hands (the operator's choice), else only
        while he is the :meth:`viewer`."""
        state = self.driver.state
        if self.game.open_hand(state, seat):
            return True
        if not self.driver.is_human(seat) or not self.game.shows_hands:
            return False
        if open_hands:
            return True
        return self.viewer(self.clock() if now is None else now) == seat

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
        if call in (Call.HOLD, Call.PANEL):  # a touch cannot say who touches: it shows nothing
            return NOTHING if face_up else Say(Hint.of(HintCode.HOLD_TO_LOOK))
        if call in PANEL_BUTTONS and not face_up:
            # Anyone may touch any panel: a touch on the buttons of a face-down hand does
            # nothing to that seat (no knock, no answer, no buy made for him); it says how to
            # look. While he holds his button they work as usual (docs/privacy.md).
            return Say(Hint.of(HintCode.HOLD_TO_LOOK))
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

    def lamp_states(self, seat: int, now: float | None = None, *, face_up: bool = True, open_hands: bool = False,
                    wired: frozenset[str] | None = None) -> dict[str, Lamp]:
        """The seat's lamps as shown (docs/buttons.md, "Lamps"): ``ON`` exactly when a tap
        acts (:meth:`lamps`), except on a button held to look (:meth:`looking_with`: its
        release ends the look); a human seat at his discard (``GameTable.discarding``)
        shows the "discard now" flashes on every other lamp of his that is ``wired``
        (None: all), the one he holds to look among them; ``OFF`` otherwise."""
        now = self.clock() if now is None else now
        held = self.looking_with(seat, now, open_hands=open_hands)
        steady = {b for b, on in self.lamps(seat, face_up=face_up).items() if on and b not in held}
        sit = self.situation(seat, face_up=face_up)
        flash = sit.human and self.game.discarding(sit)
        return {str(b): Lamp.ON if str(b) in steady
                else Lamp.DISCARD if flash and (wired is None or str(b) in wired) else Lamp.OFF
                for b in BUTTONS}

    def perform(self, seat: int | None, call: Call, arg: Any = None, *, face_up: bool = True) -> Result:
        """Do what ``call`` by ``seat`` does now."""
        outcome = self.resolve(seat, call, arg, face_up=face_up)
        if seat is None or isinstance(outcome, Say | Nothing):
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
        """What ``seat`` should do now (None: nothing to say). A human in turn who has
        never seen his hand is told first how to look (the first turn)."""
        sit = self.situation(seat, face_up=face_up)
        if sit.human and not face_up and self.game.shows_hands and sit.to_act[:1] == (seat,) \
                and seat not in self.looked:
            return Hint.of(HintCode.HOW_TO_LOOK)
        return self.game.hint(sit)

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


#: what a game's call table maps a (phase, call) to: the outcome, or None for the hint
Handler = Callable[[Situation, Any], Outcome | None]

P = TypeVar("P")


def rows(phase: P, calls: tuple[Call, ...], handler: Handler) -> dict[tuple[P, Call], Handler]:
    """Call-table rows: in ``phase`` each of ``calls`` does what ``handler`` does."""
    return {(phase, call): handler for call in calls}
