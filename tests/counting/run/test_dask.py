"""Counting units on a Dask cluster (counting/run/dask_pool.py).

Clusters here are LocalClusters on the loopback interface: two worker
processes of one thread each, closed by the fixtures; where a test kills the
only worker, the worker is a ``dask worker --no-nanny`` process of its own
on 127.0.0.1.  The tests that need ``distributed`` skip cleanly without it
(``.ci/run`` installs the extra).
"""
import contextlib
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from counting.run import dask_pool, pool
from counting.reduction import get_reduction
from counting.run.dask_pool import (DaskUnavailable, EngineMismatch, NoWorkers, Scheduler,
                                SchedulerUnreachable, parse_scheduler)
from counting.run.dask_stats import describe_workers
from counting.job import Job
from counting.options import CountOptions
from counting.store.database import Store
from counting.run.counter import count_unit
from counting.run.stall import FLOOR_VARIABLE

from count_process import (GATED_COUNT, gate_variables, open_gate, start_gated_count, units_in,
                           wait_for_units, wait_for_waiting)

N_UNITS = 8  # 3x3 units counted through the clusters (about 0.5 s each)
DEFAULT = CountOptions()


def run_units_dask(specs, *, scheduler, options=DEFAULT, **kwargs):
    """:func:`counting.run.dask_pool.run_units_dask`, with the default options
    unless a test gives others."""
    return dask_pool.run_units_dask(specs, scheduler=scheduler, options=options, **kwargs)


@pytest.fixture(scope="module")
def distributed():
    return pytest.importorskip("distributed", reason="distributed is not installed "
                               "(pip install 'gridcount[dask]')")


def _local_cluster(distributed, n_workers=2, gate: Path | None = None, hold: int = 0):
    """A LocalCluster; with ``gate``, the units its workers (and the workers
    their nannies start again) begin after the first ``hold`` wait there
    until the test opens it (``tests/gated_count.py``)."""
    gated = {} if gate is None else {"preload": [str(GATED_COUNT)],
                                     "env": gate_variables(gate, hold)}
    return distributed.LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                                    host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                    scheduler_kwargs={"dashboard": False},
                                    silence_logs=logging.ERROR, **gated)


def _dask_worker(address: str, gate: Path | None = None, hold: int = 0) -> subprocess.Popen:
    """A ``dask worker`` without a nanny (nothing restarts it) on loopback;
    with ``gate``, the units it is given after the first ``hold`` wait there
    (``tests/gated_count.py``)."""
    more, env = [], None
    if gate is not None:
        more = ["--preload", str(GATED_COUNT)]
        env = {**os.environ, **gate_variables(gate, hold)}
    return subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address,
                             "--nthreads", "1", "--no-nanny", "--no-dashboard",
                             "--host", "127.0.0.1", *more],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait(timeout=30)


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
    dask_pool.check_engine(res, "tcp://127.0.0.1:1")                 # same engine: fine
    other = type(res)(**{**res.as_dict(), "engine_version": "some-other-engine"})
    with pytest.raises(EngineMismatch, match="same gridcount wheel"):
        dask_pool.check_engine(other, "tcp://127.0.0.1:1")


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


def test_a_kind_file_reaches_the_workers_by_its_rules(cluster, tmp_path):
    # a kind file's kind is named by its content; the workers have read no file
    path = tmp_path / "j.kind"
    path.write_text("regions\nAABB\nACBB\nACDD\nCCDD\nhouse r1c1 r2c2 r3c3 r4c4\n")
    specs = get_reduction(Job.load(f"2x2+@{path}").shape).units()
    path.unlink()
    alone = {r.unit_id: r.count for r in pool.run_units(specs, workers=1, options=DEFAULT)}
    on_cluster = {r.unit_id: r.count for r in run_units_dask(
        specs, scheduler=cluster.scheduler_address)}
    assert on_cluster == alone and len(alone) == len(specs) > 1


