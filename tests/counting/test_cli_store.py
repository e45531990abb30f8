"""The store commands (counting/cli/store.py): status, export, merge,
recount; and how every command treats a damaged or hand-edited store.  Stores
on read-only media, held by a running ``count``, merged at once or not regular
files: test_cli_store_access.py."""
import json
import os
import re
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest

from counting import published
from counting.cli import cli
from counting.reduction import default_reduction
from counting.job import Job
from counting.run.pool import default_workers
from counting.store.database import JobInfo, Store
from counting.units import UnitResult

from cli_samples import invoke
from store_cli_samples import (STORE_UNITS, fake_store, in_mount_namespace, listing, needs_mounts,
                               store_of_an_older_reduction)
from store_samples import edit_row, make_result, store_wrong_count, write_format_1_store

# ---------------------------------------------------------------------------
# status

def test_status_says_what_is_done_and_what_remains(counted):
    with Store.open(counted) as st:
        done = {r.unit_id: r.count for r in st.results()}
    assert sorted(done) == STORE_UNITS
    res = invoke("status", counted)
    assert res.exit_code == 0
    assert "4 of 710" in res.output and "remaining units (ids): 3-9,11-709" in res.output
    assert f"{sum(done.values()):,}" in res.output
    doc = json.loads(invoke("status", counted, "--json").output)
    assert doc["units_done"] == 4 and doc["total"] is None
    assert doc["remaining"] == [u for u in range(710) if u not in STORE_UNITS]


def test_status_names_the_shape_and_the_reduction_as_they_are_given(tmp_path):
    # a prefix store said "shape / reduction  1x8+x / prefix-diagonals classes"
    db = tmp_path / "x.sqlite"
    assert invoke("count", "2x3+x", "--prefix", "diagonals", "--units", "0-1", "--db", db,
                  "-q", "-w", "1").exit_code == 0
    rows = dict(re.split(r"  +", line.strip(), maxsplit=1)
                for line in invoke("status", db).output.splitlines() if "  " in line.strip())
    assert rows["shape"] == "2x3+x" and rows["reduction"] == "prefix-diagonals"
    n = len(Job.load("2x3+x", "prefix-diagonals").units_of_class)
    assert rows["classes complete"] == f"2 of {n:,}"


@pytest.mark.parametrize("command", [["status"], ["report", "-o", "r.md"], ["recount", "-k", "1"],
                                     ["export", "--units", "u.json"]])
def test_a_store_whose_reduction_has_changed_since_is_refused_not_called_damaged(
        tmp_path, command, monkeypatch):
    # 1x8+x's group was too large to search, so prefix-diagonals made 4,752 units; now
    # it is searched and makes 26: an old store's unit ids name other units
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "old.sqlite"
    job = store_of_an_older_reduction(db)
    res = invoke(command[0], *command[1:], db)
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1, res.output
    assert (f"was made for {job.n_units + 5:,} units of 2x3 ({job.reduction}), and this "
            f"gridcount makes {job.n_units:,}: the reduction has changed since") in res.output
    assert "damaged" not in res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.sqlite"]   # nothing written


def test_status_cuts_a_long_list_of_remaining_ids_to_the_terminal_and_json_keeps_all(
        tmp_path, monkeypatch):
    # every other unit done: 355 single ids made one line of 1,500 characters
    db = tmp_path / "half.sqlite"
    fake_store(db, {u: 1 for u in range(0, 710, 2)})
    monkeypatch.setenv("COLUMNS", "80")
    res = invoke("status", db)
    assert res.exit_code == 0, res.output
    (line,) = [s for s in res.output.splitlines() if s.startswith("remaining units (ids): ")]
    assert len(line) <= 80 and line.startswith("remaining units (ids): 1,3,5,7,")
    shown = line.removeprefix("remaining units (ids): ").split(",… and ")[0].split(",")
    assert line.endswith(f",… and {355 - len(shown)} more")
    doc = json.loads(invoke("status", db, "--json").output)
    assert doc["remaining"] == list(range(1, 710, 2))


