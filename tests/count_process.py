"""A ``gridcount count`` (of 3x3 units, or any, :func:`start_gated`) in a
process of its own, and what it has stored so far: shared by the tests that
interrupt, kill or wait for a running count (``tests/counting/test_cli.py``,
``test_cli_store.py``, ``test_dask.py``, ``test_cli_count_latin_group.py``,
``test_cli_kind_tables.py``, ``reduction/test_layers_reduction.py``; ``tests/`` is on
``sys.path`` through its conftest)."""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli_samples import invoke


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


#: ``tests/gated_count.py``: run as a script, or given to ``dask worker --preload``.
GATED_COUNT = Path(__file__).with_name("gated_count.py")


def gate_variables(gate: Path, hold: int) -> dict[str, str]:
    """The environment variables that tell ``tests/gated_count.py`` its gate
    (made here if need be) and how many units pass it before it is opened."""
    gate.mkdir(exist_ok=True)
    return {"GRIDCOUNT_TEST_GATE": str(gate), "GRIDCOUNT_TEST_HOLD": str(hold)}


def start_gated(args, gate: Path, hold: int, cwd: Path | None = None) -> subprocess.Popen:
    """``gridcount ARGS`` through ``tests/gated_count.py``, in ``cwd``, its
    output piped as text: each finished unit is committed at once, and a pool
    worker given a unit id of ``hold`` or more writes ``gate/waiting-ID`` and
    waits for ``gate/open`` (see :func:`open_gate`)."""
    env = {**os.environ, **gate_variables(gate, hold)}
    return subprocess.Popen([sys.executable, str(GATED_COUNT), *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            cwd=cwd)


def start_gated_count(db: Path, units: str, gate: Path, hold: int, *options) -> subprocess.Popen:
    """:func:`start_count` through ``tests/gated_count.py`` (:func:`start_gated`)."""
    return start_gated(["count", "3x3", "--db", db, "--units", units, *options,
                        "--no-progress"], gate, hold)


def killed_at_the_gate(args, db: Path, gate: Path, hold: int, stored: int,
                       cwd: Path | None = None) -> list[int]:
    """Start ``gridcount ARGS``, a count into ``db``, with the units from id
    ``hold`` on held at ``gate`` (:func:`start_gated`); kill it (SIGKILL) once
    ``db`` holds ``stored`` units and one waits at the gate; the ids of the
    units it stored.  A kill at a known point, on a machine of any speed."""
    proc = start_gated(args, gate, hold, cwd)
    wait_for_units(db, stored, proc)
    wait_for_waiting(gate, 1, proc)
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    return units_in(db)


def killed_and_resumed(count_args, here: Path, *, hold: int, stored: int
                       ) -> tuple[list[int], dict]:
    """``gridcount count COUNT_ARGS --db k.sqlite --workers 1`` in ``here``,
    killed at the gate (:func:`killed_at_the_gate`: the units from id ``hold``
    held, killed once ``stored`` are in), then the same count again in this
    process with ``--json``: the ids of the units the killed count stored, and
    the resumed count's document."""
    db = here / "k.sqlite"
    count = ["count", *count_args, "--db", db, "--workers", 1]
    kept = killed_at_the_gate([*count, "--no-progress"], db, here / "gate", hold=hold,
                              stored=stored, cwd=here)
    res = invoke(*count, "--json")
    assert res.exit_code == 0, res.output
    return kept, json.loads(res.stdout)


def wait_for_waiting(gate: Path, k: int, proc: subprocess.Popen | None, timeout: float = 60
                     ) -> None:
    """Return once ``k`` units wait at ``gate``; fail the test as
    :func:`wait_for_units` does (``proc`` None: a count in this process,
    such as Dask workers preloaded with ``tests/gated_count.py``)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if len(list(gate.glob("waiting-*"))) >= k:
            return
        if proc is not None and proc.poll() is not None:
            pytest.fail(f"count ended early: {proc.communicate()}")
        time.sleep(0.05)
    if proc is not None:
        proc.kill()
        proc.communicate()
    pytest.fail(f"no {k} units waited at the gate in time")


def open_gate(gate: Path) -> None:
    """Let the units held at ``gate`` be counted."""
    (gate / "open").touch()


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
