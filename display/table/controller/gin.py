"""Gin's call table: what DRAW, KNOCK, the touches and the panel's buttons do in each phase.

======================  ==============================================================
phase (G-18)            calls
======================  ==============================================================
upcard (G-4)            DRAW / pass_button: pass_upcard; pile / take_button: take_upcard
forced_draw (G-4.4)     DRAW / stock / draw_button: draw_stock
draw (G-5.1)            DRAW / stock / draw_button: draw_stock; pile / take_button:
                        draw_discard
discard (G-5.2, G-7)    card: pick it, touched again (or the pile) discard it; KNOCK: knock
                        mode (only with a legal knock, G-7.2), then a card knocks with it;
                        KNOCK again: Big Gin (G-10) or cancel; DRAW: cancel the knock mode;
                        knock_button: knock mode; without a legal knock, where the rules
                        referee an illegal one (G-8), first a warning that says the
                        penalty (confirm mode), pressed again the knock mode "anyway",
                        judged by the engine; big_gin_button. In the knock mode a card
                        with no legal knock is no knock unless "anyway" (it says why)
last_chance (G-13.3)    DRAW / decline_button: decline; KNOCK / pile / take_and_knock_button:
                        take mode, then a card: take_and_knock with it
knock_review (G-8.3)    KNOCK / accept_button: accept_knock; DRAW / refuse_button:
                        refuse_knock
layoff (G-11.3)         card: lay_off; DRAW / done_button: done_laying_off
======================  ==============================================================

A call the table has no entry for says what the seat may do instead (a hint code).

A face-down hand (docs/privacy.md, docs/buttons.md): a call does the same whatever his
cards, so neither its lamp nor what it says tells them (issue 28). KNOCK at his discard
turns the knock mode on (or off), at the last chance the take mode; which card, and whether
it may knock, is judged when he looks and touches it, and refused on his own panel then.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from display.table.controller.calls import (
    NOTHING,
    Call,
    Change,
    Hint,
    HintCode,
    Outcome,
    Say,
    ScreenButton,
    Submit,
)
from display.table.controller.real_rows import (
    CLEAR as REAL_CLEAR,
)
from display.table.controller.real_rows import (
    N_,
    Entry,
    RealInput,
    first,
    judged,
    real_input,
    stock_draw,
    submit,
)
from display.table.controller.real_rows import (
    Mode as RealMode,
)
from display.table.controller.table import Driver, Handler, Situation, TableController, rows
from rummy.actions import Action, ActionError
from rummy.cards import Card
from rummy.gin import reads
from rummy.gin.kinds import ActionKind as K
from rummy.gin.melds import deadwood
from rummy.gin.rules import Arrangement, IllegalKnock
from rummy.gin.state import HandPhase


class Mode(StrEnum):
    """A seat's input mode: the next card touch knocks (KNOCK pressed) or takes the last
    discard to knock (G-13.3)."""

    NONE = ""
    KNOCK = "knock"
    TAKE = "take"
    CONFIRM = "confirm"  # the panel's Knock without a legal knock: warned, press again to knock (G-8)


@dataclass(frozen=True)
class GinInput:
    """A gin seat's input state (not game state)."""

    selected: Card | None = None
    mode: Mode = Mode.NONE
    anyway: bool = False  # the knock mode after "Knock anyway": a card knocks illegally (G-8)


CLEAR = GinInput()


def _hand(sit: Situation) -> Any:
    return sit.state.hand


def _inp(sit: Situation) -> GinInput:
    inp: GinInput = sit.input
    return inp


# -- handlers (None: the call does nothing here, the seat is told what he may do) ----------


def _kind(kind: str) -> Handler:
    return lambda sit, arg: sit.submit(kind)


def _knock_with(sit: Situation, card: Card) -> Outcome:
    """A knock discarding ``card``: the legal one (with its melds); after "Knock anyway"
    the engine judges it (G-8: an illegal knock is refereed, not refused, unless the rules
    say reject). Else no knock: a knock the engine would refuse is sent for it to say why
    (G-22.1 the card just taken, a card not his); one it would referee is said to be over
    the limit (G-7.2), on his own panel, since only a seat that sees his hand touches a card."""
    a = sit.find(K.KNOCK, card=card)
    if a is not None:
        return Submit(a)
    judged = Submit(Action(K.KNOCK, sit.seat, card=card), judged=True)
    if _inp(sit).anyway:
        return judged
    try:
        sit.engine.apply(sit.state, judged.action)  # pure: would the engine referee it?
    except ActionError:
        return judged
    h = _hand(sit)
    rest = tuple(c for c in h.hands[sit.seat] if c != card)
    return Say(Hint.of(HintCode.NO_KNOCK_WITH, card=card, count=deadwood(rest), limit=h.knock_limit))