def test_the_options_reach_the_workers(cluster):
    specs = get_reduction("2x3", "moves").units()
    memo = list(run_units_dask(specs, scheduler=cluster.scheduler_address))
    plain = list(run_units_dask(specs, scheduler=cluster.scheduler_address,
                                options=CountOptions(memo=False)))
    assert sorted((r.unit_id, r.count) for r in memo) == sorted((r.unit_id, r.count) for r in plain)
    assert all(r.memo_hits > 0 for r in memo)
    assert all(r.memo_hits == 0 for r in plain)


@pytest.mark.slow
def test_local_scheduler_starts_and_closes_its_own_cluster(specs, reference, distributed):
    run = run_units_dask(specs[:2], scheduler="local:2")
    cluster = run.cluster
    assert run.n_workers == 2 and run.address.startswith("tcp://127.0.0.1:")
    assert {r.unit_id: r.count for r in run} == {s.unit_id: reference[s.unit_id]
                                                 for s in specs[:2]}
    assert run.client.status == "closed"
    assert cluster.status.name in ("closing", "closed")   # closing: a loaded machine


def test_stopping_early_cancels_the_outstanding_units(cluster, specs, distributed):
    with distributed.Client(cluster.scheduler_address, set_as_default=False) as watcher:
        run = run_units_dask(specs, scheduler=cluster.scheduler_address)
        first = next(run)
        run.close()
        assert first.unit_id in {s.unit_id for s in specs}
        assert run.client.status == "closed"
        deadline = time.monotonic() + 120           # only against a hang
        while watcher.run_on_scheduler(_n_tasks):   # the scheduler forgets them
            assert time.monotonic() < deadline, "the scheduler still holds the run's units"
            time.sleep(0.1)


def test_dropping_a_run_closes_its_client(cluster, specs):
    # job.run_count may leave its loop by an exception from its own body
    run = run_units_dask(specs[:3], scheduler=cluster.scheduler_address)
    next(run)
    client = run.client
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


def test_band_tables_units_count_on_a_cluster_as_in_the_local_pool(cluster):
    # issue 25: patterns3 results name the tables' kernel in their engine, which the
    # client took for another installation's and refused
    specs = get_reduction("3x3", "patterns3").units()[:4]
    local = {r.unit_id: r.count for r in pool.run_units(specs, workers=1, options=DEFAULT)}
    run = run_units_dask(specs, scheduler=cluster.scheduler_address)
    results = list(run)
    assert {r.unit_id: r.count for r in results} == local
    assert all(r.engine_version.endswith("+bandtables1") for r in results)
    # counted by the tables, not searched: no solutions a second in the run table
    assert all(value.endswith(" s, —") for _, value in run.per_worker_rows())


def test_layer_units_count_on_a_cluster_as_in_the_local_pool(cluster, tmp_path, monkeypatch):
    # the layers reduction's units read their parent layers from the machine's
    # layer store, counting those it lacks: in any order, on any worker.  The
    # local pool counts in a cache of its own, so the cluster's records are not read.
    specs = get_reduction("2x4", "layers").units()
    results = list(run_units_dask(specs, scheduler=cluster.scheduler_address))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "own-cache"))
    local = {r.unit_id: r.count for r in pool.run_units(specs, workers=1, options=DEFAULT)}
    assert {r.unit_id: r.count for r in results} == local
    assert (tmp_path / "own-cache").is_dir()
    assert all(r.engine_version.endswith("+layers1") for r in results)


def test_a_mismatching_result_is_never_yielded(cluster, specs, monkeypatch):
    # a worker that joined after the check: only the per-result check sees it
    monkeypatch.setattr(dask_pool, "check_workers", lambda client, workers, options: ([], {}))
    monkeypatch.setattr(dask_pool, "ENGINE_VERSION", "client-engine")
    run = run_units_dask(specs[:2], scheduler=cluster.scheduler_address)
    with pytest.raises(EngineMismatch, match="counted unit .* with engine"):
        next(run)
    assert run.client.status == "closed"


