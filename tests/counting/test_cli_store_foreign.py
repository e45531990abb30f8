"""The store commands that show a total (``status``, ``export``, ``report``; counting/cli/store.py,
counting/job.py's ``summarise``, counting/report/content.py) on a complete ``factor`` store of
another kernel: its unit ids follow that kernel's canonical form, so this gridcount's weights
are of other graphs, and no total is shown, only why; nor is a symmetry job's identity taken
from such a grid store (counting/store/identity.py).  (A kind-tables store of another
listing keeps its total: test_cli_kind_tables.py.)"""
from __future__ import annotations

import json

import pytest

from counting.job import Job
from counting.store.database import JobInfo, Store
from factorization import ENGINE_NAME, KERNEL_VERSION

from cli_samples import invoke, one_line_error
from count_process import units_in
from store_samples import make_result

#: 1x5 by ``factor``: this kernel's two graphs, their weights and counts (weights by
#: the recurrence, counts by the kernel; 2,880·36 + 2,400·24 = 161,280 Latin squares)
WEIGHTS, COUNTS = (2880, 2400), (36, 24)
#: what this gridcount's weights make of the same counts under exchanged ids
MISWEIGHED = WEIGHTS[0] * COUNTS[1] + WEIGHTS[1] * COUNTS[0]
ANOTHER_KERNEL = "factorization-2 canon-99"

SAID = ("its total is not computed here: L_n = Σ weight · count weighs each unit's count by "
        "this kernel's graph of that id, and the store's kernel gave its graphs ids by another "
        "canonical form")


@pytest.fixture
def foreign(tmp_path, monkeypatch):
    """A complete 1x5 ``factor`` store of another kernel, whose canonical form lists the
    two graphs the other way round: its unit 0 is this kernel's unit 1."""
    monkeypatch.chdir(tmp_path)
    job = Job.load("1x5", "factor")
    assert [u.weight for u in job.units] == list(WEIGHTS)
    assert sum(w * c for w, c in zip(WEIGHTS, COUNTS)) == 161280 != MISWEIGHED
    info = JobInfo(job.shape, job.reduction, ANOTHER_KERNEL, job.n_units)
    assert info.engine_version != KERNEL_VERSION
    with Store.create_or_open(tmp_path / "f.sqlite", info) as st:
        for unit, count in enumerate(reversed(COUNTS)):
            st.record(make_result(unit, count, class_id=unit, form_id=0,
                                  engine_version=ENGINE_NAME))
    return "f.sqlite"


def test_status_shows_no_total_of_another_kernel_s_store_and_says_why(foreign):
    res = invoke("status", foreign)
    assert res.exit_code == 0, res.output
    assert "2 of 2" in res.output
    assert f"{MISWEIGHED:,}" not in res.output and "155520" not in res.output
    [line] = [ln for ln in res.output.splitlines() if ln.startswith(f"{foreign}: ")]
    assert "it belongs to another kernel" in line and line.endswith(SAID)
    [total] = [ln for ln in res.output.splitlines() if ln.startswith("total (grids)")]
    assert total.split()[-1] == "—"


def test_status_json_gives_a_null_total_and_the_reason(foreign):
    doc = json.loads(invoke("status", foreign, "--json").stdout)
    assert doc["units_done"] == doc["units_total"] == 2
    assert doc["total"] is None and doc["total_int"] is None
    assert doc["factorisation"]["weighted_unit_sum"] is None
    assert SAID.endswith(doc["total_refused"]) and doc["remaining"] is None


def test_export_writes_a_summary_with_no_total_and_says_why(foreign, tmp_path):
    res = invoke("export", foreign, "--summary", "s.json")
    assert res.exit_code == 0, res.output
    first, second = res.output.splitlines()
    assert first == "wrote s.json (total not computed here)" and second.endswith(SAID)
    doc = json.loads((tmp_path / "s.json").read_text())
    assert doc["total"] is None and SAID.endswith(doc["total_refused"])
    doc = json.loads(invoke("export", foreign, "--json").stdout)
    assert doc["total"] is None and doc["foreign_units"].startswith("it belongs to another kernel")


