"""Errors shared by the games' rule modules."""

from __future__ import annotations


class RulesError(ValueError):
    """Bad rules data (gin or contract): ``problems`` lists one message per bad parameter,
    all found at once; ``game`` names the game whose rules they are."""

    def __init__(self, problems: list[str], *, game: str = "") -> None:
        self.problems = list(problems)
        self.game = game
        what = f"bad {game} rules" if game else "bad rules"
        super().__init__(f"{what}: " + "; ".join(self.problems))
