"""Referee audit of the gin engine: scripted hands played through ``ENGINE.apply``.

Every hand starts from a hand-built 52-card deal order, is played action by action, and
its exact outcome is checked. Every table built with the ``table`` fixture is written to
a journal at teardown and replayed: the replay must rebuild the same state and events.
"""

from __future__ import annotations

import io
import random

import pytest
from gin_helpers import reason_line

from rummy.actions import TABLE, Action, ActionError
from rummy.cards import ALL_CARDS, Card, parse_card, parse_cards
from rummy.gin.engine import ENGINE
from rummy.gin.rules import GinRules, preset
from rummy.gin.state import HandPhase, MatchPhase
from rummy.gin.view import event_view
from rummy.play import play_match
from rummy.records import Header, JournalWriter, replay
from rummy.replay_cli import print_replay

# --- scripting ---------------------------------------------------------------------------


def deck(dealer: int, seat0: str, seat1: str, upcard: str, stock: str = "") -> tuple[Card, ...]:
    """The deal order giving these hands (G-3.2: one at a time from the non-dealer), this
    upcard, and a stock whose top cards are ``stock`` (``?`` = any unused card)."""
    hands = [parse_cards(seat0), parse_cards(seat1)]
    up = parse_card(upcard)
    fixed = [c for c in parse_cards(" ".join(t for t in stock.split() if t != "?"))]
    used = [*hands[0], *hands[1], up, *fixed]
    assert len(used) == len(set(used)), "a card is used twice"
    spare = iter(c for c in ALL_CARDS if c not in used)
    top = [next(spare) if t == "?" else parse_card(t) for t in stock.split()]
    rest = list(spare)
    order: list[Card] = []
    for a, b in zip(hands[1 - dealer], hands[dealer], strict=True):
        order += [a, b]
    out = (*order, up, *top, *rest)
    assert len(out) == 52 and len(set(out)) == 52
    return out


class Table:
    """A match played by script; every applied action is kept for the journal check."""

    def __init__(self, rules: GinRules, first_dealer: int = 0):
        self.rules = rules
        self.first_dealer = first_dealer
        self.state = ENGINE.new_match(rules, 2, first_dealer=first_dealer)
        self.actions: list[Action] = []
        self.events: list = []

    @property
    def hand(self):
        return self.state.hand

    def deal(self, seat0: str, seat1: str, upcard: str, stock: str = "") -> list:
        order = deck(self.state.dealer, seat0, seat1, upcard, stock)
        return self.apply(Action("deal", TABLE, cards=order))

    def apply(self, action: Action) -> list:
        self.state, events = ENGINE.apply(self.state, action)
        self.actions.append(action)
        self.events.append(events)
        self._check_invariants()
        return events

    def _check_invariants(self) -> None:
        """G-18: all 52 cards once each; 10 cards a hand between turns, 11 while one
        player is mid-turn; the stock never below its floor."""
        h = self.hand
        if h is None:
            return
        every = [*h.hands[0], *h.hands[1], *h.stock, *h.discard_pile, *h.set_aside]
        every += [c for c, _ in h.layoffs]
        assert sorted(every) == sorted(ALL_CARDS)
        assert len(h.stock) >= self.rules.stock_floor
        sizes = sorted(len(x) for x in h.hands)
        if h.phase is HandPhase.DISCARD:
            assert len(h.hands[h.turn]) == 11 and len(h.hands[1 - h.turn]) == 10
        elif h.phase in (HandPhase.UPCARD, HandPhase.FORCED_DRAW, HandPhase.DRAW,
                         HandPhase.LAST_CHANCE, HandPhase.KNOCK_REVIEW):
            assert sizes == [10, 10]

    def do(self, kind: str, seat: int, card: str | None = None, *, melds=None, **kw) -> list:
        return self.apply(_action(kind, seat, card, melds, **kw))

    def refused(self, kind: str, seat: int, card: str | None = None, *, match: str = "",
                melds=None, **kw) -> None:
        before = self.state
        with pytest.raises(ActionError, match=match):
            ENGINE.apply(self.state, _action(kind, seat, card, melds, **kw))
        assert self.state == before

    def legal(self, seat: int) -> list[Action]:
        return ENGINE.legal_actions(self.state, seat)

    def kinds(self, seat: int) -> set[str]:
        return {a.kind for a in self.legal(seat)}

    def check_replay(self, path) -> None:
        header = Header(
            game="gin",
            rules=ENGINE.rules_to_dict(self.rules),
            seats=[{"name": "Ann"}, {"name": "Bob"}],
            first_dealer=self.first_dealer,
        )
        with JournalWriter.create(path, header, fsync=False) as w:
            for a in self.actions:
                w.append(a)
        rep = replay(path)
        assert rep.state == self.state
        assert [evs for _, evs in rep.steps] == self.events


def _action(kind, seat, card, melds, **kw) -> Action:
    if melds is not None:
        melds = tuple(tuple(parse_cards(m)) for m in melds)
    return Action(kind, seat, card=parse_card(card) if card else None, melds=melds, **kw)


@pytest.fixture
def table(tmp_path):
    """``table(rules, first_dealer=0)``; each table's journal is replayed at teardown."""
    made: list[Table] = []

    def make(rules: GinRules | str = "standard", first_dealer: int = 0, **changes) -> Table:
        r = preset(rules) if isinstance(rules, str) else rules
        t = Table(r.replace(**changes) if changes else r, first_dealer)
        made.append(t)
        return t

    yield make
    for i, t in enumerate(made):
        t.check_replay(tmp_path / f"table{i}.jsonl")


