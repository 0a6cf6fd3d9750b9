"""The text parameters of a game's rules (G-20, C-14): each a StrEnum of the table's words."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from rummy.errors import RulesError


def words_to_members(rules: object, options: Mapping[str, type[StrEnum]], *, game: str) -> None:
    """Turn each text parameter of the frozen ``rules`` given as a word into its member
    (``GinRules(match="best_of")``); a word that is none of them is a ``RulesError``."""
    for name, kind in options.items():
        value = getattr(rules, name)
        if type(value) is kind:
            continue
        try:
            member = kind(value)
        except ValueError:
            raise RulesError(
                [f"{name}: must be one of {', '.join(kind)}; got {value!r}"], game=game
            ) from None
        object.__setattr__(rules, name, member)
