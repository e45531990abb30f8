"""Per-worker statistics of a Dask run (counting/run/dask_stats.py)."""
from counting.run.dask_stats import WorkerStats, add_result, describe_workers, per_worker_rows


def test_workers_are_named_by_address_and_a_restart_says_whom_it_replaced():
    # a nanny restarts a dead worker under its old name at a new address:
    # two rows both called "worker 0" were two different processes
    stats = {}
    for count, seconds, address, name in [(10, 1.0, "tcp://h:1", "0"), (20, 2.0, "tcp://h:2", "1"),
                                          (20, 2.0, "tcp://h:1", "0"), (10, 1.0, "tcp://h:3", "0")]:
        add_result(stats, count, seconds, address, name)
    assert per_worker_rows(stats) == [
        ("worker tcp://h:1", "2 units, 3.0 s, 10 sol/s"),
        ("worker tcp://h:2", "1 units, 2.0 s, 10 sol/s"),
        ("worker tcp://h:3", "1 units, 1.0 s, 10 sol/s; replaced tcp://h:1")]
    assert stats["tcp://h:3"].as_json()["replaces"] == "tcp://h:1"
    assert describe_workers(2, stats) == \
        "2 at the start, 3 counted units (1 replaced a lost worker)"


def test_the_workers_entry_is_a_plain_number_when_nobody_joined_or_was_replaced():
    stats = {a: WorkerStats(a, "0" if a.endswith("1") else "1", 1, 1, 1.0)
             for a in ("tcp://h:1", "tcp://h:2")}
    assert describe_workers(2, stats) == "2"
    assert describe_workers(3, stats) == "3"          # a worker that counted nothing
    assert describe_workers(1, stats) == "1 at the start, 2 counted units"   # one joined later


def test_a_worker_named_by_its_address_is_never_taken_for_a_restart():
    stats = {}
    for address in ("tcp://h:1", "tcp://h:2"):
        add_result(stats, 1, 1.0, address, address)   # dask worker's default name
    add_result(stats, 1, 1.0, "tcp://h:3", "?")
    add_result(stats, 1, 1.0, "tcp://h:4", "?")       # name unknown
    assert all(w.replaces is None for w in stats.values())


def test_units_a_kernel_counted_give_no_solutions_per_second():
    # a 1x10 unit's "solutions" are about 10^30 a second: counted, not searched
    stats = {}
    add_result(stats, 10**30, 1.0, "tcp://h:1", "0", searched=False)
    add_result(stats, 10**30, 1.0, "tcp://h:2", "1", searched=False)
    add_result(stats, 30, 3.0, "tcp://h:2", "1", searched=True)
    assert per_worker_rows(stats) == [
        ("worker tcp://h:1", "1 units, 1.0 s, —"),
        ("worker tcp://h:2", "2 units, 4.0 s, 10 sol/s")]     # the searched unit's rate