def test_a_store_of_format_1_is_read_and_upgraded_by_the_next_count(tmp_path):
    db = tmp_path / "old.sqlite"
    job = Job.load("2x3")
    assert invoke("count", "2x3", "--db", tmp_path / "new.sqlite", "--units", "0-2", "-q",
                  "-w", "1").exit_code == 0
    with Store.open(tmp_path / "new.sqlite") as st:
        write_format_1_store(db, job.info(), st.results())
    res = invoke("status", db)
    assert res.exit_code == 0 and "3 of 9" in res.output
    assert res.output.splitlines()[-1] == (
        "store format 1: its rows carry no checksum, so they were read unchecked; the next "
        "count or merge into it upgrades it to format 2")
    assert json.loads(invoke("status", db, "--json").output)["store_format"] == 1
    assert invoke("count", "2x3", "--db", db, "-q", "-w", "1").exit_code == 0
    res = invoke("status", db, "--json")
    doc = json.loads(res.output)
    assert doc["store_format"] == 2 and doc["total_int"] == published.lookup("2x3").total
    assert "store format" not in invoke("status", db).output


@pytest.mark.parametrize("content", [b"hello, not a database\n", os.urandom(4096)])
def test_a_foreign_or_corrupt_store_is_refused_in_one_line(tmp_path, content):
    p = tmp_path / "x.sqlite"
    p.write_bytes(content)
    res = invoke("status", p)
    assert res.exit_code == 2      # a refusal: not a store (tests/counting/test_cli_not_a_store.py)
    assert res.output.startswith("Error: ") and len(res.output.strip().splitlines()) == 1


def test_status_of_a_missing_store_is_one_line():
    res = invoke("status", "/nonexistent/s.sqlite")
    assert res.exit_code == 2 and "no such database" in res.output
    assert "Traceback" not in res.output


# ---------------------------------------------------------------------------
# export

def test_export_writes_a_deterministic_csv_and_a_summary(counted, tmp_path):
    csv_path, json_path = tmp_path / "u.csv", tmp_path / "s.json"
    res = invoke("export", counted, "--csv", csv_path, "--summary", json_path)
    assert res.exit_code == 0
    assert res.output.strip() == f"wrote {csv_path} (4 units) and {json_path} (total —)"
    lines = csv_path.read_text().splitlines()
    assert lines[0].startswith("unit_id,class_id,form_id,weight,count")
    assert [int(line.split(",")[0]) for line in lines[1:]] == STORE_UNITS
    summary = json.loads(json_path.read_text())
    assert summary["total"] is None and summary["units_done"] == 4
    assert summary["machine"]["cores"] == default_workers()
    before = csv_path.read_bytes()
    invoke("export", counted, "--csv", csv_path, "--summary", json_path)
    assert csv_path.read_bytes() == before


def test_export_into_a_missing_directory_is_one_line(counted, tmp_path):
    res = invoke("export", counted, "--csv", tmp_path / "no" / "u.csv")
    assert res.exit_code == 1 and f"directory {tmp_path / 'no'} does not exist" in res.output


def test_export_writes_the_default_names_into_the_directory_named(counted, tmp_path,
                                                                    monkeypatch):
    store = tmp_path / "elsewhere" / "p.sqlite"
    store.parent.mkdir()
    shutil.copy(counted, store)
    monkeypatch.chdir(tmp_path)            # no results/ here
    res = invoke("export", store, "-o", store.parent)
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in store.parent.iterdir()) == ["3x3-units.csv", "3x3.json",
                                                                "p.sqlite"]
    assert not (tmp_path / "results").exists()


