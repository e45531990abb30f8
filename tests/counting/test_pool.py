"""Counting units: in-process, through the process pool, against plain DLX."""
import pytest

from counting.pool import count_unit, estimate_cost, run_units
from counting.reduction import get_reduction
from dlx import ENGINE_VERSION
from dlx.sudoku import Sudoku

BENCH_BAND = ((1, 2, 3, 4, 5, 6, 7, 8, 9), (4, 5, 6, 7, 8, 9, 1, 2, 3),
              (7, 8, 9, 1, 2, 3, 4, 5, 6))


def _bench_unit():
    """The unit of scripts/bench_engine.py: column 1 = 2,5,8,3,6,9."""
    cls = next(c for c in get_reduction("3x3", "71").classes() if c.representative == BENCH_BAND)
    col = ((3, 0, 2), (4, 0, 5), (5, 0, 8), (6, 0, 3), (7, 0, 6), (8, 0, 9))
    return next(u for u in get_reduction("3x3", "71").units()
                if u.class_id == cls.class_id and u.givens[27:] == col)


def test_a_unit_result_carries_count_and_statistics():
    res = count_unit(_bench_unit())
    assert res.count == 6_696_000
    assert res.nodes > 0 and res.memo_hits > 0 and res.seconds > 0
    assert res.engine_version == ENGINE_VERSION and res.host


def test_memo_and_plain_counts_agree_on_a_unit():
    spec = _bench_unit()
    assert count_unit(spec, memo=True, fresh_memo=True).count == \
        count_unit(spec, memo=False).count


def test_tail_is_on_with_memo_and_off_when_asked_or_plain():
    spec = _bench_unit()
    with_tail = count_unit(spec, memo=True, fresh_memo=True)
    no_tail = count_unit(spec, memo=True, tail=False, fresh_memo=True)
    plain = count_unit(spec, memo=False)
    assert with_tail.count == no_tail.count == plain.count
    # the tail takes over rows 6-9, so the search visits far fewer nodes
    assert with_tail.nodes * 2 < no_tail.nodes < plain.nodes


@pytest.mark.slow
def test_units_against_an_independent_plain_mrv_count():
    # Independent of the row-order priority and of memo: the plain
    # minimum-remaining-values engine on the same givens.
    sud = Sudoku(3, 3)
    ec = sud.exact_cover()
    for spec in (_bench_unit(), get_reduction("3x3", "71").units()[0]):
        given = [sud.row_index(*g) for g in spec.givens]
        assert count_unit(spec).count == ec.count(given=given)


def test_pool_gives_the_same_counts_as_in_process():
    specs = get_reduction("3x3", "71").units()[:6]
    alone = {r.unit_id: r.count for r in run_units(specs, workers=1)}
    pooled = {r.unit_id: r.count for r in run_units(specs, workers=2)}
    assert alone == pooled and sorted(alone) == [s.unit_id for s in specs]


def test_units_are_handed_out_longest_estimate_first():
    specs = get_reduction("3x3", "71").units()[:20]
    order = [r.unit_id for r in run_units(specs[:3], workers=1)]
    by_cost = sorted(specs[:3], key=lambda s: (-estimate_cost(s), s.unit_id))
    assert order == [s.unit_id for s in by_cost]
    assert len({round(estimate_cost(s), 9) for s in specs}) > 1


@pytest.mark.slow
def test_full_9x9_count_reproduces_the_published_total(tmp_path):
    # Published: Felgenhauer & Jarvis (2005), OEIS A107739.
    from counting.job import Job, run_count
    from counting.store import Store
    job = Job.load("3x3", "71")
    with Store.create_or_open(tmp_path / "full.sqlite", job.info()) as store:
        run_count(job, store, workers=2, progress=False, log=lambda msg: None)
        counts = {r.unit_id: r.count for r in store.results()}
    assert len(counts) == 710
    assert job.total(counts) == 6_670_903_752_021_072_936_960
