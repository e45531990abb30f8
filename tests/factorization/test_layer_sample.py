"""The sampled layers (factorization.layer_sample): every weight is exact.

An estimate of a sum over a layer is only as good as the probabilities it
divides by.  Here the sampler's expectation is computed exhaustively: over
every parent class of a whole layer and every labelled row from it (the
compiled transition gives, parent by parent, how many rows lead into each
child class), the probability of drawing each child class is summed
forward, and must equal the one child_probability computes backwards from
the child's own un-rows; then Σ_y p(y)·g(y)/p(y) is the exact layer sum
(its size: 16,150 for C = 5, layer 3).  The second weight, 1/np(z) for a
child of a sampled state, must sum over every parent's children to the
next layer's size.  A planted bias (a stabiliser factor dropped, a parent
class counted twice) moves the sums off the layer sizes.
"""
import math
import random
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from factorization.layer_sample import (child_probability, parent_classes, random_child,
                                        row_count, row_of_rank, unrows)
from factorization.layer_steps import children_of, layer_form, next_layer
from factorization.layers import layer_counts


def _mult_factorial(form) -> int:       # Π k!, written out here (an oracle)
    return math.prod(math.factorial(k) for k in Counter(form).values())


def forward_probabilities(C: int, L: int, only=None) -> tuple[dict, dict, dict]:
    """Layer ``L``, layer ``L + 1``, and the exact probability of drawing each
    class of layer ``L + 1`` (uniform parent class, uniform labelled row),
    summed forward from every parent's transition (``only``: of these
    classes alone, and the parents' rows are then not checked)."""
    layer = layer_counts(C, upto=L).last
    after = layer_counts(C, upto=L + 1).last
    prob: dict = {}
    for x, (_, stab) in layer.items():
        kids, _ = next_layer({x: (1, stab)}, C, parents=slice(0, 1))
        R = row_count(x, C)
        reached = 0
        for y in (kids if only is None else [y for y in only if y in kids]):
            a = Fraction(kids[y][0] * _mult_factorial(x), _mult_factorial(y))  # rows x -> y
            assert a.denominator == 1
            reached += a
            prob[y] = prob.get(y, 0) + a / (len(layer) * R)
        assert only is not None or reached == R, f"the rows of {x} are not all counted"
    return layer, after, prob


def backward(y, after, layer, C):
    return child_probability(y, after[y][1], C, len(layer), lambda f: layer[f][1])


@pytest.mark.parametrize("C,L", [(2, 1), (3, 1), (3, 2), (4, 1), (4, 2), (4, 3), (5, 1)])
def test_the_estimate_with_every_sample_is_the_layer_s_size(C, L):
    layer, after, prob = forward_probabilities(C, L)
    assert set(prob) == set(after) and sum(prob.values()) == 1
    assert sum(p / backward(y, after, layer, C) for y, p in prob.items()) == len(after)
    assert all(backward(y, after, layer, C) == p for y, p in prob.items())


@pytest.mark.slow
def test_the_estimate_with_every_sample_is_layer_3_of_2x5():
    """16,150 states (about a minute and a half: every state's un-rows)."""
    layer, after, prob = forward_probabilities(5, 2)
    assert sum(p / backward(y, after, layer, 5) for y, p in prob.items()) == 16_150


@pytest.mark.slow
def test_sampled_layer_3_states_of_2x5_have_their_forward_probability():
    """Twenty random draws: the backward probability of each equals the
    forward sum over all 107 parents (the exhaustive check is --runslow)."""
    layer = layer_counts(5, upto=2).last
    rng = random.Random(5)
    forms = list(layer)
    drawn = [random_child(layer, 5, rng, forms) for _ in range(20)]
    _, after, prob = forward_probabilities(5, 2, only={s.form for s in drawn})
    for s in drawn:
        assert s.form in after and s.stab == after[s.form][1]
        assert s.probability == prob[s.form]


def test_a_dropped_stabiliser_factor_biases_the_estimate():
    """The check above can fail: the probabilities without the parents'
    stabiliser orders do not sum to the layer's size."""
    layer, after, prob = forward_probabilities(4, 2)
    biased = {y: child_probability(y, after[y][1], 4, len(layer), lambda f: 1) for y in after}
    assert sum(p / biased[y] for y, p in prob.items()) != len(after)


@pytest.mark.parametrize("C,L", [(3, 2), (4, 2), (4, 3), (5, 1)])
def test_children_shared_by_their_parent_classes_sum_to_the_next_layer(C, L):
    """Σ over the parents of layer L of Σ over their children of 1/np: the
    size of layer L + 1 (each child once), and np is the number of parent
    classes the transition gives it."""
    layer = layer_counts(C, upto=L).last
    after = layer_counts(C, upto=L + 1).last
    parents_of: dict = {}
    total = Fraction(0)
    for x, (_, stab) in layer.items():
        kids, _, _ = children_of(x, stab, C)
        for z in map(tuple, kids.tolist()):
            parents_of.setdefault(z, set()).add(x)
            total += Fraction(1, len(parent_classes(z, C)))
    assert total == len(after)
    assert all(set(parent_classes(z, C)) == xs for z, xs in parents_of.items())


def test_row_ranks_list_every_row_once():
    """row_of_rank is a bijection from 0..R-1 onto the labelled rows, so a
    uniform rank is a uniform row; and un-rows invert rows."""
    layer = layer_counts(4, upto=2).last
    for x in list(layer)[:6]:
        R = row_count(x, 4)
        kids = {row_of_rank(x, 4, k) for k in range(R)}
        assert len(kids) == R
        for child in list(kids)[:5]:
            assert x in map(tuple, unrows(child, 4).tolist())
            assert all(bin(c).count("1") == bin(p).count("1") + 1 for c, p in zip(child, x))
    start = tuple(1 << j for j in range(6))
    R = row_count(start, 3)
    with pytest.raises(ValueError, match=f"row {R:,} of {R:,} rows"):
        row_of_rank(start, 3, R)


def test_the_start_state_s_rows_are_the_band_s_first_rows():
    """From the start (each digit in its own column) the labelled rows of C
    stacks are the permutations of 2C digits avoiding each digit's own
    stack: 4 for C = 2 (by hand: each stack's pair goes to the other stack)."""
    start = tuple(1 << j for j in range(4))
    assert row_count(start, 2) == 4
    assert layer_form(row_of_rank(start, 2, 0), 2) in layer_counts(2, upto=2).last


def test_a_state_of_the_wrong_size_is_refused():
    with pytest.raises(ValueError, match="6 masks"):
        row_count((1, 2, 4), 3)
    assert unrows(np.array([1, 2, 4, 8, 16, 32]), 3).shape == (1, 6)


@pytest.mark.parametrize("C,L", [(3, 1), (4, 1), (4, 2), pytest.param(5, 1, marks=pytest.mark.slow)])
def test_the_estimate_of_the_next_transition_s_rows_with_every_sample_is_exact(C, L):
    """Work, not only sizes: Σ p(y)·rows(y)/p(y) over layer L + 1 is the rows
    the whole transition L + 1 -> L + 2 enumerates."""
    layer, after, prob = forward_probabilities(C, L)
    rows = {y: children_of(y, after[y][1], C)[2].rows for y in after}
    exact = layer_counts(C, upto=L + 2).rows[L]
    assert sum(p * rows[y] / backward(y, after, layer, C) for y, p in prob.items()) == exact
