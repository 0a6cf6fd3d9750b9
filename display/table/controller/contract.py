"""Contract rummy's call table: DRAW / KNOCK / BUY, the touches and the panel's buttons in
each phase, and the rule timers (the C-8.4 answer deadline, the buy window).

=============  ===================================================================
phase          calls
=============  ===================================================================
turn (C-9)     the player in turn: DRAW / stock / draw_button: draw_stock; pile:
               draw_discard (C-5.1); BUY: choose how many pack cards (C-8.2), then
               take_cards_button(k); another seat: BUY / buy_button: "Можно?" (C-8.3)
ask (C-8.4)    the asked seat: DRAW / yes_button: "Можно"; KNOCK / no_button: "Нельзя";
               a nearer seat may still BUY (C-8.8); silence for ``answer_seconds``
               counts as "Можно": the controller submits that same answer
take (C-8.5)   the buyer: DRAW: one card; take_cards_button(k): k cards
play (C-5)     card: pick it (again: discard it); group_button: group the picked
               cards; KNOCK / meld_button: lay the contract (the player's groups,
               judged by the engine, or the suggested arrangement, C-3); a picked
               card and a table meld: lay_off (C-5.2); a picked card and the pile /
               discard_button / DRAW: discard (C-5.3); the lamps flash "discard now"
=============  ===================================================================

A call the table has no entry for says what the seat may do instead (a hint code). While a
computer is in turn and a person may still buy, the computer waits ``buy_window`` seconds
from the start of the turn.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
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
    CONTRACT_CLEAR as REAL_CLEAR,
)
from display.table.controller.real_rows import (
    N_,
    Entry,
    RealInput,
    first,
    judged,
    stock_draw,
)
from display.table.controller.table import Driver, Handler, Situation, TableController, rows
from rummy.actions import Action
from rummy.cards import Card
from rummy.contract import reads
from rummy.contract.kinds import ActionKind as K
from rummy.contract.kinds import Phase
from rummy.contract.state import ASK, PLAY, TAKE, TURN


@dataclass(frozen=True)
class ContractInput:
    """A contract seat's input state: picked cards and own groups as hand indices, and
    whether BUY asked the player in turn how many cards to buy (C-8.2)."""

    selected: tuple[int, ...] = ()
    groups: tuple[tuple[int, ...], ...] = ()
    choose_take: bool = False


CLEAR = ContractInput()


def _inp(sit: Situation) -> ContractInput:
    inp: ContractInput = sit.input
    return inp


def _hand(sit: Situation) -> tuple[Card, ...]:
    hands = sit.state.hands
    return tuple(hands[sit.seat]) if hands else ()


def selected_cards(sit: Situation) -> list[Card]:
    h = _hand(sit)
    return [h[i] for i in _inp(sit).selected if i < len(h)]


def asking(state: Any) -> tuple[int, int, Card] | None:
    """(asker, asked, card) while a "Можно?" question waits for its answer (C-8.4)."""
    b = state.buy
    if state.phase == ASK and b is not None and b.asked is not None and b.asker is not None:
        return (b.asker, b.asked, b.card)
    return None


def _or_judged(sit: Situation, kind: str, **fields: Any) -> Submit:
    """The legal action, else the same action for the engine to judge (and say why not)."""
    a = sit.find(kind, **fields)
    return Submit(a) if a is not None else Submit(Action(kind, sit.seat, **fields), judged=True)


# -- handlers (None: the call does nothing here, the seat is told what he may do) ----------


def _answer(flag: bool) -> Handler:
    return lambda sit, arg: sit.submit(K.ANSWER, flag=flag)  # C-8.4


def _draw_in_turn(sit: Situation, arg: Any) -> Outcome | None:
    if _inp(sit).choose_take:
        return Change(replace(_inp(sit), choose_take=False))
    return sit.submit(K.DRAW_STOCK)  # C-5.1


def _buy(sit: Situation, arg: Any) -> Outcome | None:
    """BUY: the player in turn chooses how many cards (C-8.2); another seat asks "Можно?"
    (C-8.3, C-8.8); when the engine would not have it, it says why (C-8.1, C-8.7)."""
    st = sit.state
    if st.phase == TURN and sit.seat == st.turn:
        if any(a.kind == K.BUY and a.target for a in sit.legal):
            return Change(replace(_inp(sit), choose_take=not _inp(sit).choose_take))
        return Say(Hint.of(HintCode.CANNOT_BUY_NOW))
    if sit.settling and sit.find(K.BUY) is not None:
        return Say(Hint.of(HintCode.LOOK_AT_NEW_CARDS))  # nobody is asked before he saw his cards
    return _or_judged(sit, K.BUY)


def _meld(sit: Situation, arg: Any) -> Outcome | None:
    """Lay the contract: the player's own groups (the engine judges them, C-3), else the
    table's suggestion, the cheapest contract (C-15.3), which his hand shows outlined;
    only while he sees his hand."""
    if not sit.face_up:
        return Say(Hint.of(HintCode.HOLD_TO_LOOK))
    inp = _inp(sit)
    if inp.groups:
        h = _hand(sit)
        melds = tuple(tuple(h[i] for i in g) for g in inp.groups)
        return Submit(Action(K.MELD, sit.seat, melds=melds), judged=True)
    return sit.submit(K.MELD) or Say(Hint.of(HintCode.NO_CONTRACT_YET))


def _discard(sit: Situation, card: Card) -> Submit:
    return _or_judged(sit, K.DISCARD, card=card)  # C-5.3, C-6.3: the engine says why not


def _take(sit: Situation, k: Any) -> Outcome | None:
    """k pack cards: a buyer's choice (C-8.5) or the in-turn buy (C-8.2)."""
    return sit.submit(K.TAKE_CARDS, target=k) or sit.submit(K.BUY, target=k) or Say(Hint.of(HintCode.CANNOT_NOW))


