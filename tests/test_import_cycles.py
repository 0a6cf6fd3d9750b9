"""No import cycles inside ``rummy/``, type-only imports included (issue 9: ``Contract``
lives where ``rules`` needs no import back)."""

from __future__ import annotations

import ast
import pathlib

RUMMY = pathlib.Path(__file__).resolve().parent.parent / "rummy"


def _graph() -> dict[str, set[str]]:
    mods: dict[str, set[str]] = {}
    for path in RUMMY.rglob("*.py"):
        parts = path.relative_to(RUMMY.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):  # TYPE_CHECKING blocks too
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("rummy"):
                deps.add(node.module)
                deps.update(f"{node.module}.{a.name}" for a in node.names)
            elif isinstance(node, ast.Import):
                deps.update(a.name for a in node.names if a.name.startswith("rummy"))
        mods[name] = deps
    return {m: {d for d in deps if d in mods and d != m} for m, deps in mods.items()}


def test_rummy_has_no_import_cycles():
    graph = _graph()
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append([*path[path.index(nxt):], nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for mod in sorted(graph):
        if mod not in state:
            visit(mod, [mod])
    assert cycles == []
    assert "rummy.contract.contracts" not in graph["rummy.contract.rules"]
