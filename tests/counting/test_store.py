"""Tests for counting/store.py: the resumable SQLite store of finished units."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import pytest

from counting.store import (
    APPLICATION_ID,
    FORMAT,
    FORMAT_VERSION,
    ConflictError,
    CorruptStoreError,
    ForeignStoreError,
    JobInfo,
    MergeReport,
    Store,
    StoreError,
)
from counting.units import UnitResult

ROOT = Path(__file__).resolve().parents[2]  # the project checkout (holds counting/)
N_UNITS = 40
BIG = 6_670_903_752_021_072_936_960  # the number of 9×9 Sudoku grids, > 2**72


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
    )
    return replace(result, **changes)


@pytest.fixture
def job() -> JobInfo:
    return JobInfo(shape="3x3", reduction="71", engine_version="1.0", n_units=N_UNITS)


@pytest.fixture
def db(tmp_path) -> Path:
    return tmp_path / "job.db"


@pytest.fixture
def store(db, job):
    with Store.create_or_open(db, job) as s:
        yield s


def assert_one_line_naming(exc_info, path: Path) -> str:
    message = str(exc_info.value)
    assert "\n" not in message
    assert str(path) in message
    return message


# ---------------------------------------------------------------------------
# Round trip and resuming


def test_results_round_trip_exactly_after_reopening(db, job):
    recorded = [make_result(u) for u in (5, 0, 39, 7)]
    recorded.append(make_result(11, count=BIG, nodes=2**64 + 1, dead_ends=2**70, memo_hits=2**63))
    with Store.create_or_open(db, job) as s:
        assert all(s.record(r) for r in recorded)
    with Store.open(db) as s:
        assert s.results() == sorted(recorded, key=lambda r: r.unit_id)
        assert s.get(11).count == BIG and type(s.get(11).count) is int
        assert s.get(12) is None


@pytest.mark.parametrize("count", [0, 1, 2**63 - 1, 2**63, 2**64, 2**64 + 1, BIG])
def test_counts_around_the_64_bit_limits_are_stored_exactly(store, count):
    store.record(make_result(3, count=count, nodes=count))
    assert store.get(3).count == count
    assert store.get(3).nodes == count


def test_store_resumes_after_reopening_with_the_same_job(db, job):
    with Store.create_or_open(db, job) as s:
        for u in (0, 1, 2, 10):
            s.record(make_result(u))
    with Store.create_or_open(db, job) as s:
        assert len(s) == 4
        assert s.done_ids() == {0, 1, 2, 10}
        assert s.remaining_ids() == [u for u in range(N_UNITS) if u not in {0, 1, 2, 10}]
        assert s.job == job


def test_open_reads_the_job_from_the_database(db, job):
    Store.create_or_open(db, job).close()
    with Store.open(db) as s:
        assert s.job == job
        assert s.path == db
        assert len(s) == 0 and s.remaining_ids() == list(range(N_UNITS))


def test_new_store_carries_application_id_and_format_markers(store, db):
    store.close()
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert conn.execute("PRAGMA user_version").fetchone()[0] == FORMAT_VERSION
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        meta = dict(conn.execute("SELECT key, value FROM meta"))
    finally:
        conn.close()
    assert meta == {
        "format": FORMAT,
        "format_version": str(FORMAT_VERSION),
        "shape": "3x3",
        "reduction": "71",
        "engine_version": "1.0",
        "n_units": str(N_UNITS),
    }


def test_schema_only_accepts_canonical_decimal_counts(store, db):
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        for bad in ("007", "", "-1", "1e5", "12a"):
            with pytest.raises(sqlite3.IntegrityError):
                conn.execute(
                    "INSERT INTO units VALUES (1, 0, 1, ?, '0', '0', '0', 0.0, 'h', 'v', 't')", (bad,)
                )
    finally:
        conn.close()
    assert len(store) == 0


# ---------------------------------------------------------------------------
# record()


def test_record_of_the_same_count_again_returns_false_and_changes_nothing(store):
    first = make_result(4)
    assert store.record(first) is True
    again = replace(first, host="other-host", seconds=99.0, nodes=1)
    assert store.record(again) is False
    assert store.get(4) == first
    assert len(store) == 1


def test_record_of_a_different_count_raises_conflict_naming_unit_and_both_counts(store, db):
    store.record(make_result(4, count=BIG))
    with pytest.raises(ConflictError) as exc_info:
        store.record(make_result(4, count=BIG + 1))
    message = assert_one_line_naming(exc_info, db)
    assert "unit 4" in message and str(BIG) in message and str(BIG + 1) in message
    assert exc_info.value.conflicts == [(4, BIG, BIG + 1)]
    assert store.get(4).count == BIG


@pytest.mark.parametrize("unit_id", [-1, N_UNITS, N_UNITS + 100])
def test_record_rejects_unit_ids_outside_the_job(store, unit_id):
    with pytest.raises(ValueError, match="outside range"):
        store.record(make_result(unit_id))
    assert len(store) == 0


@pytest.mark.parametrize(
    "changes, error",
    [
        ({"count": -1}, ValueError),
        ({"nodes": -5}, ValueError),
        ({"count": 1.5}, TypeError),
        ({"count": "12"}, TypeError),
        ({"count": True}, TypeError),
        ({"host": None}, TypeError),
    ],
)
def test_record_rejects_malformed_results(store, changes, error):
    with pytest.raises(error):
        store.record(make_result(1, **changes))
    assert len(store) == 0


def test_record_rejects_objects_that_are_not_unit_results(store):
    with pytest.raises(TypeError):
        store.record(make_result(1).as_dict())


# ---------------------------------------------------------------------------
# Refusing other jobs' stores


@pytest.mark.parametrize(
    "field, value", [("shape", "2x3"), ("reduction", "44"), ("n_units", N_UNITS + 1)]
)
@pytest.mark.parametrize("allow_mismatch", [False, True])
def test_store_of_another_job_is_refused_naming_the_field(db, job, field, value, allow_mismatch):
    Store.create_or_open(db, job).close()
    with pytest.raises(ForeignStoreError) as exc_info:
        Store.create_or_open(db, replace(job, **{field: value}), allow_mismatch=allow_mismatch)
    message = assert_one_line_naming(exc_info, db)
    assert field in message and repr(value) in message
    assert "--db" in message and "never allowed" in message


def test_mismatch_message_names_every_differing_field(db, job):
    Store.create_or_open(db, job).close()
    other = JobInfo(shape="2x2", reduction="44", engine_version="2.0", n_units=7)
    with pytest.raises(ForeignStoreError) as exc_info:
        Store.create_or_open(db, other)
    message = assert_one_line_naming(exc_info, db)
    for field in ("shape", "reduction", "engine_version", "n_units"):
        assert field in message


def test_engine_version_mismatch_is_refused_unless_allowed(db, job):
    with Store.create_or_open(db, job) as s:
        s.record(make_result(0))
    newer = replace(job, engine_version="2.0")
    with pytest.raises(ForeignStoreError) as exc_info:
        Store.create_or_open(db, newer)
    message = assert_one_line_naming(exc_info, db)
    assert "engine_version" in message and "--allow-mismatch" in message
    with Store.create_or_open(db, newer, allow_mismatch=True) as s:
        assert s.job.engine_version == "1.0"  # the job as stored
        s.record(make_result(1, engine_version="2.0"))
        assert [r.engine_version for r in s.results()] == ["1.0", "2.0"]


# ---------------------------------------------------------------------------
# Refusing files that are not (healthy) gridcount stores


def _foreign_sqlite(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE people (name TEXT)")
    conn.execute("INSERT INTO people VALUES ('ada')")
    conn.commit()
    conn.close()


OTHER_APPLICATION_ID = 0x46534C31  # an application_id that is not gridcount's


def _other_application_empty_sqlite(path: Path) -> None:
    """An SQLite database with no tables yet, already claimed by another
    application through its header's application_id."""
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA application_id = {OTHER_APPLICATION_ID}")
    conn.commit()
    conn.close()


