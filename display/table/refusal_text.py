"""Words for the engine's refusals: every refusal code to a translated line with its params.

The engine refuses with ``ActionError(code, **params)`` (``rummy.actions.CommonRefusal``,
``rummy.gin.kinds.Refusal``, ``rummy.contract.kinds.Refusal``); ``str(exc)`` is English for
logs only. A player sees :func:`refusal_text`: the code's msgid through gettext, with cards
written as the table writes them (``7♥``) and seats as player names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from display.table.contract_text import NO, YES, contract_words
from display.table.gin_text import card_name, cards_line
from display.table.i18n import N_, _
from rummy.actions import ActionError, CommonRefusal, RefusalCode
from rummy.contract.kinds import Refusal as ContractRefusal
from rummy.contract.rules import Contract
from rummy.gin.kinds import Refusal as GinRefusal
from rummy.reads import split_place

C, G, K = CommonRefusal, GinRefusal, ContractRefusal

UNREADABLE = N_("That move could not be read.")
NOT_NOW = N_("You cannot do that now")
DOES_NOT_FIT = N_("{card} does not fit that meld")
NOT_IN_HAND = N_("{card} is not in your hand.")
NOTHING_TO_BUY = N_("Nothing to buy now")
CANNOT_BUY = N_("You cannot buy from the discard pile now")
NO_GROUPS = N_("Pick the cards of your contract first.")
# real cards (read mode): a card read out of the shoe that cannot be where it came from
CARD_READ_NEEDED = N_("Draw your card out of the shoe.")
DEAL_READ_SIZE = N_("The deal needs {want} cards out of the shoe, not {got}.")
NOT_READ_HAND = N_("This hand is played with the table's own cards: no card is read.")

# Every refusal code of both games and the common ones (a test checks none is missing).
TEXTS: dict[RefusalCode, str] = {
    # common
    C.NOT_AN_ACTION: UNREADABLE,
    C.ACTION_FIELDS_MISSING: UNREADABLE,
    C.ACTION_KIND_SEAT_TYPE: UNREADABLE,
    C.ACTION_UNKNOWN_FIELDS: UNREADABLE,
    C.ACTION_BAD_CARD: UNREADABLE,
    C.ACTION_BAD_MELDS: UNREADABLE,
    C.ACTION_BAD_TARGET: UNREADABLE,
    C.ACTION_BAD_FLAG: UNREADABLE,
    C.UNKNOWN_ACTION: UNREADABLE,
    C.MATCH_OVER: N_("The match is over."),
    C.DEAL_FIRST: N_("Wait for the deal."),
    C.NO_DEAL_DUE: N_("The cards are already dealt."),
    C.ONLY_TABLE_DEALS: N_("Only the table deals the cards."),
    C.SEAT_NOT_AT_TABLE: N_("That seat is not playing at this table."),
    C.NOT_YOUR_TURN: N_("Not your turn: wait for {name}"),
    C.NOT_NOW: NOT_NOW,
    C.CARD_NEEDED: N_("Pick a card first."),
    # gin
    G.CARD_ALREADY_PLACED: N_("{card} was read out of the shoe, but it is already {place}."),
    G.CARD_READ_NEEDED: CARD_READ_NEEDED,
    G.DEAL_READ_SIZE: DEAL_READ_SIZE,
    G.NOT_READ_HAND: NOT_READ_HAND,
    G.NOTHING_TO_VOID: N_("No hand is in play: there is nothing to void."),
    G.DEAL_NEEDS_ONE_PACK: N_("A gin deal needs one whole pack of 52 cards."),
    G.HAND_OVER: N_("This hand is over: wait for the next deal."),
    G.CARD_NOT_IN_HAND: NOT_IN_HAND,
    G.STOCK_FLOOR: N_("The last {floor} cards of the stock are never drawn."),
    G.DISCARD_PILE_EMPTY: N_("The pile is empty: DRAW from the stock."),
    G.DISCARD_JUST_TAKEN: N_("You took {card} from the pile: discard another card"),
    G.MUST_KNOCK: N_("You must knock now (illegal knock earlier)"),
    G.LAST_CHANCE_SAME_CARD: N_("You took {card}: knock with another card."),
    G.LAST_CHANCE_ONLY_TO_KNOCK: N_("Take the last card only to knock with it."),
    G.LAST_CHANCE_ILLEGAL_KNOCK: N_("Take the last card only for a legal knock: {reason}"),
    G.DECLARE_MELDS: N_("Show your melds when you knock."),
    G.DECLARED_CARD_NOT_HELD: NOT_IN_HAND,
    G.DECLARED_DISCARD: N_("{card} is your discard: it cannot be in a meld."),
    G.KNOCK_OVER_LIMIT: N_("You cannot knock: deadwood {deadwood} is over the knock limit {limit}."),
    G.KNOCK_GIN_ONLY_ACE: N_("Only gin ends this hand (ace knock card): you have {deadwood}."),
    G.KNOCK_GIN_ONLY_STRAIGHT: N_("Only gin ends this hand (straight gin): you have {deadwood}."),
    G.KNOCK_NOT_A_MELD: N_("You cannot knock: {meld} is not a meld."),
    G.KNOCK_CARD_IN_TWO_MELDS: N_("You cannot knock: {card} is in two melds."),
    G.SECOND_ILLEGAL_KNOCK: N_("A second illegal knock is not allowed: {reason}"),
    G.BIG_GIN_OFF: N_("Big Gin is not played at this table."),
    G.BIG_GIN_NOT_MELDED: N_("Big Gin needs all eleven cards in melds."),
    G.LAYOFF_TARGET: N_("Touch one of the knocker's melds to lay off on."),
    G.LAYOFF_SET_FULL: N_("The set {meld} already has all four cards."),
    G.LAYOFF_IN_MELD: DOES_NOT_FIT,
    G.LAYOFF_WRONG_RANK: DOES_NOT_FIT,
    G.LAYOFF_WRONG_SUIT: DOES_NOT_FIT,
    G.LAYOFF_NOT_AT_END: DOES_NOT_FIT,
    G.LAYOFF_NOT_A_MELD: DOES_NOT_FIT,
    # contract: real cards (read mode)
    K.CARD_ALREADY_PLACED: N_(
        "{card} was read out of the shoe, but both packs' {card} are already {place}."),
    K.CARD_NOT_IN_STOCK: N_(
        "{card} was read out of the shoe, but it did not go back into the shoe: it is {place}."),
    K.CARD_READ_NEEDED: CARD_READ_NEEDED,
    K.DEAL_READ_SIZE: DEAL_READ_SIZE,
    K.NOT_READ_HAND: NOT_READ_HAND,
    K.READ_TOO_MANY: N_("Only {want} cards are due from the shoe, not {got}."),
    K.NO_CARDS_DUE: N_("No card from the shoe is due now."),
    K.NOTHING_TO_VOID: N_("No deal is in play: there is nothing to void."),
    # contract: the deal and the turn
    K.DEAL_WRONG_CARDS: N_("The deal needs exactly {count} cards from {decks} packs."),
    K.NOT_NOW: NOT_NOW,
    K.STOCK_ONLY: N_("After the buy you draw from the stock."),
    K.PACK_EMPTY: N_("The discard pile is empty: DRAW from the stock."),
    K.TAKE_BACK_OWN_DISCARD: N_("You discarded {card}: you cannot take it back."),
    K.CARD_NOT_IN_HAND: NOT_IN_HAND,
    K.CARDS_NOT_HELD: N_("You do not hold {cards}."),
    K.DISCARD_TAKEN_CARD: N_("You took {card} from the discard pile: discard another card"),
    K.LAST_CARD_MUST_BE_LAID: N_("Your last card must go on a meld"),
    K.OUT_WITHOUT_CONTRACT: N_("Lay your contract before you go out."),
    K.STUCK_LAST_CARD: N_("That would leave you {card}, which you could neither discard nor lay off."),
    # contract: the contract and melds
    K.CONTRACT_NEEDED: N_("Lay down the contract: {contract}."),
    K.CONTRACT_ALREADY_DOWN: N_("Your contract is down: lay off instead."),
    K.NO_GROUPS: NO_GROUPS,
    K.CONTRACT_TOO_MANY: N_("The contract of this deal is {contract}, no more and no less."),
    K.CONTRACT_TOO_FEW: N_("Lay the whole contract at once: {contract}."),
    K.SETS_SAME_RANK: N_("The sets of a contract must be of different ranks."),
    K.SEQUENCES_SAME_SUIT: N_("The sequences of a contract must be of different suits."),
    K.EMPTY_GROUP: NO_GROUPS,
    K.SET_TOO_SHORT: N_("{cards}: a set needs at least {min} cards."),
    K.SET_TOO_LONG: N_("{cards}: a set holds at most {max} cards."),
    K.MIXED_GROUP: N_("{cards}: a set is one rank, a sequence one suit."),
    K.SEQUENCE_DUPLICATE: N_("{cards}: a sequence holds each rank once."),
    K.SEQUENCE_TOO_SHORT: N_("{cards}: a sequence needs at least {min} cards."),
    K.ACE_BOTH_ENDS: N_("{cards}: the ace is low or high, not both."),
    K.ACE_LOW_ONLY: N_("{cards}: the ace is low only at this table."),
    K.NOT_CONSECUTIVE: N_("{cards}: the ranks are not consecutive."),
    # contract: lay-offs
    K.LAYOFF_NEEDS_TARGET: N_("Pick one card, then touch a meld to lay it off"),
    K.LAYOFF_BEFORE_CONTRACT: N_("Lay your contract first, then lay off"),
    K.LAYOFF_SAME_TURN: N_("Lay-offs start on your next turn."),
    K.NO_SUCH_MELD: N_("That meld is not on the table."),
    K.LAYOFF_WRONG_RANK: DOES_NOT_FIT,
    K.LAYOFF_SET_FULL: DOES_NOT_FIT,
    K.LAYOFF_WRONG_SUIT: DOES_NOT_FIT,
    K.LAYOFF_ALREADY_HELD: DOES_NOT_FIT,
    K.LAYOFF_NOT_AT_END: DOES_NOT_FIT,
    # contract: buying
    K.BUY_STOCK_ONLY: NOTHING_TO_BUY,
    K.BUY_PACK_EMPTY: NOTHING_TO_BUY,
    K.BUY_IN_TURN_NEEDS_COUNT: N_("Choose how many cards to buy."),
    K.ALREADY_PASSED: N_("You passed on {card}."),
    K.ASKED_MUST_ANSWER: N_("You are asked: answer {yes} or {no}."),
    K.ALREADY_ASKED: N_("You already asked for {card}."),
    K.BUY_PRIORITY: N_("{name} is nearer in turn and buys {card} first."),
    K.BUY_NOT_NOW: NOTHING_TO_BUY,
    K.BUY_OWN_DISCARD: N_("You discarded {card}: you cannot buy it back"),
    K.BUY_LIMIT: N_("You have used all {limit} buys of this deal."),
    K.BUY_AFTER_CONTRACT: N_("Your contract is down: no more buying."),
    K.NOTHING_TO_PASS: NOT_NOW,
    K.NOT_ASKED: N_("Nobody is asking you now."),
    K.ANSWER_NEEDS_FLAG: N_("Answer {yes} or {no}."),
    K.NOT_BUYING: N_("You are not buying now."),
    K.TAKE_COUNT: N_("Take 1 to {max} cards."),
    K.NOT_IN_TURN: CANNOT_BUY,
    K.IN_TURN_BUY_NOT_NOW: CANNOT_BUY,
    K.IN_TURN_BUY_COUNT: N_("Buy {low} to {high} cards, or take one card as your draw."),
}

#: refusals that tell what a hand holds (its deadwood, its cards, its melds): a refusal of a
#: call on a face-down hand says only how to look (docs/privacy.md, issue 28)
HAND_REFUSALS: frozenset[RefusalCode] = frozenset({
    G.CARD_NOT_IN_HAND, G.DISCARD_JUST_TAKEN, G.LAST_CHANCE_SAME_CARD, G.LAST_CHANCE_ILLEGAL_KNOCK,
    G.DECLARE_MELDS, G.DECLARED_CARD_NOT_HELD, G.DECLARED_DISCARD, G.KNOCK_OVER_LIMIT, G.KNOCK_GIN_ONLY_ACE,
    G.KNOCK_GIN_ONLY_STRAIGHT, G.KNOCK_NOT_A_MELD, G.KNOCK_CARD_IN_TWO_MELDS, G.SECOND_ILLEGAL_KNOCK,
    G.BIG_GIN_NOT_MELDED, G.LAYOFF_SET_FULL, G.LAYOFF_IN_MELD, G.LAYOFF_WRONG_RANK, G.LAYOFF_WRONG_SUIT,
    G.LAYOFF_NOT_AT_END, G.LAYOFF_NOT_A_MELD,
    K.CARD_NOT_IN_HAND, K.CARDS_NOT_HELD, K.DISCARD_TAKEN_CARD, K.LAST_CARD_MUST_BE_LAID, K.STUCK_LAST_CARD,
    K.CONTRACT_TOO_MANY, K.CONTRACT_TOO_FEW, K.SETS_SAME_RANK, K.SEQUENCES_SAME_SUIT, K.SET_TOO_SHORT,
    K.SET_TOO_LONG, K.MIXED_GROUP, K.SEQUENCE_DUPLICATE, K.SEQUENCE_TOO_SHORT, K.ACE_BOTH_ENDS, K.ACE_LOW_ONLY,
    K.NOT_CONSECUTIVE, K.LAYOFF_WRONG_RANK, K.LAYOFF_SET_FULL, K.LAYOFF_WRONG_SUIT, K.LAYOFF_ALREADY_HELD,
    K.LAYOFF_NOT_AT_END,
})
HOLD_TO_LOOK = N_("Hold one of your buttons to see your cards")  # the hint of the same words

CODES: dict[str, RefusalCode] = {str(code): code for code in TEXTS}
CARD_PARAMS = frozenset({"card"})
CARDS_PARAMS = frozenset({"cards", "meld", "extra", "missing"})
SEAT_PARAMS = {"turn": "name", "asker": "name"}  # seat params shown as a player's name
PLACE_PARAMS = frozenset({"place"})  # where a card is: rummy.reads place codes


def place_words(place: str, name: Callable[[int], str]) -> str:
    """A place code (``hand:1``, ``discard``, ``set_aside``, ``meld:3``; copies joined
    with ``+``) as words: "in Ann's hand and on the discard pile"."""
    parts: list[str] = []
    for what, number in split_place(str(place)):
        if what == "hand" and number is not None:
            parts.append(_("in {name}'s hand").format(name=name(number)))
        elif what == "meld" and number is not None:
            parts.append(_("in meld {n} on the table").format(n=number))
        elif what == "set_aside":
            parts.append(_("set aside with the refused upcard"))
        else:
            parts.append(_("on the discard pile"))
    text = parts[0] if parts else _("on the discard pile")
    for more in parts[1:]:
        text = _("{first} and {second}").format(first=text, second=more)
    return text


def _seat(seat: int) -> str:
    return _("Seat {n}").format(n=seat + 1)


def _words(params: Mapping[str, Any], name: Callable[[int], str]) -> dict[str, Any]:
    """The params as the table writes them, plus the derived ones the msgids use."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        if key in CARD_PARAMS and value is not None:
            out[key] = card_name(value)
        elif key in CARDS_PARAMS and value is not None:
            out[key] = cards_line(value)
        elif key in PLACE_PARAMS and value is not None:
            out[key] = place_words(value, name)
        else:
            out[key] = value
        if key in SEAT_PARAMS and isinstance(value, int):
            out[SEAT_PARAMS[key]] = name(value)
    if "sets" in params and "sequences" in params:
        out["contract"] = contract_words(Contract(params["sets"], params["sequences"]))
    out.setdefault("yes", YES)
    out.setdefault("no", NO)
    return out


