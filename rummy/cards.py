"""Playing cards: two-character text form, parsing, decks and shuffling.

A card is written as rank + suit: rank one of ``A23456789TJQK`` and suit one of ``SHDC``
(``TD`` is the ten of diamonds). Parsing accepts lower case and ``10`` for ``T``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


class CardError(ValueError):
    """Raised for text that is not a card."""


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One playing card. ``rank`` is 1 (ace) … 13 (king); ``suit`` is one of ``SHDC``.

    Ordering is by rank, then suit, which gives stable sorted hands. ``bit`` is the
    card's bit in a 64-bit card set, ``1 << (16 * suit index + rank)`` (four 16-bit suit
    fields, S H D C): a hand's set is the sum of its cards' bits (the gin solver's form).
    """

    rank: int
    suit: str
    bit: int = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13:
            raise CardError(f"rank must be 1..13, got {self.rank!r}")
        if self.suit not in SUITS:
            raise CardError(f"suit must be one of {SUITS}, got {self.suit!r}")
        object.__setattr__(self, "bit", 1 << (16 * SUITS.index(self.suit) + self.rank))

    @property
    def value(self) -> int:
        """Deadwood / penalty value: A=1, 2-10 pip value, J/Q/K=10 (G-1.2)."""
        return min(self.rank, 10)

    @property
    def index(self) -> int:
        """0..51, suit-major (S, H, D, C), ace low: a stable integer id."""
        return SUITS.index(self.suit) * 13 + self.rank - 1

    @property
    def rank_char(self) -> str:
        return RANKS[self.rank - 1]

    @property
    def rank_label(self) -> str:
        """The rank as printed on a card face (``10`` for ten)."""
        return "10" if self.rank == 10 else self.rank_char

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Card:
        return parse_card(text)

    @classmethod
    def from_index(cls, index: int) -> Card:
        return ALL_CARDS[index]


CardLike = Card | str


def parse_card(text: str | Card) -> Card:
    """Parse ``"TD"`` / ``"td"`` / ``"10D"`` into a :class:`Card`; clear error otherwise."""
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise CardError(f"a card is written like 'TD', got {text!r}")
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2:
        raise CardError(f"{text!r} is not a card: write rank + suit, e.g. 'TD' or 'AS'")
    r, s = t[0], t[1]
    if r not in RANKS:
        raise CardError(f"{text!r} is not a card: rank {r!r} is not one of {RANKS}")
    if s not in SUITS:
        raise CardError(f"{text!r} is not a card: suit {s!r} is not one of {SUITS}")
    return _BY_TEXT[r + s]


def parse_cards(text: str | Iterable[CardLike]) -> list[Card]:
    """Parse ``"AS 2S 3S"`` (spaces or commas) or an iterable of cards/strings."""
    parts: list[CardLike] = list(text.replace(",", " ").split() if isinstance(text, str) else text)
    return [parse_card(p) for p in parts]


def format_cards(cards: Iterable[Card]) -> str:
    """Inverse of :func:`parse_cards`: ``"AS 2S 3S"``."""
    return " ".join(str(c) for c in cards)


ALL_CARDS: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in range(1, 14))
_BY_TEXT = {str(c): c for c in ALL_CARDS}


def new_deck(decks: int = 1) -> list[Card]:
    """A fresh, ordered pack (or several packs for two-deck games)."""
    return list(ALL_CARDS) * decks


def shuffled_deck(rng: random.Random, decks: int = 1) -> list[Card]:
    """A uniformly shuffled pack (Fisher-Yates via ``rng.shuffle``).

    Pass ``random.Random(seed)`` for tests and replays, ``secrets.SystemRandom()`` for
    real play.
    """
    deck = new_deck(decks)
    rng.shuffle(deck)
    return deck


def sort_hand(cards: Sequence[Card]) -> list[Card]:
    """Cards sorted by suit then rank: how players like to see a hand."""
    return sorted(cards, key=lambda c: (SUITS.index(c.suit), c.rank))
