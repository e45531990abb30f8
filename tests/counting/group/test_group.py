"""Specification of counting/group/symmetries.py: the grid symmetry group G and its classes.

The oracle is brute force: every element of G built directly from its
definition (band-preserving row permutations × stack-preserving column
permutations, × transposition for square boxes) as a permutation of the
cells, and conjugacy classes found by conjugating with generators.
"""
from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest

from counting.group.permutations import cycle_type
from counting.group.symmetries import (Symmetry, centraliser, conjugacy_classes, group_order,
                                     wreath_classes)
from grids.shape import Shape
from union_find import UnionFind


def _block_perms(n: int, block: int) -> list[tuple[int, ...]]:
    """Permutations of 0..n-1 that map every block of ``block`` consecutive
    points onto a block (by filtering all n! permutations)."""
    return [p for p in itertools.permutations(range(n))
            if all(len({p[i] // block for i in range(b, b + block)}) == 1
                   for b in range(0, n, block))]


def _all_elements(shape: Shape) -> np.ndarray:
    """Every element of G as a cell permutation, ``perm[k]`` = image of cell k."""
    n = shape.n
    r, c = np.divmod(np.arange(n * n), n)
    out = []
    for x in _block_perms(n, shape.box_rows):
        for y in _block_perms(n, shape.box_cols):
            x_, y_ = np.asarray(x), np.asarray(y)
            out.append(x_[r] * n + y_[c])
            if shape.box_rows == shape.box_cols:
                out.append(x_[c] * n + y_[r])
    return np.unique(np.asarray(out), axis=0)


def _brute_classes(shape: Shape, elements: np.ndarray) -> dict[tuple, int]:
    """Conjugacy class of every element (by union-find under conjugation by
    all of G's elements in a random sample that generates G), as
    element → class root."""
    index = {tuple(e): i for i, e in enumerate(elements)}
    sets = UnionFind(range(len(elements)))
    rng = np.random.default_rng(0)
    inverse = np.argsort(elements, axis=1)
    for h in rng.choice(len(elements), size=min(len(elements), 30), replace=False):
        conj = elements[h][elements[:, inverse[h]]]          # h∘g∘h⁻¹
        for i, row in enumerate(conj):
            sets.union(i, index[tuple(row)])
    return {tuple(e): sets.find(i) for i, e in enumerate(elements)}


@pytest.fixture(scope="module", params=["2x2", "2x3", "3x2"])
def brute(request):
    shape = Shape.parse(request.param)
    elements = _all_elements(shape)
    return shape, elements, _brute_classes(shape, elements)


def test_group_order_is_the_number_of_elements(brute):
    shape, elements, _ = brute
    assert group_order(shape) == len(elements)


def test_group_order_formula_for_9x9():
    assert group_order("3x3") == 2 * 6 ** 8 == 3_359_232


def test_classes_match_brute_force_conjugation(brute):
    shape, _, root = brute
    sizes = Counter(root.values())
    classes = conjugacy_classes(shape)
    assert len(classes) == len(sizes)
    assert sorted(c.size for c in classes) == sorted(sizes.values())
    roots = [root[tuple(c.representative.cell_permutation())] for c in classes]
    assert len(set(roots)) == len(classes)                      # one per class
    assert all(sizes[r] == c.size for r, c in zip(roots, classes))


@pytest.mark.parametrize("name, n_classes", [("2x2", 20), ("2x3", 90), ("3x3", 275)])
def test_class_sizes_sum_to_the_group_order(name, n_classes):
    classes = conjugacy_classes(name)
    assert len(classes) == n_classes                  # 275: Russell & Jarvis 2006
    assert sum(c.size for c in classes) == group_order(name)
    assert [c.class_id for c in classes] == list(range(n_classes))


@pytest.mark.parametrize("name", ["2x2", "2x3", "3x3", "2x4"])
def test_class_zero_is_the_identity(name):
    first = conjugacy_classes(name)[0]
    assert first.size == 1
    assert first.representative == Symmetry.identity(name)


def test_representatives_are_elements_of_the_group():
    for name in ("2x3", "3x3"):
        for c in conjugacy_classes(name):
            g = c.representative
            assert Symmetry.make(name, g.rows, g.cols, g.transpose) == g


@pytest.mark.parametrize("block, n_blocks", [(2, 2), (3, 2), (2, 3), (3, 3), (1, 4)])
def test_wreath_class_sizes_sum_to_the_wreath_order(block, n_blocks):
    classes = wreath_classes(block, n_blocks)
    order = math.factorial(block) ** n_blocks * math.factorial(n_blocks)
    assert sum(c.size for c in classes) == order


def _colours(perm: tuple[int, ...], block: int) -> list[tuple[int, tuple[int, ...]]]:
    """Coloured cycle type of a wreath element, straight from the definition:
    each cycle of the block map with the cycle type of the map from its first
    block back to itself after going once around."""
    n_blocks = len(perm) // block
    seen, out = set(), []
    for start in range(n_blocks):
        if start in seen:
            continue
        length, blk = 0, start
        around = list(range(start * block, start * block + block))
        while True:
            seen.add(blk)
            around = [perm[p] for p in around]
            length += 1
            blk = around[0] // block
            if blk == start:
                break
        out.append((length, cycle_type([p - start * block for p in around])))
    return sorted(out)


@pytest.mark.parametrize("block, n_blocks", [(2, 2), (3, 3), (2, 4), (3, 2)])
def test_wreath_representatives_have_their_coloured_cycle_type(block, n_blocks):
    classes = wreath_classes(block, n_blocks)
    assert len({c.cycles for c in classes}) == len(classes)
    for c in classes:
        assert _colours(c.representative(), block) == sorted(c.cycles)


def test_centraliser_order_times_class_size_is_the_group_order(brute):
    shape, _, _ = brute
    for c in conjugacy_classes(shape):
        assert len(centraliser(shape, c.representative)) * c.size == group_order(shape)


def test_centraliser_elements_commute_and_keep_the_cells():
    g = conjugacy_classes("3x3")[247].representative      # band and stack 3-cycles
    box1 = Shape(3, 3).box_cells[0]
    found = centraliser("3x3", g, box1)
    p = g.cell_permutation()
    for h in found:
        q = h.cell_permutation()
        assert np.array_equal(q[p], p[q])
        assert set(q[box1].tolist()) == set(box1.tolist())
    assert len(found) == 72


def test_make_refuses_what_is_not_a_grid_symmetry():
    with pytest.raises(ValueError, match="whole blocks"):
        Symmetry.make("2x2", (0, 2, 1, 3), (0, 1, 2, 3))
    with pytest.raises(ValueError, match="square boxes"):
        Symmetry.make("2x3", tuple(range(6)), tuple(range(6)), True)
    with pytest.raises(ValueError, match="permutation"):
        Symmetry.make("2x2", (0, 0, 1, 2), (0, 1, 2, 3))


def test_from_cell_permutation_gives_back_every_element_of_g(brute):
    shape, elements, _ = brute
    n = shape.n
    found = set()
    for x in _block_perms(n, shape.box_rows):
        for y in _block_perms(n, shape.box_cols):
            for t in ([False, True] if shape.box_rows == shape.box_cols else [False]):
                g = Symmetry.make(shape, x, y, t)
                assert Symmetry.from_cell_permutation(shape, g.cell_permutation()) == g
                found.add(tuple(g.cell_permutation()))
    assert found == {tuple(e) for e in elements}


@pytest.mark.parametrize("name, perm, message", [
    ("2x2", [0, 1, 2, 3, 4, 6, 5] + list(range(7, 16)), "no element"),   # two cells swapped
    ("2x2", [4 * r + c for r in (0, 2, 1, 3) for c in range(4)], "whole blocks"),  # rows 2, 3
    ("2x3", [6 * c + r for r in range(6) for c in range(6)], "square boxes"),  # transposed
    ("2x2", list(range(15)), "16 entries")])
def test_from_cell_permutation_refuses_what_is_not_in_g(name, perm, message):
    with pytest.raises(ValueError, match=message):
        Symmetry.from_cell_permutation(name, perm)


def test_a_conjugate_does_to_the_moved_cells_what_g_did_to_theirs(brute):
    """``(h·g·h⁻¹)(h(c)) = h(g(c))`` for every cell, on pairs of elements of G."""
    shape, elements, _ = brute
    rng = np.random.default_rng(1)
    for i, j in rng.integers(len(elements), size=(200, 2)):
        gp, hp = elements[i], elements[j]
        g, h = (Symmetry.from_cell_permutation(shape, p) for p in (gp, hp))
        other = g.conjugated_by(shape, h).cell_permutation()
        assert np.array_equal(other[hp], hp[gp])


def test_cell_permutation_moves_rows_columns_and_transposes():
    g = Symmetry.make("2x2", (1, 0, 2, 3), (0, 1, 3, 2), transpose=True)
    perm = g.cell_permutation()
    # cell (0, 2): transpose → (2, 0), rows[2] = 2, cols[0] = 0 → (2, 0)
    assert perm[0 * 4 + 2] == 2 * 4 + 0
    # cell (3, 1): → (1, 3) → (rows[1], cols[3]) = (0, 2)
    assert perm[3 * 4 + 1] == 0 * 4 + 2


def test_centraliser_of_every_element_of_4x4_group():
    """Not only representatives: every element, as rows, columns, transposition."""
    shape = Shape(2, 2)
    elements = _all_elements(shape)
    sizes = Counter(_brute_classes(shape, elements).values())
    root = _brute_classes(shape, elements)
    n = shape.n
    for x in _block_perms(n, 2):
        for y in _block_perms(n, 2):
            for t in (False, True):
                g = Symmetry.make(shape, x, y, t)
                found = centraliser(shape, g)
                assert len(found) * sizes[root[tuple(g.cell_permutation())]] == 128
