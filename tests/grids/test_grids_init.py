"""The ``grids`` package: variant constraints are found by name from anywhere
grids is used, and loaded only when a kind names one."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

import grids
from grids.kind import as_kind

ROOT = Path(__file__).resolve().parents[2]


def _probe(code: str) -> str:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_a_plain_kind_does_not_load_the_variants():
    # issue 37: `import grids` imported every variant (hashlib, the encoding),
    # 15 ms of the start-up of `gridcount solve FILE`, which names none
    assert _probe("import sys, grids.puzzles; from grids.kind import as_kind; "
                  "as_kind('3x3'); print('grids.variants' in sys.modules)") == "False"


def test_the_first_constraint_name_loads_them():
    assert _probe("import sys; from grids.kind import as_kind; "
                  "print(as_kind('3x3+windoku+x').name, 'grids.variants' in sys.modules)") \
        == "3x3+windoku+x True"


def test_variant_constraint_finds_each_family_and_nothing_else():
    assert grids.variant_constraint("x").name == "x"
    assert grids.variant_constraint("anti-king").name == "anti-king"
    assert grids.variant_constraint("no-such-rule") is None
    with pytest.raises(ValueError, match="unknown grid kind 'no-such-rule'"):
        as_kind("3x3+no-such-rule")
