"""Specification of counting/reduction/base.py: the interface every
registered reduction offers, checked on every reduction of every small shape.

The total of a reduction's unit counts must be the number of grids found
with no reduction at all; unit ids must never change (stores depend on
them).
"""
from __future__ import annotations

import hashlib
import math

import pytest
from reduction_oracles import N_REDUCED, SMALL_SHAPES, SUDOKU, brute_force_grids, count_with

from counting.reduction import get_reduction, reduction_names
from counting.reduction.base import Reduction, checked_counts
from counting.reduction.bands import reduced_bands
from counting.run.counter import count_unit
from grids.sudoku import Sudoku

REGISTERED = [(name, r) for name in SMALL_SHAPES for r in reduction_names(name)]
# the reductions whose classes are classes of reduced bands ("layers": transitions)
BAND_REDUCTIONS = [(name, r) for name, r in REGISTERED
                   if r not in ("cycles", "cycles2", "patterns2", "patterns3", "factor",
                                "layers")]


def unit_counts(reduction: Reduction) -> dict[int, int]:
    """Count every unit with plain dancing links (pattern units, which carry
    column sets instead of givens, with their reduction's own matrix)."""
    return {u.unit_id: count_with(reduction.shape.name, {(i, j): d for i, j, d in u.givens})
            if hasattr(u, "givens") else count_unit(u).count
            for u in reduction.units()}


@pytest.mark.parametrize("name, reduction", REGISTERED)
def test_total_of_the_unit_counts_is_the_brute_force_count(name, reduction):
    r = get_reduction(name, reduction)
    assert r.total(unit_counts(r)) == brute_force_grids(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["2x3", "3x2"])
def test_6x6_brute_force_with_plain_dancing_links(name):
    r, c = (int(x) for x in name.split("x"))
    assert Sudoku(r, c).count() == brute_force_grids(name)


@pytest.mark.parametrize("name, reduction", BAND_REDUCTIONS + [("3x3", "71"), ("3x3", "44")])
def test_unit_ids_are_positions_and_unit_weights_are_class_weights(name, reduction):
    r = get_reduction(name, reduction)
    units, classes = r.units(), r.classes()
    assert [u.unit_id for u in units] == list(range(r.n_units()))
    assert [c.class_id for c in classes] == list(range(len(classes)))
    assert all(u.weight == classes[u.class_id].weight for u in units)
    assert {u.class_id for u in units} == set(range(len(classes)))
    # every reduced band is in one class, and every class has its units
    assert sum(c.weight for c in classes) == len(reduced_bands(name))
    assert sum(u.weight for u in units) == len(reduced_bands(name)) * len(units) // len(classes)


def fingerprint(reduction: Reduction) -> str:
    text = repr([(u.shape, u.reduction, u.unit_id, u.class_id, u.form_id, u.weight, u.givens)
                 for u in reduction.units()])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# Recorded from counting/reducer.py as it was before the reductions became a
# package (commit 7c2ef62): a store's unit ids, weights and givens must mean
# the same in every later release.
UNIT_FINGERPRINTS = {
    ("3x3", "71"): "37c14e745bfd26cc",
    ("3x3", "44"): "41e97923a0fb08b8",
    ("2x3", "moves"): "31168c062a88a572",
    ("4x2", "patterns"): "a556f70b813baf20",
}


@pytest.mark.parametrize("key", sorted(UNIT_FINGERPRINTS))
def test_units_are_the_same_as_in_every_earlier_release(key):
    assert fingerprint(get_reduction(*key)) == UNIT_FINGERPRINTS[key]


def test_the_total_is_the_factor_times_each_class_sum_by_its_weight():
    r = get_reduction(SUDOKU, "44")
    counts = {u.unit_id: 1_000_003 * u.unit_id + 7 for u in r.units()}
    cs = r.classes()
    expected_sums = {c.class_id: sum(counts[c.class_id * 10 + f] for f in range(10)) for c in cs}
    assert r.class_totals(counts) == expected_sums
    expected = 362_880 * 72 * 72 * sum(c.weight * expected_sums[c.class_id] for c in cs)
    total = r.total(counts)
    assert isinstance(total, int) and total == expected
    ones = {u.unit_id: 1 for u in r.units()}
    assert r.total(ones) == math.factorial(9) * 72 * 72 * 10 * N_REDUCED


def test_totals_are_exact_beyond_64_bits():
    r = get_reduction(SUDOKU, "71")
    huge = {u.unit_id: 2**70 for u in r.units()}
    assert r.total(huge) == 362_880 * 72 * 72 * 10 * N_REDUCED * 2**70


def test_incomplete_or_unknown_counts_are_rejected():
    r = get_reduction(SUDOKU, "71")
    counts = {u.unit_id: 1 for u in r.units()}
    del counts[5], counts[700]
    with pytest.raises(ValueError, match=r"2 unit id\(s\) missing: 5, 700"):
        r.total(counts)
    with pytest.raises(ValueError, match="missing"):
        r.class_totals(counts)
    counts.update({5: 1, 700: 1, 710: 1})
    with pytest.raises(ValueError, match="unknown unit id 710"):
        r.total(counts)
    del counts[710]
    counts[3] = -1
    with pytest.raises(ValueError, match="non-negative"):
        r.total(counts)


def test_checked_counts_rejects_bools_and_non_int_keys():
    with pytest.raises(ValueError, match="unknown unit id True"):
        checked_counts({True: 1}, 2)
    with pytest.raises(ValueError, match="non-negative int"):
        checked_counts({0: 1.5, 1: 1}, 2)
    with pytest.raises(ValueError, match=r"missing: 1$"):
        checked_counts({0: 1}, 2)


def test_checked_counts_says_how_many_ids_are_missing_with_separators():
    # the ids listed are labels (no separators); their number is a count
    with pytest.raises(ValueError) as err:
        checked_counts({0: 1}, 1_501)
    assert str(err.value).startswith("1,500 unit id(s) missing: 1, 2, 3, ")
    assert str(err.value).endswith(", 20, …")