FOREIGN_FILES = {
    "text file": lambda p: p.write_text("unit,count\n0,12\n"),
    "random bytes": lambda p: p.write_bytes(os.urandom(8192)),
    "sqlite magic then garbage": lambda p: p.write_bytes(b"SQLite format 3\x00" + os.urandom(8176)),
    "foreign sqlite database": _foreign_sqlite,
    "empty sqlite database of another application": _other_application_empty_sqlite,
}


@pytest.mark.parametrize("kind", FOREIGN_FILES)
@pytest.mark.parametrize("opener", ["open", "create_or_open"])
def test_foreign_or_corrupt_files_are_refused_with_a_one_line_error_and_left_untouched(
    db, job, kind, opener
):
    FOREIGN_FILES[kind](db)
    before = db.read_bytes()
    with pytest.raises((ForeignStoreError, CorruptStoreError)) as exc_info:
        if opener == "open":
            Store.open(db)
        else:
            Store.create_or_open(db, job)
    assert_one_line_naming(exc_info, db)
    assert exc_info.value.__class__ is not StoreError
    assert db.read_bytes() == before
    assert not Path(f"{db}-wal").exists() or kind == "foreign sqlite database"


def test_an_empty_database_of_another_application_is_not_written_into(db, job):
    _other_application_empty_sqlite(db)
    with pytest.raises(ForeignStoreError, match=f"application_id {OTHER_APPLICATION_ID}"):
        Store.create_or_open(db, job)
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0
        assert conn.execute("PRAGMA application_id").fetchone()[0] == OTHER_APPLICATION_ID
    finally:
        conn.close()


