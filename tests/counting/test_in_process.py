"""A job the quick look puts at a few seconds is counted in the calling
process, not on a pool (counting/reach.py: runs_in_process,
counting/plan.py: in_process_reason; ``count`` and ``verify`` without
``--workers``); the run statistics say so.  The threshold is set by each
test, so no test depends on how fast the machine is."""
import json

import pytest
from click.testing import CliRunner

from counting import job as jobs
from counting import plan, published, reach
from counting import verify as verifying
from counting.cli import cli
from counting.reach import JobCost
from counting.store.database import Store

ALWAYS, NEVER = 1e12, -1.0     # IN_PROCESS_SECONDS that takes every job, or none


def look(**changes) -> JobCost:
    cost = dict(shape="3x3", reduction="patterns3", units=44, units_exact=True,
                unit_seconds=0.02, sampled=2, seconds=0.01)
    return JobCost(**{**cost, **changes})


def test_a_job_of_a_few_seconds_runs_in_process_and_a_longer_one_does_not():
    assert reach.runs_in_process(look())
    assert not reach.runs_in_process(look(unit_seconds=reach.IN_PROCESS_SECONDS))


@pytest.mark.parametrize("changes", [dict(provisional=True), dict(units_exact=False),
                                     dict(countable=False)])
def test_an_uncertain_look_never_puts_a_job_in_process(changes):
    assert not reach.runs_in_process(look(**changes))


def test_the_reason_needs_every_look_small_and_more_than_one_worker():
    assert plan.in_process_reason([look()], 2).startswith("in this process: ")
    assert plan.in_process_reason([look(), look(unit_seconds=1.0)], 2) is None
    assert plan.in_process_reason([look()], 1) is None
    assert plan.in_process_reason([], 2) is None     # nothing looked at (a complete store...)


def _count(tmp_path, *flags):
    db = tmp_path / "j.sqlite"
    res = CliRunner().invoke(cli, ["count", "2x3", "--db", str(db), "--json", *flags],
                             catch_exceptions=False)
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["total_int"] == published.lookup("2x3").total
    with Store.open(db) as store:
        workers = {r.worker.split(":")[0] for r in store.results()}
    return doc["run"], workers


def test_count_without_workers_counts_a_small_job_here_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(reach, "IN_PROCESS_SECONDS", ALWAYS)
    monkeypatch.setattr("counting.cli.count.default_workers", lambda: 2)   # 2 cores
    run, workers = _count(tmp_path)
    assert run["workers"] == 1 and workers == {"MainProcess"}
    assert run["in_process"].startswith("in this process: the quick look puts the job at ")


def test_count_without_workers_uses_the_pool_for_a_longer_job(tmp_path, monkeypatch):
    monkeypatch.setattr(reach, "IN_PROCESS_SECONDS", NEVER)
    monkeypatch.setattr("counting.cli.count.default_workers", lambda: 2)   # 2 cores
    run, workers = _count(tmp_path)
    assert run["in_process"] is None and run["workers"] == 2
    assert workers and "MainProcess" not in workers


def test_workers_given_are_the_workers_used_however_small_the_job(tmp_path, monkeypatch):
    monkeypatch.setattr(reach, "IN_PROCESS_SECONDS", ALWAYS)
    monkeypatch.setattr("counting.cli.count.default_workers", lambda: 2)   # 2 cores
    run, workers = _count(tmp_path, "--workers", "2")
    assert run["in_process"] is None and run["workers"] == 2
    assert "MainProcess" not in workers


def test_the_run_statistics_say_where_the_units_were_counted(tmp_path, monkeypatch):
    monkeypatch.setattr(reach, "IN_PROCESS_SECONDS", ALWAYS)
    monkeypatch.setattr("counting.cli.count.default_workers", lambda: 2)   # 2 cores
    res = CliRunner().invoke(cli, ["count", "2x2", "--db", str(tmp_path / "j.sqlite"),
                                   "--no-progress"], catch_exceptions=False)
    row = [line for line in res.stdout.splitlines() if line.startswith("workers")]
    assert row and row[0].split(None, 1)[1] == "1 (in this process)"
    assert any(line.startswith("in this process: the quick look puts the job at ")
               for line in res.stdout.splitlines())


@pytest.mark.parametrize("threshold, workers", [(ALWAYS, 1), (NEVER, 2)])
def test_verify_counts_a_small_shape_in_process_when_asked(monkeypatch, threshold, workers):
    monkeypatch.setattr(reach, "IN_PROCESS_SECONDS", threshold)
    seen = []
    real = jobs.run_count

    def spy(*args, **kwargs):
        seen.append(kwargs["workers"])
        return real(*args, **kwargs)
    monkeypatch.setattr(verifying, "run_count", spy)
    row = verifying.verify_shape("2x3", workers=2, in_process_if_small=True)
    assert row.match and seen == [workers]
    seen.clear()
    verifying.verify_shape("2x2", workers=2)     # not asked: the workers given
    assert seen == [2]


def test_the_run_statistics_fit_a_terminal_when_a_small_job_says_why_it_ran_here(tmp_path):
    # the in-process line is a sentence: the figures stay aligned among
    # themselves, not pushed to the sentence's width (120 columns)
    from click.testing import CliRunner

    from counting.cli import cli
    res = CliRunner().invoke(cli, ["count", "2x3", "--db", str(tmp_path / "s.sqlite")])
    assert res.exit_code == 0, res.output
    assert "in this process" in res.output
    table = [line for line in res.output.splitlines() if not line.startswith("units stored in")]
    assert max(len(line) for line in table) <= 80, res.output
