"""Scenes: one module per screen, each a :class:`display.scenes.base.Scene` subclass.

``SCENES`` maps a scene name to ``module:Class``; :func:`load_scene` imports lazily, so a
game's scenes load only when that game is played. A game ``g`` provides ``g_table`` (the
table while a hand is played) and ``g_review`` (a finished hand / the match end).
"""

from __future__ import annotations

from typing import Any

from rummy.registry import load

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
    "deal_table": "display.scenes.deal_table:DealTableScene",  # real cards: the deal out of the shoe
    "recall": "display.scenes.recall:RecallScene",
    "leaderboard": "display.scenes.leaderboard:LeaderboardScene",
}


def load_scene(name: str) -> Any:
    """The scene class registered as ``name``."""
    return load(SCENES, name, "scene")
