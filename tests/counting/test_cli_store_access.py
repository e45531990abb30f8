"""How every store command treats a store on read-only media, a store that a
running ``count`` holds, concurrent merges, and stores that are not regular
files (counting/cli/store.py, counting/store/).  The commands themselves:
test_cli_store.py."""
import json
import os
import re
import socket
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from counting.cli import cli
from counting.job import Job
from counting.store.database import Store
from counting.units import UnitResult

from cli_samples import invoke
from count_process import start_gated_count, wait_for_units, wait_for_waiting
from store_cli_samples import fake_store, in_mount_namespace, listing, needs_mounts
from store_samples import edit_row, make_result


# ---------------------------------------------------------------------------
# Stores on read-only media

def test_read_commands_create_nothing_beside_the_store(counted, tmp_path):
    db = tmp_path / "c.sqlite"
    shutil.copy(counted, db)
    # SQLite cannot create db-shm here: what a read-only directory does to it
    Path(f"{db}-shm").mkdir()
    for args in (["status", db], ["export", db, "-o", tmp_path / "out"],
                 ["recount", db, "--sample", "1"]):
        res = invoke(*args)
        assert res.exit_code == 0, res.output
    assert listing(tmp_path) == ["c.sqlite", "c.sqlite-shm", "out"]


@pytest.mark.slow
@needs_mounts
def test_a_store_on_a_read_only_mount_can_be_read(counted, tmp_path):
    media, out = tmp_path / "media", tmp_path / "out"
    media.mkdir()
    out.mkdir()
    shutil.copy(counted, media / "s.sqlite")
    gridcount = f"{sys.executable} -m counting"
    res = in_mount_namespace(f"""
        mount --bind {media} {media}
        mount -o remount,ro,bind {media} {media}
        if touch {media}/probe 2>/dev/null; then echo "still writable"; exit 3; fi
        {gridcount} status {media}/s.sqlite
        {gridcount} export {media}/s.sqlite -o {out}
        {gridcount} recount {media}/s.sqlite --sample 1
    """)
    assert res.returncode == 0, res
    assert "4 of 710" in res.stdout and "all 1 recounted units agree" in res.stdout
    assert listing(out) == ["3x3-units.csv", "3x3.json"]
    assert listing(media) == ["s.sqlite"]


@needs_mounts
def test_a_store_with_a_wal_file_on_a_read_only_mount_says_what_to_do(tmp_path):
    media = tmp_path / "media"
    media.mkdir()
    db = media / "s.sqlite"
    with Store.create_or_open(db, Job.load("3x3", "71").info()) as st:  # as kill -9 leaves it:
        st.record(UnitResult(0, 0, 0, 7, 1, 0, 0, 0.1, "h", "v", "t"))   # the unit in the -wal
        copies = {p: p.read_bytes() for p in (db, Path(f"{db}-wal"))}
    for p, data in copies.items():
        p.write_bytes(data)
    res = in_mount_namespace(f"""
        mount --bind {media} {media}
        mount -o remount,ro,bind {media} {media}
        {sys.executable} -m counting status {db}
    """)
    assert res.returncode == 1
    assert res.stderr == (f"Error: cannot read {db}: its -wal file holds units not yet in the main "
                          f"file, and reading them needs s.sqlite-shm beside it, which cannot be "
                          f"created there (read-only media?); copy the store with its -wal file "
                          f"to a writable directory\n")
    res = invoke("status", db)          # where it can be created, the unit is there
    assert res.exit_code == 0 and "1 of 710" in res.output


# ---------------------------------------------------------------------------
# A store that a running count holds