@pytest.mark.slow
def test_killing_a_worker_mid_run_still_gives_a_complete_store(distributed, specs, reference,
                                                               tmp_path):
    # one unit is counted; the others wait at the gate until a worker holding
    # one is killed (on a fast machine every unit could be done by then)
    gate = tmp_path / "gate"
    with _local_cluster(distributed, gate=gate, hold=1) as cluster, \
            distributed.Client(cluster.scheduler_address, set_as_default=False) as watcher:
        pids = watcher.run(os.getpid)
        arrived, killed = [], None
        with Store.create_or_open(tmp_path / "k.sqlite", Job.load("3x3", "71").info()) as store:
            for res in run_units_dask(specs, scheduler=cluster.scheduler_address):
                assert store.record(res)                     # never a unit twice
                arrived.append(res.unit_id)
                if killed is None:
                    wait_for_waiting(gate, 2, None)          # both workers inside a unit
                    busy = {a: keys for a, keys in watcher.processing().items() if keys}
                    assert busy, "no unit in flight to kill a worker under"
                    killed = pids[sorted(busy)[0]]
                    os.kill(killed, signal.SIGKILL)
                    open_gate(gate)
            assert sorted(arrived) == sorted(reference)
            assert {r.unit_id: r.count for r in store.results()} == reference
        with pytest.raises(ProcessLookupError):
            os.kill(killed, 0)                                # it really died


@pytest.mark.slow
def test_a_stopped_worker_is_removed_and_its_units_counted_once_by_the_others(
        distributed, specs, reference, monkeypatch, tmp_path, fails_instead_of_hanging):
    # Dask alone drops a silent worker only after its worker-ttl (5 min)
    monkeypatch.setenv(FLOOR_VARIABLE, "10")
    said, victim = [], []

    def log(line):
        said.append(line)
        if "taken for stalled" in line:           # continued: its late result must not count
            os.kill(victim[0], signal.SIGCONT)

    gate = tmp_path / "gate"     # the victim holds a unit at the gate when it is stopped
    with _local_cluster(distributed, gate=gate, hold=1) as cluster, \
            distributed.Client(cluster.scheduler_address, set_as_default=False) as watcher:
        pids = watcher.run(os.getpid)
        run = run_units_dask(specs, scheduler=cluster.scheduler_address, log=log)
        got = [next(run)]
        wait_for_waiting(gate, 2, None)
        busy = {a: keys for a, keys in watcher.processing().items() if keys}
        assert busy, "no unit in flight to stop a worker under"
        address = sorted(busy)[0]
        victim.append(pids[address])
        os.kill(victim[0], signal.SIGSTOP)
        open_gate(gate)
        try:
            got += list(run)
        finally:
            with contextlib.suppress(ProcessLookupError):   # continued, it may have closed
                os.kill(victim[0], signal.SIGCONT)
    assert sorted(r.unit_id for r in got) == sorted(reference)          # each unit once
    assert {r.unit_id: r.count for r in got} == reference
    [line] = [s for s in said if "taken for stalled" in s]
    assert re.fullmatch(rf"Dask worker {re.escape(address)} \(process {victim[0]}\) has sent no "
                        rf"heartbeat for [\d.]+ s while it holds units? [\d, ]+: taken for "
                        rf"stalled and removed from the scheduler, which gives its units to "
                        rf"other workers", line), line


