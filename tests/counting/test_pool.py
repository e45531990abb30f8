"""Running units (counting/pool.py): in this process or in a process pool,
longest first, with the options reaching every worker."""
import pytest

from counting.reduction import get_reduction
from counting.options import CountOptions
from counting.pool import run_units
from counting.units import UnitSpec
from dlx.sudoku import Sudoku

DEFAULT = CountOptions()


def test_pool_gives_the_same_counts_as_in_process():
    specs = get_reduction("3x3", "71").units()[:6]
    alone = {r.unit_id: r.count for r in run_units(specs, workers=1, options=DEFAULT)}
    pooled = {r.unit_id: r.count for r in run_units(specs, workers=2, options=DEFAULT)}
    assert alone == pooled and sorted(alone) == [s.unit_id for s in specs]


@pytest.mark.parametrize("workers", [1, 2])
def test_the_options_reach_every_worker(workers):
    specs = get_reduction("2x3", "moves").units()
    memo = list(run_units(specs, workers=workers, options=DEFAULT))
    plain = list(run_units(specs, workers=workers, options=CountOptions(memo=False)))
    assert sorted((r.unit_id, r.count) for r in memo) == sorted((r.unit_id, r.count) for r in plain)
    assert all(r.memo_hits > 0 for r in memo)
    assert all(r.memo_hits == 0 for r in plain)


def test_units_are_handed_out_longest_estimate_first():
    # Three 4x4 units, known by construction: the fewer the givens, the
    # larger the search; ids run the other way, so no tie-break hides it.
    band = [(0, c, d) for c, d in enumerate((1, 2, 3, 4))]
    column = [(1, 0, 3), (2, 0, 2), (3, 0, 4)]
    specs = [UnitSpec("2x2", "moves", u, u, 0, 1, tuple(g))
             for u, g in enumerate([band + column, band, []])]
    got = [(r.unit_id, r.count) for r in run_units(specs, workers=1, options=DEFAULT)]
    sud = Sudoku(2, 2)
    assert got == [(2, sud.count("." * 16)), (1, sud.count("1234" + "." * 12)),
                   (0, sud.count("1234" "3..." "2..." "4..."))]


def test_no_units_count_nothing():
    assert list(run_units([], workers=2, options=DEFAULT)) == []

