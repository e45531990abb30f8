"""Every compiled kernel, read as source: each C variable it declares is used.

Cython's ``-Wextra`` says "Unused entry" of a variable that is not.  Two
kinds of report are not defects and are let through: a loop's counter, only
written by its ``for``, and a name used only as a memoryview cast's extent
(``<T[:n]> p``), which Cython does not count as a use.  The kernels' counts
are checked by the tests of their packages.
"""
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KERNELS = sorted(p.relative_to(ROOT).as_posix()
                 for package in ("bandtables", "dlx", "factorization", "grids")
                 for p in (ROOT / package).rglob("*.pyx"))

# The first line of a function or method: def/cpdef/cdef with a parameter
# list before any "=" (a local "cdef int i" or "cdef x = f(y)" is not one).
FUNCTION = re.compile(r"( {4})?(def|cpdef|cdef)\b[^=]*\(")


def _excused(lines: list[str], line: int, name: str) -> bool:
    """Whether ``name``, reported unused at ``line`` (1-based) of ``lines``,
    is a loop counter or a cast extent of the function around it."""
    start = line - 1
    while start > 0 and not FUNCTION.match(lines[start]):
        start -= 1
    end = next((i for i in range(line, len(lines)) if FUNCTION.match(lines[i])), len(lines))
    body = lines[start:end]
    return any(re.search(rf"\bfor {name} in\b|<[^<>]*\[\s*:\s*{name}\s*\]\s*>", x) for x in body)


def _unused(kernel: str, out: Path) -> list[str]:
    """``FILE:LINE NAME`` of each variable Cython reports unused in ``kernel``
    (or a .pxi it includes), compiled to C in ``out``, the excused aside."""
    done = subprocess.run([sys.executable, "-m", "cython", "-3", "-Wextra", kernel,
                           "-o", str(out / "kernel.c")], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    found = []
    for path, line, name in re.findall(r"([^\s:]+):(\d+):\d+: Unused entry '(\w+)'", done.stderr):
        lines = (ROOT / path).read_text().splitlines()
        if not _excused(lines, int(line), name):
            found.append(f"{path}:{line} {name}")
    return found


def test_every_package_with_kernels_is_read():
    assert {k.split("/")[0] for k in KERNELS} == {"bandtables", "dlx", "factorization", "grids"}


@pytest.mark.parametrize("kernel", KERNELS)
def test_the_kernel_declares_no_variable_it_does_not_use(kernel, tmp_path):
    pytest.importorskip("Cython")
    assert _unused(kernel, tmp_path) == []