@pytest.mark.slow
def test_a_second_count_on_a_store_is_refused_until_the_first_ends(tmp_path):
    db = tmp_path / "s.sqlite"
    first = start_gated_count(db, "0-199", tmp_path / "gate", 1, "--workers", 1)
    try:
        wait_for_units(db, 1, first)
        wait_for_waiting(tmp_path / "gate", 1, first)     # it is inside its second unit
        res = invoke("count", "3x3", "--db", db, "--units", "0-199", "-q", "-w", "1")
        assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1
        assert res.output.startswith(f"Error: {db} is being counted by another process "
                                     f"(pid {first.pid} on host ")
        fresh = invoke("count", "3x3", "--db", db, "--units", "0", "-q", "--fresh")
        assert fresh.exit_code == 2 and "being counted" in fresh.output and db.exists()
        res = invoke("status", db)                    # reading is never blocked
        assert res.exit_code == 0 and "of 710" in res.output
        first.send_signal(signal.SIGKILL)             # a crash leaves no lock behind
        first.communicate(timeout=30)
    finally:
        if first.poll() is None:
            first.kill()
            first.communicate()
    with Store.open(db) as st:
        done = st.done_ids()
    res = invoke("count", "3x3", "--db", db, "--units", f"0-{max(done) + 1}", "-w", "1", "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["run"]["units_skipped"] == len(done)
    assert not Path(f"{db}.lock").exists()


def test_a_second_count_through_a_hard_link_in_another_directory_is_refused(tmp_path):
    # issue 26.11: the lock was keyed in the store's directory, so a count
    # through a hard link elsewhere ran alongside (every unit counted twice)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    db, other = tmp_path / "a" / "s.sqlite", tmp_path / "b" / "t.sqlite"
    # it creates the store
    first = start_gated_count(db, "0-199", tmp_path / "gate", 1, "--workers", 1)
    try:
        wait_for_units(db, 1, first)
        wait_for_waiting(tmp_path / "gate", 1, first)
        os.link(db, other)
        res = invoke("count", "3x3", "--db", other, "--units", "0-199", "-q", "-w", "1")
        assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1, res.output
        assert res.output.startswith(f"Error: {other} is being counted by another process "
                                     f"(pid {first.pid} on host ")
        assert f"as {db}" in res.output
    finally:
        first.kill()
        first.communicate()


@pytest.mark.parametrize("flag", ["-q", "--json"])
def test_a_count_on_another_jobs_store_or_a_store_in_use_is_a_refusal_exit_code_2(
        tmp_path, flag):
    # noticed: these two refusals exited 1, where every other refusal of the CLI exits 2
    from counting.store.database import StoreLock
    of_2x2, held = tmp_path / "2x2.sqlite", tmp_path / "held.sqlite"
    assert invoke("count", "2x2", "--db", of_2x2, "-q", "-w", "1").exit_code == 0
    fake_store(held, {0: 5})
    other_job = invoke("count", "2x3", "--db", of_2x2, "-w", "1", flag)
    with StoreLock.acquire(held):
        in_use = invoke("count", "3x3", "--db", held, "--units", "1", "-w", "1", flag)
    for res, says in ((other_job, f"Error: {of_2x2} belongs to another job (shape is '2x2'"),
                      (in_use, f"Error: {held} is being counted by another process")):
        assert res.exit_code == 2, res.output
        assert res.stderr.startswith(says) and len(res.stderr.splitlines()) == 1, res.stderr
        if flag == "--json":
            assert json.loads(res.stdout)["exit_code"] == 2
    with Store.open(held) as st:
        assert st.done_ids() == {0}


@pytest.mark.parametrize("args, store", [
    (["3x3", "--db", "s.sqlite"], "s.sqlite"),
    (["3x3"], "results/3x3-r71.sqlite"),                                    # the default store
    (["3x3", "--up-to-symmetry"], "results/3x3-rsymmetry.sqlite"),
    (["3x3", "--up-to-symmetry"], "results/3x3-r71.sqlite"),   # the grid store of its identity
])
def test_a_count_on_a_store_in_use_is_refused_before_anything_is_estimated(
        here, monkeypatch, args, store):
    # noticed: count estimated the job (seconds of sampling, the estimate printed) and only
    # then said that the store was being counted by another process (for the grid store of
    # a symmetry job's identity, after making the symmetry store)
    from counting import plan
    from counting.store.database import StoreLock
    estimated = []
    monkeypatch.setattr(plan, "check_reach", lambda *a, **kw: estimated.append(a) or [])
    (here / "results").mkdir()
    with StoreLock.acquire(here / store):
        res = invoke("count", *args, "-w", "2")
    assert res.exit_code == 2, res.output
    assert res.stderr.startswith(f"Error: {store} is being counted by another process")
    assert len(res.stderr.splitlines()) == 1, res.stderr
    assert estimated == []
    assert listing(here / "results") == []       # no store made, no lock file left


def test_a_merge_of_another_jobs_store_or_export_is_a_refusal_exit_code_2(tmp_path):
    # noticed: merge refused a locked target with exit code 2 but another job's source with 1
    a, b, export = tmp_path / "2x2.sqlite", tmp_path / "2x3.sqlite", tmp_path / "2x3.json"
    for shape, db in (("2x2", a), ("2x3", b)):
        assert invoke("count", shape, "--db", db, "-q", "-w", "1").exit_code == 0
    assert invoke("export", b, "--units", export).exit_code == 0
    for source in (b, export):
        res = invoke("merge", a, source)
        assert res.exit_code == 2, res.output
        assert res.output.startswith(f"Error: cannot merge {source} into {a}: they belong to "
                                     f"different jobs")


# holds the lock until killed (or its standard input closes), not for a fixed time
_HOLD_LOCK = ("import sys\n"
              "from counting.store.database import StoreLock\n"
              "lock = StoreLock.acquire(sys.argv[1])\n"
              "print('locked', flush=True)\n"
              "sys.stdin.read()\n")


def test_a_count_from_another_environment_through_a_hard_link_is_refused(tmp_path, monkeypatch):
    # issue 38.6: a count from cron (another XDG_RUNTIME_DIR than the login
    # shell's) through a hard link in another directory ran on a store being counted
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    db, other = tmp_path / "a" / "s.sqlite", tmp_path / "b" / "t.sqlite"
    fake_store(db, {0: 5})
    os.link(db, other)
    for name in ("shell", "cron"):
        (tmp_path / name).mkdir(mode=0o700)
    first = subprocess.Popen([sys.executable, "-c", _HOLD_LOCK, str(db)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "XDG_RUNTIME_DIR": str(tmp_path / "shell")})
    try:
        assert first.stdout.readline().strip() == "locked"
        monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "cron"))
        res = invoke("count", "3x3", "--db", other, "--units", "1", "-q", "-w", "1")
        assert res.exit_code != 0 and len(res.output.strip().splitlines()) == 1, res.output
        assert res.output.startswith(f"Error: {other} is being counted by another process "
                                     f"(pid {first.pid} on host ")
        res = invoke("status", other)
        assert f"running now: being counted by pid {first.pid} " in res.output, res.output
    finally:
        first.kill()
        first.communicate()
    with Store.open(db) as st:
        assert st.done_ids() == {0}