def c(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def only(events, kind: str):
    found = [e for e in events if e.kind == kind]
    assert len(found) == 1, kinds(events)
    return found[0]


# Dealer seat 0, non-dealer seat 1 unless said otherwise.
# N: melds 2-3-4S, 7-8-9H, KC KD KS; its 10th card X is the deadwood.
N9 = "2S 3S 4S 7H 8H 9H KC KD KS"
# D: melds 5-6-7D, TH TD TC; deadwood QD 9S 3H 4C = 26; nothing to lay off on N's melds
# except TH (which would break his own set: worse).
D26 = "5D 6D 7D TH TD TC QD 9S 3H 4C"
# D with count 4 (QD QS QH set, 4C deadwood).
D4 = "5D 6D 7D TH TD TC QD QS QH 4C"
# D fully melded (count 0).
D0 = "5D 6D 7D TH TD TC QD QS QH QC"


def knock_hand(t: Table, x: str, upcard: str = "JH", d: str = D26, draw: str = "JS") -> None:
    """Deal N9 + x to the non-dealer (seat 1), both pass the upcard, seat 1 draws ``draw``."""
    t.deal(d, f"{N9} {x}", upcard, draw)
    t.do("pass_upcard", 1)
    t.do("pass_upcard", 0)
    t.do("draw_stock", 1)


# --- G-4 the upcard option ---------------------------------------------------------------


def test_g_4_2_non_dealer_takes_the_upcard_discards_another_then_dealer_plays(table):
    t = table()
    t.deal(D26, f"{N9} 6C", "AS", "JS")
    assert t.state.hand.turn == 1 and t.kinds(1) == {"take_upcard", "pass_upcard"}
    assert t.legal(0) == []
    t.refused("take_upcard", 0, match="not seat 0's turn")
    t.refused("draw_stock", 1, match="not possible now")
    ev = t.do("take_upcard", 1)
    assert only(ev, "upcard_taken").data["card"] == "AS"
    assert parse_card("AS") in t.hand.hands[1] and t.hand.discard_pile == ()
    t.refused("discard", 1, "AS", match="just taken")  # G-4.2
    assert parse_card("AS") not in {a.card for a in t.legal(1) if a.kind == "discard"}
    t.do("discard", 1, "6C")
    assert (t.hand.turn, t.hand.phase) == (0, HandPhase.DRAW)  # the dealer's normal turn
    assert t.kinds(0) == {"draw_stock", "draw_discard"}
    t.do("draw_discard", 0)
    assert t.hand.hands[0][-1] == parse_card("6C")


def test_g_4_3_dealer_takes_after_the_non_dealer_passes(table):
    t = table()
    t.deal(D26, f"{N9} 6C", "AS", "JS")
    t.do("pass_upcard", 1)
    assert t.hand.turn == 0 and t.kinds(0) == {"take_upcard", "pass_upcard"}
    t.do("take_upcard", 0)
    t.refused("discard", 0, "AS", match="just taken")
    t.refused("knock", 0, "AS", match="just taken")
    t.do("discard", 0, "QD")
    assert (t.hand.turn, t.hand.phase) == (1, HandPhase.DRAW)
    assert t.hand.discard_pile == c("QD")


def test_g_4_4_both_pass_non_dealer_must_draw_from_stock(table):
    t = table()
    t.deal(D26, f"{N9} 6C", "AS", "JS")
    t.do("pass_upcard", 1)
    t.do("pass_upcard", 0)
    assert (t.hand.turn, t.hand.phase) == (1, HandPhase.FORCED_DRAW)
    assert [a.kind for a in t.legal(1)] == ["draw_stock"]
    t.refused("draw_discard", 1, match="not possible now")
    ev = t.do("draw_stock", 1)
    assert only(ev, "drew").data == {"pile": "stock", "card": "JS", "stock": 30}
    t.do("discard", 1, "JS")  # G-5.3: a stock card may be discarded at once [S000]
    assert t.hand.discard_pile == c("AS JS")  # G-4.5 stays_in_pile: the upcard is buried
    assert (t.hand.turn, t.hand.phase) == (0, HandPhase.DRAW)
    t.do("draw_discard", 0)
    assert t.hand.hands[0][-1] == parse_card("JS") and t.hand.discard_pile == c("AS")


def test_g_4_5_refused_upcard_set_aside(table):
    t = table(refused_upcard="set_aside")
    t.deal(D26, f"{N9} 6C", "AS", "JS")
    t.do("pass_upcard", 1)
    t.do("pass_upcard", 0)
    assert t.hand.set_aside == c("AS") and t.hand.discard_pile == ()
    t.do("draw_stock", 1)
    t.do("discard", 1, "6C")
    assert t.hand.discard_pile == c("6C")


def test_g_4_2_first_turn_knock_after_taking_the_upcard(table):
    # N holds KC KD + 5C QC: the upcard KH makes a set; discarding QC leaves 5C = 5.
    t = table()
    t.deal(D26, "2S 3S 4S 7H 8H 9H KC KD 5C QC", "KH")
    t.do("take_upcard", 1)
    t.refused("knock", 1, "KH", match="just taken")  # G-22.1: refused, not illegal
    assert t.hand.illegal_knocks == (0, 0)
    ev = t.do("knock", 1, "QC")
    r = t.hand.result
    assert (r.outcome, r.winner, r.knocker_count, r.defender_count) == ("knock", 1, 5, 26)
    assert (r.points, r.boxes) == (21, 1)
    assert only(ev, "hand_scored").data["scores"] == [0, 21]


# --- G-5.3 / G-22.1 the taken card on later turns -------------------------------------------


def test_g_22_1_card_taken_from_the_pile_later_cannot_be_discarded_or_knocked_with(table):
    t = table()
    knock_hand(t, "6C")
    t.do("discard", 1, "JS")
    t.do("draw_discard", 0)  # the dealer takes JS
    t.refused("discard", 0, "JS", match="just taken")
    t.refused("knock", 0, "JS", match="just taken")
    assert parse_card("JS") not in {a.card for a in t.legal(0)}
    t.do("discard", 0, "QD")
    t.do("draw_discard", 1)  # N takes QD
    assert t.hand.last_taken == parse_card("QD")
    t.do("discard", 1, "6C")
    assert t.hand.last_taken is None


def test_g_5_3_option_off_allows_rediscarding_the_taken_card(table):
    t = table(forbid_discarding_taken_card=False)
    t.deal(D26, f"{N9} 6C", "AS", "JS")
    t.do("take_upcard", 1)
    t.do("discard", 1, "AS")
    assert t.hand.discard_pile == c("AS")


# --- G-6 knock limit ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("upcard", "limit"),
    [("JH", 10), ("QH", 10), ("KH", 10), ("TS", 10), ("9C", 9), ("7C", 7), ("2H", 2)],
)
def test_g_6_2_knock_card_value_is_the_limit(table, upcard, limit):
    t = table("knock_card")
    ev = t.deal(D26, f"{N9} 6C", upcard, "JS")
    assert t.hand.knock_limit == limit and only(ev, "dealt").data["knock_limit"] == limit
    assert ENGINE.view(t.state, 0).knock_limit == limit


@pytest.mark.parametrize(("x", "legal"), [("7C", True), ("8C", False), ("AC", True)])
def test_g_6_2_knock_at_the_limit_is_legal_one_over_is_not(table, x, legal):
    t = table("knock_card", illegal_knock="reject")
    knock_hand(t, x, upcard="7S")
    assert ("knock" in t.kinds(1)) is legal
    if legal:
        t.do("knock", 1, "JS")
        assert t.hand.result.knocker_count == parse_card(x).value
    else:
        t.refused("knock", 1, "JS", match="over the knock limit 7")


def test_g_6_3_ace_knock_card_gin_only(table):
    t = table("knock_card", illegal_knock="reject")
    knock_hand(t, "AC", upcard="AH", draw="5S")
    assert t.hand.knock_limit == 0
    t.refused("knock", 1, "5S", match="only gin")  # count 1
    ev = t.do("knock", 1, "AC")  # discarding AC leaves gin
    assert "gin" in kinds(ev) and t.hand.result.outcome == "gin"
    assert t.hand.result.points == 26 + 25


def test_g_6_3_ace_knock_card_one(table):
    t = table("knock_card", ace_knock_card="one")
    knock_hand(t, "AC", upcard="AH")
    assert t.hand.knock_limit == 1
    t.do("knock", 1, "JS")
    r = t.hand.result
    assert (r.outcome, r.knocker_count, r.points) == ("knock", 1, 25)


