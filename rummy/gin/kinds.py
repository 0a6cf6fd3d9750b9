"""Gin rummy's vocabulary in one place: action kinds, event kinds, refusal codes.

The values are the strings journals have always held (``"draw_stock"``, ``"knocked"``), so
old journals replay unchanged. Refusals carry the G-rule they apply and their params; the
display translates the code (``display/table/refusal_text.py``), ``str(ActionError)`` is English
for logs only.
"""

from __future__ import annotations

from enum import StrEnum

from rummy.actions import RefusalCode


class ActionKind(StrEnum):
    """What a seat (or the table, for ``DEAL``) may do in gin."""

    DEAL = "deal"  # G-3 (TABLE, cards = the pack's order)
    DEAL_READ = "deal_read"  # G-3.2 read mode (TABLE, cards = the 21 cards read, upcard last)
    VOID_HAND = "void_hand"  # a misdeal (TABLE): back to this hand's deal, same dealer, no score
    TAKE_UPCARD = "take_upcard"  # G-4.1
    PASS_UPCARD = "pass_upcard"  # G-4.1, G-4.3
    DRAW_STOCK = "draw_stock"  # G-5.1
    DRAW_DISCARD = "draw_discard"  # G-5.1
    DISCARD = "discard"  # G-5.2 (card)
    KNOCK = "knock"  # G-7 (card = the discard, melds = declared or None)
    BIG_GIN = "big_gin"  # G-10
    TAKE_AND_KNOCK = "take_and_knock"  # G-13.3
    DECLINE = "decline"  # G-13.3
    ACCEPT_KNOCK = "accept_knock"  # G-8.3 opponent_option
    REFUSE_KNOCK = "refuse_knock"  # G-8.3 opponent_option
    LAY_OFF = "lay_off"  # G-11.3 agent (card, target = knocker's meld index)
    DONE_LAYING_OFF = "done_laying_off"  # G-11.3 agent


class KnockKind(StrEnum):
    """What a knock declares (``Knock.kind``)."""

    KNOCK = "knock"  # G-7: deadwood within the knock limit
    GIN = "gin"  # G-9, G-7.5: no deadwood on ten cards
    BIG_GIN = "big_gin"  # G-10: all eleven cards melded


class HandOutcome(StrEnum):
    """How a hand ended (G-12 table): ``HandResult.outcome``, and the ``outcome`` of a
    ``hand_scored`` event's data."""

    KNOCK = "knock"  # G-12: K < D, the knocker wins
    UNDERCUT = "undercut"  # G-12.1: K >= D (not gin), the defender wins
    GIN = "gin"  # G-9.3: never undercut
    BIG_GIN = "big_gin"  # G-10.2
    DEAD = "dead"  # G-13.5: no score, no box, redealt


class EventKind(StrEnum):
    """What happened in gin (``Event.kind``)."""

    DEALT = "dealt"
    HAND_VOIDED = "hand_voided"  # a misdeal: data["hand"], data["game"], data["dealer"]
    UPCARD_TAKEN = "upcard_taken"
    UPCARD_PASSED = "upcard_passed"
    DREW = "drew"  # data["pile"]: stock | discard
    DISCARDED = "discarded"
    ILLEGAL_KNOCK = "illegal_knock"  # data["reason"]: a Refusal code
    KNOCK_REFUSED = "knock_refused"
    KNOCK_ACCEPTED = "knock_accepted"
    KNOCKED = "knocked"
    GIN = "gin"
    BIG_GIN = "big_gin"
    LAID_OFF = "laid_off"
    DONE_LAYING_OFF = "done_laying_off"
    DECLINED = "declined"
    HAND_DEAD = "hand_dead"
    HAND_SCORED = "hand_scored"
    GAME_OVER = "game_over"
    MATCH_OVER = "match_over"


