"""Issue 28's real-card scenarios, one test per item of its "Why" (the real-card list): each
plays the physical reads of the item on an in-memory table (``test_real_cards_table``'s
``new_real_table``: the engine, the real-card controller and its reads, no pygame) and, for
the readers' own words, through the app's :class:`display.real_cards.TableShoe` fed by the
real link's :class:`device.shoe.link.ShoeReceiver` (the board's frames, no serial port).

Every read ends applied, or in a prompt that names what to do (issue 28, Deliver 1)."""

from __future__ import annotations

import queue
import random
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from test_real_cards_table import new_real_table

from device.shoe import protocol as p
from device.shoe.deckmap import sim_uid
from display.real_cards import TableShoe, prompt_text
from display.table import i18n
from display.table.controller import Call
from display.table.controller.real_cards import (
    OPERATOR_PROMPTS,
    SHOE,
    SLOT,
    Prompt,
    PromptKind,
    deal_order,
    expected,
    hands_of,
    purpose,
)
from rummy.actions import TABLE, Action
from rummy.cards import Card, parse_card, shuffled_deck
from rummy.gin.bots import BasicPlayer as GinBot

GIN = {"preset": "standard"}
CONTRACT = {"preset": "seed_002"}  # forbid_discarding_taken_card (C-5.3) is on
UNKNOWN_UID = "04FFFFFFFFFFFF"  # a tag in no deck map


def dealt_gin(seed: int) -> tuple[Any, Any, Any, list[Card]]:
    """A gin hand dealt through the shoe (21 reads, the upcard last: G-3.2); ``deck`` is
    the shoe's order, ``deck[21]`` its top card now."""
    d, ctl, reads = new_real_table("gin", GIN, 2, {0, 1}, seed)
    deck = list(shuffled_deck(random.Random(seed)))
    for card in deck[:21]:
        assert reads.card(SHOE, card).prompt is None
    assert not reads.dealing() and reads.prompt is None
    return d, ctl, reads, deck


def both_pass(d: Any, ctl: Any) -> int:
    """Both seats pass the upcard (G-4.4): the non-dealer's stock draw is due; his seat."""
    nd = d.to_act()[0]
    ctl.perform(nd, Call.KNOCK)
    ctl.perform(1 - nd, Call.KNOCK)
    need = expected("gin", d.state)
    assert purpose(need) == "draw" and need.seat == nd
    return nd


def not_the_upcard(d: Any, seat: int) -> Card:
    """A card of ``seat``'s he may discard (not a card taken from the pile, G-5.3)."""
    h = d.state.hand
    return next(c for c in h.hands[seat] if c != h.last_taken)


# -- the app's shoe, fed by the link's receiver -------------------------------------------


class FakeApp:
    """What :class:`TableShoe` reads of the app: its config, the events queue, the match."""

    def __init__(self, reads: Any) -> None:
        self.config = SimpleNamespace(shoe=SimpleNamespace(port="test-shoe", deck_map=""))
        self.hw = SimpleNamespace(events=queue.Queue())
        self.clock = time.monotonic
        self.match = SimpleNamespace(reads=reads)
        self.redrawn = 0

    def real_changed(self) -> None:
        self.redrawn += 1


def _no_port(port: str, baudrate: int, timeout: float) -> Any:
    raise OSError("no serial port in this test")  # the link's thread waits; frames come by hand


