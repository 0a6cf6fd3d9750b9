"""Gin rummy rules: every parameter of spec G-20 as one frozen value, and the G-21 presets.

``rules_from_dict`` builds a :class:`GinRules` from JSON/TOML data (a journal header, a
config file) and rejects unknown or ill-typed values with one message naming every bad
parameter. ``{"preset": "knock_card", "game_target": 150}`` starts from a preset.

The text parameters are :class:`~enum.StrEnum` members whose values are the G-20 words, so
``rules.knock_limit_mode == "fixed"`` still holds and ``rules_to_dict`` writes the same
strings it always has; ``GinRules(knock_limit_mode="knock_card")`` takes the word too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from rummy.errors import RulesError as RulesError  # re-exported: one error for both games
from rummy.rule_words import words_to_members


# The text parameters of G-20, one enum each; the values are the words of the table.
class AceInRuns(StrEnum):
    LOW_ONLY = "low_only"  # G-1.3: A-2-3 only, never Q-K-A


class DealerRotation(StrEnum):  # G-3.3
    ALTERNATE = "alternate"
    WINNER_DEALS = "winner_deals"
    LOSER_DEALS = "loser_deals"


class RedealAfterDeadHand(StrEnum):  # G-3.4
    SAME_DEALER = "same_dealer"
    ROTATE = "rotate"


class RefusedUpcard(StrEnum):  # G-4.5
    STAYS_IN_PILE = "stays_in_pile"
    SET_ASIDE = "set_aside"


class KnockLimitMode(StrEnum):  # G-6
    FIXED = "fixed"  # G-6.1: knock_limit
    KNOCK_CARD = "knock_card"  # G-6.2: the upcard's value


class AceKnockCard(StrEnum):  # G-6.3
    GIN_ONLY = "gin_only"
    ONE = "one"


class DiscardPileVisible(StrEnum):  # G-5.5
    TOP_ONLY = "top_only"
    ALL = "all"


class IllegalKnock(StrEnum):  # G-8.3
    EXPOSE_AND_FORCE = "expose_and_force"
    REJECT = "reject"
    OPPONENT_OPTION = "opponent_option"


class Arrangement(StrEnum):
    """Who arranges the cards at a knock: the knocker's melds (G-2.4) and the defender's
    lay-offs (G-11.3)."""

    AUTO_OPTIMAL = "auto_optimal"
    AGENT = "agent"


class Shutout(StrEnum):  # G-15
    DOUBLE_HAND_POINTS = "double_hand_points"
    GAME_BONUS_200 = "game_bonus_200"
    DOUBLE_MARGIN = "double_margin"
    NONE = "none"


class DeadHandRule(StrEnum):  # G-13.4
    FIFTY_FIRST = "fifty_first"
    PAGAT = "pagat"
    HOYLE_PC = "hoyle_pc"


class MatchFormat(StrEnum):  # G-16.3; hollywood = G-17
    SINGLE_GAME = "single_game"
    BEST_OF = "best_of"
    HOLLYWOOD = "hollywood"


# The enum of each text parameter (G-20).
OPTIONS: dict[str, type[StrEnum]] = {
    "ace_in_runs": AceInRuns,
    "dealer_rotation": DealerRotation,
    "redeal_after_dead_hand": RedealAfterDeadHand,
    "refused_upcard": RefusedUpcard,
    "knock_limit_mode": KnockLimitMode,
    "ace_knock_card": AceKnockCard,
    "discard_pile_visible": DiscardPileVisible,
    "illegal_knock": IllegalKnock,
    "knocker_arrangement": Arrangement,
    "defender_layoffs": Arrangement,
    "shutout": Shutout,
    "dead_hand_rule": DeadHandRule,
    "match": MatchFormat,
}

# Allowed values of the text parameters (G-20).
CHOICES: dict[str, tuple[str, ...]] = {name: tuple(kind) for name, kind in OPTIONS.items()}

# Integer parameters and their allowed ranges (inclusive).
RANGES: dict[str, tuple[int, int]] = {
    "hand_size": (1, 20),
    "knock_limit": (0, 10),
    "undercut_bonus": (0, 10_000),
    "gin_bonus": (0, 10_000),
    "big_gin_bonus": (0, 10_000),
    "box_bonus": (0, 10_000),
    "extra_boxes_undercut": (0, 100),
    "extra_boxes_gin": (0, 100),
    "game_target": (1, 100_000),
    "game_bonus": (0, 10_000),
    "stock_floor": (0, 40),
    "match_games": (1, 99),
}

OPTIONAL = {"big_gin_bonus"}  # may be None (G-10.2: None disables Big Gin)


@dataclass(frozen=True)
class GinRules:
    """Every G-20 parameter with its default (the ``standard`` preset)."""

    hand_size: int = 10
    ace_in_runs: AceInRuns = AceInRuns.LOW_ONLY  # G-1.3
    dealer_rotation: DealerRotation = DealerRotation.ALTERNATE  # G-3.3
    redeal_after_dead_hand: RedealAfterDeadHand = RedealAfterDeadHand.SAME_DEALER  # G-3.4
    refused_upcard: RefusedUpcard = RefusedUpcard.STAYS_IN_PILE  # G-4.5
    knock_limit_mode: KnockLimitMode = KnockLimitMode.FIXED  # G-6
    knock_limit: int = 10  # G-6.1 (0 = straight gin, G-6.6)
    ace_knock_card: AceKnockCard = AceKnockCard.GIN_ONLY  # G-6.3
    spades_double: bool = False  # G-6.5
    spades_double_boxes: bool = False  # G-6.5
    forbid_discarding_taken_card: bool = True  # G-5.3, G-22.1
    discard_pile_visible: DiscardPileVisible = DiscardPileVisible.TOP_ONLY  # G-5.5
    illegal_knock: IllegalKnock = IllegalKnock.EXPOSE_AND_FORCE  # G-8.3
    knocker_arrangement: Arrangement = Arrangement.AUTO_OPTIMAL  # G-2.4
    defender_layoffs: Arrangement = Arrangement.AUTO_OPTIMAL  # G-11.3
    undercut_bonus: int = 25  # G-12
    undercut_on_tie: bool = True  # G-12.1
    gin_bonus: int = 25
    big_gin_bonus: int | None = 31  # G-10.2
    box_bonus: int = 25
    extra_boxes_undercut: int = 0  # G-12.2
    extra_boxes_gin: int = 0  # G-12.3
    immediate_boxes: bool = False  # G-14.2
    game_target: int = 100  # G-14.1
    game_bonus: int = 100  # G-14.4
    shutout: Shutout = Shutout.DOUBLE_HAND_POINTS  # G-15
    dead_hand_rule: DeadHandRule = DeadHandRule.FIFTY_FIRST  # G-13.4
    stock_floor: int = 2  # G-5.6
    match: MatchFormat = MatchFormat.SINGLE_GAME  # G-16.3; hollywood = G-17
    match_games: int = 5  # G-16.1: best of n (only with match = best_of)

    def __post_init__(self) -> None:
        problems = _check(dataclasses.asdict(self))
        if problems:
            raise RulesError(problems, game="gin")
        words_to_members(self, OPTIONS, game="gin")  # a G-20 word given as text

    @property
    def games_to_win(self) -> int:
        """Games needed to win the match (G-16.1: 3 of 5)."""
        return self.match_games // 2 + 1 if self.match is MatchFormat.BEST_OF else 1

    def replace(self, **changes: Any) -> GinRules:
        return dataclasses.replace(self, **changes)


_TYPES: dict[str, type] = {f.name: type(f.default) for f in fields(GinRules)}
_TYPES["big_gin_bonus"] = int
_TYPES.update(dict.fromkeys(OPTIONS, str))  # text, one of CHOICES


def _check(data: Mapping[str, Any]) -> list[str]:
    """One message per bad parameter (type, range, choice, then cross-checks)."""
    problems: list[str] = []
    for name, value in data.items():
        want = _TYPES[name]
        if value is None and name in OPTIONAL:
            continue
        if want is bool:
            if not isinstance(value, bool):
                problems.append(f"{name} must be true or false, got {value!r}")
            continue
        if want is int:
            if not isinstance(value, int) or isinstance(value, bool):
                extra = " or null" if name in OPTIONAL else ""
                problems.append(f"{name} must be a whole number{extra}, got {value!r}")
                continue
            lo, hi = RANGES[name]
            if not lo <= value <= hi:
                problems.append(f"{name} must be between {lo} and {hi}, got {value}")
            continue
        if not isinstance(value, str):
            problems.append(f"{name} must be text, got {value!r}")
            continue
        allowed = CHOICES[name]
        if value not in allowed:
            problems.append(f"{name} must be one of {', '.join(allowed)}, got {value!r}")
    if problems:
        return problems
    dealt = 2 * data["hand_size"] + 1
    if dealt + data["stock_floor"] >= 52:
        problems.append(
            f"hand_size {data['hand_size']} with stock_floor {data['stock_floor']} leaves no"
            " stock to draw from"
        )
    if data["match"] == MatchFormat.BEST_OF and data["match_games"] % 2 == 0:
        problems.append(f"match_games must be odd for best_of, got {data['match_games']}")
    return problems


PRESETS: dict[str, GinRules] = {
    # G-21: seed 004 / Wikipedia.
    "standard": GinRules(),
    # G-21: seed 000, Oklahoma-style knock card with the extra undercut box (G-12.2).
    "knock_card": GinRules(knock_limit_mode=KnockLimitMode.KNOCK_CARD, extra_boxes_undercut=1),
    # G-21 / G-16.1: best of five games to 250.
    "tournament": GinRules(match=MatchFormat.BEST_OF, match_games=5, game_target=250),
    # G-21: pagat.com main rules.
    "pagat_classic": GinRules(
        gin_bonus=20,
        undercut_bonus=10,
        box_bonus=20,
        big_gin_bonus=None,
        shutout=Shutout.GAME_BONUS_200,
        dealer_rotation=DealerRotation.WINNER_DEALS,
        dead_hand_rule=DeadHandRule.PAGAT,
    ),
}


def preset(name: str) -> GinRules:
    """A named G-21 preset: standard, knock_card, tournament, pagat_classic."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(
            [f"unknown preset {name!r}; known: {', '.join(PRESETS)}"], game="gin"
        ) from None


