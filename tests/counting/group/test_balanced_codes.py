"""Specification of counting/group/balanced_codes.py: digit codes of
two-stack patterns under the hyperoctahedral group B_R.

The classes themselves are specified through their sizes, which must add
up to every pattern (and through patterns2's grid totals,
tests/counting/reduction/test_patterns2.py).
"""
from __future__ import annotations

import math
from collections import Counter

import pytest

from counting.group.balanced_codes import (balanced_orbits, pattern_from_codes, signed_element,
                                           signed_permutations)
from counting.group.permutations import partitions


@pytest.mark.parametrize("R", [2, 3, 4])
def test_the_orbits_cover_every_pattern_once(R):
    """Σ |B_R|/stabiliser · (2R)!/Π mult! over the orbits = C(2R, R)^R."""
    total = sum(2 ** R * math.factorial(R) // stab * math.factorial(2 * R)
                // math.prod(math.factorial(k) for k in Counter(codes).values())
                for codes, stab in balanced_orbits(R).items())
    assert total == math.comb(2 * R, R) ** R


def test_a_pattern_from_codes_puts_a_digit_in_row_2b_plus_its_bit_b():
    assert pattern_from_codes((0b01, 0b10, 0b11, 0b00), 2) == ((2, 4), (1, 3), (1, 4), (2, 3))


@pytest.mark.parametrize("R", [2, 3])
def test_the_signed_type_is_the_conjugacy_class(R):
    """Conjugates share their signed type, and there are as many types as
    pairs of partitions (a, b) with |a| + |b| = R: the classes of B_R."""
    elements = signed_permutations(R)
    assert len(elements) == 2 ** R * math.factorial(R)
    inverse = {}
    for u in elements:
        inv = [0] * (1 << R)
        for x, y in enumerate(u.table):
            inv[y] = x
        inverse[u.table] = inv
    for t in elements:
        for u in elements:
            conj = tuple(u.table[t.table[inverse[u.table][x]]] for x in range(1 << R))
            assert next(e for e in elements if e.table == conj).signed_type == t.signed_type
    pairs = sum(len(partitions(a)) * len(partitions(R - a)) for a in range(R + 1))
    assert len({e.signed_type for e in elements}) == pairs


def test_an_element_complements_a_bit_before_moving_it():
    t = signed_element((1, 0), 0b01)       # bit 0 -> bit 1 complemented, bit 1 -> bit 0
    assert [t.table[x] for x in range(4)] == [0b10, 0b00, 0b11, 0b01]
    assert t.signed_type == ((2, 1),)