class Board:
    """The shoe board as the link hears it: frames into the link's own receiver, its events
    into :meth:`TableShoe.on_event` (what the main loop does each frame)."""

    def __init__(self, reads: Any) -> None:
        self.app = FakeApp(reads)
        self.shoe = TableShoe(self.app, simulated=True, opener=_no_port)
        self.rx = self.shoe.link.receiver
        self.seq = 0
        self.rx.start_connection()
        fields = p.hello_fields("1.0.0", "0BADCAFE", "PN532", 0, True, (SHOE, SLOT))
        self.send(p.encode(0, p.HELLO, fields))
        assert self.shoe.connected and self.shoe.points == (SHOE, SLOT)

    def send(self, frame: bytes | None = None) -> list[Any]:
        if frame is not None:
            self.rx.feed(frame)
        events = []
        while not self.app.hw.events.empty():
            ev = self.app.hw.events.get_nowait()
            events.append(ev)
            self.shoe.on_event(ev)
        return events

    def _next(self) -> int:
        seq, self.seq = self.seq, self.seq + 1
        return seq

    def err(self, code: str, point: str, detail: str = "") -> list[Any]:
        return self.send(p.encode(self._next(), p.ERR, p.err_fields(code, point, detail)))

    def tag(self, uid: str, point: str) -> list[Any]:
        return self.send(p.encode(self._next(), p.CARD, [uid, point]))

    def card(self, card: Card, point: str, deck: int = 0) -> list[Any]:
        return self.tag(sim_uid(card, deck), point)

    def pull_cable(self) -> list[Any]:
        """The USB cable comes out: the port fails, the link says disconnected."""
        self.rx.end_connection("link lost: unplugged")
        return self.send()


@pytest.fixture
def board() -> Iterator[Any]:
    made: list[Board] = []

    def make(reads: Any) -> Board:
        made.append(Board(reads))
        return made[-1]

    yield make
    for b in made:
        b.shoe.close()


def name(seat: int) -> str:
    return ("Ann", "Bob", "Cid", "Dee")[seat]


# -- 1 -------------------------------------------------------------------------------------


def test_1_a_read_while_a_prompt_is_pending_raises_its_own_prompt_and_the_picture_stays_right():
    """Why, 1: while a prompt is pending a card read at the shoe or the slot was accepted
    by the link and silently ignored. Now it is asked about: out of the shoe "put it back"
    (NOT_DUE, why "stopped", nobody named: the table cannot tell who took it); into the
    slot "take it back" from its holder (OUT_OF_TURN) or, held by nobody, for the operator
    (MISPLACED). Nothing is applied, and once answered the game goes on from the same
    picture."""
    d, ctl, reads, deck = dealt_gin(5)
    nd = d.to_act()[0]
    dealer = 1 - nd
    h = d.state.hand
    before = d.state
    first = reads.card(SHOE, deck[21]).prompt  # the upcard is offered: no draw is due (G-4)
    assert first is not None and first.kind is PromptKind.NOT_DUE

    at_shoe = reads.card(SHOE, deck[22]).prompt
    assert at_shoe is not None and at_shoe is not first
    assert (at_shoe.kind, at_shoe.why, at_shoe.seat, at_shoe.card) == (PromptKind.NOT_DUE, "stopped", None, deck[22])
    theirs = h.hands[dealer][0]
    at_slot = reads.card(SLOT, theirs).prompt
    assert at_slot is not None
    assert (at_slot.kind, at_slot.why, at_slot.seat, at_slot.card) == (
        PromptKind.OUT_OF_TURN, "stopped", dealer, theirs)
    foreign = reads.card(SLOT, deck[23]).prompt  # a stock card: no hand holds it
    assert foreign is not None
    assert (foreign.kind, foreign.why, foreign.seat) == (PromptKind.MISPLACED, "stopped", None)
    assert reads.card(SHOE, deck[22]).prompt is at_shoe  # waved again: the same question

    # the table's picture: nothing applied, the first question on screen, every read open
    assert d.state is before and d.applied[-1].kind == "deal_read"
    assert reads.prompt is first and reads.prompts == [first, at_shoe, at_slot, foreign]
    assert reads.paused(nd) and reads.paused(dealer)

    assert reads.answer() and reads.answer()  # OK: both cards are back on top of the shoe
    ctl.perform(dealer, Call.DRAW)  # the dealer took his card back from the tray: "done"
    assert reads.acknowledge()
    assert reads.prompts == [foreign]
    reads.operator_resume()  # the operator put the stray card back (PIN)
    assert reads.prompts == [] and d.state is before

    ctl.perform(nd, Call.DRAW)  # G-4.2: he takes the upcard, then discards another card
    assert d.applied[-1] == Action("take_upcard", nd)
    card = not_the_upcard(d, nd)
    assert reads.card(SLOT, card).action == Action("discard", nd, card=card)
    assert reads.card(SHOE, deck[21]).action == Action("draw_stock", dealer, card=deck[21])

    # a slot re-pass pending (the dealer's discard misread) and a card out of the shoe: the
    # player who took it would keep a card the table believes is still in the shoe
    repass = reads.fault(SLOT, "misread")
    assert repass.kind is PromptKind.REPASS and repass.seat == dealer
    state = d.state
    taken = reads.card(SHOE, deck[22]).prompt
    assert taken is not None and taken is not repass
    assert (taken.kind, taken.why, taken.seat) == (PromptKind.NOT_DUE, "stopped", None)
    assert d.state is state and reads.prompts == [repass, taken]
    again = reads.card(SLOT, not_the_upcard(d, dealer))  # the discard passed again
    assert repass not in reads.prompts and taken in reads.prompts  # the card out is not forgotten
    assert (again.action is None) != (again.prompt is None)  # applied, or asked: never dropped


