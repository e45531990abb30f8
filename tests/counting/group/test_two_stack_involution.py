"""Specification of counting/group/two_stack_involution.py: #fixed(g, π) of a
2xC element swapping the stacks with g² = 1, by classes of patterns.

Two oracles that share nothing with the classes: the pattern walk of
:mod:`counting.group.two_stack_fixed` (``method="walk"``: valid patterns
listed one by one) and the whole-grid search
(:func:`counting.group.fixed.count_fixed`).  A wrong sign in ``T`` (which
bits are complemented), a wrong count of the stabiliser's relabellings or a
wrong class size changes some unit's count here.
"""
from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest

from counting.group.balanced_codes import signed_permutations
from counting.group.burnside import symmetry_units
from counting.group.fixed import count_fixed
from counting.group.permutations import cycle_type, type_representative
from counting.group.symmetries import Symmetry
from counting.group.two_stack_fixed import two_stack_count
from counting.group.two_stack_involution import (involution_fixed, is_stack_swapping_involution,
                                                 pattern_element, stabilising_relabellings)
from counting.reduction.patterns2 import pattern_classes
from factorization.api import count_factorizations

#: The units each route applies to (the element swaps the stacks, ρ² = 1,
#: βα = 1 and the relabelling type has no cycle longer than 2).
APPLIES = {
    "2x3": [2, 4, 6, 12, 13, 14, 15, 19, 25, 26, 27, 28],
    "3x2": [23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34],
    "2x4": [3, 8, 13, 18, 28, 29, 30, 31, 32, 38, 46, 59, 60, 61, 62, 63, 80, 81, 82, 83, 84],
}


def _element(shape, u):
    """ρ, κ, π of a unit as the 2xC grid sees them (Cx2 transposed)."""
    rows, cols = tuple(u.symmetry.rows), tuple(u.symmetry.cols)
    if shape == "3x2":
        rows, cols = cols, rows
    return rows, cols, type_representative(u.pi_type)


@pytest.mark.parametrize("shape", sorted(APPLIES))
def test_the_classes_apply_to_exactly_the_stack_swapping_involutions(shape):
    units = symmetry_units(shape)
    found = [u.unit_id for u in units if not u.symmetry.transpose
             and is_stack_swapping_involution(*_element(shape, u))]
    assert found == APPLIES[shape]


@pytest.mark.parametrize("shape", sorted(APPLIES))
def test_every_unit_it_applies_to_equals_the_pattern_walk(shape):
    """2x4: 21 units, 6 s (the walk of unit 28 lists every valid pattern)."""
    units = symmetry_units(shape)
    for i in APPLIES[shape]:
        u = units[i]
        by_classes = two_stack_count(shape, u.symmetry, u.pi_type, method="classes")
        walk = two_stack_count(shape, u.symmetry, u.pi_type, method="walk")
        assert by_classes.fixed == walk.fixed, (shape, i, u.symmetry.describe(), u.pi_type)


def test_units_of_2x3_equal_the_whole_grid_search():
    units = symmetry_units("2x3")
    for i in APPLIES["2x3"]:
        u = units[i]
        assert two_stack_count("2x3", u.symmetry, u.pi_type, method="classes").count \
            == count_fixed("2x3", u.symmetry, u.pi_type).count, i


def test_the_default_method_takes_the_classes_where_they_apply():
    u = symmetry_units("2x4")[28]
    auto = two_stack_count("2x4", u.symmetry, u.pi_type)
    assert auto.group_order == 2 ** 4 * math.factorial(4) * math.factorial(8)
    assert auto.patterns == len(pattern_classes(4, dual=False))     # π = 1: every class valid


def test_swapping_the_rows_of_every_band_and_the_stacks_fixes_a_stack_per_pattern():
    """ρ swaps the two rows of every band, κ swaps the stacks, π = 1: every
    pattern is valid and #fixed is the number of stacks (N × C, columns
    Latin, every box holding each digit once), Σ over all patterns of
    F = L(P): from patterns2's classes (with duality merged: another
    enumeration) and the kernel."""
    for C in (3, 4):
        n = 2 * C
        rows = tuple(r ^ 1 for r in range(n))
        cols = tuple(range(C, n)) + tuple(range(C))
        stacks = sum(k.weight * count_factorizations(k.representative, C)
                     for k in pattern_classes(C))
        assert involution_fixed(rows, cols, tuple(range(n))).fixed == stacks


def test_the_pattern_element_complements_the_bits_of_bands_whose_rows_keep_their_order():
    """ρ(2b + i) = 2τ(b) + (i XOR e_b): valid patterns have
    code(πd) = T(code(d)), bit b moving to τ(b), complemented where e_b = 0."""
    rows = (0, 1, 3, 2, 6, 7, 4, 5)       # band 0 kept, band 1's rows swapped, bands 2, 3 swapped
    t = pattern_element(rows).table
    assert t[0b0000] == 0b1101             # bits 0, 2, 3 complemented (e = 0), bit 1 kept
    assert t[0b0100] == 0b0101             # bit 2 moves to bit 3 (complemented: 1 -> 0)
    assert t[0b0010] == 0b1111


def test_stabilising_relabellings_equal_a_brute_force_count():
    """For every multiset of 3-bit codes on 6 digits kept by an element of
    B_3 and every cycle type: the relabellings σ with
    code(σd) = T(code(d)), listed among all 720."""
    digits = range(6)
    sigmas = [(s, cycle_type(s)) for s in itertools.permutations(digits)]
    checked = 0
    for codes in [(0, 0, 7, 7, 1, 6), (0, 0, 0, 7, 7, 7), (1, 2, 4, 6, 5, 3), (0, 3, 3, 4, 7, 7)]:
        mult = Counter(codes)
        for t in signed_permutations(3):
            if any(mult[t.table[x]] != k for x, k in mult.items()):
                continue
            brute = Counter(ct for s, ct in sigmas
                            if all(codes[s[d]] == t.table[codes[d]] for d in digits))
            for ct in {ct for _, ct in sigmas}:
                assert stabilising_relabellings(t.table, mult, Counter(ct)) == brute[ct], \
                    (codes, t.table, ct)
                checked += 1
    assert checked > 100


def test_other_elements_are_refused_in_one_line():
    u = symmetry_units("2x3")[1]          # keeps the stacks
    with pytest.raises(ValueError, match="swapping the stacks"):
        two_stack_count("2x3", u.symmetry, u.pi_type, method="classes")
    with pytest.raises(ValueError, match="method must be one of auto, walk, classes"):
        two_stack_count("2x3", Symmetry.identity("2x3"), (1,) * 6, method="fast")
