"""The job library (counting/job.py): running the missing units into a
store and default file names (recounting a sample: test_recount.py)."""

import pytest

from counting.job import (Job, default_db_path, default_export_paths, default_export_stem,
                          export, run_count)
from counting.options import CountOptions
from counting.store.database import Store



def _quiet(**kw):
    return dict(progress=False, log=lambda msg: None, **kw)


@pytest.fixture
def job():
    return Job.load("2x3")          # 9 units, each a few milliseconds


@pytest.fixture
def store(tmp_path, job):
    with Store.create_or_open(tmp_path / "j.sqlite", job.info()) as st:
        yield st


# ---------------------------------------------------------------------------
# run_count

def test_run_count_counts_only_what_the_store_lacks(job, store):
    first = run_count(job, store, unit_ids=[0, 1, 2], options=CountOptions(), **_quiet())
    assert sorted(r.unit_id for r in first.counted) == [0, 1, 2] and first.skipped == 0
    rest = run_count(job, store, options=CountOptions(), **_quiet())
    assert sorted(r.unit_id for r in rest.counted) == list(range(3, job.n_units))
    assert rest.skipped == 3
    counts = {r.unit_id: r.count for r in store.results()}
    assert sorted(counts) == list(range(job.n_units))
    assert rest.unit_solutions == sum(counts[u] for u in range(3, job.n_units))


def test_run_count_passes_the_options_to_every_unit(job, store):
    report = run_count(job, store, workers=2, options=CountOptions(memo=False), **_quiet())
    assert len(report.counted) == job.n_units
    assert [r.memo_hits for r in store.results()] == [0] * job.n_units


def test_run_count_commits_its_units_in_batches(job, store, monkeypatch):
    from counting import job as jobs
    from counting.store.batch import Batch
    commits = []

    class Counted(Batch):       # limited by its number of units only: no clock decides
        def __init__(self, store):
            super().__init__(store, units=4, work_seconds=float("inf"),
                             wait_seconds=float("inf"))

        def commit(self):
            commits.append(len(self.held))
            super().commit()
    monkeypatch.setattr(jobs, "Batch", Counted, raising=False)
    run_count(job, store, options=CountOptions(), **_quiet())     # 9 units
    assert commits[:3] == [4, 4, 1] and sum(commits) == job.n_units
    assert sorted(r.unit_id for r in store.results()) == list(range(job.n_units))


def test_an_interrupted_run_commits_the_units_it_holds(job, store, monkeypatch):
    from counting import job as jobs
    from counting.run import pool
    real = pool.run_units

    def stops_after_three(*args, **kwargs):
        for i, result in enumerate(real(*args, **kwargs)):
            if i == 3:
                raise KeyboardInterrupt
            yield result
    monkeypatch.setattr(jobs.pool, "run_units", stops_after_three)
    with pytest.raises(KeyboardInterrupt):
        run_count(job, store, options=CountOptions(), **_quiet())
    assert len(store) == 3       # held by the batch, committed on the way out


def test_a_class_total_is_logged_when_its_last_unit_arrives(job, store):
    said = []
    run_count(job, store, options=CountOptions(), progress=False, log=said.append)
    complete = [m for m in said if m.startswith("class")]
    assert len(complete) == len(job.classes)
    counts = {r.unit_id: r.count for r in store.results()}
    for cid, members in job.units_of_class.items():
        total = sum(counts[u] for u in members)
        over = f"Σ over {len(members):,} units = " if len(members) > 1 else ""
        assert any(m.startswith(f"class {cid:>3} complete: {over}{total:,} completions")
                   for m in complete)


@pytest.mark.parametrize("bar", [True, False])
def test_class_lines_are_results_on_stdout_whether_or_not_the_bar_is_drawn(job, store, capsys,
                                                                           bar):
    """A class line is a result of the run (``count -q`` and ``--json`` drop
    it with the rest of the log): on stdout, with or without the bar, which
    is drawn on stderr (--no-progress: none)."""
    run_count(job, store, options=CountOptions(), progress=bar)
    out, err = capsys.readouterr()
    lines = [m for m in out.splitlines() if " complete: " in m]
    assert len(lines) == len(job.classes) and " complete: " not in err
    assert ("9/9 units" in err) is bar


