"""The recurrences the kernel relies on, checked against each other.

For a d-regular bipartite graph G (``factorization_brute`` enumerates the
perfect matchings and 2-factors independently of the kernel):

* plain sum:  F_d(G) = Σ_{M perfect matching} F_{d-1}(G - M)  (M is row 1);
* rooted:     F_d(G) = d · Σ_{M ∋ e} F_{d-1}(G - M)  for any edge e;
* degree 3:   F_3(G) = Σ_M 2^{c(G - M)}  (all matchings, no factor);
* degree 4:   F_4(G) = Σ_{H 2-factor ⊆ G} 2^{c(H)} · 2^{c(G - H)}
  (rows 1-2 form H, rows 3-4 form G - H, each ordered in 2^cycles ways).
"""
import random

import numpy as np
import pytest

from factorization import FactorizationCounter, count_factorizations
from factorization.kernel import key_to_adj
from factorization_brute import components, matchings, random_regular


def minus(sets, m):
    return [s - {m[c]} for c, s in enumerate(sets)]


def two_factors(sets):
    """All spanning 2-regular subgraphs, as column sets (each once)."""
    out = set()
    for m1 in matchings(sets):
        for m2 in matchings(minus(sets, m1)):
            out.add(tuple(frozenset({m1[c], m2[c]}) for c in range(len(sets))))
    return [list(h) for h in out]


CASES = [(n, d, seed) for n in (5, 6, 7) for d in (3, 4, 5) if d < n for seed in range(2)]


@pytest.mark.parametrize("n,d,seed", CASES)
def test_plain_sum_over_first_rows(n, d, seed):
    g = random_regular(n, d, random.Random(seed))
    assert count_factorizations(g) == sum(count_factorizations(minus(g, m))
                                          for m in matchings(g))


@pytest.mark.parametrize("n,d,seed", CASES)
def test_rooted_sum_at_every_edge(n, d, seed):
    g = random_regular(n, d, random.Random(seed))
    total = count_factorizations(g)
    for c in range(n):
        for s in g[c]:
            rooted = sum(count_factorizations(minus(g, m)) for m in matchings(g) if m[c] == s)
            assert d * rooted == total


@pytest.mark.parametrize("n,d,seed", CASES)
def test_kernel_children_are_the_rooted_matchings_up_to_isomorphism(n, d, seed):
    """The children the Python levels recurse on (grouped by canonical form)
    give the same sum as the matchings through column 0's lowest symbol."""
    g = random_regular(n, d, random.Random(seed))
    counter = FactorizationCounter(n)
    adj = np.array([sum(1 << (x - 1) for x in s) for s in g], dtype=np.uint32)
    kids, mult = counter.children(adj, rooted=True)
    via_kernel = sum(int(m) * counter.count(key_to_adj(tuple(int(w) for w in k), n), d - 1)
                     for k, m in zip(kids, mult))
    e = min(g[0])
    assert int(mult.sum()) == sum(1 for m in matchings(g) if m[0] == e)
    assert d * via_kernel == count_factorizations(g)


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_degree_three_sums_two_to_the_cycles_left_by_each_matching(n):
    for seed in range(3):
        g = random_regular(n, 3, random.Random(seed))
        assert count_factorizations(g) == sum(2 ** components(minus(g, m))
                                              for m in matchings(g))


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_degree_four_splits_into_two_factors(n):
    for seed in range(2):
        g = random_regular(n, 4, random.Random(seed))
        split = sum(2 ** components(h) * 2 ** components([a - b for a, b in zip(g, h)])
                    for h in two_factors(g))
        assert count_factorizations(g) == split


def test_degree_four_split_on_the_complete_graph():
    k44 = [frozenset(range(1, 5))] * 4
    hs = two_factors(k44)
    assert len(hs) == 90        # 2-factors of K_{4,4}: 4 x 4 0-1 matrices, line sums 2
    assert count_factorizations(k44) == sum(
        2 ** components(h) * 2 ** components([a - b for a, b in zip(k44, h)]) for h in hs) == 576
