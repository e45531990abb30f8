"""Results and stores shared by the store tests (``tests/counting/test_store*.py``,
``test_job.py``, ``test_cli_store.py``; ``tests/`` is on ``sys.path`` through
its conftest).  The fixtures built on them (``job``, ``db``, ``store``) are
in ``tests/counting/conftest.py``.  :func:`kill_9_once_stored` kills a
process that writes a store, mid-run (``test_database.py``, ``test_batch.py``)."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import astuple, replace
from pathlib import Path

from counting.store.database import JobInfo, Store
from counting.store.format import COLUMNS, EXACT, row_checksum
from counting.units import UnitResult

ROOT = Path(__file__).resolve().parents[1]  # the project checkout (holds counting/ and tests/)
N_UNITS = 40
BIG = 6_670_903_752_021_072_936_960  # the number of 9×9 Sudoku grids, > 2**72


def make_job(n_units: int = N_UNITS) -> JobInfo:
    """The job of the sample stores: 3x3, reduction 71, engine "1.0"."""
    return JobInfo(shape="3x3", reduction="71", engine_version="1.0", n_units=n_units)


def make_result(unit_id: int, count: int | None = None, **changes) -> UnitResult:
    """A plausible result for ``unit_id``; ``count`` defaults to something > 2**64."""
    result = UnitResult(
        unit_id=unit_id,
        class_id=unit_id // 4,
        form_id=unit_id % 4,
        count=2**64 + 17 * unit_id if count is None else count,
        nodes=2**63 + unit_id,
        dead_ends=3 * unit_id,
        memo_hits=unit_id,
        seconds=0.25 * unit_id,
        host="worker-1",
        engine_version="1.0",
        finished_at=f"2026-01-01T00:00:{unit_id % 60:02d}Z",
        worker=f"SpawnPoolWorker-{unit_id % 3}:4242",
    )
    return replace(result, **changes)


def write_store(path: Path, job: JobInfo, unit_ids, **changes) -> None:
    """Write a store of ``job`` at ``path`` holding ``make_result(u, **changes)``
    for every ``u`` of ``unit_ids``, and close it."""
    with Store.create_or_open(path, job) as st:
        for u in unit_ids:
            st.record(make_result(u, **changes))


def kill_9_once_stored(code: str, db: Path, *args, at_least: int,
                       timeout: float = 60) -> list[str]:
    """Run ``python -c CODE DB ARGS...`` in a child process that imports
    ``counting`` from this checkout and ``store_samples`` from ``tests/``;
    once the child prints ``ready``, watch the store ``db`` until it holds
    ``at_least`` units, then ``kill -9`` the child.

    Returns the lines the child printed after ``ready``.  Fails the test if
    the child ends before it is killed, or stores too slowly (``timeout``
    seconds: a bound on a hung child, not a measurement)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT), str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")]))
    child = subprocess.Popen([sys.executable, "-c", code, str(db), *map(str, args)],
                             cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "ready"
        with Store.open(db) as watcher:
            deadline = time.monotonic() + timeout
            while len(watcher) < at_least:
                assert time.monotonic() < deadline, "child recorded too slowly"
                assert child.poll() is None, "child exited early"
                time.sleep(0.002)
        os.kill(child.pid, signal.SIGKILL)
        assert child.wait(timeout=10) == -signal.SIGKILL
        return [line.strip() for line in child.stdout.read().splitlines()]
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        child.stdout.close()


def assert_one_line_naming(exc_info, path: Path) -> str:
    message = str(exc_info.value)
    assert "\n" not in message
    assert str(path) in message
    return message


def stored_row(result: UnitResult) -> tuple:
    """``result`` as the values of the units columns but the checksum, as stored."""
    return tuple(str(v) if c in EXACT else v for c, v in zip(COLUMNS, astuple(result)))


def edit_row(path: Path, unit_id: int, /, **values) -> None:
    """Change fields of the stored row of ``unit_id`` behind the store's back
    (a hand edit); its checksum only if ``checksum`` is one of ``values``."""
    con = sqlite3.connect(path)
    with con:
        changed = con.execute(
            f"UPDATE units SET {', '.join(f'{c} = ?' for c in values)} WHERE unit_id = ?",
            (*values.values(), unit_id)).rowcount
    con.close()
    assert changed == 1, f"no row of unit {unit_id} in {path}"


def store_wrong_count(path: Path, unit_id: int, count: int) -> None:
    """Replace one stored count the way a faulty engine or machine would have
    stored it: a wrong count with a checksum that matches it (what recount
    is for; a row edited without its checksum is refused on reading)."""
    with Store.open(path) as st:
        job, result = st.job, replace(st.get(unit_id), count=count)
    edit_row(path, unit_id, count=str(count), checksum=row_checksum(job, stored_row(result)))



def store_count_plus_one(path: Path, unit_id: int = 0) -> None:
    """:func:`store_wrong_count` with the stored count plus one: a store whose
    rows changed after another job took a figure from it."""
    with Store.open(path) as st:
        right = st.get(unit_id).count
    store_wrong_count(path, unit_id, right + 1)

# The schema of store format 1, as gridcount wrote it before format 2.
FORMAT_1_SCHEMA = """
CREATE TABLE meta (
    key   TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
);
CREATE TABLE units (
    unit_id        INTEGER PRIMARY KEY NOT NULL CHECK (unit_id >= 0),
    class_id       INTEGER NOT NULL CHECK (typeof(class_id) = 'integer'),
    form_id        INTEGER NOT NULL CHECK (typeof(form_id) = 'integer'),
    count          TEXT NOT NULL CHECK (count <> '' AND count NOT GLOB '*[^0-9]*' AND (count = '0' OR count NOT GLOB '0*')),
    nodes          TEXT NOT NULL CHECK (nodes <> '' AND nodes NOT GLOB '*[^0-9]*' AND (nodes = '0' OR nodes NOT GLOB '0*')),
    dead_ends      TEXT NOT NULL CHECK (dead_ends <> '' AND dead_ends NOT GLOB '*[^0-9]*' AND (dead_ends = '0' OR dead_ends NOT GLOB '0*')),
    memo_hits      TEXT NOT NULL CHECK (memo_hits <> '' AND memo_hits NOT GLOB '*[^0-9]*' AND (memo_hits = '0' OR memo_hits NOT GLOB '0*')),
    seconds        REAL NOT NULL,
    host           TEXT NOT NULL,
    engine_version TEXT NOT NULL,
    finished_at    TEXT NOT NULL
);
"""


def write_format_1_store(path: Path, job, results) -> None:
    """A store as gridcount wrote it in format 1 (no worker, no checksum)."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(f"PRAGMA application_id = {0x67726964}")
    conn.execute("PRAGMA user_version = 1")
    conn.executescript(FORMAT_1_SCHEMA)
    meta = {"format": "gridcount-store", "format_version": "1", "shape": job.shape,
            "reduction": job.reduction, "engine_version": job.engine_version,
            "n_units": str(job.n_units)}
    conn.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
    conn.executemany(f"INSERT INTO units VALUES ({', '.join('?' * 11)})",
                     [stored_row(r)[:11] for r in results])
    conn.commit()
    conn.close()