@pytest.mark.slow
def test_status_says_a_count_is_running_on_the_store_naming_its_pid_and_host(tmp_path):
    # issue 26.20: status did not say that a count was running on the store
    db = tmp_path / "s.sqlite"
    (tmp_path / "b").mkdir()
    first = start_gated_count(db, "0-199", tmp_path / "gate", 1, "--workers", 1)
    try:
        wait_for_units(db, 1, first)
        wait_for_waiting(tmp_path / "gate", 1, first)     # it is inside its second unit
        os.link(db, tmp_path / "b" / "t.sqlite")
        for name in (db, tmp_path / "b" / "t.sqlite"):   # by the inode lock too
            res = invoke("status", name)
            assert res.exit_code == 0, res.output
            assert re.search(rf"^running now: being counted by pid {first.pid} on host "
                             rf"{re.escape(socket.gethostname())} since \S+$", res.output,
                             re.M), res.output
        doc = json.loads(invoke("status", db, "--json").output)
        assert doc["running"]["pid"] == first.pid and doc["running"]["doing"] == "counted"
        first.send_signal(signal.SIGKILL)
        first.communicate(timeout=30)
    finally:
        if first.poll() is None:
            first.kill()
            first.communicate()
    assert Path(f"{db}.lock").exists()          # left behind by kill -9, held by nobody
    res = invoke("status", db)
    assert res.exit_code == 0 and "running" not in res.output, res.output
    assert json.loads(invoke("status", db, "--json").output)["running"] is None
    res = invoke("count", "3x3", "--db", db, "--units", "0", "-q", "-w", "1")
    assert res.exit_code == 0, res.output      # and the next count takes the lock


