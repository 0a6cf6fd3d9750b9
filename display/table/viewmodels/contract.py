"""View-models of the contract table (pygame-free): a seat's panel (its top lines apart,
they change on their own), the centre, and the hand tray of the seat in turn."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from display.table.contract_text import ASK_WORD, deal_title, points_text
from display.table.gin_text import card_name
from display.table.i18n import _, ngettext
from display.table.viewmodels import Box, ButtonVM, Place
from rummy.cards import SUITS, Card
from rummy.contract.state import TURN


@dataclass(frozen=True)
class WordsVM:
    """A panel's top lines: name (✓ once the contract is down), cards and points, status."""

    place: Place
    name: str
    info: str
    status: str
    warn: bool  # a flash or a question to answer: the status in the warning colour
    active: bool  # the seat to act: a lit panel and a gold frame
    asked: bool  # asked "Можно?": the frame in the warning colour


@dataclass(frozen=True)
class ContractHandVM:
    """A seat's cards as shown: ``order`` (hand indices in display order), underlined
    groups (start, length in ``order``), the suggested contract's indices, picked ones."""

    cards: tuple[Card, ...]
    order: tuple[int, ...]
    groups: tuple[tuple[int, int], ...]
    suggested: frozenset[int]
    picked: tuple[int, ...]
    up: bool
    four_colour: bool


@dataclass(frozen=True)
class ContractPanelVM:
    """What a seat's panel shows apart from its top lines' words (their colours included)
    and, in a wide panel, its button column (:class:`ButtonsVM`, repainted on its own)."""

    place: Place
    touch: int
    reserve: int  # room kept for buttons: columns (wide panel) or rows (tall side panel)
    hand: ContractHandVM
    active: bool
    asked: bool
    buttons: tuple[ButtonVM, ...]  # a tall panel's buttons (drawn with it); () in a wide one


@dataclass(frozen=True)
class ButtonsVM:
    """A wide panel's button column (a human seat always keeps it, so the hand never
    moves under a finger)."""

    place: Place
    touch: int
    reserve: int
    active: bool
    asked: bool
    buttons: tuple[ButtonVM, ...]


@dataclass(frozen=True)
class TrayVM:
    """The seat in turn's cards again, big, in the table's middle (small screens)."""

    place: Place  # the tray, turned like the seat's panel
    rest: Box  # the middle it leaves
    rects: tuple[Box, ...]  # upright, in the tray's coordinates, display order
    hand: ContractHandVM


@dataclass(frozen=True)
class OwnerMelds:
    name: str
    in_turn: bool
    melds: tuple[tuple[int, tuple[Card, ...]], ...]  # (meld id, cards)


@dataclass(frozen=True)
class ContractCentreVM:
    """The middle: the deal's contract, stock and pack, the melds by owner, the question
    being asked (C-8.3) or the last move, and the tray when there is one."""

    area: Box
    title: str
    stock: int
    pack: int
    top: Card | None
    pile_outline: str  # "" | "hint" (the pack may be taken) | "select" (a card is asked for)
    melds: tuple[OwnerMelds, ...]
    ask_text: str  # "" when nobody asks
    centre_msg: str
    recent: tuple[str, ...]  # the last moves, oldest first (the last is centre_msg)
    four_colour: bool
    u: float  # the screen's scale unit
    touch: int
    tray: TrayVM | None


def order(cards: tuple[Card, ...], groups: list[list[int]], suggestion: Any) -> tuple[
        tuple[int, ...], tuple[tuple[int, int], ...], frozenset[int]]:
    """Display order of hand indices, underlined groups (start, length), suggested indices.

    The player's own groups first, then the table's suggested contract (C-3; ``suggestion``
    is the legal ``meld`` action or None), then the rest by suit and rank.
    """
    used: set[int] = set()
    out: list[int] = []
    spans: list[tuple[int, int]] = []
    for g in groups:
        spans.append((len(out), len(g)))
        out += g
        used.update(g)
    suggested: set[int] = set()
    if not groups and suggestion is not None and suggestion.melds:
        for meld in suggestion.melds:
            idx: list[int] = []
            for c in meld:
                j = next((k for k in range(len(cards)) if cards[k] == c and k not in used and k not in idx), None)
                if j is not None:
                    idx.append(j)
            spans.append((len(out), len(idx)))
            out += idx
            used.update(idx)
            suggested.update(idx)
    rest = sorted((k for k in range(len(cards)) if k not in used),
                  key=lambda k: (SUITS.index(cards[k].suit), cards[k].rank))
    return tuple(out + rest), tuple(spans), frozenset(suggested)


