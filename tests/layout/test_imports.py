"""The layout's rules, read from the source: imports run one way, and no
private name crosses a module boundary.

Every ``import`` and ``from ... import`` of the packages is read with
:mod:`ast` (those inside functions too: a loop hidden in a function body is
still a loop).  The layers, lowest first, are the README's layout table.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("dlx", "grids", "bandtables", "factorization", "counting")

# Lowest first: a module may import its own layer and the layers below.
LAYERS = [
    ["dlx"],
    ["grids", "bandtables", "factorization"],
    ["counting.units", "counting.options", "counting.published", "counting.labels",
     "counting.outputs", "counting.unit_ids", "counting.exact_json", "counting.measured"],
    ["counting.group"],
    ["counting.reduction"],
    ["counting.run", "counting.store"],
    ["counting.job", "counting.recount", "counting.reach", "counting.route_estimate"],
    ["counting.plan", "counting.plan_errors", "counting.plan_notices", "counting.layer_route", "counting.group_choice", "counting.verify", "counting.verify_table",
     "counting.report", "counting.rectangles"],
    ["counting.cli", "counting.__main__"],
]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _sources() -> dict[str, Path]:
    return {_module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


SOURCES = _sources()
# compiled modules (the engine): importable, but not read here
EXTENSIONS = {_module_name(p) for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.pyx")}
MODULES = set(SOURCES) | EXTENSIONS


def _imports(name: str, path: Path) -> list[tuple[str, list[str], int]]:
    """``(module, names, line)`` for every import of a project module in ``path``."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, [], node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1]
                                + ([base] if base else []))
            names = [a.name for a in node.names]
            # "from pkg import module" imports the module
            subs = [f"{base}.{n}" for n in names if f"{base}.{n}" in MODULES]
            out += [(s, [], node.lineno) for s in subs]
            if len(subs) < len(names):
                out.append((base, [n for n in names if f"{base}.{n}" not in MODULES], node.lineno))
    return [(m, n, line) for m, n, line in out if m.split(".")[0] in PACKAGES]


GRAPH = {name: _imports(name, path) for name, path in SOURCES.items()}


def _layer(module: str) -> int:
    if module in PACKAGES and not GRAPH.get(module):
        return 0   # a package's own __init__ that imports nothing of ours ("counting")
    best = None
    for i, group in enumerate(LAYERS):
        for prefix in group:
            if module == prefix or module.startswith(prefix + "."):
                if best is None or len(prefix) > best[1]:
                    best = (i, len(prefix))
    assert best is not None, f"{module} is in no layer of the layout"
    return best[0]


def test_every_module_has_a_layer():
    for name in SOURCES:
        _layer(name)


def test_imports_point_down_the_layers():
    upward = [f"{name}:{line} imports {target} (layer {_layer(target)} > {_layer(name)})"
              for name, imports in GRAPH.items() for target, _, line in imports
              if _layer(target) > _layer(name)]
    assert not upward, "\n".join(upward)


def test_no_import_loop():
    edges = {name: {t for t, _, _ in imports if t in SOURCES and t != name}
             for name, imports in GRAPH.items()}
    # a package's __init__ re-exporting its own modules is not a loop of ideas;
    # a module importing its own package back is
    WHITE, GREY, BLACK = 0, 1, 2
    colour = dict.fromkeys(edges, WHITE)
    stack: list[str] = []
    loops = []

    def visit(n):
        colour[n] = GREY
        stack.append(n)
        for m in sorted(edges[n]):
            if colour[m] == GREY:
                loops.append(stack[stack.index(m):] + [m])
            elif colour[m] == WHITE:
                visit(m)
        stack.pop()
        colour[n] = BLACK

    for n in sorted(edges):
        if colour[n] == WHITE:
            visit(n)
    assert not loops, "\n".join(" -> ".join(loop) for loop in loops)


def test_no_private_name_is_imported_from_another_module():
    tests = sorted((ROOT / "tests").rglob("*.py")) + sorted((ROOT / "scripts").glob("*.py"))
    found = []
    for path in [*SOURCES.values(), *tests]:
        name = _module_name(path) if path in SOURCES.values() else path.stem
        for target, names, line in (GRAPH.get(name) or _imports(name, path)):
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            own_package = target.rpartition(".")[0] == name or name.startswith(target + ".")
            if private and not own_package:
                found.append(f"{path.relative_to(ROOT)}:{line}: {', '.join(private)} from {target}")
            if any(p.startswith("_") and not p.startswith("__") for p in target.split(".")[1:]) \
                    and not own_package and not target.rpartition(".")[0] == name.rpartition(".")[0]:
                found.append(f"{path.relative_to(ROOT)}:{line}: private module {target}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_no_module_is_over_about_600_lines(name):
    n = len(SOURCES[name].read_text().splitlines())
    assert n <= 620, f"{SOURCES[name].relative_to(ROOT)} has {n} lines"