def test_empty_file_is_refused_by_open_but_initialised_by_create(db, job):
    db.touch()
    with pytest.raises(ForeignStoreError, match="empty"):
        Store.open(db)
    with Store.create_or_open(db, job) as s:
        assert s.job == job


def test_blank_database_left_by_a_crash_during_creation_is_initialised(db, job):
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode = WAL")  # what create does before its transaction
    conn.close()
    with pytest.raises(ForeignStoreError):
        Store.open(db)
    with Store.create_or_open(db, job) as s:
        s.record(make_result(0))
    with Store.open(db) as s:
        assert s.job == job and len(s) == 1


def _damage(path: Path, offset: int, length: int) -> None:
    with open(path, "r+b") as f:
        f.seek(offset)
        f.write(bytes([0xA5]) * length)


def test_damaged_store_is_refused_as_corrupt(db, job):
    with Store.create_or_open(db, job) as s:
        for u in range(N_UNITS):
            s.record(make_result(u, host="h" * 500))
    # close() checkpoints the WAL into the main file; now wreck the b-tree pages.
    size = db.stat().st_size
    assert size > 4 * 4096
    _damage(db, 2 * 4096, size - 3 * 4096)
    with pytest.raises(CorruptStoreError) as exc_info:
        Store.open(db)
    assert_one_line_naming(exc_info, db)


def test_truncated_store_is_refused_as_corrupt(db, job):
    with Store.create_or_open(db, job) as s:
        for u in range(N_UNITS):
            s.record(make_result(u, host="h" * 500))
    size = db.stat().st_size
    with open(db, "r+b") as f:
        f.truncate(size // 2)
    with pytest.raises(CorruptStoreError) as exc_info:
        Store.open(db)
    assert_one_line_naming(exc_info, db)


def test_store_written_by_a_newer_format_is_refused(db, job):
    Store.create_or_open(db, job).close()
    conn = sqlite3.connect(db)
    conn.execute("UPDATE meta SET value = ? WHERE key = 'format_version'", (str(FORMAT_VERSION + 1),))
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="newer") as exc_info:
        Store.open(db)
    assert_one_line_naming(exc_info, db)


def test_open_of_a_missing_file_says_no_such_database(tmp_path):
    missing = tmp_path / "nope.db"
    with pytest.raises(StoreError, match="no such database") as exc_info:
        Store.open(missing)
    assert_one_line_naming(exc_info, missing)
    assert not missing.exists()