def _discard(sit: Situation, card: Card) -> Submit:
    a = sit.find(K.DISCARD, card=card)  # G-5.3: the card just taken is not offered; the engine says why
    return Submit(a) if a is not None else Submit(Action(K.DISCARD, sit.seat, card=card), judged=True)


def _may_knock_at_all(sit: Situation) -> bool:
    """Would the engine take some knock now: a legal one, or an illegal one it referees
    (G-8.3: not under ``reject``, not a second one; the table declares the automatic
    arrangement, so not when the knocker must declare his own)?"""
    if K.KNOCK in sit.kinds:
        return True
    h, rules = _hand(sit), sit.state.rules
    return bool(rules.illegal_knock != IllegalKnock.REJECT and h.illegal_knocks[sit.seat] == 0
                and rules.knocker_arrangement != Arrangement.AGENT)


def _no_knock(sit: Situation) -> Say:
    h = _hand(sit)
    return Say(Hint.of(HintCode.NO_KNOCK_YET, count=deadwood(h.hands[sit.seat]), limit=h.knock_limit))


def illegal_warning(sit: Situation) -> Hint:
    """What an illegal knock would cost now (G-8.3, by the rules' ``illegal_knock``)."""
    h = _hand(sit)
    return Hint.of(HintCode.ILLEGAL_KNOCK_WARNING, count=deadwood(h.hands[sit.seat]), limit=h.knock_limit,
                   penalty=sit.state.rules.illegal_knock)


def _knock_press(sit: Situation, arg: Any, *, illegal_too: bool = False) -> Outcome | None:
    """KNOCK in the discard phase: knock mode (with a picked card: knock with it); again:
    Big Gin when it is on (G-10), else cancel. The panel's Knock (``illegal_too``) without
    a legal knock warns first (G-8: what the penalty is); pressed again, the knock mode."""
    inp = _inp(sit)
    if not sit.face_up:  # the same whatever his cards: the knock mode on or off (issue 28)
        if inp.mode is Mode.KNOCK:
            return Change(CLEAR)
        return Change(GinInput(mode=Mode.KNOCK), Hint.of(HintCode.LOOK_TO_KNOCK))
    if inp.mode is Mode.KNOCK:
        if not illegal_too:
            big = sit.submit(K.BIG_GIN)
            if big is not None:
                return big
        return Change(CLEAR)
    if not (K.KNOCK in sit.kinds or (illegal_too and _may_knock_at_all(sit))):
        return _no_knock(sit)  # G-7.2: the lamp is off, the press says why
    if K.KNOCK not in sit.kinds and inp.mode is not Mode.CONFIRM:
        return Change(GinInput(mode=Mode.CONFIRM), illegal_warning(sit))  # G-8: warned, not yet knocking
    anyway = K.KNOCK not in sit.kinds  # confirmed: the player's own illegal knock (G-8)
    if inp.selected is not None and sit.find(K.KNOCK, card=inp.selected) is not None:
        return _knock_with(sit, inp.selected)
    return Change(GinInput(mode=Mode.KNOCK, anyway=anyway))


def _cancel_mode(sit: Situation, arg: Any) -> Outcome | None:
    return Change(CLEAR) if _inp(sit).mode is not Mode.NONE else None


def _discard_card(sit: Situation, card: Card, *, confirm: bool = False) -> Outcome:
    inp = _inp(sit)
    if inp.mode is Mode.KNOCK:
        return _knock_with(sit, card)
    if inp.selected == card or confirm:
        return _discard(sit, card)
    return Change(GinInput(selected=card))


def _pile_in_discard(sit: Situation, arg: Any) -> Outcome | None:
    sel = _inp(sit).selected
    return _discard_card(sit, sel, confirm=True) if sel is not None else None


