"""Deck maps: which tag UID is on which card, one file per physical deck.

File format (UTF-8 text, ``#`` starts a comment)::

    # rummy-table deck map
    # deck: red-1
    04A1B2C3D4E5F6 AS
    04A1B2C3D4E5F7 2S

Enrolling a deck: put the shoe in ``enrol`` mode, deal the deck through it once in a
known order (default: new-deck order AS..KS, AH..KH, AD..KD, AC..KC) and feed each read
UID to :class:`Enroller`; misreads are simply re-fed, the expected card stays the same.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from device.shoe.protocol import is_uid
from rummy.cards import ALL_CARDS, Card, CardError, parse_card


class DeckMapError(ValueError):
    """A deck map file or an enrolment step is wrong; the message says where and why."""


@dataclass(frozen=True)
class DeckMap:
    """Tag UID (upper-case hex) -> card. Several physical decks merge with ``|``."""

    cards: dict[str, Card] = field(default_factory=dict)
    name: str = ""

    def get(self, uid: str) -> Card | None:
        return self.cards.get(uid.upper())

    def __len__(self) -> int:
        return len(self.cards)

    def __or__(self, other: DeckMap) -> DeckMap:
        clash = sorted(set(self.cards) & set(other.cards))
        if clash:
            raise DeckMapError(
                f"decks {self.name!r} and {other.name!r} share tag {clash[0]} "
                f"({len(clash)} shared tags): a tag must be on one card only"
            )
        name = "+".join(n for n in (self.name, other.name) if n)
        return DeckMap({**self.cards, **other.cards}, name)

    def text(self) -> str:
        lines = ["# rummy-table deck map", f"# deck: {self.name}"]
        lines += [f"{uid} {card}" for uid, card in self.cards.items()]
        return "\n".join(lines) + "\n"

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write atomically (temporary file, fsync, rename)."""
        path = Path(path)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(self.text())
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    @classmethod
    def parse(cls, text: str, *, source: str = "deck map") -> DeckMap:
        """Parse the file text; DeckMapError lists every bad line."""
        cards: dict[str, Card] = {}
        seen: dict[Card, int] = {}
        name = ""
        errors: list[str] = []
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if line.startswith("#"):
                if line[1:].strip().lower().startswith("deck:"):
                    name = line[1:].strip()[5:].strip()
                continue
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            if len(parts) != 2:
                errors.append(f"{source}:{number}: expected 'UID CARD', got {raw.strip()!r}")
                continue
            uid, card_text = parts[0].upper(), parts[1]
            if not is_uid(uid):
                errors.append(f"{source}:{number}: {parts[0]!r} is not a tag UID (8-20 hex digits)")
                continue
            try:
                card = parse_card(card_text)
            except CardError as exc:
                errors.append(f"{source}:{number}: {exc}")
                continue
            if uid in cards:
                errors.append(f"{source}:{number}: tag {uid} is listed twice")
                continue
            if card in seen:
                errors.append(f"{source}:{number}: {card} is already on line {seen[card]}")
                continue
            cards[uid] = card
            seen[card] = number
        if errors:
            raise DeckMapError("; ".join(errors))
        return cls(cards, name)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> DeckMap:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise DeckMapError(f"cannot read deck map {str(path)!r}: {exc}") from exc
        return cls.parse(text, source=str(path))

    @classmethod
    def load_many(cls, paths: Iterable[str | os.PathLike[str]]) -> DeckMap:
        result = cls()
        for path in paths:
            result = result | cls.load(path)
        return result

    @classmethod
    def simulated(cls, decks: int = 1) -> DeckMap:
        """The map of the simulated shoe's decks (see :func:`sim_uid`)."""
        result = cls()
        for deck in range(decks):
            result = result | cls({sim_uid(c, deck): c for c in ALL_CARDS}, f"sim-{deck}")
        return result


def sim_uid(card: Card, deck: int = 0) -> str:
    """A stable 7-byte NTAG-like UID for ``card`` in simulated deck ``deck``."""
    mixed = ((deck * 52 + card.index + 1) * 2654435761) % (1 << 24)
    return f"04{deck:02X}{card.index:02X}{mixed:06X}A0"


class Enroller:
    """Builds a deck map from UIDs read while a deck is dealt in a known order."""

    def __init__(self, order: Sequence[Card] | None = None, *, name: str = "") -> None:
        self.order = list(ALL_CARDS if order is None else order)
        self.name = name
        self.cards: dict[str, Card] = {}

    @property
    def expected(self) -> Card | None:
        """The card that should pass the shoe next (None when done)."""
        done = len(self.cards)
        return self.order[done] if done < len(self.order) else None

    @property
    def done(self) -> bool:
        return self.expected is None

    def add(self, uid: str) -> Card:
        """Record ``uid`` as the expected card; DeckMapError if it cannot be."""
        uid = uid.upper()
        card = self.expected
        if card is None:
            raise DeckMapError("the deck is complete: no more cards to enrol")
        if not is_uid(uid):
            raise DeckMapError(f"{uid!r} is not a tag UID")
        if uid in self.cards:
            raise DeckMapError(
                f"tag {uid} was already enrolled as {self.cards[uid]}: "
                f"deal {card} (the shoe read the same card twice)"
            )
        self.cards[uid] = card
        return card

    def undo(self) -> Card | None:
        """Forget the last enrolled card (the dealer fed the wrong one)."""
        if not self.cards:
            return None
        uid = next(reversed(self.cards))
        return self.cards.pop(uid)

    def result(self) -> DeckMap:
        if not self.done:
            raise DeckMapError(
                f"enrolment incomplete: {len(self.cards)} of {len(self.order)} cards read, "
                f"next is {self.expected}"
            )
        return DeckMap(dict(self.cards), self.name)
