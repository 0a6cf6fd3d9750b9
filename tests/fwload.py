"""Import the shoe firmware image's modules on CPython with the stub ``machine`` (tests
only). The image is ``firmware/image.txt``: the Pi's own protocol.py and fwlogic.py plus
firmware/hw.py and main.py, each imported under its name on the Pico."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "firmware"
STUBS = Path(__file__).resolve().parent / "firmware_stubs"
NAMES = ("machine", "protocol", "fwlogic", "hw", "main")


def image() -> list[tuple[Path, str]]:
    """(source file, name on the Pico) for every file of the firmware image."""
    out = []
    for line in (FIRMWARE / "image.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            src, dst = line.split()
            out.append((ROOT / src, dst))
    return out


def load() -> SimpleNamespace:
    """Fresh firmware modules (protocol, fwlogic, hw, main) plus the stub machine."""
    unload()
    dirs = [str(STUBS)] + sorted({str(src.parent) for src, _ in image()})
    sys.path[:0] = dirs
    try:
        mods = {name: importlib.import_module(name) for name in NAMES}
    finally:
        for path in dirs:
            sys.path.remove(path)
    mods["logic"] = mods["fwlogic"]
    return SimpleNamespace(**mods)


def unload() -> None:
    for name in NAMES:
        sys.modules.pop(name, None)
