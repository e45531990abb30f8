"""The checks of ``dlx._inputs`` as ``ExactCover.solve_batch`` applies them:
every problem's given rows are distinct, and the first problem listing a
row twice is named; a batch whose problems list their rows in increasing
order (as a Sudoku batch does) is checked in one pass, without sorting."""

import numpy as np
import pytest
from problems import knuth_example

from dlx import ExactCover


@pytest.fixture
def knuth():
    return ExactCover(*knuth_example()[:2])


def _first_repeat(batch):
    """The message solve_batch must give, found by brute force (or None)."""
    for k, rows in enumerate(batch):
        twice = sorted(r for r in set(rows) if rows.count(r) > 1)
        if twice:
            return f"problem {k}: given row {twice[0]} is listed twice"
    return None


def test_a_batch_in_increasing_order_is_checked_without_sorting(knuth, monkeypatch):
    def no_sort(*args, **kwargs):
        raise AssertionError("the repeat check sorted a batch already in order")

    monkeypatch.setattr(np, "lexsort", no_sort)
    # each problem rises; the next one starts lower (no repeat across problems)
    counts, _ = knuth.solve_batch([[1, 3], [], [0, 3], [1], [3, 5], [0]])
    assert counts.tolist() == [1, 1, 0, 1, 1, 0]
    counts, _ = knuth.solve_batch((np.array([0, 2, 2, 3]), np.array([1, 3, 0])))
    assert counts.tolist() == [1, 1, 0]


@pytest.mark.parametrize("batch, message", [
    ([[1, 3], [3, 5, 5]], "problem 1: given row 5 is listed twice"),   # rising, then equal
    ([[5, 1, 5], [2]], "problem 0: given row 5 is listed twice"),      # out of order
    ([[], [4, 2, 4, 2]], "problem 1: given row 2 is listed twice"),    # the smallest value
    ([[0, 1], [0, 1], [], [3, 3]], "problem 3: given row 3 is listed twice"),
])
def test_the_first_problem_with_a_repeated_row_is_named(knuth, batch, message):
    with pytest.raises(ValueError, match=message):
        knuth.solve_batch(batch)


def test_random_batches_are_refused_exactly_when_a_problem_repeats_a_row(knuth):
    rng = np.random.default_rng(37)
    for _ in range(300):
        batch = [sorted(rng.choice(6, rng.integers(0, 4)).tolist(),
                        reverse=bool(rng.integers(2)))
                 if rng.integers(2) else rng.choice(6, rng.integers(0, 4)).tolist()
                 for _ in range(rng.integers(1, 6))]
        want = _first_repeat(batch)
        if want is None:
            counts, _ = knuth.solve_batch(batch)
            assert len(counts) == len(batch)
        else:
            with pytest.raises(ValueError, match=want):
                knuth.solve_batch(batch)
