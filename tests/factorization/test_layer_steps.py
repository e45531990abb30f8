"""The compiled layer transitions (factorization.layer_steps).

The compiled path must give, layer by layer, exactly the states, T values
and stabiliser orders of the NumPy reference (factorization.layers with
engine="numpy"); its canonical form must be a function of the orbit under
C2 wr S_C and separate orbits as the definition (the least image over the
whole group) does; its 128-bit sums must be exact far above 64 bits, and a
sum that does not fit must be refused (and redone with Python ints by
layer_counts), never wrapped.  Class-by-class agreement with the
1-factorization kernel is test_layers.py's (it runs the compiled path).
"""
import itertools
import random

import numpy as np
import pytest

from counting.published import lookup
from factorization import layers
from factorization.layer_canon import canonical_states, coordinate_group
from factorization.layer_job import first_layer
from factorization.layer_steps import (SumOverflow, children_of, layer_form, layer_forms_of,
                                        next_layer, next_layer_with_stats)
from factorization.layer_store import layer_digest
from factorization.layers import layer_counts
from layer_samples import invariance_failures, states, transform


@pytest.mark.parametrize("C,L", [(2, 2), (3, 2), (3, 3), (4, 2), (4, 3), (4, 4)])
def test_compiled_layers_equal_the_numpy_path_state_by_state(C, L):
    compiled = layer_counts(C, upto=L)
    reference = layer_counts(C, upto=L, engine="numpy")
    assert compiled.sizes == reference.sizes
    assert compiled.last == reference.last


def test_two_threads_give_the_same_layers():
    assert layer_counts(4, threads=2).last == layer_counts(4).last


@pytest.mark.parametrize("C", [2, 3, 4, pytest.param(5, marks=pytest.mark.slow), 6])
def test_forms_are_invariant_under_the_group(C):
    """Random images (stack permutations and column swaps) of every sample
    state get its form and its stabiliser order."""
    assert invariance_failures(layer_forms_of, C, seed=20 + C) == []


@pytest.mark.parametrize("C", [2, 3, 4])
def test_forms_separate_orbits_and_count_stabilisers_as_the_definition(C):
    """Equal forms exactly for equal orbits, and the stabiliser orders of the
    whole group's brute-force minimum."""
    rng = random.Random(30 + C)
    base = states(C, 40, seed=30 + C)
    base += [transform(s, rng.sample(range(C), C), [rng.randrange(2) for _ in range(C)])
             for s in base[:15]]
    forms, stab = layer_forms_of(np.array(base), C)
    full, stab_full = canonical_states(np.array(base), C, prune=False)
    for i, j in itertools.combinations(range(len(base)), 2):
        assert (forms[i] == forms[j]).all() == (full[i] == full[j]).all(), (base[i], base[j])
    assert stab.tolist() == stab_full.tolist()


def test_a_form_is_one_of_the_states_images():
    C = 4
    grp = coordinate_group(C)
    for state in states(C, 10, seed=3):
        images = {tuple(transform(state, p, f)) for p in grp.perms.tolist()
                  for f in grp.flips.tolist()}
        assert layer_form(state, C) in images


def scaled(layer, k):
    return {form: (t * k, stab) for form, (t, stab) in layer.items()}


@pytest.mark.parametrize("k", [(1 << 70) + 3, (1 << 100) - 1])
def test_sums_above_64_bits_are_exact(k):
    """T is linear in the parents' T: scaling them by k scales every child's
    T by k exactly (a dropped carry of the 128-bit sums breaks this)."""
    layer = layer_counts(4, upto=2).last
    nxt, rows = next_layer(layer, 4)
    big, rows_big = next_layer(scaled(layer, k), 4)
    assert rows_big == rows
    assert big == scaled(nxt, k)


def test_a_sum_over_128_bits_is_refused():
    layer = layer_counts(4, upto=2).last
    with pytest.raises(SumOverflow):
        next_layer(scaled(layer, 1 << 124), 4)         # the sums pass 2^128
    with pytest.raises(SumOverflow):
        next_layer(scaled(layer, 1 << 128), 4)         # T itself does not fit


def test_an_overflowing_layer_is_redone_with_python_ints(monkeypatch):
    """layer_counts falls back to the NumPy path when the compiled one
    refuses a layer, with the same result."""
    calls = []

    def refuse(layer, C, threads=1):
        calls.append(C)
        raise SumOverflow("planted")

    monkeypatch.setattr(layers, "next_layer", refuse)
    r = layer_counts(4)
    assert calls == [4, 4, 4]
    assert r.total == lookup("2x4").total
    monkeypatch.undo()
    assert r.last == layer_counts(4).last


