"""A few elements generating a group listed in full (counting/group/generators.py)."""
import itertools
import math

import numpy as np
import pytest

from counting.group.generators import closure_size, generating_subset
from counting.group.kind_group import kind_group


@pytest.mark.parametrize("kind", ["2x2+x", "2x3+x", "3x3+windoku", "3x3+disjoint", "1x5+x"])
def test_the_chosen_elements_generate_the_kind_s_whole_group(kind):
    h = kind_group(kind)
    chosen = generating_subset(h.cell_permutations)
    assert closure_size(h.cell_permutations[chosen], h.kind.shape.n_cells) == h.geometric_order
    # each at least doubles the subgroup before it
    assert len(chosen) <= math.log2(h.geometric_order)


def test_the_symmetric_group_needs_few_generators():
    s5 = list(itertools.permutations(range(5)))
    chosen = generating_subset(s5)
    assert closure_size([s5[i] for i in chosen], 5) == 120 and len(chosen) <= 6


def test_the_trivial_group_needs_none():
    assert generating_subset([tuple(range(6))]) == []


def test_a_list_that_is_not_a_group_is_refused():
    # a 3-cycle without its square: it generates 3 elements, 2 are listed
    with pytest.raises(ArithmeticError, match="not a group"):
        generating_subset(np.array([[0, 1, 2], [1, 2, 0]]))
