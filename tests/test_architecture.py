"""The package's folders are the pipeline: imports only go down a floor, never in a circle.

Floors, bottom to top: the ground modules (algebra, model, metrics, validation,
exceptions, BLAS threads); ``statistics/``; ``learning/``; ``graphs/``; the drivers
(``estimator``, ``cli``, ``experiments/``); and the package root, which
re-exports the public names. A module may import from its own floor or below.
Imports inside functions count as much as those at the top of a module.
"""

from __future__ import annotations

import ast
import importlib.util
import pathlib

import pytest

import gsp_householder

PACKAGE_DIR = pathlib.Path(gsp_householder.__file__).parent
GROUND = {"_blas_threads", "_caller_warning", "_numpy_blas", "_validation", "exceptions",
          "householder", "model", "metrics"}
FLOORS = {"statistics": 1, "learning": 2, "graphs": 3,
          "_sklearn_protocol": 4, "estimator": 4, "cli": 4, "experiments": 4}


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in PACKAGE_DIR.rglob("*.py")}


def floor(module: str) -> int:
    """The floor of a module of the package (5 for the package root)."""
    parts = module.split(".")
    if len(parts) == 1:
        return 5
    if parts[1] in GROUND:
        return 0
    return FLOORS[parts[1]]


def _resolve(name: str) -> str:
    """The package module an import of ``name`` loads (the deepest existing prefix)."""
    parts = name.split(".")
    while parts and ".".join(parts) not in MODULES:
        parts.pop()
    return ".".join(parts)


def imports_of(module: str) -> set[str]:
    """Package modules imported anywhere in ``module`` (top level or inside functions)."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(), filename=str(path))
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")
                anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, base] if base else anchor)
            names = [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            if name.split(".")[0] == "gsp_householder":
                target = _resolve(name)
                if target != module:
                    found.add(target)
    return found


GRAPH = {module: imports_of(module) for module in MODULES}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
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

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_every_module_is_parsed_and_placed_on_a_floor():
    assert len(MODULES) > 30
    for module in MODULES:
        assert 0 <= floor(module) <= 5, module
    # the resolver sees through both import forms
    assert "gsp_householder.householder" in GRAPH["gsp_householder.model"]
    assert "gsp_householder.statistics.dispatch" in GRAPH["gsp_householder.learning.paper"]


def test_no_import_cycles():
    cycles = _cycles(GRAPH)
    assert not cycles, f"import cycles: {cycles}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_upward_import(module):
    upward = sorted(t for t in GRAPH[module] if floor(t) > floor(module))
    assert not upward, f"{module} (floor {floor(module)}) imports from above: {upward}"


def test_the_checks_catch_a_cycle_and_an_upward_import():
    """The two checks are not vacuous: they flag a planted cycle and a planted climb."""
    planted = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}
    assert _cycles(planted) == [["a", "b", "c"]]
    assert floor("gsp_householder.graphs.fourier") > floor("gsp_householder.learning.paper")
    assert importlib.util.find_spec("gsp_householder.statistics.dispatch") is not None