def hand(cards: tuple[Card, ...], *, picked: list[int], groups: list[list[int]], up: bool, suggestion: Any,
         four_colour: bool) -> ContractHandVM:
    """A seat's hand as shown (``picked`` and ``groups``: hand indices the player picked and
    grouped; face down: in hand order, nothing picked)."""
    if up:
        o, spans, suggested = order(cards, groups, suggestion)
        return ContractHandVM(cards, o, spans, suggested, tuple(picked), True, four_colour)
    return ContractHandVM(cards, tuple(range(len(cards))), (), frozenset(), (), False, four_colour)


def words(match: Any, seat: int, place: Place, *, flash: str, hint: str, asking: tuple[int, int, Card] | None,
          countdown: int | None, width: int) -> WordsVM:
    """The top lines of ``seat``'s panel (``flash``: a message for him; ``countdown``:
    seconds left to answer; ``width``: the panel's upright width)."""
    st = match.state
    asked_here = asking is not None and asking[1] == seat
    active = seat in match.to_act() and (st.phase != TURN or seat == st.turn) or asked_here
    down = st.contract_down[seat] if st.contract_down else False
    name = ("✓ " if down else "") + match.name(seat)  # ✓: the contract is down
    count = len(st.hands[seat]) if st.hands else 0
    info = ngettext("{n} card", "{n} cards", count).format(n=count) + " · " + points_text(st.scores[seat])
    if st.dealer == seat and st.deal_number:
        info = _("dealer") + " · " + info
    status = flash or hint
    if asked_here and match.is_human(seat) and not flash and countdown is not None:
        status = _("{text} · DRAW = yes · KNOCK = no · {n} s").format(text=status, n=countdown)
        if width < 600:  # the buttons are short: what each answer does goes here (C-8.4)
            status = _("DRAW = yes · KNOCK = no: you buy it, your turn ends · {n} s").format(n=countdown)
    return WordsVM(place, name, info, status, bool(flash) or asked_here, active, asked_here)


def centre(match: Any, area: Box, *, asking: tuple[int, int, Card] | None, countdown: int | None,
           pile_hint: bool, centre_msg: str, four_colour: bool, u: float, touch: int,
           tray: TrayVM | None, recent: tuple[str, ...] = ()) -> ContractCentreVM:
    """The middle of the table (``countdown``: seconds left for a human to answer)."""
    st = match.state
    owners = [s for s in range(len(match.seats)) if any(m.owner == s for m in st.table_melds)]
    melds = tuple(OwnerMelds(match.name(o), o == st.turn,
                             tuple((m.id, tuple(m.cards)) for m in st.table_melds if m.owner == o)) for o in owners)
    ask_text = ""
    if asking is not None:
        asker, asked, card = asking
        ask_text = _("{asker} asks {asked}: “{ask}” {card}").format(
            asker=match.name(asker), asked=match.name(asked), ask=ASK_WORD, card=card_name(card))
        if countdown is not None:
            ask_text += "  · " + _("{n} s").format(n=countdown)
    return ContractCentreVM(
        area=area, title=deal_title(st), stock=len(st.stock), pack=len(st.discard_pile),
        top=st.top.card if st.top is not None else None,
        pile_outline="select" if asking else ("hint" if pile_hint else ""), melds=melds, ask_text=ask_text,
        centre_msg=centre_msg, recent=recent or ((centre_msg,) if centre_msg else ()), four_colour=four_colour, u=u,
        touch=touch, tray=tray)
