"""The simulated people at a real-card table (``rummy-table sim --real-cards``).

The readers are rcdevice's simulated shoe and slot (the firmware's own logic on
pseudo-terminals, opened by the app through the real link code); the people are simulated
here. Each seat's cards are physical: the shoe's stack, every seat's cards in hand, the
tray under the slot (the discard pile) and the melds on the table. A person passes a card
out of the shoe or through the slot (the readers read it, or misread it), presses his
arcade buttons (gpiozero MockFactory pins, the real board code) and does with his cards
what the table says (takes the discard, lays the melds it shows). The table knows only what
it read and what was called; after every move the table's hands are compared with the
cards the people hold: a difference is *wrong*, a card passed that the table never took
is *lost*.

Computer players decide for the simulated people (``rummy.players``, from what the seat
may see); faults are injected at ``faults`` per card passed: misreads, doubles, a card
out of the shoe when no draw is due, a card into the slot out of turn, an unknown tag
and unplugging the readers. Headless, :class:`SimTable` plays whole matches by itself;
in the window, :class:`display.real_cards_panel.RealCardsPanel` shows each seat's cards
and lets the user pass them (clicks) with the people idle (``auto=False``).
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from display.table.controller.real_cards import SHOE, SLOT, PromptKind, holder
from rummy.actions import TABLE, Action
from rummy.cards import Card, shuffled_deck
from rummy.players import player

Phys = tuple[Card, int]  # a card held in the hand: the card and which physical pack it is from

PRESS_S = 0.06  # a tap: pressed this long
LOCKOUT_S = 0.36  # the board's lockout between two presses of a button (0.3 s) and then some
REACTION_S = 4.0  # a read the table has not taken by then is lost
UNPLUG_S = 0.6  # how long an unplug lasts
SLOT_OUT_AFTER = 60  # cards read before the one slot-only unplug of a run with faults
READER_ERROR_AFTER = 30  # cards read before the one forced reader error (ERR OVERFLOW at the shoe)
YIELD_S = 0.002  # headless, each step gives the hardware threads this long (see step)
STALL_S = 20.0  # nothing moved this long: the notes say what the table waited for
SLOT_AGAIN_S = 1.7  # the slot's reader ignores a card it read in the last 1.5 s (it lies on the pile)


@dataclass
class SimTally:
    """What the simulated table counted: the headless summary line."""

    read: int = 0  # cards passed that the table took
    faults: int = 0  # faults injected
    recovered: int = 0  # of which the table and the people recovered from
    lost: int = 0  # cards passed that the table never took (or the link lost)
    wrong: int = 0  # times the table's hands differed from the cards held
    voided: int = 0  # hands voided by the operator (an unknown tag)
    notes: list[str] = field(default_factory=list)
    questions: Counter[str] = field(default_factory=Counter)  # the table's questions by kind


@dataclass
class Pass:
    """A card on its way through a reader, waiting for the table's answer."""

    point: str
    card: Phys | None
    seat: int | None  # whose card it is (the deal: the seat it goes to; TABLE the upcard)
    t: float
    heard_before: int  # the reader's events the table had taken in when it was passed
    fault: str = ""  # the fault injected with it (misread, double, unknown, not_due, out_of_turn)
    extra: Phys | None = None  # a double's second card
    asked_before: int = 0  # the number of the table's last question when it was passed


