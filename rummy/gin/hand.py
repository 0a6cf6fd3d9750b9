"""One hand of gin as pure transitions over :class:`HandState` (G-3 … G-13, G-18).

``deal`` starts a hand; ``apply`` checks a move, raises :class:`ActionError` with a reason
a player can read, and returns ``(new_hand, events)``. What a seat may do is in
:mod:`rummy.gin.options`; knocks, layoffs and the hand's score in :mod:`rummy.gin.showdown`.
When a hand ends, ``new_hand.phase`` is ``OVER`` and ``new_hand.result`` says how; the
match layer (:mod:`rummy.gin.engine`) scores it into the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rummy.actions import TABLE, Action, ActionError, CommonRefusal, Event, plain_param
from rummy.cards import Card, sort_hand
from rummy.gin import options, reads, showdown
from rummy.gin.common import card_in_hand, cards_text, melds_data, replace_hand, set_seat, without
from rummy.gin.kinds import ActionKind as A
from rummy.gin.kinds import EventKind as E
from rummy.gin.kinds import HandOutcome, KnockKind, Refusal
from rummy.gin.melds import best_melds, count, is_meld
from rummy.gin.options import legal_actions
from rummy.gin.rules import (
    Arrangement,
    DeadHandRule,
    GinRules,
    IllegalKnock,
    KnockLimitMode,
    RefusedUpcard,
)
from rummy.gin.scoring import knock_limit
from rummy.gin.state import HandPhase, HandResult, HandState, Knock, Meld
from rummy.reads import unseen

__all__ = ["apply", "cards_text", "deal", "deal_read", "legal_actions", "melds_data"]


# --- the deal ----------------------------------------------------------------------------


def deal(rules: GinRules, dealer: int, order: Sequence[Card]) -> tuple[HandState, list[Event]]:
    """G-3.2: one at a time, alternately, starting with the non-dealer; then the upcard."""
    if len(order) != 52 or len(set(order)) != 52:
        raise ActionError(Refusal.DEAL_NEEDS_ONE_PACK, cards=len(order))  # G-3.1
    n = 2 * rules.hand_size + 1
    return _dealt(rules, dealer, order[:n], tuple(order[n:]), read=False)


def deal_read(rules: GinRules, dealer: int, cards: Sequence[Card]) -> tuple[HandState, list[Event]]:
    """G-3.2 in read mode: ``cards`` are the 21 cards read out of the shoe in dealing order
    (the upcard last); the stock is the rest of the pack, its order unknown."""
    problem = reads.deal_problem(rules, dealer, cards)  # G-3.1: each card once
    if problem is not None:
        raise problem
    want = reads.deal_size(rules)
    if len(cards) != want:
        raise ActionError(Refusal.DEAL_READ_SIZE, got=len(cards), want=want)
    return _dealt(rules, dealer, cards, unseen(1, cards), read=True)


def _dealt(
    rules: GinRules, dealer: int, dealt: Sequence[Card], stock: tuple[Card, ...], *, read: bool
) -> tuple[HandState, list[Event]]:
    n = rules.hand_size
    non_dealer = 1 - dealer
    first = tuple(dealt[0 : 2 * n : 2])
    second = tuple(dealt[1 : 2 * n : 2])
    hands = (first, second) if non_dealer == 0 else (second, first)
    upcard = dealt[2 * n]
    limit = knock_limit(rules, upcard)  # G-6
    hand = HandState(
        dealer=dealer,
        hands=hands,
        stock=stock,
        discard_pile=(upcard,),
        upcard=upcard,
        knock_limit=limit,
        turn=non_dealer,
        phase=HandPhase.UPCARD,  # G-4.1
        read=read,
    )
    event = Event(
        E.DEALT,
        TABLE,
        {
            "dealer": dealer,
            "hands": [cards_text(h) for h in hands],
            "upcard": str(upcard),
            "knock_limit": limit,
            "stock": len(hand.stock),
        },
    )
    return hand, [event]


# --- moves ---------------------------------------------------------------------------------


def apply(rules: GinRules, hand: HandState, action: Action) -> tuple[HandState, list[Event]]:
    """The hand after ``action`` by the seat to act."""
    seat, kind = action.seat, action.kind
    if hand.phase is HandPhase.OVER:
        raise ActionError(Refusal.HAND_OVER)
    if seat != hand.turn:
        raise ActionError(CommonRefusal.NOT_YOUR_TURN, seat=seat, turn=hand.turn)
    handler = _HANDLERS.get((hand.phase, kind))
    if handler is None:
        raise ActionError(
            CommonRefusal.NOT_NOW, kind=kind, phase=hand.phase, waiting=waiting_for(hand.phase)
        )
    return handler(rules, hand, action)


def waiting_for(phase: HandPhase) -> tuple[str, ...]:
    """The action kinds the handler table takes in ``phase`` (what the hand waits for)."""
    return tuple(k for p, k in _HANDLERS if p is phase)


def _take_top(hand: HandState, seat: int) -> tuple[Card, HandState]:
    """``seat`` takes the top of the discard pile: barred as his discard (G-5.3, G-22.1)."""
    card = hand.discard_pile[-1]
    new = replace_hand(
        hand,
        hands=set_seat(hand.hands, seat, (*hand.hands[seat], card)),
        discard_pile=hand.discard_pile[:-1],
        last_taken=card,
        phase=HandPhase.DISCARD,
    )
    return card, new


def _take_upcard(rules: GinRules, hand: HandState, a: Action) -> tuple[HandState, list[Event]]:
    card, new = _take_top(hand, a.seat)  # G-4.1
    return new, [Event(E.UPCARD_TAKEN, a.seat, {"card": str(card)})]


def _pass_upcard(rules: GinRules, hand: HandState, a: Action) -> tuple[HandState, list[Event]]:
    ev = [Event(E.UPCARD_PASSED, a.seat, {"card": str(hand.upcard)})]
    if a.seat == hand.non_dealer:  # G-4.3: the dealer is offered it next
        return replace_hand(hand, turn=hand.dealer), ev
    # G-4.4: both passed; the non-dealer must draw from the stock.
    changes: dict[str, object] = {"turn": hand.non_dealer, "phase": HandPhase.FORCED_DRAW}
    if rules.refused_upcard == RefusedUpcard.SET_ASIDE:  # G-4.5
        changes["set_aside"] = (*hand.set_aside, hand.discard_pile[-1])
        changes["discard_pile"] = hand.discard_pile[:-1]
    return replace_hand(hand, **changes), ev


def _draw_stock(rules: GinRules, hand: HandState, a: Action) -> tuple[HandState, list[Event]]:
    if len(hand.stock) <= rules.stock_floor:  # G-5.6
        raise ActionError(Refusal.STOCK_FLOOR, stock=len(hand.stock), floor=rules.stock_floor)
    if hand.read:  # the card read out of the shoe; it must be one the stock can hold
        if a.card is None:
            raise ActionError(Refusal.CARD_READ_NEEDED, seat=a.seat)
        problem = reads.stock_card_problem(hand, a.card)  # G-3.1
        if problem is not None:
            raise problem
        card = a.card
        stock = without(hand.stock, card)
    else:
        if a.card is not None:
            raise ActionError(Refusal.NOT_READ_HAND, card=a.card)
        card, stock = hand.stock[0], hand.stock[1:]
    new = replace_hand(
        hand,
        hands=set_seat(hand.hands, a.seat, (*hand.hands[a.seat], card)),
        stock=stock,
        last_taken=None,
        phase=HandPhase.DISCARD,
    )
    ev = [Event(E.DREW, a.seat, {"pile": "stock", "card": str(card), "stock": len(new.stock)})]
    if rules.dead_hand_rule == DeadHandRule.HOYLE_PC and len(new.stock) <= rules.stock_floor:
        return _dead(new, ev, "stock_exhausted")  # G-13.4 hoyle_pc: no knock on the 50th
    return new, ev


def _draw_discard(rules: GinRules, hand: HandState, a: Action) -> tuple[HandState, list[Event]]:
    if not hand.discard_pile:
        raise ActionError(Refusal.DISCARD_PILE_EMPTY)
    card, new = _take_top(hand, a.seat)  # G-5.1
    return new, [Event(E.DREW, a.seat, {"pile": "discard", "card": str(card)})]


def _check_not_taken(rules: GinRules, hand: HandState, card: Card) -> None:
    if rules.forbid_discarding_taken_card and card == hand.last_taken:  # G-5.3, G-22.1
        raise ActionError(Refusal.DISCARD_JUST_TAKEN, card=card)


def _discard(rules: GinRules, hand: HandState, a: Action) -> tuple[HandState, list[Event]]:
    card = card_in_hand(hand, a.seat, a.card, A.DISCARD)
    _check_not_taken(rules, hand, card)
    if options.forced_to_knock(hand, rules, a.seat):  # G-8.2
        raise ActionError(Refusal.MUST_KNOCK)
    new = replace_hand(
        hand,
        hands=set_seat(hand.hands, a.seat, without(hand.hands[a.seat], card)),
        discard_pile=(*hand.discard_pile, card),
    )
    return _after_discard(rules, new, [Event(E.DISCARDED, a.seat, {"card": str(card)})])


def _after_discard(
    rules: GinRules, hand: HandState, events: list[Event]
) -> tuple[HandState, list[Event]]:
    """Pass the turn, or end play at the bottom of the stock (G-13)."""
    other = 1 - hand.turn
    hand = replace_hand(hand, turn=other, last_taken=None, phase=HandPhase.DRAW)
    if len(hand.stock) > rules.stock_floor:
        return hand, events
    if rules.dead_hand_rule == DeadHandRule.FIFTY_FIRST:  # G-13.3: one pickup to knock, or dead
        return replace_hand(hand, phase=HandPhase.LAST_CHANCE), events
    return _dead(hand, events, "stock_exhausted")  # G-13.2 pagat


def _dead(hand: HandState, events: list[Event], reason: str) -> tuple[HandState, list[Event]]:
    """G-13.5: no score, no box; the match layer redeals (G-3.4)."""
    result = HandResult(outcome=HandOutcome.DEAD)  # G-13.5
    ev = Event(E.HAND_DEAD, TABLE, {"reason": reason})
    return replace_hand(hand, phase=HandPhase.OVER, result=result), [*events, ev]


def _decline(rules: GinRules, hand: HandState, a: Action) -> tuple[HandState, list[Event]]:
    if hand.must_knock[a.seat] and options.last_chance_options(rules, hand, a.seat):  # G-8.2
        raise ActionError(Refusal.MUST_KNOCK)
    return _dead(hand, [Event(E.DECLINED, a.seat, {})], "declined")  # G-13.3


def _take_and_knock(rules: GinRules, hand: HandState, a: Action) -> tuple[HandState, list[Event]]:
    top = hand.discard_pile[-1]
    if a.card == top:  # G-13.3, G-22.1
        raise ActionError(Refusal.LAST_CHANCE_SAME_CARD, card=top)
    allowed = {o[0] for o in options.last_chance_options(rules, hand, a.seat)}
    if a.card not in allowed and a.melds is None:
        raise ActionError(Refusal.LAST_CHANCE_ONLY_TO_KNOCK, card=a.card)
    _, taken = _take_top(hand, a.seat)
    ev = [Event(E.DREW, a.seat, {"pile": "discard", "card": str(top), "last_chance": True})]
    card = card_in_hand(taken, a.seat, a.card, A.TAKE_AND_KNOCK)
    knock, reason = _declare(rules, taken, a.seat, card, a.melds)
    if reason is not None:
        raise ActionError(Refusal.LAST_CHANCE_ILLEGAL_KNOCK, reason=reason.code, **reason.params)
    new, evs = showdown.knocked(rules, taken, knock)
    return new, ev + evs


def _declare(
    rules: GinRules, hand: HandState, seat: int, card: Card, melds: tuple[Meld, ...] | None
) -> tuple[Knock, ActionError | None]:
    """The knock declaration and, if it is illegal (G-8.1), why."""
    kept = without(hand.hands[seat], card)
    if melds is None:
        if rules.knocker_arrangement == Arrangement.AGENT:
            raise ActionError(Refusal.DECLARE_MELDS)
        auto, dead = best_melds(list(kept))  # G-2.4
        melds = tuple(auto)
        reason: ActionError | None = None
    else:
        for c in (c for m in melds for c in m):
            if c not in kept:  # an input error, not an illegal knock
                code = Refusal.DECLARED_DISCARD if c == card else Refusal.DECLARED_CARD_NOT_HELD
                raise ActionError(code, card=c)
        reason = _arrangement_refusal(melds)  # G-22.2: a bad meld is an illegal knock
    melded = {c for m in melds for c in m}
    deadwood = tuple(sort_hand([c for c in kept if c not in melded]))
    n = count(kept, melds) if reason is None else sum(c.value for c in deadwood)
    if reason is None and n > hand.knock_limit:  # G-7.2, G-8.1
        if hand.knock_limit == 0:  # G-6.3 ace knock card, G-6.6 straight gin
            ace = rules.knock_limit_mode == KnockLimitMode.KNOCK_CARD
            code = Refusal.KNOCK_GIN_ONLY_ACE if ace else Refusal.KNOCK_GIN_ONLY_STRAIGHT
            reason = ActionError(code, deadwood=n, limit=0)
        else:
            reason = ActionError(Refusal.KNOCK_OVER_LIMIT, deadwood=n, limit=hand.knock_limit)
    kind = KnockKind.GIN if reason is None and n == 0 else KnockKind.KNOCK  # G-7.5
    knock = Knock(seat, card, tuple(melds), deadwood, n, kind, declared=melds is not None)
    return knock, reason


def _arrangement_refusal(melds: Sequence[Meld]) -> ActionError | None:
    """Why declared melds (all held, see ``_declare``) are not a valid arrangement (G-2)."""
    used: set[Card] = set()
    for meld in melds:
        if not is_meld(meld):  # G-2.1
            return ActionError(Refusal.KNOCK_NOT_A_MELD, meld=tuple(meld))
        for c in meld:
            if c in used:  # G-2.2
                return ActionError(Refusal.KNOCK_CARD_IN_TWO_MELDS, card=c)
            used.add(c)
    return None


def _knock(rules: GinRules, hand: HandState, a: Action) -> tuple[HandState, list[Event]]:
    card = card_in_hand(hand, a.seat, a.card, A.KNOCK)
    _check_not_taken(rules, hand, card)  # G-22.1: refused outright
    knock, reason = _declare(rules, hand, a.seat, card, a.melds)
    if reason is None:
        return showdown.knocked(rules, hand, knock)
    # G-8 illegal knock.
    if rules.illegal_knock == IllegalKnock.REJECT:
        raise reason
    if hand.illegal_knocks[a.seat] >= 1:  # G-8.3: a second illegal knock is rejected
        raise ActionError(Refusal.SECOND_ILLEGAL_KNOCK, reason=reason.code, **reason.params)
    kept = without(hand.hands[a.seat], card)
    new = replace_hand(
        hand,
        hands=set_seat(hand.hands, a.seat, kept),
        discard_pile=(*hand.discard_pile, card),
        knock=knock,
    )
    ev = Event(
        E.ILLEGAL_KNOCK,
        a.seat,
        {
            "card": str(card),
            "melds": melds_data(knock.melds),
            "deadwood": cards_text(knock.deadwood),
            "count": knock.count,
            "reason": str(reason.code),  # a Refusal code: KNOCK_REASONS
            "reason_params": {k: plain_param(v) for k, v in reason.params.items()},
            "limit": hand.knock_limit,
            "review": rules.illegal_knock == IllegalKnock.OPPONENT_OPTION,  # G-8.3
        },
    )
    if rules.illegal_knock == IllegalKnock.OPPONENT_OPTION:  # G-8.3 [HOYLE]
        return replace_hand(new, turn=1 - a.seat, phase=HandPhase.KNOCK_REVIEW), [ev]
    return _penalise(rules, new, a.seat, [ev])


def _penalise(
    rules: GinRules, hand: HandState, seat: int, events: list[Event]
) -> tuple[HandState, list[Event]]:
    """G-8.2/8.3: the discard stands face up, the hand is exposed, he must knock later."""
    hand = replace_hand(
        hand,
        turn=seat,
        knock=None,
        exposed=set_seat(hand.exposed, seat, True),
        must_knock=set_seat(hand.must_knock, seat, True),
        illegal_knocks=set_seat(hand.illegal_knocks, seat, hand.illegal_knocks[seat] + 1),
    )
    return _after_discard(rules, hand, events)


def _refuse_knock(rules: GinRules, hand: HandState, a: Action) -> tuple[HandState, list[Event]]:
    ev = [Event(E.KNOCK_REFUSED, a.seat, {})]
    return _penalise(rules, hand, 1 - a.seat, ev)



Handler = Callable[[GinRules, HandState, Action], tuple[HandState, list[Event]]]

_HANDLERS: dict[tuple[HandPhase, str], Handler] = {
    (HandPhase.UPCARD, A.TAKE_UPCARD): _take_upcard,
    (HandPhase.UPCARD, A.PASS_UPCARD): _pass_upcard,
    (HandPhase.FORCED_DRAW, A.DRAW_STOCK): _draw_stock,
    (HandPhase.DRAW, A.DRAW_STOCK): _draw_stock,
    (HandPhase.DRAW, A.DRAW_DISCARD): _draw_discard,
    (HandPhase.DISCARD, A.DISCARD): _discard,
    (HandPhase.DISCARD, A.KNOCK): _knock,
    (HandPhase.DISCARD, A.BIG_GIN): showdown.big_gin,
    (HandPhase.LAST_CHANCE, A.TAKE_AND_KNOCK): _take_and_knock,
    (HandPhase.LAST_CHANCE, A.DECLINE): _decline,
    (HandPhase.KNOCK_REVIEW, A.ACCEPT_KNOCK): showdown.accept_knock,
    (HandPhase.KNOCK_REVIEW, A.REFUSE_KNOCK): _refuse_knock,
    (HandPhase.LAYOFF, A.LAY_OFF): showdown.lay_off,
    (HandPhase.LAYOFF, A.DONE_LAYING_OFF): showdown.done_laying_off,
}
