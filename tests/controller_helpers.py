"""A match held in memory over the real engine, for the table controller's headless tests:
what ``display.table.match.MatchDriver`` is without the journal and the app (no pygame)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from display.table.controller import BUTTONS, GAMES, Call, Lamp, TableController
from rummy.actions import Action, ActionError
from rummy.games import get_engine
from rummy.play import deal_action


class EngineDriver:
    """The controller's driver over ``engine`` and a state (``humans``: seats people play)."""

    def __init__(self, engine: Any, state: Any, humans: Iterable[int]) -> None:
        self.engine, self.state, self.humans = engine, state, frozenset(humans)
        self.held_until: float | None = None
        self.applied: list[Action] = []

    def to_act(self) -> list[int]:
        if self.engine.decks_to_deal(self.state) or self.engine.is_over(self.state):
            return []
        return list(self.engine.to_act(self.state))

    def legal(self, seat: int) -> list[Action]:
        return list(self.engine.legal_actions(self.state, seat)) if seat in self.to_act() else []

    def is_human(self, seat: int) -> bool:
        return seat in self.humans

    def try_submit(self, action: Action) -> ActionError | None:
        try:
            self.state, _events = self.engine.apply(self.state, action)
        except ActionError as exc:
            return exc
        self.applied.append(action)
        return None

    def hold_computers_until(self, t: float) -> None:
        self.held_until = t if self.held_until is None else max(self.held_until, t)

    def deal(self, rng: random.Random) -> None:
        while self.engine.decks_to_deal(self.state) and not self.engine.is_over(self.state):
            a = deal_action(self.engine, self.state, rng)
            assert a is not None
            self.state, _ = self.engine.apply(self.state, a)


class Clock:
    def __init__(self, t: float = 100.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def new_table(game: str, rules: dict[str, Any], seats: int, humans: Iterable[int], seed: int,
              **options: Any) -> tuple[EngineDriver, TableController, Clock]:
    engine = get_engine(game)
    state = engine.new_match(engine.rules_from_dict(rules), seats)
    driver = EngineDriver(engine, state, humans)
    driver.deal(random.Random(seed))
    clock = Clock()
    options.setdefault("deal_grace", 0.0)  # the clock stands still: no moment after the deal unless asked for
    return driver, TableController(GAMES[game], driver, clock=clock, **options), clock


def twin_acts(ctl: TableController, seat: int, call: Call, arg: Any = None, *, face_up: bool = True) -> bool:
    """Perform ``call`` on a copy of the match and the seat's input (his hand showing or
    not); did either change?"""
    d = ctl.driver
    copy = EngineDriver(d.engine, d.state, d.humans)  # the state is frozen: sharing it is a copy
    twin = TableController(ctl.game, copy, clock=ctl.clock, deal_grace=ctl.grace.seconds)
    twin.grace.key, twin.grace.t0 = ctl.grace.key, ctl.grace.t0
    twin.set_input(seat, ctl.input(seat))
    before = (copy.state, twin.input(seat))
    twin.perform(seat, call, arg, face_up=face_up)
    return bool((copy.state, twin.input(seat)) != before)


def check_lamps(ctl: TableController, seats: int) -> None:
    """Every seat's lit lamps are exactly the buttons whose call changes the state."""
    for seat in range(seats):
        lamps = ctl.lamps(seat)
        acting = {str(b) for b in BUTTONS if twin_acts(ctl, seat, b)}
        lit = {name for name, on in lamps.items() if on}
        assert lit == acting, (f"seat {seat} phase {phase_of(ctl)}: lit {sorted(lit)} but acting {sorted(acting)}"
                               f" (input {ctl.input(seat)})")
        if not ctl.driver.is_human(seat):
            assert not lit, "a computer's lamps stay dark"
        check_lamp_states(ctl, seat)


def discarding(ctl: TableController, seat: int) -> bool:
    """The seat is a person at the step that ends his turn with a discard: gin's discard
    phase (G-5.2, a knock too), contract's play of the player in turn (C-5)."""
    st = ctl.driver.state
    if not ctl.driver.is_human(seat):
        return False
    if hasattr(st, "hand"):
        return phase_of(ctl) == "discard" and seat in ctl.driver.to_act()
    return phase_of(ctl) == "play" and seat == st.turn and seat in ctl.driver.to_act()


def check_lamp_states(ctl: TableController, seat: int) -> None:
    """The lamps as shown (docs/buttons.md, "Lamps"), hand hidden and while he looks with
    each of his buttons: steady exactly on the buttons whose tap acts (the one held to look
    is no tap), the "discard now" flashes exactly on the others while he is at his discard,
    never on a lamp whose call acts; open hands: every held button still taps."""
    now = ctl.clock()
    buttons = {str(b) for b in BUTTONS}
    flash_on = discarding(ctl, seat)

    def expect(states: dict[str, Lamp], acting: set[str], why: str) -> None:
        steady = {b for b, s in states.items() if s is Lamp.ON}
        flashing = {b for b, s in states.items() if s is Lamp.DISCARD}
        assert steady == acting, f"seat {seat} {phase_of(ctl)} {why}: steady {sorted(steady)}, acting {sorted(acting)}"
        assert flashing == (buttons - acting if flash_on else set()), (
            f"seat {seat} {phase_of(ctl)} {why}: flashing {sorted(flashing)} (discarding: {flash_on})")

    hidden = {str(b) for b in BUTTONS if twin_acts(ctl, seat, b, face_up=False)}
    expect(ctl.lamp_states(seat, now, face_up=False), hidden, "hidden")
    if not ctl.driver.is_human(seat):
        return
    shown = {str(b) for b in BUTTONS if twin_acts(ctl, seat, b, face_up=True)}
    expect(ctl.lamp_states(seat, now, face_up=True, open_hands=True), shown, "open hands")
    for b in buttons:  # he holds b to look
        ctl.button(seat, b, "press", now - ctl.look_after)
        try:
            expect(ctl.lamp_states(seat, now, face_up=True), shown - {b}, f"looking with {b}")
        finally:
            assert ctl.button(seat, b, "release", now) is None, "a look is no tap"


def phase_of(ctl: TableController) -> str:
    st = ctl.driver.state
    hand = getattr(st, "hand", None)
    if hasattr(st, "hand"):
        return str(hand.phase) if hand is not None else "deal"
    return str(st.phase)