def _pick(sit: Situation, index: int) -> Outcome:
    """A touch on one of his cards in his play: pick, unpick, ungroup; touched again: discard."""
    inp = _inp(sit)
    if any(index in g for g in inp.groups):
        return Change(replace(inp, groups=tuple(g for g in inp.groups if index not in g)))
    if inp.selected == (index,):
        return _discard(sit, _hand(sit)[index])
    if index in inp.selected:
        return Change(replace(inp, selected=tuple(i for i in inp.selected if i != index)))
    return Change(replace(inp, selected=(*inp.selected, index)))


def _pile_in_play(sit: Situation, arg: Any) -> Outcome | None:
    sel = selected_cards(sit)
    if len(sel) == 1:
        return _discard(sit, sel[0])
    return Say(Hint.of(HintCode.PICK_ONE_TO_DISCARD))


def _discard_button(sit: Situation, arg: Any) -> Outcome | None:
    sel = selected_cards(sit)
    return _discard(sit, sel[0]) if len(sel) == 1 else None


def _lay_off(sit: Situation, meld_id: int) -> Outcome | None:
    sel = selected_cards(sit)
    if len(sel) != 1:
        return Say(Hint.of(HintCode.PICK_ONE_TO_LAY_OFF))
    return _or_judged(sit, K.LAY_OFF, card=sel[0], target=meld_id)  # C-5.2: the engine says why not


def _group(sit: Situation, arg: Any) -> Outcome | None:
    inp = _inp(sit)
    if len(inp.selected) < 2:
        return None
    return Change(ContractInput(groups=(*inp.groups, tuple(sorted(inp.selected)))))


def _clear(sit: Situation, arg: Any) -> Outcome | None:
    return Change(CLEAR)


def _pile_in_turn(sit: Situation, arg: Any) -> Outcome | None:
    if sit.seat != sit.state.turn:
        return None
    return _or_judged(sit, K.DRAW_DISCARD)  # C-5.1 (never his own discard, C-15.1 stock only)


def _stock(sit: Situation, arg: Any) -> Outcome | None:
    return sit.submit(K.DRAW_STOCK) or NOTHING