def test_g_6_4_limit_is_fixed_for_the_hand_when_the_knock_card_is_taken(table):
    t = table("knock_card")
    t.deal(D26, "2S 3S 4S 7H 8H 9H KC KD 2C QC", "KH")
    t.do("take_upcard", 1)
    assert t.hand.knock_limit == 10
    t.do("knock", 1, "QC")  # 2C = 2
    assert t.hand.result.knocker_count == 2


def test_g_6_1_standard_limit_is_ten_whatever_the_upcard(table):
    t = table()
    knock_hand(t, "TS", upcard="2H")
    assert t.hand.knock_limit == 10
    t.do("knock", 1, "JS")
    assert (t.hand.result.outcome, t.hand.result.points) == ("knock", 16)


# --- G-6.5 / G-12.4 spades double ----------------------------------------------------------


@pytest.mark.parametrize(("boxes_too", "boxes"), [(False, 1), (True, 2)])
def test_g_6_5_spade_knock_card_doubles_a_knock(table, boxes_too, boxes):
    t = table("knock_card", spades_double=True, spades_double_boxes=boxes_too)
    knock_hand(t, "2C", upcard="7S")
    t.do("knock", 1, "JS")
    r = t.hand.result
    assert (r.outcome, r.points, r.boxes, r.doubled) == ("knock", (26 - 2) * 2, boxes, True)


@pytest.mark.parametrize(("boxes_too", "boxes"), [(False, 2), (True, 4)])
def test_g_12_4_spades_double_an_undercut_with_its_extra_box(table, boxes_too, boxes):
    t = table("knock_card", spades_double=True, spades_double_boxes=boxes_too)
    knock_hand(t, "7C", upcard="7S", d=D4)
    t.do("knock", 1, "JS")
    r = t.hand.result
    assert (r.outcome, r.winner, r.points, r.boxes) == ("undercut", 0, (7 - 4 + 25) * 2, boxes)


def test_g_6_5_spades_double_gin_bonus_included(table):
    t = table("knock_card", spades_double=True)
    knock_hand(t, "2C", upcard="7S", draw="5S")
    t.do("knock", 1, "2C")
    r = t.hand.result
    assert (r.outcome, r.points, r.boxes) == ("gin", (26 + 25) * 2, 1)


def test_g_6_5_no_double_for_a_heart_or_in_standard_mode(table):
    t = table("knock_card", spades_double=True)
    knock_hand(t, "2C", upcard="7C")
    t.do("knock", 1, "JS")
    assert (t.hand.result.points, t.hand.result.doubled) == (24, False)
    t2 = table("standard", spades_double=True)  # decision log: knock-card mode only
    knock_hand(t2, "2C", upcard="7S")
    t2.do("knock", 1, "JS")
    assert (t2.hand.result.points, t2.hand.result.doubled) == (24, False)


# --- G-8 illegal knock -------------------------------------------------------------------


def illegal_knock_table(table, mode: str, stock: str = "JS 5H 2C") -> Table:
    """Knock-card 7S (L = 7); seat 1 knocks with 8 (N9 + 8C, discarding the drawn JS)."""
    t = table("knock_card", illegal_knock=mode)
    knock_hand(t, "8C", upcard="7S", draw=stock)
    return t


def test_g_8_2_expose_and_force_discard_stands_hand_exposed_must_knock(table):
    t = illegal_knock_table(table, "expose_and_force")
    ev = t.do("knock", 1, "JS")
    e = only(ev, "illegal_knock")
    assert e.data["count"] == 8 and "over the knock limit 7" in reason_line(e.data)
    h = t.hand
    assert h.result is None and h.discard_pile[-1] == parse_card("JS")
    assert len(h.hands[1]) == 10 and h.exposed == (False, True) and h.must_knock == (False, True)
    assert (h.turn, h.phase, h.illegal_knocks) == (0, HandPhase.DRAW, (0, 1))
    assert ENGINE.view(t.state, 0).opponent_hand == h.hands[1]  # G-8.2 exposed to him
    assert ENGINE.view(t.state, None).visible_hands[1] == h.hands[1]
    assert ENGINE.view(t.state, 1).opponent_hand is None  # the dealer's hand stays hidden
    t.do("draw_stock", 0)  # 5H
    t.do("discard", 0, "5H")
    ev = t.do("draw_stock", 1)  # 2C: discarding 8C now knocks with 2
    assert event_view(only(ev, "drew"), 0, exposed=t.hand.exposed).data["card"] == "2C"
    t.refused("discard", 1, "8C", match="must knock")
    t.refused("discard", 1, "2C", match="must knock")
    assert {a.kind for a in t.legal(1)} == {"knock"}
    t.do("knock", 1, "8C")
    r = t.hand.result
    assert (r.outcome, r.winner, r.knocker_count, r.points) == ("knock", 1, 2, 24)


def test_g_8_3_a_second_illegal_knock_is_refused_play_goes_on(table):
    t = illegal_knock_table(table, "expose_and_force", stock="JS 5H JC")
    t.do("knock", 1, "JS")
    t.do("draw_stock", 0)
    t.do("discard", 0, "5H")
    t.do("draw_stock", 1)  # JC: still no legal knock, so he may discard
    t.refused("knock", 1, "JC", match="second illegal knock")
    assert "knock" not in t.kinds(1)
    t.do("discard", 1, "JC")
    assert t.hand.illegal_knocks == (0, 1) and t.hand.turn == 0


def test_g_8_3_reject_mode_refuses_the_knock(table):
    t = illegal_knock_table(table, "reject")
    assert "knock" not in t.kinds(1)
    t.refused("knock", 1, "JS", match="cannot knock: deadwood 8 is over the knock limit 7")
    t.do("discard", 1, "JS")
    assert t.hand.exposed == (False, False) and t.hand.must_knock == (False, False)


def test_g_8_3_opponent_option_accept_scores_the_true_count(table):
    t = illegal_knock_table(table, "opponent_option")
    t.do("knock", 1, "JS")
    assert (t.hand.phase, t.hand.turn) == (HandPhase.KNOCK_REVIEW, 0)
    assert t.kinds(0) == {"accept_knock", "refuse_knock"}
    t.do("accept_knock", 0)
    r = t.hand.result
    assert (r.outcome, r.winner, r.knocker_count, r.defender_count, r.points) == (
        "knock", 1, 8, 26, 18)


def test_g_8_3_opponent_option_refuse_exposes_and_forces(table):
    t = illegal_knock_table(table, "opponent_option")
    t.do("knock", 1, "JS")
    t.do("refuse_knock", 0)
    h = t.hand
    assert (h.turn, h.phase, h.exposed, h.must_knock) == (
        0, HandPhase.DRAW, (False, True), (False, True))
    assert h.discard_pile[-1] == parse_card("JS") and len(h.hands[1]) == 10


