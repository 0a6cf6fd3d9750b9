"""Real cards, the table's part without the readers (no pty, no pygame): the real-card call
table, issue 9's lamp invariant in real-card mode, the reads to engine actions, the fault
flows (pass again, not due, out of turn, unknown tag, a card seen twice, unplugged), the
operator's void, and ``config check``'s warnings."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

from controller_helpers import Clock, EngineDriver, check_lamps, phase_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from display.table.controller import BUTTONS, Call
from display.table.controller.real_cards import (
    CALL_TABLES,
    PromptKind,
    deal_order,
    expected,
    purpose,
    real_controller,
)
from display.table.controller.real_cards import (
    phase_of as real_phase,
)
from rummy.actions import TABLE, Action
from rummy.cards import Card, shuffled_deck
from rummy.contract.bots import BasicPlayer as ContractBot
from rummy.games import get_engine
from rummy.gin.bots import BasicPlayer as GinBot


class ReadDriver(EngineDriver):
    """A match in memory dealt and drawn in read mode: a shuffled pack stands in for the
    shoe (its order is the table's to learn card by card)."""

    def __init__(self, engine: Any, state: Any, humans: Any, rng: random.Random) -> None:
        super().__init__(engine, state, humans)
        self.rng = rng
        self.shoe: list[Card] = []

    def deal(self, rng: random.Random) -> None:
        need = expected(self.engine.name, self.state)
        if need is None or str(need.purpose) != "deal" or self.engine.is_over(self.state):
            return
        decks = 2 if self.engine.name == "contract" else 1
        deck = list(shuffled_deck(rng, decks))
        cards, self.shoe = deck[: need.count], deck[need.count:]
        assert self.try_submit(Action("deal_read", TABLE, cards=tuple(cards))) is None

    def next_card(self) -> Card:
        need = expected(self.engine.name, self.state)
        if need is not None and str(need.purpose) == "refill":
            self.shoe = list(need.refill)  # C-10: the pack less its top card goes back in
            self.rng.shuffle(self.shoe)
        return self.shoe.pop(0)

    def read_filled(self, action: Action) -> Action:
        """The bot's draw with the card read out of the shoe (IF10)."""
        if action.kind == "draw_stock" and action.card is None and expected(self.engine.name, self.state):
            return Action("draw_stock", action.seat, card=self.next_card())
        return action


def new_real_table(game: str, rules: dict[str, Any], seats: int, humans: set[int], seed: int):
    engine = get_engine(game)
    state = engine.new_match(engine.rules_from_dict(rules), seats)
    driver = ReadDriver(engine, state, humans, random.Random(seed))
    ctl, reads = real_controller(game, driver, clock=Clock(), deal_grace=0.0)
    return driver, ctl, reads


def play(game: str, rules: dict[str, Any], seats: int, seed: int, steps: int, check: bool = True):
    """Bots play a read-mode match (their draws carry the card out of the shoe, a buy's
    stock cards come as ``stock_cards``) while the lamps are checked in every state."""
    d, ctl, reads = new_real_table(game, rules, seats, set(range(seats)), seed)
    rng = random.Random(seed)
    bot = GinBot() if game == "gin" else ContractBot()
    phases = set()
    for _ in range(steps):
        if d.engine.is_over(d.state):
            break
        d.deal(rng)
        need = expected(game, d.state)
        if purpose(need) == "buy":  # a buy's stock cards out of the shoe (C-8.5)
            card = d.next_card() if str(need.purpose) != "refill" else d.next_card()
            assert d.try_submit(Action("stock_cards", need.seat, cards=(card,))) is None
            continue
        to_act = d.to_act()
        if not to_act:
            break
        phases.add(phase_of(ctl))
        if check:
            check_lamps(ctl, seats)
        seat = rng.choice(to_act)
        action = d.read_filled(bot.choose(d.engine, d.engine.view(d.state, seat), d.legal(seat), rng))
        assert d.try_submit(action) is None, action
    return d, ctl, reads, phases


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_gin_lamps_equal_acting_calls_in_real_card_mode(seed):
    play("gin", {"preset": "standard"}, 2, seed, steps=80)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), seats=st.integers(2, 5))
def test_contract_lamps_equal_acting_calls_in_real_card_mode(seed, seats):
    play("contract", {"preset": "seed_002"}, seats, seed, steps=60)


