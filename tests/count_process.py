"""A ``gridcount count`` of 3x3 units in a process of its own, and what it
has stored so far: shared by the tests that interrupt, kill or wait for a
running count (``tests/counting/test_cli.py``, ``test_cli_store.py``,
``test_dask.py``; ``tests/`` is on ``sys.path`` through its conftest)."""
from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest


def units_in(db: Path) -> list[int]:
    """The unit ids stored in ``db`` so far, read behind the store's back
    (no checks); ``[]`` while the file or its units table does not exist yet.
    Creates no file where there is none."""
    if not db.exists():
        return []
    con = sqlite3.connect(db)
    try:
        return [row[0] for row in con.execute("SELECT unit_id FROM units")]
    except sqlite3.OperationalError:
        return []
    finally:
        con.close()


def start_count(db: Path, units: str, *options) -> subprocess.Popen:
    """Start ``gridcount count 3x3 --db DB --units UNITS OPTIONS... --no-progress``
    with this Python (so with this checkout), its output piped as text.
    ``options``: more arguments, such as ``"--workers", 2``."""
    return subprocess.Popen(
        [sys.executable, "-m", "counting", "count", "3x3", "--db", str(db), "--units", units,
         *map(str, options), "--no-progress"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for_units(db: Path, k: int, proc: subprocess.Popen, timeout: float = 60) -> None:
    """Return once ``db`` holds ``k`` units; fail the test if ``proc`` ends
    first, or, killing it, if ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if len(units_in(db)) >= k:
            return
        if proc.poll() is not None:
            pytest.fail(f"count ended early: {proc.communicate()}")
        time.sleep(0.05)
    proc.kill()
    proc.communicate()
    pytest.fail(f"no {k} units were stored in time")
