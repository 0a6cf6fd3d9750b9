"""Scenes: one module per screen, each a :class:`display.scenes.base.Scene` subclass.

``SCENES`` maps a scene name to ``module:Class``; :func:`load_scene` imports lazily, so a
game's scenes load only when that game is played. A game ``g`` provides ``g_table`` (the
table while a hand is played) and ``g_review`` (a finished hand / the match end).
"""

from __future__ import annotations

import importlib
from typing import Any

SCENES: dict[str, str] = {
    "attract": "display.scenes.attract:AttractScene",
    "choice": "display.scenes.choice:ChoiceScene",
    "seating": "display.scenes.seating:SeatingScene",
    "keyboard": "display.scenes.keyboard:KeyboardScene",
    "league_login": "display.scenes.league_login:LeagueLoginScene",
    "operator": "display.scenes.operator:OperatorScene",
    "failsafe": "display.scenes.failsafe:FailsafeScene",
    "config_error": "display.scenes.failsafe:ConfigErrorScene",
    "gin_table": "display.scenes.gin_table:GinTableScene",
    "gin_review": "display.scenes.gin_review:GinReviewScene",
    "contract_table": "display.scenes.contract_table:ContractTableScene",
    "contract_review": "display.scenes.contract_review:ContractReviewScene",
    "recall": "display.scenes.recall:RecallScene",
    "leaderboard": "display.scenes.leaderboard:LeaderboardScene",
}


def load_scene(name: str) -> Any:
    """The scene class registered as ``name``."""
    try:
        module_name, cls = SCENES[name].split(":")
    except KeyError:
        raise ValueError(f"unknown scene {name!r}; known: {', '.join(sorted(SCENES))}") from None
    return getattr(importlib.import_module(module_name), cls)


def available(name: str) -> bool:
    """True when the scene's module is installed (e.g. the contract table)."""
    try:
        load_scene(name)
    except (ImportError, AttributeError, ValueError):
        return False
    return True
