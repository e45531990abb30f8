"""The kernel's cost model: labelled graph counts and measured expansions."""
import math
import random

import numpy as np
import pytest

from factorization import FactorizationCounter
import factorization.estimate as estimate_module
from factorization.estimate import (classes_bound, descent_seconds, factor_cost, log_labelled,
                                    random_regular, tree_seconds)

# n x n 0-1 matrices with every line sum 2 (OEIS A001499) and 3 (OEIS A001501),
# i.e. labelled 2- and 3-regular bipartite graphs on n + n vertices
A001499 = {4: 90, 5: 2040, 6: 67950, 7: 3110940, 8: 187530840}
A001501 = {5: 2040, 6: 297200, 7: 68938800, 8: 24046189440}


@pytest.mark.parametrize("n", [6, 7, 8])
def test_the_asymptotic_labelled_count_is_within_ten_per_cent(n):
    for d, exact in ((2, A001499[n]), (3, A001501[n])):
        assert abs(math.exp(log_labelled(n, d)) / exact - 1) < 0.1


def test_complements_have_equal_counts_and_the_ends_are_one():
    assert log_labelled(9, 4) == pytest.approx(log_labelled(9, 5))
    assert log_labelled(9, 0) == log_labelled(9, 9) == 0.0
    with pytest.raises(ValueError, match="degree must be in 0..9"):
        log_labelled(9, 10)


def unit_clocks(monkeypatch):
    """The working thread's CPU clock ticks one second a reading; the
    process's, which adds its other threads' time, a thousand."""
    thread, process = iter(range(10**6)), iter(range(0, 10**9, 1000))
    monkeypatch.setattr("time.thread_time", lambda: float(next(thread)))
    monkeypatch.setattr("time.process_time", lambda: float(next(process)))


def test_a_descent_times_every_degree_down_to_the_memoised_one_on_the_thread_s_clock(
        monkeypatch):
    k = np.full(7, 127, dtype=np.uint32)
    k &= ~(np.uint32(1) << np.arange(7, dtype=np.uint32))      # K_7,7 minus a matching: 6-regular
    unit_clocks(monkeypatch)
    times = descent_seconds(FactorizationCounter(7, 0.0), k, 6, random.Random(0))
    assert times == {6: 1.0, 5: 1.0, 4: 1.0}


def test_the_cost_needs_a_graph():
    with pytest.raises(ValueError, match="no sampled graph"):
        factor_cost(7, 5, 10, [])


@pytest.mark.parametrize("n,d", [(7, 5), (11, 7), (12, 6)])
def test_random_regular_graphs_have_every_degree_d(n, d):
    adj = random_regular(n, d, random.Random(n))
    assert [bin(int(a)).count("1") for a in adj] == [d] * n
    assert [sum(int(a) >> s & 1 for a in adj) for s in range(n)] == [d] * n


def test_the_tree_estimate_counts_the_nodes_of_the_recurrence_on_the_thread_s_clock(
        monkeypatch):
    # every timed expansion costs one tick of the working thread's CPU clock (2x6's
    # estimate read the process's): the estimate is then Knuth's estimate of the
    # number of nodes expanded, 1 + b1 + b1*b2 on 6-regular graphs of 7 + 7 (levels 6, 5, 4)
    unit_clocks(monkeypatch)
    adj = random_regular(7, 6, random.Random(0))
    counter = FactorizationCounter(7, 0.0)
    b1 = len(counter.children(adj, rooted=True)[0])
    rng = random.Random(3)
    keys = counter.children(adj, rooted=True)[0]
    child = estimate_module.key_to_adj(tuple(int(w) for w in keys[rng.randrange(len(keys))]), 7)
    b2 = len(counter.children(child, rooted=True)[0])
    got = tree_seconds(7, adj, 6, seed=3, max_seconds=0, min_paths=1)
    assert got == 1 + b1 + b1 * b2 and b1 > 1 and b2 > 1


def test_the_order_11_lower_bound_on_classes_is_labelled_graphs_over_relabellings():
    assert classes_bound(11, 7) == math.ceil(math.exp(log_labelled(11, 7)) / math.factorial(11) ** 2)
    assert classes_bound(11, 7) > 10**6 and classes_bound(3, 2) == 1
