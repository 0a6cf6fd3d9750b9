"""The table's logic package (display/table/), its words and view-models are held to every per-module flag of ``mypy --strict``
in pyproject.toml (issue 30 item 3), the same flags as rummy/, device/ and league/: the CI's
plain ``mypy`` run then fails on an untyped function there."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STRICT_DISPLAY = {
    "display.table", "display.table.*", "display.records_cli", "display.scenes.gin_review",
    "display.scenes.contract_review", "display.scenes.recall", "display.scenes.leaderboard",
    "display.scenes.operator_real",
}


def overrides() -> list[dict]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["tool"]["mypy"]["overrides"]


def flags(table: dict) -> dict:
    return {k: v for k, v in table.items() if k != "module"}


def test_the_display_modules_have_the_cores_strict_flags():
    tables = overrides()
    core = next(t for t in tables if "rummy.*" in t["module"])
    display = next(t for t in tables if "display.table.*" in t["module"])
    assert flags(display) == flags(core)
    assert all(v is (k != "implicit_reexport") for k, v in flags(core).items())
    assert len(flags(core)) == 11  # every per-module flag --strict turns on (mypy 1.x-2.x)
    assert set(display["module"]) == STRICT_DISPLAY


def test_every_listed_module_exists():
    for name in STRICT_DISPLAY:
        if name.endswith(".*"):
            package = importlib.import_module(name[:-2])
            assert Path(package.__file__).name == "__init__.py"
        else:
            importlib.import_module(name)


def test_mypy_strict_finds_nothing_in_the_table_logic_package():
    """Not only the flags: ``mypy --strict`` itself over display/table/ (what CI's plain
    run checks through the override), so a module added there cannot slip out of it."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                          "display/table"], capture_output=True, text=True, cwd=ROOT, timeout=280)
    errors = [line for line in out.stdout.splitlines() if line.startswith("display/table")]
    assert out.returncode == 0 and not errors, errors[:10]
