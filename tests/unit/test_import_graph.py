"""No import cycles in errkb_tui: lower modules never import higher ones.

The graph is read from the source (``ast``), so it sees every import, including those
inside functions (the ones that hide a cycle at import time) and relative ones. Only
imports under ``if TYPE_CHECKING:`` are left out: they never run.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "errkb_tui"


def module_names(root: Path = PACKAGE) -> dict[str, Path]:
    """``errkb_tui.x.y`` -> its file, for every module and package of ``root``."""
    names = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that module ``name`` (file ``path``) imports, anywhere in it."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            # "from . import x" imports the module x when there is one, else a name of "."
            targets = [f"{module}.{alias.name}" if f"{module}.{alias.name}" in known else module
                       for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:  # "a.b.name" -> the module "a.b"
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def _runtime_nodes(tree: ast.AST):
    """Every node of ``tree`` except the bodies of ``if TYPE_CHECKING:`` blocks."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    names = module_names(root)
    return {name: imports_of(name, path, set(names)) for name, path in names.items()}


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (as a path that returns to its start), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(edges.get(node, ())):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state:
                cycle = visit(target)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def test_errkb_tui_has_no_import_cycle() -> None:
    edges = graph()
    assert "errkb_tui.loader.load" in edges and "errkb_tui.kb" in edges["errkb_tui.loader.load"]
    assert find_cycle(edges) is None, " -> ".join(find_cycle(edges) or [])


def test_the_check_sees_function_local_and_relative_imports(tmp_path: Path) -> None:
    # Guard against a vacuous pass: the kb <-> loader cycle this test was written for.
    package = tmp_path / "errkb_tui"
    (package / "loader").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "kb.py").write_text("def load_kb():\n    from .loader import load_kb\n    return load_kb()\n")
    (package / "loader" / "__init__.py").write_text("from .load import load_kb\n")
    (package / "loader" / "load.py").write_text("from ..kb import KB\n")
    cycle = find_cycle(graph(package))
    assert cycle is not None and "errkb_tui.kb" in cycle and "errkb_tui.loader.load" in cycle
    (package / "kb.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .loader import load_kb\n")
    assert find_cycle(graph(package)) is None
