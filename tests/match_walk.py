"""Walking a match of either game step by step in tests: the table's deals come by themselves."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rummy.play import deal_action


def standard_match(engine: Any, game: str) -> Any:
    """A new match of ``game`` under its standard preset: gin for 2, contract for 4."""
    preset = "standard" if game == "gin" else "seed_002"
    return engine.new_match(engine.preset(preset), 2 if game == "gin" else 4)


class Walk:
    """A match's state and the rng that shuffles its deals; ``steps`` walks it."""

    def __init__(self, engine: Any, state: Any, rng: random.Random) -> None:
        self.engine, self.state, self.rng = engine, state, rng

    def steps(self, n: int) -> Iterator[int]:
        """The step numbers of ``range(n)`` at which a seat is to act (the caller applies its
        move to ``self.state``); a due deal is applied here and takes a step of its own.
        Stops early once the match is over."""
        for i in range(n):
            if self.engine.is_over(self.state):
                return
            deal = deal_action(self.engine, self.state, self.rng)
            if deal is not None:
                self.state, _ = self.engine.apply(self.state, deal)
                continue
            yield i
