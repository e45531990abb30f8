"""Permutations by cycle type (counting/group/permutations.py): partitions in
their documented order, cycle types, class sizes and representatives,
checked against every permutation of small orders."""
import itertools
import math
from collections import Counter

import pytest

from counting.group.permutations import (centraliser_order, class_size, cycle_type, partitions,
                                   type_representative)


def test_partitions_are_listed_largest_first_and_counted_by_the_partition_numbers():
    assert partitions(4) == ((4,), (3, 1), (2, 2), (2, 1, 1), (1, 1, 1, 1))
    assert [len(partitions(n)) for n in range(10)] == [1, 1, 2, 3, 5, 7, 11, 15, 22, 30]
    assert partitions(5, largest=2) == ((2, 2, 1), (2, 1, 1, 1), (1, 1, 1, 1, 1))


@pytest.mark.parametrize("n", range(1, 7))
def test_class_sizes_are_the_numbers_of_permutations_of_each_type(n):
    seen = Counter(cycle_type(p) for p in itertools.permutations(range(n)))
    assert set(seen) == set(partitions(n))
    for t, k in seen.items():
        assert class_size(t) == k
        assert centraliser_order(t) * k == math.factorial(n)


@pytest.mark.parametrize("n", range(1, 8))
def test_each_type_representative_has_its_type(n):
    for t in partitions(n):
        rep = type_representative(t)
        assert sorted(rep) == list(range(n)) and cycle_type(rep) == t
        shifted = type_representative(t, offset=3)
        assert shifted == tuple(x + 3 for x in rep)


def test_cycle_type_refuses_a_non_permutation():
    assert cycle_type([1, 2, 0, 4, 3, 5]) == (3, 2, 1)
    with pytest.raises(ValueError, match="not a permutation of 0..2"):
        cycle_type([0, 0, 1])


@pytest.mark.parametrize("bad", [(0, 2), (-1,)])
def test_cycle_lengths_below_one_are_refused(bad):
    with pytest.raises(ValueError, match="cycle lengths must be >= 1"):
        class_size(bad)
    with pytest.raises(ValueError, match="cycle lengths must be >= 1"):
        type_representative(bad)