#: (phase, call) -> handler: the one table the calls, the lamps and the buttons read
TABLE: dict[tuple[str, Call], Handler] = {
    **rows(TURN, (Call.DRAW, Call.DRAW_BUTTON), _draw_in_turn),
    (TURN, Call.STOCK): _stock,
    (TURN, Call.DISCARD_PILE): _pile_in_turn,
    **rows(TURN, (Call.BUY, Call.BUY_BUTTON), _buy),
    (TURN, Call.TAKE_CARDS_BUTTON): _take,
    (TURN, Call.CANCEL_BUTTON): _clear,
    **rows(ASK, (Call.DRAW, Call.YES_BUTTON), _answer(True)),
    **rows(ASK, (Call.KNOCK, Call.NO_BUTTON), _answer(False)),
    **rows(ASK, (Call.BUY, Call.BUY_BUTTON), _buy),
    (TAKE, Call.DRAW): lambda sit, arg: sit.submit(K.TAKE_CARDS, target=1),
    (TAKE, Call.TAKE_CARDS_BUTTON): _take,
    (TAKE, Call.BUY): _buy,
    (PLAY, Call.DRAW): _discard_button,  # the DRAW lamp lights steady once one card is picked
    (PLAY, Call.CARD): _pick,
    (PLAY, Call.DISCARD_PILE): _pile_in_play,
    (PLAY, Call.DISCARD_BUTTON): _discard_button,
    (PLAY, Call.TABLE_MELD): _lay_off,
    (PLAY, Call.GROUP_BUTTON): _group,
    **rows(PLAY, (Call.KNOCK, Call.MELD_BUTTON), _meld),
    (PLAY, Call.CLEAR_BUTTON): _clear,
    (PLAY, Call.BUY): _buy,
}

#: calls that act on the seat's cards as he sees them: nothing while his hand is hidden
HAND_CALLS = frozenset({Call.CARD, Call.GROUP_BUTTON, Call.MELD_BUTTON, Call.DISCARD_BUTTON, Call.CLEAR_BUTTON})

#: touches on the table, made by the seat in turn
TABLE_TOUCHES = frozenset({Call.STOCK, Call.DISCARD_PILE, Call.TABLE_MELD})


# -- real cards (docs/real_cards.md): the buttons, the shoe and the slot -----------------


def _real_buy(sit: Situation, arg: Any) -> Outcome | None:
    """BUY: another seat asks "Можно?" (C-8.3, C-8.8); the player in turn buys in turn
    the fewest cards the rules allow (C-8.2)."""
    st = sit.state
    if st.phase == TURN and sit.seat == st.turn:
        counts = sorted(a.target for a in sit.legal if a.kind == K.BUY and a.target)
        return Submit(Action(K.BUY, sit.seat, target=counts[0])) if counts else None
    if sit.settling:
        return None
    return sit.submit(K.BUY)


def _in_turn(handler: Handler) -> Handler:
    """Only the player in turn's call (another seat's does nothing)."""
    return lambda sit, arg: handler(sit, arg) if sit.seat == sit.state.turn else None


def _real_stock_gone(sit: Situation, arg: Any) -> Outcome | None:
    """KNOCK in turn when the shoe is empty for good (no refill left, C-10.2): the deal
    ends, as a draw from an empty stock ends it."""
    st = sit.state
    if sit.seat != st.turn or st.stock or reads.expected(st) is not None:
        return None
    return sit.submit(K.DRAW_STOCK)


def _real_take(k: int | None) -> Handler:
    """The buyer takes k pack cards (C-8.5; None: as many as he may)."""
    def handler(sit: Situation, arg: Any) -> Outcome | None:
        takes = sorted(a.target for a in sit.legal if a.kind == K.TAKE_CARDS and a.target)
        if not takes:
            return None
        return sit.submit(K.TAKE_CARDS, target=takes[-1] if k is None else takes[0])
    return handler


def _real_meld_or_lay_off(sit: Situation, arg: Any) -> Outcome | None:
    """KNOCK in his play: lay the contract (the table's cheapest, C-15.3), else lay off
    the card the table finds (C-5.2)."""
    return sit.submit(K.MELD) or first(K.LAY_OFF)(sit, arg)


_REAL_BUY = Entry(_real_buy, N_("\"Можно?\": ask to buy the top card (in turn: buy it with "
                               "a stock card, C-8.2)"))  # C-8.3