def test_a_parent_not_in_canonical_form_is_refused():
    C = 4
    layer = layer_counts(C, upto=3).last
    form, value = next(((f, v) for f, v in layer.items() if v[1] == 1))
    other = tuple(transform(form, [1, 2, 3, 0], [1, 0, 0, 0]))
    assert other != form
    with pytest.raises(ValueError, match="canonical"):
        next_layer({other: value}, C)


@pytest.mark.parametrize("bad", [[[1, 2, 3, 8]], [[1, 2, 4, 16]], [[-1, 2, 4, 8]]])
def test_bad_masks_are_refused(bad):
    with pytest.raises(ValueError, match="masks"):
        layer_forms_of(np.array(bad), 2)


@pytest.mark.parametrize("kwargs,match", [(dict(engine="python"), "engine"),
                                          (dict(threads=0), "threads"),
                                          (dict(threads=True), "threads")])
def test_bad_options_are_refused(kwargs, match):
    with pytest.raises(ValueError, match=match):
        layer_counts(3, **kwargs)


def test_each_call_returns_its_own_statistics():
    """The statistics are the call's result (they were a function attribute
    overwritten by the next call): a second transition leaves the first's."""
    two = layer_counts(4, upto=2).last
    first, stats = next_layer_with_stats(two, 4)
    _, other = next_layer_with_stats(layer_counts(4, upto=3).last, 4)
    assert (stats.rows, stats.children) == (next_layer(two, 4)[1], len(first))
    assert stats.leaves >= stats.rows > other.rows
    assert stats.table_bytes >= 2 * stats.children * 40     # at most half full, >= 40 B a slot
    assert not hasattr(next_layer, "leaves")


def test_one_parents_children_are_its_transition_s():
    layer = layer_counts(5, upto=2).last
    form, (t, stab) = next(iter(layer.items()))
    kids, stabs, stats = children_of(form, stab, 5)
    expected, rows = next_layer({form: (t, stab)}, 5, parents=slice(0, 1))
    assert {tuple(k): s for k, s in zip(kids.tolist(), stabs.tolist())} \
        == {k: s for k, (_, s) in expected.items()}
    assert stats.rows == rows and stats.children == len(expected)


#: layer_digest of layers 2..C as the kernel of eff82cb (before issue 36's
#: speed passes) made them: the canonical forms the ``layers`` reduction's
#: unit ids (ranges of states in form order, LAYERS_VERSION "+layers1") and
#: every layer store's parent digests were made with.
FORM_DIGESTS = {
    3: ["dadb83cbbdc7a43ce7fe9169bc86d4db74a0c5b85226fc6fce141905b71e3760",
        "be0152a5e7d2fb24d464653fc3821a81faecb9fdc45c9f15b6c38f446980faca"],
    4: ["99ef0816e2efba91f397eec46ed2db6a944785bbfee1b3538d264ab7be487b8e",
        "c9bf35704e28ee08f945908d424531f7f685994107dcd4256b4614f6df8cfacb",
        "c487e15b30a3025c72512e765b15f92183d4b0acae4511761bf800ba636a4535"],
    5: ["a3bea46d752d7359c1d00459db346b752a94c2a5ca354179b4c3fc7d65f24dc6",
        "d342c8817942baa700dc7b06953d7e7718be94eb054edc46542dae0b5f01c19a",
        "da218dfa0fe9f84b5f7e821fc6d227508d041c0e66b00748f30cb2adc5683885",
        "5d003e49e7aa5a3fa00b84f4901b81fc4030513b50f4b37a195bbad39961f81f"],
}


@pytest.mark.parametrize("C", [3, 4, pytest.param(5, marks=pytest.mark.slow)])
def test_a_faster_kernel_keeps_the_canonical_forms_of_the_stored_units(C):
    # Another canonical form is as correct, but it renumbers the states: the
    # stored units' ranges would mean other parents.  Such a change must
    # come with a new LAYERS_VERSION (counting/reduction/layers.py) and new
    # digests here, never silently with a speed-up.
    layer, digests = first_layer(C), []
    for _ in range(1, C):
        layer, _ = next_layer(layer, C)
        digests.append(layer_digest(layer))
    assert digests == FORM_DIGESTS[C]


@pytest.mark.parametrize("C", [3, 4])
def test_a_next_layer_comes_in_form_order(C):
    # The order records and digests are written in (layer_store sorts again,
    # but in linear time when the layer is already in order).
    layer = first_layer(C)
    for _ in range(1, C):
        layer, _ = next_layer(layer, C)
        assert list(layer) == sorted(layer)
        part, _ = next_layer(layer, C, parents=slice(1, 3))
        assert list(part) == sorted(part)
