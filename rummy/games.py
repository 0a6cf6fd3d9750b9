"""The interface every game engine offers, and the registry of games by name.

A game engine is a module-level object with pure functions over immutable state. The
table app, the bots, the journal replay and crash recovery all drive a game only through
this interface, so adding a game never touches them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeAlias, TypeVar

from rummy.actions import Action, Event
from rummy.outcome import MatchOutcome
from rummy.reads import ReadNeed
from rummy.registry import load

StateT = TypeVar("StateT")  # the game's frozen state (gin ``MatchState``, ``ContractState``)
RulesT = TypeVar("RulesT")  # its frozen rules (``GinRules``, ``ContractRules``)
ViewT_co = TypeVar("ViewT_co", covariant=True)  # what a seat sees (``SeatView``, ``ContractView``)


class GameEngine(Protocol[StateT, RulesT, ViewT_co]):
    """What a game offers, over its own state, rules and view types: gin's ``ENGINE`` is a
    ``GameEngine[MatchState, GinRules, SeatView]``, contract's a
    ``GameEngine[ContractState, ContractRules, ContractView]`` (mypy checks both). An
    engine looked up by name is an :data:`AnyEngine`."""

    name: str  # "gin" | "contract"

    def rules_from_dict(self, data: Mapping[str, Any]) -> RulesT:
        """Build the frozen rules value; raise ``ValueError`` naming each bad parameter."""
        ...

    def rules_to_dict(self, rules: RulesT) -> dict[str, Any]:
        """JSON-ready form of the rules, for the journal header."""
        ...

    def preset(self, name: str) -> RulesT:
        """A named rules preset."""
        ...

    def new_match(self, rules: RulesT, seats: int, *, first_dealer: int = 0) -> StateT:
        """The state before the first deal."""
        ...

    def decks_to_deal(self, state: StateT) -> int:
        """How many packs the next ``deal`` action needs, or 0 when no deal is pending.

        The driver then applies ``Action("deal", TABLE, cards=<shuffled packs>)``.
        """
        ...

    def to_act(self, state: StateT) -> Sequence[int]:
        """Seats that may act now (several while a buy is being asked, C-8/C-9)."""
        ...

    def legal_actions(self, state: StateT, seat: int) -> list[Action]:
        """Every legal action for ``seat`` (knocks with the automatic arrangement)."""
        ...

    def apply(self, state: StateT, action: Action) -> tuple[StateT, list[Event]]:
        """The next state, or ``ActionError`` with a reason a player can read."""
        ...

    def is_over(self, state: StateT) -> bool:
        """True when the match has ended."""
        ...

    def outcome(self, state: StateT, *, abandoned: bool = False) -> MatchOutcome:
        """The match's result: in progress or won (winners, totals per seat). ``abandoned``
        is the session's word that the match was given up (see :mod:`rummy.outcome`)."""
        ...

    @property
    def result_events(self) -> frozenset[str]:
        """The event kinds that are a hand's or the match's result (for records)."""
        ...

    def view(self, state: StateT, seat: int | None) -> ViewT_co:
        """What ``seat`` may see (``None``: a spectator / the public table)."""
        ...

    def describe(self, event: Event) -> str:
        """One line of English for a replay printout."""
        ...

    def player(self, level: str = "basic") -> Any:
        """A new computer player of ``level`` (a ``rummy.play.Player``; see
        ``rummy.players``)."""
        ...

    def expected(self, state: StateT) -> ReadNeed | None:
        """Real cards: the cards out of the card shoe due now (``rummy.reads.ReadNeed``:
        purpose, seat, count), or None when none is due (see ``docs/real_cards.md``)."""
        ...


# An engine chosen at run time by its name (the journal header, the seating screen): its
# state, rules and view types are the game's, unknown to the caller.
AnyEngine: TypeAlias = "GameEngine[Any, Any, Any]"


ENGINES: dict[str, str] = {
    "gin": "rummy.gin.engine:ENGINE",
    "contract": "rummy.contract.engine:ENGINE",
}


def get_engine(name: str) -> AnyEngine:
    """The engine registered under ``name`` (``"gin"`` or ``"contract"``)."""
    engine: AnyEngine = load(ENGINES, name, "game")
    return engine
