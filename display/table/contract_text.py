"""Words for contract rummy: the contract of a deal, what just happened, what a seat may do.

The engine emits data, never sentences; this module turns them into translated text.
"""

from __future__ import annotations

from typing import Any

from display.table.gin_text import card_name, cards_line, event_line
from display.table.i18n import N_, _, ngettext
from rummy.contract.kinds import EventKind as E

# C-3: the seed's five contracts in words; anything else is spelled with counts.
CONTRACT_WORDS: dict[tuple[int, int], str] = {
    (2, 0): N_("two sets"),
    (1, 1): N_("one set and one sequence"),
    (0, 2): N_("two sequences"),
    (3, 0): N_("three sets"),
    (2, 1): N_("two sets and one sequence"),
    (1, 0): N_("one set"),
    (0, 1): N_("one sequence"),
}

YES = "Можно"  # C-8.4: the seed's words (the table says the answers in its own language)
NO = "Нельзя"
ASK_WORD = "Можно?"


def contract_words(contract: Any) -> str:
    """``Contract(sets=0, sequences=2)`` -> "two sequences" (translated)."""
    if contract is None:
        return ""
    key = (contract.sets, contract.sequences)
    if key in CONTRACT_WORDS:
        return _(CONTRACT_WORDS[key])
    parts = []
    if contract.sets:
        parts.append(ngettext("{n} set", "{n} sets", contract.sets).format(n=contract.sets))
    if contract.sequences:
        parts.append(ngettext("{n} sequence", "{n} sequences", contract.sequences).format(
            n=contract.sequences))
    return " + ".join(parts)


def deal_title(state: Any) -> str:
    """"Deal 3 of 5: two sequences" (C-3)."""
    if not state.deal_number:
        return _("Contract rummy")
    return _("Deal {n} of {total}: {contract}").format(
        n=state.deal_number, total=state.rules.deals, contract=contract_words(state.contract))


def points_text(n: int) -> str:
    return ngettext("{n} point", "{n} points", abs(n)).format(n=n)


# events said with the seat's name and the event's card alone
EVENT_WORDS: dict[str, str] = {
    E.DREW_STOCK: N_("{name} drew from the stock"),
    E.TOOK_DISCARD: N_("{name} took {card} from the discard pile"),
    E.PASSED_ON_BUY: N_("{name} does not buy {card}"),
    E.MELDED: N_("{name} laid the contract"),
    E.LAID_OFF: N_("{name} laid off {card}"),
    E.DISCARDED: N_("{name} discarded {card}"),
    E.WENT_OUT: N_("{name} went out!"),
    E.STOCK_REFILLED: N_("The discard pile was turned over to make a new stock"),
    E.STOCK_EXHAUSTED: N_("The stock ran out: the deal ends with no finisher"),
}


def event_text(match: Any, ev: Any) -> str:
    """One line for the centre of the table about an engine event ("" when not worth saying)."""
    d = ev.data
    k = ev.kind
    seats = len(match.seats)
    name = match.name(ev.seat) if 0 <= ev.seat < seats else ""
    if k == E.DEALT:
        return _("{name} dealt {n} cards each. The upcard is {card}.").format(
            name=match.name(d["dealer"]), n=d["cards_each"], card=card_name(d["upcard"]))
    if k == E.ASKED_TO_BUY:
        return _("{name} asks “{ask}” for {card}").format(name=name, ask=ASK_WORD, card=card_name(d["card"]))
    if k == E.ANSWERED:
        if d.get("flag"):  # C-8.4 in the table's language: what the answer does
            return _("{name} answers yes: the asker takes it").format(name=name)
        return _("{name} answers no and buys it").format(name=name)
    if k == E.BOUGHT:
        cards = d.get("cards") or []
        extra = len(d.get("penalty_cards") or [])
        if not extra:  # the asked player's own buy (C-8.4), or no stock left: no "+0"
            return _("{name} bought {cards}").format(name=name, cards=cards_line(cards))
        return _("{name} bought {cards} (+{n} from the stock)").format(
            name=name, cards=cards_line(cards), n=extra)
    if k == E.TURN_STARTED and d.get("skipped"):
        skipped = [match.name(s) for s in d["skipped"] if 0 <= s < seats and s != ev.seat]
        if not skipped:
            return ""
        # name first, the verb agreeing with how many (one name, or several)
        return ngettext("{names} misses a turn after the buy", "{names} miss a turn after the buy",
                        len(skipped)).format(names=", ".join(skipped))
    return event_line(EVENT_WORDS.get(k), name, d)