def test_g_8_1_declared_invalid_meld_is_an_illegal_knock_even_under_the_limit(table):
    t = table()
    knock_hand(t, "2C")
    ev = t.do("knock", 1, "JS", melds=("2S 3S 4S", "7H 8H 9H", "KC KD 2C"))
    assert "illegal_knock" in kinds(ev) and t.hand.exposed == (False, True)


def test_g_8_1_declared_valid_arrangement_over_the_limit_is_illegal(table):
    t = table()
    knock_hand(t, "2C")
    ev = t.do("knock", 1, "JS", melds=("2S 3S 4S", "7H 8H 9H"))
    assert only(ev, "illegal_knock").data["count"] == 32


def test_g_22_2_declared_arrangement_within_the_limit_is_a_knock(table):
    t = table()
    knock_hand(t, "2C")
    t.do("knock", 1, "JS", melds=("2S 3S 4S", "7H 8H 9H", "KC KD KS"))
    r = t.hand.result
    assert (r.outcome, r.knocker_count, r.points) == ("knock", 2, 24)


# --- G-9 gin, G-10 big gin, G-12 outcome rows ---------------------------------------------


def test_g_9_3_gin_is_never_undercut_even_by_a_zero_defender(table):
    t = table()
    knock_hand(t, "2C", d=D0, draw="5S")
    ev = t.do("knock", 1, "2C")
    r = t.hand.result
    assert "gin" in kinds(ev) and "laid_off" not in kinds(ev)
    assert (r.outcome, r.winner, r.defender_count, r.points, r.boxes) == ("gin", 1, 0, 25, 1)


def test_g_12_knock_against_a_zero_defender_is_an_undercut(table):
    t = table()
    knock_hand(t, "2C", d=D0)
    t.do("knock", 1, "JS")
    r = t.hand.result
    assert (r.outcome, r.winner, r.points, r.boxes) == ("undercut", 0, 2 + 25, 1)


def test_g_9_2_gin_bonus_and_no_layoffs_extra_gin_boxes(table):
    t = table(extra_boxes_gin=2)
    knock_hand(t, "TS", draw="5S", d="5D 6D 7D TH TD TC QD 9S 3H 6S")
    t.do("knock", 1, "TS")  # 6S could extend 2-5S, but nothing is laid off on gin
    r = t.hand.result
    assert (r.outcome, r.defender_count, r.points, r.boxes, r.layoffs) == (
        "gin", 28, 28 + 25, 3, ())


def test_g_10_big_gin_eleven_cards_no_discard(table):
    t = table(extra_boxes_gin=1)
    knock_hand(t, "5S", draw="6S")
    assert "big_gin" in t.kinds(1)
    ev = t.do("big_gin", 1)
    r = t.hand.result
    assert kinds(ev)[0] == "big_gin" and len(t.hand.hands[1]) == 11
    assert (r.outcome, r.winner, r.points, r.boxes) == ("big_gin", 1, 26 + 31, 2)


def test_g_10_2_big_gin_off_means_discard_and_gin(table):
    t = table(big_gin_bonus=None)
    knock_hand(t, "5S", draw="6S")
    assert "big_gin" not in t.kinds(1)
    t.refused("big_gin", 1, match="not played")
    t.do("knock", 1, "6S")
    assert (t.hand.result.outcome, t.hand.result.points) == ("gin", 26 + 25)


def test_g_10_1_big_gin_needs_all_eleven_melded(table):
    t = table()
    knock_hand(t, "2C", draw="5S")
    t.refused("big_gin", 1, match="all eleven")


@pytest.mark.parametrize(("name", "boxes"), [("standard", 1), ("knock_card", 2)])
def test_g_12_2_undercut_with_the_extra_box_of_the_knock_card_preset(table, name, boxes):
    t = table(name)
    knock_hand(t, "7C", upcard="KH", d=D4)
    t.do("knock", 1, "JS")
    r = t.hand.result
    assert (r.outcome, r.winner, r.knocker_count, r.defender_count) == ("undercut", 0, 7, 4)
    assert (r.points, r.boxes) == (7 - 4 + 25, boxes)


@pytest.mark.parametrize(
    ("on_tie", "outcome", "winner", "points"), [(True, "undercut", 0, 25), (False, "knock", 1, 0)]
)
def test_g_12_1_equal_counts_and_the_undercut_on_tie_flag(table, on_tie, outcome, winner, points):
    t = table(undercut_on_tie=on_tie)
    knock_hand(t, "4H", d=D4)
    t.do("knock", 1, "JS")
    r = t.hand.result
    assert (r.outcome, r.winner, r.knocker_count, r.defender_count) == (outcome, winner, 4, 4)
    assert (r.points, r.boxes) == (points, 1)


# --- G-11 layoffs -------------------------------------------------------------------------

# Knocker (seat 1): runs 4-6 in hearts, clubs, diamonds + AS; draws KH and knocks with 1.
KN = "4H 5H 6H 4C 5C 6C 4D 5D 6D AS"
# Defender: the set 7H 7C 7D is worth more broken up (7H then 8H chain onto the hearts,
# 7C and 7D onto their runs): deadwood 9S 9C 2D = 20 instead of 28.
DF = "7H 7C 7D 8H 9S 9C KS QS JS 2D"


def deal_and_knock(t):
    """Deal DF to seat 0 and KN to seat 1 (upcard TD, stock top KH); both pass the upcard,
    seat 1 draws KH and knocks discarding it. The knock's events."""
    t.deal(DF, KN, "TD", "KH")
    t.do("pass_upcard", 1)
    t.do("pass_upcard", 0)
    t.do("draw_stock", 1)
    return t.do("knock", 1, "KH")


def meld_index(melds, suit: str) -> int:
    return next(i for i, m in enumerate(melds) if m[0].suit == suit)


def test_g_22_3_auto_defence_breaks_his_own_set_and_chains(table):
    t = table()
    ev = deal_and_knock(t)
    r = t.hand.result
    km = r.knocker_melds
    h, cl, d = (meld_index(km, s) for s in "HCD")
    assert set(r.layoffs) == {
        (parse_card("7H"), h), (parse_card("8H"), h), (parse_card("7C"), cl),
        (parse_card("7D"), d),
    }
    order = [str(x) for x, _ in r.layoffs]
    assert order.index("7H") < order.index("8H")  # a valid chain order
    assert [e.data["card"] for e in ev if e.kind == "laid_off"] == order
    assert r.defender_melds == (c("JS QS KS"),) and set(r.defender_deadwood) == set(c("2D 9S 9C"))
    assert (r.outcome, r.knocker_count, r.defender_count, r.points) == ("knock", 1, 20, 19)


def test_g_11_4_undercut_thanks_to_layoffs(table):
    t = table()
    t.deal("7H 7C 7D 8H 9H KS QS JS TS 9S", KN, "TD", "KH")
    t.do("pass_upcard", 1)
    t.do("pass_upcard", 0)
    t.do("draw_stock", 1)
    t.do("knock", 1, "KH")
    r = t.hand.result
    assert (r.outcome, r.winner, r.defender_count, r.points) == ("undercut", 0, 0, 1 + 25)
    assert len(r.layoffs) == 5


