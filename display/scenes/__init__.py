"""Scenes: one module per screen, each a :class:`display.scenes.base.Scene` subclass, and
the one table of which screen follows which.

``SCENES`` maps a scene name to ``module:Class``; :func:`load_scene` imports lazily, so a
game's scenes load only when that game is played. A game provides a table and a review
(:data:`GAME_SCENES`: the table while a hand is played, the review of a finished hand /
the match end).

A scene never names the scene that follows: it asks the app for a transition by a reason,
``app.go(Go.X, **data)``, and :func:`next_scene` (the only place that decides) says which
scene that is from the app's and the match's state; ``App.go`` makes it current. The kind
of each screen (:class:`Kind`) says which lamp rule applies there
(:mod:`display.table.controller.lamps`).
"""

from __future__ import annotations

from enum import StrEnum
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


class Kind(StrEnum):
    """What a screen is, for the app: which lamps it lights and where the match goes on."""

    MENU = "menu"  # no seat's call: every lamp off
    TABLE = "table"  # a match's table: the controller's lamps
    REVIEW = "review"  # a hand's or a match's result: DRAW lit once it may be left
    DEAL = "deal"  # real cards: the deal out of the shoe (every lamp off)


#: game -> (its table, its review)
GAME_SCENES: dict[str, tuple[str, str]] = {
    "gin": ("gin_table", "gin_review"),
    "contract": ("contract_table", "contract_review"),
}
DEAL_SCENE = "deal_table"

#: scene name -> its kind (a name not here is a menu)
KINDS: dict[str, Kind] = {
    **{table: Kind.TABLE for table, _review in GAME_SCENES.values()},
    **{review: Kind.REVIEW for _table, review in GAME_SCENES.values()},
    DEAL_SCENE: Kind.DEAL,
}

#: screens where a match goes on (its timers, its computer players, its reads)
PLAYING = frozenset({Kind.TABLE, Kind.DEAL})


def kind_of(name: str) -> Kind:
    return KINDS.get(name, Kind.MENU)


class Go(StrEnum):
    """Why the screen changes: what a scene (or the app) asks :func:`next_scene` for."""

    HOME = "home"  # the attract screen (a match ended or abandoned, Back, the failsafe's OK)
    PLAY = "play"  # "Touch to play": the game choice
    SEATING = "seating"  # a game chosen: its seating (game=, preset=, seats=)
    MATCH = "match"  # the match's own screen now: its table, its review, the deal, or home
    AFTER_MATCH = "after_match"  # the match was seen: seating again with its seats (again=), or home
    OPERATOR = "operator"  # the operator menu (the chord, the corner, F10), over this screen
    CLOSE_OPERATOR = "close_operator"  # the operator menu closed (back=): the match, or home
    BACK = "back"  # a screen opened from somewhere (back=): back there
    RECALL = "recall"  # the last hands (back=)
    LEADERBOARD = "leaderboard"  # (back=)
    KEYBOARD = "keyboard"  # type a name or a PIN (text=, title=, digits=, on_done=)
    LEAGUE_LOGIN = "league_login"  # a league player takes a seat (seat=, on_done=)
    FAILED = "failed"  # an error in kiosk mode (error=): the failsafe
    FAULTS = "faults"  # the fault screen (errors=, faults=)
    RESUME = "resume"  # back to the scene that opened the keyboard or the league login (scene=), as it was


#: the operator menu's Close from these goes home (no match screen was left for it)
HOME_SCREENS = frozenset({"attract", "choice", "seating"})
#: reasons that open the scene of the same name with the data as they come
PLAIN: dict[Go, str] = {Go.HOME: "attract", Go.PLAY: "choice", Go.SEATING: "seating", Go.RECALL: "recall",
                        Go.LEADERBOARD: "leaderboard", Go.KEYBOARD: "keyboard", Go.LEAGUE_LOGIN: "league_login",
                        Go.FAILED: "failsafe", Go.FAULTS: "config_error"}


def match_scene(app: Any) -> str:
    """The match's screen now: none (home), its review while one is pending (a hand over,
    the match over), the deal out of the shoe while real cards are dealt, else its table."""
    m = app.match
    if m is None:
        return "attract"
    table, review = GAME_SCENES[m.game]
    if m.review_pending:
        return review
    reads = getattr(m, "reads", None)
    if reads is not None and not m.is_over and reads.dealing():
        return DEAL_SCENE
    return table


def next_scene(app: Any, go: Go, **data: Any) -> tuple[str, dict[str, Any]] | Any | None:
    """Which scene follows ``go`` (with its arguments), from the app's and the match's
    state; None: the screen stays (the operator menu asked for over itself); a scene
    object: that very scene again (``Go.RESUME``: the seating screen as it was left)."""
    if go is Go.RESUME:
        return data["scene"]
    if go in PLAIN:
        return PLAIN[go], data
    if go is Go.MATCH:
        return match_scene(app), {}
    if go is Go.AFTER_MATCH:
        again = data.get("again")
        return ("seating", dict(again)) if again and not app.headless else ("attract", {})
    if go is Go.OPERATOR:
        here = app.scene.name if app.scene is not None else "attract"
        return None if here == "operator" else ("operator", {"back": here})
    if go is Go.CLOSE_OPERATOR:
        back = str(data.get("back", "attract"))
        return (match_scene(app), {}) if app.match is not None and back not in HOME_SCREENS else ("attract", {})
    if go is Go.BACK:  # the operator menu comes back unlocked ("operator:<where it was opened>")
        back = str(data.get("back", "attract"))
        if back.startswith("operator"):
            return "operator", {"back": back.partition(":")[2] or "attract", "unlocked": True}
        return back, {}
    raise ValueError(f"no transition for {go!r}")  # pragma: no cover - every member has a row
