"""The gridcount command line: the group and the counting commands
(counting/cli/__init__.py, counting/cli/count.py: count, classes; counting/cli/verify.py: verify).

CliRunner in-process; subprocesses for signals and ``python -m counting``.
Store commands: test_cli_store.py; count against a store that exists:
test_cli_count_store.py; puzzle commands: test_cli_puzzles.py; interrupted and resumed
counts: test_cli_resume.py; verify: test_cli_verify.py; jobs out of reach: test_cli_reach.py.
"""
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from counting import job as jobs
from counting import plan
from counting import published
from counting import reach
from counting.run import pool
from counting.cli import cli
from counting.job import Job
from counting.options import CountOptions
from counting.store.database import Store

from cli_samples import invoke, invoke_raising, one_line_error
from count_process import units_in

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def run():
    return invoke_raising


# ---------------------------------------------------------------------------
# the group

def test_python_dash_m_counting_works():
    out = subprocess.run([sys.executable, "-m", "counting", "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "count" in out.stdout


def test_every_command_is_part_of_gridcount():
    res = invoke("--help")
    commands = res.output.split("Commands:")[1].split()
    for name in ("count", "classes", "verify", "status", "export", "merge", "recount",
                 "solve", "count-solutions", "check", "generate", "explain"):
        assert name in commands


# ---------------------------------------------------------------------------
# classes

def test_classes_lists_71_classes_with_weights(run):
    res = run("classes", "3x3")
    assert res.exit_code == 0
    assert "71 classes, weights sum to 36,288 reduced bands" in res.output
    data = json.loads(run("classes", "3x3", "--json").output)
    assert len(data) == 71 and sum(c["weight_int"] for c in data) == 36_288
    assert data[0]["representative"] == ["123456789", "456789123", "789123456"]


def test_classes_44(run):
    data = json.loads(run("classes", "3x3", "--reduction", "44", "--json").output)
    assert len(data) == 44 and sum(c["weight_int"] for c in data) == 36_288


def test_classes_of_other_shapes():
    res = invoke("classes", "2x3")
    assert res.exit_code == 0 and "weights sum to 6 reduced bands" in res.output
    data = json.loads(invoke("classes", "3x2", "--reduction", "patterns", "--json").output)
    assert sum(c["weight_int"] for c in data) == 80
    assert len(data[0]["representative"]) == 3 and data[0]["representative"][0] == "123456"
    res = invoke("classes", "1x4", "--reduction", "moves")
    assert "representative (row 1)" in res.output and "1234" in res.output
    res = invoke("classes", "1x4")              # Latin squares: classes of rows 1-3
    assert "representative (rows 1-3)" in res.output
    assert "weights sum to 24 Latin rectangles with row 1 in order" in res.output


@pytest.mark.parametrize("shape", ["3x2", "2x3", "4x2"])
def test_patterns2_counts_two_band_shapes_through_the_store(tmp_path, shape):
    # Σ class size · L² by the rectangles of each class, against the moves reduction
    totals = []
    for reduction in ("patterns2", "moves"):
        res = invoke("count", shape, "--reduction", reduction, "--db",
                     tmp_path / f"{reduction}.sqlite", "-q", "-w", "2")
        assert res.exit_code == 0, res.output
        totals.append(int(res.stdout.strip().replace(",", "")))
    assert totals[0] == totals[1] == published.lookup(shape).total
    res = invoke("classes", shape, "--reduction", "patterns2")
    assert "column sets of band 1" in res.output and "column-set patterns" in res.output


def test_71_is_refused_for_another_shape_in_one_line():
    res = invoke("classes", "2x3", "--reduction", "71")
    # a reduction that does not apply is a bad --reduction, exit 2 (issue 33.10)
    assert res.exit_code == 2 and "names the 71 classes of 3x3" in res.output
    assert res.output.startswith("Error: Invalid value for --reduction: ")
    assert len(res.output.strip().splitlines()) == 1


# ---------------------------------------------------------------------------
# count

@pytest.mark.parametrize("shape", ["1x1", "1x2", "2x1", "2x2", "2x3", "3x2", "1x6"])
def test_count_any_shape_prints_its_published_total(tmp_path, shape):
    res = invoke("count", shape, "--db", tmp_path / f"{shape}.sqlite", "--workers", "1", "--quiet")
    assert res.exit_code == 0, res.output
    assert int(res.output.replace(",", "")) == published.lookup(shape).total


def test_count_prints_the_run_and_the_factorisation(run, tmp_path):
    res = run("count", "2x2", "--db", tmp_path / "j.sqlite", "--workers", "1", "--no-progress")
    lines = res.output.splitlines()
    assert "units counted now" in lines[2] and lines[2].endswith(" 2")
    assert lines[-6:-1] == ["relabel box 1 (N!)               24",
                            "reduce band 1                     2",
                            "reduce column 1                   2",
                            "Σ class weight × Σ unit counts    3",
                            "2x2 grids                       288"]


def test_a_finished_count_says_where_its_store_is(run, tmp_path):
    # issue 33.10: the store's path was printed only in the interrupt hint
    db = tmp_path / "j.sqlite"
    res = run("count", "2x2", "--db", db, "--workers", "1", "--no-progress")
    assert res.stdout.splitlines()[-1] == f"units stored in {db}"
    doc = json.loads(run("count", "2x2", "--db", db, "--workers", "1", "--json").stdout)
    assert doc["store"] == str(db)


ENGINE_FLAGS = [((), CountOptions()), (("--no-tail",), CountOptions(tail=False)),
                (("--no-memo",), CountOptions(memo=False)),
                (("--memo-mb", "4"), CountOptions(memo_mb=4.0))]


@pytest.mark.parametrize("flags, options", ENGINE_FLAGS)
def test_the_engine_flags_become_the_count_options(run, tmp_path, monkeypatch, flags, options):
    seen = []
    real = jobs.run_count

    def spy(*args, **kwargs):
        seen.append(kwargs["options"])
        return real(*args, **kwargs)
    monkeypatch.setattr(plan, "run_count", spy)
    res = run("count", "2x3", "--db", tmp_path / "j.sqlite", "-w", "1", "--json", *flags)
    assert seen == [options]
    doc = json.loads(res.output)
    assert doc["total_int"] == published.lookup("2x3").total
    if not options.memo:
        assert doc["run"]["memo_hits_int"] == 0


def test_a_kernel_run_prints_no_search_figures_and_status_names_unit_time_as_wall(
        tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    db = tmp_path / "f.sqlite"
    res = invoke("count", "1x5", "--reduction", "factor", "--db", db, "-w", "1", "--no-progress")
    assert res.exit_code == 0, res.output
    assert "search nodes" not in res.output and "memo hits" not in res.output
    assert "sol/s" not in res.output          # counted, not searched: no solutions a second
    assert re.search(r"units counted by a kernel \(no search\) +2\b", res.output), res.output
    assert re.search(r"time in units +[0-9.,]+ s \(wall, summed over units\)", res.output)
    status = invoke("status", db)
    assert "CPU" not in status.output and "unit time so far" in status.output
    searched = invoke("count", "2x2", "--db", tmp_path / "s.sqlite", "-w", "1", "--no-progress")
    assert re.search(r"search nodes +[1-9]", searched.output), searched.output


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_count_is_refused_in_one_line_when_the_disk_has_no_room_for_the_memo_file(
        tmp_path, monkeypatch, json_flag):
    # the memo file was made sparse: a worker writing a slot on a disk that had
    # filled since died of SIGBUS; now its space is reserved before any store
    import errno
    from factorization.memo_file import memo_path

    def full(fd, offset, length):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(os, "posix_fallocate", full)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    db = tmp_path / "f.sqlite"
    res = invoke("count", "1x5", "--reduction", "factor", "--db", db, "-w", "1", *json_flag)
    assert res.exit_code == 2, res.output
    memo = memo_path(5, 64.0, tmp_path / "cache" / "gridcount")
    error = f"Error: no room for the memo file {memo}: its 64 MiB ("
    assert res.stderr.splitlines()[-1].startswith(error) and "Traceback" not in res.output
    assert res.stderr.count("Error:") == 1
    assert json.loads(res.stdout)["exit_code"] == 2 if json_flag else res.stdout == ""
    assert not db.exists() and not [p for p in tmp_path.rglob("*") if p.is_file()]


def test_json_names_the_summed_unit_time_wall_time_not_cpu_time(tmp_path):
    # the units' seconds are wall-clock time (the store keeps no CPU time): the
    # JSON of count and status called their sum cpu_seconds
    db = tmp_path / "w.sqlite"
    res = invoke("count", "2x2", "--db", db, "-w", "1", "--json")
    assert res.exit_code == 0, res.output
    with Store.open(db) as store:
        summed = round(sum(r.seconds for r in store.results()), 3)
    counted = json.loads(res.output)
    status = json.loads(invoke("status", db, "--json").output)
    assert counted["unit_wall_seconds"] == counted["run"]["unit_wall_seconds"] \
        == status["unit_wall_seconds"] == summed
    assert "cpu" not in res.output.lower() and "cpu" not in json.dumps(status).lower()


@pytest.mark.parametrize("args, match", [
    (["count", "3x"], "bad box shape"),
    (["count", "0x3"], "bad box shape"),
    (["count", "abc"], "bad box shape"),
    (["count", "3x3", "--units", "700-720"], "out of range 0..709"),
    (["count", "3x3", "--units", "x"], "bad unit list"),
    (["count", "3x3", "--memo-mb", "1e12"], "memo size must be a number of MiB"),
])
def test_bad_arguments_give_one_clear_line(args, match):
    res = invoke(*args)
    assert res.exit_code != 0 and match in res.output
    assert "Traceback" not in res.output


@pytest.mark.parametrize("units", ["", ",", " ", "+3", "1_0", "\u0663"])
def test_an_empty_or_non_ascii_unit_list_is_refused_before_the_store_is_touched(tmp_path, units):
    db = tmp_path / "j.sqlite"
    res = invoke("count", "2x3", "--units", units, "--db", db, "-q", "-w", "1")
    assert res.exit_code == 2 and "Invalid value for --units" in res.output
    assert ("empty unit list" if units.strip(" ,") == "" else "bad unit list item") in res.output
    assert not db.exists()


def test_a_bad_memo_size_is_refused_before_the_store_is_touched(tmp_path):
    db = tmp_path / "j.sqlite"
    assert invoke("count", "2x3", "--db", db, "--units", "0", "-q", "-w", "1").exit_code == 0
    res = invoke("count", "2x3", "--db", db, "--fresh", "--memo-mb", "1e12")
    assert res.exit_code == 2 and "--memo-mb" in res.output
    assert units_in(db) == [0]


@pytest.mark.parametrize("command", [["verify", "--shapes"], ["count"], ["classes"]])
@pytest.mark.parametrize("shape, match", [
    ("3x", "bad box shape '3x'"), ("0x3", "bad box shape '0x3'"), ("abc", "bad box shape 'abc'"),
    ("20x20", "need --force"),
])
def test_bad_shapes_are_rejected_in_one_line(command, shape, match):
    res = invoke(*command, shape)
    assert res.exit_code != 0
    if command[0] == "verify" and shape == "20x20":
        match = "verify counts grids up to 16x16"   # verify has no --force
    assert match in res.output and "Traceback" not in res.output
    assert len(res.output.strip().splitlines()) == 1


@pytest.mark.parametrize("command", [["verify", "--shapes"], ["count"], ["classes"],
                                     ["count", "--json"]])
@pytest.mark.parametrize("shape", ["6x6", "20x20", "5x4+x"])
def test_a_grid_past_16x16_without_force_is_a_refusal_exit_code_2(tmp_path, monkeypatch,
                                                                  command, shape):
    # issue 33.10: `count 6x6` exited 1 where every other refusal exits 2
    monkeypatch.chdir(tmp_path)
    res = invoke(*command, shape)
    assert res.exit_code == 2, res.output
    assert res.stderr.startswith("Error: ") and "16x16" in res.stderr
    assert len(res.stderr.splitlines()) == 1
    if "--json" in command:
        assert json.loads(res.stdout)["exit_code"] == 2
    if command[0] == "verify":   # verify has no --force to suggest
        assert "verify counts grids up to 16x16" in res.stderr
    assert not list(tmp_path.rglob("*"))


class _Stop(ValueError):
    """Ends a command where its long enumeration would begin."""


@pytest.mark.parametrize("command", [["count", "30x30+anti-king", "--force"],
                                     ["classes", "30x30+x", "--force"],
                                     ["count", "17x1", "--force"]])
def test_a_forced_grid_past_16x16_says_what_it_enumerates_before_it_starts(
        tmp_path, monkeypatch, command):
    # issue 38.10: `count 30x30+anti-king --force` and `classes 30x30+x --force` were
    # silent for over a minute (off a terminal, where notes are not shown)
    def stop(*args, **kwargs):
        raise _Stop("stopped here by the test")
    monkeypatch.setattr(Job, "load", stop)        # the units' enumeration starts here
    monkeypatch.setattr(plan, "check_reach", stop)
    monkeypatch.setattr(plan, "refuse_uncountable", lambda *a: None)
    res = invoke(*command, "--db", tmp_path / "j.sqlite") if command[0] == "count" \
        else invoke(*command)
    lines = res.stderr.splitlines()
    assert "stopped here by the test" in lines[-1]
    n = 900 if "30x30" in command[1] else 17
    assert lines[0].startswith(f"{command[1]} makes {n:,}x{n:,} grids, past 16x16 (--force): "
                               f"enumerating its ")
    assert "can take hours" in lines[0]
    assert ("normal prefix fillings (prefix-rows=2)" in lines[0]) == ("+" in command[1])


def test_an_ordinary_grid_has_no_forced_enumeration_notice(run, tmp_path):
    res = run("count", "2x2", "--db", tmp_path / "j.sqlite", "-w", "1", "--force",
              "--no-progress")
    assert res.exit_code == 0 and "can take hours" not in res.stderr

@pytest.mark.parametrize("where", [[], ["--workers", "2"], ["--scheduler", "local:2"]])
@pytest.mark.parametrize("memo_mb", ["nan", "inf", "1e12", "1e400", "1e6", "-1", "0", "abc"])
def test_a_bad_memo_size_is_one_line_and_deletes_nothing(tmp_path, where, memo_mb):
    db = tmp_path / "m.sqlite"
    assert invoke("count", "2x3", "--db", db, "--units", "0", "-q", "-w", "1").exit_code == 0
    res = invoke("count", "2x3", "--db", db, "--fresh", "--memo-mb", memo_mb, *where)
    assert res.exit_code == 2
    assert res.output.startswith("Error: Invalid value for --memo-mb: ")
    assert len(res.output.strip().splitlines()) == 1
    assert units_in(db) == [0]


@pytest.mark.parametrize("where", [["--workers", "3"], ["--scheduler", "local:3"]])
def test_memo_tables_beyond_the_machine_s_memory_are_refused_before_starting(tmp_path, where,
                                                                             monkeypatch):
    db = tmp_path / "m.sqlite"
    assert invoke("count", "2x3", "--db", db, "--units", "0", "-q", "-w", "1").exit_code == 0
    # a machine of this process + 100 MiB and 3 cores: were the check gone,
    # three small tables would not hurt
    from counting.cli import count as count_command
    machine = int(pool.process_mib()) + 100
    monkeypatch.setattr(pool, "MEMO_MB_MAX", machine)
    monkeypatch.setattr(count_command, "default_workers", lambda: 3)
    res = invoke("count", "2x3", "--db", db, "--fresh", "--memo-mb", "40", *where)
    assert res.exit_code == 2, res.output
    assert re.fullmatch(rf"Error: Invalid value for --memo-mb: 3 workers × [\d,]+ MiB each \(40 "
                        rf"MiB memo table \+ [\d,]+ MiB process\) = [\d,]+ MiB, more than this "
                        rf"machine's memory \({machine:,} MiB\); use fewer workers or a smaller "
                        rf"--memo-mb\n", res.output), res.output
    assert units_in(db) == [0]


@pytest.mark.parametrize("where", [["--workers", "3"], ["--scheduler", "local:3"]])
def test_the_kernel_s_memo_tables_are_counted_at_the_size_it_allocates(tmp_path, where,
                                                                       monkeypatch):
    # the factorization kernel's table is never below 64 MiB, whatever --memo-mb says:
    # 3 × 16 MiB would fit in 150 MiB, the 3 × 64 MiB the workers allocate do not
    from counting.cli import count as count_command
    # (each worker process also holds what this one does: 10 MiB here)
    monkeypatch.setattr(pool, "MEMO_MB_MAX", 150)
    monkeypatch.setattr(pool, "process_mib", lambda: 10.0)
    monkeypatch.setattr(count_command, "default_workers", lambda: 3)
    db = tmp_path / "f.sqlite"
    res = invoke("count", "1x6", "--reduction", "factor", "--db", db, "--memo-mb", "16", *where)
    assert res.exit_code == 2, res.output
    assert res.output == ("Error: Invalid value for --memo-mb: 3 workers × 74 MiB each "
                          "(64 MiB memo table + 10 MiB process) = 222 MiB, more than this "
                          "machine's memory (150 MiB); use fewer workers or a smaller --memo-mb\n")
    assert not db.exists()


def test_wait_workers_is_for_scheduler_runs_and_a_number_of_seconds():
    res = invoke("count", "2x3", "--wait-workers", "5")
    assert res.exit_code == 2 and "--wait-workers applies to --scheduler runs" in res.output
    res = invoke("count", "2x3", "--scheduler", "local:1", "--wait-workers", "nan")
    assert res.exit_code == 2 and "finite number of seconds" in res.output


# ---------------------------------------------------------------------------
# count on a Dask cluster

def test_scheduler_and_workers_cannot_be_combined():
    res = invoke("count", "3x3", "--scheduler", "local:2", "--workers", "2")
    assert res.exit_code == 2 and "--workers sets the local pool" in res.output


def test_a_malformed_scheduler_address_is_rejected():
    res = invoke("count", "3x3", "--scheduler", "127.0.0.1")
    assert res.exit_code == 2 and "--scheduler" in res.output


def _free_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("as_json", [False, True])
def test_a_scheduler_that_does_not_answer_is_a_setup_error(tmp_path, as_json):
    # nothing was counted and the user must start the scheduler or fix the
    # address: exit 2, as every refusal before a run starts (was exit 1)
    pytest.importorskip("distributed")
    db = tmp_path / "s.sqlite"
    address = f"tcp://127.0.0.1:{_free_port()}"
    res = invoke("count", "2x3", "--db", db, "--scheduler", address,
                 *(["--json"] if as_json else []))
    if as_json:
        doc = json.loads(res.stdout)
        assert doc["exit_code"] == 2 and doc["error"].startswith("no Dask scheduler answered")
        assert res.exit_code == 2 and res.stderr.startswith("Error: no Dask scheduler")
    else:
        one_line_error(res, f"no Dask scheduler answered at {address}", exit_code=2)
    assert not db.exists()   # the empty store this command made is not left behind


def test_a_scheduler_run_without_distributed_is_a_setup_error(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)   # makes the import fail
    db = tmp_path / "s.sqlite"
    res = invoke("count", "2x3", "--db", db, "--scheduler", "local:1")
    one_line_error(res, "pip install 'gridcount[dask]'", exit_code=2)
    assert not db.exists()


@pytest.mark.slow
def test_count_on_a_local_dask_cluster_matches_the_local_pool(run, tmp_path):
    pytest.importorskip("distributed")
    a, b = tmp_path / "pool.sqlite", tmp_path / "dask.sqlite"
    run("count", "3x3", "--units", "0-3", "--db", a, "--workers", "1", "--quiet")
    res = run("count", "3x3", "--units", "0-3", "--db", b, "--scheduler", "local:2", "--json")
    doc = json.loads(res.output)
    assert doc["run"]["units_counted"] == 4
    assert sum(w["units"] for w in doc["run"]["per_worker"]) == 4
    with Store.open(a) as sa, Store.open(b) as sb:
        assert {r.unit_id: r.count for r in sa.results()} == {r.unit_id: r.count for r in sb.results()}

@pytest.mark.parametrize("args, says", [
    (["count", "3y3"], "bad box shape '3y3'"),                        # issue 26.20: was exit 1
    (["count", "2x3", "--db", ""], "an empty path names no store"),   # 26.13: used the default
    (["count", "2x3", "--no-memo", "--memo-mb", "5"], "--no-memo"),  # 26.13: was accepted
    # 26.13 (rest): contradictory or idle option pairs, accepted before
    (["count", "2x2", "--quiet", "--json"], "--quiet and --json contradict each other"),
    (["count", "1x5", "--rows", "3", "--db", "x.sqlite"], "--rows and --db contradict"),
    (["count", "1x5", "--rows", "3", "--up-to-symmetry"], "--rows and --up-to-symmetry"),
    (["count", "1x5", "--rows", "3", "--fresh"], "--rows and --fresh contradict"),
    (["count", "1x5", "--rows", "3", "--workers", "2"], "--rows and --workers contradict"),
    (["count", "1x5", "--rows", "3", "--prefix", "rows=1"], "--rows and --prefix contradict"),
    # past the kernel's 16 columns: was a traceback (and --force, which --rows refuses,
    # was no way out)
    (["count", "1x20", "--rows", "2"], "at most 16 columns (the kernel's canonical keys hold 16 bits a row), not 20"),
])
def test_usage_errors_of_count_exit_2_and_count_nothing(tmp_path, monkeypatch, args, says):
    monkeypatch.chdir(tmp_path)
    res = invoke(*args)
    assert res.exit_code == 2, res.output
    assert says in res.output and "Traceback" not in res.output
    assert not list(tmp_path.rglob("*.sqlite"))


def test_python_m_gridcount_and_version_work():
    # issue 26.20: `python -m gridcount` failed; no __version__ or --version
    import counting
    res = subprocess.run([sys.executable, "-m", "gridcount", "--version"], capture_output=True,
                         text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert counting.__version__ in res.stdout and counting.__version__ != "0+unknown"


def test_more_workers_than_cores_are_capped_with_the_reason(tmp_path, monkeypatch):
    # issue 26.11: --workers 40 started 40 processes on 2 cores
    from counting.cli import count as count_command
    monkeypatch.setattr(count_command, "default_workers", lambda: 2)
    seen = []
    real = plan.run_count

    def spy(*args, **kwargs):
        seen.append(kwargs["workers"])
        return real(*args, **kwargs)
    monkeypatch.setattr(plan, "run_count", spy)
    res = invoke("count", "2x2", "--db", tmp_path / "w.sqlite", "--workers", "40",
                 "--no-progress")
    assert res.exit_code == 0, res.output
    assert seen == [2] and "--workers 40: this machine gives the count 2 cores" in res.output


def test_count_rows_counts_latin_rectangles_by_the_kernel():
    # 2 x n Latin rectangles are n! times the derangements of n; n - 1 rows fix the last
    res = invoke("count", "1x7", "--rows", "2", "--quiet")
    assert res.exit_code == 0 and res.output == f"{5040 * 1854:,}\n"
    res = invoke("count", "1x6", "--rows", "5", "--json")
    assert json.loads(res.output)["latin_rectangles"] == str(published.lookup("1x6").total)
    for args, says in ((("3x3", "--rows", "2"), "need a Latin shape"),
                       (("1x4", "--rows", "5"), "at most 4 rows")):
        res = invoke("count", *args)
        assert res.exit_code == 2 and says in res.output


def test_a_refusal_under_json_is_a_json_error_object_on_stdout(tmp_path, monkeypatch):
    # issue 26.20: a refusal under --json left stdout empty
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(reach, "REACH_DAYS", 1)
    res = invoke("count", "3x4", "--json", "--db", tmp_path / "j.sqlite")
    assert res.exit_code == 2
    doc = json.loads(res.stdout)
    assert doc["exit_code"] == 2 and "out of reach" in doc["error"]


def test_count_with_no_memo_refuses_workers_beyond_the_machine_s_memory(tmp_path, monkeypatch):
    # issue 26.11: --no-memo skipped the memory check altogether
    monkeypatch.setattr(pool, "MEMO_MB_MAX", int(1.5 * pool.process_mib()))
    res = invoke("count", "2x3", "--no-memo", "--workers", "2", "--db", tmp_path / "m.sqlite")
    assert res.exit_code == 2 and res.output.count("\n") == 1, res.output
    assert "Invalid value for --workers: 2 workers × " in res.output
    assert "a process without memo table" in res.output and "use fewer workers" in res.output
    assert not (tmp_path / "m.sqlite").exists()


def test_the_count_help_names_the_latin_orders_whose_default_is_factor_as_the_registry_does():
    import re

    from counting.cli.count import REDUCTION_HELP
    from counting.reduction import default_reduction
    said = re.search(r"'factor' \([^)]*the default for orders (\d+)-(\d+)\)", REDUCTION_HELP)
    assert said, REDUCTION_HELP
    lo, hi = map(int, said.groups())
    assert [n for n in range(1, 17) if default_reduction(f"1x{n}") == "factor"] == \
        list(range(lo, hi + 1))
