"""Tests for counting/store/database.py: the resumable SQLite store of finished units."""
from __future__ import annotations

import sqlite3
import textwrap
from dataclasses import replace

import pytest

from counting.store.database import (
    ConflictError,
    CorruptStoreError,
    ForeignStoreError,
    JobInfo,
    MergeReport,
    Store,
    StoreError,
)

from store_samples import (BIG, N_UNITS, assert_one_line_naming, edit_row, make_job,
                           kill_9_once_stored, make_result, write_store)

# The fixtures job, db and store are in conftest.py.


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
    write_store(db, job, (0, 1, 2, 10))
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
# Every row read is checked


@pytest.mark.parametrize("column, value", [
    ("count", str(2**64 + 17 * 3 + 1)), ("class_id", 9), ("form_id", 0), ("nodes", "1"),
    ("dead_ends", "10"), ("memo_hits", "4"), ("seconds", 0.5), ("host", "worker-2"),
    ("engine_version", "2.0"), ("finished_at", "2026-01-02T00:00:03Z"), ("worker", ""),
    ("checksum", "0" * 16),
])
def test_a_row_edited_by_hand_is_refused_naming_its_unit(db, job, column, value):
    write_store(db, job, (2, 3, 4))
    edit_row(db, 3, **{column: value})
    for opener in (Store.open, lambda p: Store.create_or_open(p, job)):
        with opener(db) as s:
            for read in (s.results, lambda: s.get(3)):
                with pytest.raises(CorruptStoreError) as exc_info:
                    read()
                message = assert_one_line_naming(exc_info, db)
                assert message.startswith(f"unit 3 in {db} is damaged or was edited")
                assert 'DELETE FROM units WHERE unit_id = 3' in message
            assert s.get(2) == make_result(2) and s.done_ids() == {2, 3, 4}


def test_a_row_copied_into_a_store_of_another_job_is_refused(tmp_path, job):
    other = replace(job, n_units=N_UNITS + 1)   # same shape and reduction, other units
    for path, j in ((tmp_path / "a.db", job), (tmp_path / "b.db", other)):
        write_store(path, j, [1])
    conn = sqlite3.connect(tmp_path / "b.db")
    with conn:
        conn.execute("ATTACH ? AS a", (str(tmp_path / "a.db"),))
        conn.execute("UPDATE units SET checksum = (SELECT checksum FROM a.units WHERE unit_id = 1)")
    conn.close()
    with Store.open(tmp_path / "b.db") as s, pytest.raises(CorruptStoreError, match="unit 1 in"):
        s.results()


def test_a_row_outside_the_job_is_refused_by_every_read(db, job):
    write_store(db, job, [0])
    edit_row(db, 0, unit_id=N_UNITS)
    with Store.open(db) as s:
        for read in (s.results, s.done_ids, s.remaining_ids, lambda: s.get(N_UNITS)):
            with pytest.raises(CorruptStoreError) as exc_info:
                read()
            message = assert_one_line_naming(exc_info, db)
            assert f"holds a row for unit {N_UNITS}, outside range({N_UNITS})" in message


def test_record_over_a_damaged_row_is_refused_and_changes_nothing(store, db):
    store.record(make_result(5, count=50))
    edit_row(db, 5, count="51")
    for count in (50, 51, 52):
        with pytest.raises(CorruptStoreError, match="unit 5 in"):
            store.record(make_result(5, count=count))
    assert len(store) == 1


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
    write_store(db, job, [0])
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
# Write failures become StoreError


def test_disk_full_during_record_becomes_store_error_and_store_stays_usable(store, db):
    store.record(make_result(0))
    store.pragma("max_page_count", store.pragma("page_count"))  # simulate a full disk
    with pytest.raises(StoreError, match="disk full") as exc_info:
        store.record(make_result(1, host="x" * 50_000))
    message = assert_one_line_naming(exc_info, db)
    assert message.startswith(f"cannot write to {db}")
    assert not store.in_transaction
    assert store.done_ids() == {0}
    store.pragma("max_page_count", 1073741823)
    assert store.record(make_result(1, host="x" * 50_000)) is True
    assert store.done_ids() == {0, 1}


def test_read_only_database_during_record_becomes_store_error(store, db):
    assert store.pragma("query_only", 1) == 1
    with pytest.raises(StoreError, match="read-only") as exc_info:
        store.record(make_result(0))
    assert_one_line_naming(exc_info, db)
    assert len(store) == 0


def test_a_store_opened_for_reading_refuses_every_write(store, db):
    store.record(make_result(0))
    with Store.open(db) as reader:
        assert reader.read_only and reader.get(0) == make_result(0)
        for write in (lambda: reader.record(make_result(1)),
                      lambda: reader.merge_from(store)):
            with pytest.raises(StoreError, match="opened read-only") as exc_info:
                write()
            assert_one_line_naming(exc_info, db)
    with Store.open(db, writable=True) as writer:
        assert writer.record(make_result(1)) is True
    assert store.done_ids() == {0, 1}


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
            assert store.in_transaction
            raise KeyboardInterrupt
    assert len(store) == 0
    assert not store.in_transaction


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
        assert "unit 3" in message and f"{BIG:,}" in message     # counts: separators
        assert "unit 2" not in message
        assert exc_info.value.conflicts == [(1, 101, 999), (3, 103, BIG)]
        assert a.done_ids() == {0, 1, 2, 3}
        assert a.get(1).count == 101


