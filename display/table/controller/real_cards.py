"""Real cards (docs/real_cards.md): what the buttons, the shoe and the discard slot mean when
the players hold real cards, per game and phase, and the reads that become engine actions.

The calls are rows of each game's own call table, keyed by the game's phase enum beside
its virtual rows: ``display.table.controller.gin.REAL_TABLE`` (``HandPhase``) and
``display.table.controller.contract.REAL_TABLE`` (``rummy.contract.kinds.Phase``),
``(phase, call) -> Entry(handler, words)`` (:mod:`display.table.controller.real_rows`).
The handlers are what a call does (read by :class:`RealTable.resolve`, and so by the
lamps: a lamp is lit exactly when its call acts), the words say it in the on-screen help
and in docs/real_cards.md. The two read points are calls too: :attr:`Call.SHOE_CARD` (a
card out of the shoe) and :attr:`Call.SLOT_CARD` (a card into the discard slot), with the
card as the argument. What differs between the games (their hands, piles, who discards,
their reads) is asked of the game's table, never branched on by name here.

:class:`RealCards` (one per match, on the match driver) turns the readers' events into calls
and deals: the cards of a deal are gathered in the order the table shows (one seat at a
time) and go to the engine as one ``deal_read``; a card out of the shoe is the seat's stock
draw or a buy's card when the engine expects one (``rummy.<game>.reads.expected``); a card
into the slot is the discard of the seat in turn. Everything else is a :class:`Prompt`: a
misread or a double asks to pass the card again (that seat paused), a card not due or out
of turn is asked about (never guessed), an unknown tag or a card the engine cannot place
stops the game for the operator (PIN: enrol a deck, or void the hand as a misdeal). No pygame.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from display.table.controller.calls import (
    BUTTONS,
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
from display.table.controller.contract import GAME as CONTRACT_GAME
from display.table.controller.contract import ContractTable
from display.table.controller.gin import GAME as GIN_GAME
from display.table.controller.gin import GinTable
from display.table.controller.real_rows import (
    N_,
    Entry,
    Mode,
    RealInput,
    real_input,
)
from display.table.controller.table import Driver, GameTable, Situation, TableController
from rummy.actions import TABLE, Action, ActionError, TableKind
from rummy.cards import Card
from rummy.contract.kinds import ActionKind as ContractKind
from rummy.gin.kinds import ActionKind as GinKind
from rummy.reads import ReadPurpose

SHOE, SLOT = "shoe", "slot"
POINTS = (SHOE, SLOT)

# engine action kinds of read mode (IF10): the table's, the same in both games
DEAL_READ = TableKind.DEAL_READ
STOCK_CARDS = ContractKind.STOCK_CARDS  # contract only: a buy's stock cards (C-8.5)
VOID_HAND = GinKind.VOID_HAND  # == contract's ActionKind.VOID_HAND

#: game -> its call table (virtual and real-card rows, keyed by the game's phase enum)
GAMES: dict[str, GinTable | ContractTable] = {"gin": GIN_GAME, "contract": CONTRACT_GAME}


class PromptKind(StrEnum):
    """Why the table waits (what it asks, and of whom)."""

    REPASS = "repass"  # a misread or a double: pass the card again (the seat is paused)
    NOT_DUE = "not_due"  # a card out of the shoe when no draw is due: put it back
    OUT_OF_TURN = "out_of_turn"  # a card into the slot out of turn: take it back
    UNKNOWN_TAG = "unknown_tag"  # a tag not in the deck map: the operator
    MISPLACED = "misplaced"  # a card the engine cannot place (seen twice): the operator
    UNPLUGGED = "unplugged"  # the shoe or the slot is unplugged: wait for the replug


#: prompts only the operator can end (with the PIN)
OPERATOR_PROMPTS = frozenset({PromptKind.UNKNOWN_TAG, PromptKind.MISPLACED})
#: prompts ended by a "done" (what no reader can see: a card put back into the shoe, taken
#: back from the tray): the addressed seat's DRAW, or the on-screen OK when nobody is named
ACK_PROMPTS = frozenset({PromptKind.NOT_DUE, PromptKind.OUT_OF_TURN})
#: ``Prompt.why`` of a pass-again that a reader error raised (the board's ERR READER,
#: OVERFLOW, FATAL, a malformed frame or tag): maybe no card was lost, so OK may end it
ERROR_WHYS = frozenset({"reader", "overflow", "fatal", "malformed"})
#: ``Prompt.point`` when the read point is not known (a frame too garbled to say)
ANY_POINT = "shoe+slot"


@dataclass(frozen=True)
class Prompt:
    """A question of the table. ``seat``: who must act (None: the dealer / the operator);
    ``point``: where the card was read; ``card``/``uid``: what was read; ``place``: where
    the engine has the card already (a code like ``hand:1``); ``number``: its id."""

    kind: PromptKind
    number: int
    seat: int | None = None
    point: str = SHOE
    card: Card | None = None
    uid: str = ""
    place: str = ""
    why: str = ""  # an engine refusal code, for the log


#: game -> its real-card rows (the on-screen help and docs/real_cards.md read them too)
CALL_TABLES: dict[str, dict[Any, Entry]] = {game: t.real_rows for game, t in GAMES.items()}

#: what the readers do whatever the phase (the help's first lines)
READ_WORDS: dict[str, str] = {
    SHOE: N_("A card out of the shoe is dealt to the seat the table shows, or drawn from the stock"),
    SLOT: N_("A card into the slot is discarded; the pile rests beyond the reader"),
}


def phase_of(game: str, state: Any) -> StrEnum | None:
    """The phase the real-card rows are keyed by (the game's phase enum; None: no hand in play)."""
    return GAMES[game].real_phase(state)


# -- where a card is, and what the engine expects -------------------------------------------


def expected(game: str, state: Any) -> Any:
    """``rummy.<game>.reads.expected(state)``: the cards out of the shoe due now (a
    ``rummy.reads.ReadNeed``: purpose, seat, count, the deal's order, a refill's cards),
    or None: a card out of the shoe is not due."""
    return GAMES[game].expected(state)


def purpose(need: Any) -> ReadPurpose | None:
    """What the cards out of the shoe are for: deal, draw or buy (a refill comes first and
    is then the draw or the buy it makes possible, C-10); None: nothing is due."""
    if need is None:
        return None
    p = ReadPurpose(need.purpose)
    return ReadPurpose(need.then) if p is ReadPurpose.REFILL and need.then is not None else p


def hands_of(game: str, state: Any) -> tuple[tuple[Card, ...], ...]:
    return GAMES[game].hands(state)


def holder(game: str, state: Any, card: Card) -> int | None:
    """The seat whose hand holds ``card`` (None: none does)."""
    for seat, hand in enumerate(hands_of(game, state)):
        if card in hand:
            return seat
    return None


def deal_order(game: str, state: Any) -> tuple[int, ...]:
    """Whom each card of the coming deal goes to, in the order the table deals it
    (``TABLE`` for the upcard; G-3.2, C-4): the engine's order; () when no deal is due."""
    need = expected(game, state)
    return tuple(need.order) if need is not None and need.purpose is ReadPurpose.DEAL else ()


# -- the game table ----------------------------------------------------------------------


#: the virtual table's hints -> this mode's (None: nothing to say: no look, no touch)
REAL_HINTS: dict[HintCode, HintCode | None] = {
    HintCode.HOLD_TO_LOOK: None, HintCode.HOW_TO_LOOK: None,
    HintCode.UPCARD_OFFER: HintCode.REAL_UPCARD_OFFER,  # G-4
    HintCode.FORCED_DRAW: HintCode.REAL_FORCED_DRAW,  # G-4.4
    HintCode.DRAW_OR_TAKE: HintCode.REAL_DRAW_OR_TAKE,  # G-5.1
    HintCode.HOLD_THEN_DISCARD: HintCode.REAL_DISCARD_OR_KNOCK,  # G-5.2
    HintCode.DISCARD_OR_KNOCK: HintCode.REAL_DISCARD_OR_KNOCK,
    HintCode.TOUCH_AGAIN_TO_DISCARD: HintCode.REAL_DISCARD_OR_KNOCK,
    HintCode.KNOCK_PICK_DISCARD: HintCode.REAL_KNOCK_DISCARD,  # G-7
    HintCode.LOOK_TO_KNOCK: HintCode.REAL_KNOCK_DISCARD,
    HintCode.TAKE_PICK_DISCARD: HintCode.REAL_TAKE_KNOCK_DISCARD,  # G-13.3
    HintCode.NOW_TOUCH_KNOCK_CARD: HintCode.REAL_TAKE_KNOCK_DISCARD,
    HintCode.LAST_CARD: HintCode.REAL_LAST_CARD,
    HintCode.KNOCK_REVIEW: HintCode.REAL_KNOCK_REVIEW,  # G-8.3
    HintCode.LAY_OFF: HintCode.REAL_LAY_OFF,  # G-11.3
    HintCode.NO_KNOCK_YET: None, HintCode.NO_KNOCK_WITH: None,  # said aloud, a count tells the hand
    HintCode.DRAW_FROM_STOCK: HintCode.REAL_DRAW_FROM_SHOE,  # C-5.1
    HintCode.DRAW_OR_TAKE_PACK: HintCode.REAL_DRAW_OR_TAKE_PACK,
    HintCode.DRAW_TAKE_OR_BUY: HintCode.REAL_DRAW_TAKE_OR_BUY,  # C-8.2
    HintCode.CAN_MELD: HintCode.REAL_CAN_MELD,  # C-3
    HintCode.DISCARD_OR_LAY_OFF: HintCode.REAL_SLOT_DISCARD,  # C-5.2, C-5.3
    HintCode.TOUCH_AGAIN_OR_PACK: HintCode.REAL_SLOT_DISCARD,
    HintCode.TOUCH_TO_PICK: HintCode.REAL_SLOT_DISCARD,
    HintCode.CARDS_PICKED: HintCode.REAL_SLOT_DISCARD,
    HintCode.PICK_ONE_TO_DISCARD: HintCode.REAL_SLOT_DISCARD,
    HintCode.PICK_ONE_TO_LAY_OFF: HintCode.REAL_SLOT_DISCARD,
    HintCode.HOW_MANY: HintCode.REAL_HOW_MANY,  # C-8.5
}


def real_hint(hint: Hint | None) -> Hint | None:
    """A virtual table's hint in this mode's words (the same data: a card, a seat)."""
    if hint is None or hint.code not in REAL_HINTS:
        return hint
    code = REAL_HINTS[hint.code]
    return None if code is None else Hint(code, hint.params)


class RealTable:
    """A :class:`display.table.controller.table.GameTable` for real cards: the game's own table for
    the input keys, open hands and timers, the real-card call table for what calls do. No
    hand shows on the screen, held button or not (docs/privacy.md)."""

    shows_hands = False

    def __init__(self, game: str, reads: RealCards) -> None:
        self.game = game
        self.base: GinTable | ContractTable = GAMES[game]  # the game's table: its real-card rows, its phases
        self.reads = reads

    def new_input(self) -> RealInput:
        return self.base.real_clear

    def _inp(self, sit: Situation) -> RealInput:
        return real_input(sit, self.base.real_clear)

    def input_key(self, state: Any, seat: int) -> object:
        return self.base.input_key(state, seat)

    def touch_seat(self, driver: Driver) -> int | None:
        return None  # no touch on the table plays a real card

    def resolve(self, sit: Situation, call: Call, arg: Any) -> Outcome:
        # an unplugged reader stops only its own reads (RealCards waits for it): the other
        # reader and the buttons go on (a draw at the shoe while the slot is out)
        prompts = [p for p in self.reads.prompts if p.kind is not PromptKind.UNPLUGGED]
        if prompts:
            for p in prompts:  # DRAW: "done" of a question that names him
                if p.kind in ACK_PROMPTS and p.seat == sit.seat and call is Call.DRAW:
                    return Change(replace(self._inp(sit), ack=p.number))
            return Say(Hint.of(HintCode.WAIT)) if call in BUTTONS else NOTHING
        phase = self.base.real_phase(sit.state)
        if phase is None or self.reads.dealing():
            return Say(Hint.of(HintCode.WAIT)) if call in BUTTONS else NOTHING
        entry = self.base.real_row(sit.state, call)  # the game's row (C-8.8: BUY travels)
        out = entry.handler(sit, arg) if entry is not None else None
        if out is not None:
            return out
        if call in (Call.SHOE_CARD, Call.SLOT_CARD):
            return NOTHING  # not due: RealCards asks
        if call in BUTTONS:
            return Say(self.hint(sit) or Hint.of(HintCode.CANNOT_NOW))
        return NOTHING

    def after_submit(self, sit: Situation, action: Action, ok: bool) -> RealInput:
        return replace(self._inp(sit), mode=Mode.NONE)

    def hint(self, sit: Situation) -> Hint | None:
        """The game's own hint for the phase, in this mode's words (a card through a reader,
        an arcade button: :data:`REAL_HINTS`); none that tells what the hand holds."""
        if self.reads.prompt is not None or self.reads.dealing():
            return None
        inp = self._inp(sit)
        if sit.in_turn and sit.human and inp.mode is Mode.KNOCK:
            return Hint.of(HintCode.REAL_KNOCK_DISCARD)
        if sit.in_turn and sit.human and inp.mode is Mode.TAKE:
            return Hint.of(HintCode.REAL_TAKE_KNOCK_DISCARD)
        hint: Hint | None = self.base.hint(replace(sit, input=self.base.new_input(), face_up=True))
        return real_hint(hint)

    def screen_buttons(self, sit: Situation) -> tuple[ScreenButton, ...]:
        return ()  # every call is an arcade button or a card through a reader

    def open_hand(self, state: Any, seat: int) -> bool:
        return bool(self.base.open_hand(state, seat))

    def discarding(self, sit: Situation) -> bool:
        """At his discard (a card through the slot), unless the table is asking something."""
        return self.reads.prompt is None and not self.reads.dealing() and bool(self.base.discarding(sit))

    def observe(self, ctl: TableController, now: float) -> None:
        self.base.observe(ctl, now)

    def tick(self, ctl: TableController, now: float) -> bool:
        return bool(self.base.tick(ctl, now))


# -- the reads ---------------------------------------------------------------------------


@dataclass
class Copies:
    """Which physical copy (tag) of a card each hand holds, from the reads of this hand:
    two packs hold every card twice (C-13), and the slot must tell whose copy came through
    (a card the player in turn also holds, pushed by another seat, is out of turn)."""

    held: dict[str, tuple[Card, int]] = field(default_factory=dict)  # uid -> (card, seat)
    pile: list[str] = field(default_factory=list)  # uids on the discard pile, bottom .. top
    taken: dict[int, str] = field(default_factory=dict)  # seat -> the tag he took last from the pile

    def reset(self) -> None:
        self.held, self.pile, self.taken = {}, [], {}

    def to_hand(self, uid: str, card: Card, seat: int) -> None:
        if uid:
            self.held[uid] = (card, seat)

    def to_pile(self, uid: str, card: Card) -> None:
        if uid:
            self.held[uid] = (card, TABLE)
            self.pile.append(uid)

    def sync(self, game: str, state: Any) -> None:
        """Cards taken from the pile since (a take, a buy): their tags go to the hands that
        now hold more copies of those cards than the tags known for them."""
        size = len(pile_of(game, state))
        hands = hands_of(game, state)
        while len(self.pile) > size:
            uid = self.pile.pop()
            card, _seat = self.held.get(uid, (None, TABLE))
            if card is None:
                continue
            for seat, hand in enumerate(hands):
                known = sum(1 for c, s in self.held.values() if c == card and s == seat)
                if hand.count(card) > known:
                    self.held[uid] = (card, seat)
                    self.taken[seat] = uid
                    break
            else:
                self.held.pop(uid, None)

    def whose(self, uid: str, card: Card, game: str, state: Any) -> int | None:
        """The seat holding this very copy (None: not known from this hand's reads)."""
        got = self.held.get(uid)
        if got is None or got[0] != card or got[1] == TABLE:
            return None
        hands = hands_of(game, state)
        return got[1] if 0 <= got[1] < len(hands) and card in hands[got[1]] else None


def pile_of(game: str, state: Any) -> tuple[Card, ...]:
    return GAMES[game].pile(state)


@dataclass
class Tally:
    """What the readers did in this match (the headless summary, diagnostics)."""

    read: int = 0  # cards read and taken by the table
    faults: int = 0  # prompts raised
    recovered: int = 0  # prompts ended by the players or the operator
    voided: int = 0  # hands voided as a misdeal
    lost: int = 0  # reads the link reports lost


@dataclass
class ReadResult:
    """What a read did: the action applied (if any), the refusal, the prompt raised."""

    action: Action | None = None
    refusal: Exception | None = None
    prompt: Prompt | None = None
    hint: Hint | None = None


@dataclass
class RealCards:
    """The reads of one match (see the module docstring). ``driver`` is the match driver,
    ``controller`` its table controller (set by :func:`real_controller`).

    Every read ends in exactly one of: applied to the engine, or an open :class:`Prompt`
    that names what to do (``prompts``, oldest first; the table shows the first). A read
    that comes while the table is stopped is asked about too, never dropped."""

    game: str
    driver: Any
    controller: TableController | None = None
    dealt: list[Card] = field(default_factory=list)  # the deal so far, in the order read
    prompts: list[Prompt] = field(default_factory=list)  # the open questions, oldest first
    unplugged: set[str] = field(default_factory=set)
    stopped: set[str] = field(default_factory=set)  # points whose reader stopped (ERR READER): out until they read
    tally: Tally = field(default_factory=Tally)
    copies: Copies = field(default_factory=Copies)
    _uids: list[str] = field(default_factory=list)  # the deal's tags, in the order read
    log: list[str] = field(default_factory=list)  # what happened, for diagnostics
    on_change: Callable[[], None] | None = None  # the deal buffer changed (kept across a power cut)
    on_learn: Callable[[str, Card], None] | None = None  # the operator named an unknown tag's card
    heard: dict[str, int] = field(default_factory=dict)  # reader events taken in, per read point
    returned: dict[Card, str] = field(default_factory=dict)  # cards said to be back in the shoe (uid)
    _numbers: int = 0

    @property
    def prompt(self) -> Prompt | None:
        """The question on screen: the oldest open one that someone can act on, else an
        unplugged reader (waited out), else None."""
        for p in self.prompts:
            if p.kind is not PromptKind.UNPLUGGED:
                return p
        return self.prompts[0] if self.prompts else None

    # -- what the table shows ---------------------------------------------------------------
    def need(self) -> Any:
        return expected(self.game, self.driver.state)

    def dealing(self) -> bool:
        """A deal from the shoe is due (or under way)."""
        return purpose(self.need()) is ReadPurpose.DEAL

    def refill(self) -> tuple[Card, ...] | None:
        """The cards to put back into the shoe before the next card out of it (C-10)."""
        need = self.need()
        return tuple(need.refill) if need is not None and need.purpose is ReadPurpose.REFILL else None

    def deal_progress(self) -> tuple[int, int, int | None]:
        """(cards dealt, cards of the deal, the seat the next card goes to: TABLE for the
        upcard, None when no deal is due)."""
        if not self.dealing():
            return (0, 0, None)
        order = deal_order(self.game, self.driver.state)
        n = len(self.dealt)
        return (n, len(order), order[n] if n < len(order) else None)

    def paused(self, seat: int) -> bool:
        """Is ``seat`` paused by a question of the table?"""
        return any(p.seat is None or p.seat == seat for p in self.prompts)

    def answerable(self, prompt: Prompt | None = None) -> bool:
        """May the on-screen OK end ``prompt`` (the first by default)? Only a "done" of what
        no reader can see, or a reader error that may have lost no card."""
        p = prompt or self.prompt
        if p is None:
            return False
        return p.kind in ACK_PROMPTS or (p.kind is PromptKind.REPASS and p.why in ERROR_WHYS)

    # -- events from the readers ----------------------------------------------------------
    def _raise(self, kind: PromptKind, **kw: Any) -> Prompt:
        self._numbers += 1
        prompt = Prompt(kind, self._numbers, **kw)
        self.prompts.append(prompt)
        self._bump()
        self.tally.faults += 1
        self.log.append(f"{kind}: {kw}")
        return prompt

    def _end_prompt(self, prompt: Prompt | None = None) -> None:
        p = prompt or self.prompt
        if p is not None and p in self.prompts:
            self.prompts.remove(p)
            self._bump()
            self.tally.recovered += 1

    def _open(self, kind: PromptKind) -> Prompt | None:
        return next((p for p in self.prompts if p.kind is kind), None)

    def connected(self, points: Iterable[str]) -> None:
        """The link says which points are there now (a replug brings them back)."""
        self.unplugged -= set(points) - self.stopped  # a reader that stopped is out until it reads again
        self._unplug_changed()

    def disconnected(self, points: Iterable[str] = POINTS) -> Prompt | None:
        """The shoe (or only the slot) is unplugged: the table waits and says so."""
        self.unplugged |= set(points)
        return self._unplug_changed()

    def _unplug_changed(self) -> Prompt | None:
        """One UNPLUGGED prompt names what is unplugged now (ended when nothing is)."""
        p = self._open(PromptKind.UNPLUGGED)
        if not self.unplugged:
            if p is not None:
                self._end_prompt(p)
            return None
        point = "+".join(sorted(self.unplugged))
        if p is not None and p.point == point:
            return p
        if p is not None:
            new = replace(p, point=point)
            self.prompts[self.prompts.index(p)] = new
            self._bump()
            return new
        seat = self._acting(SLOT) if self.unplugged == {SLOT} else None
        return self._raise(PromptKind.UNPLUGGED, point=point, seat=seat)

    def fault(self, point: str, kind: str) -> Prompt:
        """A misread (beam without a tag) or a double (two tags) at ``point``: pass it again."""
        self._heard(point)
        return self._repass(point, kind)

    def reader_error(self, point: str, code: str) -> Prompt:
        """An ERR frame of the board that is not a misread (READER: the gate's reader does
        not answer, as when its cable is out; OVERFLOW or FATAL: the board dropped reads;
        a malformed frame or tag): a card may have passed unread, so it is passed again;
        a reader that stopped is that point unplugged until it reads again."""
        self._heard(point or SHOE)
        code = code.lower()
        if code == "reader" and point in POINTS:
            # its reader does not answer: that point is unplugged until it reads again (a
            # slot alone is said apart from the shoe; the card waits in the player's hand)
            self.stopped.add(point)
            down = self.disconnected({point})
            assert down is not None
            return down
        return self._repass(point if point in POINTS else ANY_POINT, code if code in ERROR_WHYS else "malformed")

    def _repass(self, point: str, why: str) -> Prompt:
        for p in self.prompts:
            if p.kind is PromptKind.REPASS and p.point == point:
                self.tally.faults += 1  # the same card failed again: still waiting for it
                return p
        return self._raise(PromptKind.REPASS, seat=self._acting(point), point=point, why=why)

    def lost(self, count: int) -> Prompt:
        """The link says reads were lost for good: the table's picture may be wrong, so the
        game stops for the operator (void the hand)."""
        return self._raise(PromptKind.MISPLACED, why="lost", place=str(count))

    def unknown(self, point: str, uid: str) -> Prompt:
        """A tag not in the deck map: the game stops for the operator."""
        self._heard(point)
        self._answered_at(point)
        return self._raise(PromptKind.UNKNOWN_TAG, point=point, uid=uid)

    def _answered_at(self, point: str) -> None:
        """A read at ``point``: its reader works (a slot unplugged alone is back), and a
        pass-again asked at that point is answered by it."""
        if point in self.stopped:  # a reader that stopped reads again
            self.stopped.discard(point)
            self.unplugged.discard(point)
            self._unplug_changed()
        for p in list(self.prompts):
            if p.kind is PromptKind.REPASS and point in p.point.split("+"):
                self._end_prompt(p)  # the card passed again
                break

    def _blocking(self, point: str) -> list[Prompt]:
        """The open prompts that stop a read at ``point`` from being taken: all but an
        unplug (a card the shoe held while unplugged counts) and, in a deal, a question
        about the slot (the dealer deals on while a card is taken back from the tray)."""
        dealing = self.dealing()
        return [p for p in self.prompts if p.kind is not PromptKind.UNPLUGGED
                and not (dealing and p.point == SLOT and p.kind in ACK_PROMPTS)]

    def card(self, point: str, card: Card, uid: str = "") -> ReadResult:
        """A card read at ``point`` (``uid``: its tag, which copy it is)."""
        self._heard(point)
        self._answered_at(point)
        back = self._back_out(point, card, uid)
        if back is not None:
            return ReadResult(prompt=back)
        if self._blocking(point):
            return ReadResult(prompt=self._stopped(point, card, uid))
        if point == SHOE:
            self.returned.pop(card, None)  # a card put back into the shoe came out again
        if self.dealing():
            if point == SHOE:
                return self._deal(card, uid)
            return ReadResult(prompt=self._slot_in_deal(card, uid))
        self.copies.sync(self.game, self.driver.state)
        result = self._play(point, card, uid)
        if result.action is not None:
            a = result.action
            if point == SLOT:
                self.copies.to_pile(uid, card)
            elif a.seat >= 0:
                self.copies.to_hand(uid, card, a.seat)
        return result

    def _back_out(self, point: str, card: Card, uid: str) -> Prompt | None:
        """A card out of the shoe that an open "put it back" question is about: when the
        table now wants a card from the shoe and nothing else stops it, the card was put
        back and taken again (the read proves where it is): the question ends and the read
        is taken. Otherwise the same question stays (returned)."""
        if point != SHOE:
            return None
        p = next((p for p in self.prompts if p.kind is PromptKind.NOT_DUE and p.card == card
                  and (not uid or not p.uid or p.uid == uid)), None)
        if p is None:
            return None
        others = [q for q in self._blocking(point) if q is not p]
        if others or self.need() is None:
            return p
        self._end_prompt(p)
        return None

    def _stopped(self, point: str, card: Card, uid: str) -> Prompt:
        """A card read while the table waits for an answer: asked about too (out of the
        shoe: put it back; into the slot: take it back), never taken, never dropped."""
        for p in self.prompts:  # the same card passed again: the same question
            if p.card == card and p.point == point and p.uid == uid and p.kind in ACK_PROMPTS:
                return p
        if point == SHOE:
            return self._raise(PromptKind.NOT_DUE, point=SHOE, card=card, uid=uid, why="stopped")
        if self.dealing():  # the engine's hands are the last hand's: the cards dealt so far say whose
            return self._slot_in_deal(card, uid)
        owner = self._owner(card, uid)
        kind = PromptKind.OUT_OF_TURN if owner is not None else PromptKind.MISPLACED
        return self._raise(kind, seat=owner, point=SLOT, card=card, uid=uid, place=self._place(card), why="stopped")

    def _slot_in_deal(self, card: Card, uid: str) -> Prompt:
        """A card into the slot during a deal: checked against the cards dealt so far (the
        engine's hands are the last hand's): a dealt card goes back to the seat it was
        dealt to; any other card is taken back and the table says so."""
        for p in self.prompts:  # the same card pushed again: the same question
            if p.kind is PromptKind.OUT_OF_TURN and p.why == "dealing" and p.card == card and p.uid == uid:
                return p
        order = deal_order(self.game, self.driver.state)
        seat: int | None = None
        for i, (c, u) in enumerate(zip(self.dealt, self._uids, strict=False)):
            if c == card and (not uid or not u or u == uid) and i < len(order):
                seat = order[i] if order[i] != TABLE else None
        return self._raise(PromptKind.OUT_OF_TURN, seat=seat, point=SLOT, card=card, uid=uid, why="dealing")

    def _owner(self, card: Card, uid: str) -> int | None:
        state = self.driver.state
        owner = self.copies.whose(uid, card, self.game, state)
        return owner if owner is not None else holder(self.game, state, card)

    def _heard(self, point: str) -> None:
        """One more event of ``point``'s reader taken in (a card, a fault, an unknown tag)."""
        self.heard[point] = self.heard.get(point, 0) + 1

    def _acting(self, point: str) -> int | None:
        """Who a read at ``point`` belongs to now (None: the dealer)."""
        need = self.need()
        if need is not None and point == SHOE:
            return None if purpose(need) is ReadPurpose.DEAL else int(need.seat)
        if point not in POINTS:
            return None
        to_act = self.driver.to_act()
        return to_act[0] if to_act else None

    def _deal(self, card: Card, uid: str = "") -> ReadResult:
        dealt = [*self.dealt, card]
        order = deal_order(self.game, self.driver.state)
        decks = int(getattr(self.driver.state.rules, "decks", 1))  # contract: two packs (C-13)
        if dealt.count(card) > decks or (uid and uid in self._uids):
            return ReadResult(prompt=self._raise(PromptKind.MISPLACED, point=SHOE, card=card, uid=uid,
                                                 place="deal"))
        self.dealt = dealt
        self._uids = [*self._uids[: len(dealt) - 1], uid]
        self.tally.read += 1
        if len(dealt) < len(order):
            self._changed()
            return ReadResult()
        action = Action(DEAL_READ, TABLE, cards=tuple(dealt))
        refusal = self.driver.try_submit(action)
        if refusal is not None:
            return ReadResult(refusal=refusal, prompt=self._refused(SHOE, card, refusal))
        self.copies.reset()
        self.returned = {}
        for c, u, seat in zip(dealt, self._uids, order, strict=False):
            if seat == TABLE:
                self.copies.to_pile(u, c)
            else:
                self.copies.to_hand(u, c, seat)
        self.dealt, self._uids = [], []
        self._changed()
        if self.controller is not None:
            self.controller.observe()
        return ReadResult(action=action)

    def _play(self, point: str, card: Card, uid: str = "") -> ReadResult:
        ctl = self.controller
        assert ctl is not None
        state = self.driver.state
        need = self.need()
        if point == SHOE:
            if need is None:  # nobody is due a card: whoever took it puts it back (named: nobody)
                return ReadResult(prompt=self._raise(PromptKind.NOT_DUE, point=SHOE, card=card, uid=uid))
            if purpose(need) is ReadPurpose.BUY:
                return self._gather(need, card)
            seat = int(need.seat)
            call = Call.SHOE_CARD
        else:
            seat = GAMES[self.game].slot_seat(state, self.driver.to_act())
            hands = hands_of(self.game, state)
            owner = self.copies.whose(uid, card, self.game, state)  # this very copy's holder
            if owner is None and uid and uid in self.copies.held:
                owner = None  # this copy is known elsewhere (the pile, a meld): not his
            elif owner is None:
                owner = seat if 0 <= seat < len(hands) and card in hands[seat] else holder(self.game, state, card)
            if card in self.returned and owner is None:
                # C-1/G-1: a card he was to put back into the shoe came through the slot
                return ReadResult(prompt=self._raise(PromptKind.OUT_OF_TURN, point=SLOT, card=card, uid=uid,
                                                     why="not_back"))
            if owner is None or owner != seat:
                kind = PromptKind.OUT_OF_TURN if owner is not None else PromptKind.MISPLACED
                return ReadResult(prompt=self._raise(kind, seat=owner, point=SLOT, card=card, uid=uid,
                                                     place=self._place(card)))
            if self._taken_copy(seat, card, uid):  # C-5.3: the very copy he took from the pack
                return ReadResult(prompt=self._raise(PromptKind.OUT_OF_TURN, seat=seat, point=SLOT, card=card,
                                                     uid=uid, place=self._place(card), why="discard_taken_card"))
            call = Call.SLOT_CARD
        outcome = ctl.resolve(seat, call, card)
        if not isinstance(outcome, Submit):
            if point == SHOE:
                return ReadResult(prompt=self._raise(PromptKind.NOT_DUE, point=SHOE, card=card, uid=uid))
            return ReadResult(prompt=self._raise(PromptKind.OUT_OF_TURN, seat=seat, point=SLOT, card=card,
                                                 uid=uid, place=self._place(card)))
        result = ctl.perform(seat, call, card)
        if result.refusal is not None:
            if isinstance(result.refusal, ActionError) and point == SLOT:
                # a card he holds but may not discard now (G-5.3, C-5.3): he takes it back
                return ReadResult(refusal=result.refusal,
                                  prompt=self._raise(PromptKind.OUT_OF_TURN, seat=seat, point=SLOT, card=card,
                                                     uid=uid, place=self._place(card), why=_code(result.refusal)))
            return ReadResult(refusal=result.refusal, prompt=self._refused(point, card, result.refusal))
        self.tally.read += 1
        return ReadResult(action=result.action)

    def _taken_copy(self, seat: int, card: Card, uid: str) -> bool:
        """Contract (C-5.3): is this the very copy of the pack card he took this turn? The
        engine judges by value and lets him discard a card he holds twice; the table knows
        the copy."""
        if not GAMES[self.game].takes_copy or not uid:
            return False
        st = self.driver.state
        if not getattr(st.rules, "forbid_discarding_taken_card", False) or st.taken_card != card:
            return False
        return self.copies.taken.get(seat) == uid

    def _gather(self, need: Any, card: Card) -> ReadResult:
        """A buy's stock card out of the shoe (C-8.5): to the engine at once, one by one
        (journalled as it comes, so a power cut loses none)."""
        action = Action(STOCK_CARDS, int(need.seat), cards=(card,))
        refusal = self.driver.try_submit(action)
        if refusal is not None:
            return ReadResult(refusal=refusal, prompt=self._refused(SHOE, card, refusal))
        self.tally.read += 1
        if self.controller is not None:
            self.controller.observe()
        return ReadResult(action=action)

    def _place(self, card: Card) -> str:
        owner = holder(self.game, self.driver.state, card)
        return f"hand:{owner}" if owner is not None else ""

    def _refused(self, point: str, card: Card, refusal: Exception) -> Prompt:
        """The engine would not place the card (it is somewhere else already, it cannot be
        in the stock, a deal of the wrong size): stop for the operator."""
        place = ""
        if isinstance(refusal, ActionError):
            place = str(refusal.params.get("place", ""))
        return self._raise(PromptKind.MISPLACED, point=point, card=card, place=place, why=_code(refusal))

    # -- answers ----------------------------------------------------------------------------
    def acknowledge(self) -> bool:
        """A named seat tapped DRAW ("done": the card is back in the shoe or in his hand).
        True when that ended a question (the scene asks after each call)."""
        ctl = self.controller
        if ctl is None:
            return False
        for p in self.prompts:
            if p.kind in ACK_PROMPTS and p.seat is not None and p.seat >= 0 \
                    and _input_ack(ctl.input(p.seat)) == p.number:
                self._done(p)
                return True
        return False

    def answer(self) -> bool:
        """The first question was answered by the on-screen OK (a card put back / taken
        back; a reader error after which no card needs passing)."""
        p = self.prompt
        if p is None or not self.answerable(p):
            return False
        self._done(p)
        return True

    def _done(self, p: Prompt) -> None:
        if p.kind is PromptKind.NOT_DUE and p.card is not None:
            self.returned[p.card] = p.uid  # said to be back in the shoe: a slot read of it is asked about
        self._end_prompt(p)

    def operator_void(self) -> Exception | None:
        """The operator (PIN) voids the hand as a misdeal: the same dealer deals again
        (journalled as ``void_hand``); every question ends."""
        refusal = self.driver.try_submit(Action(VOID_HAND, TABLE)) if not self.dealing() else None
        if refusal is None:
            self.dealt, self._uids = [], []
            self.copies.reset()
            self.returned = {}
            self._changed()
            self.tally.voided += 1
            for p in [p for p in self.prompts if p.kind is not PromptKind.UNPLUGGED]:
                self._end_prompt(p)
            if self.controller is not None:
                self.controller.observe()
        return refusal

    def operator_resume(self) -> None:
        """The operator ends the stop without voiding (the foreign card is out of play and
        the table's picture is right: e.g. a re-enrolled deck)."""
        p = next((p for p in self.prompts if p.kind in OPERATOR_PROMPTS), self.prompt)
        self._end_prompt(p)

    def operator_assign(self, card: Card) -> ReadResult | None:
        """The operator names the card of the unknown tag the table stopped for (a single
        card enrolled, or a replaced sticker, mid-hand): the deck map learns it and the
        read is taken as that card where it was read. None: no unknown tag is open."""
        p = self._open(PromptKind.UNKNOWN_TAG)
        if p is None:
            return None
        if self.on_learn is not None:
            self.on_learn(p.uid, card)
        self._end_prompt(p)
        self.heard[p.point] = self.heard.get(p.point, 0) - 1  # the same event, taken in once
        return self.card(p.point, card, p.uid)

    def restore(self, dealt: Iterable[Card]) -> None:
        """The deal under way when the power went (kept beside the journal)."""
        self.dealt = list(dealt)

    def _bump(self) -> None:
        """The table's question came or went: the match's views and lamps are stale."""
        if hasattr(self.driver, "version"):
            self.driver.version += 1

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()


def _code(refusal: Exception) -> str:
    return str(getattr(refusal, "code", type(refusal).__name__))


def _input_ack(inp: Any) -> int:
    return inp.ack if isinstance(inp, RealInput) else 0


def real_controller(game: str, driver: Any, *, clock: Callable[[], float], **timers: Any) -> tuple[
        TableController, RealCards]:
    """The table controller of a real-card match and its reads."""
    reads = RealCards(game, driver)
    table: GameTable = RealTable(game, reads)
    ctl = TableController(table, driver, clock=clock, **timers)
    reads.controller = ctl
    return ctl, reads


__all__ = ["CALL_TABLES", "GAMES", "OPERATOR_PROMPTS", "POINTS", "Entry", "Mode",
           "Prompt", "PromptKind", "ReadResult", "RealCards", "RealInput", "RealTable", "Tally",
           "deal_order", "expected", "holder", "phase_of", "purpose", "real_controller"]