def _take_mode(sit: Situation, arg: Any) -> Outcome | None:
    """G-13.3: the last discard may be taken only to knock: the next card touch says with
    which discard. Pressed again: cancel. On a face-down hand the same whatever his cards
    (the engine judges the card he touches when he looks)."""
    if K.TAKE_AND_KNOCK not in sit.kinds and sit.face_up:
        return None
    if _inp(sit).mode is Mode.TAKE:
        return Change(CLEAR)
    hint = HintCode.NOW_TOUCH_KNOCK_CARD if sit.face_up else HintCode.LOOK_TO_KNOCK
    return Change(GinInput(mode=Mode.TAKE), Hint.of(hint))


def _pile_in_last_chance(sit: Situation, arg: Any) -> Outcome | None:
    if not sit.face_up:  # anyone may touch the pile: no mode armed on a face-down hand
        return Say(Hint.of(HintCode.HOLD_TO_LOOK))
    if K.TAKE_AND_KNOCK not in sit.kinds:
        return None
    return Change(GinInput(mode=Mode.TAKE), Hint.of(HintCode.NOW_TOUCH_KNOCK_CARD))


def _take_and_knock(sit: Situation, card: Card) -> Outcome:
    a = sit.find(K.TAKE_AND_KNOCK, card=card)
    return Submit(a) if a is not None else Submit(Action(K.TAKE_AND_KNOCK, sit.seat, card=card), judged=True)


def _lay_off(sit: Situation, card: Card) -> Outcome | None:
    return sit.submit(K.LAY_OFF, card=card)


U, F, D, X, L, R, Y = (HandPhase.UPCARD, HandPhase.FORCED_DRAW, HandPhase.DRAW, HandPhase.DISCARD,
                       HandPhase.LAST_CHANCE, HandPhase.KNOCK_REVIEW, HandPhase.LAYOFF)

#: (phase, call) -> handler: the one table the calls, the lamps and the buttons read
TABLE: dict[tuple[HandPhase, Call], Handler] = {
    **rows(U, (Call.DRAW, Call.PASS_BUTTON), _kind(K.PASS_UPCARD)),
    **rows(U, (Call.DISCARD_PILE, Call.TAKE_BUTTON), _kind(K.TAKE_UPCARD)),
    **rows(F, (Call.DRAW, Call.STOCK, Call.DRAW_BUTTON), _kind(K.DRAW_STOCK)),
    **rows(D, (Call.DRAW, Call.STOCK, Call.DRAW_BUTTON), _kind(K.DRAW_STOCK)),
    **rows(D, (Call.DISCARD_PILE, Call.TAKE_BUTTON), _kind(K.DRAW_DISCARD)),
    (X, Call.CARD): lambda sit, card: _discard_card(sit, card),
    (X, Call.DISCARD_PILE): _pile_in_discard,
    (X, Call.KNOCK): _knock_press,
    (X, Call.KNOCK_BUTTON): lambda sit, arg: _knock_press(sit, arg, illegal_too=True),
    (X, Call.BIG_GIN_BUTTON): _kind(K.BIG_GIN),
    (X, Call.DRAW): _cancel_mode,
    **rows(L, (Call.DRAW, Call.DECLINE_BUTTON), _kind(K.DECLINE)),
    **rows(L, (Call.KNOCK, Call.TAKE_AND_KNOCK_BUTTON), _take_mode),
    (L, Call.DISCARD_PILE): _pile_in_last_chance,
    (L, Call.CARD): lambda sit, card: _take_and_knock(sit, card),
    **rows(R, (Call.KNOCK, Call.ACCEPT_BUTTON), _kind(K.ACCEPT_KNOCK)),
    **rows(R, (Call.DRAW, Call.REFUSE_BUTTON), _kind(K.REFUSE_KNOCK)),
    (Y, Call.CARD): lambda sit, card: _lay_off(sit, card),
    **rows(Y, (Call.DRAW, Call.DONE_BUTTON), _kind(K.DONE_LAYING_OFF)),
}

# -- real cards (docs/real_cards.md): the buttons, the shoe and the slot -----------------


