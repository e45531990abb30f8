"""The ``grids`` package: variant constraints are found by name from anywhere
grids is used, and loaded only when a kind names one."""
import pytest

import grids
from grids.kind import as_kind


def test_a_plain_kind_does_not_load_the_variants(python_probe):
    # issue 37: `import grids` imported every variant (hashlib, the encoding),
    # 15 ms of the start-up of `gridcount solve FILE`, which names none
    assert python_probe("import sys, grids.puzzles; from grids.kind import as_kind; "
                        "as_kind('3x3'); print('grids.variants' in sys.modules)") == "False"


def test_the_first_constraint_name_loads_them(python_probe):
    assert python_probe("import sys; from grids.kind import as_kind; "
                        "print(as_kind('3x3+windoku+x').name, 'grids.variants' in sys.modules)") \
        == "3x3+windoku+x True"


def test_variant_constraint_finds_each_family_and_nothing_else():
    assert grids.variant_constraint("x").name == "x"
    assert grids.variant_constraint("anti-king").name == "anti-king"
    assert grids.variant_constraint("no-such-rule") is None
    with pytest.raises(ValueError, match="unknown grid kind 'no-such-rule'"):
        as_kind("3x3+no-such-rule")
