"""Tests for counting/store/format.py: the file format of a store, the
checks that refuse every other file, row checksums, the migration from
format 1, and read-only opening.  (Through the :class:`Store` API where
that is how the format is used.)"""
from __future__ import annotations

import os
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from counting.store import format as fmt
from counting.store.database import (
    APPLICATION_ID,
    FORMAT,
    FORMAT_VERSION,
    ConflictError,
    CorruptStoreError,
    ForeignStoreError,
    Store,
    StoreError,
)

from store_samples import (N_UNITS, assert_one_line_naming, edit_row, make_job, make_result,
                           stored_row, write_format_1_store, write_store)

# The fixtures job, db and store are in conftest.py.


# ---------------------------------------------------------------------------
# What a new store holds


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
        "format_seal": fmt.format_seal(make_job(), FORMAT_VERSION),
    }


def _insert(db: Path, count: str = "5", checksum: str = "0123456789abcdef") -> None:
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        conn.execute("INSERT INTO units VALUES (1, 0, 1, ?, '0', '0', '0', 0.0, 'h', 'v', 't', "
                     "'w', ?)", (count, checksum))
    finally:
        conn.close()


def test_schema_only_accepts_canonical_decimal_counts(store, db):
    for bad in ("007", "", "-1", "1e5", "12a"):
        with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed: count"):
            _insert(db, count=bad)
    assert len(store) == 0


def test_schema_only_accepts_a_checksum_of_16_lower_case_hex_digits(store, db):
    for bad in ("", "0123456789abcde", "0123456789abcdef0", "0123456789ABCDEF", "0123456789abcdeg"):
        with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed: length"):
            _insert(db, checksum=bad)
    _insert(db)
    assert len(store) == 1



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
    write_store(db, job, [0])
    with Store.open(db) as s:
        assert s.job == job and len(s) == 1


def _damage(path: Path, offset: int, length: int) -> None:
    with open(path, "r+b") as f:
        f.seek(offset)
        f.write(bytes([0xA5]) * length)


def test_damaged_store_is_refused_as_corrupt(db, job):
    write_store(db, job, range(N_UNITS), host="h" * 500)
    # close() checkpoints the WAL into the main file; now wreck the b-tree pages.
    size = db.stat().st_size
    assert size > 4 * 4096
    _damage(db, 2 * 4096, size - 3 * 4096)
    with pytest.raises(CorruptStoreError) as exc_info:
        Store.open(db)
    assert_one_line_naming(exc_info, db)


def test_truncated_store_is_refused_as_corrupt(db, job):
    write_store(db, job, range(N_UNITS), host="h" * 500)
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


def test_delete_of_a_store_left_by_kill_9_before_any_checkpoint(db, job, monkeypatch):
    # the store's header is still in the -wal file only (killed before the
    # checkpoint that follows its creation): copy the three files while the
    # store is open, as a killed process leaves them
    monkeypatch.setattr(Store, "checkpoint", lambda self: None)
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
    write_store(db, job, range(N_UNITS), host="h" * 500)
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
# Row checksums


def test_the_checksum_covers_every_column_and_the_job(job):
    row = stored_row(make_result(3))
    base = fmt.row_checksum(job, row)
    assert len(base) == fmt.CHECKSUM_DIGITS and base == fmt.row_checksum(job, list(row))
    changed = {fmt.row_checksum(job, row[:i] + (v,) + row[i + 1:])
               for i, v in enumerate([4, 1, 1, "1", "2", "3", "4", 0.5, "h", "2.0", "t", "w"])}
    assert base not in changed and len(changed) == len(row) == len(fmt.COLUMNS)
    for field, value in (("shape", "2x3"), ("reduction", "44"), ("n_units", N_UNITS + 1)):
        assert fmt.row_checksum(replace(job, **{field: value}), row) != base
    # not the job's engine version: rows of stores of one job move between engines
    assert fmt.row_checksum(replace(job, engine_version="2.0"), row) == base


def test_the_checksum_separates_the_fields(job):
    # the same characters, split differently between host and engine_version
    a = stored_row(make_result(3, host="ab", engine_version="c"))
    b = stored_row(make_result(3, host="a", engine_version="bc"))
    assert fmt.row_checksum(job, a) != fmt.row_checksum(job, b)


def test_a_stored_row_carries_the_checksum_of_its_fields(store, db, job):
    store.record(make_result(7))
    conn = sqlite3.connect(db)
    (checksum,) = conn.execute("SELECT checksum FROM units WHERE unit_id = 7").fetchone()
    conn.close()
    assert checksum == fmt.row_checksum(job, stored_row(make_result(7)))


# ---------------------------------------------------------------------------
# Stores of format 1


def _markers(db: Path) -> tuple[int, str, list[str]]:
    conn = sqlite3.connect(db)
    try:
        return (conn.execute("PRAGMA user_version").fetchone()[0],
                conn.execute("SELECT value FROM meta WHERE key = 'format_version'").fetchone()[0],
                [row[1] for row in conn.execute("PRAGMA table_info(units)")])
    finally:
        conn.close()


def _format_1_results():
    return [make_result(u, worker="") for u in (0, 1, 5)]


