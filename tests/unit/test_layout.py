"""The engine's modules form layers: no import cycle among them, counting imports inside functions
and those made only for type checking (an import deferred to break a cycle is still a cycle)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).parents[2] / "sandbox"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(name: str, path: Path, modules: set[str]) -> set[str]:
    """The package's modules that ``path`` imports anywhere in its body."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {module for module in found if module in modules and module != name}


def import_graph() -> dict[str, set[str]]:
    paths = {_module_name(path): path for path in PACKAGE.rglob("*.py")}
    return {name: _imported(name, path, set(paths)) for name, path in paths.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every cycle found by a depth-first walk (one per back edge), as the modules around it."""
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1 on the walk's path, 2 done

    def walk(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                found.append([*path[path.index(target) :], target])
            elif target not in state:
                walk(target, [*path, target])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            walk(module, [module])
    return found


def test_no_import_cycle_among_the_engines_modules() -> None:
    graph = import_graph()
    assert len(graph) > 50 and "sandbox.audit.chain" in graph["sandbox.audit.file_log"]
    assert cycles(graph) == []


def test_the_cycle_check_finds_a_cycle() -> None:
    """The check itself: a deferred import back to a module that imports this one is found."""
    graph = import_graph()
    graph["sandbox.audit.records"] = {*graph["sandbox.audit.records"], "sandbox.audit.file_log"}
    assert any(cycle[0] == cycle[-1] and "sandbox.audit.records" in cycle for cycle in cycles(graph))


def test_storage_never_imports_the_audit_log() -> None:
    """Stores keep memory; the audit package builds on them, never the other way round."""
    graph = import_graph()
    storage = [name for name in graph if name.startswith("sandbox.storage")]
    assert storage and all(not any(t.startswith("sandbox.audit") for t in graph[name]) for name in storage)