def test_a_worker_whose_memory_limit_is_below_one_memo_table_is_refused(distributed):
    specs = get_reduction("2x3", "moves").units()
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  memory_limit="400MiB", host="127.0.0.1",
                                  dashboard_address="127.0.0.1:0",
                                  scheduler_kwargs={"dashboard": False},
                                  silence_logs=logging.ERROR) as cluster:
        with pytest.raises(dask_pool.WorkerSetupError) as e:
            run_units_dask(specs[:1], scheduler=cluster.scheduler_address,
                           options=CountOptions(memo_mb=500))
        # without the memo table nothing is too big
        plain = list(run_units_dask(specs[:1], scheduler=cluster.scheduler_address,
                                    options=CountOptions(memo=False, memo_mb=500)))
    assert str(e.value).endswith("may use 400 MiB, less than one memo table of 500 MiB: use a "
                                 "smaller --memo-mb or give the workers more memory "
                                 "(dask worker --memory-limit)")
    assert [r.unit_id for r in plain] == [specs[0].unit_id]


def test_a_restarted_worker_is_said_and_named_as_a_replacement(distributed, specs, reference,
                                                              tmp_path, fails_instead_of_hanging):
    # the first worker counts one unit and is killed inside the next (held at
    # the gate): units are left for its replacement on a machine of any speed
    gate = tmp_path / "gate"
    with _local_cluster(distributed, n_workers=1, gate=gate, hold=1) as cluster, \
            distributed.Client(cluster.scheduler_address, set_as_default=False) as watcher:
        [(first_address, pid)] = watcher.run(os.getpid).items()
        said = []
        run = run_units_dask(specs, scheduler=cluster.scheduler_address, log=said.append)
        got = [next(run)]
        wait_for_waiting(gate, 1, None)
        os.kill(pid, signal.SIGKILL)       # its nanny starts a new worker of the same name
        open_gate(gate)
        got += list(run)
    assert sorted((r.unit_id, r.count) for r in got) == sorted(reference.items())
    # Whether the run sees the moment with no worker depends on how fast the
    # nanny restarts it (on a loaded machine it can beat the watch); when it
    # is seen, both lines are said.  The no-nanny test above always sees it.
    if said:
        assert said[0] == (f"no Dask worker is connected to the scheduler at "
                           f"{cluster.scheduler_address}: counting has stopped; waiting up to "
                           f"300 s (--wait-workers) for one to join")
        assert said[1].startswith("1 Dask worker(s) connected") and \
            said[1].endswith("counting goes on")
    old, new = run.per_worker.values()
    assert old.address == first_address and old.name == new.name
    assert new.address != first_address and new.replaces == first_address
    assert describe_workers(run.n_workers, run.per_worker) == \
        "1 at the start, 2 counted units (1 replaced a lost worker)"


@pytest.mark.parametrize("wait", [2, 0])     # distributed takes a timeout of 0 for none
def test_a_scheduler_without_workers_is_said_at_once_and_given_up(distributed, specs, wait,
                                                                  fails_instead_of_hanging):
    with _local_cluster(distributed, n_workers=0) as cluster:
        said = []
        with pytest.raises(NoWorkers) as e:     # not for ever: fails_instead_of_hanging
            run_units_dask(specs, scheduler=cluster.scheduler_address, wait_workers=wait,
                           log=said.append)
    address = cluster.scheduler_address
    assert said == [f"the Dask scheduler at {address} has no worker; waiting up to {wait} s "
                    f"(--wait-workers) for one to join"]
    assert str(e.value) == (f"no worker joined the Dask scheduler at {address} within {wait} s "
                            f"(--wait-workers); start some with: dask worker {address} "
                            f"--nthreads 1")


