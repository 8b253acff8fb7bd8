"""The package's import structure: no cycle (imports inside functions counted), nothing outside
``dptheory.cli`` imports it, and the presentation layer imports nothing of the library above it.

Every ``import`` and ``from ... import`` statement of every module is read with :mod:`ast`,
wherever it stands (module level, function body, ``if TYPE_CHECKING``), and resolved to the
dptheory modules it names: ``from . import documents`` names ``dptheory.documents`` when that is
a module, ``from .results import Kind`` names ``dptheory.results``. A package ``__init__``'s
imports of its own submodules are not edges of the cycle search: importing a submodule runs its
package's ``__init__``, not the reverse, and the packages re-export their submodules lazily.
"""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "dptheory"


def _module_name(path: pathlib.Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES = {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _is_package(name: str) -> bool:
    return MODULES.get(name, pathlib.Path()).name == "__init__.py"


def _resolve(current: str, level: int, module: str | None) -> str:
    if level == 0:
        return module or ""
    base = current.split(".") if _is_package(current) else current.split(".")[:-1]
    base = base[: len(base) - (level - 1)] if level > 1 else base
    return ".".join(base + ([module] if module else []))


def _owner(name: str) -> str | None:
    """The dptheory module a dotted name lives in (the longest prefix that is a module)."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        candidate = ".".join(parts[:i])
        if candidate in MODULES:
            return candidate
    return None


def imports_of(name: str) -> set[str]:
    """The dptheory modules ``name`` imports, at any depth of its code."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                owner = _owner(alias.name)
                if owner:
                    found.add(owner)
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(name, node.level, node.module)
            for alias in node.names:
                owner = _owner(f"{target}.{alias.name}") if target else None
                owner = owner or _owner(target)
                if owner:
                    found.add(owner)
    found.discard(name)
    return found


GRAPH = {name: imports_of(name) for name in MODULES}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(graph)))
    try:
        for v in sorted(graph):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return out


def _without_package_inits(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The graph with a package's edges to its own submodules dropped: ``dptheory/shuffle/__init__``
    re-exports ``shuffle.methods`` lazily, and ``shuffle.methods`` importing ``dptheory.shuffle``
    for a sibling is not a cycle of code that runs."""
    out = {}
    for name, targets in graph.items():
        if _is_package(name):
            targets = {t for t in targets if not t.startswith(name + ".")}
        out[name] = set(targets)
    return out


def test_the_graph_is_read():
    # the test sees the imports it is about: a known module-level and a known in-function import
    assert "dptheory.results" in GRAPH["dptheory.formula"]
    assert len(MODULES) > 80


def test_no_import_cycle():
    cycles = _cycles(_without_package_inits(GRAPH))
    assert not cycles, "import cycles (imports inside functions counted):\n" + "\n".join(
        " -> ".join(c) for c in cycles)


def test_nothing_outside_cli_imports_cli():
    offenders = sorted(f"{name} imports {target}" for name, targets in GRAPH.items()
                       if not (name == "dptheory.cli" or name.startswith("dptheory.cli.") or name == "dptheory.__main__")
                       for target in targets if target == "dptheory.cli" or target.startswith("dptheory.cli."))
    assert not offenders, "\n".join(offenders)


def test_presentation_imports_nothing_above_it():
    allowed = {"dptheory.presentation", "dptheory.validate", "dptheory.lazy_import"}
    offenders = sorted(f"{name} imports {target}" for name, targets in GRAPH.items()
                       if name == "dptheory.presentation" or name.startswith("dptheory.presentation.")
                       for target in targets
                       if not (target in allowed or target.startswith("dptheory.presentation.")))
    assert not offenders, "\n".join(offenders)


@pytest.mark.parametrize("graph, expected", [
    ({"a": {"b"}, "b": {"a"}, "c": set()}, [["a", "b"]]),
    ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
])
def test_cycle_finder(graph, expected):
    assert _cycles(graph) == expected
