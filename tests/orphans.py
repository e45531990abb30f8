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
#: (the watch ends them at once), far below the minutes they ran on before.
GONE_WITHIN = 20.0


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


def cpu_seconds(pid: int) -> float:
    stat = _stat(pid)
    return 0.0 if stat is None else (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")


def spawned_workers(parent: int) -> list[int]:
    """The multiprocessing spawn workers whose parent is ``parent``."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        stat = _stat(int(entry.name))
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if stat is not None and int(stat[1]) == parent and b"spawn_main" in cmdline:
            out.append(int(entry.name))
    return out


def kill_parent_while_workers_work(script: str, tmp_path: Path, workers: int = 2,
                                   busy_cpu: float = 1.0, timeout: float = 120.0
                                   ) -> tuple[list[int], list[int]]:
    """Run ``script`` (a parent whose pool starts ``workers`` workers) with
    this Python and this checkout; once each worker has used ``busy_cpu``
    CPU seconds (it is inside its task), SIGKILL the parent.  Returns
    ``(workers, those still running GONE_WITHIN seconds later)``, polling;
    any left are then killed (by their ids)."""
    path = tmp_path / "parent.py"
    path.write_text(script)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    errors = tmp_path / "parent-stderr.txt"
    with open(errors, "wb") as err:
        parent = subprocess.Popen([sys.executable, str(path)], env=env, cwd=tmp_path,
                                  stdout=subprocess.DEVNULL, stderr=err)
    pids: list[int] = []
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and parent.poll() is None:
            pids = spawned_workers(parent.pid)
            if len(pids) >= workers and all(cpu_seconds(p) >= busy_cpu for p in pids):
                break
            time.sleep(0.1)
        else:
            raise AssertionError(f"the workers were not busy in time: {errors.read_text()}")
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
