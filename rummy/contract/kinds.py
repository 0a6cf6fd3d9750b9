"""Contract rummy's vocabulary in one place: phases, action kinds, event kinds, refusals.

Values are the strings journals have always held (``"buy"``, ``"bought"``), so old
journals replay unchanged. Refusals carry the C-rule they apply and their params (cards
stay :class:`~rummy.cards.Card`); the display translates the code, ``str(ActionError)`` is
English for logs only.
"""

from __future__ import annotations

from enum import StrEnum

from rummy.actions import RefusalCode


class Phase(StrEnum):
    """Where a deal stands (``ContractState.phase``)."""

    DEAL = "deal"  # waiting for the table's deal action
    TURN = "turn"  # the player in turn takes a card; the "Можно?" window is open (C-9 TURN_START)
    ASK = "ask"  # a "Можно?" question: ``buy.asked`` answers (C-9 PERMISSION)
    TAKE = "take"  # a buyer chooses how many pack cards to take (C-8.5)
    PLAY = "play"  # the player in turn melds, lays off, discards (C-5.2, C-5.3)
    PENALTY = "penalty"  # read mode: a buy waits for its stock cards out of the shoe (C-8.5)
    OVER = "over"  # the match has ended


class ActionKind(StrEnum):
    """What a seat (or the table, for ``DEAL``) may do; see :mod:`rummy.contract`."""

    DEAL = "deal"  # C-4 (TABLE, cards = the packs' order)
    DEAL_READ = "deal_read"  # C-4 read mode (TABLE, cards = the deal read, upcard last)
    VOID_HAND = "void_hand"  # a misdeal (TABLE): back to this deal's start, same dealer, no score
    STOCK_CARDS = "stock_cards"  # read mode: a buy's stock cards read out of the shoe (C-8.5)
    DRAW_STOCK = "draw_stock"  # C-5.1
    DRAW_DISCARD = "draw_discard"  # C-5.1
    BUY = "buy"  # C-8.3 "Можно?"; from N with target = k: the in-turn buy (C-8.2)
    NO_BUY = "no_buy"  # pass on the window's card (bots)
    ANSWER = "answer"  # C-8.4 flag True "Можно" / False "Нельзя"
    TAKE_CARDS = "take_cards"  # C-8.5 target = k
    MELD = "meld"  # C-3, C-15.3
    LAY_OFF = "lay_off"  # C-5.2 card, target = meld id
    DISCARD = "discard"  # C-5.3, C-6


class EventKind(StrEnum):
    """What happened in contract rummy (``Event.kind``)."""

    DEALT = "dealt"
    HAND_VOIDED = "hand_voided"  # a misdeal: data["deal"], data["dealer"]
    TURN_STARTED = "turn_started"
    DREW_STOCK = "drew_stock"
    TOOK_DISCARD = "took_discard"
    STOCK_REFILLED = "stock_refilled"
    STOCK_EXHAUSTED = "stock_exhausted"
    ASKED_TO_BUY = "asked_to_buy"
    PASSED_ON_BUY = "passed_on_buy"
    QUESTION = "question"
    ANSWERED = "answered"
    BUY_GRANTED = "buy_granted"
    BOUGHT = "bought"
    MELDED = "melded"
    LAID_OFF = "laid_off"
    DISCARDED = "discarded"
    WENT_OUT = "went_out"
    HAND_SCORED = "hand_scored"
    MATCH_OVER = "match_over"


