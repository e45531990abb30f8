"""Counting one unit (counting/run/counter.py): the count, its statistics, the
engine cache, the options, and the cost estimate that orders units."""
import math
import socket

import pytest

from counting.reduction import get_reduction
from counting.options import CountOptions
from counting.reduction.cost import estimate_cost, longest_first
from counting.run.counter import count_unit, hand_out
from counting.units import UnitSpec
from dlx import ENGINE_VERSION
from grids.sudoku import Sudoku

BENCH_BAND = ((1, 2, 3, 4, 5, 6, 7, 8, 9), (4, 5, 6, 7, 8, 9, 1, 2, 3),
              (7, 8, 9, 1, 2, 3, 4, 5, 6))
BENCH_COUNT = 6_696_000  # completions of the bench unit (scripts/bench_engine.py)


def _bench_unit():
    """The unit of scripts/bench_engine.py: column 1 = 2,5,8,3,6,9."""
    cls = next(c for c in get_reduction("3x3", "71").classes() if c.representative == BENCH_BAND)
    col = ((3, 0, 2), (4, 0, 5), (5, 0, 8), (6, 0, 3), (7, 0, 6), (8, 0, 9))
    return next(u for u in get_reduction("3x3", "71").units()
                if u.class_id == cls.class_id and u.givens[27:] == col)


def _spec(unit_id, shape, givens):
    return UnitSpec(shape, "moves", unit_id, unit_id, 0, 1, tuple(givens))


def _row(r, digits):
    return [(r, c, d) for c, d in enumerate(digits)]


def test_a_unit_result_carries_the_engines_count_and_statistics():
    spec = _bench_unit()
    res = count_unit(spec, fresh_memo=True)
    # the same search, run directly on a new engine
    sud = Sudoku(3, 3)
    ec = sud.exact_cover(priority="rows")
    n = ec.count(given=[sud.row_index(*g) for g in spec.givens], memo=True, tail=True)
    st = ec.stats
    assert res.count == n == BENCH_COUNT
    assert (res.nodes, res.dead_ends, res.memo_hits) == (st.nodes, st.dead_ends, st.memo_hits)
    assert (res.unit_id, res.class_id, res.form_id) == (spec.unit_id, spec.class_id, spec.form_id)
    assert res.engine_version == ENGINE_VERSION and res.host == socket.gethostname()
    assert res.seconds == round(res.seconds, 6) > 0     # the engine's time, in µs


@pytest.mark.slow
def test_options_choose_the_method_never_the_count():
    spec = _bench_unit()
    with_tail = count_unit(spec, CountOptions(), fresh_memo=True)
    no_tail = count_unit(spec, CountOptions(tail=False), fresh_memo=True)
    plain = count_unit(spec, CountOptions(memo=False))
    assert with_tail.count == no_tail.count == plain.count == BENCH_COUNT
    assert plain.memo_hits == 0 < no_tail.memo_hits
    # the tail takes over rows 6-9, so the search visits far fewer nodes
    assert with_tail.nodes * 2 < no_tail.nodes < plain.nodes


def test_the_memo_table_is_kept_between_units_unless_fresh():
    spec = _bench_unit()
    first = count_unit(spec, fresh_memo=True)
    warm = count_unit(spec)                  # the same engine: its table is kept
    fresh = count_unit(spec, fresh_memo=True)
    assert first.count == warm.count == fresh.count
    assert warm.nodes < first.nodes
    assert (fresh.nodes, fresh.memo_hits) == (first.nodes, first.memo_hits)


@pytest.mark.slow
def test_units_against_an_independent_plain_mrv_count():
    # Independent of the row-order priority and of memo: the plain
    # minimum-remaining-values engine on the same givens.
    sud = Sudoku(3, 3)
    ec = sud.exact_cover()
    for spec in (_bench_unit(), get_reduction("3x3", "71").units()[0]):
        given = [sud.row_index(*g) for g in spec.givens]
        assert count_unit(spec).count == ec.count(given=given)


# ---------------------------------------------------------------------------
# the cost estimate, by hand: Σ over blank cells of log(candidates)

def test_an_empty_grid_costs_log_n_per_cell():
    assert estimate_cost(_spec(0, "2x2", [])) == pytest.approx(16 * math.log(4))


def test_a_given_row_leaves_its_box_digits_out_of_the_band():
    # 4x4: row 2 sees two digits in its box, rows 3-4 one in their column
    cost = estimate_cost(_spec(0, "2x2", _row(0, (1, 2, 3, 4))))
    assert cost == pytest.approx(4 * math.log(2) + 8 * math.log(3))


def test_the_cost_uses_boxes_of_r_rows_by_c_columns():
    # 6x6 with boxes of 2 rows x 3 columns: row 2 sees three digits in its
    # box, rows 3-6 one in their column (3x2 boxes would give 4, 4, then 5)
    cost = estimate_cost(_spec(0, "2x3", _row(0, (1, 2, 3, 4, 5, 6))))
    assert cost == pytest.approx(6 * math.log(3) + 24 * math.log(5))
    cost = estimate_cost(_spec(0, "3x2", _row(0, (1, 2, 3, 4, 5, 6))))
    assert cost == pytest.approx(12 * math.log(4) + 18 * math.log(5))


def test_a_latin_square_has_no_box_constraint():
    cost = estimate_cost(_spec(0, "1x3", _row(0, (1, 2, 3))))
    assert cost == pytest.approx(6 * math.log(2))


def test_longest_first_puts_the_freest_unit_first_and_breaks_ties_by_id():
    band = _row(0, (1, 2, 3, 4))
    column = [(1, 0, 3), (2, 0, 2), (3, 0, 4)]
    most_given = _spec(0, "2x2", band + column)
    band_only = _spec(1, "2x2", band)
    nothing = _spec(2, "2x2", [])
    twin = _spec(3, "2x2", band)                # the same cost as unit 1
    order = longest_first([most_given, twin, band_only, nothing])
    assert [s.unit_id for s in order] == [2, 1, 3, 0]


def test_pattern_units_go_out_smallest_class_first():
    # the most symmetric patterns have the most rectangles (class 0 of 5x2:
    # size 4,032, the slowest unit); class ids are not in size order
    units = get_reduction("5x2", "patterns2").units()
    weights = [u.weight for u in units]
    assert weights != sorted(weights)
    order = [u.weight for u in hand_out(units)]
    assert order == sorted(weights)
