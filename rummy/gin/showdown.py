"""The end of a hand: knocks, gin and Big Gin, layoffs, and the hand's score (G-7 … G-12)."""

from __future__ import annotations

from rummy.actions import Action, ActionError, Event
from rummy.cards import Card
from rummy.gin.common import card_in_hand, cards_text, melds_data, replace_hand, set_seat, without
from rummy.gin.kinds import ActionKind as A
from rummy.gin.kinds import EventKind as E
from rummy.gin.kinds import KnockKind, Refusal
from rummy.gin.layoffs import best_defence, extend_meld
from rummy.gin.melds import best_melds
from rummy.gin.options import big_gin_melds
from rummy.gin.rules import Arrangement, GinRules
from rummy.gin.scoring import score_hand, spades_double_applies
from rummy.gin.state import HandPhase, HandResult, HandState, Knock, Meld


def accept_knock(rules: GinRules, hand: HandState, a: Action) -> tuple[HandState, list[Event]]:
    """G-8.3 opponent_option: scored as a normal knock with the true count."""
    assert hand.knock is not None
    k = hand.knock
    kept = hand.hands[k.seat]
    melds, dead = best_melds(list(kept))
    n = sum(c.value for c in dead)
    kind = KnockKind.GIN if n == 0 else KnockKind.KNOCK
    knock = Knock(k.seat, k.discard, tuple(melds), tuple(dead), n, kind)
    ev = [Event(E.KNOCK_ACCEPTED, a.seat, {})]
    new, evs = _resolve(rules, hand, knock)
    return new, ev + evs


def knocked(rules: GinRules, hand: HandState, knock: Knock) -> tuple[HandState, list[Event]]:
    """A legal knock or gin: discard face down (G-7.3), then layoffs and scoring."""
    seat, card = knock.seat, knock.discard
    assert card is not None  # only Big Gin has no discard (G-10.1), and it is not knocked
    hand = replace_hand(
        hand,
        hands=set_seat(hand.hands, seat, without(hand.hands[seat], card)),
        discard_pile=(*hand.discard_pile, card),
    )
    return _resolve(rules, hand, knock)


def _resolve(rules: GinRules, hand: HandState, knock: Knock) -> tuple[HandState, list[Event]]:
    seat = knock.seat
    data = {
        "card": str(knock.discard),
        "melds": melds_data(knock.melds),
        "deadwood": cards_text(knock.deadwood),
        "count": knock.count,
    }
    ev = [Event(E.GIN if knock.kind == KnockKind.GIN else E.KNOCKED, seat, data)]
    hand = replace_hand(hand, knock=knock, last_taken=None, turn=1 - seat)
    if knock.kind == KnockKind.GIN:  # G-9.2: no layoffs on gin
        return _score_without_layoffs(rules, hand, knock, ev)
    if rules.defender_layoffs == Arrangement.AGENT:  # G-11.3
        return replace_hand(hand, phase=HandPhase.LAYOFF, table_melds=knock.melds), ev
    defence = best_defence(hand.hands[1 - seat], knock.melds)  # G-11, G-22.3
    table = list(knock.melds)
    for card, idx in defence.layoffs:
        ev.append(_laid_off_event(1 - seat, card, idx, table[idx]))
        table[idx] = extend_meld(table[idx], card)
    return _scored(
        rules, hand, knock, defence.count, defence.own_melds, defence.deadwood_cards,
        defence.layoffs, ev,
    )


def _score_without_layoffs(
    rules: GinRules, hand: HandState, knock: Knock, ev: list[Event]
) -> tuple[HandState, list[Event]]:
    melds, dead = best_melds(list(hand.hands[1 - knock.seat]))  # G-9.2 own melds only
    n = sum(c.value for c in dead)
    return _scored(rules, hand, knock, n, tuple(melds), tuple(dead), (), ev)


def big_gin(rules: GinRules, hand: HandState, a: Action) -> tuple[HandState, list[Event]]:
    if rules.big_gin_bonus is None:
        raise ActionError(Refusal.BIG_GIN_OFF)
    melds = big_gin_melds(rules, hand.hands[a.seat])
    if melds is None:  # G-10.1
        raise ActionError(Refusal.BIG_GIN_NOT_MELDED)
    knock = Knock(a.seat, None, melds, (), 0, KnockKind.BIG_GIN)
    ev = [Event(E.BIG_GIN, a.seat, {"melds": melds_data(melds)})]
    hand = replace_hand(hand, knock=knock, last_taken=None, turn=1 - a.seat)
    return _score_without_layoffs(rules, hand, knock, ev)


def lay_off(rules: GinRules, hand: HandState, a: Action) -> tuple[HandState, list[Event]]:
    card = card_in_hand(hand, a.seat, a.card, A.LAY_OFF)
    if a.target is None or not 0 <= a.target < len(hand.table_melds):
        raise ActionError(Refusal.LAYOFF_TARGET, melds=len(hand.table_melds), target=a.target)
    extended = extend_meld(hand.table_melds[a.target], card)  # G-11.1: ActionError if not
    melds = list(hand.table_melds)
    melds[a.target] = extended
    new = replace_hand(
        hand,
        hands=set_seat(hand.hands, a.seat, without(hand.hands[a.seat], card)),
        table_melds=tuple(melds),
        layoffs=(*hand.layoffs, (card, a.target)),
    )
    return new, [_laid_off_event(a.seat, card, a.target, hand.table_melds[a.target])]


def _laid_off_event(seat: int, card: Card, target: int, onto: Meld) -> Event:
    """A layoff: the card, the knocker's meld index and that meld as it stood (G-11.1)."""
    return Event(E.LAID_OFF, seat, {"card": str(card), "target": target, "meld": cards_text(onto)})


def done_laying_off(
    rules: GinRules, hand: HandState, a: Action
) -> tuple[HandState, list[Event]]:
    assert hand.knock is not None
    melds, dead = best_melds(list(hand.hands[a.seat]))  # G-11.3: his own melds, optimal
    n = sum(c.value for c in dead)
    ev = [Event(E.DONE_LAYING_OFF, a.seat, {})]
    return _scored(rules, hand, hand.knock, n, tuple(melds), tuple(dead), hand.layoffs, ev)


def _scored(
    rules: GinRules,
    hand: HandState,
    knock: Knock,
    defender_count: int,
    defender_melds: tuple[Meld, ...],
    defender_deadwood: tuple[Card, ...],
    layoffs: tuple[tuple[Card, int], ...],
    events: list[Event],
) -> tuple[HandState, list[Event]]:
    s = score_hand(
        rules,
        knocker=knock.seat,
        kind=knock.kind,
        knocker_count=knock.count,
        defender_count=defender_count,
        doubled=spades_double_applies(rules, hand.upcard),
    )
    result = HandResult(
        outcome=s.outcome,
        winner=s.winner,
        points=s.points,
        boxes=s.boxes,
        knocker=knock.seat,
        knocker_count=knock.count,
        defender_count=defender_count,
        knocker_melds=knock.melds,
        knocker_deadwood=knock.deadwood,
        defender_melds=tuple(defender_melds),
        defender_deadwood=tuple(defender_deadwood),
        layoffs=tuple(layoffs),
        doubled=s.doubled,
    )
    return replace_hand(hand, phase=HandPhase.OVER, result=result), events