def test_the_call_table_names_what_each_button_and_reader_does_per_phase():
    gin_phases = {p for p, _c in CALL_TABLES["gin"]}
    assert gin_phases == {"upcard", "forced_draw", "draw", "discard", "last_chance", "knock_review", "layoff"}
    assert ("draw", Call.DRAW) in CALL_TABLES["gin"]  # DRAW takes the discard
    assert ("draw", Call.SHOE_CARD) in CALL_TABLES["gin"]  # a card out of the shoe is the stock draw
    assert ("discard", Call.SLOT_CARD) in CALL_TABLES["gin"]
    assert {p for p, _c in CALL_TABLES["contract"]} == {"turn", "ask", "take", "play"}
    assert ("turn", Call.BUY) in CALL_TABLES["contract"]  # "Можно?"
    for table in CALL_TABLES.values():
        assert all(e.words for e in table.values())


def test_a_gin_hand_through_the_readers_and_the_buttons():
    """The deal is read card by card in the order the table shows (21: the upcard last);
    DRAW takes the upcard; a card into the slot is the discard; a card out of the shoe in
    the draw phase is the stock draw; KNOCK then the slot knocks."""
    d, ctl, reads = new_real_table("gin", {"preset": "standard"}, 2, {0, 1}, 3)
    deck = list(shuffled_deck(random.Random(3)))
    order = deal_order("gin", d.state)
    assert len(order) == 21 and order[-1] == TABLE and order[0] == 1 - d.state.dealer
    for i, card in enumerate(deck[:21]):
        assert reads.deal_progress() == (i, 21, order[i])
        assert ctl.lamps(order[i] if order[i] != TABLE else 0) == dict.fromkeys(map(str, BUTTONS), False)
        reads.card("shoe", card)
    assert d.applied[-1].kind == "deal_read" and not reads.dealing()
    h = d.state.hand
    assert h.upcard == deck[20] and set(h.hands[1 - h.dealer]) == set(deck[0:20:2])
    nd = 1 - h.dealer
    assert ctl.lamps(nd)["draw"] and ctl.lamps(nd)["knock"]  # take / pass the upcard
    ctl.perform(nd, Call.DRAW)
    assert d.applied[-1].kind == "take_upcard"
    card = d.state.hand.hands[nd][0]
    result = reads.card("slot", card)
    assert result.action is not None and result.action.kind == "discard" and result.action.card == card
    dealer = h.dealer
    draw = deck[21]
    result = reads.card("shoe", draw)
    assert result.action == Action("draw_stock", dealer, card=draw)
    assert draw in d.state.hand.hands[dealer]


def test_a_misread_pauses_the_seat_and_the_next_pass_goes_on():
    d, ctl, reads = new_real_table("gin", {"preset": "standard"}, 2, {0, 1}, 4)
    deck = list(shuffled_deck(random.Random(4)))
    for card in deck[:5]:
        reads.card("shoe", card)
    prompt = reads.fault("shoe", "misread")
    assert prompt.kind is PromptKind.REPASS and reads.prompt is prompt
    assert reads.card("shoe", deck[5]).prompt is None and reads.prompt is None
    assert reads.dealt == deck[:6] and reads.tally.recovered == 1
    for card in deck[6:21]:
        reads.card("shoe", card)
    seat = d.to_act()[0]
    ctl.perform(seat, Call.DRAW)  # takes the upcard: his discard is due
    reads.fault("slot", "double")
    assert all(not on for on in ctl.lamps(seat).values())  # paused: no call acts
    reads.card("slot", d.state.hand.hands[seat][0])
    assert reads.prompt is None


def test_a_card_not_due_names_nobody_and_the_ok_answers_it():
    """Issue 28: the table cannot tell who took a card out of the shoe when no draw was
    due: it names nobody (not the seat in turn), no seat's DRAW ends it, the on-screen OK
    does ("put back": no reader sees a card go into the shoe)."""
    d, ctl, reads = new_real_table("gin", {"preset": "standard"}, 2, {0, 1}, 5)
    deck = list(shuffled_deck(random.Random(5)))
    for card in deck[:21]:
        reads.card("shoe", card)
    seat = d.to_act()[0]  # the upcard is offered: no stock draw is due
    before = d.state
    result = reads.card("shoe", deck[21])
    assert result.prompt is not None and result.prompt.kind is PromptKind.NOT_DUE
    assert result.prompt.seat is None and d.state is before  # never guessed, nobody named
    assert not any(ctl.lamps(seat).values()) and not any(ctl.lamps(1 - seat).values())
    ctl.perform(seat, Call.DRAW)
    assert not reads.acknowledge() and reads.prompt is not None  # a DRAW is not "done"
    assert reads.answerable() and reads.answer() and reads.prompt is None and d.state is before


