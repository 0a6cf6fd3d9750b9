"""Words for the controller's hints (:class:`display.table.controller.HintCode`), through gettext.

``hint_text(hint, name)`` -> the translated sentence; ``name(seat)`` gives a seat's name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from display.table.contract_text import ASK_WORD
from display.table.controller import Hint, HintCode
from display.table.gin_text import card_name
from display.table.i18n import _, ngettext
from rummy.gin.rules import IllegalKnock

C = HintCode

#: code -> (params, name of a seat) -> words
_WORDS: dict[HintCode, Callable[[Any, Callable[[int], str]], str]] = {
    C.OTHER_TO_PLAY: lambda p, name: _("{name} to play").format(name=name(p["seat"])),
    C.THINKING: lambda p, name: _("Thinking…"),
    C.NOT_YOUR_TURN: lambda p, name: _("Not your turn: wait for {name}").format(name=name(p["seat"])),
    C.WAIT: lambda p, name: _("Wait"),
    C.HOLD_TO_LOOK: lambda p, name: _("Hold one of your buttons to see your cards"),
    C.HOW_TO_LOOK: lambda p, name: _("Your turn: hold your button to see your cards"),
    C.CANNOT_NOW: lambda p, name: _("You cannot do that now"),
    # gin
    C.UPCARD_OFFER: lambda p, name: _("Your turn: touch the pile to take {card}, or DRAW to pass").format(
        card=card_name(p["card"])),
    C.FORCED_DRAW: lambda p, name: _("Both passed: DRAW from the stock"),
    C.DRAW_OR_TAKE: lambda p, name: _("Your turn: DRAW, or touch the pile to take {card}").format(
        card=card_name(p["card"])),
    C.KNOCK_PICK_DISCARD: lambda p, name: _("Knock: touch the card to discard face down"),
    C.TAKE_PICK_DISCARD: lambda p, name: _("Touch the card you knock with"),
    C.NOW_TOUCH_KNOCK_CARD: lambda p, name: _("Now touch the card you knock with"),
    C.MUST_KNOCK: lambda p, name: _("You must knock now (illegal knock earlier)"),
    C.HOLD_THEN_DISCARD: lambda p, name: _("Hold one of your buttons to look, then touch a card to discard"),
    C.TOUCH_AGAIN_TO_DISCARD: lambda p, name: _("Touch {card} again to discard it").format(
        card=card_name(p["card"])),
    C.DISCARD_OR_KNOCK: lambda p, name: _("Touch a card to discard it, or KNOCK"),
    C.NO_KNOCK_YET: lambda p, name: _("No knock yet: deadwood {count}, the knock limit is {limit}").format(
        count=p["count"], limit=p["limit"]),
    C.NO_KNOCK_WITH: lambda p, name: _("No knock with {card}: deadwood {count}, the knock limit is {limit}").format(
        card=card_name(p["card"]), count=p["count"], limit=p["limit"]),
    C.LOOK_TO_KNOCK: lambda p, name: _("Knock: hold one of your buttons to look, then touch the card you knock with"),
    C.ILLEGAL_KNOCK_WARNING: lambda p, name: illegal_warning_text(p),
    C.LAST_CARD: lambda p, name: _("Last card: take {card} only to knock, or DRAW to decline").format(
        card=card_name(p["card"])),
    C.KNOCK_REVIEW: lambda p, name: _("Illegal knock: accept it or refuse"),
    C.LAY_OFF: lambda p, name: _("Touch a card to lay it off, then Done"),
    # contract
    C.ASKED: lambda p, name: _("{name} asks “{ask}” for {card}. Saying no, you buy it and your turn ends").format(
        name=name(p["asker"]), ask=ASK_WORD, card=card_name(p["card"])),
    C.BUY_TO_ASK: lambda p, name: _("BUY to ask “{ask}” for {card}").format(ask=ASK_WORD, card=card_name(p["card"])),
    C.WAITING_FOR_ANSWER: lambda p, name: _("Waiting for {name} to answer").format(name=name(p["seat"])),
    C.IS_BUYING: lambda p, name: _("{name} is buying").format(name=name(p["seat"])),
    C.HOW_MANY: lambda p, name: _("How many cards from the discard pile?"),
    C.BUY_HOW_MANY: lambda p, name: _("Buy how many? “+n”: cards from the stock come too; then your turn ends"),
    C.DRAW_FROM_STOCK: lambda p, name: _("Your turn: DRAW from the stock"),
    C.DRAW_OR_TAKE_PACK: lambda p, name: _("Your turn: DRAW or take {card}").format(card=card_name(p["card"])),
    C.DRAW_TAKE_OR_BUY: lambda p, name: _("Your turn: DRAW, take {card}, or BUY several").format(
        card=card_name(p["card"])),
    C.CAN_MELD: lambda p, name: _("You can lay your contract: MELD"),
    C.DISCARD_OR_LAY_OFF: lambda p, name: _("Touch the pile to discard {card}, or a meld to lay it off").format(
        card=card_name(p["card"])),
    C.TOUCH_AGAIN_OR_PACK: lambda p, name: _("Touch {card} again or the discard pile to discard it").format(
        card=card_name(p["card"])),
    C.CARDS_PICKED: lambda p, name: ngettext("{n} card picked", "{n} cards picked", p["n"]).format(n=p["n"]),
    C.TOUCH_TO_PICK: lambda p, name: _("Touch a card to pick it"),
    C.NO_CONTRACT_YET: lambda p, name: _("No contract in your hand yet"),
    C.CANNOT_BUY_NOW: lambda p, name: _("You cannot buy from the discard pile now"),
    C.PICK_ONE_TO_DISCARD: lambda p, name: _("Pick one card, then touch the discard pile to discard it"),
    C.PICK_ONE_TO_LAY_OFF: lambda p, name: _("Pick one card, then touch a meld to lay it off"),
    C.LOOK_AT_NEW_CARDS: lambda p, name: _("New cards: look at them first, BUY opens in a moment"),
    # real cards
    C.REAL_UPCARD_OFFER: lambda p, name: _("Your turn: DRAW takes the {card}, KNOCK passes").format(
        card=card_name(p["card"])),
    C.REAL_FORCED_DRAW: lambda p, name: _("Both passed: draw a card from the shoe"),
    C.REAL_DRAW_OR_TAKE: lambda p, name: _("Your turn: draw from the shoe, or DRAW to take the {card}").format(
        card=card_name(p["card"])),
    C.REAL_DISCARD_OR_KNOCK: lambda p, name: _("Push your discard through the slot, or KNOCK first"),
    C.REAL_KNOCK_DISCARD: lambda p, name: _("Knock: push your discard face down through the slot"),
    C.REAL_TAKE_KNOCK_DISCARD: lambda p, name: _("Take the card, then push the card you knock with through the slot"),
    C.REAL_LAST_CARD: lambda p, name: _("Last card: KNOCK to take the {card} and knock, DRAW to decline").format(
        card=card_name(p["card"])),
    C.REAL_KNOCK_REVIEW: lambda p, name: _("Illegal knock: KNOCK accepts it, DRAW refuses it"),
    C.REAL_LAY_OFF: lambda p, name: _("Lay off: KNOCK lays off the card shown, DRAW when done"),
    C.REAL_DRAW_FROM_SHOE: lambda p, name: _("Your turn: draw a card from the shoe"),
    C.REAL_DRAW_OR_TAKE_PACK: lambda p, name: _("Your turn: draw from the shoe, or DRAW to take the {card}").format(
        card=card_name(p["card"])),
    C.REAL_DRAW_TAKE_OR_BUY: lambda p, name: _(
        "Your turn: draw from the shoe, DRAW to take the {card}, or BUY it with cards from the "
        "shoe (your turn ends)").format(card=card_name(p["card"])),
    C.REAL_CAN_MELD: lambda p, name: _("You can lay your contract: KNOCK"),
    C.REAL_SLOT_DISCARD: lambda p, name: _("Push your discard through the slot (KNOCK lays off the card shown)"),
    C.REAL_HOW_MANY: lambda p, name: _("DRAW takes one card of the pack, KNOCK every card you may"),
}


def illegal_warning_text(p: Any) -> str:
    """The warning before an illegal knock (G-8.3): the count, the limit and the penalty."""
    if p["penalty"] == IllegalKnock.OPPONENT_OPTION:
        return _("Illegal knock ({count} over {limit}): your opponent may accept it, or refuse it and your hand "
                 "is shown until you knock").format(count=p["count"], limit=p["limit"])
    return _("Illegal knock ({count} over {limit}): your hand is shown and you must knock when you can").format(
        count=p["count"], limit=p["limit"])


#: hints that tell what a hand holds (its deadwood against the knock limit): said of a
#: face-down hand, they say only how to look (docs/privacy.md, issue 28)
HAND_HINTS = frozenset({C.NO_KNOCK_YET, C.NO_KNOCK_WITH, C.ILLEGAL_KNOCK_WARNING})


def hint_text(hint: Hint | None, name: Callable[[int], str], *, hidden: bool = False) -> str:
    """``hint`` in the table's language ("" for None); ``hidden``: it is said of a face-down
    hand, so a hint of :data:`HAND_HINTS` says only how to look."""
    if hint is None:
        return ""
    if hidden and hint.code in HAND_HINTS:
        return _WORDS[C.HOLD_TO_LOOK]({}, name)
    return _WORDS[hint.code](hint.params, name)