def test_g_11_agent_layoffs_in_chain_order_then_done(table):
    t = table(defender_layoffs="agent")
    deal_and_knock(t)
    assert (t.hand.phase, t.hand.turn) == (HandPhase.LAYOFF, 0)
    km = t.hand.table_melds
    h, cl, d = (meld_index(km, s) for s in "HCD")
    t.refused("lay_off", 1, "4H", target=h, match="not seat 1's turn")  # G-11.2
    t.refused("lay_off", 0, "8H", target=h, match="does not extend")  # 7H first
    t.refused("lay_off", 0, "9S", target=cl, match="not the suit")
    t.refused("lay_off", 0, "7H", target=len(km), match="say which")
    assert ("lay_off", parse_card("7H"), h) in {(a.kind, a.card, a.target) for a in t.legal(0)}
    t.do("lay_off", 0, "7H", target=h)
    t.do("lay_off", 0, "8H", target=h)
    t.do("lay_off", 0, "7C", target=cl)
    t.do("lay_off", 0, "7D", target=d)
    assert t.hand.table_melds[h] == c("4H 5H 6H 7H 8H")
    t.do("done_laying_off", 0)
    r = t.hand.result
    assert (r.outcome, r.defender_count, r.points, len(r.layoffs)) == ("knock", 20, 19, 4)


def test_g_7_3_face_down_knock_discard_hidden_during_layoffs(table):
    t = table(defender_layoffs="agent")
    deal_and_knock(t)
    assert t.hand.phase is HandPhase.LAYOFF and t.hand.discard_pile == c("TD KH")
    for seat in (0, None):
        v = ENGINE.view(t.state, seat)
        assert v.discard_top == parse_card("TD") and v.discard_pile == c("TD")
        assert v.knock is not None and v.knock.discard is None
        assert v.opponent_hand is None and v.visible_hands[1] is None
    assert ENGINE.view(t.state, 1).knock.discard == t.hand.knock.discard


# --- G-5.6 / G-13 the end of the stock ----------------------------------------------------

# Dealer (seat 0): AAA, 5-6-7S, 8D 9D JC QC. The 50th card TD gives him 8-9-TD and a knock
# with JC or QC (10). Non-dealer (seat 1): 2-3-4S, 7-8-9H, KD KH 6C 5D = 31.
DR = "AH AD AC 5S 6S 7S 8D 9D JC QC"
NR = "2S 3S 4S 7H 8H 9H KD KH 6C 5D"


def run_out(t: Table, fiftieth: str = "TD", *, draws: int = 29, knock_at: int | None = None):
    """Both pass, then ``draws`` stock draws, each drawn card discarded at once (seat 1 draws
    first, so he draws the 29th = the 50th card of the pack, ``fiftieth``). At draw
    ``knock_at`` the dealer knocks (illegally) with the card he drew instead."""
    t.deal(DR, NR, "2D", "? " * 28 + fiftieth)
    t.do("pass_upcard", 1)
    t.do("pass_upcard", 0)
    for i in range(draws):
        seat = 1 if i % 2 == 0 else 0
        assert "draw_stock" in t.kinds(seat)
        t.do("draw_stock", seat)
        drawn = str(t.hand.hands[seat][-1])
        if i == draws - 1 and i == 28:
            assert len(t.hand.stock) == 2
            return drawn
        t.do("knock" if i == knock_at else "discard", seat, drawn)
    return None


def test_g_13_3_fifty_first_last_chance_take_and_knock(table):
    t = table()
    assert run_out(t) == "TD"
    assert t.hand.phase is HandPhase.DISCARD  # G-13.6: he may still knock (not here)
    t.do("discard", 1, "TD")
    assert (t.hand.phase, t.hand.turn, len(t.hand.stock)) == (HandPhase.LAST_CHANCE, 0, 2)
    legal = t.legal(0)
    assert {(a.kind, str(a.card)) for a in legal} == {
        ("take_and_knock", "JC"), ("take_and_knock", "QC"), ("decline", "None")}
    t.refused("draw_stock", 0, match="not possible now")  # G-5.6
    t.refused("draw_discard", 0, match="not possible now")
    t.refused("take_and_knock", 0, "TD", match="just taken")  # G-22.1
    t.refused("take_and_knock", 0, "8D", match="only be taken")
    t.refused("take_and_knock", 0, "QC", melds=("AH AD AC", "5S 6S 7S", "8D 9D JC"),
              match="only be taken for a legal knock")
    ev = t.do("take_and_knock", 0, "JC")
    assert kinds(ev)[:2] == ["drew", "knocked"] and ev[0].data["last_chance"] is True
    r = t.hand.result
    assert (r.outcome, r.winner, r.knocker_count, r.defender_count, r.points) == (
        "knock", 0, 10, 31, 21)


def test_g_13_3_declining_the_last_discard_kills_the_hand_same_dealer_redeals(table):
    t = table()
    run_out(t)
    t.do("discard", 1, "TD")
    ev = t.do("decline", 0)
    assert kinds(ev) == ["declined", "hand_dead", "hand_scored"]
    assert t.hand.result.outcome == "dead" and t.state.scores == (0, 0)
    assert (t.state.phase, t.state.dealer, t.state.boxes) == (MatchPhase.DEAL, 0, (0, 0))


def test_g_13_3_no_knock_possible_only_decline(table):
    t = table()
    run_out(t, "2H")
    t.do("discard", 1, "2H")
    assert [a.kind for a in t.legal(0)] == ["decline"]
    t.refused("take_and_knock", 0, "JC", match="only be taken")


def test_g_13_6_the_fiftieth_card_drawer_may_knock(table):
    t = table()
    run_out(t, "KC")  # KD KH KC: discard 6C, count 5
    assert "knock" in t.kinds(1)
    t.do("knock", 1, "6C")
    assert (t.hand.result.outcome, t.hand.result.knocker_count) == ("knock", 5)


def test_g_8_2_must_knock_forbids_declining_the_last_chance(table):
    t = table()
    run_out(t, knock_at=1)  # the dealer's first draw: an illegal knock (count 37)
    assert t.hand.must_knock == (True, False) and t.hand.illegal_knocks == (1, 0)
    t.do("discard", 1, "TD")
    assert {a.kind for a in t.legal(0)} == {"take_and_knock"}
    t.refused("decline", 0, match="must knock")
    t.do("take_and_knock", 0, "QC")
    assert t.hand.result.outcome == "knock"


def test_g_13_2_pagat_hand_dead_when_the_fiftieth_drawer_discards(table):
    t = table(dead_hand_rule="pagat")
    run_out(t)
    ev = t.do("discard", 1, "TD")
    assert only(ev, "hand_dead").data["reason"] == "stock_exhausted"
    assert t.hand.result.outcome == "dead" and t.state.phase is MatchPhase.DEAL