def test_merge_all_writes_nothing_when_a_later_source_disagrees(tmp_path, job):
    paths = [tmp_path / f"{name}.db" for name in ("t", "a", "b")]
    target, a, b = (Store.create_or_open(p, job) for p in paths)
    with target, a, b:
        target.record(make_result(0, count=10))
        a.record(make_result(1, count=11))
        a.record(make_result(2, count=12))
        b.record(make_result(0, count=10))
        b.record(make_result(2, count=99))      # disagrees with a, not with the target
        with pytest.raises(ConflictError) as exc_info:
            target.merge_all([a, b])
        message = str(exc_info.value)
        assert message.startswith(f"cannot merge {b.path} into {target.path}: 1 unit(s) disagree "
                                  f"(unit 2: 12 in {a.path} vs 99 there); nothing was merged")
        assert exc_info.value.conflicts == [(2, 12, 99)]
        assert target.done_ids() == {0}                     # not even a's units
        assert target.merge_all([a]) == [MergeReport(added=2, identical=0)]


def test_merge_all_reports_each_source(tmp_path, job):
    paths = [tmp_path / f"{name}.db" for name in ("t", "a", "b")]
    target, a, b = (Store.create_or_open(p, job) for p in paths)
    with target, a, b:
        for u in (0, 1):
            a.record(make_result(u))
        for u in (1, 2, 3):
            b.record(make_result(u, host="worker-2"))
        assert target.merge_all([a, b]) == [MergeReport(added=2, identical=0),
                                            MergeReport(added=2, identical=1)]
        assert target.get(1) == make_result(1) and target.get(3) == b.get(3)


def test_merge_never_passes_on_a_damaged_row(tmp_path, job):
    write_store(tmp_path / "a.db", job, (0, 1))
    edit_row(tmp_path / "a.db", 1, count="7")
    with Store.create_or_open(tmp_path / "t.db", job) as target, Store.open(tmp_path / "a.db") as a:
        with pytest.raises(CorruptStoreError, match=f"unit 1 in {tmp_path / 'a.db'}"):
            target.merge_from(a)
        assert len(target) == 0


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

KILL_N_UNITS = 2000  # the child records all but the last and waits; killed on the way

_CHILD = textwrap.dedent(
    """
    import sys
    import time
    from counting.store.database import Store
    from store_samples import make_job, make_result

    path, n = sys.argv[1], int(sys.argv[2])
    with Store.create_or_open(path, make_job(n)) as store:
        print("ready", flush=True)
        for u in range(n - 1):
            store.record(make_result(u))
        time.sleep(3600)    # the last unit never comes: the kill lands before the end
        print("finished", flush=True)
    """
)


@pytest.mark.slow
def test_store_survives_kill_9(db, job):
    kill_9_once_stored(_CHILD, db, KILL_N_UNITS, at_least=KILL_N_UNITS // 10)

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

    with Store.create_or_open(db, replace(job, n_units=KILL_N_UNITS)) as store:
        done = store.done_ids()
        assert done == set(range(len(done)))  # recorded in order, so a prefix survives
        assert store.results() == [make_result(u) for u in sorted(done)]
        assert store.record(make_result(0)) is False
        for u in store.remaining_ids():
            assert store.record(make_result(u)) is True
        assert store.remaining_ids() == []
    with Store.open(db) as store:
        assert store.results() == [make_result(u) for u in range(KILL_N_UNITS)]


def test_a_merge_conflict_counts_its_units_and_their_counts_with_separators(tmp_path):
    # unit ids are labels and stay bare; the number of units and the counts get separators
    job = make_job(1_000)
    target, other = (Store.create_or_open(tmp_path / f"{n}.db", job) for n in ("t", "o"))
    with target, other:
        for u in range(1_000):
            target.record(make_result(u, count=1_000 + u))
            other.record(make_result(u, count=2_000 + u))
        with pytest.raises(ConflictError) as exc_info:
            target.merge_all([other])
    message = str(exc_info.value)
    assert ": 1,000 unit(s) disagree (unit 0: 1,000 here vs 2,000 there, " in message
    assert "unit 999: 1,999 here vs 2,999 there); nothing was merged" in message


def test_a_pragma_is_read_and_set_through_the_store_and_its_name_checked(store):
    assert store.pragma("query_only") == 0
    assert store.pragma("query_only", 1) == 1 and store.pragma("query_only") == 1
    with pytest.raises(ValueError, match="'query_only = 0; x' is not one of the store's pragmas"):
        store.pragma("query_only = 0; x")


@pytest.mark.parametrize("name", ["user_version", "application_id", "journal_mode"])
def test_a_pragma_that_would_change_what_the_file_is_is_refused_and_changes_nothing(store, name):
    with pytest.raises(ValueError, match=f"'{name}' is not one of the store's pragmas"):
        store.pragma(name, 99)
    path = store.path
    store.close()
    Store.open(path).close()            # still this gridcount's store, of its format