def _real_knock(sit: Situation, arg: Any) -> Outcome | None:
    """KNOCK in the discard phase: the next card into the slot knocks (G-7.2: only with a
    legal knock); KNOCK again: Big Gin when he has it (G-10), else back to a discard."""
    inp = real_input(sit)
    if inp.mode is RealMode.KNOCK:
        return sit.submit(K.BIG_GIN) or Change(replace(inp, mode=RealMode.NONE))
    if not sit.legal:
        return None
    # The phase's call whatever his cards (issue 28, docs/privacy.md): a lamp or a refusal
    # that came only with a legal knock would tell the table his deadwood. The card through
    # the slot is then judged as a knock by the engine (G-7.2; an illegal one, G-8.3).
    return Change(replace(inp, mode=RealMode.KNOCK), Hint.of(HintCode.REAL_KNOCK_DISCARD))


def _real_cancel(sit: Situation, arg: Any) -> Outcome | None:
    inp = real_input(sit)
    return Change(replace(inp, mode=RealMode.NONE)) if inp.mode is not RealMode.NONE else None


def _real_slot(sit: Situation, card: Card) -> Outcome | None:
    """The card into the slot: the discard, or after KNOCK the knock (the table's melds)."""
    if real_input(sit).mode is RealMode.KNOCK:
        return judged(sit, K.KNOCK, card=card)
    return judged(sit, K.DISCARD, card=card)


def _real_take_mode(sit: Situation, arg: Any) -> Outcome | None:
    if K.TAKE_AND_KNOCK not in sit.kinds:
        return None
    inp = real_input(sit)
    new = RealMode.NONE if inp.mode is RealMode.TAKE else RealMode.TAKE
    return Change(replace(inp, mode=new), Hint.of(HintCode.TAKE_PICK_DISCARD) if new else None)


def _real_last_slot(sit: Situation, card: Card) -> Outcome | None:
    if real_input(sit).mode is not RealMode.TAKE:
        return None  # not due: the table asks
    return judged(sit, K.TAKE_AND_KNOCK, card=card)


_SHOE_DRAW = Entry(stock_draw(K.DRAW_STOCK), N_("a card out of the shoe: the stock draw"))

#: (phase, call) -> row with real cards: what the arcade buttons and the two read points
#: (:attr:`Call.SHOE_CARD`, :attr:`Call.SLOT_CARD`) do; the lamps and the help read it too
REAL_TABLE: dict[tuple[HandPhase, Call], Entry] = {
    (U, Call.DRAW): Entry(submit(K.TAKE_UPCARD), N_("take the upcard")),  # G-4
    (U, Call.KNOCK): Entry(submit(K.PASS_UPCARD), N_("pass the upcard")),
    (F, Call.SHOE_CARD): _SHOE_DRAW,  # G-4.4
    (D, Call.DRAW): Entry(submit(K.DRAW_DISCARD), N_("take the discard")),  # G-5.1
    (D, Call.SHOE_CARD): _SHOE_DRAW,
    (X, Call.SLOT_CARD): Entry(_real_slot, N_("a card into the slot: the discard")),  # G-5.2
    (X, Call.KNOCK): Entry(_real_knock, N_("knock: then the discard face down through the slot; "
                                           "KNOCK again: Big Gin")),  # G-7, G-10
    (X, Call.DRAW): Entry(_real_cancel, N_("after KNOCK: discard without knocking")),
    (L, Call.DRAW): Entry(submit(K.DECLINE), N_("decline the last discard")),  # G-13.3
    (L, Call.KNOCK): Entry(_real_take_mode, N_("take the last discard to knock, then the "
                                               "discard through the slot")),
    (L, Call.SLOT_CARD): Entry(_real_last_slot, N_("after KNOCK: the knock's discard")),
    (R, Call.KNOCK): Entry(submit(K.ACCEPT_KNOCK), N_("accept the knock")),  # G-8.3
    (R, Call.DRAW): Entry(submit(K.REFUSE_KNOCK), N_("refuse the knock")),
    (Y, Call.KNOCK): Entry(first(K.LAY_OFF), N_("lay off the card the table shows")),  # G-11.3
    (Y, Call.DRAW): Entry(submit(K.DONE_LAYING_OFF), N_("done laying off")),
}

