"""Bands of two-band shapes counted by layers (factorization.layers).

The layer method must give, for every class of band patterns, the number
of bands the 1-factorization kernel counts for it (the patterns2
reduction's per-class count), every intermediate layer's F_L must be the
kernel's count of its L-row rectangles (which checks the transition
coefficients), and the grid totals must be the published ones.
"""
import math
import random

import numpy as np
import pytest

from counting.published import lookup
from counting.reduction.patterns2 import pattern_classes
from factorization import count_factorizations
from factorization.layer_canon import coordinate_group
from factorization.layers import layer_counts, pattern_form


def column_sets(form, C):
    """The column sets of one digit labelling of a state (digits 1..2C)."""
    return [{d + 1 for d, mask in enumerate(form) if mask >> j & 1} for j in range(2 * C)]


@pytest.fixture(scope="module", params=[2, 3, 4])
def small(request):
    return layer_counts(request.param)


def test_totals_are_the_published_ones(small):
    C = small.C
    assert small.total == lookup(f"{C}x2").total


def test_every_class_has_the_kernels_count(small):
    C = small.C
    for form, c in small.classes.items():
        assert c.F == count_factorizations(column_sets(form, C)), form


def test_class_sizes_add_up_to_every_pattern(small):
    """Σ m·ℓ over the classes is the number of patterns, C(2C, C)^C: the
    stabiliser orders and labellings are right."""
    C = small.C
    assert sum(c.m * c.ell for c in small.classes.values()) == math.comb(2 * C, C) ** C


def test_patterns2_classes_one_by_one(small):
    """Each patterns2 class's representative falls in a layer class with the
    kernel's count of it, and the weighted sums agree."""
    C = small.C
    total = 0
    for pc in pattern_classes(C):
        layer_class = small.classes[pattern_form(pc.representative)]
        F = count_factorizations(pc.representative)
        assert layer_class.F == F, pc
        total += pc.weight * F * F
    assert total == small.total


@pytest.mark.parametrize("C,L", [(3, 2), (4, 2), (4, 3)])
def test_intermediate_layers_count_their_rectangles(C, L):
    """F_L = T_L / m at every state of layer L is the kernel's F_L of its
    L-regular graph: the transition coefficients are exact."""
    r = layer_counts(C, upto=L)
    order = coordinate_group(C).order
    assert len(r.last) == r.sizes[-1]
    for form, (T, stab) in r.last.items():
        m = order // stab
        assert T % m == 0
        assert T // m == count_factorizations(column_sets(form, C), L), form


@pytest.mark.parametrize("C", [3, 4])
def test_random_patterns_have_the_kernels_count(C):
    classes = layer_counts(C).classes
    rng = random.Random(C)
    digits = range(1, 2 * C + 1)
    for _ in range(20):
        sets = []
        for _ in range(C):
            first = set(rng.sample(digits, C))
            sets += [first, set(digits) - first]
        assert classes[pattern_form(sets)].F == count_factorizations(sets)


def test_layer_sizes():
    """Layers 1..C of C = 4 (54 at layer 3, the penultimate layer, as the
    independent Burnside count of linche89/sudoku-enumeration has it)."""
    assert layer_counts(4).sizes == (1, 23, 54, 26)


@pytest.mark.parametrize("args,match", [((1,), "stacks"), ((7,), "stacks"), ((3.0,), "stacks"),
                                        ((3, 0), "upto"), ((3, 4), "upto")])
def test_bad_arguments_are_refused(args, match):
    with pytest.raises(ValueError, match=match):
        layer_counts(*args)


def test_a_pattern_with_clashing_columns_is_refused():
    with pytest.raises(ValueError, match="stack 0"):
        pattern_form([{1, 2}, {2, 3}, {1, 3}, {2, 4}])


@pytest.mark.slow
def test_2x5_by_layers_class_by_class():
    """C = 5: the published total, and every patterns2 class's kernel count
    (minutes: the canonical forms of about two million children)."""
    r = layer_counts(5)
    assert r.total == lookup("2x5").total
    assert sum(c.m * c.ell for c in r.classes.values()) == math.comb(10, 5) ** 5
    for pc in pattern_classes(5):
        assert r.classes[pattern_form(pc.representative)].F == \
            count_factorizations(pc.representative), pc
