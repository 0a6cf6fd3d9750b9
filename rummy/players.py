"""The one registry of computer players, by game and level (issue 12).

``player(game, level)`` returns a fresh player (``rummy.play.Player``) for levels
``easy``, ``medium``, ``hard`` and ``basic`` (the baseline) of both games, and
``random`` (tests and soak runs). Engines expose it as ``engine.player(level)``.
A player keeps a memory of the hand it plays, so every seat gets its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

LEVELS: tuple[str, ...] = ("easy", "medium", "hard")  # offered on the seating screen
BASELINE = "basic"
DEFAULT_LEVEL = "medium"


def _gin() -> dict[str, Callable[[], Any]]:
    from rummy.gin import bots
    from rummy.gin.bots_hard import HardPlayer

    return {"random": bots.RandomPlayer, "easy": bots.EasyPlayer, "basic": bots.BasicPlayer,
            "medium": bots.MediumPlayer, "hard": HardPlayer}


def _contract() -> dict[str, Callable[[], Any]]:
    from rummy.contract import bots

    return {"random": bots.RandomPlayer, "easy": bots.EasyPlayer, "basic": bots.BasicPlayer,
            "medium": bots.MediumPlayer, "hard": bots.HardPlayer}


_GAMES: dict[str, Callable[[], dict[str, Callable[[], Any]]]] = {
    "gin": _gin,
    "contract": _contract,
}


def names(game: str) -> tuple[str, ...]:
    """Every level ``player`` accepts for ``game``."""
    return tuple(_table(game))


def _table(game: str) -> dict[str, Callable[[], Any]]:
    try:
        return _GAMES[game]()
    except KeyError:
        raise ValueError(f"unknown game {game!r}; known: {', '.join(sorted(_GAMES))}") from None


def player(game: str, level: str = BASELINE) -> Any:
    """A new computer player of ``level`` for ``game`` (ValueError naming the choices)."""
    table = _table(game)
    try:
        return table[level]()
    except KeyError:
        raise ValueError(
            f"unknown {game} player level {level!r}; known: {', '.join(table)}"
        ) from None
