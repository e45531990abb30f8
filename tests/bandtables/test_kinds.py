"""The kind tables' compiled kernel, bandtables/_kinds.pyx, read as source:
every C variable it declares is used (Cython's ``-Wextra`` says "Unused entry"
of one that is not; a loop's counter, only written by its ``for``, is used).

Its counts are checked in test_kind_tables.py.
"""
import re
import subprocess
import sys
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[2] / "bandtables" / "_kinds.pyx"


def _unused(source: Path, out: Path) -> list[str]:
    """``NAME (line N)`` of each variable Cython reports unused in ``source``
    (compiled to C in ``out``), loop counters aside."""
    done = subprocess.run([sys.executable, "-m", "cython", "-3", "-Wextra", str(source),
                           "-o", str(out / "kinds.c")], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    lines = source.read_text().splitlines()
    found = []
    for line, name in re.findall(r":(\d+):\d+: Unused entry '(\w+)'", done.stderr):
        start = int(line) - 1          # the function around the declaration
        while start > 0 and not re.match(r"(c?def|cpdef) ", lines[start]):
            start -= 1
        end = next((i for i in range(int(line), len(lines))
                    if re.match(r"(c?def|cpdef) ", lines[i])), len(lines))
        if not any(re.search(rf"\bfor {name} in\b", x) for x in lines[start:end]):
            found.append(f"{name} (line {line})")
    return found


def test_the_kernel_declares_no_variable_it_does_not_use(tmp_path):
    pytest.importorskip("Cython")
    assert _unused(SOURCE, tmp_path) == []
