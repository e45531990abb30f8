"""The ``grids.puzzles`` package: its public names, the explanation and
generation ones imported when first asked for (PEP 562), not with the package."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

import grids.puzzles as P
from grids.puzzles import explanation, generation, rules

ROOT = Path(__file__).resolve().parents[3]

LAZY = {"grids.puzzles.explanation": ("Explanation", "RuleStats", "explain", "explain_stats"),
        "grids.puzzles.generation": ("Generated", "check_generate_args", "generate",
                                     "generate_many", "max_minimal_clues", "min_clues",
                                     "random_grid"),
        "grids.puzzles.rules": ("BASIC_RULES", "RULES", "Step")}


def _probe(code: str) -> str:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_importing_the_package_loads_neither_explanation_nor_generation():
    # issue 37: `gridcount solve FILE` paid for the rule solver, the techniques,
    # the generator and the process pool they import, through this package
    loaded = _probe("import sys, grids.puzzles; "
                    "print(sorted(m for m in sys.modules if m in %r))" % (tuple(LAZY),))
    assert loaded == "[]"


@pytest.mark.parametrize("module, name", [(m, n) for m, names in LAZY.items() for n in names])
def test_each_lazy_name_is_the_module_s_own(module, name):
    own = {"grids.puzzles.explanation": explanation, "grids.puzzles.generation": generation,
           "grids.puzzles.rules": rules}[module]
    assert getattr(P, name) is getattr(own, name)
    assert name in P.__all__ and name in dir(P)


def test_from_import_and_star_import_give_every_public_name():
    assert _probe("from grids.puzzles import explain, generate, RULES; print(explain.__name__)") \
        == "explain"
    names = _probe("from grids.puzzles import *; import grids.puzzles as P; "
                   "print(all(n in globals() for n in P.__all__))")
    assert names == "True"


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        P.no_such_name
