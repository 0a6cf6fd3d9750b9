"""Things registered by name as ``"module:attribute"`` and imported only when asked for
(a game's engine, a screen of the table), so an unused one costs nothing to start."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any


def load(registry: Mapping[str, str], name: str, what: str) -> Any:
    """The attribute ``registry[name]`` names; a ValueError naming the known ones (``what``:
    "game", "scene") when ``name`` is not registered."""
    try:
        module_name, attr = registry[name].split(":")
    except KeyError:
        raise ValueError(f"unknown {what} {name!r}; known: {', '.join(sorted(registry))}") from None
    return getattr(importlib.import_module(module_name), attr)
