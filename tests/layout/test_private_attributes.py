"""No private name of a gridcount module is read through the module from another one.

:mod:`test_imports` checks ``from x import _name``; this reads the other ways in, with
:mod:`ast`, in every package module, test and script: ``mod._name`` (and
``pkg.mod._name``) where ``mod`` is bound by an import of another gridcount module
(or of a class or function of one: ``from x import Cls``, then ``Cls._name``),
and ``setattr(mod, "_name", ...)``, ``getattr``, ``delattr``, ``hasattr``,
``monkeypatch.setattr`` and ``mock.patch`` of such a module's ``"_name"`` or of a
string ``"pkg.mod._name"``.  A module uses its own private names and those of its own
package's modules (as the import rule of :mod:`test_imports` allows); a test reaches a module through its
public names or a documented hook (``registry.forget_kind_tables()``,
``bandtables.cache.forget_checked()``...).  Attributes of objects are not module names and
are not read here (the engine's test hooks are public: ``ec.check_invariants()``).
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("dlx", "grids", "bandtables", "factorization", "counting")

#: What calls reach an attribute named by a string: ``setattr(mod, "_x", v)``,
#: ``monkeypatch.setattr(mod, "_x", v)``, ``monkeypatch.setattr("pkg.mod._x", v)``,
#: ``mock.patch("pkg.mod._x")``.
BY_NAME = {"setattr", "getattr", "delattr", "hasattr", "patch"}

#: Reads left on purpose, each with why: "path:target" (the module's file, relative to
#: the checkout, and the dotted name read).
ALLOWED = {
    # The kind files this process has read, replaced by an empty table for one test and
    # put back after it (monkeypatch): a hook that cleared the table would forget, for
    # every later test of the run, the kind files its fixtures read once, and an
    # accessor handing out the table would make it writable by any module.
    "tests/counting/store/test_kinds.py:grids.variants.kindcontent._KNOWN",
}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _module_name(path: Path) -> str:
    """The dotted name of a package module; a test's or script's file stem."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[0] not in PACKAGES:
        return path.stem
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


#: Every gridcount module, compiled ones (``dlx._engine``) too.
MODULES = {_module_name(p) for pkg in PACKAGES for ext in ("*.py", "*.pyx")
           for p in (ROOT / pkg).rglob(ext)}


def _bound_names(tree: ast.AST, name: str, is_package: bool) -> dict[str, str]:
    """Every name an import of a gridcount module binds in ``tree``, and the dotted name
    it stands for (``import a.b`` binds ``a``; ``import a.b as m`` and ``from a import b``
    bind ``m`` and ``b`` to ``a.b``)."""
    package = name if is_package else name.rpartition(".")[0]
    bound = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                bound[a.asname or a.name.partition(".")[0]] = a.name if a.asname else \
                    a.name.partition(".")[0]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            for a in node.names:
                bound[a.asname or a.name] = f"{base}.{a.name}"
    return {k: v for k, v in bound.items() if v.split(".")[0] in PACKAGES}


def _dotted(node: ast.AST, bound: dict[str, str]) -> str | None:
    """The dotted name ``node`` (a chain of attributes on a name) reads, when the name
    is bound by an import of a gridcount module; else None."""
    attrs = []
    while isinstance(node, ast.Attribute):
        attrs.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in bound:
        return None
    return ".".join([bound[node.id], *reversed(attrs)])


def _module_of(target: str) -> str:
    """The gridcount module whose name ``target`` (``pkg.mod._name``) reads."""
    parts = target.split(".")
    for k in range(len(parts) - 1, 0, -1):
        if ".".join(parts[:k]) in MODULES:
            return ".".join(parts[:k])
    return parts[0]


def _own(name: str, module: str) -> bool:
    """Whether module ``name`` may read the private names of ``module``: its own, those
    of a package it is in, and (a package's ``__init__``) those of its modules, as
    :mod:`test_imports` allows their import."""
    return name.split(".")[0] in PACKAGES and (
        module == name or module.rpartition(".")[0] == name or name.startswith(module + "."))


def private_reads(source: str, name: str, is_package: bool = False) -> list[tuple[int, str]]:
    """``(line, dotted name)`` of every private name of another gridcount module that
    ``source`` (the text of module ``name``) reads through the module (module docstring)."""
    tree = ast.parse(source)
    bound = _bound_names(tree, name, is_package)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            target = _dotted(node, bound)
            if target is not None:
                found.append((node.lineno, target))
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else \
                func.id if isinstance(func, ast.Name) else None
            if called not in BY_NAME:
                continue
            first, second = node.args[0], node.args[1] if len(node.args) > 1 else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                text = first.value
                if text.split(".")[0] in PACKAGES and any(_private(p) for p in text.split(".")[1:]):
                    found.append((node.lineno, text))
            elif isinstance(second, ast.Constant) and isinstance(second.value, str) \
                    and _private(second.value):
                owner = _dotted(first, bound)
                if owner is not None:
                    found.append((node.lineno, f"{owner}.{second.value}"))
    return [(line, t) for line, t in found if not _own(name, _module_of(t))]


def _files() -> list[Path]:
    return sorted([*(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")),
                   *(ROOT / "tests").rglob("*.py"), *(ROOT / "scripts").rglob("*.py")])


def test_no_private_name_of_another_module_is_read_through_it():
    found, used = [], set()
    for path in _files():
        rel = str(path.relative_to(ROOT))
        for line, target in private_reads(path.read_text(), _module_name(path),
                                          path.name == "__init__.py"):
            if f"{rel}:{target}" in ALLOWED:
                used.add(f"{rel}:{target}")
            else:
                found.append(f"{rel}:{line}: reads {target}")
    assert not found, "\n".join(found)
    assert used == set(ALLOWED), f"allowed but no longer read: {set(ALLOWED) - used}"


PLANTED = '''
import bandtables.cache
import counting.reduction.registry as registry
from counting.reduction import patterns3
from factorization import api as factor_api

def test(monkeypatch):
    bandtables.cache._CHECKED.clear()
    registry._TABLE["rows"] = None
    monkeypatch.setattr(patterns3, "_TABLES", {})
    getattr(factor_api, "_PROCESS_COUNTERS")
    monkeypatch.setattr("counting.run.dask_pool._check_workers", None)
'''


def test_each_way_of_reading_a_private_name_through_its_module_is_found():
    assert sorted(t for _, t in private_reads(PLANTED, "test_planted")) == [
        "bandtables.cache._CHECKED", "counting.reduction.patterns3._TABLES",
        "counting.reduction.registry._TABLE", "counting.run.dask_pool._check_workers",
        "factorization.api._PROCESS_COUNTERS"]


def test_a_module_s_own_private_names_and_objects_private_attributes_are_not_reads():
    own = "import counting.reduction\ncounting.reduction._x\n"       # its package's
    assert private_reads(own, "counting.reduction.moves") == []
    assert private_reads("from counting.reduction import registry\nregistry._TABLE\n",
                         "counting.reduction") == []                     # a package, its module
    objects = "from dlx import ExactCover\nec = ExactCover(1, [])\nec._check_invariants()\n"
    assert private_reads(objects, "test_engine") == []
    assert private_reads("import json\njson._default_decoder\n", "test_json") == []
    assert [t for _, t in private_reads("from counting.reduction import registry\n"
                                        "registry._TABLE\n", "counting.plan")] == [
        "counting.reduction.registry._TABLE"]                            # a sibling's: a read
