"""Latin squares and rectangles from the factorization counts.

Reference values: OEIS A002860 (number of Latin squares of order n) for
n <= 8 here (n = 9 in the slow test); rectangles against direct enumeration.
"""
import math

import pytest

from factorization import (FactorizationCounter, count_unit_chunk, count_unit_class,
                           latin_rectangles, latin_squares, latin_units)
from factorization_brute import latin_rectangles as brute_rectangles

# OEIS A002860, n = 1..9 (source: https://oeis.org/A002860)
A002860 = [1, 2, 12, 576, 161280, 812851200, 61479419904000, 108776032459082956800,
           5524751496156892842531225600]


@pytest.mark.parametrize("n", range(1, 9))
def test_latin_squares_match_oeis_a002860(n):
    assert latin_squares(n) == A002860[n - 1]


@pytest.mark.slow
def test_order_nine_matches_oeis_a002860():
    assert latin_squares(9, workers=2) == A002860[8]


@pytest.mark.parametrize("n", range(1, 6))
def test_latin_rectangles_match_enumeration(n):
    for k in range(0, n + 1 if n <= 4 else 3):
        assert latin_rectangles(k, n) == brute_rectangles(k, n)


@pytest.mark.parametrize("n", range(2, 10))
def test_two_row_rectangles_are_permutations_times_derangements(n):
    derangements = round(math.factorial(n) / math.e)
    assert latin_rectangles(2, n) == math.factorial(n) * derangements


@pytest.mark.parametrize("n", range(1, 8))
def test_a_rectangle_one_row_short_completes_uniquely(n):
    assert latin_rectangles(n - 1, n) == latin_rectangles(n, n) == A002860[n - 1]


@pytest.mark.parametrize("n", range(2, 8))
def test_units_at_every_degree_sum_to_the_square_count(n):
    for degree in range(1, n + 1):
        units = latin_units(n, degree)
        assert [u.unit_id for u in units] == list(range(len(units)))
        assert sum(u.weight * count_unit_class(u) for u in units) == A002860[n - 1]


def test_units_at_full_degree_are_the_complete_graph():
    (unit,) = latin_units(5, 5)
    assert unit.weight == 1 and unit.column_sets == ((1, 2, 3, 4, 5),) * 5


def test_units_count_from_their_column_sets_alone():
    """A worker needs only (column sets, degree): the unit's graph."""
    for u in latin_units(7, 4):
        assert count_unit_class(u.column_sets, u.degree) == count_unit_class(u)


def test_pool_of_two_workers_gives_the_same_total_and_reports_the_memo():
    stats = {}
    assert latin_squares(7, workers=2, stats=stats) == A002860[6]
    assert stats["units"] == len(latin_units(7, 7 // 2 + 1))
    assert stats["entries"] > 0 and stats["bytes"] > 0


@pytest.mark.parametrize("n,memo_mb", [(6, 0.001), (7, 0.002), (8, 0.05)])
def test_small_memo_tables_collide_often_and_still_count_right(n, memo_mb):
    """Tables of 16 to 512 slots, a third full or more: probes collide, and
    a result must land in the slot found after the recursion that made it."""
    stats = {}
    assert latin_squares(n, memo_mb=memo_mb, stats=stats) == A002860[n - 1]
    assert stats["entries"] > stats["capacity"] // 3


@pytest.mark.parametrize("n,d,chunks", [(5, 3, 2), (6, 4, 3), (7, 4, 5), (7, 5, 16)])
def test_the_chunks_of_every_unit_sum_to_its_count(n, d, chunks):
    # one counter for all: the children kept from the last graph must not leak to the next
    counter = FactorizationCounter(n)
    for u in latin_units(n, d):
        whole = count_unit_class(u, counter=counter)
        parts = [count_unit_chunk(u.column_sets, d, j, chunks, counter=counter)
                 for j in range(chunks)]
        assert sum(parts) == whole


def test_chunks_split_the_work_and_more_chunks_than_children_are_empty():
    u = latin_units(6, 4)[0]
    parts = [count_unit_chunk(u.column_sets, 4, j, 3) for j in range(3)]
    assert all(p > 0 for p in parts)
    many = [count_unit_chunk(u.column_sets, 4, j, 10**4) for j in range(10**4)]
    assert 0 in many and sum(many) == count_unit_class(u)


def test_a_chunk_outside_its_range_is_refused():
    u = latin_units(5, 3)[0]
    with pytest.raises(ValueError, match="chunk must be an integer in 0..2"):
        count_unit_chunk(u.column_sets, 3, 3, 3)