def refusal_text(
    exc_or_code: ActionError | RefusalCode | str,
    params: Mapping[str, Any] | None = None,
    *,
    name: Callable[[int], str] | None = None,
    hidden: bool = False,
    looks: bool = True,
) -> str:
    """The translated line for a refusal: an ``ActionError``, or a code and its params.

    ``name(seat)`` gives a player's name (default "Seat n"). A nested ``reason`` code (a
    second illegal knock, the last-chance knock) is translated with the same params.
    ``hidden``: the call was made on a face-down hand, so a refusal that tells what the hand
    holds (:data:`HAND_REFUSALS`: a deadwood count, a card, a meld) says only how to look
    (``looks=False``, real cards, where the screen never shows a hand: only "not now").
    """
    if isinstance(exc_or_code, ActionError):
        code: RefusalCode | None = exc_or_code.code
        params = exc_or_code.params if params is None else params
    else:
        code = CODES.get(str(exc_or_code))
    params = dict(params or {})
    if code is None or code not in TEXTS:
        return _(NOT_NOW)
    if hidden and code in HAND_REFUSALS:
        return _(HOLD_TO_LOOK) if looks else _(NOT_NOW)  # real cards: no look on the screen
    words = _words(params, name or _seat)
    reason = params.get("reason")
    if reason is not None and str(reason) in CODES:
        inner = {k: v for k, v in params.items() if k != "reason"}
        words["reason"] = refusal_text(str(reason), inner, name=name)
    return _(TEXTS[code]).format(**words)
