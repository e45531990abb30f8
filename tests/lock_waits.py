"""Whether a process is waiting for a file lock, from Linux's ``/proc/locks``:
shared by the tests in which one process must wait for another's lock
(``tests/factorization/test_memo_file.py``, ``tests/bandtables/test_cache.py``,
``tests/bandtables/test_kind_cache.py``;
``tests/`` is on ``sys.path`` through its conftest).

A test that lets the holder go on after a fixed time cannot tell "the other
process waited" from "the other process had not got there yet" on a slow
machine; ``/proc/locks`` says which: a process blocked in ``flock`` (or
``fcntl``'s locks) is listed with ``->`` before its lock's type.
"""
from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Callable

import pytest

LOCKS = Path("/proc/locks")

needs_proc_locks = pytest.mark.skipif(not LOCKS.exists(), reason="needs Linux's /proc/locks")


def waits_for_a_lock(pid: int) -> bool:
    """Whether process ``pid`` is blocked waiting for a file lock."""
    for line in LOCKS.read_text().splitlines():
        # "1: -> FLOCK  ADVISORY  WRITE 19682 fe:00:2146325 0 EOF"
        fields = line.split()
        if len(fields) > 5 and fields[1] == "->" and fields[5] == str(pid):
            return True
    return False


def wait_until(condition: Callable[[], bool], what: str, timeout: float = 120) -> None:
    """Return once ``condition()`` holds; fail the test (``what`` did not
    happen) after ``timeout`` seconds, which only guards against a hang."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"{what} within {timeout:,.0f} s")
        time.sleep(0.01)


def meet_at_the_cache(seen: Path, n: int, timeout: float = 120) -> None:
    """In the build of one of ``n`` processes asking for one cache at once, each of
    which touched ``seen/asking-PID`` first: say this one builds
    (``seen/building-PID``), then return once each of the others is building too
    (a missing lock) or blocked on the lock, so that all have come to the cache
    while it was being built, on a machine of any speed (``timeout`` only guards
    against a hang)."""
    (seen / f"building-{os.getpid()}").touch()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        others = [int(p.name.split("-")[1]) for p in seen.glob("asking-*")]
        others.remove(os.getpid())
        if len(others) == n - 1 and all(
                (seen / f"building-{pid}").exists() or waits_for_a_lock(pid) for pid in others):
            return
        time.sleep(0.01)
