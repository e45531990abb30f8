"""The factorization kernel agrees with the dancing-links engine.

``grids.rectangle.ColumnSetRectangles(R, N).count(sets)`` counts the R × N
Latin rectangles with column sets by exact cover; ``count_factorizations``
must give the same number, and ``patterns2``'s unit counts (rectangles with
column 1 increasing, ``L / R!``) must be ``F_R(G_P) / R!``.
"""
import math
import random

import pytest

from counting.reduction import get_reduction
from counting.run.counter import count_unit
from grids.rectangle import ColumnSetRectangles
from factorization import FactorizationCounter, count_factorizations
from factorization_brute import random_regular


@pytest.mark.parametrize("R,N", [(2, 4), (2, 7), (3, 5), (3, 6), (3, 8), (4, 6), (4, 7)])
def test_random_column_set_patterns_agree_with_dancing_links(R, N):
    rng = random.Random(10 * R + N)
    rect = ColumnSetRectangles(R, N)
    for _ in range(4):
        sets = random_regular(N, R, rng)
        assert count_factorizations(sets) == rect.count(sets)


@pytest.mark.parametrize("shape", ["3x2", "2x4"])
def test_patterns2_units_are_factorizations_over_row_orders(shape):
    red = get_reduction(shape, "patterns2")
    R = red.rows
    counter = FactorizationCounter(2 * R)
    units = red.units()
    counts = {u.unit_id: count_factorizations(u.column_sets, counter=counter) // math.factorial(R)
              for u in units}
    for u in units[:: max(1, len(units) // 6)]:
        assert counts[u.unit_id] == count_unit(u).count
    if shape == "3x2":
        # the reduction's own doctest total: 6 x 6 Sudoku grids
        assert red.total(counts) == 28200960
