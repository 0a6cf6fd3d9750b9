"""View-models of the gin table (pygame-free): a seat's panel and the centre."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from display.table.gin_text import card_name
from display.table.i18n import _, ngettext
from display.table.viewmodels import ButtonVM, Place
from rummy.cards import Card
from rummy.gin.melds import best_discard, best_melds
from rummy.gin.rules import KnockLimitMode, MatchFormat


@dataclass(frozen=True)
class GinHandVM:
    """A seat's cards as shown: display order, face up or not, the picked card, the
    suggested discard (outlined) and melds (a gold bar over each, G-2.4)."""

    cards: tuple[Card, ...]
    up: bool
    selected: Card | None
    suggest: Card | None
    groups: tuple[tuple[int, int], ...]  # (start, length) in ``cards``
    four_colour: bool
    drawn: Card | None = None  # the card he just drew or took (marked with a gold dot)


@dataclass(frozen=True)
class GinPanelVM:
    """Everything a seat's panel shows."""

    place: Place
    touch: int
    name: str
    active: bool  # the seat to play: a lit header and a gold frame
    status: str
    warn: bool  # the status is a flash (a refusal, a hint)
    dead_text: str  # the deadwood line ("" when the hand is face down)
    hand: GinHandVM
    buttons: tuple[ButtonVM, ...]


@lru_cache(maxsize=64)
def arrangement(cards: tuple[Card, ...]) -> tuple[tuple[Card, ...], Card | None, int,
                                                   tuple[tuple[int, int], ...]]:
    """Suggested order: melds, then deadwood (G-2.4); with 11 cards the suggested discard
    last. Returns (order, suggested discard, deadwood count, meld groups)."""
    if not cards:
        return (), None, 0, ()
    suggest = None
    if len(cards) == 11:
        suggest, melds, dead = best_discard(list(cards))
    else:
        melds, dead = best_melds(list(cards))
    order: list[Card] = []
    groups = []
    for meld in melds:
        groups.append((len(order), len(meld)))
        order += sorted(meld, key=lambda c: (c.suit, c.rank))
    order += sorted(dead, key=lambda c: (c.rank, c.suit))
    if suggest is not None:
        order.append(suggest)
    return tuple(order), suggest, sum(c.value for c in dead), tuple(groups)


def gin_panel(match: Any, seat: int, place: Place, *, selected: Card | None, flash: str, up: bool, hint: str,
              buttons: tuple[ButtonVM, ...], touch: int, four_colour: bool, drawn: Card | None = None) -> GinPanelVM:
    """The panel of ``seat`` (``selected``: his picked card; ``flash``: a message for him;
    ``up``: his cards face up; ``hint``: what he may do now)."""
    h = match.state.hand
    cards = tuple(h.hands[seat]) if h is not None else ()
    dead_text = ""
    if up and cards:
        order, suggest, count, groups = arrangement(cards)
        if suggest is not None:
            dead_text = _("Deadwood {n} after discarding {card}").format(n=count, card=card_name(suggest))
        else:
            dead_text = _("Deadwood {n}").format(n=count)
    else:
        order, suggest, groups = cards, None, ()
    to_act = match.to_act()
    name = match.name(seat) + ("  · " + _("dealer") if h is not None and h.dealer == seat else "")
    return GinPanelVM(
        place=place, touch=touch, name=name, active=bool(to_act) and to_act[0] == seat,
        status=flash or hint, warn=bool(flash), dead_text=dead_text,
        hand=GinHandVM(order, up, selected if up else None, suggest, groups, four_colour,
                       drawn if up and drawn in cards else None),
        buttons=buttons)


@dataclass(frozen=True)
class GinCentreVM:
    """The middle of the gin table: the piles, the knock limit and card (G-6), the scores,
    the last move, and a banner over it all (an illegal knock, G-8)."""

    area: tuple[int, int, int, int]
    stock: int
    top: Card | None
    pile_hint: bool  # the pile may be taken now, or a discard goes there: outlined
    flat: bool  # the summary twice, each turned to the player nearest it
    limit: str
    knock_card: str
    hand_line: str
    title: str
    scores: tuple[str, ...]
    centre_msg: str
    banner: str
    four_colour: bool
    touch: int  # the smallest touch target (px)

    def info_lines(self) -> tuple[tuple[str, str, bool], ...]:
        """The summary of a flat table, one (text, ink: "gold" | "ink" | "dim", bold) a line."""
        out = [(self.limit, "gold", True)]
        if self.knock_card:
            out.append((self.knock_card, "ink", False))
        out.append((self.title, "gold", True))
        out += [(t, "ink", False) for t in self.scores]
        if self.centre_msg:
            out.append((self.centre_msg, "dim", False))
        return tuple(out)


def gin_centre(match: Any, area: tuple[int, int, int, int], *, pile_hint: bool, flat: bool, centre_msg: str,
               banner: str, four_colour: bool, touch: int) -> GinCentreVM | None:
    """The centre while a hand is dealt (None before the deal)."""
    st = match.state
    h = st.hand
    if h is None:
        return None
    limit = _("Gin only: no knocking") if h.knock_limit == 0 else _("Knock with {n} or less").format(
        n=h.knock_limit)
    knock_card = (_("Knock card: {card}").format(card=card_name(h.upcard))
                  if st.rules.knock_limit_mode is KnockLimitMode.KNOCK_CARD else "")  # G-6.2
    scores = [ngettext("{name}: {points} ({boxes} box)", "{name}: {points} ({boxes} boxes)", st.boxes[seat])
              .format(name=match.name(seat), points=st.scores[seat], boxes=st.boxes[seat]) for seat in (0, 1)]
    if st.rules.match is MatchFormat.BEST_OF:
        scores.append(_("Games won: {a} – {b}").format(a=st.games_won[0], b=st.games_won[1]))
    return GinCentreVM(
        area=area, stock=len(h.stock), top=h.top_discard, pile_hint=pile_hint, flat=flat, limit=limit,
        knock_card=knock_card, hand_line=_("Hand {n}").format(n=st.hand_number),
        title=_("Game {g} · to {t}").format(g=st.game_number, t=st.rules.game_target), scores=tuple(scores),
        centre_msg=centre_msg, banner=banner, four_colour=four_colour, touch=touch)
