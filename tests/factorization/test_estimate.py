"""The kernel's cost model: labelled graph counts and measured expansions."""
import math
import random

import numpy as np
import pytest

from factorization import FactorizationCounter
from factorization.estimate import descent_seconds, factor_cost, log_labelled

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


def test_a_descent_times_every_degree_down_to_the_memoised_one():
    k = np.full(7, 127, dtype=np.uint32)
    k &= ~(np.uint32(1) << np.arange(7, dtype=np.uint32))      # K_7,7 minus a matching: 6-regular
    times = descent_seconds(FactorizationCounter(7, 0.0), k, 6, random.Random(0))
    assert sorted(times) == [4, 5, 6] and all(t >= 0 for t in times.values())


def test_the_cost_needs_a_graph():
    with pytest.raises(ValueError, match="no sampled graph"):
        factor_cost(7, 5, 10, [])