class SimTable:
    """Simulated shoe, slot and people (see the module docstring)."""

    def __init__(self, readers: Any, *, game: str = "gin", seed: int = 0, faults: float = 0.0,
                 auto: bool = True, bot: str = "basic", clock: Callable[[], float] = time.monotonic,
                 unplug_after: int | None = None) -> None:
        self.readers = readers
        self.game = game
        self.rng = random.Random(f"people:{seed}")
        self.faults = faults
        self.auto = auto
        self.bot = bot
        self.clock = clock
        self.unplug_after = unplug_after  # unplug the readers once, after this many cards read
        # with faults on, the slot's reader cable comes out once at a discard after this many
        # cards read (a slot-only unplug in every run, besides the random ones)
        self.slot_out_after: int | None = SLOT_OUT_AFTER if faults else None
        self.reader_error_after: int | None = READER_ERROR_AFTER if faults else None  # ERR OVERFLOW once
        self.app: Any = None
        self.tally = SimTally()
        self.shoe: list[Phys] = []  # top first
        self.hands: dict[int, list[Phys]] = {}
        self.tray: list[Phys] = []  # bottom .. top
        self.table: list[Phys] = []  # melds laid down
        self.pending: Pass | None = None
        self.players: dict[int, Any] = {}
        self._buttons: list[tuple[float, int, str, str]] = []  # (when, seat, call, press|release)
        self._last_press: dict[tuple[int, str], float] = {}
        self._seen = 0  # history entries of the match taken in
        self._decided: set[object] = set()
        self._replug_at: float | None = None
        self._slot_up_at: float | None = None  # the slot's reader cable back in (a slot-only unplug)
        self._mismatch = False
        self._busy_until = 0.0
        self._refilled = False
        self._later: list[tuple[float, Callable[[], None]]] = []
        self._forced = ""
        self._open_prompt: int | None = None
        self._still: tuple[object, float, bool] = (None, 0.0, False)
        self._adopted: Any = None  # the match whose cards the people hold
        self.again: Pass | None = None  # the card the table asked to pass again
        self._slot_t: dict[Phys, float] = {}  # when each card last went through the slot
        self.trace: deque[str] = deque(maxlen=40)  # what the people did last (for the notes)

    @property
    def port(self) -> str:
        return str(self.readers.port)

    def attach(self, app: Any) -> None:
        self.app = app

    def close(self) -> None:
        self.readers.close()

    # -- the cards ----------------------------------------------------------------------------
    def _fresh_shoe(self) -> None:
        """A hand is over (or voided): every card back into the shoe, shuffled."""
        decks = int(getattr(self.app.match.state.rules, "decks", 1))  # contract: two packs (C-13)
        seen: Counter[Card] = Counter()
        self.shoe = []
        for card in shuffled_deck(self.rng, decks):
            self.shoe.append((card, seen[card]))
            seen[card] += 1
        self.hands = {s: [] for s in range(len(self.app.match.seats))}
        self.tray, self.table = [], []

    def _adopt(self, m: Any) -> None:
        """After a power cut the cards stayed where they were: the people hold what the
        table's journal says (a deal under way: what was dealt so far), the rest is in the
        shoe (its order unknown to the table, shuffled here)."""
        from display.table.controller.real_cards import deal_order

        seen: Counter[Card] = Counter()

        def phys(card: Card) -> Phys:
            seen[card] += 1
            return (card, seen[card] - 1)

        self.hands = {s: [] for s in range(len(m.seats))}
        self.tray, self.table = [], []
        st = m.state
        if m.reads.dealing():
            for card, seat in zip(m.reads.dealt, deal_order(m.game, st), strict=False):
                (self.tray if seat == TABLE else self.held(seat)).append(phys(card))
        else:
            for seat, hand in enumerate(_engine_hands(m)):
                self.hands[seat] = [phys(c) for c in hand]
            if m.game == "gin":
                h = st.hand
                self.tray = [phys(c) for c in h.discard_pile]
                self.table = [phys(c) for c in (*h.set_aside, *(c for meld in h.table_melds for c in meld))]
            else:
                self.tray = [phys(p.card) for p in st.discard_pile]
                self.table = [phys(c) for meld in st.table_melds for c in meld.cards]
        decks = int(getattr(self.app.match.state.rules, "decks", 1))  # contract: two packs (C-13)
        rest = Counter(shuffled_deck(self.rng, decks)) - seen
        self.shoe = []
        for c in shuffled_deck(self.rng, decks):
            if rest[c] > 0:
                rest[c] -= 1
                self.shoe.append(phys(c))

    def held(self, seat: int) -> list[Phys]:
        return self.hands.setdefault(seat, [])

    def cards_of(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds (what the table's hand must be)."""
        return [c for c, _d in self.held(seat)]

    def _take(self, pile: list[Phys], card: Card) -> Phys | None:
        """Take ``card`` (the last copy) out of ``pile``."""
        for i in range(len(pile) - 1, -1, -1):
            if pile[i][0] == card:
                return pile.pop(i)
        return None

    # -- each frame -------------------------------------------------------------------------
    def step(self, now: float) -> None:
        """One frame of the people. Headless (``auto``) the main loop never sleeps, and the
        threads behind the readers and the buttons (the twin's, the link's, the board's
        hold thread that judges an edge once its glitch time is over) starve for the GIL:
        a press then reached the table only with the next edge, up to a second late, and
        a card passed meanwhile was taken for the wrong need. So each step sleeps a little."""
        if self.auto:
            time.sleep(YIELD_S)
        m = self.app.match if self.app is not None else None
        self._buttons_due(now)
        if self._replug_at is not None and now >= self._replug_at:
            self._replug_at = None
            self.readers.replug()
        if m is None or m.reads is None:
            return
        reads = m.reads
        self._note_prompts(reads)
        if self._adopted is not m:
            self._adopted, self._seen = m, 0
            if not (reads.dealing() and not reads.dealt):
                self._adopt(m)  # a resumed match: the cards are where the table says they are
        if reads.dealing() and not reads.dealt and self.pending is None and (
                any(self.hands.values()) or self.tray or self.table or not self.shoe):
            self._fresh_shoe()  # a new deal: every card gathered and shuffled into the shoe
        self._take_in(m)
        self._watch(m, now)
        if self.pending is not None:
            if not self._answered(m, now):
                return
        if not self.auto or now < self._busy_until or self._buttons:
            return
        if m.review_pending or m.is_over:
            return
        self._check(m)
        p = reads.prompt
        if p is not None:
            self._answer(m, p, now)
            return
        if reads.dealing():
            self._deal(m, now)
            return
        from display.table.controller.real_cards import purpose

        need = reads.need()
        if reads.refill() is None:
            self._refilled = False
        elif not self._refilled:
            back = self.tray[:-1]  # C-10: the pack less its top card into the shoe, shuffled
            self.tray = self.tray[-1:]
            self.rng.shuffle(back)
            self.shoe += back
            self._refilled = True
            self._busy_until = now + 0.3  # the table tells the shoe the cards are back
            return
        if purpose(need) == "buy":
            self._pull(m, int(need.seat), now)  # a buy's stock cards (C-8.5)
            return
        self._play(m, now)

    def _watch(self, m: Any, now: float) -> None:
        """Say once when nothing has moved for a long time (what the table waits for)."""
        key = (m.version, len(m.reads.dealt), self.pending is None)
        if key != self._still[0]:
            self._still = (key, now, False)
        elif now - self._still[1] > STALL_S and not self._still[2]:
            self._still = (key, self._still[1], True)
            self._note(f"nothing moved for {STALL_S:g} s: to act {m.to_act()}, need {m.reads.need()}, "
                       f"prompt {m.reads.prompt}, phase {_phase(m)}, last {m.history[-1][0] if m.history else None}, "
                       f"held {[sorted(map(str, self.cards_of(s))) for s in range(len(m.seats))]}, "
                       f"table {[sorted(map(str, h)) for h in _engine_hands(m)]}")
            print(f"real cards: {self.tally.notes[-1]}", file=sys.stderr, flush=True)

    def _note(self, text: str) -> None:
        if text not in self.tally.notes[-5:]:
            self.tally.notes = [*self.tally.notes[-49:], text]

    def _note_prompts(self, reads: Any) -> None:
        """A question of the table that was there and is gone: a fault recovered from."""
        p = reads.prompt
        number = p.number if p is not None else None
        if self._open_prompt is not None and number != self._open_prompt:
            self.tally.recovered += 1
        if p is not None and number != self._open_prompt:
            detail = p.point if p.kind is PromptKind.UNPLUGGED else p.why  # the slot alone, or the shoe
            self.tally.questions[f"{p.kind}{':' + detail if detail else ''}"] += 1
        self._open_prompt = number

    @staticmethod
    def _heard(m: Any, point: str) -> int:
        """The events the table has taken in from ``point``'s reader: a card passed is
        answered when that count moves (not when the match changes for another reason, a
        button pressed a moment before: the read may still be on its way)."""
        return int(m.reads.heard.get(point, 0))

    def _answered(self, m: Any, now: float) -> bool:
        """Has the table taken (or refused) the card on its way? Then the card goes where
        the table says; True when the people may go on."""
        p = self.pending
        assert p is not None
        if self._heard(m, p.point) == p.heard_before:
            limit = REACTION_S + (UNPLUG_S + 4.0 if self._replug_at is not None or m.reads.unplugged else 0.0)
            if now - p.t < limit:
                return False
            self.tally.lost += 1 if p.card is not None else 0
            self._note(f"no answer to {p.point} {p.card} ({p.fault})")
            self._card_back(p)
            self.pending = None
            return True
        self.pending = None
        prompt = self._asked_about(m, p)
        self.trace.append(f"{now:.2f} answered {p.point} {p.card}: prompt {prompt}, last {m.history[-1][0] if m.history else None}")
        if prompt is not None and prompt.kind is PromptKind.REPASS and p.point == prompt.point:
            if not p.fault:
                self._note(f"the {p.point} did not read {p.card} (no fault injected)")
            self._card_back(p)  # not read: back in his hand (on top of the shoe), to pass again
            self.again = p
            return True
        if prompt is not None and prompt.kind in (PromptKind.NOT_DUE, PromptKind.UNKNOWN_TAG,
                                                   PromptKind.MISPLACED) and p.point == SHOE:
            self._card_back(p, to_hand_of=None)  # it goes back (or away, unknown)
            return True
        if prompt is not None and prompt.kind is PromptKind.OUT_OF_TURN:
            return True  # it is in the tray: the answer takes it back
        self.tally.read += 1
        if p.point == SHOE and p.card is not None:
            if p.seat == TABLE:
                self.tray.append(p.card)  # the upcard
            elif p.seat is not None:
                self.held(p.seat).append(p.card)
        return True

    @staticmethod
    def _asked_about(m: Any, p: Pass) -> Any:
        """The question the table raised about this pass (the newest since it was passed;
        another may be first on the screen), or a pass-again at its point still open."""
        prompts = m.reads.prompts
        new = [q for q in prompts if q.number > p.asked_before and q.kind is not PromptKind.UNPLUGGED]
        if new:
            return new[-1]
        return next((q for q in prompts if q.kind is PromptKind.REPASS and q.point == p.point), None)

    def _card_back(self, p: Pass, to_hand_of: int | None = None) -> None:
        """A card the table did not take: out of the shoe it goes back on top (a double's
        two, in their order); through the slot the person takes it back to pass again."""
        if p.point == SHOE:
            if p.card is not None and p.fault != "unknown":
                back = [p.card] + ([p.extra] if p.extra is not None else [])
                self.shoe[:0] = back
        elif p.card is not None and p.card in self.tray:
            self.tray.remove(p.card)
            if p.seat is not None:
                self.held(p.seat).append(p.card)

    # -- what the table did, done with the cards --------------------------------------------
    def _take_in(self, m: Any) -> None:
        """Moves the table made on a call (a take of the discard, melds, a refill): the
        people do the same with their cards."""
        hist = m.history
        for action, events in hist[self._seen:]:
            self.trace.append(f"{self.clock():.2f} table: {action} -> {[str(e.kind) for e in events]}")
            self._follow(m, action, events)
        self._seen = len(hist)

    def _follow(self, m: Any, action: Action, events: list[Any]) -> None:
        if str(action.kind) in TAKE_KINDS:
            self._sync_takes(m)
        for ev in events:
            kind = str(ev.kind)
            if kind == "stock_refilled" and not self._refilled:
                back = self.tray[:-1]  # (a refill the people had not seen coming)
                self.tray = self.tray[-1:]
                self.shoe += back
            elif kind == "hand_voided" or action.kind == "void_hand":
                self._fresh_shoe()
        if action.kind in ("meld", "lay_off", "knock", "big_gin", "take_and_knock") or any(
                str(e.kind) in ("melded", "laid_off") for e in events):
            self._sync_table(m)

    def _sync_takes(self, m: Any) -> None:
        """A take of the discard (a buy's pack cards): the cards the table says a seat took
        from the pile go from the tray into his hand."""
        for seat, engine_hand in enumerate(_engine_hands(m)):
            missing = Counter(engine_hand) - Counter(self.cards_of(seat))
            for card, k in missing.items():
                for _ in range(k):
                    got = self._take(self.tray, card)
                    if got is not None:
                        self.held(seat).append(got)

    def _sync_table(self, m: Any) -> None:
        """Melds and lay-offs: the cards the table says left a hand go onto the table."""
        hands = _engine_hands(m)
        for seat, engine_hand in enumerate(hands):
            gone = Counter(self.cards_of(seat)) - Counter(engine_hand)
            for card, k in gone.items():
                for _ in range(k):
                    got = self._take(self.held(seat), card)
                    if got is not None:
                        self.table.append(got)

    def _check(self, m: Any) -> None:
        """The table's hands against the cards the people hold (once per difference)."""
        if m.reads.dealing() or m.reads.prompt is not None or self.pending is not None:
            return
        hands = _engine_hands(m)
        if not hands:
            return
        if _over(m) or _phase(m) == "penalty":
            return  # (a buy's stock cards join the hand when the buy is complete)
        differ = [s for s, h in enumerate(hands) if Counter(h) != Counter(self.cards_of(s))]
        if differ and not self._mismatch:
            self.tally.wrong += 1
            self._note(f"hands differ at seats {differ}: table {[sorted(map(str, hands[s])) for s in differ]} "
                                    f"held {[sorted(map(str, self.cards_of(s))) for s in differ]}; "
                                    f"last {[str(a) for a, _e in m.history[-6:]]}; trace " + " | ".join(self.trace))
        self._mismatch = bool(differ)

    # -- answering the table's questions -------------------------------------------------------
    def _answer(self, m: Any, p: Any, now: float) -> None:
        """Do what the table's questions say: a card to pass again first, then the first
        question that is not an unplugged reader (waited out, or the slot's cable back)."""
        open_ = [q for q in m.reads.prompts if q.kind is not PromptKind.UNPLUGGED]
        if self.again is not None or open_:
            p = open_[0] if open_ else p
        if self.again is not None or p.kind is PromptKind.REPASS:
            again, self.again = self.again, None
            if again is None:
                if m.reads.answerable(p):
                    self._touch_ok(m)  # a reader error with no card of ours on its way
                return
            if again.point == SHOE:
                seat = again.seat if m.reads.dealing() else (again.seat if again.seat is not None else None)
                card = self.shoe.pop(0)
                self._pass(m, SHOE, card, seat, now)  # pulled again (a double: one at a time)
            elif again.card is not None and again.seat is not None:
                self._push(m, again.seat, again.card[0], now, fault="none")
            return
        if p.kind is PromptKind.UNPLUGGED:
            if p.point == SLOT and (self._slot_up_at is None or now >= self._slot_up_at):
                self._slot_up_at = None  # the slot's cable is back: the discard goes through
                self._play(m, now)
            return  # (the whole shoe: waiting for the replug)
        if p.kind in (PromptKind.NOT_DUE,):
            if p.seat is not None and p.seat >= 0:
                self._tap(p.seat, "draw", now)
            else:
                self._touch_ok(m)
            self._busy_until = now + 0.2
            return
        if p.kind is PromptKind.OUT_OF_TURN:
            got = self._take(self.tray, p.card) if p.card is not None else None
            if got is not None:
                if p.seat is not None and p.why == "discard_taken_card":
                    self.held(p.seat).insert(0, got)  # C-5.3: he keeps it; the other copy goes next
                elif p.seat is not None:
                    self.held(p.seat).append(got)  # back in his hand
                else:
                    self.shoe.insert(0, got)  # it was to go back into the shoe
            if p.seat is not None and p.why != "dealing":
                self._tap(p.seat, "draw", now)
            else:
                self._touch_ok(m)
            self._busy_until = now + 0.2
            return
        # an unknown tag or a card the table cannot place: the operator voids the hand (PIN)
        if m.reads.operator_void() is None:
            self.tally.voided += 1
            self._fresh_shoe()
            self._busy_until = now + 0.1

    def _touch_ok(self, m: Any) -> None:
        """A touch on the question's OK, as a person gives it (the real-card overlay's box)."""
        real = getattr(self.app, "real", None)
        rect = getattr(real, "rect", None)
        if real is not None and rect is not None:
            real.touch(rect.center)
        elif m.reads.answer() and real is not None:
            real.cards_back()

    # -- dealing and playing -------------------------------------------------------------------
    def _inject(self) -> str:
        if self.unplug_after is not None and self.tally.read >= self.unplug_after:
            self.unplug_after = None
            return "unplug"
        if self._forced:
            forced, self._forced = self._forced, ""
            return forced
        if not self.faults or self.rng.random() >= self.faults:
            return ""
        return self.rng.choices(("misread", "double", "not_due", "out_of_turn", "unplug", "unknown",
                                 "reader_error", "slot_unplug"),
                                weights=(40, 15, 12, 12, 12, 4, 10, 8))[0]

    def _pass(self, m: Any, point: str, card: Phys | None, seat: int | None, now: float, *,
              fault: str = "", extra: Phys | None = None) -> None:
        self.pending = Pass(point, card, seat, now, self._heard(m, point), fault, extra, m.reads._numbers)
        self.trace.append(f"{now:.2f} pass {point} {card} seat {seat} {fault} need {m.reads.need()} v{m.version}")
        if fault == "misread":
            self.readers.misread(point)
        elif fault == "reader_error":
            self.readers.reader_error(point, "OVERFLOW")  # the board dropped it: passed unread
        elif fault == "double" and extra is not None and card is not None:
            self.readers.double(point, card, extra)
        elif fault == "unknown":
            self.readers.unknown(point)
        else:
            assert card is not None
            self.readers.feed(point, card)
        if fault and fault != "none":
            self.tally.faults += 1

    def _pull(self, m: Any, seat: int | None, now: float, *, due: bool = True) -> None:
        """A card out of the shoe (a fault, maybe)."""
        if not self.shoe:
            return
        fault = self._inject() if due else "not_due"
        if due and self.reader_error_after is not None and self.tally.read >= self.reader_error_after:
            self.reader_error_after, fault = None, "reader_error"
        if fault == "unplug":
            self.readers.unplug()
            self._replug_at = now + UNPLUG_S
            self.tally.faults += 1
            fault = ""
        if fault in ("out_of_turn", "slot_unplug"):
            fault = ""
        if fault == "not_due" and due:
            fault = ""
        if fault == "double" and len(self.shoe) < 2:
            fault = "misread"
        if fault == "unknown":
            self._pass(m, SHOE, None, seat, now, fault="unknown")
            return
        card = self.shoe.pop(0)
        extra = self.shoe.pop(0) if fault == "double" else None
        self._pass(m, SHOE, card, seat, now, fault=fault, extra=extra)

    def _push(self, m: Any, seat: int, card: Card, now: float, *, fault: str = "") -> None:
        """A card of ``seat``'s through the slot: it falls into the tray."""
        phys = self._take(self.held(seat), card)
        if phys is None:
            self._note(f"seat {seat} does not hold {card}")
            self._busy_until = now + 1.0
            return
        last = self._slot_t.get(phys)
        if last is not None and now - last < SLOT_AGAIN_S and fault != "none":
            self.held(seat).append(phys)  # the same card again so soon: a person waits a moment
            self._busy_until = last + SLOT_AGAIN_S
            return
        self._slot_t[phys] = now
        fault = fault or self._inject()
        if self.slot_out_after is not None and self.tally.read >= self.slot_out_after and fault != "none":
            self.slot_out_after, fault = None, "slot_unplug"
        if fault in ("double", "unknown", "not_due", "out_of_turn"):
            fault = ""  # (a slot takes one card at a time in this simulation)
        if fault == "slot_unplug":
            # the slot's reader cable comes out as he is about to discard: the board says
            # so (ERR READER at the slot); he keeps the card until the table reads again
            self.held(seat).append(phys)
            self._slot_t.pop(phys, None)
            self.readers.reader_error(SLOT, "READER")
            self._slot_up_at = now + UNPLUG_S
            self._busy_until = now + REACTION_S
            self.tally.faults += 1
            return
        if fault == "unplug":
            self.readers.unplug()
            self._replug_at = now + UNPLUG_S
            self.tally.faults += 1
            fault = ""
        self.tray.append(phys)
        self._pass(m, SLOT, phys, seat, now, fault=fault)

    def _deal(self, m: Any, now: float) -> None:
        _dealt, _total, seat = m.reads.deal_progress()
        if seat is None:
            return
        self._pull(m, seat, now)

    def _play(self, m: Any, now: float) -> None:
        engine, state = m.engine, m.state
        to_act = m.to_act()
        if not to_act:
            return
        # a stray move now and then: a card out of the shoe when no draw is due, or a card
        # into the slot out of turn (the table asks; it never guesses)
        if self.faults and self.rng.random() < self.faults * 0.2:
            if self._stray(m, now):
                return
        order = sorted(to_act, key=lambda s: s == _in_turn(m))  # others' BUY before the turn's move
        for seat in order:
            legal = engine.legal_actions(state, seat)
            if not legal:
                continue
            if seat != _in_turn(m) and self.game == "contract":
                key = (state.deal_number, state.turns_started, state.phase, seat, len(state.discard_pile))
                if key in self._decided:
                    continue
                self._decided.add(key)
            bot = self.players.get(seat)
            if bot is None:
                level = m.seats[seat].get("bot") or self.bot
                bot = self.players[seat] = player(m.game, level)
            action = bot.choose(engine, engine.view(state, seat), legal, self.rng)
            if self._act(m, seat, action, now):
                return

    def _stray(self, m: Any, now: float) -> bool:
        need = m.reads.need()
        seat = _in_turn(m)
        if need is None and self.shoe and seat is not None and self.rng.random() < 0.5:
            self._pull(m, seat, now, due=False)
            return True
        others = [s for s in range(len(m.seats)) if s != seat and self.held(s)]
        if others:
            s = self.rng.choice(others)
            phys = self.held(s).pop(self.rng.randrange(len(self.held(s))))
            self.tally.faults += 1
            self.tray.append(phys)
            self._pass(m, SLOT, phys, s, now, fault="out_of_turn")
            return True
        return False

    def _act(self, m: Any, seat: int, a: Action, now: float) -> bool:
        """Do ``a`` as a person would: a card through a reader or a button. True when
        something was done."""
        k = str(a.kind)
        if k == "no_buy":
            return False
        if k == "draw_stock":
            need = m.reads.need()
            if need is None and self.game == "contract" and not m.state.stock and seat == m.state.turn:
                self._tap(seat, "knock", now)  # the shoe is empty for good: the deal ends (C-10.2)
                return True
            if need is None or need.seat != seat:
                return False
            self._pull(m, seat, now)
            return True
        if k in ("discard",) and a.card is not None:
            self._push(m, seat, a.card, now)
            return True
        if k == "knock" and a.card is not None:
            self._tap(seat, "knock", now)
            self._then_push(seat, a.card)
            return True
        if k == "take_and_knock" and a.card is not None:
            card = a.card
            self._tap(seat, "knock", now)
            self._then(lambda: self._take_then_push(m, seat, card))
            return True
        if k == "big_gin":
            self._tap(seat, "knock", now)
            self._tap(seat, "knock", now + LOCKOUT_S)
            return True
        button = BUTTON_OF.get(k)
        if k == "answer":
            button = "draw" if a.flag else "knock"
        if k == "take_cards":
            button = "draw" if a.target == 1 else "knock"
        if button is None:
            return False
        self._tap(seat, button, now)
        return True

    # -- buttons ------------------------------------------------------------------------------
    def _tap(self, seat: int, call: str, now: float) -> None:
        """Press and release ``seat``'s ``call`` (the mock pin), after the board's lockout."""
        t = max(now, self._last_press.get((seat, call), float("-inf")) + LOCKOUT_S,
                max((b[0] for b in self._buttons), default=now))
        self._last_press[(seat, call)] = t
        self.trace.append(f"{now:.2f} tap {seat} {call} at {t:.2f}")
        self._buttons += [(t, seat, call, "press"), (t + PRESS_S, seat, call, "release")]

    def _then(self, fn: Callable[[], None]) -> None:
        t = max((b[0] for b in self._buttons), default=self.clock()) + 0.15
        self._buttons.append((t, -1, "", "call"))
        self._later.append((t, fn))

    def _then_push(self, seat: int, card: Card) -> None:
        self._then(lambda: self._push(self.app.match, seat, card, self.clock(), fault="none"))

    def _take_then_push(self, m: Any, seat: int, card: Card) -> None:
        if self.tray:
            self.held(seat).append(self.tray.pop())  # G-13.3: the last discard into his hand
        self._push(m, seat, card, self.clock(), fault="none")

    def _buttons_due(self, now: float) -> None:
        hw = self.app.hw if self.app is not None else None
        while self._buttons and self._buttons[0][0] <= now:
            t, seat, call, edge = self._buttons.pop(0)
            if edge == "press" and hw is not None:
                hw.press(seat, call)
            elif edge == "release" and hw is not None:
                hw.release(seat, call)
                self._busy_until = max(self._busy_until, now + 0.1)
            elif edge == "call":
                for i, (when, fn) in enumerate(list(self._later)):
                    if when == t:
                        self._later.pop(i)
                        fn()
                        break
            self._buttons.sort(key=lambda b: b[0])

    # -- the window's panel -------------------------------------------------------------------
    def click_shoe(self) -> None:
        """The user deals / draws the next card out of the shoe (the seat the table expects)."""
        m = self.app.match
        if m is None or m.reads is None or self.pending is not None:
            return
        now = self.clock()
        if m.reads.dealing():
            self._deal(m, now)
            return
        need = m.reads.need()
        self._pull(m, need.seat if need is not None else _in_turn(m), now, due=need is not None)

    def click_card(self, seat: int, card: Card) -> None:
        """The user pushes one of ``seat``'s cards through the slot."""
        m = self.app.match
        if m is not None and m.reads is not None and self.pending is None:
            self._push(m, seat, card, self.clock(), fault="none")

    def inject(self, fault: str) -> None:
        """A switch of the panel: the next card passed has this fault (unplug: now)."""
        now = self.clock()
        if fault == "unplug":
            self.readers.unplug()
            self._replug_at = now + 2.0
            self.tally.faults += 1
            return
        if fault == "slot_unplug":  # the slot's reader cable out for two seconds
            self.readers.reader_error(SLOT, "READER")
            self._slot_up_at = now + 2.0
            self.tally.faults += 1
            return
        self._forced = fault


#: the calls after which the table may have moved cards from the pile into a hand
TAKE_KINDS = frozenset({"take_upcard", "draw_discard", "take_and_knock", "buy", "answer", "take_cards"})
# (not stock_cards: a buy's stock cards come out of the shoe; taken from the tray by mistake
# they were counted twice when the other pack's copy lay on the pile)

BUTTON_OF: dict[str, str] = {
    # gin
    "take_upcard": "draw", "pass_upcard": "knock", "draw_discard": "draw", "decline": "draw",
    "accept_knock": "knock", "refuse_knock": "draw", "lay_off": "knock", "done_laying_off": "draw",
    # contract
    "buy": "buy", "meld": "knock",
}


def _phase(m: Any) -> str:
    h = getattr(m.state, "hand", None)
    return str(h.phase) if m.game == "gin" and h is not None else str(getattr(m.state, "phase", ""))


def _in_turn(m: Any) -> int | None:
    if m.game == "contract":
        return int(m.state.turn)
    to_act = m.to_act()
    return to_act[0] if to_act else None


def _engine_hands(m: Any) -> tuple[tuple[Card, ...], ...]:
    from display.table.controller.real_cards import hands_of

    return hands_of(m.game, m.state)


def _over(m: Any) -> bool:
    if m.game == "gin":
        h = m.state.hand
        return h is None or str(h.phase) == "over"
    return str(m.state.phase) in ("over", "deal")


__all__ = ["SimTable", "SimTally", "holder"]


class TwinReaders:
    """rcdevice's simulated shoe and slot (``device.shoe.sim.ShoeTwin``: the firmware's
    logic on a pseudo-terminal) as the people's readers: a physical card is (card, pack)."""

    def __init__(self, *, seed: int = 0, speed: float = 1.0, link: str | None = None) -> None:
        from device.shoe.sim import ShoeTwin

        self.twin = ShoeTwin(points=(SHOE, SLOT), link=link, speed=speed, seed=seed)
        self.twin.start()

    @property
    def port(self) -> str:
        return str(self.twin.path)

    @staticmethod
    def uid(phys: Phys) -> str:
        from device.shoe.deckmap import sim_uid

        return sim_uid(phys[0], phys[1])

    def feed(self, point: str, phys: Phys) -> None:
        self.twin.feed(point, self.uid(phys))

    def misread(self, point: str) -> None:
        self.twin.misread(point)

    def double(self, point: str, a: Phys, b: Phys) -> None:
        self.twin.double(point, self.uid(a), self.uid(b))

    def unknown(self, point: str) -> None:
        self.twin.unknown(point)

    def reader_error(self, point: str, code: str) -> None:
        self.twin.reader_error(point, code)

    def unplug(self) -> None:
        self.twin.unplug()

    def replug(self) -> None:
        self.twin.replug()

    def close(self) -> None:
        self.twin.close()
