"""Words for contract rummy: the contract of a deal, what just happened, what a seat may do.

The engine emits data, never sentences; this module turns them into translated text.
"""

from __future__ import annotations

from typing import Any

from display.gin_text import card_name, cards_line
from display.i18n import N_, _, ngettext
from rummy.contract.state import ASK, PLAY, TAKE, TURN

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

YES = "Можно"  # C-8.4: the answers keep the seed's words in every language
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


def event_text(match: Any, ev: Any) -> str:
    """One line for the centre of the table about an engine event ("" when not worth saying)."""
    d = ev.data
    k = ev.kind
    seats = len(match.seats)
    name = match.name(ev.seat) if 0 <= ev.seat < seats else ""
    if k == "dealt":
        return _("{name} dealt {n} cards each. The upcard is {card}.").format(
            name=match.name(d["dealer"]), n=d["cards_each"], card=card_name(d["upcard"]))
    if k == "drew_stock":
        return _("{name} drew from the stock").format(name=name)
    if k == "took_discard":
        return _("{name} took {card} from the pack").format(name=name, card=card_name(d["card"]))
    if k == "asked_to_buy":
        return _("{name} asks “{ask}” for {card}").format(name=name, ask=ASK_WORD, card=card_name(d["card"]))
    if k == "answered":
        word = YES if d.get("flag") else NO
        return _("{name} answers “{word}”").format(name=name, word=word)
    if k == "bought":
        cards = d.get("cards") or []
        extra = len(d.get("penalty_cards") or [])
        return _("{name} bought {cards} (+{n} from the stock)").format(
            name=name, cards=cards_line(cards), n=extra)
    if k == "passed_on_buy":
        return _("{name} does not buy {card}").format(name=name, card=card_name(d["card"]))
    if k == "melded":
        return _("{name} laid the contract").format(name=name)
    if k == "laid_off":
        return _("{name} laid off {card}").format(name=name, card=card_name(d["card"]))
    if k == "discarded":
        return _("{name} discarded {card}").format(name=name, card=card_name(d["card"]))
    if k == "went_out":
        return _("{name} went out!").format(name=name)
    if k == "stock_refilled":
        return _("The pack was turned over to make a new stock")
    if k == "stock_exhausted":
        return _("The stock ran out: the deal ends with no finisher")
    if k == "turn_started" and d.get("skipped"):
        skipped = [match.name(s) for s in d["skipped"] if 0 <= s < seats and s != ev.seat]
        if not skipped:
            return ""
        return _("After the buy {names} lose their turn").format(names=", ".join(skipped))
    return ""


def phase_hint(scene: Any, seat: int) -> str:
    """What ``seat`` may do now, in words (the status line of his panel)."""
    m = scene.m
    st = m.state
    if st.phase not in (TURN, ASK, TAKE, PLAY):
        return ""
    to_act = m.to_act()
    kinds = {a.kind for a in scene.legal(seat)}
    if st.phase == ASK and st.buy is not None and st.buy.asked == seat:
        if not m.is_human(seat):
            return _("Thinking…")
        return _("{name} asks “{ask}” for {card}").format(
            name=m.name(st.buy.asker), ask=ASK_WORD, card=card_name(st.buy.card))
    if "buy" in kinds and seat != st.turn:
        return _("BUY to ask “{ask}” for {card}").format(ask=ASK_WORD, card=card_name(st.top.card))
    if seat not in to_act:
        if st.phase == ASK and st.buy is not None:
            return _("Waiting for {name} to answer").format(name=m.name(st.buy.asked))
        if st.phase == TAKE and st.buy is not None:
            return _("{name} is buying").format(name=m.name(st.buy.buyer))
        return _("{name} to play").format(name=m.name(st.turn))
    if not m.is_human(seat):
        return _("Thinking…")
    if st.phase == TAKE:
        return _("How many cards from the pack?")
    if st.phase == TURN:
        if st.stock_only:
            return _("Your turn: DRAW from the stock")
        if "draw_discard" in kinds:
            return _("Your turn: DRAW or take {card}").format(card=card_name(st.top.card))
        return _("Your turn: DRAW from the stock")
    if st.phase == PLAY:
        if not scene.face_up(seat):
            return _("Hold your cards to look at them")
        sel = scene.selected_cards(seat)
        if "meld" in kinds and not sel:
            return _("You can lay your contract: MELD")
        if len(sel) == 1:
            if "lay_off" in kinds:
                return _("Touch the pack to discard {card}, or a meld to lay it off").format(
                    card=card_name(sel[0]))
            return _("Touch {card} again or the pack to discard it").format(card=card_name(sel[0]))
        if len(sel) > 1:
            return ngettext("{n} card picked", "{n} cards picked", len(sel)).format(n=len(sel))
        return _("Touch a card to pick it")
    return ""
