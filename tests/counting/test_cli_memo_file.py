"""How ``gridcount count`` and ``gridcount verify`` treat the
1-factorization kernel's shared memo file when it cannot be used
(counting/plan.py and counting/verify.py, the reductions' ``local_options``,
factorization/memo_file.py's ``refusal``): said once, by the process that
starts the workers, and counted with a table private to each worker."""
import json
import os
import stat
import subprocess
import sys

import pytest

from factorization import process_memo_mb
from factorization.memo_file import memo_path


@pytest.mark.parametrize("shape, reduction, grids", [
    ("1x6", "factor", "812,851,200"),          # Latin squares of order 6
    ("3x2", "patterns2", "28,200,960"),        # 6x6 Sudoku, two bands
])
def test_a_fifo_at_the_memo_path_is_said_once_not_once_a_worker(tmp_path, shape, reduction,
                                                                  grids):
    # noticed: with 2 workers the FIFO was said 3 times (the parent, then each worker;
    # by the workers alone for patterns2)
    path = memo_path(6, process_memo_mb(16), tmp_path / "cache" / "gridcount")
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    res = subprocess.run(
        [sys.executable, "-m", "counting", "count", shape, "--reduction", reduction,
         "--db", str(tmp_path / "s.sqlite"), "--workers", "2", "--no-progress"],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert res.returncode == 0, res.stderr
    said = [line for line in res.stderr.splitlines() if "FIFO" in line]
    assert said == [f"memo: {path} is a FIFO, not a regular file; not read: each worker keeps "
                    f"its own"], res.stderr
    assert f"{shape} grids" in res.stdout and grids in res.stdout
    assert stat.S_ISFIFO(os.stat(path).st_mode)   # left alone


@pytest.mark.parametrize("shape, reduction", [("1x6", "factor"), ("3x2", "patterns2")])
def test_verify_says_a_fifo_at_the_memo_path_once_not_once_a_worker(tmp_path, shape, reduction):
    # noticed: verify's workers each said the FIFO ("shared memo not used, this process
    # keeps its own"), once a worker and a count; the reductions that map the memo file
    # are verify's second method here, as patterns3 is for 2x3 (verify.SECOND_METHOD)
    path = memo_path(6, process_memo_mb(16), tmp_path / "cache" / "gridcount")
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    run = ("import sys; from counting import verify; from counting.cli import cli; "
           f"verify.SECOND_METHOD[{shape!r}] = ({reduction!r},); "
           f"cli(['verify', '--shapes', {shape!r}, '--workers', '2'])")
    res = subprocess.run([sys.executable, "-c", run], capture_output=True, text=True,
                         timeout=120, env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert res.returncode == 0, res.stderr
    said = [line for line in res.stderr.splitlines() if "FIFO" in line]
    assert said == [f"memo: {path} is a FIFO, not a regular file; not read: each worker keeps "
                    f"its own"], res.stderr
    # exit code 0: both rows agree with the published total, the second counted by it
    assert [line.split()[1] for line in res.stdout.splitlines()
            if line.startswith(shape)][1:] == [reduction], res.stdout
    assert stat.S_ISFIFO(os.stat(path).st_mode)   # left alone


def test_under_json_a_refused_memo_file_is_in_the_notes(tmp_path):
    # noticed: with --json the refusal was said nowhere (stderr is quiet then),
    # so a script could not tell that each worker had counted with its own table
    path = memo_path(6, process_memo_mb(16), tmp_path / "cache" / "gridcount")
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    res = subprocess.run(
        [sys.executable, "-m", "counting", "count", "1x6", "--reduction", "factor",
         "--db", str(tmp_path / "s.sqlite"), "--workers", "2", "--json"],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["total_int"] == 812_851_200
    assert doc["notes"] == [f"memo: {path} is a FIFO, not a regular file; not read: each "
                            f"worker keeps its own"]
    assert "FIFO" not in res.stderr


def test_status_and_recount_of_a_factor_store_say_and_use_a_memo_of_their_own(tmp_path):
    # noticed: status said "recount by: dancing links again, with an empty memo table",
    # while recount counted by the kernel on the shared memo file the count had filled
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    db = str(tmp_path / "s.sqlite")

    def run(*args):
        res = subprocess.run([sys.executable, "-m", "counting", *args], capture_output=True,
                             text=True, timeout=120, env=env)
        assert res.returncode == 0, res.stderr
        return res.stdout
    run("count", "1x5", "--reduction", "factor", "--db", db, "-w", "1", "-q", "--private-memo")
    [line] = [ln for ln in run("status", db).splitlines() if ln.startswith("recount by")]
    assert line.split(None, 2)[2] == (
        "the 1-factorization kernel again (not dancing links), on a new memo table of its "
        "own, not the machine's shared memo file that the count filled (--no-memo: no memo table)")
    assert run("recount", db, "--sample", "2").splitlines()[-1] == "all 2 recounted units agree"
    assert not memo_path(5, process_memo_mb(16), tmp_path / "cache" / "gridcount").exists()
