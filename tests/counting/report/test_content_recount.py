"""The report of a store whose reduction can recount none of its units (9×9 kind
tables, 4×3 band tables): every unit was counted by the job's own workers, so each
appears in the charts and tables of units counted here, and the refusal to recount is
said once — never one "(not counted here)" row a unit, which made a 79-unit centre-dot
report list 79 copies of the refusal and no machine."""
from counting.job import Job, run_count
from counting.report.content import build_report
from counting.store.database import Store


def report_rows(tmp_path, monkeypatch, refused: str | None):
    job = Job.load("2x2", "moves")
    path = tmp_path / "job.sqlite"
    with Store.create_or_open(path, job.info()) as store:
        run_count(job, store, workers=1, progress=False)
    red = type(job.reduction_object)
    monkeypatch.setattr(red, "recount_refused", lambda self: refused)
    with Store.open(path) as store:
        rep = build_report(store)
    return rep, len(job.units)


def test_a_reduction_that_refuses_every_recount_still_counted_its_units_here(
        tmp_path, monkeypatch):
    rep, n = report_rows(tmp_path, monkeypatch, "the tables again would check nothing")
    labels = [k for k, _ in rep.job_rows]
    assert not [k for k in labels if "not counted here" in k]
    assert dict(rep.job_rows)["recount"] == "none: the tables again would check nothing"
    assert dict(rep.job_rows)["machines"] != "—"


def test_a_reduction_that_can_recount_has_no_recount_row(tmp_path, monkeypatch):
    rep, _ = report_rows(tmp_path, monkeypatch, None)
    assert "recount" not in dict(rep.job_rows)
    assert dict(rep.job_rows)["machines"] != "—"