# -- 2 -------------------------------------------------------------------------------------


def test_2_reader_errors_raise_a_prompt_and_a_slot_reader_error_is_the_slot_unplugged_alone(board):
    """Why, 2: ``TableShoe.on_event`` dropped the board's reader errors, so a discard could
    enter the pile unread. ERR OVERFLOW (reads dropped) and a malformed tag at the slot
    while a discard is due ask for the card again; ERR READER is that reader stopped: the
    slot alone is unplugged (the words say the discard slot, not the shoe) until the next
    slot read, which is taken."""
    d, ctl, reads, deck = dealt_gin(6)
    b = board(reads)
    nd = d.to_act()[0]
    dealer = 1 - nd
    ctl.perform(nd, Call.DRAW)  # takes the upcard: his discard through the slot is due

    # a malformed tag at the slot while his discard is due
    events = b.tag("04ZZ", SLOT)
    assert [e.kind for e in events] == ["error"]
    bad = reads.prompt
    assert bad is not None, "a malformed tag at the slot raised no prompt"
    assert (bad.kind, bad.point, bad.seat) == (PromptKind.REPASS, SLOT, nd)
    assert reads.paused(nd) and not any(ctl.lamps(nd).values())  # he waits: nothing is taken unread
    card = not_the_upcard(d, nd)
    b.card(card, SLOT)  # pushed through again: read
    assert reads.prompts == [] and d.applied[-1] == Action("discard", nd, card=card)

    # ERR OVERFLOW at the shoe while the dealer's draw is due: a card may have passed unread
    b.err(p.ERR_OVERFLOW, SHOE)
    over = reads.prompt
    assert over is not None, "ERR OVERFLOW raised no prompt"
    assert (over.kind, over.point, over.why) == (PromptKind.REPASS, SHOE, "overflow")
    assert reads.answerable(over)  # none was passing: OK ends it
    b.card(deck[21], SHOE)  # or the card passed again ends it, and is the draw
    assert reads.prompts == [] and d.applied[-1] == Action("draw_stock", dealer, card=deck[21])

    # ERR READER at the slot: the slot's reader stopped, the shoe still reads
    b.err(p.ERR_READER, SLOT, "nofirmware")
    down = reads.prompt
    assert down is not None, "ERR READER at the slot raised no prompt"
    assert (down.kind, down.point) == (PromptKind.UNPLUGGED, SLOT)
    assert reads.unplugged == {SLOT} and b.shoe.connected and b.shoe.banner() is None
    words = prompt_text(down, name)
    assert "discard slot" in words and "card shoe" not in words, words
    card = not_the_upcard(d, dealer)
    b.card(card, SLOT)  # the slot reads again: unplugged no more, and the discard is taken
    assert reads.unplugged == set() and reads.prompts == []
    assert d.applied[-1] == Action("discard", dealer, card=card)

    # ERR READER at the shoe: the shoe's point is the one unplugged
    b.err(p.ERR_READER, SHOE, "nofirmware")
    shoe_down = reads.prompt
    assert shoe_down is not None and (shoe_down.kind, shoe_down.point) == (PromptKind.UNPLUGGED, SHOE)
    b.card(deck[22], SHOE)  # it reads again: the draw
    assert reads.prompts == [] and d.applied[-1] == Action("draw_stock", nd, card=deck[22])

    # a frame too garbled to name its point (an unknown read point): either reader may
    # have dropped a card
    b.send(p.encode(b._next(), p.CARD, [sim_uid(deck[0], 0), "tray"]))
    garbled = reads.prompt
    assert garbled is not None and garbled.kind is PromptKind.REPASS and garbled.why == "malformed"
    assert set(garbled.point.split("+")) == {SHOE, SLOT} and reads.answerable(garbled)


