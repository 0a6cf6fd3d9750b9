"""What a seat may do now (G-4 … G-13): knock options, Big Gin, the legal actions."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from rummy.actions import Action
from rummy.cards import Card
from rummy.gin.kinds import ActionKind as A
from rummy.gin.layoffs import legal_layoffs
from rummy.gin.melds import all_melded, best_melds
from rummy.gin.rules import Arrangement, GinRules
from rummy.gin.state import HandPhase, HandState, Meld


@lru_cache(maxsize=4096)
def _knock_options_cached(
    cards: tuple[Card, ...], barred: Card | None, limit: int
) -> tuple[tuple[Card, tuple[Meld, ...], int], ...]:
    out = []
    for d in cards:
        if d == barred:
            continue
        melds, dead = best_melds([c for c in cards if c != d])
        n = sum(c.value for c in dead)
        if n <= limit:  # G-7.2
            out.append((d, tuple(melds), n))
    out.sort(key=lambda o: (o[2], -o[0].value, o[0].index))
    return tuple(out)


def knock_options(
    rules: GinRules, cards: Sequence[Card], limit: int, barred: Card | None
) -> tuple[tuple[Card, tuple[Meld, ...], int], ...]:
    """Every legal knock ``(discard, automatic melds, count)`` from 11 cards (G-7.2),
    least count first; ``barred`` is the card taken from the pile this turn (G-22.1)."""
    if not rules.forbid_discarding_taken_card:
        barred = None
    key = tuple(sorted(cards, key=lambda c: c.index))
    return _knock_options_cached(key, barred, limit)


def big_gin_melds(rules: GinRules, cards: Sequence[Card]) -> tuple[Meld, ...] | None:
    """G-10.1: all 11 cards melded (None when not, or when Big Gin is off)."""
    if rules.big_gin_bonus is None or len(cards) != rules.hand_size + 1:
        return None
    return _all_melded_cached(tuple(sorted(cards, key=lambda c: c.index)))


@lru_cache(maxsize=4096)
def _all_melded_cached(cards: tuple[Card, ...]) -> tuple[Meld, ...] | None:
    melds = all_melded(list(cards))
    return tuple(melds) if melds is not None else None


def forced_to_knock(hand: HandState, rules: GinRules, seat: int) -> bool:
    """G-8.2: the illegal knocker must knock when he can."""
    if not hand.must_knock[seat]:
        return False
    cards = hand.hands[seat]
    return bool(
        knock_options(rules, cards, hand.knock_limit, hand.last_taken)
        or big_gin_melds(rules, cards)
    )


# --- legal actions -------------------------------------------------------------------------


def legal_actions(rules: GinRules, hand: HandState, seat: int) -> list[Action]:
    """Every legal action of ``seat`` (knocks with the automatic arrangement)."""
    if seat != hand.turn or hand.phase is HandPhase.OVER:
        return []
    phase = hand.phase
    if phase is HandPhase.UPCARD:
        return [Action(A.TAKE_UPCARD, seat), Action(A.PASS_UPCARD, seat)]
    if phase is HandPhase.FORCED_DRAW:
        return [Action(A.DRAW_STOCK, seat)]
    if phase is HandPhase.DRAW:
        out = []
        if len(hand.stock) > rules.stock_floor:  # G-5.6
            out.append(Action(A.DRAW_STOCK, seat))
        if hand.discard_pile:
            out.append(Action(A.DRAW_DISCARD, seat))
        return out
    if phase is HandPhase.DISCARD:
        cards = hand.hands[seat]
        auto = rules.knocker_arrangement == Arrangement.AUTO_OPTIMAL
        knocks = [
            Action(A.KNOCK, seat, card=d, melds=None if auto else melds)
            for d, melds, _ in knock_options(rules, cards, hand.knock_limit, hand.last_taken)
        ]
        if big_gin_melds(rules, cards):
            knocks.insert(0, Action(A.BIG_GIN, seat))
        if hand.must_knock[seat] and knocks:  # G-8.2
            return knocks
        barred = hand.last_taken if rules.forbid_discarding_taken_card else None
        discards = [Action(A.DISCARD, seat, card=c) for c in cards if c != barred]
        return discards + knocks
    if phase is HandPhase.LAST_CHANCE:
        auto = rules.knocker_arrangement == Arrangement.AUTO_OPTIMAL
        out = [
            Action(A.TAKE_AND_KNOCK, seat, card=d, melds=None if auto else melds)
            for d, melds, _ in last_chance_options(rules, hand, seat)
        ]
        if not (hand.must_knock[seat] and out):
            out.append(Action(A.DECLINE, seat))
        return out
    if phase is HandPhase.KNOCK_REVIEW:
        return [Action(A.ACCEPT_KNOCK, seat), Action(A.REFUSE_KNOCK, seat)]
    if phase is HandPhase.LAYOFF:
        return [
            Action(A.LAY_OFF, seat, card=c, target=i)
            for c, i in legal_layoffs(hand.hands[seat], hand.table_melds)
        ] + [Action(A.DONE_LAYING_OFF, seat)]
    return []


def last_chance_options(
    rules: GinRules, hand: HandState, seat: int
) -> tuple[tuple[Card, tuple[Meld, ...], int], ...]:
    """G-13.3: knocks after taking the last discard; never re-discarding it (G-22.1)."""
    top = hand.top_discard
    if top is None:
        return ()
    cards = (*hand.hands[seat], top)
    return tuple(o for o in knock_options(rules, cards, hand.knock_limit, top) if o[0] != top)

