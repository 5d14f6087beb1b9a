"""The house's shape, read from the source: who may import whom, and how big a room may get.

cogs → bot.discord → bot.engine → (db, bot.rules, bot.ai, bot.tournament); bot.render reads
views and engine models; bot.rules imports only the standard library.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PRODUCTION = ("bot", "cogs", "db")
THIRD_PARTY = {"discord", "aiohttp", "aiosqlite", "asyncpg", "numpy", "openskill", "yarl"}
THIRD_PARTY |= {"orjson", "uvloop", "PIL"}

# Each package, and the project packages it may import besides itself. Third-party
# libraries are listed where they belong; the standard library is open to all.
ALLOWED: dict[str, set[str]] = {
    "bot": set(),  # the package's own __init__
    "bot.rules": set(),
    "bot.ai": {"bot.rules", "numpy"},
    "bot.tournament": {"bot.rules", "openskill"},
    "db": {"aiosqlite", "asyncpg", "openskill"},  # ratings are updated as results are stored
    "bot.config": {"db"},  # checks a DATABASE_URL the way the store reads it
    "bot.engine": {"bot.rules", "bot.ai", "bot.tournament", "db"},
    # Pillow draws the pictures (bot.render.pictures and its tiles, bot.render.cards) only.
    "bot.render": {"bot.rules", "bot.engine", "bot.tournament", "discord", "PIL"},
    # The message ids it keeps in step live in the store (db.messages).
    "bot.discord": {"bot.engine", "bot.render", "bot.rules", "bot.config", "db"}
    | {"discord", "aiohttp", "yarl", "uvloop"},
    "cogs": {"bot.discord", "bot.engine", "bot.render", "discord"},
}
# Tools on top of everything (the command line, benchmarks, the terminal client): they may
# import any project package, but nothing imports them.
TOOLS = ("bot.cli", "bot.__main__", "bot.benchmarks", "bot.terminal", "bot.arena")
MAX_FILE_LINES = 700
MAX_CLASS_METHODS = 40
MAX_CLASS_LINES = 500


def _modules() -> dict[str, Path]:
    found = {}
    for package in PRODUCTION:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


MODULES = _modules()


def _owner(module: str, owners: tuple[str, ...]) -> str | None:
    matches = [o for o in owners if module == o or module.startswith(o + ".")]
    return max(matches, key=len) if matches else None


def _imports(path: Path, module: str) -> list[tuple[str, int, list[str]]]:
    """(imported module, line, names) for every import, relative ones resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.append((base, node.lineno, [a.name for a in node.names]))
    return found


def _project_target(imported: str) -> str | None:
    return _owner(imported, tuple(ALLOWED) + TOOLS)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_follow_the_dependency_direction(module: str) -> None:
    owner = _owner(module, tuple(ALLOWED) + TOOLS)
    assert owner is not None, f"{module} belongs to no package the architecture knows"
    problems = []
    for imported, line, _ in _imports(MODULES[module], module):
        top = imported.split(".")[0]
        target = _project_target(imported)
        if owner in TOOLS:
            ok = target is None or not target.startswith("cogs")
        elif target is not None:
            ok = target == owner or target in ALLOWED[owner]
        elif top in ("bot", "cogs", "db", "tests"):
            ok = False  # a project module outside the known packages
        elif top in THIRD_PARTY:
            ok = top in ALLOWED[owner]
        else:
            ok = top == "__future__" or (top in sys.stdlib_module_names and not top.startswith("_"))
        if not ok:
            problems.append(f"{MODULES[module].relative_to(ROOT)}:{line} imports {imported}")
    assert not problems, "\n".join(problems)


def test_nothing_imports_a_private_name_of_another_module() -> None:
    problems = []
    for module, path in MODULES.items():
        owner = _owner(module, tuple(ALLOWED) + TOOLS)
        for imported, line, names in _imports(path, module):
            target = _project_target(imported)
            if target is None or imported == module or (target == owner and owner not in TOOLS):
                continue  # a package's private parts are its own to use
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            if private or any(p.startswith("_") for p in imported.split(".")[1:]):
                where = path.relative_to(ROOT)
                problems.append(f"{where}:{line} imports {imported} {private}")
    assert not problems, "\n".join(problems)


def test_the_checker_knows_a_violation_when_it_sees_one(tmp_path: Path) -> None:
    """The rules above read real imports: a cog importing db would be caught."""
    cog = tmp_path / "cog.py"
    cog.write_text("from db import tables\nimport bot.rules.game\nfrom . import sibling\n")
    imported = [i for i, _, _ in _imports(cog, "cogs.cog")]
    assert imported == ["db", "bot.rules.game", "cogs"]
    assert _project_target("db") == "db" and "db" not in ALLOWED["cogs"]
    assert _project_target("bot.rules.game") == "bot.rules" and "bot.rules" not in ALLOWED["cogs"]


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_room_is_too_big(module: str) -> None:
    path = MODULES[module]
    source = path.read_text(encoding="utf-8")
    lines = source.count("\n")
    assert lines <= MAX_FILE_LINES, f"{path.relative_to(ROOT)} has {lines} lines"
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            methods = [
                n for n in node.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
            ]
            size = (node.end_lineno or node.lineno) - node.lineno + 1
            assert len(methods) <= MAX_CLASS_METHODS, f"{node.name}: {len(methods)} methods"
            assert size <= MAX_CLASS_LINES, f"{node.name}: {size} lines"