# -- 3 -------------------------------------------------------------------------------------


def later_gin_deal(seed: int) -> tuple[Any, Any, Any, tuple[tuple[Card, ...], ...], list[Card]]:
    """Bots play a read-mode gin hand out; the next deal is due and the engine still holds
    the last hand (``last``); ``deck`` is the shoe's order for the new deal."""
    d, ctl, reads = new_real_table("gin", GIN, 2, {0, 1}, seed)
    rng = random.Random(seed)
    bot = GinBot()
    d.deal(rng)
    while purpose(expected("gin", d.state)) != "deal":
        seat = rng.choice(d.to_act())
        action = d.read_filled(bot.choose(d.engine, d.engine.view(d.state, seat), d.legal(seat), rng))
        assert d.try_submit(action) is None, action
    last = hands_of("gin", d.state)
    assert [len(h) for h in last] == [10, 10]
    return d, ctl, reads, last, list(shuffled_deck(random.Random(seed + 1000)))


def test_3_a_dealt_card_into_the_slot_during_a_deal_is_checked_against_the_deal_so_far():
    """Why, 3: in a later gin hand the engine's hands are the last hand's: a dealt card
    pushed into the slot was judged against them, stopped the game for the operator, and
    every later deal read was refused. Now it is checked against the cards dealt so far:
    it goes back to the seat it was dealt to (OUT_OF_TURN, why "dealing"), the dealer deals
    on (the question is answered by OK), and the deal is the cards read at the shoe."""
    d, ctl, reads, last, deck = later_gin_deal(2)
    order = deal_order("gin", d.state)
    # a card dealt to one seat that the last hand had in the other seat's hand (G-3.2)
    i = next(i for i in range(2, 20) if deck[i] in last[1 - order[i]])
    pushed, seat = deck[i], order[i]
    for card in deck[: i + 1]:
        assert reads.card(SHOE, card).prompt is None

    back = reads.card(SLOT, pushed).prompt
    assert back is not None
    assert (back.kind, back.why, back.seat, back.card) == (PromptKind.OUT_OF_TURN, "dealing", seat, pushed)
    assert back.kind not in OPERATOR_PROMPTS and reads.answerable(back)  # no stop for the operator
    assert f"give it to {name(seat)}" in prompt_text(back, name, dealing=True)
    dealt = i + 1
    for card in deck[dealt: dealt + 3]:  # the dealer deals on while it is given back
        assert reads.card(SHOE, card).prompt is None
    assert reads.answer() and reads.prompts == []  # OK: given back to its seat
    dealt += 3
    # a card of the last hand not dealt yet: nobody is named (not the engine's holder)
    undealt = next(c for h in last for c in h if c not in deck[:21])
    other = reads.card(SLOT, undealt).prompt
    assert other is not None and (other.kind, other.why, other.seat) == (PromptKind.OUT_OF_TURN, "dealing", None)

    for card in deck[dealt:21]:  # the deal goes on: every later deal read is taken
        result = reads.card(SHOE, card)
        assert result.prompt is None, result.prompt
    assert d.applied[-1] == Action("deal_read", TABLE, cards=tuple(deck[:21]))
    assert pushed in d.state.hand.hands[seat] and not reads.dealing()
    assert reads.prompts == [other]
    assert reads.answer() and reads.prompts == []  # OK: taken back from the tray
    assert d.to_act() == [1 - d.state.hand.dealer]


