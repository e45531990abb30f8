"""Loops up to isomorphism by Burnside (counting/group/loop_classes.py).

The oracle is brute force (tests/latin_samples.py): every Latin square of a
small order listed by a backtracking search of its own, the loops among them
(a row and a column that read 0..n-1 at the same index), their classes
under the diagonal S_n found by union-find, the loops a permutation fixes
counted one by one.  No Burnside in it.
"""
from __future__ import annotations

import math
from functools import cache

import numpy as np
import pytest

from counting import published
from counting.group.latin_classes import LatinClass, paratopism
from counting.group.loop_classes import (MAX_LOOPS, MAX_SEARCHED_LOOPS, fixed_points,
                                         loop_class_count, loop_classes, loop_fixed_at,
                                         loop_givens, loop_term_fixed, loops_from_grid_total,
                                         reduced_from_grid_total)
from counting.group.permutations import type_representative
from latin_samples import generators, latin_squares
from union_find import UnionFind

#: OEIS A057771, loops of order n up to isomorphism (https://oeis.org/A057771).
A057771 = {1: 1, 2: 1, 3: 1, 4: 2, 5: 6, 6: 109, 7: 23_746}
#: OEIS A000315, reduced Latin squares (row 0 and column 0 in order).
A000315 = {1: 1, 2: 1, 3: 1, 4: 4, 5: 56, 6: 9408, 7: 16_942_080, 8: 535_281_401_856}


@cache
def brute_loops(n: int) -> np.ndarray:
    """``(count, n²)``: every loop of order ``n`` as its sorted triple indices,
    listed by a backtracking search of cells for each identity element ``e``
    (row ``e`` and column ``e`` filled in order first)."""
    out = set()
    for e in range(n):
        grid = [[-1] * n for _ in range(n)]
        for x in range(n):
            grid[e][x] = grid[x][e] = x
        free = [(r, c) for r in range(n) for c in range(n) if grid[r][c] < 0]

        def fill(k):
            if k == len(free):
                out.add(tuple((r * n + c) * n + grid[r][c] for r in range(n) for c in range(n)))
                return
            r, c = free[k]
            for s in range(n):
                if s not in grid[r] and all(grid[i][c] != s for i in range(n)):
                    grid[r][c] = s
                    fill(k + 1)
            grid[r][c] = -1

        fill(0)
    return np.array(sorted(out), dtype=np.int64).reshape(len(out), n * n)


def brute_loop_classes(n: int) -> int:
    """The loops' orbits under the diagonal S_n, by union-find."""
    loops = brute_loops(n)
    keys = [s.tobytes() for s in loops]
    sets = UnionFind(keys)
    for g in generators(n, "isomorphism"):
        for key, image in zip(keys, np.sort(g[loops], axis=1)):
            sets.union(key, image.tobytes())
    return sets.count()


def brute_fixed_loops(n: int, sigma) -> int:
    """The loops ``(σ, σ, σ)`` maps onto themselves, one by one."""
    loops = brute_loops(n)
    g = paratopism(n, sigma, sigma, sigma)
    return int((np.sort(g[loops], axis=1) == loops).all(axis=1).sum())


@pytest.mark.parametrize("n", range(1, 7))
def test_orders_1_to_6_are_oeis_a057771(n):
    assert loop_class_count(n).classes == A057771[n]


@pytest.mark.parametrize("n", range(1, 6))
def test_the_classes_are_the_union_find_orbits_of_every_loop(n):
    assert loop_class_count(n).classes == brute_loop_classes(n)


@pytest.mark.parametrize("n", [4, 5])
def test_every_term_is_the_loops_its_representative_fixes_one_by_one(n):
    """Fix(σ) counts every identity element σ fixes: forgetting the factor
    of fixed points, or counting at a point σ moves, fails here."""
    for cls in loop_classes(n):
        assert loop_term_fixed(cls) == brute_fixed_loops(n, cls.perms()[0]), cls.label()


@pytest.mark.slow
def test_order_7_is_23746():
    """About 20 CPU-s alone (38 s on the shared machine), most of it the
    identity's 16,942,080 reduced squares."""
    assert loop_class_count(7).classes == 23_746


@pytest.mark.parametrize("n", range(1, 7))
def test_the_identity_fixes_n_times_the_reduced_latin_squares(n):
    ident = tuple(range(n))
    assert loop_fixed_at(n, ident, 0) == A000315[n]
    assert loop_fixed_at(n, ident, n - 1) == A000315[n]       # any identity element
    assert loop_class_count(n).terms[0].fixed == n * A000315[n]
    if n <= 5:                                                # the oracle lists them
        assert len(brute_loops(n)) == n * A000315[n]


