"""Frozen state of a contract rummy match (one value per moment; never mutated).

Conventions: seats are 0..n-1 and play passes to the left = seat + 1 (C-4).
``stock[0]`` is the top of the stock; ``discard_pile[-1]`` is the top of the open pack.
In read mode (``ContractState.read``, dealt by ``deal_read``) the stock's order is unknown:
``stock`` holds the cards it can hold, sorted, and every stock card is read (issue 10).
"""

from __future__ import annotations

from dataclasses import dataclass

from rummy.cards import Card
from rummy.contract.kinds import Phase
from rummy.contract.rules import Contract, ContractRules

# Phases (the enum lives in ``rummy.contract.kinds``; these names stay for importers)
DEAL = Phase.DEAL
TURN = Phase.TURN
ASK = Phase.ASK
TAKE = Phase.TAKE
PLAY = Phase.PLAY
PENALTY = Phase.PENALTY
OVER = Phase.OVER


@dataclass(frozen=True, slots=True)
class PileCard:
    """A card in the open pack and who discarded it (``None``: the initial upcard, C-4.4)."""

    card: Card
    discarder: int | None


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A group on the table: ``id`` is what ``lay_off`` targets; ``kind`` set/sequence."""

    id: int
    owner: int
    kind: str
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class BuyState:
    """A pending purchase of the top pack card (C-8, C-9).

    In phase ``ask``: ``asker`` asked "Можно?" and ``asked`` must answer; ``requests``
    holds every seat that pressed BUY for this card (the nearest one is the asker, C-8.8).
    In phase ``take``: ``buyer`` chooses how many pack cards to take; ``first_free`` is
    true for the player in turn (C-8.2, C-8.4); ``granted`` for a permitted asker.
    """

    card: Card
    discarder: int | None
    asker: int | None = None
    asked: int | None = None
    requests: frozenset[int] = frozenset()
    permitted: tuple[int, ...] = ()  # seats that answered "Можно", in order
    buyer: int | None = None
    first_free: bool = False
    granted: bool = False
    max_cards: int = 1
    # read mode, phase ``penalty``: the buy is made, its stock cards come out of the shoe
    how: str = ""  # in_turn | granted | refused
    taken: tuple[Card, ...] = ()  # the pack cards taken, top first (already in the hand)
    due: int = 0  # stock cards the buy costs (C-8.2, C-8.4, C-8.5)
    drawn: tuple[Card, ...] = ()  # stock cards read so far
    refill: tuple[Card, ...] | None = None  # the cards put back into the shoe during it (C-10)


@dataclass(frozen=True, slots=True)
class DealResult:
    """How one deal ended (C-7): ``points`` per seat for this deal."""

    deal_number: int
    finisher: int | None
    points: tuple[int, ...]


class DealFacts:
    """What the state and every view derive alike from the rules, the deal and the pack."""

    __slots__ = ()
    rules: ContractRules
    deal_number: int
    discard_pile: tuple[PileCard, ...]

    @property
    def contract(self) -> Contract | None:
        """The contract of the current deal (C-3), None between matches."""
        if 1 <= self.deal_number <= self.rules.deals:
            return self.rules.contracts[self.deal_number - 1]
        return None

    @property
    def last_deal(self) -> bool:
        """The last deal, where the last card must be laid off (C-6.3)."""
        return self.deal_number == self.rules.deals

    @property
    def top(self) -> PileCard | None:
        """The open pack's top card, or None when the pack is empty."""
        return self.discard_pile[-1] if self.discard_pile else None


@dataclass(frozen=True, slots=True)
class ContractState(DealFacts):
    """The whole match. ``deal_number`` is 1..5 (0 before the first deal)."""

    rules: ContractRules
    seats: int
    first_dealer: int
    deal_number: int
    dealer: int
    phase: Phase
    turn: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    discard_pile: tuple[PileCard, ...]
    table_melds: tuple[TableMeld, ...]
    contract_down: tuple[bool, ...]
    contract_groups: tuple[int, ...]  # contract groups laid so far this deal, per seat
    scores: tuple[int, ...]
    results: tuple[DealResult, ...] = ()
    buy: BuyState | None = None
    declined: frozenset[int] = frozenset()  # seats that passed on asking in this window
    taken_card: Card | None = None  # the pack card the player in turn took this turn (C-5.3)
    melded_this_turn: bool = False
    stock_only: bool = False  # after_buy_turn = resume: N must draw from the stock (C-15.1)
    refills_used: int = 0
    buys: tuple[int, ...] = ()  # buys per seat this deal (C-8.7 max_buys_per_deal)
    next_meld_id: int = 1
    deal_seed: int = 0  # from the deal's card order; seeds the refill shuffle (C-10.1)
    turns_started: int = 0  # how many turns began this deal (for views and tests)
    read: bool = False  # read mode: the stock's order is unknown, each stock card is read
    before_deal: ContractState | None = None  # while a deal is in play: the state before it

    def left(self, seat: int) -> int:
        return (seat + 1) % self.seats

    def meld(self, meld_id: int) -> TableMeld | None:
        for m in self.table_melds:
            if m.id == meld_id:
                return m
        return None

    def card_count(self) -> int:
        """Every card of the match: hands + stock + pack + table (C-13: always 104)."""
        return (
            sum(len(h) for h in self.hands)
            + len(self.stock)
            + len(self.discard_pile)
            + sum(len(m.cards) for m in self.table_melds)
        )


@dataclass(frozen=True, slots=True)
class ContractView(DealFacts):
    """What one seat (or the public, ``seat=None``) may see: other hands and the stock hidden."""

    seat: int | None
    rules: ContractRules
    deal_number: int
    dealer: int
    phase: Phase
    turn: int
    hand: tuple[Card, ...] | None
    hand_sizes: tuple[int, ...]
    stock_size: int
    discard_pile: tuple[PileCard, ...]
    table_melds: tuple[TableMeld, ...]
    contract_down: tuple[bool, ...]
    scores: tuple[int, ...]
    results: tuple[DealResult, ...]
    buy: BuyState | None
    buys: tuple[int, ...]
    taken_card: Card | None
    melded_this_turn: bool
    stock_only: bool
    turns_started: int = 0  # turns begun in this deal
    read: bool = False  # read mode (issue 10): the cards come out of the shoe