def pass_then_draw_and_throw_back(t, turns: int) -> None:
    """Both pass the upcard; then ``turns`` turns, seat 1 first, each drawing from the stock
    and discarding the card drawn."""
    t.do("pass_upcard", 1)
    t.do("pass_upcard", 0)
    for i in range(turns):
        seat = 1 if i % 2 == 0 else 0
        t.do("draw_stock", seat)
        t.do("discard", seat, str(t.hand.hands[seat][-1]))


def test_g_13_4_hoyle_pc_dead_as_soon_as_two_remain_no_knock(table):
    t = table(dead_hand_rule="hoyle_pc")
    t.deal(DR, NR, "2D", "? " * 28 + "KC")
    pass_then_draw_and_throw_back(t, 28)
    ev = t.do("draw_stock", 1)  # the 50th card KC would give him a knock
    assert "hand_dead" in kinds(ev) and t.hand.result.outcome == "dead"
    assert t.state.phase is MatchPhase.DEAL


def test_g_5_6_stock_floor_setting(table):
    t = table(stock_floor=29, dead_hand_rule="pagat", redeal_after_dead_hand="rotate")
    t.deal(DR, NR, "2D")
    t.do("pass_upcard", 1)
    t.do("pass_upcard", 0)
    t.do("draw_stock", 1)
    t.do("discard", 1, str(t.hand.hands[1][-1]))
    t.do("draw_stock", 0)  # 29 left
    ev = t.do("discard", 0, str(t.hand.hands[0][-1]))
    assert "hand_dead" in kinds(ev)
    assert (t.state.dealer, t.state.hand_number) == (1, 1)  # G-3.4 rotate
    t.deal(DR, NR, "2D")
    assert (t.hand.dealer, t.state.hand_number) == (1, 2)


def test_g_3_4_dead_hand_same_dealer_redeals(table):
    t = table(stock_floor=29, dead_hand_rule="pagat")
    t.deal(DR, NR, "2D")
    t.do("pass_upcard", 1)
    t.do("pass_upcard", 0)
    for seat in (1, 0):
        t.do("draw_stock", seat)
        t.do("discard", seat, str(t.hand.hands[seat][-1]))
    assert t.hand.result.outcome == "dead" and t.state.dealer == 0


# --- G-3.3 next dealer ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rotation", "dealer"), [("alternate", 1), ("winner_deals", 1), ("loser_deals", 0)]
)
def test_g_3_3_dealer_rotation_after_a_won_hand(table, rotation, dealer):
    t = table(dealer_rotation=rotation)
    knock_hand(t, "2C")
    t.do("knock", 1, "JS")  # seat 1 wins
    assert t.state.dealer == dealer
    t.deal(D26, f"{N9} 2C", "JH")
    assert t.hand.dealer == dealer and t.hand.turn == 1 - dealer


@pytest.mark.parametrize(
    ("rotation", "dealer"), [("alternate", 0), ("winner_deals", 0), ("loser_deals", 1)]
)
def test_g_3_3_dealer_rotation_from_dealer_one(table, rotation, dealer):
    t = table(dealer_rotation=rotation, first_dealer=1)
    t.deal(f"{N9} 2C", D26, "JH", "JS")  # seat 0 is the non-dealer
    t.do("pass_upcard", 0)
    t.do("pass_upcard", 1)
    t.do("draw_stock", 0)
    t.do("knock", 0, "JS")
    assert t.hand.result.winner == 0 and t.state.dealer == dealer


# --- G-14 the game, G-15 shutout ------------------------------------------------------------


@pytest.mark.parametrize(
    ("shutout", "hand_points", "bonus", "total", "margin"),
    [
        ("double_hand_points", 48, 100, 173, 173),
        ("game_bonus_200", 24, 200, 249, 249),
        ("double_margin", 24, 100, 149, 298),
        ("none", 24, 100, 149, 149),
    ],
)
def test_g_15_shutout_variants(table, shutout, hand_points, bonus, total, margin):
    t = table(game_target=20, shutout=shutout)
    knock_hand(t, "2C")
    ev = t.do("knock", 1, "JS")  # 24 >= 20: the game ends
    g = t.state.game_results[0]
    assert (g.winner, g.shutout, g.hand_points, g.boxes) == (1, True, (0, hand_points), (0, 1))
    assert (g.box_points, g.game_bonus, g.totals, g.margin) == (
        (0, 25), (0, bonus), (0, total), margin)
    assert only(ev, "game_over").data["totals"] == [0, total]
    assert only(ev, "match_over").data["winner"] == 1
    assert t.state.phase is MatchPhase.OVER and t.state.winner == 1
    t.refused("deal", TABLE, match="match is over")


def win_hand(t: Table, winner: int, x: str = "2C") -> None:
    """Seat ``winner`` knocks N9 + x against D26 after a forced stock draw (24 points)."""
    loser = 1 - winner
    nd = 1 - t.state.dealer
    hands = {winner: f"{N9} {x}", loser: D26}
    t.deal(hands[0], hands[1], "JH", "JS")
    if nd == winner:
        t.do("pass_upcard", nd)
        t.do("pass_upcard", 1 - nd)
        t.do("draw_stock", winner)
    else:  # both pass; the loser (non-dealer) draws JS and throws it, the winner draws
        t.do("pass_upcard", nd)
        t.do("pass_upcard", winner)
        t.do("draw_stock", nd)
        t.do("discard", nd, "JS")
        t.do("draw_stock", winner)
    t.do("knock", winner, str(t.hand.hands[winner][-1]))


def test_g_14_target_boxes_and_game_bonus_no_shutout(table):
    t = table(game_target=30)
    win_hand(t, 1)
    assert (t.state.scores, t.state.boxes, t.state.phase) == ((0, 24), (0, 1), MatchPhase.DEAL)
    win_hand(t, 0)
    assert (t.state.scores, t.state.boxes) == ((24, 24), (1, 1))
    win_hand(t, 1)
    g = t.state.game_results[0]
    assert (g.winner, g.shutout, g.hand_points, g.boxes) == (1, False, (24, 48), (1, 2))
    assert (g.box_points, g.game_bonus, g.totals, g.margin) == (
        (25, 50), (0, 100), (49, 198), 149)
    assert t.state.phase is MatchPhase.OVER


@pytest.mark.parametrize(("immediate", "over"), [(True, True), (False, False)])
def test_g_14_2_immediate_boxes_count_toward_the_target(table, immediate, over):
    t = table(game_target=40, immediate_boxes=immediate)
    win_hand(t, 1)  # 24 points + one box of 25
    assert (t.state.phase is MatchPhase.OVER) is over
    if over:
        g = t.state.game_results[0]
        assert (g.hand_points, g.box_points, g.game_bonus, g.totals) == (
            (0, 48), (0, 25), (0, 100), (0, 173))