class Refusal(RefusalCode):
    """Why contract rummy refuses an action: ``(code, rule, English template)``."""

    # read mode: cards learned as they come out of the shoe (issue 10)
    CARD_ALREADY_PLACED = (
        "contract.card_already_placed", "C-13",
        "{card} was read but every copy of the packs is already elsewhere ({place})",
    )
    CARD_NOT_IN_STOCK = (
        "contract.card_not_in_stock", "C-10.1",
        "{card} was read but did not go back into the shoe at the refill (it is at {place})",
    )
    CARD_READ_NEEDED = (
        "contract.card_read_needed", "C-5.1",
        "a stock draw in this deal needs the card read out of the shoe",
    )
    DEAL_READ_SIZE = (
        "contract.deal_read_size", "C-4.2", "the deal needs {want} cards read out of the shoe, got {got}"
    )
    NOT_READ_HAND = (
        "contract.not_read_hand", "C-4",
        "this deal was dealt from a known pack order: no card is read",
    )
    READ_TOO_MANY = (
        "contract.read_too_many", "C-8.5", "{got} cards read, but only {want} are due from the shoe"
    )
    NO_CARDS_DUE = ("contract.no_cards_due", "C-8.5", "no card from the shoe is due now")
    NOTHING_TO_VOID = ("contract.nothing_to_void", "C-4", "no deal is in play: nothing to void")
    # the deal and the turn
    DEAL_WRONG_CARDS = (
        "contract.deal_wrong_cards", "C-4",
        "the deal must hold exactly {count} cards of {decks} packs; extra: {extra}; missing: {missing}",
    )
    NOT_NOW = ("contract.not_now", "C-9", "'{kind}' is not possible in phase {phase}")
    STOCK_ONLY = (
        "contract.stock_only", "C-15.1", "after the buy seat {seat} must draw from the stock"
    )
    PACK_EMPTY = ("contract.pack_empty", "C-5.1", "the open pack is empty")
    TAKE_BACK_OWN_DISCARD = (
        "contract.take_back_own_discard", "C-5.1",
        "seat {seat} discarded {card} and may not take it back",
    )
    CARD_NOT_IN_HAND = ("contract.card_not_in_hand", "C-5.2", "{card} is not in seat {seat}'s hand")
    CARDS_NOT_HELD = ("contract.cards_not_held", "C-3", "seat {seat} does not hold {cards}")
    # discards and going out
    DISCARD_TAKEN_CARD = (
        "contract.discard_taken_card", "C-5.3",
        "{card} was taken from the pack this turn and may not be discarded",
    )
    LAST_CARD_MUST_BE_LAID = (
        "contract.last_card_must_be_laid", "C-6.3",
        "in the last deal the last card must be laid on the table, not discarded",
    )
    OUT_WITHOUT_CONTRACT = (
        "contract.out_without_contract", "C-3.1", "nobody goes out without laying the contract"
    )
    STUCK_LAST_CARD = (
        "contract.stuck_last_card", "C-6.3",
        "that would leave only {card}, which can be neither discarded nor laid off "
        "(C-6.3: never keep one card you cannot play)",
    )
    # the contract (C-3)
    CONTRACT_NEEDED = (
        "contract.contract_needed", "C-3",
        "lay down the contract: {sets} set(s) and {sequences} sequence(s)",
    )
    CONTRACT_ALREADY_DOWN = (
        "contract.contract_already_down", "C-3.1",
        "the contract is already down: no more melds, lay off instead",
    )
    NO_GROUPS = ("contract.no_groups", "C-3", "lay down at least one group")
    CONTRACT_TOO_MANY = (
        "contract.contract_too_many", "C-3.1",
        "the contract of this deal is {sets} set(s) and {sequences} sequence(s), no more and no less",
    )
    CONTRACT_TOO_FEW = (
        "contract.contract_too_few", "C-15.3",
        "the contract of this deal is {sets} set(s) and {sequences} sequence(s), "
        "laid in one turn (C-3.1, C-15.3)",
    )
    SETS_SAME_RANK = (
        "contract.sets_same_rank", "C-3.2", "the sets of a contract must be of different ranks"
    )
    SEQUENCES_SAME_SUIT = (
        "contract.sequences_same_suit", "C-3.2",
        "the sequences of a contract must be of different suits",
    )
    # melds (C-1, C-2)
    EMPTY_GROUP = ("contract.empty_group", "C-2.1", "an empty group is not a meld")
    SET_TOO_SHORT = (
        "contract.set_too_short", "C-2.1", "{cards}: a set needs at least {min} cards (has {has})"
    )
    SET_TOO_LONG = ("contract.set_too_long", "C-1.2", "{cards}: a set holds at most {max} cards")
    MIXED_GROUP = (
        "contract.mixed_group", "C-2.1",
        "{cards}: not a set (ranks differ) and not a sequence (suits differ): "
        "a set is one rank, a sequence one suit",
    )
    SEQUENCE_DUPLICATE = (
        "contract.sequence_duplicate", "C-1.3",
        "{cards}: a sequence holds each rank once, {card} appears twice",
    )
    SEQUENCE_TOO_SHORT = (
        "contract.sequence_too_short", "C-2.1",
        "{cards}: a sequence needs at least {min} cards (has {has})",
    )
    ACE_BOTH_ENDS = (
        "contract.ace_both_ends", "C-2.3",
        "{cards}: the ace is low (A-2-3) or high (Q-K-A), not both",
    )
    ACE_LOW_ONLY = ("contract.ace_low_only", "C-2.3", "{cards}: the ace is low only under these rules")
    NOT_CONSECUTIVE = ("contract.not_consecutive", "C-2.1", "{cards}: the ranks are not consecutive")
    # lay-offs (C-5.2)
    LAYOFF_NEEDS_TARGET = (
        "contract.layoff_needs_target", "C-5.2", "lay_off needs a card and a target meld id"
    )
    LAYOFF_BEFORE_CONTRACT = (
        "contract.layoff_before_contract", "C-5.2", "lay your contract first, then lay off"
    )
    LAYOFF_SAME_TURN = (
        "contract.layoff_same_turn", "C-5.2",
        "lay-offs start the turn after the contract (layoff_same_turn_as_contract)",
    )
    NO_SUCH_MELD = ("contract.no_such_meld", "C-5.2", "there is no meld {target} on the table")
    LAYOFF_WRONG_RANK = (
        "contract.layoff_wrong_rank", "C-5.2", "{card} does not match the set of {rank}s"
    )
    LAYOFF_SET_FULL = (
        "contract.layoff_set_full", "C-1.2", "{card}: the set of {rank}s already holds {max} cards"
    )
    LAYOFF_WRONG_SUIT = (
        "contract.layoff_wrong_suit", "C-5.2", "{card} is not of the sequence's suit"
    )
    LAYOFF_ALREADY_HELD = (
        "contract.layoff_already_held", "C-1.3", "the sequence already holds {card}"
    )
    LAYOFF_NOT_AT_END = (
        "contract.layoff_not_at_end", "C-2.3", "{card} does not extend {meld} at either end"
    )
    # buying (C-8, C-9)
    BUY_STOCK_ONLY = (
        "contract.buy_stock_only", "C-15.1",
        "seat {seat} resumes his turn from the stock: nothing to buy",
    )
    BUY_PACK_EMPTY = ("contract.buy_pack_empty", "C-8.3", "the open pack is empty: nothing to buy")
    BUY_IN_TURN_NEEDS_COUNT = (
        "contract.buy_in_turn_needs_count", "C-8.2",
        "the player in turn buys with a card count (buy with target = k)",
    )
    ALREADY_PASSED = ("contract.already_passed", "C-9", "seat {seat} already passed on {card}")
    ASKED_MUST_ANSWER = (
        "contract.asked_must_answer", "C-8.4", "seat {seat} is asked: answer Можно or Нельзя"
    )
    ALREADY_ASKED = ("contract.already_asked", "C-8.8", "seat {seat} has already asked for {card}")
    BUY_PRIORITY = (
        "contract.buy_priority", "C-8.8",
        "seat {asker} is nearer in turn order and has priority for {card}",
    )
    BUY_NOT_NOW = (
        "contract.buy_not_now", "C-9",
        "nobody may buy now: buy when a turn starts, before the card is taken",
    )
    BUY_OWN_DISCARD = (
        "contract.buy_own_discard", "C-8.1", "seat {seat} discarded {card} and may not buy it back"
    )
    BUY_LIMIT = (
        "contract.buy_limit", "C-8.7", "seat {seat} has used all {limit} buys of this deal"
    )
    BUY_AFTER_CONTRACT = (
        "contract.buy_after_contract", "C-8.7",
        "seat {seat} has laid his contract and may not buy any more",
    )
    NOTHING_TO_PASS = ("contract.nothing_to_pass", "C-9", "seat {seat} has nothing to pass on now")
    NOT_ASKED = ("contract.not_asked", "C-8.4", "seat {seat} is not being asked anything")
    ANSWER_NEEDS_FLAG = (
        "contract.answer_needs_flag", "C-8.4", "an answer needs flag true (Можно) or false (Нельзя)"
    )
    NOT_BUYING = ("contract.not_buying", "C-8.5", "seat {seat} is not buying now")
    TAKE_COUNT = (
        "contract.take_count", "C-8.5", "take 1..{max} cards from the pack (target), got {got}"
    )
    NOT_IN_TURN = ("contract.not_in_turn", "C-8.2", "seat {seat} is not the player in turn")
    IN_TURN_BUY_NOT_NOW = (
        "contract.in_turn_buy_not_now", "C-8.2", "seat {seat} may not buy from the pack now"
    )
    IN_TURN_BUY_COUNT = (
        "contract.in_turn_buy_count", "C-8.2",
        "an in-turn buy takes {low}..{high} cards (target); "
        "one card is an ordinary draw (draw_discard, C-8.2)",
    )


# The events that are a deal's or the match's result (records keep them per hand).
RESULT_EVENTS: frozenset[str] = frozenset({
    EventKind.WENT_OUT,
    EventKind.STOCK_EXHAUSTED,
    EventKind.HAND_SCORED,
    EventKind.HAND_VOIDED,
    EventKind.MATCH_OVER,
})