#: (phase, call) -> row with real cards: what the arcade buttons and the two read points
#: (:attr:`Call.SHOE_CARD`, :attr:`Call.SLOT_CARD`) do; the lamps and the help read it too
REAL_TABLE: dict[tuple[Phase, Call], Entry] = {
    (TURN, Call.DRAW): Entry(_in_turn(lambda sit, arg: sit.submit(K.DRAW_DISCARD)),
                             N_("take the top card of the pack")),  # C-5.1
    (TURN, Call.SHOE_CARD): Entry(_in_turn(stock_draw(K.DRAW_STOCK)), N_("a card out of the shoe: the stock draw")),
    (TURN, Call.KNOCK): Entry(_real_stock_gone, N_("the shoe is empty for good: end the deal (C-10.2)")),
    (TURN, Call.BUY): _REAL_BUY,
    (ASK, Call.DRAW): Entry(lambda sit, arg: sit.submit(K.ANSWER, flag=True),
                            N_("asked: \"Можно\" (yes)")),  # C-8.4
    (ASK, Call.KNOCK): Entry(lambda sit, arg: sit.submit(K.ANSWER, flag=False),
                             N_("asked: \"Нельзя\" (no: you buy it)")),
    (ASK, Call.BUY): Entry(_real_buy, N_("\"Можно?\" (a nearer seat, C-8.8)")),
    (TAKE, Call.DRAW): Entry(_real_take(1), N_("the buyer: take one card of the pack")),  # C-8.5
    (TAKE, Call.KNOCK): Entry(_real_take(None), N_("the buyer: take every card he may")),
    (PLAY, Call.SLOT_CARD): Entry(_in_turn(lambda sit, card: judged(sit, K.DISCARD, card=card)),
                                  N_("a card into the slot: the discard")),  # C-5.3, C-6
    (PLAY, Call.KNOCK): Entry(_in_turn(_real_meld_or_lay_off), N_("lay the contract the table shows, then each "
                                                                  "lay-off it shows")),  # C-3, C-5.2
}

#: the phases a hand is played in (the real-card rows' keys)
REAL_PHASES = frozenset({TURN, ASK, TAKE, PLAY})


