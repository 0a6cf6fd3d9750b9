"""One hand of gin as pure transitions over :class:`HandState` (G-3 … G-13, G-18).

Each ``do_*`` function checks the move, raises :class:`ActionError` with a reason a player
can read, and returns ``(new_hand, events)``. When a hand ends, ``new_hand.phase`` is
``OVER`` and ``new_hand.result`` says how; the match layer (``engine``) scores it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from functools import lru_cache

from rummy.actions import TABLE, Action, ActionError, Event
from rummy.cards import Card, format_cards, sort_hand
from rummy.gin.layoffs import best_defence, extend_meld, legal_layoffs
from rummy.gin.melds import all_melded, best_melds, check_arrangement, count
from rummy.gin.rules import GinRules
from rummy.gin.scoring import knock_limit, score_hand, spades_double_applies
from rummy.gin.state import HandPhase, HandResult, HandState, Knock, Meld


def cards_text(cards: Sequence[Card]) -> str:
    return format_cards(cards)


def melds_data(melds: Sequence[Meld]) -> list[str]:
    return [format_cards(m) for m in melds]


def _replace(hand: HandState, **changes: object) -> HandState:
    return dataclasses.replace(hand, **changes)


def _set_seat(pair: tuple, seat: int, value: object) -> tuple:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def _without(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    return tuple(c for c in cards if c != card)


# --- the deal ----------------------------------------------------------------------------


def deal(rules: GinRules, dealer: int, order: Sequence[Card]) -> tuple[HandState, list[Event]]:
    """G-3.2: one at a time, alternately, starting with the non-dealer; then the upcard."""
    if len(order) != 52 or len(set(order)) != 52:
        raise ActionError("a gin deal needs the 52 cards of one pack, each exactly once")
    n = rules.hand_size
    non_dealer = 1 - dealer
    first = tuple(order[0 : 2 * n : 2])
    second = tuple(order[1 : 2 * n : 2])
    hands = (first, second) if non_dealer == 0 else (second, first)
    upcard = order[2 * n]
    limit = knock_limit(rules, upcard)  # G-6
    hand = HandState(
        dealer=dealer,
        hands=hands,
        stock=tuple(order[2 * n + 1 :]),
        discard_pile=(upcard,),
        upcard=upcard,
        knock_limit=limit,
        turn=non_dealer,
        phase=HandPhase.UPCARD,  # G-4.1
    )
    event = Event(
        "dealt",
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


# --- knock options -------------------------------------------------------------------------


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


def _forced(hand: HandState, rules: GinRules, seat: int) -> bool:
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
        return [Action("take_upcard", seat), Action("pass_upcard", seat)]
    if phase is HandPhase.FORCED_DRAW:
        return [Action("draw_stock", seat)]
    if phase is HandPhase.DRAW:
        out = []
        if len(hand.stock) > rules.stock_floor:  # G-5.6
            out.append(Action("draw_stock", seat))
        if hand.discard_pile:
            out.append(Action("draw_discard", seat))
        return out
    if phase is HandPhase.DISCARD:
        cards = hand.hands[seat]
        auto = rules.knocker_arrangement == "auto_optimal"
        knocks = [
            Action("knock", seat, card=d, melds=None if auto else melds)
            for d, melds, _ in knock_options(rules, cards, hand.knock_limit, hand.last_taken)
        ]
        if big_gin_melds(rules, cards):
            knocks.insert(0, Action("big_gin", seat))
        if hand.must_knock[seat] and knocks:  # G-8.2
            return knocks
        barred = hand.last_taken if rules.forbid_discarding_taken_card else None
        discards = [Action("discard", seat, card=c) for c in cards if c != barred]
        return discards + knocks
    if phase is HandPhase.LAST_CHANCE:
        auto = rules.knocker_arrangement == "auto_optimal"
        out = [
            Action("take_and_knock", seat, card=d, melds=None if auto else melds)
            for d, melds, _ in _last_chance_options(rules, hand, seat)
        ]
        if not (hand.must_knock[seat] and out):
            out.append(Action("decline", seat))
        return out
    if phase is HandPhase.KNOCK_REVIEW:
        return [Action("accept_knock", seat), Action("refuse_knock", seat)]
    if phase is HandPhase.LAYOFF:
        return [
            Action("lay_off", seat, card=c, target=i)
            for c, i in legal_layoffs(hand.hands[seat], hand.table_melds)
        ] + [Action("done_laying_off", seat)]
    return []


def _last_chance_options(
    rules: GinRules, hand: HandState, seat: int
) -> tuple[tuple[Card, tuple[Meld, ...], int], ...]:
    """G-13.3: knocks after taking the last discard; never re-discarding it (G-22.1)."""
    top = hand.top_discard
    if top is None:
        return ()
    cards = (*hand.hands[seat], top)
    return tuple(o for o in knock_options(rules, cards, hand.knock_limit, top) if o[0] != top)


# --- moves ---------------------------------------------------------------------------------


def apply(rules: GinRules, hand: HandState, action: Action) -> tuple[HandState, list[Event]]:
    """The hand after ``action`` by the seat to act."""
    seat, kind = action.seat, action.kind
    if hand.phase is HandPhase.OVER:
        raise ActionError("this hand is over; the next deal comes first")
    if seat != hand.turn:
        raise ActionError(f"it is not seat {seat}'s turn: seat {hand.turn} is to act")
    handler = _HANDLERS.get((hand.phase, kind))
    if handler is None:
        raise ActionError(f"'{kind}' is not possible now (waiting for {_waiting(hand.phase)})")
    return handler(rules, hand, action)


def _waiting(phase: HandPhase) -> str:
    return {
        HandPhase.UPCARD: "take_upcard or pass_upcard",
        HandPhase.FORCED_DRAW: "draw_stock: both passed the upcard",
        HandPhase.DRAW: "a draw from the stock or the discard pile",
        HandPhase.DISCARD: "a discard, a knock or big gin",
        HandPhase.LAST_CHANCE: "take_and_knock or decline",
        HandPhase.KNOCK_REVIEW: "accept_knock or refuse_knock",
        HandPhase.LAYOFF: "lay_off or done_laying_off",
    }.get(phase, str(phase))


def _take_upcard(rules: GinRules, hand: HandState, a: Action) -> tuple[HandState, list[Event]]:
    card = hand.discard_pile[-1]  # G-4.1
    new = _replace(
        hand,
        hands=_set_seat(hand.hands, a.seat, (*hand.hands[a.seat], card)),
        discard_pile=hand.discard_pile[:-1],
        last_taken=card,
        phase=HandPhase.DISCARD,
    )
    return new, [Event("upcard_taken", a.seat, {"card": str(card)})]


def _pass_upcard(rules: GinRules, hand: HandState, a: Action) -> tuple[HandState, list[Event]]:
    ev = [Event("upcard_passed", a.seat, {"card": str(hand.upcard)})]
    if a.seat == hand.non_dealer:  # G-4.3: the dealer is offered it next
        return _replace(hand, turn=hand.dealer), ev
    # G-4.4: both passed; the non-dealer must draw from the stock.
    changes: dict[str, object] = {"turn": hand.non_dealer, "phase": HandPhase.FORCED_DRAW}
    if rules.refused_upcard == "set_aside":  # G-4.5
        changes["set_aside"] = (*hand.set_aside, hand.discard_pile[-1])
        changes["discard_pile"] = hand.discard_pile[:-1]
    return _replace(hand, **changes), ev


def _draw_stock(rules: GinRules, hand: HandState, a: Action) -> tuple[HandState, list[Event]]:
    if len(hand.stock) <= rules.stock_floor:  # G-5.6
        raise ActionError(
            f"the stock has {len(hand.stock)} cards: the last {rules.stock_floor} are never drawn"
        )
    card = hand.stock[0]
    new = _replace(
        hand,
        hands=_set_seat(hand.hands, a.seat, (*hand.hands[a.seat], card)),
        stock=hand.stock[1:],
        last_taken=None,
        phase=HandPhase.DISCARD,
    )
    ev = [Event("drew", a.seat, {"pile": "stock", "card": str(card), "stock": len(new.stock)})]
    if rules.dead_hand_rule == "hoyle_pc" and len(new.stock) <= rules.stock_floor:
        return _dead(new, ev, "stock_exhausted")  # G-13.4 hoyle_pc: no knock on the 50th
    return new, ev


def _draw_discard(rules: GinRules, hand: HandState, a: Action) -> tuple[HandState, list[Event]]:
    if not hand.discard_pile:
        raise ActionError("the discard pile is empty: draw from the stock")
    card = hand.discard_pile[-1]
    new = _replace(
        hand,
        hands=_set_seat(hand.hands, a.seat, (*hand.hands[a.seat], card)),
        discard_pile=hand.discard_pile[:-1],
        last_taken=card,  # G-5.3
        phase=HandPhase.DISCARD,
    )
    return new, [Event("drew", a.seat, {"pile": "discard", "card": str(card)})]


def _card_in_hand(hand: HandState, seat: int, card: Card | None, verb: str) -> Card:
    if card is None:
        raise ActionError(f"say which card to {verb}")
    if card not in hand.hands[seat]:
        raise ActionError(f"{card} is not in your hand")
    return card


def _check_not_taken(rules: GinRules, hand: HandState, card: Card) -> None:
    if rules.forbid_discarding_taken_card and card == hand.last_taken:  # G-5.3, G-22.1
        raise ActionError(f"{card} was just taken from the discard pile: discard another card")


def _discard(rules: GinRules, hand: HandState, a: Action) -> tuple[HandState, list[Event]]:
    card = _card_in_hand(hand, a.seat, a.card, "discard")
    _check_not_taken(rules, hand, card)
    if _forced(hand, rules, a.seat):  # G-8.2
        raise ActionError("after an illegal knock you must knock as soon as you can: knock now")
    new = _replace(
        hand,
        hands=_set_seat(hand.hands, a.seat, _without(hand.hands[a.seat], card)),
        discard_pile=(*hand.discard_pile, card),
    )
    return _after_discard(rules, new, [Event("discarded", a.seat, {"card": str(card)})])


def _after_discard(
    rules: GinRules, hand: HandState, events: list[Event]
) -> tuple[HandState, list[Event]]:
    """Pass the turn, or end play at the bottom of the stock (G-13)."""
    other = 1 - hand.turn
    hand = _replace(hand, turn=other, last_taken=None, phase=HandPhase.DRAW)
    if len(hand.stock) > rules.stock_floor:
        return hand, events
    if rules.dead_hand_rule == "fifty_first":  # G-13.3: one pickup to knock, or dead
        return _replace(hand, phase=HandPhase.LAST_CHANCE), events
    return _dead(hand, events, "stock_exhausted")  # G-13.2 pagat


def _dead(hand: HandState, events: list[Event], reason: str) -> tuple[HandState, list[Event]]:
    """G-13.5: no score, no box; the match layer redeals (G-3.4)."""
    result = HandResult(outcome="dead")
    ev = Event("hand_dead", TABLE, {"reason": reason})
    return _replace(hand, phase=HandPhase.OVER, result=result), [*events, ev]


def _decline(rules: GinRules, hand: HandState, a: Action) -> tuple[HandState, list[Event]]:
    if hand.must_knock[a.seat] and _last_chance_options(rules, hand, a.seat):  # G-8.2
        raise ActionError("after an illegal knock you must knock as soon as you can")
    return _dead(hand, [Event("declined", a.seat, {})], "declined")  # G-13.3


def _take_and_knock(rules: GinRules, hand: HandState, a: Action) -> tuple[HandState, list[Event]]:
    top = hand.discard_pile[-1]
    if a.card == top:  # G-13.3, G-22.1
        raise ActionError(f"{top} was just taken: knock with another discard")
    options = {o[0] for o in _last_chance_options(rules, hand, a.seat)}
    if a.card not in options and a.melds is None:
        raise ActionError(
            "the last discard may only be taken to knock or go gin with it (G-13.3),"
            " and this knock is not legal"
        )
    taken = _replace(
        hand,
        hands=_set_seat(hand.hands, a.seat, (*hand.hands[a.seat], top)),
        discard_pile=hand.discard_pile[:-1],
        last_taken=top,
        phase=HandPhase.DISCARD,
    )
    ev = [Event("drew", a.seat, {"pile": "discard", "card": str(top), "last_chance": True})]
    card = _card_in_hand(taken, a.seat, a.card, "discard")
    knock, reason = _declare(rules, taken, a.seat, card, a.melds)
    if reason is not None:
        raise ActionError(f"the last discard may only be taken for a legal knock: {reason}")
    new, evs = _knocked(rules, taken, knock)
    return new, ev + evs


def _declare(
    rules: GinRules, hand: HandState, seat: int, card: Card, melds: tuple[Meld, ...] | None
) -> tuple[Knock, str | None]:
    """The knock declaration and, if it is illegal (G-8.1), why."""
    kept = _without(hand.hands[seat], card)
    if melds is None:
        if rules.knocker_arrangement == "agent":
            raise ActionError("declare your melds when you knock")
        auto, dead = best_melds(list(kept))  # G-2.4
        melds = tuple(auto)
        reason = None
    else:
        for c in (c for m in melds for c in m):
            if c not in kept:  # an input error, not an illegal knock
                where = "your discard" if c == card else "not in your hand"
                raise ActionError(f"{c} in your declared melds is {where}")
        reason = check_arrangement(kept, melds)  # G-22.2: a bad meld is an illegal knock
    melded = {c for m in melds for c in m}
    deadwood = tuple(sort_hand([c for c in kept if c not in melded]))
    n = count(kept, melds) if reason is None else sum(c.value for c in deadwood)
    if reason is None and n > hand.knock_limit:  # G-7.2, G-8.1
        if hand.knock_limit == 0:
            reason = f"only gin may end this hand (ace knock card), you have {n}"
        else:
            reason = f"deadwood {n} is over the knock limit {hand.knock_limit}"
    kind = "gin" if reason is None and n == 0 else "knock"  # G-7.5
    knock = Knock(seat, card, tuple(melds), deadwood, n, kind, declared=melds is not None)
    return knock, reason


def _knock(rules: GinRules, hand: HandState, a: Action) -> tuple[HandState, list[Event]]:
    card = _card_in_hand(hand, a.seat, a.card, "discard when knocking")
    _check_not_taken(rules, hand, card)  # G-22.1: refused outright
    knock, reason = _declare(rules, hand, a.seat, card, a.melds)
    if reason is None:
        return _knocked(rules, hand, knock)
    # G-8 illegal knock.
    if rules.illegal_knock == "reject":
        raise ActionError(f"you cannot knock: {reason}")
    if hand.illegal_knocks[a.seat] >= 1:  # G-8.3: a second illegal knock is rejected
        raise ActionError(f"you cannot knock: {reason} (a second illegal knock is not allowed)")
    kept = _without(hand.hands[a.seat], card)
    new = _replace(
        hand,
        hands=_set_seat(hand.hands, a.seat, kept),
        discard_pile=(*hand.discard_pile, card),
        knock=knock,
    )
    ev = Event(
        "illegal_knock",
        a.seat,
        {
            "card": str(card),
            "melds": melds_data(knock.melds),
            "deadwood": cards_text(knock.deadwood),
            "count": knock.count,
            "reason": reason,
        },
    )
    if rules.illegal_knock == "opponent_option":  # G-8.3 [HOYLE]
        return _replace(new, turn=1 - a.seat, phase=HandPhase.KNOCK_REVIEW), [ev]
    return _penalise(rules, new, a.seat, [ev])


def _penalise(
    rules: GinRules, hand: HandState, seat: int, events: list[Event]
) -> tuple[HandState, list[Event]]:
    """G-8.2/8.3: the discard stands face up, the hand is exposed, he must knock later."""
    hand = _replace(
        hand,
        turn=seat,
        knock=None,
        exposed=_set_seat(hand.exposed, seat, True),
        must_knock=_set_seat(hand.must_knock, seat, True),
        illegal_knocks=_set_seat(hand.illegal_knocks, seat, hand.illegal_knocks[seat] + 1),
    )
    return _after_discard(rules, hand, events)


def _refuse_knock(rules: GinRules, hand: HandState, a: Action) -> tuple[HandState, list[Event]]:
    ev = [Event("knock_refused", a.seat, {})]
    return _penalise(rules, hand, 1 - a.seat, ev)


def _accept_knock(rules: GinRules, hand: HandState, a: Action) -> tuple[HandState, list[Event]]:
    """G-8.3 opponent_option: scored as a normal knock with the true count."""
    assert hand.knock is not None
    k = hand.knock
    kept = hand.hands[k.seat]
    melds, dead = best_melds(list(kept))
    n = sum(c.value for c in dead)
    knock = Knock(k.seat, k.discard, tuple(melds), tuple(dead), n, "gin" if n == 0 else "knock")
    ev = [Event("knock_accepted", a.seat, {})]
    new, evs = _resolve(rules, hand, knock)
    return new, ev + evs


def _knocked(rules: GinRules, hand: HandState, knock: Knock) -> tuple[HandState, list[Event]]:
    """A legal knock or gin: discard face down (G-7.3), then layoffs and scoring."""
    seat = knock.seat
    hand = _replace(
        hand,
        hands=_set_seat(hand.hands, seat, _without(hand.hands[seat], knock.discard)),
        discard_pile=(*hand.discard_pile, knock.discard),
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
    ev = [Event("gin" if knock.kind == "gin" else "knocked", seat, data)]
    hand = _replace(hand, knock=knock, last_taken=None, turn=1 - seat)
    if knock.kind == "gin":  # G-9.2: no layoffs on gin
        return _score_without_layoffs(rules, hand, knock, ev)
    if rules.defender_layoffs == "agent":  # G-11.3
        return _replace(hand, phase=HandPhase.LAYOFF, table_melds=knock.melds), ev
    defence = best_defence(hand.hands[1 - seat], knock.melds)  # G-11, G-22.3
    for card, idx in defence.layoffs:
        ev.append(Event("laid_off", 1 - seat, {"card": str(card), "target": idx}))
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


def _big_gin(rules: GinRules, hand: HandState, a: Action) -> tuple[HandState, list[Event]]:
    if rules.big_gin_bonus is None:
        raise ActionError("Big Gin is not played under these rules")
    melds = big_gin_melds(rules, hand.hands[a.seat])
    if melds is None:  # G-10.1
        raise ActionError("Big Gin needs all eleven cards in melds")
    knock = Knock(a.seat, None, melds, (), 0, "big_gin")
    ev = [Event("big_gin", a.seat, {"melds": melds_data(melds)})]
    hand = _replace(hand, knock=knock, last_taken=None, turn=1 - a.seat)
    return _score_without_layoffs(rules, hand, knock, ev)


def _lay_off(rules: GinRules, hand: HandState, a: Action) -> tuple[HandState, list[Event]]:
    card = _card_in_hand(hand, a.seat, a.card, "lay off")
    if a.target is None or not 0 <= a.target < len(hand.table_melds):
        raise ActionError(f"say which of the knocker's {len(hand.table_melds)} melds to lay on")
    try:
        extended = extend_meld(hand.table_melds[a.target], card)  # G-11.1
    except ValueError as exc:
        raise ActionError(str(exc)) from None
    melds = list(hand.table_melds)
    melds[a.target] = extended
    new = _replace(
        hand,
        hands=_set_seat(hand.hands, a.seat, _without(hand.hands[a.seat], card)),
        table_melds=tuple(melds),
        layoffs=(*hand.layoffs, (card, a.target)),
    )
    return new, [Event("laid_off", a.seat, {"card": str(card), "target": a.target})]


def _done_laying_off(
    rules: GinRules, hand: HandState, a: Action
) -> tuple[HandState, list[Event]]:
    assert hand.knock is not None
    melds, dead = best_melds(list(hand.hands[a.seat]))  # G-11.3: his own melds, optimal
    n = sum(c.value for c in dead)
    ev = [Event("done_laying_off", a.seat, {})]
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
    return _replace(hand, phase=HandPhase.OVER, result=result), events


_HANDLERS = {
    (HandPhase.UPCARD, "take_upcard"): _take_upcard,
    (HandPhase.UPCARD, "pass_upcard"): _pass_upcard,
    (HandPhase.FORCED_DRAW, "draw_stock"): _draw_stock,
    (HandPhase.DRAW, "draw_stock"): _draw_stock,
    (HandPhase.DRAW, "draw_discard"): _draw_discard,
    (HandPhase.DISCARD, "discard"): _discard,
    (HandPhase.DISCARD, "knock"): _knock,
    (HandPhase.DISCARD, "big_gin"): _big_gin,
    (HandPhase.LAST_CHANCE, "take_and_knock"): _take_and_knock,
    (HandPhase.LAST_CHANCE, "decline"): _decline,
    (HandPhase.KNOCK_REVIEW, "accept_knock"): _accept_knock,
    (HandPhase.KNOCK_REVIEW, "refuse_knock"): _refuse_knock,
    (HandPhase.LAYOFF, "lay_off"): _lay_off,
    (HandPhase.LAYOFF, "done_laying_off"): _done_laying_off,
}
