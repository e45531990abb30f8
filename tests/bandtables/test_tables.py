"""Specification of bandtables/partitions.py and bandtables/tables.py: box
column codes, their relabelling tables, the band classes and the table of
``l = L / R!``.

Oracles are independent of the modules: codes by itertools, ``l`` by
enumerating rows, moves applied to column sets directly.  The one
published number is Russell's 44 column-set classes of 9×9 band 1
(Ed Russell, quoted in Wikipedia's "Mathematics of Sudoku").
"""
from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from bandtables.api import BandTables
from bandtables.partitions import (
    block_sets,
    code_index,
    compatible_pairs,
    normalisers,
    ordered_codes,
    standard_stabiliser,
    unordered_codes,
)
from bandtables.tables import rest_keys, class_table, pattern_column_sets

RUSSELL_44 = 44


def brute_force_l(column_sets):
    """Rectangles with these column sets and column 1 increasing, row by row."""
    N, R = len(column_sets), len(column_sets[0])
    sets = [set(s) for s in column_sets]
    rows = [p for p in itertools.permutations(range(1, N + 1))
            if all(p[c] in sets[c] for c in range(N))]
    count = 0
    for choice in itertools.combinations(rows, R):   # combinations: column 1 increasing
        if all(len({r[c] for r in choice}) == R for c in range(N)):
            count += 1
    return count


def moved(column_sets, rng):
    """A random relabelling, box permutation and column permutations inside boxes."""
    N = len(column_sets)
    relabel = dict(zip(range(1, N + 1), rng.sample(range(1, N + 1), N)))
    boxes = [list(column_sets[3 * i:3 * i + 3]) for i in range(N // 3)]
    rng.shuffle(boxes)
    out = []
    for box in boxes:
        rng.shuffle(box)
        out += [tuple(sorted(relabel[d] for d in s)) for s in box]
    return tuple(out)


@pytest.mark.parametrize("R", [1, 2, 3])
def test_codes_are_counted_by_the_multinomial(R):
    M = math.factorial(3 * R) // math.factorial(R) ** 3
    assert len(ordered_codes(R)) == M
    assert len(unordered_codes(R)) * 6 == M
    assert unordered_codes(R)[0].tolist() == [0] * R + [1] * R + [2] * R


@pytest.mark.parametrize("R", [2, 3])
def test_normalisers_send_each_code_to_the_standard_one(R):
    perms, act = normalisers(R)
    U = len(unordered_codes(R))
    for u in range(U):
        blocks = block_sets(u, R)
        image = sorted(tuple(sorted(int(perms[u][d]) for d in blk)) for blk in blocks)
        assert image == [tuple(range(k * R, (k + 1) * R)) for k in range(3)]
    assert np.all(act[np.arange(U), np.arange(U)] == 0)
    assert all(sorted(row) == list(range(U)) for row in act.tolist())  # a bijection


def test_the_standard_stabiliser_fixes_code_0_and_has_the_wreath_order():
    perms, act0 = standard_stabiliser(2)
    assert len(perms) == math.factorial(2) ** 3 * math.factorial(3)
    assert len({tuple(p) for p in perms.tolist()}) == len(perms)
    assert np.all(act0[:, 0] == 0)


@pytest.mark.parametrize("R", [2, 3])
def test_there_are_K_band_2_choices_per_stack(R):
    # choice matrix m[j][k]: digits moving from column j of band 1 to column
    # k != j of band 2; its rows and columns sum to R, which forces
    # m01 = m12 = m20 = a, m02 = m10 = m21 = R - a
    b, c = compatible_pairs(np.repeat(np.arange(3), R), R)
    assert len(b) == len(c) == sum(math.comb(R, a) ** 3 for a in range(R + 1))


def test_band_2_and_3_choices_are_every_split_of_a_stack_by_brute_force():
    """R = 2: every (band 2, band 3) pair of ordered codes putting each digit
    in three different columns of the stack, against compatible_pairs."""
    R = 2
    codes = ordered_codes(R)
    column = codes[37]
    expected = sorted((int(code_index(o2, R)[0]), int(code_index(o3, R)[0]))
                      for o2 in codes for o3 in codes
                      if all({int(column[d]), int(o2[d]), int(o3[d])} == {0, 1, 2}
                             for d in range(3 * R)))
    b, c = compatible_pairs(column, R)
    assert sorted(zip(b.tolist(), c.tolist())) == expected


def test_rest_keys_are_the_orbit_minima_under_the_whole_stabiliser():
    """The generator fixpoint equals the minimum over all 48 relabellings (R = 2)."""
    R = 2
    _, act0 = standard_stabiliser(R)
    assert rest_keys(R).tolist() == act0.min(axis=0).astype(int).tolist()


@pytest.mark.slow
def test_rest_keys_are_the_orbit_minima_for_R_3():
    R = 3
    _, act0 = standard_stabiliser(R)
    U = act0.shape[1]
    v2, v3 = (a.ravel() for a in np.indices((U, U)))
    best = np.full(U * U, np.iinfo(np.int64).max)
    for row in act0:
        a, b = row[v2].astype(np.int64), row[v3].astype(np.int64)
        best = np.minimum(best, np.minimum(a, b) * U + np.maximum(a, b))
    assert np.array_equal(rest_keys(R), best)


def test_R_3_has_russells_44_classes_and_sizes_sum_to_every_pattern():
    ct = class_table(3)
    assert len(ct.reps) == RUSSELL_44
    assert sum(ct.sizes) == (math.factorial(9) // 6 ** 3) ** 3


@pytest.mark.parametrize("R", [2, 3])
def test_the_table_agrees_with_the_engine_and_with_brute_force(R):
    bt = BandTables.build(R)
    rng = random.Random(R)
    rests = range(len(bt.T)) if R == 2 else rng.sample(range(len(bt.T)), 12)
    for flat in rests:
        rest = np.unravel_index(flat, (bt.U,) * (R - 1))
        sets = pattern_column_sets((0,) + tuple(int(v) for v in rest), R)
        assert int(bt.T[flat]) == bt.l(sets)
        if R == 2:
            assert int(bt.T[flat]) == brute_force_l(sets)
        else:
            from grids.rectangle import ColumnSetRectangles
            assert int(bt.T[flat]) * 6 == ColumnSetRectangles(3, 9).count(sets)


@pytest.mark.parametrize("R", [2, 3])
def test_class_and_l_are_unchanged_by_every_move(R):
    bt = BandTables.build(R)
    rng = random.Random(10 + R)
    for rep, l in zip(bt.classes.reps, bt.classes.l):
        sets = pattern_column_sets(rep, R)
        cid = bt.class_id(sets)
        for _ in range(5):
            other = moved(sets, rng)
            assert bt.class_id(other) == cid
            assert bt.l(other) == int(l)


def test_class_sizes_are_the_class_orbits():
    """R = 2: count ordered patterns by class directly, one pattern at a time."""
    bt = BandTables.build(2)
    by_class = [0] * len(bt.classes.reps)
    for a, b in itertools.product(ordered_codes(2), repeat=2):
        sets = []
        for box in (a, b):
            sets += [tuple(int(d) + 1 for d in np.flatnonzero(box == j)) for j in range(3)]
        by_class[bt.class_id(sets)] += 1
    assert tuple(by_class) == bt.classes.sizes


def test_code_index_refuses_what_is_not_a_code():
    with pytest.raises(ValueError, match="not a box column code"):
        code_index(np.array([[0, 0, 0, 1, 2, 2]]), 2)