class ContractTable:
    """Contract rummy's :class:`display.table.controller.table.GameTable`, with its
    real-card rows and what the reads need to know of a contract state
    (:mod:`display.table.controller.real_cards`)."""

    shows_hands = True
    kinds = K
    real_rows = REAL_TABLE
    real_clear: RealInput = REAL_CLEAR
    first_phase = TURN  # after a deal (C-5.1): what the deal screen's help explains
    takes_copy = True  # C-5.3 with two packs (C-13): the very copy he took from the pack

    def real_phase(self, state: Any) -> Phase | None:
        """The phase the real-card rows are keyed by (None: no hand in play)."""
        return Phase(state.phase) if state.phase in REAL_PHASES else None

    def real_row(self, state: Any, call: Call) -> Entry | None:
        """The real-card row of ``call`` in the state's phase (None: none, or no hand)."""
        phase = self.real_phase(state)
        return None if phase is None else self.real_entry(phase, call)

    def real_entry(self, phase: Phase, call: Call) -> Entry | None:
        """The row of ``(phase, call)``; BUY while the question travels (C-8.8: in the
        take and play phases too) is the turn's BUY."""
        entry = REAL_TABLE.get((phase, call))
        return REAL_TABLE[(TURN, Call.BUY)] if entry is None and call is Call.BUY else entry

    def expected(self, state: Any) -> Any:
        """``rummy.contract.reads.expected``: the cards out of the shoe due now, or None."""
        return reads.expected(state)

    def hands(self, state: Any) -> tuple[tuple[Card, ...], ...]:
        return tuple(tuple(h) for h in state.hands) if state.hands else ()

    def pile(self, state: Any) -> tuple[Card, ...]:
        return tuple(p.card for p in state.discard_pile)

    def slot_seat(self, state: Any, to_act: list[int]) -> int:
        """Whose discard a card into the slot is: the player in turn (the asked seat may
        be to act, C-8.4)."""
        return int(state.turn) if to_act else -1

    def new_input(self) -> ContractInput:
        return CLEAR

    def input_key(self, state: Any, seat: int) -> object:
        """A changed hand makes picked indices meaningless; a new turn or phase ends a
        choice of how many cards to buy."""
        hand = tuple(state.hands[seat]) if state.hands else ()
        return (hand, state.phase, state.turn, state.deal_number)

    def touch_seat(self, driver: Driver) -> int | None:
        seat: int = driver.state.turn
        return seat if driver.is_human(seat) and seat in driver.to_act() else None

    def resolve(self, sit: Situation, call: Call, arg: Any) -> Outcome:
        st = sit.state
        if st.phase not in (TURN, ASK, TAKE, PLAY):
            return NOTHING
        if call in HAND_CALLS and not sit.face_up:
            return Say(Hint.of(HintCode.HOLD_TO_LOOK))  # only what he sees: never an unseen meld
        if st.phase == PLAY and sit.seat != st.turn and call is not Call.BUY:
            return Say(self._idle(sit))
        handler = TABLE.get((st.phase, call))
        out = handler(sit, arg) if handler is not None else None
        if out is not None:
            return out
        if call in TABLE_TOUCHES:
            return NOTHING if st.phase != PLAY or call is Call.STOCK else Say(self._idle(sit))
        return Say(self._idle(sit))

    def _idle(self, sit: Situation) -> Hint:
        if not sit.in_turn:
            return Hint.of(HintCode.NOT_YOUR_TURN, seat=sit.state.turn)
        return self.hint(sit) or Hint.of(HintCode.CANNOT_NOW)

    def after_submit(self, sit: Situation, action: Action, ok: bool) -> ContractInput:
        if ok:
            return CLEAR
        inp = _inp(sit)  # refused: his groups stay (C-3); a refused discard drops the pick
        return replace(inp, choose_take=False, selected=() if action.kind == K.DISCARD else inp.selected)

    def hint(self, sit: Situation) -> Hint | None:
        """What the seat should do now (his status line)."""
        st, seat = sit.state, sit.seat
        if st.phase not in (TURN, ASK, TAKE, PLAY):
            return None
        kinds = sit.kinds
        if st.phase == ASK and st.buy is not None and st.buy.asked == seat:
            if not sit.human:
                return Hint.of(HintCode.THINKING)
            return Hint.of(HintCode.ASKED, asker=st.buy.asker, card=st.buy.card)  # C-8.4
        if K.BUY in kinds and seat != st.turn:
            if sit.settling:
                return Hint.of(HintCode.LOOK_AT_NEW_CARDS)
            return Hint.of(HintCode.BUY_TO_ASK, card=st.top.card)  # C-8.3
        if not sit.in_turn:
            if st.phase == ASK and st.buy is not None:
                return Hint.of(HintCode.WAITING_FOR_ANSWER, seat=st.buy.asked)
            if st.phase == TAKE and st.buy is not None:
                return Hint.of(HintCode.IS_BUYING, seat=st.buy.buyer)
            return Hint.of(HintCode.OTHER_TO_PLAY, seat=st.turn)
        if not sit.human:
            return Hint.of(HintCode.THINKING)
        if st.phase == TAKE:
            return Hint.of(HintCode.HOW_MANY)  # C-8.5
        if st.phase == TURN:
            if _inp(sit).choose_take:  # C-8.2: how many, with the stock cards, and the turn ends
                return Hint.of(HintCode.BUY_HOW_MANY)
            if any(a.kind == K.BUY and a.target for a in sit.legal):  # C-8.2: BUY in turn buys several
                return Hint.of(HintCode.DRAW_TAKE_OR_BUY, card=st.top.card)
            if K.DRAW_DISCARD in kinds and not st.stock_only:
                return Hint.of(HintCode.DRAW_OR_TAKE_PACK, card=st.top.card)  # C-5.1
            return Hint.of(HintCode.DRAW_FROM_STOCK)
        if not sit.face_up:  # PLAY
            return Hint.of(HintCode.HOLD_TO_LOOK)
        sel = selected_cards(sit)
        if K.MELD in kinds and not sel:
            return Hint.of(HintCode.CAN_MELD)
        if len(sel) == 1:
            if K.LAY_OFF in kinds:
                return Hint.of(HintCode.DISCARD_OR_LAY_OFF, card=sel[0])
            return Hint.of(HintCode.TOUCH_AGAIN_OR_PACK, card=sel[0])
        if len(sel) > 1:
            return Hint.of(HintCode.CARDS_PICKED, n=len(sel))
        return Hint.of(HintCode.TOUCH_TO_PICK)

    def screen_buttons(self, sit: Situation) -> tuple[ScreenButton, ...]:
        """The panel's buttons: what the seat may do now (at most four)."""
        st, seat, legal, kinds, inp = sit.state, sit.seat, sit.legal, sit.kinds, _inp(sit)
        if K.ANSWER in kinds:  # C-8.4
            return (ScreenButton(Call.YES_BUTTON, hot=True), ScreenButton(Call.NO_BUTTON))
        takes = sorted(a.target for a in legal if a.kind == K.TAKE_CARDS and a.target is not None)
        if inp.choose_take and st.phase == TURN:
            takes = sorted(a.target for a in legal if a.kind == K.BUY and a.target)
        out: list[ScreenButton] = []
        if takes:
            out += [ScreenButton(Call.TAKE_CARDS_BUTTON, hot=k == takes[0], arg=k) for k in takes[:3]]
            if inp.choose_take:
                out.append(ScreenButton(Call.CANCEL_BUTTON))
            return tuple(out)
        if K.DRAW_STOCK in kinds:
            out.append(ScreenButton(Call.DRAW_BUTTON, hot=True))
        if K.BUY in kinds and not (sit.settling and seat != st.turn):  # no question in the moment after a deal
            out.append(ScreenButton(Call.BUY_BUTTON, hot=seat != st.turn))
        if st.phase == PLAY and seat == st.turn and legal and sit.face_up:  # the hand's calls: seen cards only
            sel = inp.selected
            if len(sel) == 1:
                out.append(ScreenButton(Call.DISCARD_BUTTON, hot=True))
            elif len(sel) >= 2 and not st.contract_down[seat]:
                out.append(ScreenButton(Call.GROUP_BUTTON, hot=True))
            elif K.MELD in kinds or inp.groups:
                out.append(ScreenButton(Call.MELD_BUTTON, hot=True))
            if sel or inp.groups:
                out.append(ScreenButton(Call.CLEAR_BUTTON))
        return tuple(out[:4])

    # -- timers -----------------------------------------------------------------------------
    def open_hand(self, state: Any, seat: int) -> bool:
        """No contract rule shows a hand in play."""
        return False

    def discarding(self, sit: Situation) -> bool:
        """The player in turn at his play, which ends with his discard (C-5.3) or going out."""
        return bool(sit.state.phase == PLAY and sit.seat == sit.state.turn)

    def observe(self, ctl: TableController, now: float) -> None:
        """A new question starts the answer deadline (C-8.4); a new turn the buy window."""
        st, d = ctl.driver.state, ctl.driver
        ask = asking(st)
        ctl.answer.arm((ask, st.deal_number, st.turns_started) if ask and d.is_human(ask[1]) else None, now)
        ctl.window.arm((st.deal_number, st.turns_started) if st.phase == TURN else None, now)
        if st.deal_number and ctl.grace.key != st.deal_number and st.phase in (TURN, ASK, TAKE, PLAY):
            ctl.grace.arm(st.deal_number, now)  # a new deal: everyone looks at his cards first

    def tick(self, ctl: TableController, now: float) -> bool:
        d, st = ctl.driver, ctl.driver.state
        if ctl.settling(now):
            d.hold_computers_until(ctl.grace.at)  # no computer asks before people saw their cards
        ask = asking(st)
        if ask is not None and ctl.answer.due(now) and d.is_human(ask[1]):
            # C-8.4: no answer in time counts as "Можно"; the table submits that same action.
            if d.try_submit(Action(K.ANSWER, ask[1], flag=True)) is None:
                ctl.clear(ask[1])
                ctl.observe()
                return True
        if st.phase == TURN and not d.is_human(st.turn) and ctl.window.key is not None:
            if any(d.is_human(s) and any(a.kind == K.BUY for a in d.legal(s)) for s in range(st.seats)
                   if s != st.turn):
                d.hold_computers_until(ctl.window.at)  # people at the table may still press BUY
        return False


GAME = ContractTable()