def _published(directory):
    """A results directory holding the published CSV and summary of 3x3."""
    directory.mkdir()
    (directory / "3x3-units.csv").write_text("the published units\n")
    (directory / "3x3.json").write_text('{"total": "published"}\n')
    return {p.name: p.read_bytes() for p in directory.iterdir()}


def _files(directory):
    return {p.name: p.read_bytes() for p in directory.iterdir() if p.suffix != ".sqlite"}


def test_export_of_the_units_alone_writes_nothing_else(counted, tmp_path):
    # issue 33.2: the README's recipe for a job longer than a sitting
    # (export --units) also wrote SHAPE-units.csv and SHAPE.json beside the
    # store, over the published files (230 units, total null)
    results = tmp_path / "results"
    published = _published(results)
    store = results / "3x3-r71.sqlite"
    shutil.copy(counted, store)
    done = results / "3x3-r71-done.json"
    res = invoke("export", store, "--units", done)
    assert res.exit_code == 0, res.output
    assert res.output == f"wrote {done} (4 finished units, checked)\n"
    assert _files(results) == {**published, done.name: done.read_bytes()}


@pytest.mark.parametrize("option, name", [("--csv", "u.csv"), ("--summary", "s.json")])
def test_export_writes_only_the_file_named(counted, tmp_path, option, name):
    results = tmp_path / "results"
    published = _published(results)
    store = results / "3x3-r71.sqlite"
    shutil.copy(counted, store)
    res = invoke("export", store, option, tmp_path / name)
    assert res.exit_code == 0, res.output
    assert res.output.startswith(f"wrote {tmp_path / name} (") and " and " not in res.output
    assert _files(results) == published
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([name, "results"])


def test_export_naming_no_file_is_refused_and_writes_nothing(counted, tmp_path):
    results = tmp_path / "results"
    published = _published(results)
    store = results / "3x3-r71.sqlite"
    shutil.copy(counted, store)
    res = invoke("export", store)
    assert res.exit_code == 2 and "name what to write: --csv FILE" in res.output
    assert _files(results) == published
    res = invoke("export", store, "--json")       # the summary on stdout, no file
    assert res.exit_code == 0 and json.loads(res.output)["files"] == {}
    assert _files(results) == published


