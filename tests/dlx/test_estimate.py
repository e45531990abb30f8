"""Knuth's estimator (dlx/estimate.py): exact where every path branches
alike, unbiased within its standard error elsewhere, reproducible by seed,
and never counting a leaf that is large."""
import math

import pytest

from dlx import ExactCover
from dlx.estimate import LEAF_SOLUTIONS, estimate
from engine_searches import record_searches, work
from grids.sudoku import Sudoku


def rooks(n):
    """n non-attacking rooks on an n×n board: n! solutions, and every path
    of the search branches n, n-1, ..., 1."""
    return ExactCover([[r, n + c] for r in range(n) for c in range(n)], n_primary=2 * n)


@pytest.mark.parametrize("leaf", [0, 1, 3, 5])
def test_estimate_is_exact_when_every_path_branches_alike(leaf):
    e = estimate(rooks(5), leaf=leaf, probes=20, seed=3, memo=False)
    assert e.count == 120 and e.count_se == 0
    assert e.dead_ends == 0 and e.probes == 20 and e.leaf == leaf


def test_the_time_estimate_is_on_the_counting_thread_s_cpu_clock(monkeypatch):
    # a leaf's time is read on the thread's CPU clock, not the wall's, so a
    # loaded machine does not inflate it: with a clock that ticks one second
    # a reading, every leaf costs 1 s and the estimate is Π = 5·4 = 20 s
    ticks = iter(range(10**6))
    monkeypatch.setattr("time.thread_time", lambda: float(next(ticks)))
    e = estimate(rooks(5), leaf=2, probes=10, seed=1, memo=False)
    assert e.seconds == 20.0 and e.seconds_se == 0


@pytest.mark.parametrize("least", [1, 3, 10])
def test_a_spent_time_budget_still_walks_the_least_paths_asked(least):
    e = estimate(rooks(5), leaf=2, probes=50, seed=1, memo=False, max_seconds=0.0,
                 min_probes=least)
    assert e.probes == least


def irregular():
    """6x6 Sudoku with three scattered givens: paths branch differently."""
    sud = Sudoku.from_shape("2x3")
    ec = sud.exact_cover(priority="rows")
    return ec, [sud.row_index(0, 0, 1), sud.row_index(2, 4, 3), sud.row_index(5, 1, 6)]


def test_estimate_of_a_sudoku_count_is_within_its_standard_error():
    ec, given = irregular()
    exact = ec.count(given=given, memo=True)
    e = estimate(ec, given=given, leaf=6, probes=300, seed=1, memo=True, tail=False)
    assert 0 < e.count_se < exact / 4
    assert abs(e.count - exact) < 4 * e.count_se


def test_a_dead_end_counts_zero_and_is_reported():
    # three columns, rows of two: no exact cover, every path ends at a dead end
    ec = ExactCover([[0, 1], [0, 2], [1, 2]], n_primary=3)
    assert ec.count() == 0
    e = estimate(ec, probes=30, seed=0, memo=False, leaf=3)
    assert e.count == 0 and e.dead_ends == 30


def test_an_estimate_reports_the_work_of_the_leaf_counts_it_ran(monkeypatch):
    """The leaf counts are searches: their nodes, dead ends and memo hits,
    summed as the engine reports them, each leaf once (the orbit covers
    add them to a unit's work, counting/group/cover.py)."""
    ec, given = irregular()
    runs = record_searches(monkeypatch)
    e = estimate(ec, given=given, leaf=4, probes=60, seed=1, memo=True, tail=False)
    assert 0 < len(runs) < e.probes              # some leaves were met again
    assert (e.leaf_nodes, e.leaf_dead_ends, e.leaf_memo_hits) == work(runs)
    assert e.leaf_nodes > 0


def test_the_same_seed_gives_the_same_estimate():
    ec, given = irregular()
    a = estimate(ec, given=given, leaf=6, probes=50, seed=7, memo=False)
    b = estimate(ec, given=given, leaf=6, probes=50, seed=7, memo=False)
    c = estimate(ec, given=given, leaf=6, probes=50, seed=8, memo=False)
    assert a.count == b.count and a.leaf == b.leaf
    assert a.count != c.count


def test_the_default_leaf_leaves_a_bounded_count_below_it():
    sud = Sudoku.from_shape("2x3")
    ec = sud.exact_cover(priority="rows")
    e = estimate(ec, probes=30, seed=2, memo=False)
    assert 0 < e.leaf < 36          # some rows chosen, not all 36 cells
    assert e.seconds > 0 and math.isfinite(e.seconds)
    # the whole 6x6 count (28,200,960) is above LEAF_SOLUTIONS: a leaf is lower
    assert ec.count(memo=True) > LEAF_SOLUTIONS


def test_fewer_solutions_per_leaf_put_the_leaves_deeper():
    # the quick look of counting/reach.py asks for shallow-count leaves
    ec = Sudoku.from_shape("2x3").exact_cover(priority="rows")
    default = estimate(ec, probes=10, seed=2, memo=False)
    deep = estimate(ec, probes=10, seed=2, memo=False, leaf_solutions=10)
    assert default.leaf < deep.leaf < 36
    assert deep.count > 0


@pytest.mark.parametrize("probes", [0, -1, 1.5, True])
def test_bad_probe_counts_are_refused(probes):
    with pytest.raises(ValueError, match="probes must be an int >= 1"):
        estimate(rooks(3), probes=probes)
