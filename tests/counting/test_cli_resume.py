"""count interrupted, killed and resumed (counting/cli/count.py, counting/run/):
Ctrl-C, SIGTERM and kill -9 keep every finished unit, count none twice, and
print a resume hint that resumes; killed workers are replaced.

Subprocesses held at a gate (tests/gated_count.py), so no test races the machine.
"""
import contextlib
import csv
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from counting.run import pool
from counting.reduction import get_reduction
from counting.cli import cli
from counting.options import CountOptions
from counting.store.database import Store
from counting.run.counter import count_unit

from count_process import (open_gate, start_count, start_gated_count, units_in, wait_for_units,
                           wait_for_waiting)


ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------------------
# count: interrupted, killed, resumed

def _recorded_3x3_counts() -> dict[int, int]:
    """Per-unit counts of the recorded full 9x9 run (results/3x3-units.csv)."""
    with open(ROOT / "results" / "3x3-units.csv", newline="") as f:
        return {int(row["unit_id"]): int(row["count"]) for row in csv.DictReader(f)}


def test_store_resumes_after_kill_9_with_no_unit_counted_twice(tmp_path):
    # three units counted and stored, both workers inside the next two (held
    # at a gate, so on a machine of any speed) when the count is killed
    db, gate = tmp_path / "k.sqlite", tmp_path / "gate"
    units = "0-11"
    proc = start_gated_count(db, units, gate, 3, "--workers", 2)
    wait_for_units(db, 3, proc)
    wait_for_waiting(gate, 2, proc)
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    kept = units_in(db)
    assert len(kept) == 3 and len(set(kept)) == 3
    proc = start_count(db, units, "--workers", 2)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    final = units_in(db)
    assert sorted(final) == list(range(12))
    # the resumed run counted only what was missing
    assert re.search(rf"units already in store +{len(kept)}\n", out), out
    assert re.search(rf"units counted now +{12 - len(kept)}\n", out), out
    with Store.open(db) as st:
        spec = get_reduction("3x3", "71").units()
        for u in (kept[0], final[-1]):
            assert st.get(u).count == count_unit(spec[u], CountOptions(), fresh_memo=True).count


@pytest.mark.slow
def test_the_resume_hint_after_fresh_is_a_command_that_resumes(tmp_path):
    # issue 26.2: after `count --fresh` and Ctrl-C, "run the same command again"
    # ran --fresh again and deleted the stored units
    db = tmp_path / "f.sqlite"
    proc = start_gated_count(db, "0-299", tmp_path / "gate1", 2, "--workers", 1, "--fresh")
    wait_for_units(db, 2, proc)
    wait_for_waiting(tmp_path / "gate1", 1, proc)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "run the same command without --fresh to resume" in err
    kept = units_in(db)
    # following the hint keeps every stored unit
    proc = start_gated_count(db, "0-299", tmp_path / "gate2", 1, "--workers", 1)
    wait_for_units(db, len(kept) + 1, proc)
    wait_for_waiting(tmp_path / "gate2", 1, proc)
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=30)
    assert set(kept) < set(units_in(db))


@pytest.mark.parametrize("sig, code, word", [
    (signal.SIGINT, 130, "interrupted"),   # Ctrl-C
    pytest.param(signal.SIGTERM, 143, "terminated",   # kill, or a batch scheduler's stop
                 marks=pytest.mark.slow),
])
def test_ctrl_c_or_sigterm_keeps_finished_units_and_says_how_to_resume(tmp_path, sig, code,
                                                                       word):
    db, gate = tmp_path / "c.sqlite", tmp_path / "gate"
    proc = start_gated_count(db, "0-299", gate, 2, "--workers", 2)
    wait_for_units(db, 2, proc)
    wait_for_waiting(gate, 2, proc)     # both workers inside a unit
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == code, err
    assert f"{word}:" in err and "run the same command again to resume" in err
    # the parent shut the pool down: no worker tracebacks, nothing leaked
    assert "Traceback" not in err and "leaked" not in err
    kept = units_in(db)
    assert f"{len(kept):,} of 710 units are safely in {db}" in err
    assert len(kept) == 2 and len(set(kept)) == 2
    recorded = _recorded_3x3_counts()
    with Store.open(db) as st:
        assert {r.unit_id: r.count for r in st.results()} == {u: recorded[u] for u in kept}


def _pool_workers(pid: int) -> list[int]:
    """Process ids of the spawned pool workers of process ``pid`` (Linux)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline") as f:
                command = f.read()
        except (OSError, IndexError, ValueError):
            continue
        if parent == pid and "spawn_main" in command:
            found.append(int(entry))
    return found


needs_proc = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux /proc")


@pytest.mark.slow
@needs_proc
def test_a_killed_worker_is_replaced_and_its_unit_counted_again(tmp_path):
    # multiprocessing.Pool lost the unit of a killed worker and then waited
    # for it for ever (74 of 75 units, 0 % CPU)
    db, gate = tmp_path / "w.sqlite", tmp_path / "gate"
    proc = start_gated_count(db, "0-11", gate, 2, "--workers", 2)
    wait_for_units(db, 2, proc)
    wait_for_waiting(gate, 2, proc)      # both workers inside a unit, held
    victim = _pool_workers(proc.pid)[0]
    os.kill(victim, signal.SIGKILL)
    open_gate(gate)
    try:
        out, err = proc.communicate(timeout=180)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail(f"count hung after its worker {victim} was killed: {proc.communicate()}")
    assert proc.returncode == 0, err
    assert f"worker process {victim} died (signal 9, SIGKILL) while counting unit " in err
    assert "counting it again in a new worker (attempt 2 of 3)" in err
    kept = units_in(db)
    assert sorted(kept) == list(range(12))                     # every unit, each once
    recorded = _recorded_3x3_counts()
    with Store.open(db) as st:
        assert {r.unit_id: r.count for r in st.results()} == {u: recorded[u] for u in kept}


@needs_proc
def test_a_unit_that_kills_every_worker_stops_the_run_with_the_resume_hint(tmp_path):
    # e.g. a unit whose memo table exhausts the memory every time: the run
    # must stop, not start worker after worker
    db, gate = tmp_path / "o.sqlite", tmp_path / "gate"
    proc = start_gated_count(db, "0-79", gate, 2, "--workers", 2)   # the gate is never opened
    wait_for_units(db, 2, proc)
    wait_for_waiting(gate, 2, proc)
    deadline = time.monotonic() + 180
    while proc.poll() is None and time.monotonic() < deadline:
        for pid in _pool_workers(proc.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.05)
    if proc.poll() is None:
        proc.kill()
        pytest.fail(f"count went on while every worker was killed: {proc.communicate()}")
    out, err = proc.communicate()
    assert proc.returncode == 1, err
    last = err.strip().splitlines()[-1]
    kept = units_in(db)
    assert re.fullmatch(r"Error: unit \d+ killed all 3 worker processes that counted it \(the "
                        r"last, process \d+: signal 9, SIGKILL\); out of memory\? try a smaller "
                        r"--memo-mb or fewer --workers; "
                        + re.escape(f"{len(kept):,} of 710 units are safely in {db}: run the same "
                                    f"command again to resume"), last), last
    assert len(kept) == 2 and len(set(kept)) == 2
    assert "Traceback" not in err