def test_g_14_2_boxes_never_count_toward_the_target_by_default(table):
    t = table(game_target=48)
    win_hand(t, 1)
    win_hand(t, 0)
    win_hand(t, 1)  # 48: over
    assert t.state.game_results[0].totals == (24 + 25, 48 + 50 + 100)


def test_g_12_2_extra_undercut_box_counts_in_the_tally(table):
    t = table("knock_card", game_target=25)
    knock_hand(t, "7C", upcard="KH", d=D4)
    t.do("knock", 1, "JS")  # undercut: seat 0 +28, 2 boxes
    g = t.state.game_results[0]
    assert (g.winner, g.hand_points, g.boxes, g.box_points) == (0, (56, 0), (2, 0), (50, 0))
    assert g.totals == (56 + 50 + 100, 0)


# --- G-16 tournament ------------------------------------------------------------------------

GIN9 = "2S 3S 4S 5S 7H 8H 9H KC KD 5D"  # takes KS, discards 5D: gin
LOSER = "QH JD TC 9S KH QD JC TS 9D 6C"  # no melds: 94


def gin_hand(t: Table, winner: int) -> list:
    hands = {winner: GIN9, 1 - winner: LOSER}
    t.deal(hands[0], hands[1], "KS")
    nd = 1 - t.state.dealer
    if nd != winner:
        t.do("pass_upcard", nd)
    t.do("take_upcard", winner)
    return t.do("knock", winner, "5D")


def test_g_16_tournament_best_of_five_to_250_first_dealer_alternates(table):
    t = table("tournament")
    first_dealers, dealers = [], []
    for game, winner in enumerate((0, 1, 0, 0), start=1):
        first_dealers.append(t.state.game_first_dealer)
        for hand_no in (1, 2, 3):
            assert (t.state.game_number, t.state.hand_number) == (game, hand_no - 1)
            dealers.append(t.state.dealer)
            ev = gin_hand(t, winner)
            assert t.hand.result.points == 94 + 25
        assert only(ev, "game_over").data["game"] == game
    assert first_dealers == [0, 1, 0, 1]  # G-16.2
    assert dealers == [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1]
    assert t.state.games_won == (3, 1) and t.state.winner == 0
    assert t.state.phase is MatchPhase.OVER
    per_game = 3 * 119 * 2 + 3 * 25 + 100  # shutout doubles the hand points
    assert [g.totals for g in t.state.game_results] == [
        (per_game, 0), (0, per_game), (per_game, 0), (per_game, 0)]
    assert t.state.match_totals == (3 * per_game, per_game)
    assert only(ev, "match_over").data == {
        "winner": 0, "games_won": [3, 1], "totals": [3 * per_game, per_game]}


# --- views ----------------------------------------------------------------------------------


def test_g_5_5_views_hide_the_other_hand_and_the_stock(table):
    t = table()
    ev = t.deal(D26, f"{N9} 6C", "AS", "JS")
    v0, v1, pub = (ENGINE.view(t.state, s) for s in (0, 1, None))
    assert v0.hand == c(D26) and v0.opponent_hand is None and v0.visible_hands == (c(D26), None)
    assert v1.hand == c(f"{N9} 6C") and v1.opponent_hand is None
    assert pub.hand == () and pub.visible_hands == (None, None)
    assert (v0.stock_size, v0.discard_top, v0.upcard) == (31, parse_card("AS"), parse_card("AS"))
    assert not any(hasattr(v, "stock") for v in (v0, v1, pub))
    assert event_view(ev[0], 0).data["hands"] == [D26, None]
    assert event_view(ev[0], None).data["hands"] == [None, None]
    t.do("pass_upcard", 1)
    t.do("pass_upcard", 0)
    drew = only(t.do("draw_stock", 1), "drew")
    assert event_view(drew, 0).data["card"] is None and event_view(drew, 1).data["card"] == "JS"
    t.do("discard", 1, "6C")
    assert ENGINE.view(t.state, 0).discard_pile == c("6C")  # top only
    t.do("draw_stock", 0)
    assert ENGINE.view(t.state, 0).opponent_hand is None
    assert ENGINE.view(t.state, 1).hand_sizes == (11, 10)


def test_g_5_5_whole_pile_visible_option(table):
    t = table(discard_pile_visible="all")
    t.deal(D26, f"{N9} 6C", "AS", "JS")
    t.do("pass_upcard", 1)
    t.do("pass_upcard", 0)
    t.do("draw_stock", 1)
    t.do("discard", 1, "6C")
    assert ENGINE.view(t.state, 0).discard_pile == c("AS 6C")


def test_g_12_every_hand_is_shown_once_the_hand_is_over(table):
    t = table()
    knock_hand(t, "2C")
    t.do("knock", 1, "JS")
    v = ENGINE.view(t.state, 0)
    assert v.opponent_hand == t.hand.hands[1] and v.result.outcome == "knock"


# --- rummy-table replay: what a person reads ----------------------------------------------


def printout(t: Table, path, *, brief: bool) -> str:
    t.check_replay(path)
    out = io.StringIO()
    assert print_replay(str(path), brief=brief, out=out) == 0
    return out.getvalue()


def test_replay_of_a_knock_card_game_reads_melds_deadwood_layoffs_points_boxes(table, tmp_path):
    t = table("knock_card", game_target=19)
    deal_and_knock(t)  # knock card TD: limit 10
    full = printout(t, tmp_path / "kc.jsonl", brief=False)
    assert "seat 0 deals; upcard TD (knock limit 10)" in full
    assert "seat 1 draws KH from the stock" in full
    assert "seat 1 KNOCKS with 1, discarding KH face down: melds" in full
    assert "deadwood AS" in full and "seat 0 lays off 8H on 4H 5H 6H 7H" in full
    (result,) = [line for line in full.splitlines() if "result:" in line]
    assert "knock by seat 1 (1) against seat 0 (20: melds JS QS KS; deadwood 2D 9C 9S;" in result
    assert "7H 8H on 4H 5H 6H" in result and "7C on 4C 5C 6C" in result
    assert "7D on 4D 5D 6D" in result
    assert "-> seat 1 +19 (20 - 1), 1 box; game score 0-19, boxes 0-1" in result
    assert (
        "## game 1 won by seat 1: hand points 0-38, SHUTOUT; boxes 0-1 = box points 0-25;"
        " game bonus 0-100; totals 0-163 (margin 163); games won 0-1"
    ) in full
    brief = printout(t, tmp_path / "kc2.jsonl", brief=True)
    assert result in brief.splitlines()
    assert " draws " not in brief and "lays off" not in brief and "passes" not in brief


def test_replay_of_a_tournament_reads_games_and_match_totals(table, tmp_path):
    t = table("tournament")
    for winner in (0, 1, 0, 0):
        for _ in range(3):
            gin_hand(t, winner)
    brief = printout(t, tmp_path / "t.jsonl", brief=True)
    lines = brief.splitlines()
    assert sum(line.startswith("## game") for line in lines) == 4
    per_game = 3 * 119 * 2 + 3 * 25 + 100
    assert lines[-2] == (
        f"## match won by seat 0: games won 3-1, totals {3 * per_game}-{per_game}")
    assert any(
        "GIN by seat 0 (0) against seat 1 (94: melds no melds; deadwood" in line
        and "-> seat 0 +119 (deadwood 94 + gin bonus 25), 1 box" in line
        for line in lines
    )
    assert "takes the upcard" not in brief


