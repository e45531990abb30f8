"""The gridcount command line (CliRunner in-process; subprocesses for
signals)."""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from counting.reduction import get_reduction
from counting.cli import cli
from counting.store import Store
from counting.units import UnitResult


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return invoke


def test_classes_lists_71_classes_with_weights(run):
    res = run("classes", "3x3")
    assert res.exit_code == 0
    assert "71 classes, weights sum to 36,288 reduced bands" in res.output
    data = json.loads(run("classes", "3x3", "--json").output)
    assert len(data) == 71 and sum(c["weight"] for c in data) == 36_288
    assert data[0]["representative"] == ["123456789", "456789123", "789123456"]


def test_classes_44(run):
    data = json.loads(run("classes", "3x3", "--reduction", "44", "--json").output)
    assert len(data) == 44 and sum(c["weight"] for c in data) == 36_288


def test_count_some_units_then_status_export_recount(run, tmp_path):
    db = tmp_path / "part.sqlite"
    res = run("count", "3x3", "--units", "0-2,10", "--db", db, "--workers", "1", "--quiet")
    assert res.exit_code == 0
    assert "4 of 710 units done" in res.output
    with Store.open(db) as st:
        counts = {r.unit_id: r.count for r in st.results()}
    assert sorted(counts) == [0, 1, 2, 10]
    status = run("status", db)
    assert "4 of 710" in status.output and "remaining units: 3-9,11-709" in status.output
    csv_path, json_path = tmp_path / "u.csv", tmp_path / "s.json"
    res = run("export", db, "--csv", csv_path, "--json", json_path)
    assert res.exit_code == 0
    lines = csv_path.read_text().splitlines()
    assert lines[0].startswith("unit_id,class_id,form_id,weight,count")
    assert [int(line.split(",")[0]) for line in lines[1:]] == [0, 1, 2, 10]
    summary = json.loads(json_path.read_text())
    assert summary["total"] is None and summary["units_done"] == 4
    assert summary["machine"]["cores"] >= 1
    before = csv_path.read_bytes()
    run("export", db, "--csv", csv_path, "--json", json_path)
    assert csv_path.read_bytes() == before            # deterministic
    res = run("recount", db, "--sample", "2", "--seed", "1")
    assert res.exit_code == 0 and "all 2 recounted units agree" in res.output


def test_no_tail_and_no_memo_count_the_same_units(run, tmp_path):
    counts = []
    for flags in ((), ("--no-tail",), ("--no-memo",)):
        db = tmp_path / f"j{len(counts)}.sqlite"
        res = run("count", "3x3", "--units", "5", "--db", db, "--workers", "1",
                  "--json", *flags)
        counts.append(json.loads(res.output)["unit_solutions"])
    assert counts[0] == counts[1] == counts[2] == str(6_696_000)


def test_a_rerun_skips_units_already_in_the_store(run, tmp_path):
    db = tmp_path / "j.sqlite"
    run("count", "3x3", "--units", "5", "--db", db, "--workers", "1", "--quiet")
    res = run("count", "3x3", "--units", "5", "--db", db, "--workers", "1", "--json")
    doc = json.loads(res.output)
    assert doc["run"]["units_counted"] == 0 and doc["run"]["units_skipped"] == 1