def test_a_card_into_the_slot_out_of_turn_is_asked_about():
    d, ctl, reads = new_real_table("gin", {"preset": "standard"}, 2, {0, 1}, 6)
    deck = list(shuffled_deck(random.Random(6)))
    for card in deck[:21]:
        reads.card("shoe", card)
    other = 1 - d.to_act()[0]
    card = d.state.hand.hands[other][0]
    result = reads.card("slot", card)
    assert result.prompt.kind is PromptKind.OUT_OF_TURN and result.prompt.seat == other
    assert ctl.lamps(other)["draw"] and not any(ctl.lamps(1 - other).values())
    ctl.perform(other, Call.DRAW)
    assert reads.acknowledge() and reads.prompt is None


def test_a_card_seen_twice_or_an_unknown_tag_stops_for_the_operator_who_voids_the_hand():
    d, ctl, reads = new_real_table("gin", {"preset": "standard"}, 2, {0, 1}, 7)
    deck = list(shuffled_deck(random.Random(7)))
    reads.card("shoe", deck[0])
    prompt = reads.card("shoe", deck[0]).prompt  # the same card again: one pack holds it once
    assert prompt is not None and prompt.kind is PromptKind.MISPLACED
    stopped = reads.card("shoe", deck[1]).prompt  # stopped: not taken, asked about
    assert stopped is not None and stopped.kind is PromptKind.NOT_DUE and stopped.why == "stopped"
    assert stopped.seat is None and reads.prompt is prompt and reads.dealt == [deck[0]]
    assert reads.card("shoe", deck[1]).prompt is stopped  # waved again: the same question
    reads.operator_resume()
    assert reads.prompt is stopped  # still out: put back on top, then dealt again ends it
    for card in deck[1:21]:
        assert reads.card("shoe", card).prompt is None
    assert not reads.dealing() and reads.prompts == []
    seat = d.to_act()[0]
    assert reads.unknown("shoe", "04FFFFFFFFFFFF").kind is PromptKind.UNKNOWN_TAG
    assert not any(ctl.lamps(seat).values())
    dealer = d.state.hand.dealer
    assert reads.operator_void() is None
    assert reads.prompt is None and reads.dealing() and d.applied[-1].kind == "void_hand"
    assert d.state.dealer == dealer


def test_unplugged_readers_wait_and_a_card_held_meanwhile_counts():
    d, ctl, reads = new_real_table("gin", {"preset": "standard"}, 2, {0, 1}, 8)
    deck = list(shuffled_deck(random.Random(8)))
    reads.disconnected()
    assert reads.prompt is not None and reads.prompt.kind is PromptKind.UNPLUGGED
    reads.card("shoe", deck[0])  # the shoe held it and sent it after the replug
    reads.connected(("shoe", "slot"))
    assert reads.prompt is None and reads.dealt == [deck[0]]


def test_a_contract_buy_takes_its_stock_cards_from_the_shoe():
    d, ctl, reads, _ = play("contract", {"preset": "seed_002"}, 4, 11, steps=0, check=False)
    d.deal(random.Random(11))
    st_ = d.state
    asker = next(s for s in range(4) if s != st_.turn and any(a.kind == "buy" for a in d.legal(s)))
    ctl.perform(asker, Call.BUY)
    assert d.applied[-1].kind == "buy"
    for _ in range(8):
        need = expected("contract", d.state)
        if purpose(need) == "buy":
            card = d.next_card()
            result = reads.card("shoe", card)
            assert result.action == Action("stock_cards", need.seat, cards=(card,))
            continue
        if str(d.state.phase) == "ask":
            asked = d.state.buy.asked
            ctl.perform(asked, Call.DRAW)  # "Можно"
            continue
        if str(d.state.phase) == "take":
            ctl.perform(d.state.buy.buyer, Call.DRAW)
            continue
        break
    assert any(a.kind == "stock_cards" for a in d.applied)


def test_a_real_card_phase_is_in_the_table_or_does_nothing():
    d, ctl, reads, phases = play("gin", {"preset": "standard"}, 2, 12, steps=40, check=False)
    assert real_phase("gin", d.state) in {p for p, _c in CALL_TABLES["gin"]} | {None}


def test_config_check_warns_about_a_shoe_port_that_does_not_exist(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_text('[shoe]\nenabled = true\nport = "/dev/no-such-shoe"\n', encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "display.table.config", "check", str(cfg)], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0
    assert "warning: [shoe] port: /dev/no-such-shoe does not exist" in out.stderr
    assert "deck_map" in out.stderr


def test_docs_list_every_row_of_the_call_tables():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "real_cards.md").read_text(encoding="utf-8")
    for table in CALL_TABLES.values():
        for (phase, call), entry in table.items():
            assert f"| {phase} | {call} | {entry.words} |" in text, (phase, call)
