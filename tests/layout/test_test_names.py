"""Every test module has a name of its own.

The tests have no ``__init__.py`` (pytest's default ``prepend`` import mode),
so two test modules of one basename in different folders cannot both be
imported: the whole run stops at collection ("import file mismatch"), while
each folder run alone passes.  ``tests/counting/reduction/test_layers.py``
beside ``tests/factorization/test_layers.py`` did exactly that.
"""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def basenames(root: Path) -> dict[str, list[str]]:
    """Each test module's basename -> the paths (relative to ``root``) that have it."""
    seen: dict[str, list[str]] = defaultdict(list)
    for path in sorted(root.rglob("test_*.py")):
        seen[path.name].append(str(path.relative_to(root)))
    return seen


def test_no_two_test_modules_share_a_basename():
    shared = {name: paths for name, paths in basenames(TESTS).items() if len(paths) > 1}
    assert shared == {}, f"test modules sharing a name (rename one): {shared}"


def test_the_check_finds_a_shared_basename(tmp_path):
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "test_same.py").write_text("")
    assert basenames(tmp_path)["test_same.py"] == ["a/test_same.py", "b/test_same.py"]
