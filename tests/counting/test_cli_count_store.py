"""``gridcount count`` against a store that already exists (counting/cli/count.py,
counting/store/database.py): a rerun skips finished units; ``--fresh`` deletes only
a store of the same job; a store of another engine, kernel, shape or reduction, or a
file that is not a store, is refused in one line (``--allow-mismatch`` allows only
another engine).

Split out of test_cli.py by subject; the store commands are in test_cli_store.py.
"""
import json
import os
import sqlite3

import pytest

from counting.job import Job
from counting.store.database import Store
from dlx import ENGINE_VERSION
from factorization import CANON_VERSION, ENGINE_NAME, KERNEL_VERSION

from cli_samples import invoke, invoke_raising, one_line_error as _one_line_error
from count_process import units_in


@pytest.fixture
def run():
    return invoke_raising


def test_a_rerun_skips_units_already_in_the_store(run, tmp_path):
    db = tmp_path / "j.sqlite"
    run("count", "3x3", "--units", "5", "--db", db, "--workers", "1", "--quiet")
    res = run("count", "3x3", "--units", "5", "--db", db, "--workers", "1", "--json")
    doc = json.loads(res.output)
    assert doc["run"]["units_counted"] == 0 and doc["run"]["units_skipped"] == 1


def test_fresh_deletes_the_store_and_counts_again(run, tmp_path):
    db = tmp_path / "j.sqlite"
    run("count", "2x3", "--units", "0-3", "--db", db, "--workers", "1", "--quiet")
    res = run("count", "2x3", "--units", "0-1", "--db", db, "--workers", "1", "--json", "--fresh")
    doc = json.loads(res.output)
    assert doc["run"]["units_counted"] == 2 and doc["run"]["units_skipped"] == 0
    assert sorted(units_in(db)) == [0, 1]


def test_fresh_never_deletes_a_store_of_another_job(tmp_path):
    # issue 26.6: `count 2x3 --fresh --db STORE_OF_A_2x4_JOB` deleted the 2x4 units
    db = tmp_path / "j.sqlite"
    invoke("count", "2x4", "--units", "0-2", "--db", db, "--workers", "1", "--quiet")
    res = invoke("count", "2x3", "--db", db, "--workers", "1", "--quiet", "--fresh")
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert res.output.count("\n") == 1
    assert "store of 2x4" in res.output and "not of 2x3" in res.output
    with Store.open(db) as st:
        assert st.job.shape == "2x4" and sorted(st.done_ids()) == [0, 1, 2]


def test_fresh_says_how_many_finished_units_it_deletes(tmp_path):
    db = tmp_path / "j.sqlite"
    invoke("count", "2x3", "--units", "0-3", "--db", db, "--workers", "1", "--quiet")
    res = invoke("count", "2x3", "--units", "0", "--db", db, "--workers", "1", "--fresh",
                 "--no-progress")
    assert res.exit_code == 0
    assert "--fresh: deleted 4 finished units of 2x3" in res.output


def _other_programs_database(path):
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE notes (text TEXT)")
    con.commit()
    con.close()


@pytest.mark.parametrize("make", [lambda p: p.write_text("unit,count\n0,12\n"),
                                  _other_programs_database], ids=["text", "sqlite"])
def test_fresh_never_deletes_a_file_that_is_not_a_store(tmp_path, make):
    db = tmp_path / "notes.sqlite"
    make(db)
    before = db.read_bytes()
    res = invoke("count", "2x3", "--db", db, "--workers", "1", "--quiet", "--fresh")
    _one_line_error(res, "not a gridcount store", 2)     # a refusal, as every refusal
    assert db.read_bytes() == before


def _store_of_another_engine(path):
    info = Job.load("2x3").info()
    with Store.create_or_open(path, type(info)(info.shape, info.reduction, "older-engine",
                                               info.n_units)):
        pass


def test_a_store_of_another_engine_is_continued_only_with_allow_mismatch(tmp_path):
    db = tmp_path / "old.sqlite"
    _store_of_another_engine(db)
    res = invoke("count", "2x3", "--db", db, "--units", "0", "--workers", "1", "--quiet")
    _one_line_error(res, "engine_version is 'older-engine' in the database", 2)
    assert "--allow-mismatch" in res.output and units_in(db) == []
    res = invoke("count", "2x3", "--db", db, "--units", "0", "--workers", "1", "--quiet",
                 "--allow-mismatch")
    assert res.exit_code == 0, res.output
    with Store.open(db) as st:
        assert st.job.engine_version == "older-engine"       # the store's job is kept
        assert [(r.unit_id, r.engine_version) for r in st.results()] == [(0, ENGINE_VERSION)]