def test_3_a_second_card_into_the_slot_during_a_deal_is_checked_against_the_deal_too():
    """Two cards into the slot during a deal, the second while the first is asked about:
    the second is checked against the cards dealt so far as well."""
    d, ctl, reads, last, deck = later_gin_deal(2)
    order = deal_order("gin", d.state)
    i = next(i for i in range(2, 20) if deck[i] in last[1 - order[i]])
    for card in deck[: i + 1]:
        assert reads.card(SHOE, card).prompt is None
    undealt = next(c for h in last for c in h if c not in deck[:21])
    first = reads.card(SLOT, undealt).prompt
    assert first is not None and (first.why, first.seat) == ("dealing", None)
    second = reads.card(SLOT, deck[i]).prompt  # dealt to order[i]; the last hand's other seat had it
    assert second is not None and (second.kind, second.why, second.seat) == (
        PromptKind.OUT_OF_TURN, "dealing", order[i])


# -- 4 -------------------------------------------------------------------------------------


def test_4_a_card_out_of_the_shoe_not_due_names_nobody_ends_by_ok_and_is_followed():
    """Why, 4: a card out of the shoe when no draw is due named the seat in turn, its DRAW
    ended the prompt whoever held the card, and nothing checked the card came back. Now
    nobody is named and OK ends it; the card said to be back comes out again as the draw;
    a prompt whose card is read again where it belongs (the due draw) ends with no tap;
    a card said to be back that comes through the slot instead is asked about."""
    # OK ends it, and the card comes back out of the shoe as the due draw
    d, ctl, reads, deck = dealt_gin(5)
    nd = d.to_act()[0]
    before = d.state
    out = reads.card(SHOE, deck[21]).prompt  # the upcard is offered (G-4): no draw is due
    assert out is not None and out.kind is PromptKind.NOT_DUE
    assert out.seat is None, f"names seat {out.seat}: the table cannot tell who took it"
    assert reads.card(SHOE, deck[21]).prompt is out  # waved again, still not due: the same
    ctl.perform(nd, Call.DRAW)
    assert not reads.acknowledge() and reads.prompt is out  # nobody's DRAW is "done"
    assert reads.answerable(out) and reads.answer() and reads.prompts == [] and d.state is before
    nd = both_pass(d, ctl)
    assert reads.card(SHOE, deck[21]).action == Action("draw_stock", nd, card=deck[21])  # G-4.4

    # read again when the draw is due: the prompt ends by itself, and the read is the draw
    d, ctl, reads, deck = dealt_gin(5)
    nd = both_pass(d, ctl)
    theirs = d.state.hand.hands[1 - nd][0]
    stray = reads.card(SLOT, theirs).prompt  # the dealer's card into the slot out of turn
    assert stray is not None and stray.kind is PromptKind.OUT_OF_TURN and stray.seat == 1 - nd
    early = reads.card(SHOE, deck[21]).prompt  # the draw, while the table is stopped
    assert early is not None and early is not stray
    assert (early.kind, early.seat, early.card) == (PromptKind.NOT_DUE, None, deck[21])
    ctl.perform(1 - nd, Call.DRAW)  # the dealer took his card back: "done"
    assert reads.acknowledge() and reads.prompts == [early]
    again = reads.card(SHOE, deck[21])  # put back on top and drawn again: no tap
    assert again.prompt is None and again.action == Action("draw_stock", nd, card=deck[21])
    assert reads.prompts == []

    # said to be back in the shoe, but it comes through the slot
    d, ctl, reads, deck = dealt_gin(5)
    nd = d.to_act()[0]
    reads.card(SHOE, deck[21])
    assert reads.answer()  # "it is back on top" (OK)
    ctl.perform(nd, Call.DRAW)  # takes the upcard: his discard is due
    state = d.state
    slipped = reads.card(SLOT, deck[21]).prompt
    assert slipped is not None
    assert (slipped.kind, slipped.why, slipped.seat) == (PromptKind.OUT_OF_TURN, "not_back", None)
    assert d.state is state and reads.answerable(slipped)
    assert "back into the shoe" in prompt_text(slipped, name)
    assert reads.answer()  # taken from the tray and put on top of the shoe (OK)
    card = not_the_upcard(d, nd)
    assert reads.card(SLOT, card).action == Action("discard", nd, card=card)
    assert reads.card(SHOE, deck[21]).action == Action("draw_stock", 1 - nd, card=deck[21])


