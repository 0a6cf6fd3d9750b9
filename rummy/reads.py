"""Cards learned as they are read out of a card shoe (issue 10): shared pieces of both games.

In *read mode* (chosen per hand by the ``deal_read`` action) the engine does not know the
stock's order: it knows how many cards the stock holds and which cards they are (the packs
less every card seen), and learns each card as the table reads it. Each game has a pure
``rummy.<game>.reads.expected(state) -> ReadNeed | None`` saying whether cards out of the
shoe are due now, for whom, why and how many; a card out of the shoe when it is ``None`` is
not due (the table asks, never guesses).

Where a card is, in refusals (``CARD_ALREADY_PLACED``, ``CARD_NOT_IN_STOCK``), is a place
code: ``hand:<seat>``, ``discard`` (the discard pile / open pack), ``set_aside`` (a refused
gin upcard, G-4.5), ``meld:<id>`` (a meld on the table). Two copies (contract's two packs)
are joined with ``+``: ``hand:1+meld:3``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from rummy.actions import TABLE
from rummy.cards import Card, new_deck


class ReadPurpose(StrEnum):
    """Why cards out of the shoe are due (``ReadNeed.purpose``)."""

    DEAL = "deal"  # the deal: ``count`` cards in the order ``ReadNeed.order`` says
    DRAW = "draw"  # the player in turn's stock draw (one card)
    BUY = "buy"  # a contract buy's stock cards (C-8.2, C-8.4, C-8.5), ``count`` still due
    REFILL = "refill"  # the shoe is empty: put ``refill`` into it first (C-10), then ``then``


@dataclass(frozen=True, slots=True)
class ReadNeed:
    """Cards out of the shoe that are due now.

    ``seat`` gets them (``TABLE`` for a deal); ``count`` is how many are due now (the whole
    deal; one draw; the stock cards of a buy still to come). For a deal ``order`` says who
    gets each card in turn (``TABLE`` = the upcard, last). For ``refill`` (C-10) ``refill``
    lists the cards that go back into the shoe (the discard pile less its top card, sorted)
    and ``then`` the purpose of the cards read after it (``draw`` or ``buy``).
    """

    purpose: ReadPurpose
    seat: int
    count: int
    order: tuple[int, ...] = ()
    refill: tuple[Card, ...] = ()
    then: ReadPurpose | None = None


def deal_order(first: int, seats: int, each: int) -> tuple[int, ...]:
    """Who gets each card of a deal: one at a time from ``first`` round the table, ``each``
    cards per seat, then the upcard (``TABLE``)."""
    return (*((first + j) % seats for j in range(seats * each)), TABLE)


def unseen(decks: int, seen: Iterable[Card]) -> tuple[Card, ...]:
    """The cards of ``decks`` packs less ``seen`` (copies counted), sorted: a stock whose
    order is unknown."""
    left = Counter(new_deck(decks))
    left.subtract(seen)
    return tuple(sorted(left.elements()))


def join_places(places: Sequence[str]) -> str:
    """One place code for several copies of a card: ``hand:1+meld:3``."""
    return "+".join(places)


def hand_place(seat: int) -> str:
    return f"hand:{seat}"


def meld_place(meld_id: int) -> str:
    return f"meld:{meld_id}"


DISCARD_PLACE = "discard"
SET_ASIDE_PLACE = "set_aside"


def split_place(place: str) -> list[tuple[str, int | None]]:
    """``hand:1+discard`` → ``[("hand", 1), ("discard", None)]`` (for the display's words)."""
    out: list[tuple[str, int | None]] = []
    for part in place.split("+"):
        name, _, number = part.partition(":")
        out.append((name, int(number) if number else None))
    return out
