"""A parent process SIGKILLed while its pool's workers count, and whether
its workers are gone: shared by ``tests/dlx/test_pools.py`` and
``tests/counting/run/test_pool.py`` (``tests/`` is on ``sys.path`` through
its conftest).  Issue 38 item 9: workers on symmetry units outlived a
SIGKILLed ``gridcount count 2x4 --up-to-symmetry`` by 30-60 s at full CPU."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: How long the workers may take to go once the parent is killed: generous
#: (the watch ends them at once); their tasks never end by themselves.
GONE_WITHIN = 20.0
#: The environment variable naming the directory where a worker says it is
#: inside its task (``busy-PID``; see :func:`kill_parent_while_workers_work`).
BUSY_VARIABLE = "GRIDCOUNT_TEST_BUSY"


def _stat(pid: int) -> list[str] | None:
    """Fields of ``/proc/PID/stat`` from the state on; None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rfind(")") + 2:].split()


def alive(pid: int) -> bool:
    """Running (a zombie, exited but not yet reaped, is not)."""
    stat = _stat(pid)
    return stat is not None and stat[0] != "Z"


def kill_parent_while_workers_work(script: str, tmp_path: Path, workers: int = 2,
                                   timeout: float = 120.0) -> tuple[list[int], list[int]]:
    """Run ``script`` (a parent whose pool starts ``workers`` workers) with
    this Python and this checkout; once each worker is inside its task, SIGKILL
    the parent.  Returns ``(workers, those still running GONE_WITHIN seconds
    later)``, polling; any left are then killed (by their ids).

    A worker says that it is inside its task by creating ``busy-PID`` (its
    process id) in the directory named by :data:`BUSY_VARIABLE`, and its task
    must never end by itself (a task that ended could let a worker go for
    that reason alone, on a fast machine): so the kill lands in the middle
    of a task on a machine of any speed or load."""
    path = tmp_path / "parent.py"
    path.write_text(script)
    busy = tmp_path / "busy"
    busy.mkdir()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
               **{BUSY_VARIABLE: str(busy)})
    errors = tmp_path / "parent-stderr.txt"
    with open(errors, "wb") as err:
        parent = subprocess.Popen([sys.executable, str(path)], env=env, cwd=tmp_path,
                                  stdout=subprocess.DEVNULL, stderr=err)
    pids: list[int] = []
    try:
        deadline = time.monotonic() + timeout      # only against a hang
        while time.monotonic() < deadline and parent.poll() is None:
            pids = [int(p.name.split("-")[1]) for p in busy.glob("busy-*")]
            if len(pids) >= workers:
                break
            time.sleep(0.1)
        else:
            raise AssertionError(f"the workers did not begin their tasks: {errors.read_text()}")
        parent.kill()
        parent.wait()
        end = time.monotonic() + GONE_WITHIN
        left = [p for p in pids if alive(p)]
        while left and time.monotonic() < end:
            time.sleep(0.2)
            left = [p for p in left if alive(p)]
        return pids, left
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        for p in pids:
            if alive(p):
                os.kill(p, signal.SIGKILL)
