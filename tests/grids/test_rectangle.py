"""Specification of grids/rectangle.py: Latin rectangles with given column sets
as exact cover, counted exactly like a brute-force enumeration."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from grids.rectangle import ColumnSetRectangles


def brute_force_rectangles(column_sets, n_rows):
    """Every R × N array with rows permutations of 1..N and column c
    holding exactly column_sets[c] (independent of the encoding)."""
    n = len(column_sets)
    rows = [p for p in itertools.permutations(range(1, n + 1))
            if all(p[c] in column_sets[c] for c in range(n))]
    out = []

    def extend(chosen):
        if len(chosen) == n_rows:
            out.append(np.array(chosen))
            return
        for p in rows:
            if all(p[c] != q[c] for q in chosen for c in range(n)):
                extend(chosen + [p])

    extend([])
    return out


def random_column_sets(rng, n_rows, n_cols):
    """Column sets of a random R × N Latin rectangle (so valid ones)."""
    while True:
        rows = [rng.permutation(n_cols) + 1]
        ok = True
        for _ in range(n_rows - 1):
            for _attempt in range(200):
                p = rng.permutation(n_cols) + 1
                if all((p != q).all() for q in rows):
                    rows.append(p)
                    break
            else:
                ok = False
                break
        if ok:
            return [set(np.array(rows)[:, c].tolist()) for c in range(n_cols)]


SIZES = [(1, 3), (2, 2), (2, 4), (2, 5), (3, 4), (3, 6)]


@pytest.mark.parametrize("n_rows, n_cols", SIZES)
def test_count_equals_brute_force_enumeration(n_rows, n_cols):
    # (the blockers of any one column are implied by the others; of two, not)
    rng = np.random.default_rng(n_rows * 100 + n_cols)
    rect = ColumnSetRectangles(n_rows, n_cols)
    counts = []
    for _ in range(6):
        sets = random_column_sets(rng, n_rows, n_cols)
        expected = len(brute_force_rectangles(sets, n_rows))
        counts.append(expected)
        assert rect.count(sets) == expected, sets
    assert max(counts) > 1 or n_rows == 1  # one row: its sets force it


@pytest.mark.parametrize("n_rows, n_cols", SIZES)
def test_solutions_are_exactly_the_rectangles(n_rows, n_cols):
    rng = np.random.default_rng(n_rows * 7 + n_cols)
    rect = ColumnSetRectangles(n_rows, n_cols)
    ec = rect.exact_cover()
    sets = random_column_sets(rng, n_rows, n_cols)
    found = {rect.decode(sol).tobytes() for sol in ec.solutions(given=rect.givens(sets))}
    assert found == {a.astype(np.int64).tobytes() for a in brute_force_rectangles(sets, n_rows)}


@pytest.mark.parametrize("n_rows, n_cols", [(2, 4), (3, 6), (4, 8), (3, 7)])
def test_ordering_rows_by_column_0_divides_the_count_by_r_factorial(n_rows, n_cols):
    rng = np.random.default_rng(n_rows + n_cols)
    rect = ColumnSetRectangles(n_rows, n_cols)
    assert rect.row_order_factor == math.factorial(n_rows)
    for _ in range(4):
        sets = random_column_sets(rng, n_rows, n_cols)
        full = rect.count(sets, memo=True)
        assert full == rect.row_order_factor * rect.count(sets, order_rows=True)
        assert full % rect.row_order_factor == 0


@pytest.mark.parametrize("n_rows, n_cols", [
    (3, 6), (4, 8), (4, 6), pytest.param(5, 10, marks=pytest.mark.slow)])
def test_memo_and_tail_never_change_a_count(n_rows, n_cols):
    rng = np.random.default_rng(n_rows * n_cols)
    rect = ColumnSetRectangles(n_rows, n_cols)
    sets = random_column_sets(rng, n_rows, n_cols)
    given = rect.givens(sets, order_rows=True)
    counts, calls = set(), 0
    for tail_rows in range(n_rows + 1):
        ec = rect.exact_cover(tail_rows=tail_rows)
        for memo, tail in [(False, False), (True, False), (False, True), (True, True)]:
            if tail and not tail_rows:
                continue
            if n_rows == 5 and (not tail or tail_rows < 2):
                continue  # slow searches; the others cover them
            counts.add(ec.count(given=given, memo=memo, tail=tail))
            calls += ec.stats.tail_calls
    assert len(counts) == 1 and counts.pop() > 1
    assert calls > 0


def test_default_tail_is_the_last_three_rows():
    rect = ColumnSetRectangles(5, 10)
    first, cell, row_symbol, column_symbol = rect.tail_columns(rect.default_tail_rows)
    assert first == 2 and cell.shape == (3, 10) and column_symbol.shape == (10, 10)
    assert ColumnSetRectangles(2, 4).default_tail_rows == 2


def test_rows_are_filled_in_order_so_memo_points_fall_at_row_ends():
    rect = ColumnSetRectangles(4, 8)
    prio = rect.row_priority()
    _, cell, row_symbol, column_symbol = rect.tail_columns(4)
    rows = np.arange(4)[:, None]
    assert (prio[cell] == rows).all() and (prio[row_symbol] == rows).all()
    assert (prio[column_symbol] == 4).all()


@pytest.mark.parametrize("sets, message", [
    ([{1, 2}, {3, 4}, {1, 3}], "need 4 column sets"),
    ([{1, 2}, {3, 4}, {1, 3}, {2, 5}], "digits must be integers 1..4"),
    ([{1, 2}, {3, 4}, {1, 3}, {2}], "needs 2 distinct digits"),
    ([{1, 2}, {3, 4}, {1, 3}, {1, 4}], "digit 1 lies in 3 column sets"),
    ("1234", "need 4 column sets"),
])
def test_bad_column_sets_are_refused_with_one_line(sets, message):
    with pytest.raises(ValueError, match=message):
        ColumnSetRectangles(2, 4).givens(sets)


@pytest.mark.parametrize("args", [(0, 3), (4, 3), (2, 65), (True, 2), (2.0, 4)])
def test_bad_sizes_are_refused(args):
    with pytest.raises(ValueError):
        ColumnSetRectangles(*args)


def test_bad_tail_rows_are_refused():
    with pytest.raises(ValueError, match="tail_rows"):
        ColumnSetRectangles(3, 6).exact_cover(tail_rows=4)
