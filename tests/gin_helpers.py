"""Helpers for the gin engine tests: build deals and positions, apply actions by text."""

from __future__ import annotations

import dataclasses
from collections import Counter

from rummy.actions import TABLE, Action
from rummy.cards import ALL_CARDS, Card, parse_card, parse_cards
from rummy.gin.engine import ENGINE
from rummy.gin.rules import GinRules, preset
from rummy.gin.scoring import knock_limit
from rummy.gin.state import HandPhase, HandState, MatchPhase, MatchState


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def melds(*groups: str) -> tuple[tuple[Card, ...], ...]:
    return tuple(cards(g) for g in groups)


def rules_of(rules: GinRules | str, **changes: object) -> GinRules:
    base = preset(rules) if isinstance(rules, str) else rules
    return base.replace(**changes) if changes else base


def deal_order(nondealer: str, dealer: str, upcard: str, stock_top: str = "") -> tuple[Card, ...]:
    """A 52-card order that deals these hands (G-3.2), this upcard, this stock top."""
    nd, d, top = cards(nondealer), cards(dealer), cards(stock_top)
    up = parse_card(upcard)
    used = [*nd, *d, up, *top]
    assert len(nd) == len(d) and len(set(used)) == len(used), "overlapping test cards"
    order: list[Card] = []
    for a, b in zip(nd, d, strict=True):
        order += [a, b]
    rest = [c for c in ALL_CARDS if c not in used]
    return (*order, up, *top, *rest)


def dealt(
    rules: GinRules | str = "standard",
    *,
    nondealer: str,
    dealer: str,
    upcard: str,
    stock_top: str = "",
    first_dealer: int = 0,
) -> MatchState:
    """A match right after a deal of these hands."""
    st = ENGINE.new_match(rules_of(rules), 2, first_dealer=first_dealer)
    st, _ = ENGINE.apply(st, Action("deal", TABLE, cards=deal_order(nondealer, dealer, upcard, stock_top)))
    return st


def position(
    rules: GinRules | str,
    *,
    hands: tuple[str, str],
    turn: int,
    phase: HandPhase = HandPhase.DISCARD,
    upcard: str | None = None,
    pile: str | None = None,
    stock: str = "",
    stock_size: int | None = None,
    dealer: int = 0,
    last_taken: str | None = None,
) -> MatchState:
    """A match in the middle of a hand. ``stock`` gives the top stock cards; the other
    unlisted cards follow (all 52 present) unless ``stock_size`` cuts the stock short."""
    r = rules_of(rules)
    h = (cards(hands[0]), cards(hands[1]))
    top = cards(stock)
    if upcard is None:  # any card nobody holds
        taken = {*h[0], *h[1], *top, *(cards(pile) if pile else ())}
        upcard = str(next(c for c in reversed(ALL_CARDS) if c not in taken))
    up = parse_card(upcard)
    pile_cards = cards(pile) if pile is not None else (up,)
    used = [*h[0], *h[1], *pile_cards, *top]
    stock_cards = top + tuple(c for c in ALL_CARDS if c not in used)
    if stock_size is not None:
        stock_cards = stock_cards[:stock_size]
    assert len(set(used)) == len(used), "overlapping test cards"
    hand = HandState(
        dealer=dealer,
        hands=h,
        stock=stock_cards,
        discard_pile=pile_cards,
        upcard=up,
        knock_limit=knock_limit(r, up),
        turn=turn,
        phase=phase,
        last_taken=parse_card(last_taken) if last_taken else None,
    )
    return MatchState(rules=r, phase=MatchPhase.HAND, dealer=dealer, hand=hand, hand_number=1)


def act(state: MatchState, kind: str, seat: int, card: str | None = None, **kw: object):
    """Apply one action (card as text; melds as a tuple of texts)."""
    m = kw.pop("melds", None)
    if m is not None:
        kw["melds"] = melds(*m)
    action = Action(kind, seat, card=parse_card(card) if card else None, **kw)
    return ENGINE.apply(state, action)


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def event(events, kind: str):
    found = [e for e in events if e.kind == kind]
    assert found, f"no {kind} event in {kinds(events)}"
    return found[-1]


def hand_cards(hand: HandState) -> Counter:
    """Every card of a hand in play: hands, stock, pile, set aside, laid off (G-18)."""
    return Counter(
        [*hand.hands[0], *hand.hands[1], *hand.stock, *hand.discard_pile, *hand.set_aside]
        + [c for c, _ in hand.layoffs]
    )


def with_hand(state: MatchState, **changes: object) -> MatchState:
    assert state.hand is not None
    return dataclasses.replace(state, hand=dataclasses.replace(state.hand, **changes))


def reason_line(data) -> str:
    """The English line of an ``illegal_knock`` event's coded reason (a gin Refusal)."""
    from rummy.gin.kinds import Refusal

    return Refusal(data["reason"]).english(data["reason_params"])
