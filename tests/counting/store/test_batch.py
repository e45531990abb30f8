"""Units committed in batches (counting/store/batch.py): when a batch
commits, that leaving it commits what it holds however the block ends, that
a refused unit costs the others nothing, and that ``kill -9`` loses at most
the batch and never stores a unit twice."""
import sqlite3
import textwrap
from dataclasses import replace

import pytest

from counting.store.batch import UNITS, WORK_SECONDS, Batch
from counting.store.database import ConflictError, Store

from store_samples import kill_9_once_stored, make_job, make_result

NEVER = float("inf")


def quick(unit_id: int, **changes):
    """A result whose count took no time (only the number of units decides)."""
    return make_result(unit_id, seconds=0.0, **changes)


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def committed(db) -> int:
    with Store.open(db) as reader:
        return len(reader)


def test_a_batch_commits_when_it_holds_its_number_of_units(store, db):
    batch = Batch(store, units=5, work_seconds=NEVER, wait_seconds=NEVER)
    for u in range(4):
        batch.add(quick(u))
    assert committed(db) == 0 and len(batch.held) == 4
    batch.add(quick(4))
    assert committed(db) == 5 and batch.held == [] and batch.commits == 1


def test_a_batch_commits_when_its_units_took_its_work_seconds(store, db):
    batch = Batch(store, units=100, work_seconds=1.0, wait_seconds=NEVER)
    batch.add(make_result(1, seconds=0.6))
    assert committed(db) == 0
    batch.add(make_result(2, seconds=0.4))
    assert committed(db) == 2


def test_a_unit_that_comes_in_after_a_pause_is_committed_at_once(store, db):
    clock = Clock()
    batch = Batch(store, units=100, work_seconds=NEVER, wait_seconds=1.0, clock=clock)
    clock.now = 0.5
    batch.add(quick(0))
    assert committed(db) == 0
    clock.now = 1.0
    batch.add(quick(1))
    assert committed(db) == 2
    clock.now = 1.9
    batch.add(quick(2))
    assert committed(db) == 2      # the wait counts from the last commit
    clock.now = 2.0
    batch.add(quick(3))
    assert committed(db) == 4


@pytest.mark.parametrize("stop", [None, KeyboardInterrupt, RuntimeError])
def test_leaving_the_block_commits_what_it_holds_however_it_ends(store, db, stop):
    with pytest.raises(stop) if stop else _nothing():
        with Batch(store, units=100, work_seconds=NEVER, wait_seconds=NEVER) as batch:
            batch.add(quick(0))
            batch.add(quick(1))
            if stop:
                raise stop()
    assert store.results() == [quick(0), quick(1)]


def test_each_unit_is_recorded_once_and_checksummed_as_record_does(store, db):
    with Batch(store, units=3) as batch:
        for u in range(7):
            batch.add(quick(u))
    assert store.results() == [quick(u) for u in range(7)]   # read back through the checksums
    with Batch(store) as batch:
        batch.add(quick(3))            # the same count again: nothing changes
    assert len(store) == 7


def test_a_refused_unit_costs_the_others_nothing(store, db):
    store.record(quick(1))
    batch = Batch(store, units=100, work_seconds=NEVER, wait_seconds=NEVER)
    batch.add(quick(0))
    batch.add(quick(1, count=5))      # another count of a stored unit
    batch.add(quick(2))
    with pytest.raises(ConflictError, match="unit 1"):
        batch.commit()
    assert store.done_ids() == {0, 1, 2}
    assert store.get(1) == quick(1)
    assert batch.held == []


def test_the_limits_are_those_the_guarantee_states():
    # README ("Long jobs") and docs/store.md say: at most 32 units, under a second of counting
    assert (UNITS, WORK_SECONDS) == (32, 1.0)


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


# ---------------------------------------------------------------------------
# kill -9

KILL_N_UNITS = 3000
KILL_BATCH = 7

_CHILD = textwrap.dedent(
    """
    import sys
    import time
    from dataclasses import replace
    from counting.store.batch import Batch
    from counting.store.database import Store
    from store_samples import make_job, make_result

    path, n, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    with Store.create_or_open(path, make_job(n)) as store:
        print("ready", flush=True)
        batch = Batch(store, units=size, work_seconds=float("inf"), wait_seconds=float("inf"))
        for u in range(n):
            batch.add(replace(make_result(u), seconds=0.0))
            print(u + 1, flush=True)       # units handed to the batch so far
        time.sleep(3600)    # the last batch is never committed: the kill lands before the end
        batch.commit()
        print("finished", flush=True)
    """
)


def test_kill_9_loses_at_most_the_batch_and_never_stores_a_unit_twice(db):
    handed = kill_9_once_stored(_CHILD, db, KILL_N_UNITS, KILL_BATCH,
                                at_least=KILL_N_UNITS // 10)
    assert "finished" not in handed, "the kill did not land mid-run"
    last_handed = int(handed[-1]) if handed else KILL_N_UNITS // 10

    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        n_rows, n_ids = conn.execute(
            "SELECT count(*), count(DISTINCT unit_id) FROM units").fetchone()
    finally:
        conn.close()
    assert n_rows == n_ids                      # never a unit twice
    assert n_rows % KILL_BATCH == 0             # whole batches, all their units or none
    # every batch the child had filled before its last line is in: the loss is the batch
    assert n_rows >= last_handed // KILL_BATCH * KILL_BATCH
    assert n_rows < KILL_N_UNITS

    with Store.create_or_open(db, make_job(KILL_N_UNITS)) as store:
        done = store.done_ids()
        assert done == set(range(len(done)))
        assert store.results() == [quick(u) for u in sorted(done)]
        with Batch(store) as batch:             # the next run counts the rest
            for u in store.remaining_ids():
                batch.add(quick(u))
    with Store.open(db) as store:
        assert store.results() == [quick(u) for u in range(KILL_N_UNITS)]
