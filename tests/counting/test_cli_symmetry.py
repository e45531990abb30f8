"""``gridcount count SHAPE --up-to-symmetry``: essentially different grids
as a stored, resumable job (counting/reduction/orbits.py,
counting/plan.py, the count command).

Reference values: 2 (2x2) and 49 (2x3) essentially different grids
(Russell & Jarvis 2006; OEIS A291188 for 2xN); the brute-force orbit counts
that confirm them are in symmetry/test_burnside.py.
"""
import csv
import json
import math
import re
import sqlite3
from dataclasses import replace

import pytest

from counting.job import Job, run_count
from counting.options import CountOptions
from counting.reduction import get_reduction
from counting.store.database import Store
from counting.store.format import row_checksum
from cli_samples import invoke
from store_samples import edit_row, store_wrong_count, stored_row
from counting.group.burnside import symmetry_units
from counting.group.symmetries import group_order


def _grid_store(path, shape="2x3", units=None):
    job = Job.load(shape)
    path.parent.mkdir(parents=True, exist_ok=True)
    with Store.create_or_open(path, job.info()) as st:
        run_count(job, st, unit_ids=units, options=CountOptions(), progress=False,
                  log=lambda m: None)
    return job


@pytest.mark.parametrize("shape, expected", [("2x2", 2), ("2x3", 49)])
def test_up_to_symmetry_counts_the_essentially_different_grids(here, shape, expected):
    res = invoke("count", shape, "--up-to-symmetry", "--workers", "1", "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["total_int"] == expected and doc["reduction"] == "symmetry"
    assert doc["total_counts"] == "essentially different grids"
    rows = doc["burnside"]
    assert all({"size", "fixed", "class_id"} <= set(r) for r in rows)
    # the table is Burnside's sum: Σ size·A / |G|
    assert sum(r["size_int"] * r["fixed_int"] for r in rows) == expected * group_order(shape)
    assert rows[0]["class_id"] == 0 and rows[0]["size_int"] == 1   # the identity


def test_the_table_and_total_are_printed_with_thousands_separators(here):
    res = invoke("count", "2x3", "--up-to-symmetry", "--workers", "1")
    assert res.exit_code == 0, res.output
    out = res.output
    assert "2x3 essentially different grids" in out
    *_, total, stored = res.stdout.rstrip().splitlines()
    assert total.endswith(" 49") and stored == "units stored in results/2x3-rsymmetry.sqlite"
    assert "÷ order of the symmetry group |G|" in out and "3,456" in out
    assert "size × A" in out and "39,168" in out          # A(id) = 28,200,960 / 6!
    assert "e+" not in out


def test_the_identity_is_taken_from_a_complete_grid_store(here):
    job = _grid_store(here / "results" / "2x3-rmoves.sqlite")
    res = invoke("count", "2x3", "--up-to-symmetry", "--workers", "1")
    assert res.exit_code == 0, res.output
    assert "counting the 2x3 grids" not in res.output
    assert "identity: 28,200,960 grids / 6! = 39,168 (from results/2x3-rmoves.sqlite)" \
        in res.output
    with Store.open(here / "results" / "2x3-rsymmetry.sqlite") as st:
        first = {r.unit_id: r for r in st.results()}[0]
    assert first.count == 28_200_960 // math.factorial(6)
    assert "2x3-rmoves.sqlite" in first.worker
    assert job.n_units == 9


def test_an_incomplete_grid_store_is_completed_first(here):
    path = here / "results" / "2x3-rmoves.sqlite"
    _grid_store(path, units=[0, 1])
    res = invoke("count", "2x3", "--up-to-symmetry", "--workers", "1")
    assert res.exit_code == 0, res.output
    assert "counting the 2x3 grids (moves) into results/2x3-rmoves.sqlite first" in res.output
    with Store.open(path) as st:
        assert len(st) == 9


def test_a_wrong_grid_total_is_refused(here, monkeypatch):
    # a grid total that N! does not divide is not a grid count
    from counting import plan
    from counting.store.identity import GridRows
    monkeypatch.setattr(plan, "read_grid_store",
                        lambda path, shape: GridRows(path, None, 28_200_961, "0" * 16))
    res = invoke("count", "2x3", "--up-to-symmetry", "--workers", "1")
    assert res.exit_code == 1
    assert "not a multiple of 6!" in res.output and "Traceback" not in res.output


def test_a_store_of_another_shape_where_the_grid_store_belongs_is_refused(here):
    other = _grid_store(here / "x.sqlite", shape="2x2")
    (here / "results").mkdir()
    (here / "x.sqlite").rename(here / "results" / "2x3-rmoves.sqlite")
    res = invoke("count", "2x3", "--up-to-symmetry", "--workers", "1")
    assert res.exit_code == 2 and other.shape == "2x2"
    assert "counts 2x2 grids, not 2x3" in res.output


def test_a_symmetry_job_resumes_where_it_stopped(here):
    n = len(symmetry_units("2x3"))
    first = invoke("count", "2x3", "--up-to-symmetry", "--workers", "1", "--units", "0-9")
    assert first.exit_code == 0, first.output
    assert f"10 of {n} units done" in first.output
    again = invoke("count", "2x3", "--up-to-symmetry", "--workers", "1", "--json")
    doc = json.loads(again.output)
    assert doc["run"]["units_skipped"] == 10 and doc["run"]["units_counted"] == n - 10
    assert doc["total_int"] == 49


def test_export_writes_the_class_size_representative_and_relabelling_type(here):
    assert invoke("count", "2x3", "--up-to-symmetry", "--workers", "1").exit_code == 0
    out = here / "sym.csv"
    res = invoke("export", "results/2x3-rsymmetry.sqlite", "--csv", out,
                 "--summary", here / "sym.json")
    assert res.exit_code == 0, res.output
    with out.open() as f:
        rows = list(csv.DictReader(f))
    units = symmetry_units("2x3")
    assert len(rows) == len(units)
    for row, u in zip(rows, units):
        assert int(row["class_size"]) == u.size == int(row["weight"])
        assert row["representative"] == u.symmetry.describe()
        assert int(row["form_id"]) == u.type_id
    red = get_reduction("2x3", "symmetry")
    assert red.total({int(r["unit_id"]): int(r["count"]) for r in rows}) == 49
    assert json.loads((here / "sym.json").read_text())["total_int"] == 49


def test_a_wrong_unit_count_is_caught_by_the_divisibility_check():
    red = get_reduction("2x3", "symmetry")
    counts = {u.unit_id: 0 for u in red.units()}
    counts[0] = 39_168
    with pytest.raises(ValueError, match="is not a multiple of 3,456"):
        red.total({**counts, 5: counts[5] + 1})


def test_recount_checks_every_unit_but_the_identity_and_says_why(here):
    assert invoke("count", "2x3", "--up-to-symmetry", "--workers", "1").exit_code == 0
    n = len(symmetry_units("2x3"))
    res = invoke("recount", "results/2x3-rsymmetry.sqlite", "--sample", n)
    assert res.exit_code == 0, res.output
    assert "unit    0: not recounted here: the identity's count is the 2x3 grid count / 6!" \
        in res.output
    assert f"all {n - 1} recounted units agree" in res.output


def test_recount_of_a_wrong_symmetry_count_counts_a_conjugate_and_names_the_unit(here,
                                                                                 monkeypatch):
    from counting.group import burnside
    assert invoke("count", "2x3", "--up-to-symmetry", "--workers", "1").exit_code == 0
    db = here / "results" / "2x3-rsymmetry.sqlite"
    with Store.open(db) as st:
        right = next(r.count for r in st.results() if r.unit_id == 3)
    store_wrong_count(db, 3, right + 1)      # a wrong count with a valid checksum

    searched, count_unit = [], burnside.count_unit

    def spy(unit, *args, **kw):
        searched.append(unit.unit_id)
        return count_unit(unit, *args, **kw)
    monkeypatch.setattr(burnside, "count_unit", spy)
    res = invoke("recount", db, "--sample", 100)
    # no unit is searched again as it was stored: unit 8, whose class (the two
    # rows of every band swapped, rows=214365) is central in G, is counted with
    # another unit made standard
    assert searched == []
    assert res.exit_code == 1, res.output
    assert res.output.splitlines()[0] == (
        "recounted by A(g) counted again for a conjugate h·g·h⁻¹ of the class representative "
        "(other cells, other exact covers); a central g, which has no other conjugate, with "
        "another unit made standard, or searched again with an empty memo table when it keeps "
        "no other unit")
    assert re.search(rf"unit +3: stored +{right + 1:,} +recounted +{right:,} +MISMATCH",
                     res.output), res.output
    assert res.output.count("  ok") == len(symmetry_units("2x3")) - 2   # not 0 nor 3


@pytest.mark.slow
def test_a_symmetry_job_runs_on_a_dask_cluster_too(here):
    pytest.importorskip("distributed")
    res = invoke("count", "2x3", "--up-to-symmetry", "--scheduler", "local:2", "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output[res.output.index("{"):])
    assert doc["total_int"] == 49 and doc["run"]["workers"] == 2
    assert doc["run"]["units_counted"] == len(symmetry_units("2x3")) - 1   # identity recorded


def _symmetry_store(path):
    res = invoke("count", "2x3", "--up-to-symmetry", "--workers", "1", "--quiet", "--db", path)
    assert res.exit_code == 0, res.output


@pytest.mark.parametrize("command", ["status", "export"])
def test_a_burnside_sum_that_the_group_order_does_not_divide_is_one_line(here, command):
    # issue 26.9: status, export and count printed a 33-line traceback
    bad = here / "bad.sqlite"
    _symmetry_store(bad)
    with Store.open(bad) as st:
        count = st.get(1).count
    store_wrong_count(bad, 1, count + 1)
    args = [command, bad] + (["--output-dir", here] if command == "export" else [])
    res = invoke(*args)
    assert res.exit_code != 0 and "Traceback" not in res.output, res.output
    assert res.output.count("\n") == 1 and "is not a multiple of" in res.output


def test_a_store_with_a_unit_id_the_job_lacks_is_one_line(here):
    # issue 26.9: a unit id out of range gave a 32-line traceback
    bad = here / "bad.sqlite"
    _symmetry_store(bad)
    with Store.open(bad) as st:
        job, row = st.job, replace(st.get(3), unit_id=200)
    edit_row(bad, 3, unit_id=200, checksum=row_checksum(job, stored_row(row)))
    for args in (["status", bad], ["count", "2x3", "--up-to-symmetry", "--db", bad,
                                   "--workers", "1"]):
        res = invoke(*args)
        assert res.exit_code != 0 and "Traceback" not in res.output, res.output
        assert "unit 200" in res.output


# Issue 26.9: the identity unit is checked against the grid store it was taken from.

def _keeps_burnside_divisible(shape, grid_path, unit_id):
    """The smallest change of the grid store's count of ``unit_id`` that
    changes the grid total by a multiple of N!·|G| (so the identity, grid
    total / N!, changes by a multiple of |G| and Burnside's sum stays
    divisible): a forgery that divisibility cannot see."""
    job = Job.load(shape)
    weight = {c.class_id: c.weight for c in job.classes}[job.units[unit_id].class_id]
    step = math.factorial(Job.load(shape).kind.shape.n) * group_order(shape)
    factor = math.prod(v for _, v in job.factors) * weight
    return step // math.gcd(factor, step)


def _forge(path, unit_id, delta):
    """Change one stored count by ``delta`` and recompute its checksum, as
    someone who knows the checksum function would (no checksum can see it)."""
    with Store.open(path) as st:
        right = st.get(unit_id).count
    store_wrong_count(path, unit_id, right + delta)


def _counted_up_to_symmetry(here):
    res = invoke("count", "2x3", "--up-to-symmetry", "--workers", "1", "--quiet")
    assert res.exit_code == 0 and res.output.strip() == "49", res.output
    return here / "results" / "2x3-rmoves.sqlite", here / "results" / "2x3-rsymmetry.sqlite"


def _one_line_error(res, *names):
    assert res.exit_code == 1 and "Traceback" not in res.output, res.output
    assert res.output.count("\n") == 1, res.output
    for name in names:
        assert name in res.output, res.output
    return res.output


@pytest.mark.parametrize("command", ["status", "export", "count", "report"])
def test_a_grid_store_forged_after_the_identity_was_taken_from_it_is_noticed(here, command):
    grid, sym = _counted_up_to_symmetry(here)
    _forge(grid, 0, _keeps_burnside_divisible("2x3", grid, 0))
    args = {"status": ["status", sym], "export": ["export", sym, "--output-dir", here / "out"],
            "count": ["count", "2x3", "--up-to-symmetry", "--workers", "1"],
            "report": ["report", sym, "-o", here / "r.html"]}[command]
    out = _one_line_error(invoke(*args), "2x3-rmoves.sqlite", "2x3-rsymmetry.sqlite")
    assert "changed since" in out and "recount" in out
    assert not (here / "out").exists() and not (here / "r.html").exists()


def test_a_forged_identity_that_keeps_burnside_divisible_is_noticed(here):
    grid, sym = _counted_up_to_symmetry(here)
    _forge(sym, 0, group_order("2x3"))          # 49 would become 50, still divisible
    out = _one_line_error(invoke("status", sym), "unit 0", "2x3-rmoves.sqlite")
    assert "39,168" in out                       # what the grid store says it must be


def test_an_identity_recorded_before_the_link_existed_is_still_checked_by_its_total(here):
    grid, sym = _counted_up_to_symmetry(here)
    with Store.open(sym) as st:
        job, row = st.job, st.get(0)
    old = replace(row, worker=f"grid count {grid.relative_to(here)}", count=row.count + 3456)
    edit_row(sym, 0, worker=old.worker, count=str(old.count),
             checksum=row_checksum(job, stored_row(old)))
    _one_line_error(invoke("status", sym), "unit 0", "2x3-rmoves.sqlite")


def test_the_grid_store_is_found_beside_the_symmetry_store_from_another_directory(
        here, monkeypatch):
    grid, sym = _counted_up_to_symmetry(here)
    _forge(grid, 0, _keeps_burnside_divisible("2x3", grid, 0))
    (here / "elsewhere").mkdir()
    monkeypatch.chdir(here / "elsewhere")
    _one_line_error(invoke("status", sym), "2x3-rmoves.sqlite", "changed since")


def test_status_says_whether_the_identity_was_checked_against_its_grid_store(here):
    grid, sym = _counted_up_to_symmetry(here)
    res = invoke("status", sym)
    assert res.exit_code == 0, res.output
    assert re.search(r"identity \(unit 0\) +checked against results/2x3-rmoves\.sqlite",
                     res.output), res.output
    doc = json.loads(invoke("status", sym, "--json").output)
    assert doc["identity"] == {"grid_store": "results/2x3-rmoves.sqlite", "checked": True}
    grid.rename(here / "moved.sqlite")       # another machine: the grid store is not here
    res = invoke("status", sym)
    assert res.exit_code == 0 and res.output.rstrip().endswith("49"), res.output
    assert re.search(r"identity \(unit 0\) +not checked: results/2x3-rmoves\.sqlite is not "
                     r"here", res.output), res.output
    doc = json.loads(invoke("status", sym, "--json").output)
    assert doc["identity"]["checked"] is False


def test_a_grid_store_forged_before_the_identity_was_taken_is_found_by_recount_only(here):
    # what the README says is not guarded: the forged rows are all the
    # identity step sees; recount (counting again) is the independent check
    grid = here / "results" / "2x3-rmoves.sqlite"
    _grid_store(grid)
    _forge(grid, 0, _keeps_burnside_divisible("2x3", grid, 0))
    res = invoke("count", "2x3", "--up-to-symmetry", "--workers", "1", "--quiet")
    assert res.exit_code == 0 and res.output.strip() != "49", res.output
    res = invoke("recount", grid, "--sample", "9")
    assert res.exit_code != 0 and re.search(r"unit +0: .*MISMATCH", res.output), res.output


def test_counting_the_grid_store_again_keeps_the_identity_checked(here):
    # the digest is of the counts, not of timings or hosts
    grid, sym = _counted_up_to_symmetry(here)
    res = invoke("count", "2x3", "--fresh", "--workers", "1", "--quiet")
    assert res.exit_code == 0, res.output
    res = invoke("status", sym)
    assert res.exit_code == 0 and "checked against results/2x3-rmoves.sqlite" in res.output


def test_a_forged_identity_stops_a_resumed_symmetry_count_before_any_unit_is_counted(here):
    grid, sym = _counted_up_to_symmetry(here)
    _forge(sym, 0, group_order("2x3"))
    con = sqlite3.connect(sym)
    with con:
        con.execute("DELETE FROM units WHERE unit_id = 5")   # one unit left to count
    con.close()
    res = invoke("count", "2x3", "--up-to-symmetry", "--workers", "1")
    _one_line_error(res, "unit 0", "2x3-rmoves.sqlite")
    with Store.open(sym) as st:
        assert 5 not in st.done_ids()


LISTING_2X2 = ("listing the units of 2x2 (moves) first: about 30 s of one core, as measured "
               "from an empty cache (results/listing-seconds.json) ...")


@pytest.mark.parametrize("args, grid_store", [
    ((), False),             # listed by the estimate of the grid count, then by the identity
    (("--force",), False),   # no estimate: listed by the identity step alone
    ((), True),              # grid store complete: listed by the identity step alone
])
def test_the_grid_count_behind_the_identity_says_its_slow_listing_once(here, tmp_path,
                                                                       monkeypatch, args,
                                                                       grid_store):
    """When the identity's grid count lists units measured as slow, count says so
    at once, once (here 2x2's grid job, measured as slow; noticed: never said)."""
    from counting.reduction import listing
    from listing_samples import measured
    if grid_store:
        _grid_store(here / "results" / "2x2-rmoves.sqlite", "2x2")
    monkeypatch.setattr(listing, "FILE", measured(tmp_path / "m.json", ("2x2", "moves", 30)))
    res = invoke("count", "2x2", "--up-to-symmetry", "--workers", "1", *args)
    assert res.exit_code == 0, res.output
    lines = res.stderr.splitlines()
    assert lines.count(LISTING_2X2) == 1, res.stderr
    if not grid_store:
        assert lines.index(LISTING_2X2) < next(
            i for i, ln in enumerate(lines) if ln.startswith("the identity class fixes"))


@pytest.mark.parametrize("grid_store", [False, True])
def test_count_reads_the_state_of_the_identity_s_grid_store_once_for_its_notices(
        here, monkeypatch, grid_store):
    """The listing and tables notices of a symmetry count ask whether the grid
    store behind its identity is complete: asked once, both notices told the
    answer (each opened the store before)."""
    from counting import plan_notices
    grid = here / "results" / "2x2-rmoves.sqlite"
    if grid_store:
        _grid_store(grid, "2x2")
    read, state = [], plan_notices.store_state

    def counted(path, *args):
        read.append(path.resolve())
        return state(path, *args)
    monkeypatch.setattr(plan_notices, "store_state", counted)
    res = invoke("count", "2x2", "--up-to-symmetry", "--workers", "1")
    assert res.exit_code == 0, res.output
    assert read.count(grid.resolve()) == 1, read
