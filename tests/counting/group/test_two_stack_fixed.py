"""Specification of counting/group/two_stack_fixed.py: A_t(g) of a two-stack
shape by patterns × stack fillings.

The oracle is :func:`counting.group.fixed.count_fixed` (the whole grid
searched as one exact cover, itself checked against brute force over every
grid in test_fixed.py): the two methods share nothing but the definition of
a fixed grid, so a dropped pattern condition (the band complement, the
pattern rule ``S_ρ(r) = φ(S_r)``), a wrong class weight or a wrong stack
cover changes some unit's count.
"""
from __future__ import annotations

import math

import pytest

from counting.group.burnside import symmetry_units
from counting.group.fixed import count_fixed, relabelling_types
from counting.group.permutations import partitions
from counting.group.symmetries import Symmetry, conjugacy_classes
from counting.group.two_stack_fixed import is_two_stack, two_stack_count, two_stack_fixed


@pytest.mark.parametrize("shape", ["2x3", "3x2"])
def test_every_unit_of_2x3_and_its_transpose_equals_the_whole_grid_search(shape):
    for u in symmetry_units(shape):
        assert _agrees(shape, u), (u.unit_id, u.symmetry.describe())


#: Units of 2x4 both methods count in well under a second: row swaps inside
#: every band with the stacks kept (21, 27) or swapped (29), band cycles (52,
#: 69, 90, 113, 143), relabellings of type 1^8 and 2 1^6 with the stacks
#: swapped (75, 80), types 6 2 and 3^2 1^2 (105, 109), column cycles (120, 126, 153).
QUICK_2X4 = (21, 27, 29, 52, 69, 75, 80, 90, 105, 109, 113, 120, 126, 143, 153)


def _agrees(shape, u) -> bool:
    return two_stack_fixed(shape, u.symmetry, u.pi_type) == \
        count_fixed(shape, u.symmetry, u.pi_type).count


@pytest.mark.slow
def test_units_of_2x4_of_every_sort_equal_the_whole_grid_search():
    units = symmetry_units("2x4")
    assert {units[i].cols[0] >= 4 for i in QUICK_2X4} == {False, True}
    for i in QUICK_2X4:
        assert _agrees("2x4", units[i]), (i, units[i].symmetry.describe())


@pytest.mark.slow
def test_every_unit_of_2x4_but_the_identity_equals_the_whole_grid_search():
    """Three minutes: the whole-grid search of 156 units."""
    for u in symmetry_units("2x4")[1:]:
        assert _agrees("2x4", u), (u.unit_id, u.symmetry.describe())


def test_a_relabelling_type_no_grid_can_use_counts_zero():
    """Every class of 2x3 with every partition of 6, not only the types
    :func:`~counting.group.fixed.relabelling_types` keeps: a stack that ``g``
    leaves in place cannot be fixed with a relabelling that moves digits."""
    for cls in conjugacy_classes("2x3"):
        g = cls.representative
        kept = set(relabelling_types("2x3", g))
        for t in partitions(6):
            if t not in kept:
                assert two_stack_fixed("2x3", g, t) == 0, (g.describe(), t)


def test_the_identity_counts_the_grids_over_n_factorial():
    """28,200,960 grids of 6×6 (every grid fixed with π = id)."""
    out = two_stack_count("2x3", Symmetry.identity("2x3"), (1,) * 6)
    assert out.fixed == 28_200_960
    assert out.count == 28_200_960 // math.factorial(6)


def test_a_pattern_class_is_counted_once_with_its_size_as_weight():
    """The identity's patterns fall into few classes under S_6: far fewer
    patterns are multiplied out than there are (20 first sets per band, 20³)."""
    out = two_stack_count("2x3", Symmetry.identity("2x3"), (1,) * 6)
    assert out.group_order == math.factorial(6) and out.patterns < 20 ** 3 // 100


def test_only_two_stack_shapes_and_elements_without_transposition_are_counted():
    assert is_two_stack("2x5") and is_two_stack("5x2") and not is_two_stack("3x3")
    assert not is_two_stack("2x3+disjoint")
    with pytest.raises(ValueError, match="boxes of 2 rows or 2 columns, not 3x3"):
        two_stack_fixed("3x3", Symmetry.identity("3x3"), (1,) * 9)
    flip = Symmetry.make("2x2", range(4), range(4), transpose=True)
    with pytest.raises(ValueError, match="transposing"):
        two_stack_fixed("2x2", flip, (1,) * 4)
    with pytest.raises(ValueError, match="partition of 6"):
        two_stack_fixed("2x3", Symmetry.identity("2x3"), (2, 2))
