"""Import the firmware's modules on CPython with the stub ``machine`` (tests only)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "firmware"
STUBS = Path(__file__).resolve().parent / "firmware_stubs"
NAMES = ("machine", "protocol", "logic", "hw", "main")


def load() -> SimpleNamespace:
    """Fresh firmware modules (protocol, logic, hw, main) plus the stub machine."""
    unload()
    sys.path[:0] = [str(FIRMWARE), str(STUBS)]
    try:
        mods = {name: importlib.import_module(name) for name in NAMES}
    finally:
        for path in (str(FIRMWARE), str(STUBS)):
            sys.path.remove(path)
    return SimpleNamespace(**mods)


def unload() -> None:
    for name in NAMES:
        sys.modules.pop(name, None)