@pytest.mark.slow
def test_a_run_whose_last_worker_died_stops_after_wait_workers_keeping_its_units(distributed,
                                                                                  tmp_path):
    # the bar used to freeze for ever; now: said at once, exit 1 after
    # --wait-workers seconds, finished units kept, the resume hint
    db = tmp_path / "d.sqlite"
    with _local_cluster(distributed, n_workers=0) as cluster, \
            distributed.Client(cluster.scheduler_address, set_as_default=False) as watcher:
        address = cluster.scheduler_address
        gate = tmp_path / "gate"
        worker = _dask_worker(address, gate, 2)     # it counts two units, then waits
        try:
            watcher.wait_for_workers(1, timeout=120)
            proc = start_gated_count(db, "0-19", gate, 2, "--scheduler", address,
                                     "--wait-workers", 3)
            wait_for_units(db, 2, proc, timeout=120)
            wait_for_waiting(gate, 1, proc)
            assert proc.poll() is None, "count ended before its worker was killed"
            worker.kill()
            try:
                out, err = proc.communicate(timeout=90)
            except subprocess.TimeoutExpired:
                proc.kill()
                pytest.fail(f"count went on waiting without a worker: {proc.communicate()}")
        finally:
            _stop(worker)
    assert proc.returncode == 1, err
    lines = err.strip().splitlines()
    assert f"no Dask worker is connected to the scheduler at {address}: counting has stopped; " \
           f"waiting up to 3 s (--wait-workers) for one to join" in lines
    kept = units_in(db)
    assert lines[-1] == (f"Error: no Dask worker has been connected to the scheduler at {address} "
                         f"for 3 s (--wait-workers); start some with: dask worker {address} "
                         f"--nthreads 1; {len(kept):,} of 710 units are safely in {db}: run the "
                         f"same command again to resume")
    assert len(kept) == 2 and len(set(kept)) == 2


@pytest.mark.slow
def test_a_result_lost_with_the_last_worker_before_it_was_fetched_still_stops_after_wait_workers(
        distributed, specs, fails_instead_of_hanging):
    # The race behind a count that waited far past --wait-workers: a unit
    # finishes on the worker, the client is told (as_completed hands it
    # out), then the worker dies before the client fetched the result.  The
    # scheduler asks for the unit again, and fetching it waits for a worker
    # that never comes, with no look at the clock.
    with _local_cluster(distributed, n_workers=0) as cluster, \
            distributed.Client(cluster.scheduler_address, set_as_default=False) as watcher:
        address = cluster.scheduler_address
        worker = _dask_worker(address)
        try:
            watcher.wait_for_workers(1, timeout=120)
            said = []
            run = run_units_dask(specs, scheduler=address, wait_workers=2, log=said.append)
            got = [next(run)]                  # the run now waits for us to ask again
            # until the run's client has been told that a unit it has not
            # fetched finished (not a sleep, which a loaded machine can outlast)
            deadline = time.monotonic() + 120
            while not any(f.status == "finished" for f in run.outstanding()):
                assert time.monotonic() < deadline, "no unit finished on the worker"
                time.sleep(0.05)
            worker.kill()
            worker.wait(timeout=30)
            t0 = time.monotonic()
            with pytest.raises(NoWorkers):
                got += list(run)
            waited = time.monotonic() - t0
        finally:
            _stop(worker)
    assert waited < 60, f"stopped {waited:.0f} s after the worker died, not about 2 s"
    assert said[-1] == (f"no Dask worker is connected to the scheduler at {address}: counting "
                        f"has stopped; waiting up to 2 s (--wait-workers) for one to join")
    assert len(got) == len({r.unit_id for r in got}) < len(specs)


def test_an_unreachable_scheduler_fails_fast_with_one_line(distributed, specs, capfd,
                                                          fails_instead_of_hanging):
    # Dask's own connect timeout made an hour: only connect_timeout can end
    # the wait before fails_instead_of_hanging does (not "within 10 s")
    import dask
    address = f"tcp://127.0.0.1:{_free_port()}"
    with dask.config.set({"distributed.comm.timeouts.connect": "3600s"}), \
            pytest.raises(SchedulerUnreachable) as e:
        run_units_dask(specs[:1], scheduler=address, connect_timeout=2)
    msg = str(e.value)
    assert "\n" not in msg and address in msg and "dask scheduler" in msg
    assert capfd.readouterr().err == ""


def _free_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