def test_the_units_csv_gives_no_weights_of_other_graphs(foreign, tmp_path):
    # weight × count summed over the CSV was the misweighed total again
    assert invoke("export", foreign, "--csv", "u.csv").exit_code == 0
    head, *rows = [ln.split(",") for ln in (tmp_path / "u.csv").read_text().splitlines()]
    assert head[3:5] == ["weight", "count"]
    assert [(r[0], r[3], r[4]) for r in rows] == [("0", "", "24"), ("1", "", "36")]


def test_report_shows_no_total_no_comparison_and_no_weights(foreign, tmp_path):
    pytest.importorskip("matplotlib")
    res = invoke("report", foreign, "-o", "r.md")
    assert res.exit_code == 0, res.output
    text = (tmp_path / "r.md").read_text()
    assert f"{MISWEIGHED:,}" not in text and "DOES NOT MATCH" not in text
    assert "| grids | not computed here: L_n = Σ weight · count" in text
    assert "no total here to compare" in text and SAID in text
    classes = text.split("## Classes", 1)[1].split("##", 1)[0]    # this gridcount's weights
    rows = [ln.split("|")[1:-1] for ln in classes.splitlines() if ln.startswith("| ")]
    assert [c.strip() for c in rows[0]][:2] == ["class", "weight"] and len(rows) == 3
    assert [(r[0].strip(), r[1].strip(), r[4].strip()) for r in rows[1:]] == \
        [("0", "—", "—"), ("1", "—", "—")]                   # no weight, no weight × Σ
    assert "no class weights: the store's units are not this gridcount's" in text   # chart


def test_a_store_of_this_kernel_keeps_its_total(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = invoke("count", "1x5", "--reduction", "factor", "--db", "t.sqlite", "-q", "-w", "1",
                 "--private-memo")
    assert res.exit_code == 0, res.output
    doc = json.loads(invoke("status", "t.sqlite", "--json").stdout)
    assert doc["total_int"] == 161280 and doc["total_refused"] is None
    assert "not computed" not in invoke("status", "t.sqlite").output


@pytest.mark.parametrize("force", [[], ["--force"]])   # refused by the estimate / the identity
def test_a_symmetry_count_takes_no_identity_from_another_kernel_s_grid_store(foreign, tmp_path,
                                                                            force):
    """The identity was the misweighed total over 5! (155,520 / 120 = 1,296 recorded as
    unit 0); Burnside's divisibility caught it here, but need not at a larger order."""
    (tmp_path / "results").mkdir()
    (tmp_path / foreign).rename(tmp_path / "results" / "1x5-rfactor.sqlite")
    res = invoke("count", "1x5", "--up-to-symmetry", "--group", "isotopy", "--reduction",
                 "factor", "--db", "s.sqlite", "-w", "1", "-q", *force)
    one_line_error(res, "results/1x5-rfactor.sqlite: it belongs to another kernel", 2)
    assert res.output.rstrip().endswith(SAID) and f"{MISWEIGHED:,}" not in res.output
    # noticed: the refusal left a new, empty s.sqlite (the store is made before the identity)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results"]


def test_a_refused_symmetry_count_keeps_a_store_that_was_there_before(foreign, tmp_path):
    (tmp_path / "results").mkdir()
    (tmp_path / foreign).rename(tmp_path / "results" / "1x5-rfactor.sqlite")
    Store.create_or_open(tmp_path / "s.sqlite", Job.load("1x5", "symmetry").info()).close()
    res = invoke("count", "1x5", "--up-to-symmetry", "--group", "isotopy", "--reduction",
                 "factor", "--db", "s.sqlite", "-w", "1", "-q", "--force")   # after open_store
    one_line_error(res, "results/1x5-rfactor.sqlite: it belongs to another kernel", 2)
    assert units_in(tmp_path / "s.sqlite") == []           # empty, but not this command's
