"""What a seat can call, and what a call comes to: the vocabulary of the table controller.

A *call* is one input of a seat: an arcade button press (DRAW / KNOCK / BUY), a touch on a
named target (the stock, the discard pile, one of his cards, a meld on the table) or an
on-screen button (``knock_button``, ``meld_button``, the answer buttons …). A game's
controller turns a call into an :data:`Outcome`:

* :class:`Submit` — an engine action (taken from ``legal_actions``, or ``judged=True``: the
  player's own arrangement or an illegal knock, which only the engine can judge);
* :class:`Change` — a change of the seat's input state (picked cards, knock mode …);
* :class:`Say` — nothing changes; the display words the hint (why not, what to do);
* :data:`NOTHING` — nothing at all (a computer's button, a touch nobody may make now).

Hints are codes with data (:class:`Hint`); the display words them (``display.table.hint_text``).
No pygame here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rummy.actions import Action

#: the call vocabulary, re-exported as it is by :mod:`display.table.controller`
__all__ = ["BUTTONS", "DISCARD_FLASHES", "NOTHING", "PANEL_BUTTONS", "Call", "Change", "Hint", "HintCode", "Lamp",
           "Nothing", "Outcome", "Say", "ScreenButton", "Submit", "lamp_lit"]


class Call(StrEnum):
    """Every call a seat can make. The first three are the arcade buttons (with lamps)."""

    DRAW = "draw"
    KNOCK = "knock"
    BUY = "buy"
    # touches on the table (the touching seat is the one to act, except for his own cards)
    STOCK = "stock"
    DISCARD_PILE = "discard_pile"
    CARD = "card"  # arg: the card (gin) or the hand index (contract)
    TABLE_MELD = "table_meld"  # arg: the meld id (contract lay-off target)
    # the seat's own panel
    PANEL = "panel"  # a tap on it
    HOLD = "hold"  # holding it (or one of its cards): says how to look (a touch shows no hand)
    # on-screen buttons in the seat's panel
    TAKE_BUTTON = "take_button"  # gin: take the upcard / the discard
    PASS_BUTTON = "pass_button"
    DRAW_BUTTON = "draw_button"
    KNOCK_BUTTON = "knock_button"
    BIG_GIN_BUTTON = "big_gin_button"
    TAKE_AND_KNOCK_BUTTON = "take_and_knock_button"
    DECLINE_BUTTON = "decline_button"
    ACCEPT_BUTTON = "accept_button"
    REFUSE_BUTTON = "refuse_button"
    DONE_BUTTON = "done_button"
    YES_BUTTON = "yes_button"  # "Можно" (C-8.4)
    NO_BUTTON = "no_button"  # "Нельзя"
    TAKE_CARDS_BUTTON = "take_cards_button"  # arg: how many pack cards (C-8.2, C-8.5)
    BUY_BUTTON = "buy_button"
    DISCARD_BUTTON = "discard_button"
    GROUP_BUTTON = "group_button"
    MELD_BUTTON = "meld_button"
    CLEAR_BUTTON = "clear_button"
    CANCEL_BUTTON = "cancel_button"
    # real cards (docs/real_cards.md): a card read at the shoe's exit or the discard slot
    SHOE_CARD = "shoe_card"  # arg: the card read out of the shoe
    SLOT_CARD = "slot_card"  # arg: the card read into the discard slot


#: the arcade buttons, each with a lamp that is lit exactly when its call acts
BUTTONS: tuple[Call, ...] = (Call.DRAW, Call.KNOCK, Call.BUY)

#: the on-screen buttons of a seat's panel: a touch on one cannot say who touches, so on a
#: face-down hand it does nothing but say how to look (docs/privacy.md)
PANEL_BUTTONS: frozenset[Call] = frozenset(c for c in Call if c.value.endswith("_button"))


class Lamp(StrEnum):
    """What a seat's button lamp shows (docs/buttons.md, "Lamps"): ``ON`` steady exactly when
    a tap of the button acts now; ``DISCARD`` (the "discard now" flashes) on a button whose
    tap does nothing while its seat is at his discard (the button he holds to look among
    them); ``OFF`` otherwise. A flashing lamp is never one whose call acts."""

    OFF = "off"
    ON = "on"
    DISCARD = "discard"


#: the "discard now" pattern: (on, off) pairs in seconds, repeated: two short flashes, a pause
DISCARD_FLASHES: tuple[tuple[float, float], ...] = ((0.15, 0.15), (0.15, 0.75))
_FLASH_PERIOD = sum(on + off for on, off in DISCARD_FLASHES)


def lamp_lit(lamp: Lamp, now: float) -> bool:
    """Is a lamp showing ``lamp`` lit at ``now`` (the flashes follow the table's clock, so
    every flashing lamp flashes together)?"""
    if lamp is not Lamp.DISCARD:
        return lamp is Lamp.ON
    t = now % _FLASH_PERIOD
    for on, off in DISCARD_FLASHES:
        if t < on:
            return True
        t -= on + off
        if t < 0:
            return False
    return False  # pragma: no cover - float edge at the period's end


class HintCode(StrEnum):
    """What the display tells a seat (its status line, or a short flash after a call)."""

    # anyone
    OTHER_TO_PLAY = "other_to_play"  # seat
    THINKING = "thinking"
    NOT_YOUR_TURN = "not_your_turn"  # seat (who is to act)
    WAIT = "wait"
    HOLD_TO_LOOK = "hold_to_look"  # a face-down hand touched: hold one of your buttons
    HOW_TO_LOOK = "how_to_look"  # the first turn: how to see your cards
    CANNOT_NOW = "cannot_now"
    # gin
    UPCARD_OFFER = "upcard_offer"  # card
    FORCED_DRAW = "forced_draw"
    DRAW_OR_TAKE = "draw_or_take"  # card
    KNOCK_PICK_DISCARD = "knock_pick_discard"
    TAKE_PICK_DISCARD = "take_pick_discard"
    NOW_TOUCH_KNOCK_CARD = "now_touch_knock_card"
    MUST_KNOCK = "must_knock"
    HOLD_THEN_DISCARD = "hold_then_discard"
    TOUCH_AGAIN_TO_DISCARD = "touch_again_to_discard"  # card
    DISCARD_OR_KNOCK = "discard_or_knock"
    NO_KNOCK_YET = "no_knock_yet"  # count, limit (KNOCK pressed without a legal knock, G-7.2)
    NO_KNOCK_WITH = "no_knock_with"  # card, count, limit (the knock mode on: no legal knock with that card, G-7.2)
    LOOK_TO_KNOCK = "look_to_knock"  # the knock (or take) mode on a face-down hand: look, then touch the card
    ILLEGAL_KNOCK_WARNING = "illegal_knock_warning"  # count, limit, penalty (the rules' illegal_knock, G-8.3)
    LAST_CARD = "last_card"  # card (G-13.3)
    KNOCK_REVIEW = "knock_review"  # G-8.3
    LAY_OFF = "lay_off"  # G-11.3
    # contract
    ASKED = "asked"  # asker, card (C-8.4)
    BUY_TO_ASK = "buy_to_ask"  # card (C-8.3)
    WAITING_FOR_ANSWER = "waiting_for_answer"  # seat
    IS_BUYING = "is_buying"  # seat
    HOW_MANY = "how_many"  # C-8.5
    BUY_HOW_MANY = "buy_how_many"  # C-8.2: the in-turn buy's count (stock cards come too; the turn ends)
    DRAW_FROM_STOCK = "draw_from_stock"
    DRAW_OR_TAKE_PACK = "draw_or_take_pack"  # card
    DRAW_TAKE_OR_BUY = "draw_take_or_buy"  # card (C-8.2: BUY in turn buys several pack cards)
    CAN_MELD = "can_meld"
    DISCARD_OR_LAY_OFF = "discard_or_lay_off"  # card
    TOUCH_AGAIN_OR_PACK = "touch_again_or_pack"  # card
    CARDS_PICKED = "cards_picked"  # n
    TOUCH_TO_PICK = "touch_to_pick"
    NO_CONTRACT_YET = "no_contract_yet"
    CANNOT_BUY_NOW = "cannot_buy_now"  # the player in turn (C-8.2)
    PICK_ONE_TO_DISCARD = "pick_one_to_discard"
    PICK_ONE_TO_LAY_OFF = "pick_one_to_lay_off"
    LOOK_AT_NEW_CARDS = "look_at_new_cards"  # just dealt: BUY in a moment
    # real cards: the readers and the arcade buttons (no touch plays a card, no hand on screen)
    REAL_UPCARD_OFFER = "real_upcard_offer"  # card (G-4)
    REAL_FORCED_DRAW = "real_forced_draw"  # G-4.4
    REAL_DRAW_OR_TAKE = "real_draw_or_take"  # card (G-5.1)
    REAL_DISCARD_OR_KNOCK = "real_discard_or_knock"  # G-5.2, G-7
    REAL_KNOCK_DISCARD = "real_knock_discard"  # after KNOCK: the discard face down (G-7.3)
    REAL_TAKE_KNOCK_DISCARD = "real_take_knock_discard"  # G-13.3
    REAL_LAST_CARD = "real_last_card"  # card (G-13.3)
    REAL_KNOCK_REVIEW = "real_knock_review"  # G-8.3
    REAL_LAY_OFF = "real_lay_off"  # G-11.3
    REAL_DRAW_FROM_SHOE = "real_draw_from_shoe"  # C-5.1
    REAL_DRAW_OR_TAKE_PACK = "real_draw_or_take_pack"  # card (C-5.1)
    REAL_DRAW_TAKE_OR_BUY = "real_draw_take_or_buy"  # card (C-8.2)
    REAL_CAN_MELD = "real_can_meld"  # C-3
    REAL_SLOT_DISCARD = "real_slot_discard"  # C-5.2, C-5.3
    REAL_HOW_MANY = "real_how_many"  # C-8.5


@dataclass(frozen=True)
class Hint:
    """A hint code and its data (seats as numbers, cards as :class:`rummy.cards.Card`)."""

    code: HintCode
    params: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, code: HintCode, **params: Any) -> Hint:
        return cls(code, params)

    def __hash__(self) -> int:  # params is a plain dict: hash what it holds
        return hash((self.code, tuple(sorted(self.params.items(), key=lambda kv: kv[0]))))


@dataclass(frozen=True)
class Submit:
    """Send ``action`` to the engine. ``judged``: not from ``legal_actions`` (the engine
    decides, e.g. an illegal knock under G-8 or the player's own groups under C-3)."""

    action: Action
    judged: bool = False


@dataclass(frozen=True)
class Change:
    """The seat's input state becomes ``input``; ``hint`` is said with it (may be None)."""

    input: Any
    hint: Hint | None = None


@dataclass(frozen=True)
class Say:
    """Nothing changes; the display says ``hint``."""

    hint: Hint


@dataclass(frozen=True)
class Nothing:
    """Nothing happens and nothing is said."""


NOTHING = Nothing()

Outcome = Submit | Change | Say | Nothing


@dataclass(frozen=True)
class ScreenButton:
    """An on-screen button a seat's panel offers now: the call it makes (with ``arg``), and
    ``hot`` for the one the seat most likely wants. The display labels it by its call."""

    call: Call
    hot: bool = False
    arg: Any = None
