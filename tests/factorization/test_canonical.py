"""The canonical form: equal exactly on isomorphic graphs.

Isomorphic means equal after permuting the columns and, separately,
renaming the symbols (the two sides are never exchanged).  The key is the
canonical adjacency itself, so it also gives back a graph of the class.
"""
import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from factorization import FactorizationCounter, count_factorizations
from factorization.kernel import Kernel, key_to_adj
from factorization_brute import brute_canonical, random_regular, relabel


def adj_of(sets):
    return np.array([sum(1 << (x - 1) for x in s) for s in sets], dtype=np.uint32)


def sets_of(adj, n):
    return [frozenset(s + 1 for s in range(n) if int(a) >> s & 1) for a in adj]


@st.composite
def relabelled_pairs(draw):
    n = draw(st.integers(1, 16))
    d = draw(st.integers(1, n))
    seed = draw(st.integers(0, 2 ** 32))
    g = random_regular(n, d, random.Random(seed))
    cols = draw(st.permutations(range(n)))
    syms = draw(st.permutations(range(1, n + 1)))
    return n, g, relabel(g, cols, dict(zip(range(1, n + 1), syms)))


@settings(max_examples=150)
@given(relabelled_pairs())
def test_key_is_invariant_under_relabelling(case):
    n, g, h = case
    kernel = Kernel(n, 0.0)
    assert kernel.canonical(adj_of(g)) == kernel.canonical(adj_of(h))


@settings(max_examples=60)
@given(relabelled_pairs())
def test_key_decodes_to_a_graph_of_the_class(case):
    n, g, _ = case
    kernel = Kernel(n, 0.0)
    key = kernel.canonical(adj_of(g))
    back = key_to_adj(key, n)
    assert kernel.canonical(back) == key
    if n <= 7:
        assert brute_canonical(sets_of(back, n), n) == brute_canonical(g, n)


def symmetric_graphs():
    """Graphs with large automorphism groups, where pruning does the work."""
    def k(a, off):   # K_{a,a} on symbols off+1..off+a
        return [frozenset(range(off + 1, off + a + 1))] * a

    def cycle(m, off):   # a 2m-cycle on columns/symbols off..off+m-1
        return [frozenset({off + c + 1, off + (c + 1) % m + 1}) for c in range(m)]

    yield 10, k(5, 0) + k(5, 5)
    yield 12, k(4, 0) + k(4, 4) + k(4, 8)
    yield 12, cycle(3, 0) + cycle(3, 3) + cycle(3, 6) + cycle(3, 9)
    yield 16, [frozenset(range(1, 17)) - {c + 1} for c in range(16)]      # K - I
    yield 16, [frozenset(x for x in range(1, 17) if (x - 1) ^ c in (1, 2, 4, 8))
               for c in range(16)]                                       # the 4-cube


@pytest.mark.parametrize("n,g", list(symmetric_graphs()))
def test_symmetric_graphs_are_canonised_invariantly(n, g):
    kernel = Kernel(n, 0.0)
    key = kernel.canonical(adj_of(g))
    rng = random.Random(n)
    for _ in range(5):
        cols = list(range(n))
        syms = list(range(1, n + 1))
        rng.shuffle(cols)
        rng.shuffle(syms)
        assert kernel.canonical(adj_of(relabel(g, cols, dict(zip(range(1, n + 1), syms))))) == key


def all_regular(n, d):
    """Every d-regular bipartite graph on n + n, as column sets."""
    subsets = [frozenset(c) for c in itertools.combinations(range(1, n + 1), d)]
    for sets in itertools.product(subsets, repeat=n):
        if all(sum(x in s for s in sets) == d for x in range(1, n + 1)):
            yield list(sets)


@pytest.mark.parametrize("n,d", [(4, 2), (4, 3), (5, 3)])
def test_keys_separate_exactly_the_isomorphism_classes(n, d):
    kernel = Kernel(n, 0.0)
    by_key, by_brute = {}, {}
    for g in all_regular(n, d):
        by_key.setdefault(kernel.canonical(adj_of(g)), set()).add(brute_canonical(g, n))
        by_brute.setdefault(brute_canonical(g, n), set()).add(kernel.canonical(adj_of(g)))
    assert all(len(v) == 1 for v in by_key.values())
    assert all(len(v) == 1 for v in by_brute.values())


@pytest.mark.parametrize("n,d", [(6, 3), (7, 3)])
def test_keys_separate_classes_of_sampled_graphs(n, d):
    """Degree 3 on 6 + 6 and 7 + 7 goes through the search (not the cycle
    labelling): on random graphs, keys agree exactly when brute force does."""
    rng = random.Random(n)
    kernel = Kernel(n, 0.0)
    graphs = [random_regular(n, d, rng) for _ in range(120 if n == 6 else 30)]
    keys = [kernel.canonical(adj_of(g)) for g in graphs]
    brute = [brute_canonical(g, n) for g in graphs]
    assert len(set(keys)) == len(set(brute)) < len(graphs)
    assert len(set(zip(keys, brute))) == len(set(keys))


def test_counts_agree_across_relabellings_with_a_shared_memo():
    """A memo keyed by the canonical form returns the right value for every
    relabelling of a graph it has seen."""
    rng = random.Random(3)
    counter = FactorizationCounter(8)
    g = random_regular(8, 5, rng)
    first = count_factorizations(g, counter=counter)
    for _ in range(5):
        cols = list(range(8))
        syms = list(range(1, 9))
        rng.shuffle(cols)
        rng.shuffle(syms)
        h = relabel(g, cols, dict(zip(range(1, 9), syms)))
        assert count_factorizations(h, counter=counter) == first
        assert count_factorizations(h, memo_mb=0) == first
