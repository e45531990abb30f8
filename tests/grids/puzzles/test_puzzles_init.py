"""The ``grids.puzzles`` package: its public names, the explanation and
generation ones imported when first asked for (PEP 562), not with the package."""
import pytest

import grids.puzzles as P
from grids.puzzles import explanation, generation, rules

LAZY = {"grids.puzzles.explanation": ("Explanation", "RuleStats", "explain", "explain_stats"),
        "grids.puzzles.generation": ("Generated", "check_generate_args", "generate",
                                     "generate_many", "max_minimal_clues", "min_clues",
                                     "random_grid"),
        "grids.puzzles.rules": ("BASIC_RULES", "RULES", "Step")}


def test_importing_the_package_loads_neither_explanation_nor_generation(python_probe):
    # issue 37: `gridcount solve FILE` paid for the rule solver, the techniques,
    # the generator and the process pool they import, through this package
    loaded = python_probe("import sys, grids.puzzles; "
                          "print(sorted(m for m in sys.modules if m in %r))" % (tuple(LAZY),))
    assert loaded == "[]"


@pytest.mark.parametrize("module, name", [(m, n) for m, names in LAZY.items() for n in names])
def test_each_lazy_name_is_the_module_s_own(module, name):
    own = {"grids.puzzles.explanation": explanation, "grids.puzzles.generation": generation,
           "grids.puzzles.rules": rules}[module]
    assert getattr(P, name) is getattr(own, name)
    assert name in P.__all__ and name in dir(P)


def test_from_import_and_star_import_give_every_public_name(python_probe):
    assert python_probe("from grids.puzzles import explain, generate, RULES; "
                        "print(explain.__name__)") == "explain"
    names = python_probe("from grids.puzzles import *; import grids.puzzles as P; "
                         "print(all(n in globals() for n in P.__all__))")
    assert names == "True"


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        P.no_such_name
