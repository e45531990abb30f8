"""F_k(G), the ordered 1-factorizations of a k-regular bipartite graph, is
the number of k × n Latin rectangles with the graph's column sets.

Specification by independent enumeration (``factorization_brute``: rows
filled one permutation at a time, no rooting, no canonical form, no memo).
"""
import random

import pytest

from factorization import FactorizationCounter, count_factorizations
from factorization_brute import components, random_regular, rectangles


@pytest.mark.parametrize("n,d", [(n, d) for n in range(1, 7) for d in range(1, n + 1)
                                 if d <= 4])
def test_count_equals_enumerated_rectangles(n, d):
    rng = random.Random(1000 * n + d)
    for _ in range(3):
        sets = random_regular(n, d, rng)
        assert count_factorizations(sets) == rectangles(sets)


def test_a_perfect_matching_has_one_factorization():
    assert count_factorizations([{3}, {1}, {2}]) == 1


@pytest.mark.parametrize("n", range(2, 13))
def test_degree_two_is_two_to_the_number_of_cycles(n):
    rng = random.Random(n)
    for _ in range(10):
        sets = random_regular(n, 2, rng)
        assert count_factorizations(sets) == 2 ** components(sets)


def test_symbols_may_be_any_comparable_labels():
    assert count_factorizations([{"a", "b"}, {"c", "d"}, {"a", "c"}, {"b", "d"}]) == 2


def test_disjoint_union_multiplies_within_each_colour_order():
    # two disjoint K_{3,3}: colours are chosen independently in each
    k33 = [{1, 2, 3}] * 3
    both = k33 + [{4, 5, 6}] * 3
    assert count_factorizations(both) == count_factorizations(k33) ** 2 == 12 ** 2


def test_memo_off_tiny_and_shared_give_the_same_counts():
    rng = random.Random(7)
    graphs = [random_regular(8, 5, rng) for _ in range(3)]
    plain = [count_factorizations(g, memo_mb=0) for g in graphs]
    tiny = FactorizationCounter(8, memo_mb=0.001)      # fills at once: drops results
    shared = FactorizationCounter(8, memo_mb=8)
    assert [count_factorizations(g, counter=tiny) for g in graphs] == plain
    assert [count_factorizations(g, counter=shared) for g in graphs] == plain
    assert tiny.stats()["dropped"] > 0
    st = shared.stats()
    assert st["entries"] > 0 and st["hits"] > 0 and st["bytes"] <= 8 * 2 ** 20


def test_a_full_tiny_memo_never_confuses_classes():
    """Many classes of 4-regular graphs on 9 + 9 through one 16-slot table:
    every lookup walks the full table's probe chains past other keys, and
    must match only its own class (all four key words and the degree)."""
    rng = random.Random(11)
    graphs = [random_regular(9, 4, rng) for _ in range(40)]
    tiny = FactorizationCounter(9, memo_mb=0.001, memo_min=3)
    assert [count_factorizations(g, counter=tiny) for g in graphs] == \
        [count_factorizations(g, memo_mb=0) for g in graphs]
