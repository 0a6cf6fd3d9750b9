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


# -- the rule modules: pure rules, nothing of records, sessions, stores, league, CLIs, devices --

RULE_MODULES = ["rummy/gin", "rummy/contract", "rummy/cards.py", "rummy/actions.py",
                "rummy/games.py", "rummy/multiset.py", "rummy/describe_common.py",
                "rummy/errors.py", "rummy/outcome.py"]
NOT_IN_RULES = {
    "rummy.records", "rummy.session", "rummy.session_runner", "rummy.store", "rummy.play",
    "rummy.textgame", "rummy.replay_cli", "league", "display", "device", "pygame",
    "gpiozero", "serial", "lgpio", "RPi", "sqlite3", "psycopg",
}


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """Every module ``path`` imports, anywhere in the file (inside functions, under
    ``if TYPE_CHECKING``, relative imports resolved, ``importlib.import_module("x")``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            out.append((node.lineno, base))
            out += [(node.lineno, f"{base}.{a.name}") for a in node.names]
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)
              and ((isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
                   or (isinstance(node.func, ast.Name) and node.func.id in ("import_module", "__import__")))):
            out.append((node.lineno, node.args[0].value))
    return out


def forbidden(name: str) -> str | None:
    return next((f for f in NOT_IN_RULES if name == f or name.startswith(f + ".")), None)


def test_the_import_finder_sees_every_kind_of_import(tmp_path):
    pkg = tmp_path / "rummy" / "gin" / "probe.py"
    pkg.parent.mkdir(parents=True)
    source = ("import json\nfrom . import melds\nfrom ..records import JournalWriter\n"
              "def f():\n    import pygame.display\n    from rummy import store\n"
              "    return importlib.import_module('device.buttons')\n")
    pkg.write_text(source, encoding="utf-8")
    names = [name for _line, name in imports_of(pkg, tmp_path)]
    assert "rummy.gin.melds" in names and "rummy.records.JournalWriter" in names
    assert "pygame.display" in names and "rummy.store" in names and "device.buttons" in names
    assert {forbidden(n) for n in names} >= {"rummy.records", "pygame", "rummy.store", "device"}
    assert forbidden("json") is None and forbidden("rummy.gin.melds") is None
    assert forbidden("rummy.storefront") is None  # a prefix of a name is not that module


def test_rule_modules_import_no_records_session_store_league_cli_or_device():
    files: list[Path] = []
    for entry in RULE_MODULES:
        path = ROOT / entry
        assert path.exists(), f"{entry} moved: update RULE_MODULES"
        files += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    assert len(files) > 20
    bad = [f"{p.relative_to(ROOT)}:{line} imports {name}"
           for p in files for line, name in imports_of(p) if forbidden(name)]
    assert not bad, "rule modules must stay pure:\n" + "\n".join(bad)


def test_the_table_logic_package_imports_no_pygame_and_nothing_of_the_pygame_app():
    """display/table/ (controller, call tables, real-card referee, match driver,
    view-models, config, texts) is the table's logic: no pygame, and of display/ only
    itself, so the scenes depend on it and never the other way round."""
    bad = [f"{path.relative_to(ROOT)}:{line} imports {name}"
           for path in (ROOT / "display" / "table").rglob("*.py")
           for line, name in imports_of(path)
           if name.split(".")[0] == "pygame"
           or (name.split(".")[0] == "display" and not name.startswith("display.table"))]
    assert not bad, bad


def test_importing_every_table_logic_module_loads_no_pygame():
    import subprocess
    import sys

    modules = sorted(module_name(p) for p in (ROOT / "display" / "table").rglob("*.py"))
    assert len(modules) > 15
    code = ("import importlib, sys\n"
            f"for m in {modules!r}: importlib.import_module(m)\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pygame'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"
