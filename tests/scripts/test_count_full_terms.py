"""Specification of scripts/count_full_terms.py: every unit of ``count KIND
--up-to-symmetry --group full`` but the identity, counted by the job's own
path into a store and recounted by ``recount``'s library call, with the
identity taken as a grid total / N! from a TSV and Burnside's divisibility
checked.

On 6×6 Sudoku X (its full group is today's, 8 × 6!) and 4×4 SudokuP (its
full group is 4 times today's: ``C`` listed) the quotient is the
``--group full`` job's own (3 and 3, brute-forced by union-find in
tests/counting/group/test_split_burnside.py); a grid total one relabelling
class too many does not divide and exits 1; a TSV giving two totals exits 2.
``--split`` counts the terms again by the split route and compares them unit
by unit: equal on 6×6 Sudoku X, a stored unit changed is caught (exit 1), and
a kind whose job counts by the split route already is refused (exit 2).
"""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

from counting.job import Job
from counting.plan import CountRequest, count, open_store
from counting.units import Tally, UnitResult


@pytest.fixture(scope="module")
def script(load_script):
    return load_script("count_full_terms")


def _tsv(path: Path, *rows: tuple[str, int]) -> Path:
    path.write_text("kind\tgrids\tseconds\n" + "".join(f"{k}\t{g}\t1.0\n" for k, g in rows))
    return path


def _job_orbits(kind: str, db: Path) -> int:
    """The essentially different count of the ``--group full`` job itself."""
    return count(CountRequest(kind, up_to_symmetry=True, group="full", db=db,
                              workers=1)).summary.total


@pytest.mark.parametrize("kind", ["2x3+x", "2x2+disjoint"])
def test_the_quotient_is_the_full_jobs(script, tmp_path, capsys, monkeypatch, kind):
    monkeypatch.chdir(tmp_path)        # the jobs' stores go to ./results
    grids = count(CountRequest(kind, workers=1)).summary.total
    expected = _job_orbits(kind, tmp_path / "job.sqlite")
    out_csv = tmp_path / "terms.csv"
    rc = script.main([kind, "--db", str(tmp_path / "terms.sqlite"),
                      "--grid-total-from", str(_tsv(tmp_path / "t.tsv", (kind, grids))),
                      "--csv", str(out_csv)])
    out = capsys.readouterr().out
    assert rc == 0
    assert f"**{expected:,}** essentially different (divides exactly)" in out
    with open(out_csv, newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows and all(r["unit_id"] != "0" for r in rows)        # the identity is not a row
    assert all(r["recount"] == r["fixed"] for r in rows)         # every unit recounted, equal


def test_a_total_that_is_not_a_grid_count_does_not_divide(script, tmp_path, capsys):
    # 8,640 + 720: the identity one more (13), Σ = 25, and |C| = 8 does not divide it
    rc = script.main(["2x3+x", "--db", str(tmp_path / "terms.sqlite"),
                      "--grid-total-from", str(_tsv(tmp_path / "t.tsv", ("2x3+x", 9_360)))])
    assert rc == 1
    assert "does NOT divide" in capsys.readouterr().out


def test_two_different_totals_are_refused(script, tmp_path, capsys):
    tsv = _tsv(tmp_path / "t.tsv", ("2x3+x", 8_640), ("2x3+x", 9_360))
    rc = script.main(["2x3+x", "--db", str(tmp_path / "terms.sqlite"),
                      "--grid-total-from", str(tsv)])
    assert rc == 2
    assert "2 different grid totals of 2x3+x" in capsys.readouterr().err


def test_split_route_agrees_unit_by_unit(script, tmp_path, capsys):
    rc = script.main(["2x3+x", "--db", str(tmp_path / "terms.sqlite"), "--split"])
    assert rc == 0
    assert "every unit agrees with its class's term" in capsys.readouterr().out


def test_split_route_catches_a_wrong_stored_unit(script, tmp_path, capsys):
    # unit 1 (A = 8) stored as 9 before the run, which then counts only the others
    db = tmp_path / "terms.sqlite"
    job = Job.load("2x3+x", "symmetry-full")
    store, lock, _ = open_store(db, job)
    try:
        with store:
            store.record(UnitResult.made(job.units[1], Tally(9)))
    finally:
        lock.release()
    rc = script.main(["2x3+x", "--db", str(db), "--split"])
    out = capsys.readouterr().out
    assert rc == 1
    assert "counts 9, class" in out and "Σ size·A 12 against 13 here" in out


def test_split_is_refused_where_the_job_counts_by_it_already(script, tmp_path, capsys):
    rc = script.main(["2x2+disjoint", "--db", str(tmp_path / "terms.sqlite"), "--split"])
    assert rc == 2
    assert "counts by the split route already" in capsys.readouterr().err


def test_a_totals_file_without_its_columns_is_one_line_not_a_traceback(script, tmp_path, capsys):
    tsv = tmp_path / "t.tsv"
    tsv.write_text("shape\ttotal\n2x3+x\t8640\n")
    rc = script.main(["2x3+x", "--db", str(tmp_path / "terms.sqlite"),
                      "--grid-total-from", str(tsv)])
    assert rc == 2
    assert "has no columns kind and grids" in capsys.readouterr().err