def test_create_in_a_missing_directory_is_a_clear_error(tmp_path, job):
    path = tmp_path / "no" / "such" / "dir" / "job.db"
    with pytest.raises(StoreError, match="does not exist") as exc_info:
        Store.create_or_open(path, job)
    assert_one_line_naming(exc_info, path)


def test_a_directory_is_not_a_database(tmp_path, job):
    with pytest.raises(StoreError, match="directory"):
        Store.open(tmp_path)
    with pytest.raises(StoreError, match="directory"):
        Store.create_or_open(tmp_path, job)


def test_every_store_exception_is_a_store_error():
    for cls in (ForeignStoreError, CorruptStoreError, ConflictError):
        assert issubclass(cls, StoreError)


# ---------------------------------------------------------------------------
# Deleting a store (count --fresh)


def _side_files(db: Path) -> list[Path]:
    return [Path(f"{db}-wal"), Path(f"{db}-shm")]


def test_delete_removes_the_store_with_its_wal_and_shm_files(db, job):
    with Store.create_or_open(db, job) as s:
        s.record(make_result(0))
        assert all(p.exists() for p in _side_files(db))  # open in WAL mode
        assert Store.delete(db) == [db, *_side_files(db)]
    assert not db.exists() and not any(p.exists() for p in _side_files(db))
    with Store.create_or_open(db, job) as s:   # a new, empty store in its place
        assert len(s) == 0


def test_delete_of_a_store_left_by_kill_9_before_any_checkpoint(db, job):
    # the store's header is still in the -wal file only: copy the three
    # files while the store is open, as a killed process leaves them
    with Store.create_or_open(db, job) as s:
        s.record(make_result(0))
        copies = {p: p.read_bytes() for p in [db, *_side_files(db)]}
    for p, data in copies.items():
        p.write_bytes(data)
    with open(db, "rb") as f:
        assert int.from_bytes(f.read(72)[68:72], "big") == 0  # not in the main file yet
    assert Store.delete(db) == [db, *_side_files(db)]


def test_delete_refuses_a_foreign_database_whose_tables_are_still_in_its_wal(db):
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE people (name TEXT)")  # into the -wal file: the main
    conn.execute("INSERT INTO people VALUES ('ada')")  # file still looks blank
    conn.commit()
    copies = {p: p.read_bytes() for p in [db, *_side_files(db)]}
    conn.close()
    for p, data in copies.items():
        p.write_bytes(data)
    with pytest.raises(ForeignStoreError, match="not a gridcount store"):
        Store.delete(db)
    # its data is untouched (the -shm file is only SQLite's shared-memory index)
    assert db.read_bytes() == copies[db]
    assert Path(f"{db}-wal").read_bytes() == copies[Path(f"{db}-wal")]


def test_delete_accepts_a_damaged_store_and_what_a_killed_create_leaves(db, job):
    with Store.create_or_open(db, job) as s:
        for u in range(N_UNITS):
            s.record(make_result(u, host="h" * 500))
    _damage(db, 2 * 4096, db.stat().st_size - 3 * 4096)
    assert Store.delete(db) == [db]
    db.touch()                                  # empty file
    assert Store.delete(db) == [db]
    conn = sqlite3.connect(db)                  # blank database
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()
    assert Store.delete(db) == [db]


def test_delete_of_a_missing_store_removes_only_stray_side_files(db):
    assert Store.delete(db) == []
    for p in _side_files(db):
        p.write_bytes(b"stale")
    assert Store.delete(db) == _side_files(db)