def _fake_store(path, counts):
    from counting.job import Job
    with Store.create_or_open(path, Job.load("3x3", "71").info()) as st:
        for u, n in counts.items():
            st.record(UnitResult(u, u // 10, u % 10, n, 1, 0, 0, 0.1, "h", "v", "t"))


def test_merge_combines_stores_and_rejects_disagreeing_counts(run, tmp_path):
    a, b, c = tmp_path / "a.sqlite", tmp_path / "b.sqlite", tmp_path / "c.sqlite"
    _fake_store(a, {0: 5, 1: 6})
    _fake_store(b, {1: 6, 2: 7})
    _fake_store(c, {2: 8})
    res = run("merge", tmp_path / "all.sqlite", a, b)
    assert res.exit_code == 0 and "1 units added" in res.output
    with Store.open(tmp_path / "all.sqlite") as st:
        assert {r.unit_id: r.count for r in st.results()} == {0: 5, 1: 6, 2: 7}
    res = CliRunner().invoke(cli, ["merge", str(tmp_path / "all.sqlite"), str(c)])
    assert res.exit_code == 1 and "2" in res.output and "Error" in res.output
    with Store.open(tmp_path / "all.sqlite") as st:
        assert st.get(2).count == 7


@pytest.mark.parametrize("content", [b"hello, not a database\n", os.urandom(4096)])
def test_a_foreign_or_corrupt_store_is_refused_in_one_line(tmp_path, content):
    p = tmp_path / "x.sqlite"
    p.write_bytes(content)
    for args in (["status", str(p)], ["count", "3x3", "--db", str(p), "--units", "0"]):
        res = CliRunner().invoke(cli, args)
        assert res.exit_code == 1
        assert res.output.startswith("Error: ") and len(res.output.strip().splitlines()) == 1


def test_a_store_of_another_reduction_is_refused(tmp_path):
    p = tmp_path / "r44.sqlite"
    res = CliRunner().invoke(cli, ["count", "3x3", "--reduction", "44", "--db", str(p), "--units", "0",
                                   "--quiet", "--workers", "1"])
    assert res.exit_code == 0
    res = CliRunner().invoke(cli, ["count", "3x3", "--db", str(p), "--units", "0"])
    assert res.exit_code == 1 and "reduction" in res.output


@pytest.mark.parametrize("args, match", [
    (["count", "3x"], "bad box shape"),
    (["count", "0x3"], "bad box shape"),
    (["count", "abc"], "bad box shape"),
    (["count", "3x3", "--units", "700-720"], "out of range 0..709"),
    (["count", "3x3", "--units", "x"], "bad unit list"),
    (["status", "/nonexistent/s.sqlite"], "no such database"),
])
def test_bad_arguments_give_one_clear_line(args, match):
    res = CliRunner().invoke(cli, args)
    assert res.exit_code != 0 and match in res.output
    assert "Traceback" not in res.output


def test_python_dash_m_counting_works():
    out = subprocess.run([sys.executable, "-m", "counting", "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "count" in out.stdout


def _units_in(db):
    con = sqlite3.connect(db)
    try:
        return [row[0] for row in con.execute("SELECT unit_id FROM units")]
    except sqlite3.OperationalError:
        return []
    finally:
        con.close()


def _start_count(db, units, workers):
    return subprocess.Popen(
        [sys.executable, "-m", "counting", "count", "3x3", "--db", str(db), "--units", units,
         "--workers", str(workers), "--no-progress"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for_units(db, k, proc, timeout=60):
    t0 = time.time()
    while time.time() - t0 < timeout:
        if db.exists() and len(_units_in(db)) >= k:
            return
        if proc.poll() is not None:
            pytest.fail(f"count ended early: {proc.communicate()}")
        time.sleep(0.05)
    proc.kill()
    proc.communicate()
    pytest.fail("no units were stored in time")


def test_store_resumes_after_kill_9_with_no_unit_counted_twice(tmp_path):
    db = tmp_path / "k.sqlite"
    units = "0-11"
    proc = _start_count(db, units, workers=2)
    _wait_for_units(db, 3, proc)
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    kept = _units_in(db)
    assert 3 <= len(kept) < 12 and len(kept) == len(set(kept))
    proc = _start_count(db, units, workers=2)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    final = _units_in(db)
    assert sorted(final) == list(range(12))
    with Store.open(db) as st:
        from counting.pool import count_unit
        spec = get_reduction("3x3", "71").units()
        for u in (kept[0], final[-1]):
            assert st.get(u).count == count_unit(spec[u], fresh_memo=True).count


@pytest.mark.parametrize("sig, code, word", [
    (signal.SIGINT, 130, "interrupted"),   # Ctrl-C
    (signal.SIGTERM, 143, "terminated"),   # kill, or a batch scheduler's stop
])
def test_ctrl_c_or_sigterm_keeps_finished_units_and_says_how_to_resume(tmp_path, sig, code,
                                                                       word):
    db = tmp_path / "c.sqlite"
    proc = _start_count(db, "0-79", workers=2)
    _wait_for_units(db, 2, proc)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == code, err
    assert f"{word}:" in err and "run the same command again to resume" in err
    # the parent shut the pool down: no worker tracebacks, nothing leaked
    assert "Traceback" not in err and "leaked" not in err
    kept = _units_in(db)
    assert len(kept) >= 2 and len(kept) == len(set(kept))
    with Store.open(db) as st:
        assert all(r.count > 0 for r in st.results())


def test_scheduler_and_workers_cannot_be_combined():
    res = CliRunner().invoke(cli, ["count", "3x3", "--scheduler", "local:2", "--workers", "2"])
    assert res.exit_code == 2 and "--workers sets the local pool" in res.output


def test_a_malformed_scheduler_address_is_rejected():
    res = CliRunner().invoke(cli, ["count", "3x3", "--scheduler", "127.0.0.1"])
    assert res.exit_code == 2 and "--scheduler" in res.output


def test_count_on_a_local_dask_cluster_matches_the_local_pool(run, tmp_path):
    pytest.importorskip("distributed")
    a, b = tmp_path / "pool.sqlite", tmp_path / "dask.sqlite"
    run("count", "3x3", "--units", "0-3", "--db", a, "--workers", "1", "--quiet")
    res = run("count", "3x3", "--units", "0-3", "--db", b, "--scheduler", "local:2", "--json")
    doc = json.loads(res.output)
    assert doc["run"]["units_counted"] == 4 and len(doc["run"]["per_worker"]) >= 1
    with Store.open(a) as sa, Store.open(b) as sb:
        assert {r.unit_id: r.count for r in sa.results()} == {r.unit_id: r.count for r in sb.results()}


def test_puzzle_commands_are_part_of_gridcount():
    res = CliRunner().invoke(cli, ["--help"])
    for name in ("solve", "count-solutions", "check", "generate", "explain", "verify"):
        assert name in res.output
