"""Specification of bandtables/symmetry.py: one slice per orbit of a
stack's band-2 choices under band 1's symmetries gives the unit's sum.

The reference is the kernel's plain sum over every choice
(:meth:`bandtables.api.BandTables.completions` for R = 2, 3 and
:func:`bandtables.tables4.completions4` for R = 4); the symmetries are
checked against all permutations of the digits where that is small.
"""
from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from bandtables import kernels
from bandtables.api import BandTables, band_codes
from bandtables.partitions import code_index, compatible_pairs, ordered_codes, unordered_codes
from bandtables.symmetry import (choice_orbits, first_stack_orbits, orbit_completions,
                                 orbit_plan, stack_symmetries)
from bandtables.tables import pattern_column_sets


def dense_kernel(bt):
    return lambda b, c, start, stop, K1: kernels.contract(bt.act, bt.T, b, c, start, stop, K1)


def random_band(R, rng):
    """Ordered codes of a band whose boxes are drawn at random (any codes)."""
    o = ordered_codes(R)
    return np.array([o[rng.randrange(len(o))] for _ in range(R)], dtype=np.uint8)


def brute_symmetries(codes, R):
    """Every digit permutation fixing box 0's code and permuting the others'."""
    u = code_index(codes, R)
    labels = unordered_codes(R)
    found = set()
    for p in itertools.permutations(range(3 * R)):
        moved = np.empty((R, 3 * R), dtype=np.uint8)
        moved[:, list(p)] = labels[u]
        img = code_index(moved, R)
        if img[0] == u[0] and sorted(img[1:]) == sorted(u[1:]):
            found.add(p)
    return found


@pytest.mark.parametrize("seed", range(6))
def test_the_stack_symmetries_of_a_2x3_band_are_every_permutation_that_keeps_it(seed):
    bt = BandTables.build(2)
    rng = random.Random(seed)
    rep = bt.classes.reps[seed % len(bt.classes.reps)]
    codes = band_codes(pattern_column_sets(list(rep), 2), 2) if seed < 3 else random_band(2, rng)
    codes[0] = unordered_codes(2)[0]                   # stack_symmetries wants box 0 standard
    got = {tuple(int(d) for d in h) for h in stack_symmetries(codes, 2)}
    assert got == brute_symmetries(codes, 2)


def test_stack_symmetries_refuse_a_band_whose_first_box_is_not_standard():
    codes = random_band(2, random.Random(1))
    codes[0] = unordered_codes(2)[3]
    with pytest.raises(ValueError, match="standard code"):
        stack_symmetries(codes, 2)


@pytest.mark.parametrize("R", [2, 3])
def test_one_slice_per_orbit_gives_the_whole_sum_for_every_class(R):
    bt = BandTables.build(R)
    for rep in bt.classes.reps:
        sets = pattern_column_sets(list(rep), R)
        total, terms = orbit_completions(band_codes(sets, R), R, dense_kernel(bt))
        assert total == bt.completions(sets), rep
        assert terms <= bt.K0 * bt.K ** (R - 1)


@pytest.mark.parametrize("seed", range(4))
def test_one_slice_per_orbit_gives_the_whole_sum_for_random_3x3_bands(seed):
    """Bands that are no class's representative: box 0 not standard, the
    stacks in any order (the routine relabels and reorders them first)."""
    bt = BandTables.build(3)
    rng = random.Random(seed)
    for _ in range(5):
        codes = random_band(3, rng)
        rows = [compatible_pairs(codes[s], 3) for s in range(3)]
        b = np.ascontiguousarray([r[0] for r in rows], dtype=np.uint16)
        c = np.ascontiguousarray([r[1] for r in rows], dtype=np.uint16)
        hi, lo = kernels.contract(bt.act, bt.T, b, c, 0, bt.K)        # every choice, no halving
        assert orbit_completions(codes, 3, dense_kernel(bt))[0] == (int(hi) << 64) | int(lo)


def test_the_orbits_weigh_every_choice_once_and_save_slices_on_3x3():
    """The weights add up to K; over the 44 classes the orbits of stack 0
    need fewer slices than the K/2 a class counts without them, and those of
    stack 1 (level 2) fewer terms again; every call's weight times its
    choices covers each stack-0 orbit's K stack-1 choices."""
    bt = BandTables.build(3)
    slices = terms = 0
    for rep in bt.classes.reps:
        codes = band_codes(pattern_column_sets(list(rep), 3), 3)
        _, reps, weights = first_stack_orbits(codes, 3)
        assert weights.sum() == bt.K and len(reps) == len(weights)
        slices += len(reps)
        _, calls = orbit_plan(codes, 3)
        assert sum(w * len(x0s) * len(x1s) for w, x0s, x1s in calls) == bt.K ** 2
        terms += sum(len(x0s) * len(x1s) for _, x0s, x1s in calls) * bt.K
    assert slices < len(bt.classes.reps) * bt.K0
    assert terms < slices * bt.K ** 2


# ---------------------------------------------------------------------------
# 4x3: the real tables (slow; built into the machine's cache first if absent)
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def t4(tables4_cache):
    from bandtables.tables4 import load
    return load(tables4_cache)


def kernel4(t):
    def kernel(b, c, start, stop):
        return kernels.contract4(t.act, t.act0, t.rep1, t.trans1, t.index1, t.rep2, t.trans2,
                                 t.pair_index, t.LT, b, c, start, stop)
    return kernel


@pytest.mark.slow
def test_4x3_class_0_by_orbits_equals_the_whole_sum(t4):
    """Class 0 (the most symmetric band): under 3 slices' terms instead of
    173, same sum."""
    from bandtables.tables4 import completions4, completions4_by_orbits
    codes = band_codes(pattern_column_sets(t4.reps[0].tolist(), 4), 4)
    total, terms = completions4_by_orbits(t4, codes)
    assert terms < 3 * 346 ** 3
    assert total == completions4(t4, codes)


@pytest.mark.slow
@pytest.mark.parametrize("class_id", [664, 5000])
def test_4x3_choices_of_one_orbit_have_equal_slices(t4, class_id):
    """Real 4x3 classes of the published sample with a symmetry: in each of
    two orbits of more than an exchanged pair, every choice's slice (counted
    by the kernel alone) is the same."""
    codes = band_codes(pattern_column_sets(t4.reps[class_id].tolist(), 4), 4)
    band, reps, weights = first_stack_orbits(codes, 4)
    rows = [compatible_pairs(band[s], 4) for s in range(4)]
    b = np.ascontiguousarray([r[0] for r in rows], dtype=np.uint16)
    c = np.ascontiguousarray([r[1] for r in rows], dtype=np.uint16)
    k = kernel4(t4)

    def slice_of(x):
        hi, lo = k(b, c, x, x + 1)
        return (int(hi) << 64) | int(lo)

    orbit = choice_orbits(band, 4)
    big = [o for o in range(orbit.max() + 1) if (orbit == o).sum() > 2][:2]
    assert big, "the class has no orbit beyond an exchanged pair"
    for o in big:
        members = np.flatnonzero(orbit == o)[:3]
        found = {slice_of(int(x)) for x in members}
        assert len(found) == 1, (o, found)
