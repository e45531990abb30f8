"""The store commands (counting/cli/store.py): status, export, merge,
recount."""
import json
import os
import sqlite3

import pytest
from click.testing import CliRunner

from counting import published
from counting.cli import cli
from counting.job import Job
from counting.pool import default_workers
from counting.store import Store
from counting.units import UnitResult

COUNTED = [0, 1, 2, 10]  # 3x3 units in the shared store


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture(scope="module")
def counted(tmp_path_factory):
    """A 3x3 store holding COUNTED, made by ``gridcount count`` (read only)."""
    db = tmp_path_factory.mktemp("counted") / "part.sqlite"
    res = invoke("count", "3x3", "--units", "0-2,10", "--db", db, "--workers", "1", "--quiet")
    assert res.exit_code == 0 and "4 of 710 units done" in res.output
    return db


def _tamper(path, unit_id, count):
    """Overwrite one stored count behind the store's back."""
    con = sqlite3.connect(path)
    with con:
        con.execute("UPDATE units SET count = ? WHERE unit_id = ?", (str(count), unit_id))
    con.close()


def _fake_store(path, counts):
    with Store.create_or_open(path, Job.load("3x3", "71").info()) as st:
        for u, n in counts.items():
            st.record(UnitResult(u, u // 10, u % 10, n, 1, 0, 0, 0.1, "h", "v", "t"))


# ---------------------------------------------------------------------------
# status

def test_status_says_what_is_done_and_what_remains(counted):
    with Store.open(counted) as st:
        done = {r.unit_id: r.count for r in st.results()}
    assert sorted(done) == COUNTED
    res = invoke("status", counted)
    assert res.exit_code == 0
    assert "4 of 710" in res.output and "remaining units: 3-9,11-709" in res.output
    assert f"{sum(done.values()):,}" in res.output
    doc = json.loads(invoke("status", counted, "--json").output)
    assert doc["units_done"] == 4 and doc["total"] is None
    assert doc["remaining"] == [u for u in range(710) if u not in COUNTED]


@pytest.mark.parametrize("content", [b"hello, not a database\n", os.urandom(4096)])
def test_a_foreign_or_corrupt_store_is_refused_in_one_line(tmp_path, content):
    p = tmp_path / "x.sqlite"
    p.write_bytes(content)
    res = invoke("status", p)
    assert res.exit_code == 1
    assert res.output.startswith("Error: ") and len(res.output.strip().splitlines()) == 1


def test_status_of_a_missing_store_is_one_line():
    res = invoke("status", "/nonexistent/s.sqlite")
    assert res.exit_code == 1 and "no such database" in res.output
    assert "Traceback" not in res.output


# ---------------------------------------------------------------------------
# export

def test_export_writes_a_deterministic_csv_and_a_summary(counted, tmp_path):
    csv_path, json_path = tmp_path / "u.csv", tmp_path / "s.json"
    res = invoke("export", counted, "--csv", csv_path, "--json", json_path)
    assert res.exit_code == 0
    assert res.output.strip() == f"wrote {csv_path} (4 units) and {json_path} (total —)"
    lines = csv_path.read_text().splitlines()
    assert lines[0].startswith("unit_id,class_id,form_id,weight,count")
    assert [int(line.split(",")[0]) for line in lines[1:]] == COUNTED
    summary = json.loads(json_path.read_text())
    assert summary["total"] is None and summary["units_done"] == 4
    assert summary["machine"]["cores"] == default_workers()
    before = csv_path.read_bytes()
    invoke("export", counted, "--csv", csv_path, "--json", json_path)
    assert csv_path.read_bytes() == before


def test_export_into_a_missing_directory_is_one_line(counted, tmp_path):
    res = invoke("export", counted, "--csv", tmp_path / "no" / "u.csv")
    assert res.exit_code == 1 and f"directory {tmp_path / 'no'} does not exist" in res.output


@pytest.mark.parametrize("shape", ["1x1", "2x2", "2x3", "3x2", "1x6"])
def test_export_of_a_complete_store_has_the_total(tmp_path, shape):
    db = tmp_path / f"{shape}.sqlite"
    assert invoke("count", shape, "--db", db, "--workers", "1", "--quiet").exit_code == 0
    res = invoke("export", db, "--csv", tmp_path / "u.csv", "--json", tmp_path / "s.json")
    assert res.exit_code == 0
    doc = json.loads((tmp_path / "s.json").read_text())
    assert doc["shape"] == shape and doc["reduction"] == "moves"
    assert doc["total_int"] == published.lookup(shape).total


# ---------------------------------------------------------------------------
# merge

def test_merge_combines_stores_and_rejects_disagreeing_counts(tmp_path):
    a, b, c = tmp_path / "a.sqlite", tmp_path / "b.sqlite", tmp_path / "c.sqlite"
    _fake_store(a, {0: 5, 1: 6})
    _fake_store(b, {1: 6, 2: 7})
    _fake_store(c, {2: 8})
    res = invoke("merge", tmp_path / "all.sqlite", a, b)
    assert res.exit_code == 0
    assert res.output.splitlines() == [
        f"{a}: 2 units added, 0 already present with equal counts",
        f"{b}: 1 units added, 1 already present with equal counts"]
    with Store.open(tmp_path / "all.sqlite") as st:
        assert {r.unit_id: r.count for r in st.results()} == {0: 5, 1: 6, 2: 7}
    res = invoke("merge", tmp_path / "all.sqlite", c)
    assert res.exit_code == 1 and "unit 2: 7 here vs 8 there" in res.output
    assert res.output.startswith("Error: ")
    with Store.open(tmp_path / "all.sqlite") as st:
        assert st.get(2).count == 7


def test_count_resumes_and_merges_for_another_shape(tmp_path):
    a, b, both = tmp_path / "a.sqlite", tmp_path / "b.sqlite", tmp_path / "all.sqlite"
    total = published.lookup("2x3").total
    n = Job.load("2x3").n_units
    assert invoke("count", "2x3", "--db", a, "--units", f"0-{n // 2}",
                  "-q", "-w", "1").exit_code == 0
    assert invoke("count", "2x3", "--db", b, "--units", f"{n // 2}-{n - 1}",
                  "-q", "-w", "1").exit_code == 0
    assert invoke("merge", both, a, b).exit_code == 0
    res = invoke("status", both, "--json")
    assert json.loads(res.output)["total_int"] == total
    res = invoke("count", "2x3", "--db", a, "--json", "-w", "1")  # resume the rest
    doc = json.loads(res.output)
    assert doc["run"]["units_skipped"] == n // 2 + 1 and doc["total_int"] == total


# ---------------------------------------------------------------------------
# recount

def test_recount_of_an_untouched_store_agrees(counted):
    res = invoke("recount", counted, "--sample", "2", "--seed", "1")
    assert res.exit_code == 0
    assert res.output.count("  ok") == 2 and "all 2 recounted units agree" in res.output


@pytest.mark.parametrize("flags", [(), ("--no-memo",)])
def test_recount_fails_on_a_tampered_count_and_names_the_unit(tmp_path, flags):
    db = tmp_path / "2x3.sqlite"       # every unit, a few milliseconds each
    assert invoke("count", "2x3", "--db", db, "-q", "-w", "1").exit_code == 0
    with Store.open(db) as st:
        n, true = len(st), st.get(4).count
    _tamper(db, 4, true + 1)
    res = invoke("recount", db, "--sample", n, *flags)
    assert res.exit_code == 1
    assert f"unit    4: stored {true + 1:>12,}  recounted {true:>12,}  MISMATCH" in res.output
    assert res.output.count("  ok") == n - 1
    assert f"Error: 1 of {n} recounted units disagree with the store" in res.output
    assert "recounted units agree" not in res.output


def test_recount_of_an_empty_store_is_one_line(tmp_path):
    db = tmp_path / "e.sqlite"
    _fake_store(db, {})
    res = invoke("recount", db)
    assert res.exit_code == 1 and "no finished unit to recount" in res.output
