"""Architecture boundaries: rummy/ is pure, device/ never imports pygame or display/."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def imported_top_modules(package: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in (ROOT / package).rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                found.setdefault(name.split(".")[0], set()).add(str(path.relative_to(ROOT)))
    return found


@pytest.mark.parametrize(
    "package, forbidden",
    [
        ("rummy", {"pygame", "gpiozero", "serial", "device", "display", "lgpio", "RPi", "league",
                   "psycopg", "openskill"}),
        ("device", {"pygame", "display", "league", "psycopg"}),
        ("league", {"pygame", "gpiozero", "serial", "device"}),  # the league draws nothing
    ],
)
def test_package_imports_stay_inside_boundary(package, forbidden):
    found = imported_top_modules(package)
    bad = {m: sorted(files) for m, files in found.items() if m in forbidden}
    assert not bad, f"{package}/ imports forbidden modules: {bad}"


def test_pyproject_names_pygame_ce_not_pygame():
    text = (ROOT / "pyproject.toml").read_text()
    assert '"pygame-ce' in text
    assert '"pygame>' not in text and '"pygame"' not in text and "pygame-menu" not in text