#: phase -> the hint of the seat in turn there: its code and the card it names (DISCARD's
#: hints depend on the seat's input, see GinTable.hint)
PHASE_HINTS: dict[HandPhase, tuple[HintCode, Callable[[Any], Card | None] | None]] = {
    U: (HintCode.UPCARD_OFFER, lambda h: h.upcard),  # G-4
    F: (HintCode.FORCED_DRAW, None),  # G-4.4
    D: (HintCode.DRAW_OR_TAKE, lambda h: h.top_discard),  # G-5.1
    L: (HintCode.LAST_CARD, lambda h: h.top_discard),  # G-13.3
    R: (HintCode.KNOCK_REVIEW, None),  # G-8.3
    Y: (HintCode.LAY_OFF, None),  # G-11.3
}

#: (legal kind, the button offered for it, hot), in the panel's order: before the
#: discard phase's buttons, and after them
DRAW_BUTTONS: tuple[tuple[str, Call, bool], ...] = (
    (K.TAKE_UPCARD, Call.TAKE_BUTTON, True), (K.PASS_UPCARD, Call.PASS_BUTTON, False),
    (K.DRAW_STOCK, Call.DRAW_BUTTON, True))
LATER_BUTTONS: tuple[tuple[str, Call, bool], ...] = (
    (K.TAKE_AND_KNOCK, Call.TAKE_AND_KNOCK_BUTTON, True), (K.DECLINE, Call.DECLINE_BUTTON, False),
    (K.ACCEPT_KNOCK, Call.ACCEPT_BUTTON, True), (K.ACCEPT_KNOCK, Call.REFUSE_BUTTON, False),
    (K.DONE_LAYING_OFF, Call.DONE_BUTTON, True))

#: touches on the table, made by the seat to act
TABLE_TOUCHES = frozenset({Call.STOCK, Call.DISCARD_PILE})