def test_export_json_is_a_flag_that_prints_the_summary(counted, tmp_path):
    out = tmp_path / "new" / "dir"
    res = invoke("export", counted, "-o", out, "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["units_done"] == 4 and doc["total"] is None
    assert doc["files"] == {"csv": str(out / "3x3-units.csv"), "summary": str(out / "3x3.json")}
    assert json.loads((out / "3x3.json").read_text())["units_done"] == 4
    assert "Usage" in invoke("export", counted, "--json", tmp_path / "s.json").output


def test_export_into_a_place_that_cannot_hold_a_file_is_one_line(counted, tmp_path):
    # root may write anywhere, but not below a regular file
    (tmp_path / "file.txt").write_text("a file, not a directory")
    for args in (["--csv", tmp_path / "file.txt" / "u.csv", "--summary", tmp_path / "s.json"],
                 ["--csv", tmp_path / "u.csv", "--summary", tmp_path / "file.txt" / "s.json"]):
        res = invoke("export", counted, *args)
        assert res.exit_code == 1 and "Traceback" not in res.output
        assert res.output.startswith("Error: cannot write ") and "Not a directory" in res.output
        assert len(res.output.strip().splitlines()) == 1
        assert listing(tmp_path) == ["file.txt"]      # no temporary, no half of the pair


@needs_mounts
def test_export_to_a_full_disk_is_one_line_and_leaves_no_temporary(counted, tmp_path):
    full = tmp_path / "full"
    full.mkdir()
    res = in_mount_namespace(f"""
        mount -t tmpfs -o size=8k tmpfs {full}
        head -c 65536 /dev/zero > {full}/filler 2>/dev/null || true
        set +e
        {sys.executable} -m counting export {counted} -o {full}
        echo "exit $?"
        ls {full}
    """)
    lines = res.stdout.splitlines()
    assert "exit 1" in lines, res
    assert lines[lines.index("exit 1") + 1:] == ["filler"]
    assert res.stderr.startswith(f"Error: cannot write {full / '3x3-units.csv'}: "
                                 f"disk full (No space left on device)"), res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("shape", ["1x1", "2x2", "2x3", "3x2", "1x6"])
def test_export_of_a_complete_store_has_the_total(tmp_path, shape):
    db = tmp_path / f"{shape}.sqlite"
    assert invoke("count", shape, "--db", db, "--workers", "1", "--quiet").exit_code == 0
    res = invoke("export", db, "--csv", tmp_path / "u.csv", "--summary", tmp_path / "s.json")
    assert res.exit_code == 0
    doc = json.loads((tmp_path / "s.json").read_text())
    assert doc["shape"] == shape and doc["reduction"] == default_reduction(shape)
    assert doc["total_int"] == published.lookup(shape).total


# ---------------------------------------------------------------------------
# merge

def test_merge_combines_stores_and_rejects_disagreeing_counts(tmp_path):
    a, b, c = tmp_path / "a.sqlite", tmp_path / "b.sqlite", tmp_path / "c.sqlite"
    fake_store(a, {0: 5, 1: 6})
    fake_store(b, {1: 6, 2: 7})
    fake_store(c, {2: 8})
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


@pytest.mark.parametrize("target_exists", [False, True])
def test_a_failed_merge_writes_nothing_and_names_the_source(tmp_path, target_exists):
    a, b, both = tmp_path / "2x2.sqlite", tmp_path / "2x3.sqlite", tmp_path / "all.sqlite"
    for shape, db in (("2x2", a), ("2x3", b)):
        assert invoke("count", shape, "--db", db, "-q", "-w", "1").exit_code == 0
    if target_exists:
        assert invoke("count", "2x2", "--db", both, "--units", "0", "-q", "-w", "1").exit_code == 0
        with Store.open(both) as st:
            before = {r.unit_id for r in st.results()}
    res = invoke("merge", both, a, b)
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1
    assert res.output.startswith(f"Error: cannot merge {b} into {both}: they belong to different "
                                 f"jobs (shape is '2x3' there but '2x2' here")
    assert "nothing was merged" in res.output
    if target_exists:
        with Store.open(both) as st:
            assert {r.unit_id for r in st.results()} == before
    else:
        assert not both.exists() and listing(tmp_path) == ["2x2.sqlite", "2x3.sqlite"]


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
def test_recount_fails_on_a_wrong_count_and_names_the_unit(tmp_path, flags):
    db = tmp_path / "2x3.sqlite"       # every unit, a few milliseconds each
    assert invoke("count", "2x3", "--db", db, "-q", "-w", "1").exit_code == 0
    with Store.open(db) as st:
        n, true = len(st), st.get(4).count
    store_wrong_count(db, 4, true + 1)
    res = invoke("recount", db, "--sample", n, *flags)
    assert res.exit_code == 1
    assert f"unit    4: stored {true + 1:>12,}  recounted {true:>12,}  MISMATCH" in res.output
    assert res.output.count("  ok") == n - 1
    assert f"Error: 1 of {n} recounted units disagree with the store" in res.output
    assert "recounted units agree" not in res.output


def test_recount_of_a_band_tables_store_counts_without_the_tables_and_says_so(tmp_path,
                                                                              monkeypatch):
    # issue 25: recount of a patterns3 store used the same kernel as the count
    import bandtables.kernels
    db = tmp_path / "p.sqlite"
    assert invoke("count", "2x3", "--reduction", "patterns3", "--db", db, "-q",
                  "-w", "1").exit_code == 0
    status = invoke("status", db)
    assert re.search(r"recount by +dancing links on bands 2-3, l of band 1 by the direct "
                     r"counter \(no band table\)", status.output), status.output
    assert json.loads(invoke("status", db, "--json").output)["recount_method"].startswith(
        "dancing links on bands 2-3")
    with Store.open(db) as st:
        n, true = len(st), st.get(1).count
    store_wrong_count(db, 1, true + 1)

    def contraction(*args):
        raise AssertionError("recount used the band tables' contraction")
    monkeypatch.setattr(bandtables.kernels, "contract", contraction)
    res = invoke("recount", db, "--sample", n)
    assert res.exit_code == 1, res.output
    assert res.output.splitlines()[0] == (
        "recounted by dancing links on bands 2-3, l of band 1 by the direct counter "
        "(no band table)")
    assert f"unit    1: stored {true + 1:>12,}  recounted {true:>12,}  MISMATCH" in res.output
    assert res.output.count("  ok") == n - 1


def test_recount_of_a_store_no_unit_of_which_can_be_recounted_says_why(tmp_path, monkeypatch):
    from counting.reduction.patterns3 import ThreeBandPatternReduction
    db = tmp_path / "p.sqlite"
    assert invoke("count", "2x3", "--reduction", "patterns3", "--db", db, "-q",
                  "-w", "1").exit_code == 0
    monkeypatch.setattr(ThreeBandPatternReduction, "not_recountable",
                        lambda self, spec: "no method independent of the band tables fits")
    res = invoke("recount", db)
    assert res.exit_code == 2 and res.output.count("\n") == 1, res.output
    assert ("no finished unit of this store can be recounted: no method independent of the "
            "band tables fits") in res.output


@pytest.mark.parametrize("shape", ["4x3", "3x4"])
def test_recount_of_a_4x3_band_tables_store_is_refused_before_its_tables_are_loaded(
        tmp_path, monkeypatch, shape):
    # it exited 1 (a refusal is 2), after loading (or building) the 4x3 tables
    from counting.reduction import patterns3
    red = patterns3.ThreeBandPatternReduction(shape)
    db = tmp_path / "p.sqlite"
    with Store.create_or_open(db, JobInfo(shape, "patterns3", red.engine_version, 144_578)) as st:
        st.record(make_result(0, count=5, class_id=0, form_id=0,
                              engine_version=red.engine_version))

    def loaded(*args, **kwargs):
        raise AssertionError("the 4x3 band tables were loaded")
    monkeypatch.setattr(patterns3, "tables4", loaded)
    res = invoke("recount", db)
    assert res.exit_code == 2 and res.output.count("\n") == 1, res.output
    assert (f"Error: no finished unit of this store can be recounted: no method independent "
            f"of the band tables fits {shape}") in res.output


def test_recount_of_an_empty_store_is_refused_in_one_line(tmp_path):
    db = tmp_path / "e.sqlite"
    fake_store(db, {})
    res = invoke("recount", db)
    assert res.exit_code == 2 and res.output == "Error: the store holds no finished unit to recount\n"


# ---------------------------------------------------------------------------
# A damaged or hand-edited store is refused by every command

def _edit_one_digit(path, count):
    """Change the last digit of ``count`` where it is written in the file,
    as a damaged disk or a hand edit would; return the count it now reads."""
    data = path.read_bytes()
    digits = str(count).encode()
    assert data.count(digits) == 1 and not Path(f"{path}-wal").exists()
    i = data.index(digits) + len(digits) - 1
    new = b"0" if data[i:i + 1] != b"0" else b"1"
    path.write_bytes(data[:i] + new + data[i + 1:])
    return int(digits[:-1] + new)


@pytest.fixture
def edited(tmp_path):
    """A 3x3 store whose unit 3 reads a count one digit off."""
    db = tmp_path / "edited.sqlite"
    fake_store(db, {0: 11_111_111, 3: 987_654_321, 5: 22_222_222})
    con = sqlite3.connect(db)
    assert con.execute("SELECT count FROM units WHERE unit_id = 3").fetchone()[0] == "987654321"
    con.close()
    wrong = _edit_one_digit(db, 987_654_321)
    con = sqlite3.connect(db)   # SQLite itself sees a healthy file with another number
    assert con.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    assert con.execute("SELECT count FROM units WHERE unit_id = 3").fetchone()[0] == str(wrong)
    con.close()
    return db


@pytest.mark.parametrize("command", [
    ["status"], ["status", "--json"], ["export", "-o", "{tmp}/out"], ["recount", "--sample", "1"],
    ["merge", "{tmp}/all.sqlite"], ["count", "3x3", "--units", "0", "-q", "-w", "1", "--db"],
])
def test_a_byte_edited_count_is_refused_naming_the_unit(edited, tmp_path, command):
    args = [a.format(tmp=tmp_path) for a in command]
    args = [args[0], *args[1:], edited] if command[0] != "merge" else [*args, edited]
    res = invoke(*args)
    assert res.exit_code == 1, res.output
    assert res.output.startswith(f"Error: unit 3 in {edited} is damaged or was edited")
    assert len(res.output.strip().splitlines()) == 1
    assert not (tmp_path / "all.sqlite").exists()
    assert not (tmp_path / "out").exists() or listing(tmp_path / "out") == []


def test_a_row_outside_the_job_is_refused_not_a_crash(tmp_path):
    db = tmp_path / "odd.sqlite"
    fake_store(db, {0: 5})
    edit_row(db, 0, unit_id=710)                    # 3x3/71 has units 0..709
    for args in (["count", "3x3", "--units", "0", "-q", "-w", "1", "--db", db], ["status", db]):
        res = invoke(*args)
        assert res.exit_code == 1 and "Traceback" not in res.output, res.output
        assert f"{db} holds a row for unit 710, outside range(710)" in res.output


# ---------------------------------------------------------------------------
# A job longer than a sitting: finished units travel as a units export.

def test_a_job_resumes_on_another_machine_from_the_export_of_its_finished_units(tmp_path):
    first, second = tmp_path / "machine1", tmp_path / "machine2"
    first.mkdir()
    second.mkdir()
    n = Job.load("2x3").n_units
    assert invoke("count", "2x3", "--db", first / "2x3.sqlite", "--units", f"0-{n // 2}",
                  "-q", "-w", "1").exit_code == 0
    done = tmp_path / "results" / "2x3-done.json"
    done.parent.mkdir()
    res = invoke("export", first / "2x3.sqlite", "--units", done)
    assert res.exit_code == 0, res.output
    assert res.output == f"wrote {done} ({n // 2 + 1:,} finished units, checked)\n"
    assert sorted(p.name for p in first.iterdir()) == ["2x3.sqlite"]   # and nothing else
    resumed = second / "2x3.sqlite"
    res = invoke("merge", resumed, done)                # TARGET missing: created for the job
    assert res.exit_code == 0 and f"{n // 2 + 1:,} units added" in res.output
    res = invoke("merge", resumed, done)                # twice: nothing counted twice
    assert res.exit_code == 0 and "0 units added" in res.output
    res = invoke("count", "2x3", "--db", resumed, "-w", "1", "--json")
    assert res.exit_code == 0, res.output
    with Store.open(resumed) as st:
        assert len(st) == n
    assert json.loads(invoke("status", resumed, "--json").output)["total_int"] == \
        published.lookup("2x3").total


def test_a_damaged_units_export_is_refused_in_one_line(counted, tmp_path):
    done = tmp_path / "done.json"
    assert invoke("export", counted, "--units", done, "-o", tmp_path).exit_code == 0
    done.write_text(done.read_text().replace('"count": "', '"count": "1', 1))
    res = invoke("merge", tmp_path / "t.sqlite", done)
    assert res.exit_code == 1 and len(res.output.strip().splitlines()) == 1
    assert f"in {done} is damaged or was edited" in res.output
    assert not (tmp_path / "t.sqlite").exists()


def test_a_deeply_nested_json_given_to_merge_is_one_line(tmp_path):
    # issue 38.5: a RecursionError traceback
    deep = tmp_path / "deep.json"
    deep.write_text('{"units": ' + "[" * 100_000)
    res = invoke("merge", tmp_path / "t.sqlite", deep)
    assert res.exit_code == 1 and "Traceback" not in res.output
    assert res.output == f"Error: {deep} is a damaged units export (its JSON is nested too " \
                         f"deeply to be read)\n"
    assert not (tmp_path / "t.sqlite").exists()


def test_a_lock_file_nested_too_deeply_does_not_stop_status(tmp_path):
    # the lock file's description is JSON too: status read it with json.loads
    db = tmp_path / "s.sqlite"
    fake_store(db, {0: 5})
    Path(f"{db}.lock").write_text("[" * 5000)
    res = invoke("status", db)
    assert res.exit_code == 0 and "running" not in res.output, res.output


def test_an_export_whose_engine_version_was_edited_does_not_make_a_store(counted, tmp_path):
    # issue 38.4: set to "zzz", it made a store of engine zzz, which count refused
    done = tmp_path / "done.json"
    assert invoke("export", counted, "--units", done).exit_code == 0
    doc = json.loads(done.read_text())
    doc["job"]["engine_version"] = "zzz"
    done.write_text(json.dumps(doc))
    res = invoke("merge", tmp_path / "t.sqlite", done)
    assert res.exit_code == 1 and len(res.output.strip().splitlines()) == 1
    assert "its units_checksum does not match its job" in res.output
    assert not (tmp_path / "t.sqlite").exists()


def test_the_units_export_is_checked_like_every_output(counted, tmp_path):
    before = counted.read_bytes()
    res = invoke("export", counted, "--units", counted)
    assert res.exit_code == 2 and counted.read_bytes() == before
    res = invoke("export", counted, "--units", tmp_path / "x", "--csv", tmp_path / "x")
    assert res.exit_code == 2 and not (tmp_path / "x").exists()


def test_status_of_a_store_whose_format_row_was_set_to_1_still_checks_its_rows(counted, tmp_path):
    db = tmp_path / "s.sqlite"
    shutil.copy(counted, db)
    edit_row(db, 10, count="1")
    con = sqlite3.connect(db)
    with con:
        con.execute("UPDATE meta SET value = '1' WHERE key = 'format_version'")
    con.close()
    res = invoke("status", db)
    assert res.exit_code == 1 and "unit 10 in" in res.output and "damaged or was edited" in \
        res.output


@needs_mounts
@pytest.mark.parametrize("size", ["48k", "128k"])   # full at its creation, or while merging
def test_a_merge_into_a_full_disk_is_one_line_and_leaves_nothing(tmp_path, size):
    src, full = tmp_path / "src.sqlite", tmp_path / "full"
    full.mkdir()
    with Store.create_or_open(src, Job.load("3x3", "71").info()) as st, st.atomic():
        for u in range(700):
            st.record(UnitResult(u, u // 10, u % 10, 10**40 + u, 1, 0, 0, 0.1, "h" * 50, "v", "t"))
    res = in_mount_namespace(f"""
        mount -t tmpfs -o size={size} tmpfs {full}
        set +e
        {sys.executable} -m counting merge {full}/t.sqlite {src}
        echo "exit $?"
        ls -A {full}
    """)
    lines = res.stdout.splitlines()
    assert lines == ["exit 1"], res
    assert res.stderr.startswith("Error: cannot ") and f"{full}/t.sqlite: " in res.stderr
    assert "disk full" in res.stderr, res.stderr
    assert len(res.stderr.strip().splitlines()) == 1 and "Traceback" not in res.stderr