def test_a_format_1_store_is_read_as_it_is(db, job):
    write_format_1_store(db, job, _format_1_results())
    before = db.read_bytes()
    with Store.open(db) as s:
        assert s.format_version == 1 and s.results() == _format_1_results()
    assert db.read_bytes() == before and _markers(db)[:2] == (1, "1")


@pytest.mark.parametrize("opener", ["create_or_open", "open writable"])
def test_a_format_1_store_is_migrated_when_opened_for_writing(db, job, opener):
    write_format_1_store(db, job, _format_1_results())
    with (Store.create_or_open(db, job) if opener == "create_or_open"
          else Store.open(db, writable=True)) as s:
        assert s.format_version == FORMAT_VERSION == 2
        assert s.results() == _format_1_results()
        s.record(make_result(6))
    assert _markers(db) == (2, "2", [*fmt.COLUMNS, "checksum"])
    with Store.open(db) as s:
        assert s.results() == sorted([*_format_1_results(), make_result(6)],
                                     key=lambda r: r.unit_id)
    edit_row(db, 5, count="1")              # from now on, a hand edit is caught
    with Store.open(db) as s, pytest.raises(CorruptStoreError, match="unit 5 in"):
        s.results()


def test_a_migration_that_fails_leaves_the_format_1_store_as_it_was(db, job, monkeypatch):
    write_format_1_store(db, job, _format_1_results())
    real, calls = fmt.row_checksum, []

    def fails_on_the_third_row(job, row):
        calls.append(row[0])
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(job, row)
    monkeypatch.setattr(fmt, "row_checksum", fails_on_the_third_row)
    with pytest.raises(KeyboardInterrupt):
        Store.create_or_open(db, job)
    monkeypatch.undo()
    assert calls == [0, 1, 5]
    assert _markers(db) == (1, "1", list(fmt.COLUMNS[:-1]))
    with Store.open(db) as s:
        assert s.results() == _format_1_results()


# ---------------------------------------------------------------------------
# Opening for reading only


def test_opening_for_reading_creates_nothing_beside_the_store(db, job):
    write_store(db, job, [0])
    assert sorted(os.listdir(db.parent)) == [db.name]
    with Store.open(db) as s:
        assert s.results() == [make_result(0)]
        assert sorted(os.listdir(db.parent)) == [db.name]


def test_opening_for_reading_sees_the_units_a_running_count_has_not_checkpointed(db, job):
    with Store.create_or_open(db, job) as writer:
        writer.record(make_result(0))
        assert Path(f"{db}-wal").is_file()
        with Store.open(db) as reader:
            assert reader.done_ids() == {0}
            writer.record(make_result(1))
            assert reader.get(1) == make_result(1)


def test_a_store_whose_shm_file_cannot_be_created_can_still_be_read(tmp_path, db, job):
    write_store(db, job, [0])
    Path(f"{db}-shm").mkdir()       # as a read-only directory would: no -shm can be made
    with Store.open(db) as s:
        assert s.results() == [make_result(0)]
    assert sorted(os.listdir(tmp_path)) == [db.name, f"{db.name}-shm"]    # and no -wal


def test_a_disk_io_error_asks_whether_the_disk_is_full():
    # SQLite reports a write that ran out of space in the -wal file as a
    # disk I/O error as often as SQLITE_FULL
    assert fmt.reason(sqlite3.OperationalError("disk I/O error")) == \
        "disk I/O error (is the disk full?)"
    assert fmt.reason(sqlite3.OperationalError("database or disk is full")) == "disk full"


def _multi_line_damage(db: Path) -> bytes:
    """A copy of ``db`` damaged so that SQLite's quick_check reports its
    problem in several lines (found by trying a few byte patterns on each
    page: where each lands depends on SQLite's page layout)."""
    original = db.read_bytes()
    conn = sqlite3.connect(db)
    try:
        meta = conn.execute("SELECT key, value FROM meta").fetchall()
    finally:
        conn.close()
    for page in range(1, len(original) // 4096):
        for offset, pattern in ((8, b"\xff" * 4), (0, b"\x0d"), (5, b"\x00\x01")):
            at = page * 4096 + offset
            damaged = original[:at] + pattern + original[at + len(pattern):]
            db.write_bytes(damaged)
            conn = sqlite3.connect(db)
            try:   # the header and meta still read whole: the store is opened up to quick_check
                if conn.execute("SELECT key, value FROM meta").fetchall() != meta:
                    continue   # meta damaged: refused before quick_check, as another case
                first = conn.execute("PRAGMA quick_check").fetchone()[0]
            except sqlite3.DatabaseError:
                continue
            finally:
                conn.close()
            if "\n" in first:
                return damaged
    pytest.fail("no damage made quick_check report several lines")


def test_a_store_that_quick_check_finds_damaged_is_refused_in_one_line(db, job):
    # issue 38.10: the refusal quoted quick_check's report of several lines
    write_store(db, job, range(N_UNITS), host="h" * 500)
    _multi_line_damage(db)
    with pytest.raises(CorruptStoreError, match="quick_check: ") as exc_info:
        Store.open(db)
    message = assert_one_line_naming(exc_info, db)
    assert "*** in database" not in message
