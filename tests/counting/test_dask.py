"""Counting units on a Dask cluster (counting/dask_pool.py).

Clusters here are LocalClusters on the loopback interface: two worker
processes of one thread each, closed by the fixtures.  The tests that need
``distributed`` skip cleanly without it (``.ci/run`` installs the extra).
"""
import logging
import os
import signal
import socket
import sys
import time

import pytest

from counting import dask_pool, pool
from counting.reduction import get_reduction
from counting.dask_pool import (DaskUnavailable, EngineMismatch, Scheduler, SchedulerUnreachable,
                                parse_scheduler)
from counting.job import Job
from counting.options import CountOptions
from counting.store import Store
from counting.unit_count import count_unit

N_UNITS = 8  # 3x3 units counted through the clusters (about 0.5 s each)
DEFAULT = CountOptions()


def run_units_dask(specs, *, scheduler, options=DEFAULT, **kwargs):
    """:func:`counting.dask_pool.run_units_dask`, with the default options
    unless a test gives others."""
    return dask_pool.run_units_dask(specs, scheduler=scheduler, options=options, **kwargs)


@pytest.fixture(scope="module")
def distributed():
    return pytest.importorskip("distributed", reason="distributed is not installed "
                               "(pip install 'gridcount[dask]')")


def _local_cluster(distributed):
    return distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                    host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                    scheduler_kwargs={"dashboard": False},
                                    silence_logs=logging.ERROR)


@pytest.fixture(scope="module")
def cluster(distributed):
    with _local_cluster(distributed) as c:
        yield c


@pytest.fixture(scope="module")
def specs():
    return get_reduction("3x3", "71").units()[:N_UNITS]


@pytest.fixture(scope="module")
def reference(specs):
    """The local pool's counts of ``specs`` (in this process)."""
    return {r.unit_id: r.count for r in pool.run_units(specs, workers=1, options=DEFAULT)}


# ---------------------------------------------------------------------------
# without a cluster

@pytest.mark.parametrize("text, expected", [
    ("local", Scheduler("local")),
    ("local:3", Scheduler("local", n_workers=3)),
    (" tcp://127.0.0.1:8786 ", Scheduler("tcp", address="tcp://127.0.0.1:8786")),
    ("tcp://head-node:8786", Scheduler("tcp", address="tcp://head-node:8786")),
    ("tcp://[::1]:8786", Scheduler("tcp", address="tcp://[::1]:8786")),
])
def test_parse_scheduler_accepts_tcp_and_local(text, expected):
    assert parse_scheduler(text) == expected


@pytest.mark.parametrize("text, message", [
    ("", "empty scheduler address"),
    ("local:0", "local:N needs a worker count N >= 1"),
    ("local:two", "local:N needs a worker count N >= 1"),
    ("127.0.0.1:8786", "did you mean tcp://127.0.0.1:8786?"),
    ("tls://127.0.0.1:8786", "use tcp://HOST:PORT, local or local:N"),
    ("tcp://127.0.0.1", "needs a host and a port"),
    ("tcp://:8786", "needs a host and a port"),
    ("tcp://127.0.0.1:99999", "bad port"),
    ("tcp://127.0.0.1:8786/x", "unexpected parts"),
])
def test_parse_scheduler_rejects_other_text_with_one_clear_line(text, message):
    with pytest.raises(ValueError, match=message) as e:
        parse_scheduler(text)
    assert "\n" not in str(e.value)


def test_without_distributed_the_error_says_how_to_install(monkeypatch, specs):
    monkeypatch.setitem(sys.modules, "distributed", None)   # makes the import fail
    with pytest.raises(DaskUnavailable, match=r"pip install 'gridcount\[dask\]'") as e:
        run_units_dask(specs, scheduler="local:1")
    assert isinstance(e.value, ImportError)


def test_a_result_from_another_engine_is_refused(specs):
    res = count_unit(specs[0])
    dask_pool._check_engine(res, "tcp://127.0.0.1:1")                 # same engine: fine
    other = type(res)(**{**res.as_dict(), "engine_version": "some-other-engine"})
    with pytest.raises(EngineMismatch, match="same gridcount wheel"):
        dask_pool._check_engine(other, "tcp://127.0.0.1:1")


# ---------------------------------------------------------------------------
# through a LocalCluster

def test_3x3_units_on_a_cluster_match_the_local_pool(cluster, specs, reference):
    run = run_units_dask(specs, scheduler=cluster.scheduler_address)
    assert run.n_workers == 2 and run.notes == []
    results = list(run)
    got = [(r.unit_id, r.count) for r in results]
    assert sorted(got) == sorted(reference.items())          # each unit once, same count
    assert sum(w.units for w in run.per_worker.values()) == len(specs)
    assert sum(w.unit_solutions for w in run.per_worker.values()) == sum(reference.values())
    assert sum(w.seconds for w in run.per_worker.values()) == \
        pytest.approx(sum(r.seconds for r in results))
    rows = run.per_worker_rows()
    assert len(rows) == len(run.per_worker) and all(k.startswith("worker ") for k, _ in rows)