@pytest.mark.parametrize("shape", ["2x3", "1x6"])   # classes of 3 units; of one unit
def test_a_job_of_many_classes_logs_only_the_classes_of_several_units(shape, tmp_path,
                                                                      monkeypatch):
    job = Job.load(shape)
    monkeypatch.setattr("counting.job.CLASS_LINES_UP_TO", len(job.classes) - 1)
    said = []
    with Store.create_or_open(tmp_path / "j.sqlite", job.info()) as store:
        run_count(job, store, options=CountOptions(), progress=False, log=said.append)
    several = [c for c, members in job.units_of_class.items() if len(members) > 1]
    assert len([m for m in said if m.startswith("class")]) == len(several)


# ---------------------------------------------------------------------------
# file names

def test_default_store_and_export_names_use_the_default_reduction():
    assert default_export_stem(Job.load("2x4")) == "2x4"
    assert default_export_stem(Job.load("2x4", "patterns")) == "2x4-rpatterns"
    assert default_export_stem(Job.load("3x3")) == "3x3"
    assert default_export_stem(Job.load("3x3", "44")) == "3x3-r44"
    assert str(default_db_path("2x4", "moves")) == "results/2x4-rmoves.sqlite"
    assert [str(p) for p in default_export_paths(Job.load("3x3", "44"), "/tmp/x")] == \
        ["/tmp/x/3x3-r44-units.csv", "/tmp/x/3x3-r44.json"]


# ---------------------------------------------------------------------------
# export

def test_export_writes_the_worker_of_each_unit_last(job, store, tmp_path):
    run_count(job, store, unit_ids=[0, 1], options=CountOptions(), **_quiet())
    export(store, tmp_path / "u.csv", None, job)
    header, *rows = [line.split(",") for line in (tmp_path / "u.csv").read_text().splitlines()]
    assert header[-1] == "worker" and header[:-1] == [
        "unit_id", "class_id", "form_id", "weight", "count", "nodes", "dead_ends", "memo_hits",
        "seconds", "host", "engine_version", "finished_at"]
    assert [row[-1] for row in rows] == [r.worker for r in store.results()]
    assert all(row[-1].startswith("MainProcess:") for row in rows)


def test_a_failed_export_leaves_no_file_and_no_temporary(job, store, tmp_path):
    run_count(job, store, unit_ids=[0], options=CountOptions(), **_quiet())
    (tmp_path / "file.txt").write_text("not a directory")
    good, bad = tmp_path / "u.csv", tmp_path / "file.txt" / "s.json"
    with pytest.raises(NotADirectoryError) as exc_info:
        export(store, good, bad, job, machine={})
    assert exc_info.value.filename == str(bad)
    assert [p.name for p in tmp_path.iterdir() if not p.name.startswith("j.sqlite")] == \
        ["file.txt"]     # the csv was complete, but not renamed into place


# ---------------------------------------------------------------------------
# whole counts (slow)

@pytest.mark.slow
def test_full_9x9_count_reproduces_the_published_total(tmp_path):
    # Published: Felgenhauer & Jarvis (2005), OEIS A107739.
    job = Job.load("3x3", "71")
    with Store.create_or_open(tmp_path / "full.sqlite", job.info()) as st:
        run_count(job, st, workers=2, options=CountOptions(), **_quiet())
        counts = {r.unit_id: r.count for r in st.results()}
    assert len(counts) == 710
    assert job.total(counts) == 6_670_903_752_021_072_936_960


@pytest.mark.slow
@pytest.mark.parametrize("reduction", ["moves", "patterns"])
def test_8x8_both_ways_and_both_reductions(tmp_path, reduction):
    totals = {}
    for shape in ("2x4", "4x2"):
        job = Job.load(shape, reduction)
        with Store.create_or_open(tmp_path / f"{shape}-{reduction}.sqlite", job.info()) as st:
            run_count(job, st, workers=2, options=CountOptions(), **_quiet())
            totals[shape] = job.total({r.unit_id: r.count for r in st.results()})
    assert totals == {"2x4": 29_136_487_207_403_520, "4x2": 29_136_487_207_403_520}


def test_a_class_of_many_units_says_their_number_with_separators(job, store, monkeypatch):
    # "Σ over 1200 units": a count of units printed without separators
    real = Job.units_of_class.func                  # a cached_property
    monkeypatch.setattr(Job, "units_of_class", property(      # each class 400 times its units
        lambda j: {cid: members * 400 for cid, members in real(j).items()}))
    said = []
    run_count(job, store, options=CountOptions(), progress=False, log=said.append)
    complete = [m for m in said if m.startswith("class")]
    assert complete and all("Σ over 1,200 units = " in m for m in complete), complete
