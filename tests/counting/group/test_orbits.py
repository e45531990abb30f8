"""Specification of counting/group/orbits.py: generating sets and orbits from generator images."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from counting.group.orbits import generating_set, group_closure, orbit_classes


def symmetric_group(k: int) -> np.ndarray:
    return np.array(list(itertools.permutations(range(k))), dtype=np.int64)


def dihedral_group(k: int) -> np.ndarray:
    """The symmetries of a k-gon on its corners: rotations and reflections."""
    rotations = [[(i + s) % k for i in range(k)] for s in range(k)]
    return np.array(rotations + [[(s - i) % k for i in range(k)] for s in range(k)], dtype=np.int64)


@pytest.mark.parametrize("group", [symmetric_group(4), symmetric_group(5), dihedral_group(6),
                                   dihedral_group(7), np.arange(5)[None, :]])
def test_a_generating_set_generates_exactly_the_group(group):
    taken = generating_set(group)
    assert group_closure(group[taken]) == {p.tobytes() for p in group}
    assert len(taken) <= max(1, int(np.log2(len(group))))
    # no generator is redundant in the order taken: without the last one the group is smaller
    if taken:
        assert len(group_closure(group[taken[:-1]])) < len(group)


def test_a_generating_set_is_deterministic_and_taken_in_order():
    group = dihedral_group(5)
    assert generating_set(group) == generating_set(group.copy()) == sorted(generating_set(group))


def test_rows_that_are_not_a_group_are_refused():
    rotation = np.array([[1, 2, 3, 0]])                 # generates 4 elements, 1 given
    with pytest.raises(ValueError, match="^the 1 permutations are not a group: they generate 4"):
        generating_set(rotation)


def test_orbit_classes_follow_the_maps():
    keys = np.arange(6, dtype=np.uint8).reshape(6, 1)
    swap = np.array([[1], [0], [3], [2], [4], [5]], dtype=np.uint8)   # (0 1)(2 3)
    first, size, closed = orbit_classes(keys, [swap])
    assert first.tolist() == [0, 2, 4, 5]
    assert size.tolist() == [2, 2, 1, 1]
    assert closed.all()


def test_orbit_classes_flag_a_class_with_an_image_outside():
    keys = np.array([[0], [1], [2]], dtype=np.uint8)
    images = [np.array([[1], [0], [7]], dtype=np.uint8)]              # 2 → 7: not a key
    first, size, closed = orbit_classes(keys, images)
    assert dict(zip(first.tolist(), closed.tolist())) == {0: True, 2: False}


def test_orbit_classes_join_through_several_generators():
    keys = np.arange(5, dtype=np.uint8).reshape(5, 1)
    a = np.array([[1], [0], [2], [3], [4]], dtype=np.uint8)
    b = np.array([[0], [2], [1], [4], [3]], dtype=np.uint8)
    first, size, _ = orbit_classes(keys, (x for x in [a, b]))          # any iterable of images
    assert first.tolist() == [0, 3] and size.tolist() == [3, 2]


def permuted_rows(width: int, values: int, perms: np.ndarray):
    """Every row of ``width`` values below ``values`` (shuffled), and its
    images under the column permutations ``perms``."""
    keys = np.array(list(itertools.product(range(values), repeat=width)), dtype=np.uint8)
    keys = keys[np.random.default_rng(1).permutation(len(keys))]
    return keys, [keys[:, p] for p in perms]


@pytest.mark.parametrize("width, values", [(4, 3), (6, 2), (5, 4)])
def test_orbit_classes_are_the_orbits_of_the_generated_group(width, values):
    """Rows of values under the dihedral group on their columns, by its
    generators, against the orbits taken over every element."""
    group = dihedral_group(width)
    keys, images = permuted_rows(width, values, group[generating_set(group)])
    index = {row.tobytes(): i for i, row in enumerate(keys)}
    smallest = [min(index[row[p].tobytes()] for p in group) for row in keys]
    first, size, closed = orbit_classes(keys, images)
    assert closed.all()
    assert first.tolist() == sorted(set(smallest))
    assert size.tolist() == [smallest.count(f) for f in first.tolist()]


def test_wide_keys_give_the_same_classes_as_narrow_ones():
    """Rows too wide for a 63-bit code are compared as bytes: the same classes."""
    rng = np.random.default_rng(2)
    narrow = np.unique(rng.integers(0, 3, size=(300, 6), dtype=np.uint8), axis=0)
    cycle = np.roll(np.arange(6), 1)
    wide = np.concatenate([narrow] * 8, axis=1)                  # 48 columns of 3 values
    narrow_images = [narrow[:, cycle]]
    wide_images = [np.concatenate([narrow[:, cycle]] * 8, axis=1)]
    a = orbit_classes(narrow, narrow_images)
    b = orbit_classes(wide, wide_images)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert (~a[2]).any() and a[2].any()                          # some rows map outside, some not


def test_an_image_that_differs_only_in_a_column_constant_over_the_keys_is_not_a_key():
    keys = np.array([[5, 0], [5, 1], [5, 2]], dtype=np.uint8)          # column 0 is always 5
    images = [np.array([[5, 1], [5, 0], [4, 2]], dtype=np.uint8)]     # row 2 → (4, 2): outside
    first, size, closed = orbit_classes(keys, images)
    assert first.tolist() == [0, 2] and closed.tolist() == [True, False]


def test_an_image_with_a_value_above_every_key_is_not_a_key():
    keys = np.array([[0, 1], [1, 0], [1, 1]], dtype=np.uint8)
    images = [np.array([[1, 0], [0, 1], [0, 3]], dtype=np.uint8)]     # (0, 3) would code as (1, 1)
    first, size, closed = orbit_classes(keys, images)
    assert first.tolist() == [0, 2] and closed.tolist() == [True, False]
