"""A match's result as the engine knows it: finished or not, winners, totals, why.

``GameEngine.outcome(state)`` returns a :class:`MatchOutcome`, so records, notices and
reviews read the result instead of guessing it from event names or state attributes.

Abandonment is not a rule of either game: the session (or the operator) decides that a
match was given up. It says so with ``engine.outcome(state, abandoned=True)`` (or
``outcome.abandon()``): an unfinished match then has reason ``ABANDONED`` and no winners;
a match already won stays won.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum


class OutcomeReason(StrEnum):
    IN_PROGRESS = "in_progress"  # the match goes on
    WON = "won"  # the rules ended it; ``winners`` holds one seat, or several on a tie (C-7.4)
    ABANDONED = "abandoned"  # given up before the rules ended it (decided by the session)


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """``totals``: one number per seat (gin: match totals G-14.4/G-16; contract: scores C-7.4)."""

    reason: OutcomeReason
    totals: tuple[int, ...]
    winners: tuple[int, ...] = ()

    @property
    def finished(self) -> bool:
        """True once the match is won or abandoned."""
        return self.reason is not OutcomeReason.IN_PROGRESS

    @property
    def winner(self) -> int | None:
        """The single winner, or None (no winner yet, abandoned, or a shared win)."""
        return self.winners[0] if len(self.winners) == 1 else None

    @classmethod
    def in_progress(cls, totals: tuple[int, ...]) -> MatchOutcome:
        return cls(OutcomeReason.IN_PROGRESS, tuple(totals))

    @classmethod
    def won(cls, winners: tuple[int, ...], totals: tuple[int, ...]) -> MatchOutcome:
        return cls(OutcomeReason.WON, tuple(totals), tuple(sorted(winners)))

    def abandon(self) -> MatchOutcome:
        """This outcome with the match given up: unchanged when it was already won."""
        if self.reason is OutcomeReason.WON:
            return self
        return replace(self, reason=OutcomeReason.ABANDONED, winners=())