def _foreign_sqlite_in_wal_mode(path: Path) -> None:
    _foreign_sqlite(path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()


@pytest.mark.parametrize("kind", [*FOREIGN_FILES, "foreign sqlite database in WAL mode"])
def test_delete_refuses_a_file_that_is_not_a_gridcount_store(db, kind):
    FOREIGN_FILES.get(kind, _foreign_sqlite_in_wal_mode)(db)
    before = db.read_bytes()
    with pytest.raises(ForeignStoreError, match="not a gridcount store") as exc_info:
        Store.delete(db)
    assert_one_line_naming(exc_info, db)
    assert db.read_bytes() == before
    assert not any(p.exists() for p in _side_files(db))      # nothing added beside it


def test_delete_refuses_a_directory(tmp_path):
    with pytest.raises(StoreError, match="directory"):
        Store.delete(tmp_path)
    assert tmp_path.is_dir()


# ---------------------------------------------------------------------------
# Write failures become StoreError


def test_disk_full_during_record_becomes_store_error_and_store_stays_usable(store, db):
    store.record(make_result(0))
    pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
    store._conn.execute(f"PRAGMA max_page_count = {pages}")  # simulate a full disk
    with pytest.raises(StoreError, match="disk full") as exc_info:
        store.record(make_result(1, host="x" * 50_000))
    message = assert_one_line_naming(exc_info, db)
    assert message.startswith(f"cannot write to {db}")
    assert not store._conn.in_transaction
    assert store.done_ids() == {0}
    store._conn.execute("PRAGMA max_page_count = 1073741823")
    assert store.record(make_result(1, host="x" * 50_000)) is True
    assert store.done_ids() == {0, 1}


def test_read_only_database_during_record_becomes_store_error(store, db):
    store._conn.execute("PRAGMA query_only = 1")
    with pytest.raises(StoreError, match="read-only") as exc_info:
        store.record(make_result(0))
    assert_one_line_naming(exc_info, db)
    assert len(store) == 0


def test_closed_store_raises_store_error(db, job):
    with Store.create_or_open(db, job) as s:
        pass
    s.close()  # idempotent
    with pytest.raises(StoreError, match="closed"):
        s.record(make_result(0))
    with pytest.raises(StoreError, match="closed"):
        len(s)


# ---------------------------------------------------------------------------
# Transactions


def test_atomic_rolls_back_everything_on_keyboard_interrupt(store):
    with pytest.raises(KeyboardInterrupt):
        with store.atomic():
            store.record(make_result(0))
            store.record(make_result(1))
            raise KeyboardInterrupt
    assert len(store) == 0
    assert not store._conn.in_transaction


def test_atomic_commits_all_records_together(store):
    with store.atomic():
        for u in range(5):
            store.record(make_result(u))
    assert store.done_ids() == set(range(5))


def test_failed_record_inside_atomic_rolls_back_only_itself(store):
    store.record(make_result(0, count=1))
    with store.atomic():
        store.record(make_result(1))
        with pytest.raises(ConflictError):
            store.record(make_result(0, count=2))
        store.record(make_result(2))
    assert store.done_ids() == {0, 1, 2}
    assert store.get(0).count == 1


def test_two_connections_can_record_into_one_store(db, job):
    with Store.create_or_open(db, job) as a, Store.create_or_open(db, job) as b:
        for u in range(0, N_UNITS, 2):
            a.record(make_result(u))
            b.record(make_result(u + 1))
        assert len(a) == len(b) == N_UNITS
    with Store.open(db) as s:
        assert s.remaining_ids() == []


# ---------------------------------------------------------------------------
# Merging


def test_merge_adds_missing_units_and_counts_identical_ones(tmp_path, job):
    with Store.create_or_open(tmp_path / "a.db", job) as a, Store.create_or_open(
        tmp_path / "b.db", replace(job, engine_version="2.0")
    ) as b:
        for u in (0, 1, 2):
            a.record(make_result(u))
        for u in (2, 3, 4):
            b.record(make_result(u, engine_version="2.0", host="worker-2"))
        report = a.merge_from(b)
        assert report == MergeReport(added=2, identical=1)
        assert a.done_ids() == {0, 1, 2, 3, 4}
        assert a.get(2).host == "worker-1"  # identical units keep our row
        assert a.get(3) == b.get(3)
        assert a.merge_from(b) == MergeReport(added=0, identical=3)


def test_merge_with_conflicts_lists_all_of_them_and_writes_nothing(tmp_path, job):
    with Store.create_or_open(tmp_path / "a.db", job) as a, Store.create_or_open(
        tmp_path / "b.db", job
    ) as b:
        for u in (0, 1, 2, 3):
            a.record(make_result(u, count=100 + u))
        b.record(make_result(1, count=999))
        b.record(make_result(2, count=102))
        b.record(make_result(3, count=BIG))
        b.record(make_result(7))  # would be added if there were no conflicts
        with pytest.raises(ConflictError) as exc_info:
            a.merge_from(b)
        message = str(exc_info.value)
        assert "\n" not in message and str(a.path) in message and str(b.path) in message
        assert "unit 1" in message and "999" in message and "101" in message
        assert "unit 3" in message and str(BIG) in message
        assert "unit 2" not in message
        assert exc_info.value.conflicts == [(1, 101, 999), (3, 103, BIG)]
        assert a.done_ids() == {0, 1, 2, 3}
        assert a.get(1).count == 101


@pytest.mark.parametrize(
    "field, value", [("shape", "2x3"), ("reduction", "44"), ("n_units", N_UNITS + 1)]
)
def test_merge_refuses_a_store_of_another_job(tmp_path, job, field, value):
    with Store.create_or_open(tmp_path / "a.db", job) as a, Store.create_or_open(
        tmp_path / "b.db", replace(job, **{field: value})
    ) as b:
        b.record(make_result(0))
        with pytest.raises(ForeignStoreError, match=field):
            a.merge_from(b)
        assert len(a) == 0


# ---------------------------------------------------------------------------
# Crash safety

KILL_N_UNITS = 2000  # enough that the child is still recording when it is killed

_CHILD = textwrap.dedent(
    """
    import sys
    from counting.store import JobInfo, Store
    from counting.units import UnitResult

    path, n = sys.argv[1], int(sys.argv[2])
    job = JobInfo(shape="3x3", reduction="71", engine_version="1.0", n_units=n)
    with Store.create_or_open(path, job) as store:
        print("ready", flush=True)
        for u in range(n):
            store.record(UnitResult(
                unit_id=u, class_id=u // 4, form_id=u % 4, count=2**64 + 17 * u,
                nodes=2**63 + u, dead_ends=3 * u, memo_hits=u, seconds=0.25 * u,
                host="worker-1", engine_version="1.0",
                finished_at=f"2026-01-01T00:00:{u % 60:02d}Z",
            ))
        print("finished", flush=True)
    """
)


def test_store_survives_kill_9(db):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(db), str(KILL_N_UNITS)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert child.stdout.readline().strip() == "ready"
        with Store.open(db) as watcher:
            deadline = time.monotonic() + 30
            while len(watcher) < KILL_N_UNITS // 10:
                assert time.monotonic() < deadline, "child recorded too slowly"
                assert child.poll() is None, "child exited early"
                time.sleep(0.002)
        os.kill(child.pid, signal.SIGKILL)
        assert child.wait(timeout=10) == -signal.SIGKILL
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        child.stdout.close()

    # Every committed unit is there, complete, once; the in-flight one is not.
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        n_rows, n_ids = conn.execute("SELECT count(*), count(DISTINCT unit_id) FROM units").fetchone()
        columns = [row[1] for row in conn.execute("PRAGMA table_info(units)")]
        incomplete = conn.execute(
            f"SELECT count(*) FROM units WHERE {' OR '.join(f'{c} IS NULL' for c in columns)}"
        ).fetchone()[0]
    finally:
        conn.close()
    assert 0 < n_rows < KILL_N_UNITS, "the kill did not land mid-run"
    assert n_rows == n_ids
    assert incomplete == 0

    job = JobInfo(shape="3x3", reduction="71", engine_version="1.0", n_units=KILL_N_UNITS)
    with Store.create_or_open(db, job) as store:
        done = store.done_ids()
        assert done == set(range(len(done)))  # recorded in order, so a prefix survives
        assert store.results() == [make_result(u) for u in sorted(done)]
        assert store.record(make_result(0)) is False
        for u in store.remaining_ids():
            assert store.record(make_result(u)) is True
        assert store.remaining_ids() == []
    with Store.open(db) as store:
        assert store.results() == [make_result(u) for u in range(KILL_N_UNITS)]
