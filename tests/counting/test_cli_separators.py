"""Counts in the CLI's printed lines carry thousands separators (README:
"thousands separators, units on figures"), checked where a count reaches
1,000: the job's or the report's numbers are enlarged, the lines are the
CLI's own."""
import dataclasses

from counting import recount as recounting
from counting import plan
from counting.job import Job
from counting.recount import RecountReport

from cli_samples import invoke


def test_an_unfinished_count_says_its_classes_with_separators(tmp_path, monkeypatch):
    real = plan.count

    def many_classes(*args, **kwargs):
        out = real(*args, **kwargs)
        big = dataclasses.replace(out.summary, n_units=2_000, classes_complete=3, n_classes=1_352)
        return dataclasses.replace(out, summary=big)
    monkeypatch.setattr(plan, "count", many_classes)
    res = invoke("count", "2x2", "--units", "0", "--db", tmp_path / "s.sqlite",
                 "--workers", "1", "--quiet")
    assert res.exit_code == 0, res.output
    assert "1 of 2,000 units done (3 of 1,352 classes complete)" in res.output


def test_the_classes_listing_says_how_many_with_separators(monkeypatch):
    real = Job.classes.func                         # a cached_property
    monkeypatch.setattr(Job, "classes", property(lambda job: real(job) * 3))
    res = invoke("classes", "1x8", "--reduction", "cycles2")
    assert res.exit_code == 0, res.output
    assert "1,110 classes, weights sum to " in res.output          # 3 × 370


def test_recount_says_how_many_units_agree_with_separators(tmp_path, monkeypatch):
    db = tmp_path / "s.sqlite"
    assert invoke("count", "2x2", "--db", db, "--workers", "1", "--quiet").exit_code == 0
    agree = RecountReport(checked=[(u, 7, 7) for u in range(1_200)], method="search")
    monkeypatch.setattr(recounting, "recount", lambda *args, **kwargs: agree)
    res = invoke("recount", db)
    assert res.exit_code == 0, res.output
    assert "all 1,200 recounted units agree" in res.output
    disagree = dataclasses.replace(agree, checked=[(u, 7, 8) for u in range(1_200)])
    monkeypatch.setattr(recounting, "recount", lambda *args, **kwargs: disagree)
    res = invoke("recount", db)
    assert res.exit_code == 1
    assert "1,200 of 1,200 recounted units disagree with the store" in res.output


def test_the_burnside_table_says_how_many_classes_with_separators(here, monkeypatch):
    real = plan.count

    def many_rows(*args, **kwargs):
        out = real(*args, **kwargs)
        return dataclasses.replace(out, table=out.table * 100)    # 16 classes of 2x2's group
    monkeypatch.setattr(plan, "count", many_rows)
    res = invoke("count", "2x2", "--up-to-symmetry", "--workers", "1")   # stores in here/results
    assert res.exit_code == 0, res.output
    assert "1,600 classes have units and 1,300 of them fix some grid" in res.output