# -- 5 -------------------------------------------------------------------------------------


def test_5_contract_the_copy_just_taken_from_the_pack_is_refused_as_the_discard():
    """Why, 5 (C-5.3, two packs C-1.2): the engine judges the taken card by value and lets
    a player who holds it twice discard it; the table knows which copy came through the
    slot. The very copy just taken from the pack is refused (why "discard_taken_card", the
    player named: his DRAW ends it); the other copy of the same card is the discard."""
    d, ctl, reads = new_real_table("contract", CONTRACT, 3, {0, 1, 2}, 1)
    assert d.state.rules.forbid_discarding_taken_card
    order = deal_order("contract", d.state)
    phys = [(c, k) for k in (0, 1) for c in shuffled_deck(random.Random(k), 1)]  # (card, pack)
    random.Random(7).shuffle(phys)
    up = phys[len(order) - 1]  # the upcard (the pack's first card, C-4)
    first = order[0]
    mine = order.index(first)  # his first card: the upcard's other copy
    twin = next(j for j, pc in enumerate(phys) if pc[0] == up[0] and pc != up)
    phys[mine], phys[twin] = phys[twin], phys[mine]
    for card, pack in phys[: len(order)]:
        assert reads.card(SHOE, card, sim_uid(card, pack)).prompt is None
    st = d.state
    x = up[0]
    assert st.turn == first and st.discard_pile[-1].card == x and st.hands[first].count(x) == 1

    ctl.perform(first, Call.DRAW)  # C-5.1: he takes the top card of the pack
    assert d.applied[-1] == Action("draw_discard", first)
    assert d.state.hands[first].count(x) == 2
    state = d.state
    taken = reads.card(SLOT, x, sim_uid(*up))
    assert taken.action is None, "the copy just taken from the pack was accepted as the discard"
    assert taken.prompt is not None
    assert (taken.prompt.kind, taken.prompt.why, taken.prompt.seat) == (
        PromptKind.OUT_OF_TURN, "discard_taken_card", first)
    assert d.state is state
    ctl.perform(first, Call.DRAW)  # taken back from the tray: "done"
    assert reads.acknowledge() and reads.prompts == []
    own = reads.card(SLOT, x, sim_uid(*phys[mine]))  # the copy he was dealt: allowed
    assert own.prompt is None and own.action == Action("discard", first, card=x)
    assert d.state.hands[first].count(x) == 1


# -- 6 -------------------------------------------------------------------------------------