class Refusal(RefusalCode):
    """Why gin refuses an action: ``(code, rule, English template over the params)``."""

    # read mode: cards learned as they come out of the shoe (issue 10)
    CARD_ALREADY_PLACED = (
        "gin.card_already_placed", "G-3.1",
        "{card} was read but is already elsewhere ({place}): one pack holds each card once",
    )
    CARD_READ_NEEDED = (
        "gin.card_read_needed", "G-5.1", "a stock draw in this hand needs the card read out of the shoe"
    )
    DEAL_READ_SIZE = (
        "gin.deal_read_size", "G-3.2", "the deal needs {want} cards read out of the shoe, got {got}"
    )
    NOT_READ_HAND = (
        "gin.not_read_hand", "G-3.2",
        "this hand was dealt from a known pack order: a stock draw carries no card",
    )
    NOTHING_TO_VOID = ("gin.nothing_to_void", "G-3.4", "no hand is in play: nothing to void")
    DEAL_NEEDS_ONE_PACK = (
        "gin.deal_needs_one_pack", "G-3.1", "a gin deal needs the 52 cards of one pack, each exactly once"
    )
    HAND_OVER = ("gin.hand_over", "G-3.4", "this hand is over; the next deal comes first")
    CARD_NOT_IN_HAND = ("gin.card_not_in_hand", None, "{card} is not in your hand")
    STOCK_FLOOR = (
        "gin.stock_floor", "G-5.6",
        "the stock has {stock} cards: the last {floor} are never drawn",
    )
    DISCARD_PILE_EMPTY = ("gin.discard_pile_empty", "G-5.1", "the discard pile is empty: draw from the stock")
    DISCARD_JUST_TAKEN = (
        "gin.discard_just_taken", "G-5.3",
        "{card} was just taken from the discard pile: discard another card",
    )
    MUST_KNOCK = ("gin.must_knock", "G-8.2", "after an illegal knock you must knock as soon as you can")
    LAST_CHANCE_SAME_CARD = (
        "gin.last_chance_same_card", "G-13.3", "{card} was just taken: knock with another discard"
    )
    LAST_CHANCE_ONLY_TO_KNOCK = (
        "gin.last_chance_only_to_knock", "G-13.3",
        "the last discard may only be taken to knock or go gin with it, and this knock is not legal",
    )
    LAST_CHANCE_ILLEGAL_KNOCK = (
        "gin.last_chance_illegal_knock", "G-13.3",
        "the last discard may only be taken for a legal knock: {reason}",
    )
    DECLARE_MELDS = ("gin.declare_melds", "G-7.3", "declare your melds when you knock")
    DECLARED_CARD_NOT_HELD = (
        "gin.declared_card_not_held", None, "{card} in your declared melds is not in your hand"
    )
    DECLARED_DISCARD = ("gin.declared_discard", None, "{card} in your declared melds is your discard")
    KNOCK_OVER_LIMIT = (
        "gin.knock_over_limit", "G-7.2",
        "you cannot knock: deadwood {deadwood} is over the knock limit {limit}",
    )
    KNOCK_GIN_ONLY_ACE = (
        "gin.knock_gin_only_ace", "G-6.3",
        "you cannot knock: only gin may end this hand (ace knock card), you have {deadwood}",
    )
    KNOCK_GIN_ONLY_STRAIGHT = (
        "gin.knock_gin_only_straight", "G-6.6",
        "you cannot knock: only gin may end this hand (straight gin), you have {deadwood}",
    )
    KNOCK_NOT_A_MELD = (
        "gin.knock_not_a_meld", "G-22.2",
        "you cannot knock: {meld} is not a meld: a set is 3-4 cards of one rank, a run 3+ in suit",
    )
    KNOCK_CARD_IN_TWO_MELDS = (
        "gin.knock_card_in_two_melds", "G-2.2", "you cannot knock: {card} is used in more than one meld"
    )
    SECOND_ILLEGAL_KNOCK = (
        "gin.second_illegal_knock", "G-8.3",
        "{reason} (a second illegal knock is not allowed)",
    )
    BIG_GIN_OFF = ("gin.big_gin_off", "G-10", "Big Gin is not played under these rules")
    BIG_GIN_NOT_MELDED = ("gin.big_gin_not_melded", "G-10.1", "Big Gin needs all eleven cards in melds")
    LAYOFF_TARGET = (
        "gin.layoff_target", "G-11.1", "say which of the knocker's {melds} melds to lay on"
    )
    LAYOFF_SET_FULL = ("gin.layoff_set_full", "G-11.1", "the set {meld} already has all four cards")
    LAYOFF_IN_MELD = ("gin.layoff_in_meld", "G-11.1", "{card} is already in the meld {meld}")
    LAYOFF_WRONG_RANK = ("gin.layoff_wrong_rank", "G-11.1", "{card} is not the rank of the set {meld}")
    LAYOFF_WRONG_SUIT = ("gin.layoff_wrong_suit", "G-11.1", "{card} is not the suit of the run {meld}")
    LAYOFF_NOT_AT_END = (
        "gin.layoff_not_at_end", "G-1.3", "{card} does not extend the run {meld} at either end"
    )
    LAYOFF_NOT_A_MELD = ("gin.layoff_not_a_meld", "G-11.1", "{card} cannot go on {meld}: not a meld")


# The events that are a hand's or the match's result (records keep them per hand).
RESULT_EVENTS: frozenset[str] = frozenset({
    EventKind.KNOCKED,
    EventKind.GIN,
    EventKind.BIG_GIN,
    EventKind.HAND_DEAD,
    EventKind.HAND_SCORED,
    EventKind.HAND_VOIDED,
    EventKind.GAME_OVER,
    EventKind.MATCH_OVER,
})

# The knock refusals a player may make anyway under illegal_knock = penalty/opponent_option (G-8).
KNOCK_REASONS = frozenset({
    Refusal.KNOCK_OVER_LIMIT,
    Refusal.KNOCK_GIN_ONLY_ACE,
    Refusal.KNOCK_GIN_ONLY_STRAIGHT,
    Refusal.KNOCK_NOT_A_MELD,
    Refusal.KNOCK_CARD_IN_TWO_MELDS,
})