def test_replay_brief_hides_the_contract_chatter(tmp_path):
    from rummy.contract.bots import BasicPlayer
    from rummy.games import get_engine

    engine = get_engine("contract")
    rules = engine.preset("seed_002")
    header = Header(
        game="contract", rules=engine.rules_to_dict(rules),
        seats=[{"name": n} for n in ("Ann", "Bob", "Cid")],
    )
    path = tmp_path / "c.jsonl"
    with JournalWriter.create(path, header, fsync=False) as w:
        play_match(engine, engine.new_match(rules, 3), [BasicPlayer()] * 3,
                   random.Random(4), journal=w)
    full, brief = io.StringIO(), io.StringIO()
    assert print_replay(str(path), out=full) == 0
    assert print_replay(str(path), brief=True, out=brief) == 0
    quiet = ("to play (top of pack", "from the stock", "from the pack", "does not ask for",
             "is asked whether")
    for words in quiet:
        assert words in full.getvalue() and words not in brief.getvalue(), words
    assert "scored" in brief.getvalue() and "buys" in brief.getvalue()


# --- more corners -------------------------------------------------------------------------


def test_g_6_6_straight_gin_refusal_names_straight_gin_not_an_ace(table):
    t = table(knock_limit=0, illegal_knock="reject")
    knock_hand(t, "AC", upcard="AH", draw="5S")
    assert t.hand.knock_limit == 0
    t.refused("knock", 1, "5S", match=r"only gin may end this hand \(straight gin\), you have 1")
    t.do("knock", 1, "AC")
    assert t.hand.result.outcome == "gin"


def test_g_1_3_declared_q_k_a_run_is_an_illegal_knock(table):
    t = table()
    t.deal(D26, "QS KS AS 7H 8H 9H KC KD 2C 3C", "JH", "JS")
    t.do("pass_upcard", 1)
    t.do("pass_upcard", 0)
    t.do("draw_stock", 1)
    ev = t.do("knock", 1, "JS", melds=("QS KS AS", "7H 8H 9H"))
    assert "is not a meld" in reason_line(only(ev, "illegal_knock").data)


def test_g_2_2_a_card_in_two_declared_melds_is_an_illegal_knock(table):
    t = table()
    knock_hand(t, "2C")
    ev = t.do("knock", 1, "JS", melds=("2S 3S 4S", "7H 8H 9H", "KC KD KS", "KS KC KD"))
    assert "more than one meld" in reason_line(only(ev, "illegal_knock").data)


def test_g_8_illegal_knock_on_the_fiftieth_card_opens_the_last_chance(table):
    t = table()
    run_out(t)
    ev = t.do("knock", 1, "TD")  # count 31: illegal, TD stands face up
    assert "illegal_knock" in kinds(ev)
    assert (t.hand.phase, t.hand.turn) == (HandPhase.LAST_CHANCE, 0)
    t.do("take_and_knock", 0, "JC")
    assert t.hand.result.winner == 0


def test_g_13_3_last_chance_gin(table):
    t = table()
    t.deal("AH AD AC 5S 6S 7S 8D 9D JD QD", NR, "2D", "? " * 28 + "TD")
    pass_then_draw_and_throw_back(t, 28)
    t.do("draw_stock", 1)
    t.do("discard", 1, "TD")
    # With TD all eleven cards meld (8D-QD): the pickup is for a knock or gin (G-13.3),
    # Big Gin is not offered (decision log); gin by throwing an end of the five-card run.
    assert {(a.kind, str(a.card)) for a in t.legal(0)} >= {
        ("take_and_knock", "8D"), ("take_and_knock", "QD")}
    assert "big_gin" not in t.kinds(0)
    ev = t.do("take_and_knock", 0, "QD")
    r = t.hand.result
    assert kinds(ev)[:2] == ["drew", "gin"]
    assert (r.outcome, r.winner, r.defender_count, r.points) == ("gin", 0, 31, 31 + 25)


def test_g_8_3_accepted_illegal_knock_with_a_gin_hand_scores_gin(table):
    t = table(illegal_knock="opponent_option")
    knock_hand(t, "2C", draw="5S")
    t.do("knock", 1, "2C", melds=("2S 3S 4S", "7H 8H 9H", "KC KD KS 5S"))  # not a meld
    assert t.hand.phase is HandPhase.KNOCK_REVIEW
    t.do("accept_knock", 0)
    r = t.hand.result
    assert (r.outcome, r.knocker_count, r.points, r.layoffs) == ("gin", 0, 26 + 25, ())


def test_g_8_2_must_knock_includes_big_gin(table):
    t = table("knock_card")
    knock_hand(t, "5S", upcard="7S", draw="JS 5H 6S")
    t.do("knock", 1, "JS", melds=("2S 3S 4S",))  # declared count 59: illegal
    t.do("draw_stock", 0)
    t.do("discard", 0, "5H")
    t.do("draw_stock", 1)  # 6S: eleven cards in melds
    assert {a.kind for a in t.legal(1)} == {"big_gin", "knock"}
    t.refused("discard", 1, "6S", match="must knock")
    t.do("big_gin", 1)
    assert t.hand.result.outcome == "big_gin"


def test_g_2_4_agent_arrangement_knock_needs_declared_melds(table):
    t = table(knocker_arrangement="agent")
    knock_hand(t, "2C")
    knocks = [a for a in t.legal(1) if a.kind == "knock"]
    assert knocks and all(a.melds for a in knocks)
    t.refused("knock", 1, "JS", match="declare your melds")
    t.apply(next(a for a in knocks if a.card == parse_card("JS")))
    r = t.hand.result
    assert (r.outcome, r.knocker_count, r.points) == ("knock", 2, 24)


def test_g_4_3_dealer_takes_the_upcard_and_knocks_at_once(table):
    t = table()
    t.deal("2S 3S 4S 7H 8H 9H KC KD 5C QC", D26.replace("4C", "4H"), "KH")
    t.do("pass_upcard", 1)
    t.do("take_upcard", 0)
    t.do("knock", 0, "QC")
    r = t.hand.result
    assert (r.knocker, r.outcome, r.knocker_count, r.defender_count, r.points) == (
        0, "knock", 5, 26, 21)


def test_g_7_3_knock_event_hides_the_face_down_discard_from_the_others(table):
    t = table()
    knock_hand(t, "2C")
    ev = only(t.do("knock", 1, "JS"), "knocked")
    assert event_view(ev, 1).data["card"] == "JS"
    assert event_view(ev, 0).data["card"] is None and event_view(ev, None).data["card"] is None
    assert event_view(ev, 0).data["melds"] == ev.data["melds"]  # the spread is public
