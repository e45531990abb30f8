"""count refuses a job out of reach in one line, with its estimate
(counting/reach.py through the command line); --force runs only what can be counted."""
import json

import pytest

from counting import reach
from counting.job import Job, run_count
from counting.plan import open_store
from counting.reduction import get_reduction
from counting.store.database import Store


from cli_samples import invoke


@pytest.mark.parametrize("shape, says", [
    ("4x4", "is out of reach: no estimate can be made"),
    # issue 25: 4x3 and 3x4 by band tables, refused with the job's estimate (tables not built
    # here yet: a lower bound, without building them)
    ("3x4", "by reduction patterns3 is out of reach: "), ("4x3", "would finish it in a day"),
])
def test_a_shape_out_of_reach_is_refused_in_one_line(tmp_path, monkeypatch, shape, says):
    # issue 26.1: count 3x4 (4x3, 4x4) printed a traceback; every shape gets a
    # count or a one-line refusal with its estimate or why none can be made
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    # a bound within reach would build the tables to measure (minutes): keep it out of reach
    monkeypatch.setattr(reach, "REACH_DAYS", 1)
    res = invoke("count", shape, "--db", tmp_path / "x.sqlite", "--workers", "1")
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output and res.output.count("\n") == 1
    assert says in res.output
    assert not (tmp_path / "x.sqlite").exists() and not (tmp_path / "cache").exists()


@pytest.mark.parametrize("shape", ["5x3", "3x5"])
def test_an_estimated_only_job_is_refused_in_one_line_even_with_force(tmp_path, monkeypatch,
                                                                       shape):
    # issue 25 (5x3): --force runs a job past its estimate, never one that cannot be counted;
    # it exited 1 with the reduction's error, not 2 with the job's estimate
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    db = tmp_path / "x.sqlite"
    res = invoke("count", shape, "--force", "--db", db, "--workers", "1")
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output and res.output.count("\n") == 1
    for says in ("by reduction patterns3 is out of reach: ", "core-hours",
                 "estimated only, never counted (--force cannot run it)"):
        assert says in res.output
    assert not db.exists() and not (tmp_path / "cache").exists()


@pytest.mark.slow
def test_4x3_with_its_tables_built_is_refused_with_the_measured_estimate_and_forced(
        tmp_path, tables4_cache, monkeypatch):
    # the estimate is measured here (hundreds of core-hours, about a week on 2
    # workers): a faster machine would find it within the 7 days of reach
    monkeypatch.setattr(reach, "REACH_DAYS", 0.01)
    db = tmp_path / "x.sqlite"
    res = invoke("count", "4x3", "--db", db, "--workers", "2")
    assert res.exit_code == 2 and res.output.count("\n") == 1, res.output
    for says in ("144,578 units", "band-2 slices timed", "core-hours", "would finish it in a day",
                 "memory per worker about", "MiB of tables shared", "--force"):
        assert says in res.output
    assert not db.exists()
    res = invoke("count", "4x3", "--force", "--units", "0", "--db", db, "--workers", "1",
                 "--json")
    assert res.exit_code == 0, res.output
    red = get_reduction("4x3")
    with Store.open(db) as store:
        (stored,) = store.results()
    spec = red.units()[0]
    assert stored.unit_id == 0 and stored.count == sum(
        red.count_slice(spec, (x, x + 1)).count for x in range(red.choices // 2))


def test_a_symmetry_job_refused_for_its_grid_count_says_so(tmp_path, monkeypatch):
    # issue 35: `count 3x3+centre --up-to-symmetry --group full` with its 14 symmetry units
    # stored (a minute's work) was refused as "3x3+centre by reduction prefix-rows=2 is out
    # of reach: 8,000 core-hours", as if the symmetry job cost that: it is the grid count
    # behind the identity class, and the refusal now says so
    monkeypatch.chdir(tmp_path)                      # the grid store's default place
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    db = tmp_path / "full.sqlite"
    job = Job.load("2x3+x", "symmetry-full")
    store, lock, _ = open_store(db, job)
    try:
        with store:
            run_count(job, store, unit_ids=range(1, job.n_units), progress=False)
    finally:
        lock.release()
    monkeypatch.setattr(reach, "LONG_JOB_SECONDS", 0)    # every job estimated ...
    monkeypatch.setattr(reach, "REACH_DAYS", 1e-12)      # ... and any cost out of reach
    res = invoke("count", "2x3+x", "--up-to-symmetry", "--group", "full", "--db", db,
                 "--workers", "1")
    assert res.exit_code == 2 and res.output.count("\n") == 1, res.output
    assert res.output.startswith("Error: 2x3+x by reduction prefix-rows=2 (the grid count "
                                 "behind the identity class) is out of reach: "), res.output
    assert not (tmp_path / "results").exists()