def test_2x3_units_on_a_cluster_match_the_local_pool(cluster):
    try:
        specs = get_reduction("2x3").units()            # the shape's default reduction
    except ValueError as e:
        pytest.skip(f"no 2x3 units yet ({e})")
    alone = {r.unit_id: r.count for r in pool.run_units(specs, workers=1, options=DEFAULT)}
    on_cluster = {r.unit_id: r.count for r in run_units_dask(
        specs, scheduler=cluster.scheduler_address)}
    assert on_cluster == alone


def test_the_options_reach_the_workers(cluster):
    specs = get_reduction("2x3", "moves").units()
    memo = list(run_units_dask(specs, scheduler=cluster.scheduler_address))
    plain = list(run_units_dask(specs, scheduler=cluster.scheduler_address,
                                options=CountOptions(memo=False)))
    assert sorted((r.unit_id, r.count) for r in memo) == sorted((r.unit_id, r.count) for r in plain)
    assert all(r.memo_hits > 0 for r in memo)
    assert all(r.memo_hits == 0 for r in plain)


def test_local_scheduler_starts_and_closes_its_own_cluster(specs, reference, distributed):
    run = run_units_dask(specs[:2], scheduler="local:2")
    cluster = run._conn.cluster
    assert run.n_workers == 2 and run.address.startswith("tcp://127.0.0.1:")
    assert {r.unit_id: r.count for r in run} == {s.unit_id: reference[s.unit_id]
                                                 for s in specs[:2]}
    assert run._conn.client.status == "closed"
    assert cluster.status.name in ("closing", "closed")   # closing: a loaded machine


def test_stopping_early_cancels_the_outstanding_units(cluster, specs, distributed):
    with distributed.Client(cluster.scheduler_address, set_as_default=False) as watcher:
        run = run_units_dask(specs, scheduler=cluster.scheduler_address)
        first = next(run)
        run.close()
        assert first.unit_id in {s.unit_id for s in specs}
        assert run._conn.client.status == "closed"
        deadline = time.monotonic() + 10
        while watcher.run_on_scheduler(_n_tasks) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert watcher.run_on_scheduler(_n_tasks) == 0


def test_dropping_a_run_closes_its_client(cluster, specs):
    # job.run_count may leave its loop by an exception from its own body
    run = run_units_dask(specs[:3], scheduler=cluster.scheduler_address)
    next(run)
    client = run._conn.client
    del run
    assert client.status == "closed"


def _n_tasks(dask_scheduler):
    return len(dask_scheduler.tasks)


def test_units_already_given_twice_are_counted_once(cluster, specs, reference):
    got = [r.unit_id for r in run_units_dask([specs[0], specs[0]],
                                             scheduler=cluster.scheduler_address)]
    assert got == [specs[0].unit_id]


def test_no_units_connects_to_nothing(distributed):
    # a closed port: connecting would fail
    assert list(run_units_dask([], scheduler=f"tcp://127.0.0.1:{_free_port()}")) == []


def test_a_worker_with_another_engine_fails_before_counting(cluster, specs, monkeypatch):
    monkeypatch.setattr(dask_pool, "ENGINE_VERSION", "client-engine")
    with pytest.raises(EngineMismatch, match="has engine .* but this client has engine "
                                             "'client-engine'") as e:
        run_units_dask(specs[:1], scheduler=cluster.scheduler_address)
    assert "\n" not in str(e.value)


def test_a_mismatching_result_is_never_yielded(cluster, specs, monkeypatch):
    # a worker that joined after the check: only the per-result check sees it
    monkeypatch.setattr(dask_pool, "_check_workers", lambda client, workers: [])
    monkeypatch.setattr(dask_pool, "ENGINE_VERSION", "client-engine")
    run = run_units_dask(specs[:2], scheduler=cluster.scheduler_address)
    with pytest.raises(EngineMismatch, match="counted unit .* with engine"):
        next(run)
    assert run._conn.client.status == "closed"


def test_killing_a_worker_mid_run_still_gives_a_complete_store(distributed, specs, reference,
                                                               tmp_path):
    with _local_cluster(distributed) as cluster, \
            distributed.Client(cluster.scheduler_address, set_as_default=False) as watcher:
        pids = watcher.run(os.getpid)
        arrived, killed = [], None
        with Store.create_or_open(tmp_path / "k.sqlite", Job.load("3x3", "71").info()) as store:
            for res in run_units_dask(specs, scheduler=cluster.scheduler_address):
                assert store.record(res)                     # never a unit twice
                arrived.append(res.unit_id)
                if killed is None:
                    busy = {a: keys for a, keys in watcher.processing().items() if keys}
                    assert busy, "no unit in flight to kill a worker under"
                    killed = pids[sorted(busy)[0]]
                    os.kill(killed, signal.SIGKILL)
            assert sorted(arrived) == sorted(reference)
            assert {r.unit_id: r.count for r in store.results()} == reference
        with pytest.raises(ProcessLookupError):
            os.kill(killed, 0)                                # it really died


def test_an_unreachable_scheduler_fails_fast_with_one_line(distributed, specs, capfd):
    address = f"tcp://127.0.0.1:{_free_port()}"
    t0 = time.monotonic()
    with pytest.raises(SchedulerUnreachable) as e:
        run_units_dask(specs[:1], scheduler=address, connect_timeout=2)
    assert time.monotonic() - t0 < 10
    msg = str(e.value)
    assert "\n" not in msg and address in msg and "dask scheduler" in msg
    assert capfd.readouterr().err == ""


def _free_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