@pytest.mark.parametrize("n", range(1, 9))
def test_the_loops_are_the_latin_squares_over_n_minus_1_factorial_squared(n):
    grids = published.lookup(f"1x{n}").total              # OEIS A002860
    assert A000315[n] * math.factorial(n) * math.factorial(n - 1) == grids
    assert reduced_from_grid_total(n, grids) == A000315[n]
    assert loops_from_grid_total(n, grids) == n * A000315[n]


def test_order_8_takes_its_identity_term_from_the_grid_count_and_is_oeis_a057771():
    """R_8 = 535,281,401,856 is hours of search: the grid count L_8 (OEIS
    A002860) over 8!·7! is the identity's term; the other 14 terms are searched."""
    grids = published.lookup("1x8").total
    result = loop_class_count(8, grid_total=grids)
    assert result.classes == 106_228_849                     # OEIS A057771
    assert result.terms[0].fixed == 8 * A000315[8] and len(result.terms) == 22
    with pytest.raises(ValueError, match="pass grid_total") as info:
        loop_class_count(8)
    assert "\n" not in str(info.value)
    with pytest.raises(ValueError, match="positive multiple of 8!·7!"):
        loop_class_count(8, grid_total=grids + math.factorial(8))    # a multiple of 8! only


@pytest.mark.parametrize("bad", [0, -576, 577, 575, True, 576.0, "576"])
def test_a_grid_total_that_is_no_count_of_latin_squares_is_refused_in_one_line(bad):
    with pytest.raises(ValueError, match=r"^grid total of 1x4 must be a positive multiple "
                                         r"of 4!·3!, got ") as info:
        loops_from_grid_total(4, bad)
    assert "\n" not in str(info.value)


def test_a_grid_total_given_is_checked_against_the_searched_identity():
    assert loop_class_count(5, grid_total=161_280).classes == 6
    with pytest.raises(ArithmeticError, match="280 loops searched, but the grid count "
                                              "322,560 / 4!² is 560"):
        loop_class_count(5, grid_total=2 * 161_280)


def test_a_permutation_moving_the_identity_element_is_refused():
    with pytest.raises(ValueError, match="fixing e = 0"):
        loop_fixed_at(3, (1, 0, 2), 0)


def test_a_permutation_with_no_fixed_point_fixes_no_loop():
    cls = LatinClass(4, "diagonal", ((2, 2),), 3)
    assert fixed_points(cls) == () and loop_term_fixed(cls) == 0 == brute_fixed_loops(
        4, type_representative((2, 2)))


def test_the_givens_are_row_e_and_column_e_read_in_order():
    n, e = 3, 1
    triples = {(t // n // n, t // n % n, t % n) for t in loop_givens(n, e)}
    assert triples == {(1, 0, 0), (1, 1, 1), (1, 2, 2), (0, 1, 0), (2, 1, 2)}


def test_orders_beyond_the_counted_ones_are_refused_in_one_line():
    assert MAX_LOOPS == MAX_SEARCHED_LOOPS + 1 == 8
    with pytest.raises(ValueError, match=f"up to order {MAX_LOOPS} only") as info:
        loop_class_count(MAX_LOOPS + 1, grid_total=published.lookup("1x9").total)
    assert "\n" not in str(info.value)
    with pytest.raises(ValueError, match="positive integer"):
        loop_class_count(0)


def test_the_weights_of_the_fixed_points_sum_to_the_group_order():
    # Σ_σ f(σ) = n!: S_n has one orbit on the points (Burnside); the units' weights
    for n in range(1, 8):
        assert sum(c.size * len(fixed_points(c)) for c in loop_classes(n)) == math.factorial(n)


@pytest.mark.parametrize("n", range(1, 5))
def test_the_oracle_s_loops_are_the_latin_squares_with_an_identity_element(n):
    squares = latin_squares(n)
    table = (squares % n).reshape(-1, n, n)          # table[k, r, c]: the symbol
    ident = np.arange(n)
    has = np.zeros(len(squares), dtype=bool)
    for e in range(n):
        has |= (table[:, e, :] == ident).all(axis=1) & (table[:, :, e] == ident).all(axis=1)
    assert (squares[has] == brute_loops(n)).all() and has.sum() == len(brute_loops(n))
