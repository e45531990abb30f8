"""Recounting a sample of a store's finished units (counting/recount.py)."""

import pytest

from counting.job import Job, run_count
from counting.options import CountOptions
from counting.recount import recount
from counting.store.database import Store

from store_samples import store_wrong_count

JOB = "2x3"      # 9 units, each a few milliseconds


@pytest.fixture
def counted(tmp_path):
    """The 2x3 job and its store with every unit counted."""
    job = Job.load(JOB)
    with Store.create_or_open(tmp_path / "counted.sqlite", job.info()) as st:
        run_count(job, st, options=CountOptions(), progress=False, log=lambda msg: None)
        yield job, st


def test_recount_agrees_with_an_untouched_store(counted):
    job, store = counted
    rep = recount(store, job.n_units, seed=1)
    assert [u for u, _, _ in rep.checked] == list(range(job.n_units))
    assert rep.mismatches == []


@pytest.mark.parametrize("options", [CountOptions(), CountOptions(memo=False)])
def test_recount_finds_a_wrong_count(counted, options):
    job, store = counted
    true = store.get(4).count
    store_wrong_count(store.path, 4, true + 1)
    rep = recount(store, job.n_units, seed=1, options=options)
    assert rep.mismatches == [(4, true + 1, true)]


def test_recount_counts_with_the_options_given(counted, monkeypatch):
    from counting import recount as recounting
    _, store = counted
    seen = []
    real = recounting.count_unit

    def spy(spec, options, **kwargs):
        seen.append((options, kwargs))
        return real(spec, options, **kwargs)
    monkeypatch.setattr(recounting, "count_unit", spy)
    recount(store, 2, options=CountOptions(memo=False))
    # ... and always searched, so a recount is independent of any kernel
    assert seen == [(CountOptions(memo=False, kernel="search"), {"fresh_memo": True})] * 2


def test_recount_hands_the_options_to_the_reductions_own_method(counted, monkeypatch):
    job, store = counted
    seen = []
    monkeypatch.setattr(type(job.reduction_object), "count_independently",
                        lambda self, spec, options: seen.append(options))   # None: then searched
    recount(store, 2, options=CountOptions(memo=False), job=job)
    assert seen == [CountOptions(memo=False)] * 2


def test_recount_needs_a_finished_unit_and_a_positive_sample(tmp_path):
    with Store.create_or_open(tmp_path / "empty.sqlite", Job.load(JOB).info()) as store:
        with pytest.raises(ValueError, match="no finished unit"):
            recount(store, 1)
        with pytest.raises(ValueError, match="--sample must be >= 1"):
            recount(store, 0)
