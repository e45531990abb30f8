"""Canonical forms of band states (factorization.layer_canon).

A canonical form must be a function of the orbit: every image of a state
under the coordinate group C2 wr S_C has the same form and the same
stabiliser order, states of different orbits have different forms (checked
against the definition, the minimum over the whole group), and a form that
is not invariant is caught by the same check.
"""
import itertools
import math
import random

import numpy as np
import pytest

from factorization.layer_canon import canonical_states, coordinate_group, stabiliser
from layer_samples import invariance_failures, states, transform


@pytest.mark.parametrize("C", [2, 3, 4, 5])
def test_forms_are_invariant_under_the_group(C):
    assert invariance_failures(canonical_states, C, seed=C) == []


def sorted_masks(states, C):
    """A planted non-invariant 'form': the state itself, sorted."""
    states = np.sort(np.asarray(states), axis=1)
    return states, np.ones(len(states), dtype=np.int64)


def test_a_form_that_is_not_invariant_is_caught():
    assert invariance_failures(sorted_masks, 3, seed=1)


@pytest.mark.parametrize("C", [2, 3, 4])
def test_forms_separate_orbits_as_the_definition_does(C):
    """The pruned form and the minimum over the whole group partition states
    alike (equal forms exactly for equal orbits) and give the same
    stabiliser orders."""
    rng = random.Random(10 + C)
    base = states(C, 40, seed=10 + C)
    # images of some states mixed in, so that orbits repeat
    base += [transform(s, rng.sample(range(C), C), [rng.randrange(2) for _ in range(C)])
             for s in base[:15]]
    pruned, stab = canonical_states(np.array(base), C)
    full, stab_full = canonical_states(np.array(base), C, prune=False)
    for i, j in itertools.combinations(range(len(base)), 2):
        assert (pruned[i] == pruned[j]).all() == (full[i] == full[j]).all(), (base[i], base[j])
    assert stab.tolist() == stab_full.tolist()


def test_stabiliser_orders_match_a_brute_force_count():
    C = 3
    for state in states(C, 20, seed=5):
        forms, stab = canonical_states(np.array([state]), C)
        fixed = sum(transform(state, p, f) == state
                    for p in itertools.permutations(range(C))
                    for f in itertools.product((0, 1), repeat=C))
        assert stab[0] == fixed
        p, f = stabiliser(forms[0], C)
        assert len(p) == fixed


def test_the_group_has_its_order():
    for C in (1, 2, 3, 4):
        assert coordinate_group(C).order == 2 ** C * math.factorial(C)


@pytest.mark.parametrize("bad", [0, 8, 2.0, True])
def test_a_bad_number_of_stacks_is_refused(bad):
    with pytest.raises(ValueError, match="stacks"):
        coordinate_group(bad)