def rules_from_dict(data: Mapping[str, Any]) -> GinRules:
    """Build rules from a mapping; every unknown or ill-typed value is reported at once.

    Missing parameters take their value from ``data["preset"]`` (default ``standard``).
    """
    if not isinstance(data, Mapping):
        raise RulesError(
            [f"rules must be a table of parameters, got {type(data).__name__}"], game="gin"
        )
    problems: list[str] = []
    base_name = data.get("preset", "standard")
    if not isinstance(base_name, str) or base_name not in PRESETS:
        problems.append(f"preset must be one of {', '.join(PRESETS)}, got {base_name!r}")
        base_name = "standard"
    known = set(_TYPES)
    unknown = sorted(str(k) for k in data if k not in known and k != "preset")
    for name in unknown:
        problems.append(f"unknown parameter {name!r}")
    merged = dataclasses.asdict(PRESETS[base_name])
    merged.update({k: v for k, v in data.items() if k in known})
    problems.extend(_check(merged))
    if problems:
        raise RulesError(problems, game="gin")
    return GinRules(**merged)


def rules_to_dict(rules: GinRules) -> dict[str, Any]:
    """JSON-ready form with every parameter (a journal header stores this); the text
    parameters as plain strings, the words they have always been written as."""
    return {
        k: v.value if isinstance(v, StrEnum) else v for k, v in dataclasses.asdict(rules).items()
    }


def preset_name(rules: GinRules) -> str | None:
    """The preset these rules equal, if any."""
    for name, value in PRESETS.items():
        if value == rules:
            return name
    return None
