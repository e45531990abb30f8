"""The compiled kernels run on any x86-64 CPU: no instruction beyond the
baseline (an extension built with -mbmi2 faulted with SIGILL on a CPU
without BMI2, at import time, since the compiler uses BMI2 shifts
anywhere in the module), and the row-code rank that used BMI2's ``pext``
gives the same ranks without it."""
from __future__ import annotations

import ast
import itertools
import random
import re
import shutil
import subprocess
from math import comb
from pathlib import Path

import pytest

import bandtables
from bandtables.kernels import rank_rho

REPO = Path(__file__).resolve().parents[2]
BMI = re.compile(r"\s(pext|pdep|shlx|shrx|sarx|bzhi|mulx|rorx|andn)\s")


def pext(x: int, mask: int) -> int:
    """BMI2's parallel bit extract, written out."""
    out, j = 0, 0
    for d in range(12):
        if mask >> d & 1:
            out |= (x >> d & 1) << j
            j += 1
    return out


def rank3(m: int) -> int:
    a, b, c = (d for d in range(12) if m >> d & 1)
    return a + comb(b, 2) + comb(c, 3)


def test_the_row_code_rank_is_the_pext_rank_on_every_fifth_code():
    rng = random.Random(5)
    n = 0
    for a in itertools.combinations(range(12), 3):
        ma = sum(1 << d for d in a)
        rest = [d for d in range(12) if d not in a]
        for b in itertools.combinations(rest, 3):
            if rng.random() > 0.2:
                continue
            mb = sum(1 << d for d in b)
            rest2 = [d for d in rest if d not in b]
            for c in itertools.combinations(rest2, 3):
                mc = sum(1 << d for d in c)
                left1 = 0xFFF & ~ma
                left2 = left1 & ~mb
                expected = (rank3(ma) * 84 + rank3(pext(mb, left1))) * 20 \
                    + rank3(pext(mc, left2))
                assert rank_rho(ma, mb, mc) == expected
                n += 1
    assert n > 50_000


def test_no_extension_is_compiled_for_one_cpu():
    tree = ast.parse((REPO / "setup.py").read_text())
    flags = [elt.value for node in ast.walk(tree) if isinstance(node, ast.keyword)
             and node.arg == "extra_compile_args" for elt in node.value.elts]
    assert flags and all(f.startswith("-O") for f in flags), flags


@pytest.mark.skipif(shutil.which("objdump") is None, reason="needs objdump")
def test_the_built_band_kernels_hold_no_bmi_instruction():
    built = sorted(Path(bandtables.__file__).parent.glob("_*.so"))
    names = {so.name.split(".")[0] for so in built}
    assert {"_contract", "_rect", "_rows4", "_kinds"} <= names, names
    for so in built:
        code = subprocess.run(["objdump", "-d", str(so)], capture_output=True, text=True,
                              check=True).stdout
        assert not BMI.search(code), f"{so.name}: {BMI.search(code).group(1)}"