# ---------------------------------------------------------------------------
# Issue 26: concurrent merges, and stores that are not regular files.

_READY_MERGE = ("import sys\nfrom counting.cli import main\nsys.stdin.readline()\n"
                "sys.argv = ['gridcount', 'merge', *sys.argv[1:]]\nmain()\n")


def test_two_concurrent_merges_into_a_new_target_never_lose_the_good_one(tmp_path):
    from store_samples import make_job, make_result
    job = make_job(50_000)
    good, damaged, target = (tmp_path / n for n in ("good.sqlite", "damaged.sqlite", "t.sqlite"))
    with Store.create_or_open(good, job) as st:
        for u in range(5):
            st.record(make_result(u))
    with Store.create_or_open(damaged, job) as st, st.atomic():
        for u in range(100, 20_100):
            st.record(make_result(u))
    edit_row(damaged, 20_099, count="7")     # found only once every row has been read
    # the good merge waits, imported, for its cue: the failing one has created the target
    first = subprocess.Popen([sys.executable, "-c", _READY_MERGE, str(target), str(good)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    second = subprocess.Popen([sys.executable, "-m", "counting", "merge", str(target),
                               str(damaged)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    try:
        wait_for(lambda: target.exists() and target.stat().st_size > 0, second)
        first.stdin.write("go\n")
        first.stdin.flush()
        good_out, good_err = first.communicate(timeout=120)
        bad_out, bad_err = second.communicate(timeout=120)
    finally:
        for p in (first, second):
            if p.poll() is None:
                p.kill()
                p.communicate()
    assert second.returncode != 0 and len(bad_err.strip().splitlines()) == 1, bad_err
    assert "Traceback" not in good_err + bad_err
    if first.returncode == 0:       # the good merge ran: its units are there to stay
        assert target.exists(), "the failed merge deleted the target the good one had filled"
        with Store.open(target) as st:
            assert [r.unit_id for r in st.results()] == list(range(5))
    else:                           # it met the other merge's lock: it said so, nothing lost
        assert "by another process" in good_err, good_err
        assert first.returncode == 2
    # in turn, the good merge and then the failing one: the target keeps the good units
    assert invoke("merge", target, good).exit_code == 0
    assert invoke("merge", target, damaged).exit_code == 1
    with Store.open(target) as st:
        assert [r.unit_id for r in st.results()] == list(range(5))


def wait_for(condition, proc, timeout=60):
    import time
    deadline = time.monotonic() + timeout
    while not condition():
        assert proc.poll() is None, f"ended early: {proc.communicate()}"
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.002)


def test_a_merge_into_a_store_being_counted_is_refused(tmp_path):
    from counting.store.database import StoreLock
    target, src = tmp_path / "t.sqlite", tmp_path / "s.sqlite"
    fake_store(target, {0: 5})
    fake_store(src, {1: 6})
    with StoreLock.acquire(target):
        res = invoke("merge", target, src)
    assert res.exit_code == 2 and "by another process" in res.output
    assert len(res.output.strip().splitlines()) == 1
    with Store.open(target) as st:
        assert [r.unit_id for r in st.results()] == [0]


@pytest.mark.parametrize("command", [["status"], ["export"], ["recount"], ["report"],
                                     ["count", "1x1", "--db"],
                                     ["merge", "{tmp}/t.sqlite"], ["merge", "{fifo}", "{tmp}/s"]])
def test_a_fifo_given_as_a_store_is_refused_at_once(tmp_path, command):
    fifo = tmp_path / "fifo.sqlite"
    os.mkfifo(fifo)
    fake_store(tmp_path / "s", {0: 5})
    args = [a.format(tmp=tmp_path, fifo=fifo) for a in command]
    if "{fifo}" not in command:
        args.append(str(fifo))
    res = subprocess.run([sys.executable, "-m", "counting", *args], capture_output=True,
                         text=True, timeout=30)
    assert res.returncode != 0 and "Traceback" not in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1 and "not a regular file" in res.stderr
