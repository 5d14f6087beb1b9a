"""db.connect's place in the store: its modules import each other one way only."""

from __future__ import annotations

import ast
from graphlib import TopologicalSorter
from pathlib import Path

import db


def _store_imports(path: Path) -> set[str]:
    """The db modules a file imports anywhere in it (a function-level import counts too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if module == "db":
                found.update(alias.name for alias in node.names)
            elif module.startswith("db."):
                found.add(module.split(".")[1])
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".")[1] for a in node.names if a.name.startswith("db."))
    return found


def test_the_store_imports_one_way() -> None:
    folder = Path(db.__file__).parent
    modules = {p.stem for p in folder.glob("*.py")} - {"__init__", "__main__"}
    graph = {m: _store_imports(folder / f"{m}.py") & modules for m in modules}
    TopologicalSorter(graph).prepare()  # raises CycleError on a loop
    assert graph["database"] <= {"errors"}
    assert "connect" not in graph["migrate"] | graph["postgres"]
    assert {"migrate", "postgres", "database"} <= graph["connect"]