class GinTable:
    """Gin's :class:`display.table.controller.table.GameTable`, with its real-card rows and
    what the reads need to know of a gin state (:mod:`display.table.controller.real_cards`)."""

    shows_hands = True
    kinds = K
    real_rows = REAL_TABLE
    real_clear: RealInput = REAL_CLEAR
    first_phase = HandPhase.UPCARD  # after a deal (G-4): what the deal screen's help explains
    takes_copy = False  # no rule about the very copy taken (two packs are contract's, C-13)

    def real_phase(self, state: Any) -> HandPhase | None:
        """The phase the real-card rows are keyed by (None: no hand in play)."""
        h = state.hand
        return None if h is None or h.phase is HandPhase.OVER else HandPhase(h.phase)

    def real_row(self, state: Any, call: Call) -> Entry | None:
        """The real-card row of ``call`` in the state's phase (None: none, or no hand)."""
        phase = self.real_phase(state)
        return None if phase is None else self.real_entry(phase, call)

    def real_entry(self, phase: HandPhase, call: Call) -> Entry | None:
        return REAL_TABLE.get((phase, call))

    def expected(self, state: Any) -> Any:
        """``rummy.gin.reads.expected``: the cards out of the shoe due now, or None."""
        return reads.expected(state)

    def hands(self, state: Any) -> tuple[tuple[Card, ...], ...]:
        return tuple(state.hand.hands) if state.hand is not None else ()

    def pile(self, state: Any) -> tuple[Card, ...]:
        return tuple(state.hand.discard_pile) if state.hand is not None else ()

    def slot_seat(self, state: Any, to_act: list[int]) -> int:
        """Whose discard a card into the slot is: the seat to act."""
        return to_act[0] if to_act else -1

    def new_input(self) -> GinInput:
        return CLEAR

    def input_key(self, state: Any, seat: int) -> object:
        h = state.hand
        return None if h is None else (state.game_number, state.hand_number, h.phase, h.turn)

    def touch_seat(self, driver: Driver) -> int | None:
        to_act = driver.to_act()
        return to_act[0] if to_act and driver.is_human(to_act[0]) else None

    def resolve(self, sit: Situation, call: Call, arg: Any) -> Outcome:
        h = _hand(sit)
        if h is None or h.phase is HandPhase.OVER or not sit.to_act:
            return Say(Hint.of(HintCode.WAIT)) if call not in TABLE_TOUCHES else NOTHING
        if call is Call.CARD and not sit.face_up:
            return Say(Hint.of(HintCode.HOLD_TO_LOOK))
        if not sit.in_turn:
            return Say(Hint.of(HintCode.NOT_YOUR_TURN, seat=sit.to_act[0]))
        handler = TABLE.get((h.phase, call))
        out = handler(sit, arg) if handler is not None else None
        if out is not None:
            return out
        hint = self.hint(sit)
        return Say(hint) if hint is not None else NOTHING

    def after_submit(self, sit: Situation, action: Action, ok: bool) -> GinInput:
        return CLEAR  # applied or refused, the picks and the knock mode are done with

    def hint(self, sit: Situation) -> Hint | None:
        """What the seat should do now (his status line)."""
        h = _hand(sit)
        if h is None or h.phase is HandPhase.OVER:
            return None
        if not sit.in_turn:
            return Hint.of(HintCode.OTHER_TO_PLAY, seat=sit.to_act[0]) if sit.to_act else None
        if not sit.human:
            return Hint.of(HintCode.THINKING)
        inp, phase = _inp(sit), h.phase
        if inp.mode in (Mode.KNOCK, Mode.TAKE) and not sit.face_up:
            return Hint.of(HintCode.LOOK_TO_KNOCK)
        if inp.mode is Mode.KNOCK:
            return Hint.of(HintCode.KNOCK_PICK_DISCARD)
        if inp.mode is Mode.TAKE:
            return Hint.of(HintCode.TAKE_PICK_DISCARD)
        if inp.mode is Mode.CONFIRM:
            return illegal_warning(sit)
        if phase is HandPhase.DISCARD:
            if h.must_knock[sit.seat]:
                return Hint.of(HintCode.MUST_KNOCK)  # G-8.2
            if not sit.face_up:
                return Hint.of(HintCode.HOLD_THEN_DISCARD)
            if inp.selected is not None:
                return Hint.of(HintCode.TOUCH_AGAIN_TO_DISCARD, card=inp.selected)
            return Hint.of(HintCode.DISCARD_OR_KNOCK)
        if phase not in PHASE_HINTS:
            return None
        code, card = PHASE_HINTS[phase]
        return Hint.of(code) if card is None else Hint.of(code, card=card(h))

    def screen_buttons(self, sit: Situation) -> tuple[ScreenButton, ...]:
        """The panel's buttons: what the seat may do now (at most three). A face-down hand's
        are the phase's whatever his cards (issue 28): Knock at his discard, never hot and
        without Big Gin; Take and knock at the last chance."""
        kinds, h = sit.kinds, _hand(sit)
        if not sit.face_up and h is not None and sit.legal:
            if h.phase is HandPhase.DISCARD:
                return (ScreenButton(Call.KNOCK_BUTTON),)
            if h.phase is HandPhase.LAST_CHANCE:
                decline = (ScreenButton(Call.DECLINE_BUTTON),) if K.DECLINE in kinds else ()
                return (ScreenButton(Call.TAKE_AND_KNOCK_BUTTON), *decline)
        out = [ScreenButton(call, hot=hot) for kind, call, hot in DRAW_BUTTONS if kind in kinds]
        if h is not None and h.phase is HandPhase.DISCARD and sit.legal:
            if K.BIG_GIN in kinds:
                out.append(ScreenButton(Call.BIG_GIN_BUTTON, hot=True))
            knocking = _inp(sit).mode is Mode.KNOCK
            if knocking or _may_knock_at_all(sit):  # G-8: an illegal knock is the player's to make
                out.append(ScreenButton(Call.KNOCK_BUTTON, hot=K.KNOCK in kinds and not knocking))
        out += [ScreenButton(call, hot=hot) for kind, call, hot in LATER_BUTTONS if kind in kinds]
        return tuple(out[:3])

    def open_hand(self, state: Any, seat: int) -> bool:
        """A hand over shows both hands; an illegal knocker's stays face up (G-8.2)."""
        h = state.hand
        return h is not None and (h.phase is HandPhase.OVER or bool(h.exposed[seat]))

    def discarding(self, sit: Situation) -> bool:
        """The seat in turn at his discard (G-5.2; a knock is a discard too, G-7)."""
        h = _hand(sit)
        return h is not None and h.phase is HandPhase.DISCARD and sit.in_turn

    def observe(self, ctl: TableController, now: float) -> None:
        """Gin has no rule timers."""

    def tick(self, ctl: TableController, now: float) -> bool:
        return False


GAME = GinTable()