def test_6_the_operator_names_a_single_unknown_tag_mid_hand_and_a_slot_unplug_is_said_apart(board):
    """Why, 6: the operator could only enrol a whole deck (a single unknown or replaced tag
    mid-hand could only void the hand), and a slot-only unplug was reported as the whole
    shoe down. Now ``operator_assign`` names the tag's card: the deck map learns it
    (``on_learn``, the shoe's map) and the read is taken where it was read; the slot's
    reader stopping is the slot unplugged, the shoe still connected."""
    d, ctl, reads, deck = dealt_gin(5)
    b = board(reads)
    learned: list[tuple[str, Card]] = []

    def learn(uid: str, card: Card) -> None:
        learned.append((uid, card))
        b.shoe.learn(uid, card)

    reads.on_learn = learn
    nd = both_pass(d, ctl)
    b.tag(UNKNOWN_UID, SHOE)  # his draw has a sticker no deck map knows
    stop = reads.prompt
    assert stop is not None and stop.kind is PromptKind.UNKNOWN_TAG and stop.uid == UNKNOWN_UID
    state = d.state
    result = reads.operator_assign(deck[21])
    assert learned == [(UNKNOWN_UID, deck[21])]
    assert result is not None and result.action == Action("draw_stock", nd, card=deck[21])
    assert reads.prompts == [] and d.state is not state
    assert b.shoe.deck_map.get(UNKNOWN_UID) == deck[21]  # the shoe reads it as that card now

    # a replaced sticker on his discard: named, and taken as the discard
    card = not_the_upcard(d, nd)
    replaced = "04EEEEEEEEEEEE"
    b.tag(replaced, SLOT)
    assert reads.prompt is not None and reads.prompt.kind is PromptKind.UNKNOWN_TAG
    result = reads.operator_assign(card)
    assert result is not None and result.action == Action("discard", nd, card=card)
    assert learned[-1] == (replaced, card) and reads.prompts == []

    # the slot's reader stops: the slot alone is down, said apart from the shoe
    b.err(p.ERR_READER, SLOT, "nofirmware")
    down = reads.prompt
    assert down is not None and down.kind is PromptKind.UNPLUGGED
    assert down.point == SLOT and reads.unplugged == {SLOT}
    assert b.shoe.connected and b.shoe.banner() is None and b.shoe.problems() == []
    words = prompt_text(down, name)
    assert "discard slot" in words and "card shoe" not in words, words
    # the whole shoe pulled out: both said
    assert [e.kind for e in b.pull_cable()] == ["disconnected"]
    assert reads.prompt is not None and set(reads.prompt.point.split("+")) == {SHOE, SLOT}
    assert "card shoe" in prompt_text(reads.prompt, name)


@pytest.mark.parametrize("down", [SLOT, SHOE])
def test_6_with_one_reader_unplugged_the_other_reads_on(down):
    """Why, 6 (the slot said apart from the shoe): while only the slot is unplugged the shoe
    still reads, so the due stock draw is taken; while only the shoe's reader is down, the
    discard of the seat in turn through the slot is his discard, not "out of turn"."""
    d, ctl, reads, deck = dealt_gin(5)
    if down == SLOT:
        nd = both_pass(d, ctl)
        reads.reader_error(SLOT, "READER")
        result = reads.card(SHOE, deck[21])
        assert result.prompt is None and result.action == Action("draw_stock", nd, card=deck[21])
    else:
        nd = d.to_act()[0]
        ctl.perform(nd, Call.DRAW)
        reads.reader_error(SHOE, "READER")
        card = not_the_upcard(d, nd)
        result = reads.card(SLOT, card)
        assert result.prompt is None and result.action == Action("discard", nd, card=card)
    assert reads.unplugged == {down}


# -- 7 -------------------------------------------------------------------------------------

JD = parse_card("JD")
TEN = parse_card("TC")