def _factor_store(path, engine):
    info = Job.load("1x5", "factor").info()
    with Store.create_or_open(path, type(info)(info.shape, info.reduction, engine,
                                               info.n_units)):
        pass


def test_a_factor_store_records_the_kernel_and_its_canonical_form(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    db = tmp_path / "f.sqlite"
    assert invoke("count", "1x5", "--reduction", "factor", "--db", db, "-q", "-w", "1",
                  "--private-memo").exit_code == 0
    with Store.open(db) as st:
        assert st.job.engine_version == KERNEL_VERSION == f"{ENGINE_NAME} canon-{CANON_VERSION}"


def test_a_factor_store_of_another_kernel_is_refused_even_with_allow_mismatch(tmp_path,
                                                                                monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    db = tmp_path / "f.sqlite"
    _factor_store(db, f"{ENGINE_NAME} canon-{CANON_VERSION + 1}")
    for extra in ((), ("--allow-mismatch",)):
        res = invoke("count", "1x5", "--reduction", "factor", "--db", db, "-q", "-w", "1",
                     "--private-memo", *extra)
        _one_line_error(res, "belongs to another kernel: its units were counted by engine", 2)
        assert units_in(db) == []


def test_a_factor_store_begun_before_the_kernel_version_was_recorded_is_canonical_form_1(
        tmp_path, monkeypatch):
    # such stores recorded the search engine; their units were made by the
    # first canonical form, whose keys (and so unit ids) the second reorders
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    db = tmp_path / "f.sqlite"
    _factor_store(db, "dlx1-memo-3")
    res = invoke("count", "1x5", "--reduction", "factor", "--db", db, "-q", "-w", "1",
                 "--private-memo")
    assert CANON_VERSION > 1
    _one_line_error(res, "belongs to another kernel: its units were counted by engine "
                         "'dlx1-memo-3'", 2)
    assert units_in(db) == []


def test_a_factor_store_of_another_kernel_is_not_merged(tmp_path):
    other, target = tmp_path / "other.sqlite", tmp_path / "all.sqlite"
    _factor_store(other, f"{ENGINE_NAME} canon-{CANON_VERSION + 1}")
    res = invoke("merge", target, other)
    assert res.exit_code == 2 and "its units were counted by engine" in res.output, res.output
    assert len(res.output.strip().splitlines()) == 1 and not target.exists()
    _factor_store(target, KERNEL_VERSION)                     # a target of this kernel
    res = invoke("merge", target, other)
    assert res.exit_code == 2 and f"cannot merge {other}" in res.output, res.output


def test_allow_mismatch_never_allows_another_shape_or_reduction(tmp_path):
    db = tmp_path / "j.sqlite"
    assert invoke("count", "2x3", "--db", db, "-q", "-w", "1").exit_code == 0
    res = invoke("count", "3x2", "--db", db, "-q", "-w", "1", "--allow-mismatch")
    _one_line_error(res, "shape is '2x3' in the database but '3x2' was asked for", 2)
    res = invoke("count", "2x3", "--reduction", "patterns", "--db", db, "-q", "-w", "1",
                 "--allow-mismatch")
    _one_line_error(res, "reduction is 'moves' in the database but 'patterns' was asked for", 2)


@pytest.mark.parametrize("content", [b"hello, not a database\n", os.urandom(4096)])
def test_a_foreign_or_corrupt_store_is_refused_in_one_line(tmp_path, content):
    p = tmp_path / "x.sqlite"
    p.write_bytes(content)
    res = invoke("count", "3x3", "--db", p, "--units", "0")
    _one_line_error(res, str(p), 2)     # not a store: a refusal, as every refusal


def test_a_store_of_another_reduction_is_refused(tmp_path):
    p = tmp_path / "r44.sqlite"
    res = invoke("count", "3x3", "--reduction", "44", "--db", p, "--units", "0", "--quiet",
                 "--workers", "1")
    assert res.exit_code == 0
    res = invoke("count", "3x3", "--db", p, "--units", "0")
    _one_line_error(res, "reduction is '44' in the database but '71' was asked for", 2)