#: every question the table asks: (kind, why, seat, point)
PROMPTS: list[tuple[PromptKind, str, int | None, str]] = [
    (PromptKind.REPASS, "misread", 0, SHOE),
    (PromptKind.REPASS, "misread", None, SHOE),
    (PromptKind.REPASS, "misread", 0, SLOT),
    (PromptKind.REPASS, "double", None, SHOE),
    (PromptKind.REPASS, "reader", None, SHOE),
    (PromptKind.REPASS, "overflow", None, SLOT),
    (PromptKind.REPASS, "fatal", None, SHOE),
    (PromptKind.REPASS, "malformed", None, "shoe+slot"),
    (PromptKind.NOT_DUE, "", None, SHOE),
    (PromptKind.NOT_DUE, "", 0, SHOE),
    (PromptKind.NOT_DUE, "stopped", None, SHOE),
    (PromptKind.OUT_OF_TURN, "", 0, SLOT),
    (PromptKind.OUT_OF_TURN, "", None, SLOT),
    (PromptKind.OUT_OF_TURN, "dealing", 0, SLOT),
    (PromptKind.OUT_OF_TURN, "dealing", None, SLOT),
    (PromptKind.OUT_OF_TURN, "not_back", None, SLOT),
    (PromptKind.OUT_OF_TURN, "discard_taken_card", 0, SLOT),
    (PromptKind.OUT_OF_TURN, "stopped", 0, SLOT),
    (PromptKind.OUT_OF_TURN, "stopped", None, SLOT),
    (PromptKind.UNKNOWN_TAG, "", None, SHOE),
    (PromptKind.MISPLACED, "", None, SHOE),
    (PromptKind.MISPLACED, "stopped", None, SLOT),
    (PromptKind.MISPLACED, "lost", None, SHOE),
    (PromptKind.UNPLUGGED, "", None, "shoe+slot"),
    (PromptKind.UNPLUGGED, "", None, SHOE),
    (PromptKind.UNPLUGGED, "", None, SLOT),
    (PromptKind.UNPLUGGED, "", 0, SLOT),
]


def words(kind: PromptKind, why: str, seat: int | None, point: str, card: Card = JD) -> str:
    return prompt_text(Prompt(kind, 1, seat=seat, point=point, card=card, uid=UNKNOWN_UID, why=why), name)


def test_7_prompt_words_show_suit_symbols_and_a_card_not_due_says_someone():
    """Why, 7: prompts said "JD" instead of "J♦"; a card not due named nobody only by
    saying nothing. Every question has words (no placeholder left), cards with the suit's
    symbol, and a card out of the shoe with nobody named says someone took it and that OK
    (not a seat's DRAW) ends it."""
    assert "J♦" in words(PromptKind.NOT_DUE, "", 0, SHOE) and "JD" not in words(PromptKind.NOT_DUE, "", 0, SHOE)
    assert "10♣" in words(PromptKind.OUT_OF_TURN, "", 0, SLOT, TEN)
    nobody = words(PromptKind.NOT_DUE, "", None, SHOE)
    assert "Someone" in nobody and "touch OK" in nobody and "DRAW" not in nobody, nobody
    for kind, why, seat, point in PROMPTS:
        text = words(kind, why, seat, point)
        assert text.strip(), (kind, why, seat, point)
        assert "{" not in text and "}" not in text, text
        assert "JD" not in text, text
    for kind in PromptKind:
        assert any(k is kind for k, *_rest in PROMPTS), kind  # every kind is worded above


def test_7_a_prompt_ended_by_a_seats_draw_names_that_seat():
    """A "done" tap names who must act (Deliver 1): every question that says DRAW names the
    seat whose DRAW ends it."""
    for kind, why, seat, point in PROMPTS:
        text = words(kind, why, seat, point)
        if "DRAW" in text:
            assert seat is not None and name(seat) in text, (kind, why, text)


@pytest.mark.parametrize("lang", [lang for lang in i18n.LANGUAGES if lang != "en"])
def test_7_prompt_words_are_in_the_tables_language(lang):
    """Deliver 3: every real-card question in id/ru/pt, not the English words."""
    english = {case: words(*case) for case in PROMPTS}
    i18n.set_language(lang)
    try:
        untranslated = [case for case in PROMPTS if words(*case) == english[case]]
        for case in PROMPTS:
            assert words(*case).strip() and "JD" not in words(*case)
    finally:
        i18n.set_language("en")
    assert not untranslated, [english[c] for c in untranslated]
