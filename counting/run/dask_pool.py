"""Count work units on a Dask cluster instead of the local process pool.

Why a second pool: a counting job can outgrow one machine (bigger shapes,
recounts, side jobs).  Dask's ``distributed`` scheduler already knows how to
spread tasks over many machines, restart a dead worker and hand its tasks to
another, so gridcount only has to submit units and take results back.  The
contract is that of :func:`counting.run.pool.run_units`: units go out longest
estimate first, and each :class:`~counting.units.UnitResult` is yielded as it
arrives, for the caller to commit.  The client process stays the only writer
of the store; workers only count.

What the client guarantees
--------------------------
* Every unit is submitted once and yielded at most once, even when Dask runs
  it twice because the worker that had it died (the scheduler resubmits it;
  the client drops a second result for the same unit id).
* Every result is checked against the client's engine version *before* it is
  yielded: a worker with another build raises :class:`EngineMismatch` and its
  result is never stored.  Workers are also asked for their version when the
  client connects, so a badly installed cluster fails before any counting.
* On ``KeyboardInterrupt``, ``GeneratorExit`` (the caller stopped iterating)
  or any error, the outstanding tasks are cancelled and the client (and a
  ``local`` cluster) closed.  Units running on remote workers at that moment
  finish there and are discarded; a rerun resumes from the store.
* A scheduler with no worker is said at once, at the start and whenever the
  last worker leaves during the run (the scheduler keeps the units and
  hands them to the next worker that joins).  After ``wait_workers``
  seconds without any worker the run stops with :class:`NoWorkers`.  The
  client asks the scheduler for its workers (at most once a second,
  :class:`counting.run.dask_watch.WorkerWatch`) in every wait: for the next
  finished unit and while fetching a result, which the scheduler recomputes
  when the worker that held it died first.  No event has to arrive for the
  deadline to hold.
* A worker that holds units and has sent the scheduler no heartbeat for
  the stall floor (2 minutes; a stopped process) is said and removed from
  the scheduler, which gives its units to the others
  (:mod:`counting.run.dask_watch`); whatever it sends if continued is not
  taken.  A worker that vanished without closing its connection (its
  machine lost) is dropped the same way once it holds units, or by the
  scheduler after its ``worker-ttl`` (Dask's default: 5 minutes).

Workers need the same gridcount build as the client (one wheel, installed
with the ``dask`` extra on every worker machine): a task is a reference to
:func:`counting.run.counter.count_unit` with the run's
:class:`~counting.options.CountOptions`, which each worker imports and runs
with its own compiled engine.  Start workers with one thread each (``dask worker
ADDRESS --nthreads 1 --nworkers N``): one engine searches one unit at a
time, so extra threads in a worker process wait for a lock.

``distributed`` is an optional dependency; this module imports it only when a
scheduler is actually used, and says how to install it when it is missing.

Example
-------
>>> parse_scheduler("local:2")
Scheduler(kind='local', address=None, n_workers=2)
>>> parse_scheduler("tcp://head-node:8786").address
'tcp://head-node:8786'
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import queue
import signal
import threading
import time
import uuid
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator

from counting.run.dask_setup import (DaskPoolError, DaskUnavailable, EngineMismatch, NoWorkers,
                                     Scheduler, SchedulerUnreachable, UnitFailed,
                                     WAIT_WORKERS, WorkerSetupError, check_wait_workers,
                                     parse_scheduler)
from counting.run.dask_stats import WorkerStats, add_result, per_worker_rows
from counting.run.dask_watch import WorkerWatch
from counting.options import CountOptions
from counting.run.pool import check_job_memory, check_memory, default_workers
from counting.run.counter import count_unit, hand_out, kinds_of, learn_kinds, reduction_of
from counting.units import UnitResult, UnitSpec
from dlx import ENGINE_VERSION

__all__ = ["run_units_dask", "parse_scheduler", "check_wait_workers", "Scheduler", "DaskRun",
           "DaskPoolError", "DaskUnavailable", "SchedulerUnreachable", "NoWorkers",
           "EngineMismatch", "WorkerSetupError", "UnitFailed", "INSTALL_HINT", "WAIT_WORKERS",
           "check_engine", "check_workers"]

# how to get the optional dependency (gridcount installs from its source tree)
INSTALL_HINT = "pip install 'gridcount[dask]' (in a source tree: pip install -e '.[dask]')"
CONNECT_TIMEOUT = 5.0     # seconds to reach a scheduler before giving up
_CLOSE_TIMEOUT = 10.0     # seconds allowed to close the client / a local cluster
_POLL_SECONDS = 0.05      # sleep between looks for finished units (keeps Ctrl-C prompt)
_FETCH_SECONDS = 1.0      # how long a fetch is waited for between looks at the workers

# Preload (module text) of a local cluster's worker processes.  They share the
# terminal's process group, so Ctrl-C reaches them too; like the local pool's
# workers they leave it to the client, which cancels and closes everything.
_IGNORE_SIGINT = "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"

# One engine searches one unit at a time (dlx.api: "one object searches one
# problem at a time"), and count_unit keeps one engine per process, so
# tasks in the threads of one worker process take turns.
_COUNT_LOCK = threading.Lock()


def _import_distributed():
    """``distributed``, or :class:`DaskUnavailable` saying how to install it."""
    try:
        import distributed
    except ImportError as e:
        raise DaskUnavailable(
            f"running units on a Dask scheduler needs the optional dependency "
            f"'distributed' ({e}); install it with: {INSTALL_HINT}") from None
    return distributed


# ---------------------------------------------------------------------------
# What runs on a worker.  Module-level functions, so a task is a reference
# that each worker resolves against its own installed gridcount.

def _worker_versions() -> dict:
    """The versions a worker counts with (asked once per worker on connect)."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        package = version("gridcount")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        package = "unknown"
    return {"engine_version": ENGINE_VERSION, "gridcount": package, "pid": os.getpid()}


def _count_on_worker(spec: UnitSpec, options: CountOptions,
                     kinds: dict[str, str]) -> tuple[UnitResult, str, str]:
    """Count one unit (knowing the kind files ``kinds`` of
    :func:`~counting.run.counter.kinds_of` first); return it with the
    worker's address and name."""
    from distributed import get_worker
    with _COUNT_LOCK:
        learn_kinds(kinds)
        result = count_unit(spec, options)
    try:
        worker = get_worker()
        address, name = worker.address, str(worker.name)
    except ValueError:  # pragma: no cover - not inside a worker (client.submit on a thread?)
        address = name = "?"
    return result, address, name


# ---------------------------------------------------------------------------
# The run

class DaskRun:
    """Units submitted to a Dask scheduler; iterate it for the results.

    Made by :func:`run_units_dask`, already connected.  Iterating yields each
    :class:`~counting.units.UnitResult` as it arrives (any order), exactly
    once per unit; the client and a local cluster are closed when the
    iteration ends, fails, is interrupted, :meth:`close` is called or the
    run is dropped.  Also a context manager.

    Attributes
    ----------
    address : str
        The scheduler's address (a local cluster's too).
    n_workers : int
        Workers known to the scheduler when the run started.
    per_worker : dict of str to WorkerStats
        Filled in as results arrive, keyed by worker address.
    notes : list of str
        One-line remarks about the cluster worth showing the user (e.g.
        workers with several threads).
    client : distributed.Client or None
        The run's client (closed once the run ends); None for a run of no units.
    cluster : distributed.LocalCluster or None
        The cluster a ``local`` run started (closed with the client), else None.
    """

    def __init__(self, ordered: list[UnitSpec], *, options: CountOptions, client=None,
                 cluster=None, address: str = "", n_workers: int = 0,
                 notes: list[str] | None = None, wait_workers: float = WAIT_WORKERS,
                 log: Callable[[str], None] | None = None, pids: dict[str, int] | None = None):
        self.address = address
        self.n_workers = n_workers
        self.notes = notes or []
        # The generator holds the connection, never this object: dropping
        # the run frees the generator at once, whose ``finally`` cleans up.
        self._conn = _Connection(client, cluster, address)
        conn = self._conn

        def units_of(keys: list) -> list[int]:
            return [conn.pending[k][1].unit_id for k in keys if k in conn.pending]

        watch = WorkerWatch(client, address, wait_workers, log or (lambda msg: None),
                            units_of=units_of, pids=pids)
        self._gen = _results(self._conn, ordered, options, watch)

    @property
    def per_worker(self) -> dict[str, "WorkerStats"]:
        return self._conn.per_worker

    @property
    def client(self):
        return self._conn.client

    @property
    def cluster(self):
        return self._conn.cluster

    def outstanding(self) -> list:
        """The futures of the units submitted and not yet yielded (their
        ``status`` says which have finished on a worker)."""
        return [f for f, _ in self._conn.pending.values()]

    def __iter__(self) -> Iterator[UnitResult]:
        return self

    def __next__(self) -> UnitResult:
        return next(self._gen)

    def close(self) -> None:
        """Cancel what is outstanding and close the client (and local cluster)."""
        self._gen.close()
        self._conn.shutdown()

    def __enter__(self) -> "DaskRun":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def per_worker_rows(self) -> list[tuple[str, str]]:
        """``(label, value)`` rows of per-worker throughput, for a table."""
        return per_worker_rows(self.per_worker)


class _Connection:
    """A client, maybe its local cluster, the futures still out, the statistics."""

    def __init__(self, client, cluster, address: str):
        self.client = client
        self.cluster = cluster
        self.address = address
        self.pending: dict = {}          # future key -> (future, spec)
        self.per_worker: dict[str, WorkerStats] = {}
        self.closed = client is None

    def shutdown(self) -> None:
        if self.closed:
            return
        self.closed = True
        pending = [f for f, _ in self.pending.values()]
        self.pending.clear()
        # We may be unwinding an interrupt or an error already: cleaning up
        # must neither hide it nor hang, so failures here are only logged.
        log = logging.getLogger(__name__)
        try:
            if pending:
                self.client.cancel(pending)
        except Exception as e:  # pragma: no cover - scheduler already gone
            log.debug("cancel failed: %s", e)
        _close_quietly(self.client, self.cluster)


def _results(conn: _Connection, ordered: list[UnitSpec], options: CountOptions,
             watch: WorkerWatch) -> Iterator[UnitResult]:
    """Submit every unit, then yield results as they complete (the loop)."""
    if conn.client is None:
        return
    from distributed import as_completed
    client = conn.client
    try:
        token = uuid.uuid4().hex[:12]
        n, kinds = len(ordered), kinds_of(ordered)
        for rank, spec in enumerate(ordered):
            # higher priority runs first: longest estimate first
            fut = client.submit(_count_on_worker, spec, options, kinds,
                                key=f"gridcount-{spec.shape}-unit-{spec.unit_id}-{token}",
                                priority=n - rank, pure=False)
            conn.pending[fut.key] = (fut, spec)
        seen: set[int] = set()
        finished = as_completed([f for f, _ in conn.pending.values()], loop=client.loop)
        while not finished.is_empty():
            watch.check()                  # at most once a second, results or not
            batch = finished.next_batch(block=False)
            if not batch:
                time.sleep(_POLL_SECONDS)
                continue
            for fut in batch:
                _, spec = conn.pending.pop(fut.key)
                result, address, name = _outcome(fut, spec, conn.address, watch)
                watch.result_in()          # workers are back: said before the run can end
                fut.release()
                if result.unit_id in seen:  # pragma: no cover - Dask already ensures this
                    continue
                seen.add(result.unit_id)
                check_engine(result, address, reduction_of(spec).engine_suffix())
                add_result(conn.per_worker, result.count, result.seconds, address, name,
                           searched=result.searched)
                yield result
    finally:
        conn.shutdown()


def _fetch(fut, watch: WorkerWatch):
    """``fut.result()``, asking ``watch`` while it waits.

    A unit the client was told had finished can still be lost: when its
    worker dies before the client fetched the result, the scheduler counts
    the unit again, and fetching it waits for a worker.  So the fetch runs
    in a daemon thread, and this thread waits for it :data:`_FETCH_SECONDS`
    at a time, asking the watch in between (which, after ``--wait-workers``
    seconds without any worker, raises :class:`NoWorkers`).  No timeout
    exception is caught, so nothing raised here (Ctrl-C, an alarm) is taken
    for one.  A fetch left behind ends when the client closes.
    """
    box: queue.SimpleQueue = queue.SimpleQueue()

    def fetch() -> None:
        try:
            box.put((True, fut.result()))
        except BaseException as e:   # handed to the waiting thread
            box.put((False, e))

    threading.Thread(target=fetch, name=f"fetch-{fut.key}", daemon=True).start()
    while True:
        try:
            ok, value = box.get(timeout=_FETCH_SECONDS)
        except queue.Empty:
            watch.check()
            continue
        if ok:
            return value
        raise value


def _outcome(fut, spec: UnitSpec, scheduler: str, watch: WorkerWatch):
    """The worker's ``(result, address, name)``, or a one-line error."""
    try:
        result, address, name = _fetch(fut, watch)
    except NoWorkers:
        raise
    except (concurrent.futures.CancelledError, asyncio.CancelledError):
        raise UnitFailed(
            f"unit {spec.unit_id} was cancelled: the connection to the scheduler at "
            f"{scheduler} was lost (or it restarted)"
        ) from None
    except Exception as e:
        if type(e).__name__ == "KilledWorker":
            raise UnitFailed(
                f"unit {spec.unit_id} was running on every worker that died while counting "
                f"it ({_short(e)}); out of memory? try a smaller --memo-mb"
            ) from e
        if isinstance(e, ImportError):
            raise WorkerSetupError(
                f"a worker cannot import gridcount ({_describe(e)}); install "
                f"the same gridcount wheel on every worker") from e
        raise UnitFailed(f"unit {spec.unit_id} failed on a worker: {_describe(e)}") from e
    if result.unit_id != spec.unit_id:  # pragma: no cover - a broken worker
        raise UnitFailed(f"worker {address} answered unit {result.unit_id} "
                         f"for unit {spec.unit_id}")
    return result, address, name


def check_engine(result: UnitResult, worker: str, suffix: str = "") -> None:
    """Refuse a result counted by another engine than the client's (its
    version, plus ``suffix``: what the unit's reduction adds to it, as the
    band tables' kernel version)."""
    if result.engine_version != ENGINE_VERSION + suffix:
        raise EngineMismatch(
            f"worker {worker} counted unit {result.unit_id} with engine "
            f"{result.engine_version!r}, but this client has engine "
            f"{ENGINE_VERSION + suffix!r}: "
            f"install the same gridcount wheel on the client and every worker")


# ---------------------------------------------------------------------------
# Connecting

def run_units_dask(specs: Iterable[UnitSpec], *, scheduler: str, options: CountOptions,
                   connect_timeout: float = CONNECT_TIMEOUT,
                   wait_workers: float = WAIT_WORKERS,
                   log: Callable[[str], None] | None = None) -> DaskRun:
    """Count ``specs`` on a Dask cluster (longest first); iterate for results.

    Parameters
    ----------
    specs : iterable of UnitSpec
        Units to count; pass only those the store lacks (a unit id given
        twice is counted once).
    scheduler : str
        ``"tcp://HOST:PORT"`` of a running ``dask scheduler``, or
        ``"local"`` / ``"local:N"`` to start a ``LocalCluster`` of N worker
        processes (one thread each; N defaults to the number of cores).
    options : CountOptions
        How each unit is counted, as for :func:`counting.run.pool.run_units`
        (``memo_mb`` per worker).
    connect_timeout : float
        Seconds to reach the scheduler.
    wait_workers : float
        Seconds to wait while the scheduler has no worker, at the start or
        after the last one left; then :class:`NoWorkers`.
    log : callable, optional
        Receives one-line remarks as they happen: no worker connected,
        workers back.

    Returns
    -------
    DaskRun
        Connected; iterate it to submit the units and receive the results.

    Raises
    ------
    ValueError
        ``scheduler`` is not a valid address, ``wait_workers`` is not a
        number of seconds >= 0, or a ``local:N`` cluster's memo tables
        would not fit in this machine's memory.
    DaskUnavailable
        ``distributed`` is not installed.
    SchedulerUnreachable
        No scheduler at the address within ``connect_timeout``.
    NoWorkers
        No worker within ``wait_workers`` (also while iterating).
    WorkerSetupError, EngineMismatch
        A worker cannot import gridcount, has another engine version, or
        has less memory than one memo table.

    Unlike :func:`counting.run.pool.run_units` (a generator), this connects when
    called, so a bad address fails before anything else starts.  With no
    units it connects to nothing.
    """
    target = parse_scheduler(scheduler)
    check_wait_workers(wait_workers)
    unique = {s.unit_id: s for s in specs}
    if target.kind == "local":
        n = target.n_workers or default_workers()
        if unique:
            check_job_memory(n, options, reduction_of(next(iter(unique.values()))))
        else:
            check_memory(n, options)
    _import_distributed()
    ordered = hand_out(unique.values())
    if not ordered:
        return DaskRun([], options=options, address=target.address or target.kind)
    say = log or (lambda msg: None)
    client, cluster = _connect(target, connect_timeout)
    try:
        workers = _wait_for_workers(client, wait_workers, say)
        notes, pids = check_workers(client, workers, options)
    except BaseException:
        _close_quietly(client, cluster)
        raise
    return DaskRun(ordered, options=options, client=client,
                   cluster=cluster, address=client.scheduler.address,
                   n_workers=len(workers), notes=notes, wait_workers=wait_workers, log=say,
                   pids=pids)


def _connect(target: Scheduler, timeout: float):
    from distributed import Client, LocalCluster
    if target.kind == "local":
        n = target.n_workers or default_workers()
        # Loopback only, no dashboard: a cluster for trying things out.  (The
        # scheduler's small HTTP server always starts; a random port keeps it
        # from clashing with another cluster's 8787.)
        with _sigint_ignored():
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                   host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                   scheduler_kwargs={"dashboard": False},
                                   preload=[_IGNORE_SIGINT], silence_logs=logging.ERROR)
        try:
            return Client(cluster, set_as_default=False, timeout=timeout), cluster
        except BaseException:
            cluster.close()
            raise
    t0 = time.monotonic()
    try:
        client = Client(target.address, timeout=timeout, set_as_default=False)
    except OSError as e:
        reason = "" if "timed out" in str(e).lower() else f" ({_short(e)})"
        raise SchedulerUnreachable(
            f"no Dask scheduler answered at {target.address} within {timeout:g} s{reason}; "
            f"is `dask scheduler` running there and the port open?") from None
    logging.getLogger(__name__).debug("connected to %s in %.2f s", target.address,
                                      time.monotonic() - t0)
    return client, None


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore Ctrl-C while a local cluster starts (a second or two).

    Worker processes started meanwhile inherit the ignored disposition, so a
    Ctrl-C then cannot make each of them print a traceback half-way through
    its imports, nor leave the cluster half started; the preload covers
    workers restarted later.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler if previous is None else previous)


def _wait_for_workers(client, timeout: float, say: Callable[[str], None]) -> dict:
    workers = client.scheduler_info().get("workers", {})
    if workers:
        return workers
    address = client.scheduler.address
    say(f"the Dask scheduler at {address} has no worker; waiting up to {timeout:g} s "
        f"(--wait-workers) for one to join")
    try:
        if timeout <= 0:   # distributed reads a timeout of 0 as "wait for ever"
            raise TimeoutError
        client.wait_for_workers(1, timeout=timeout)
    except (TimeoutError, asyncio.TimeoutError, OSError):
        raise NoWorkers(
            f"no worker joined the Dask scheduler at {address} within {timeout:g} s "
            f"(--wait-workers); start some with: dask worker {address} --nthreads 1") from None
    return client.scheduler_info().get("workers", {})


def check_workers(client, workers: dict,
                   options: CountOptions) -> tuple[list[str], dict[str, int]]:
    """Ask every worker for its versions, compare their memory limits with
    the memo table; remarks worth showing the user, and the workers'
    process ids by address."""
    answers = client.run(_worker_versions, on_error="return")
    for address, answer in sorted(answers.items()):
        if isinstance(answer, BaseException):
            raise WorkerSetupError(
                f"worker {address} cannot run gridcount ({_describe(answer)}); "
                f"install the same gridcount wheel on every worker")
        if answer["engine_version"] != ENGINE_VERSION:
            raise EngineMismatch(
                f"worker {address} has engine {answer['engine_version']!r} "
                f"(gridcount {answer['gridcount']}), but this client has engine "
                f"{ENGINE_VERSION!r}: install the same gridcount wheel on the client and "
                f"every worker")
    for address, w in sorted(workers.items()):
        limit = w.get("memory_limit") or 0   # bytes; 0 or None: no limit
        if options.memo and 0 < limit < options.memo_mb * 2**20:
            raise WorkerSetupError(
                f"worker {address} may use {limit / 2**20:,.0f} MiB, less than one memo table "
                f"of {options.memo_mb:,g} MiB: use a smaller --memo-mb or give the workers "
                f"more memory (dask worker --memory-limit)")
    threaded = sorted(a for a, w in workers.items() if w.get("nthreads", 1) > 1)
    if threaded:
        notes = [f"{len(threaded)} worker(s) have several threads but count one unit at a "
                 f"time; start workers with --nthreads 1 --nworkers N to use every core"]
    else:
        notes = []
    return notes, {address: answer["pid"] for address, answer in answers.items()}


def _close_quietly(client, cluster) -> None:
    """Close the client, then a local cluster; failures are only logged."""
    for thing in (client, cluster):
        if thing is not None:
            try:
                thing.close(timeout=_CLOSE_TIMEOUT)
            except Exception as e:  # pragma: no cover - already gone
                logging.getLogger(__name__).debug("closing %r failed: %s", thing, e)


def _short(exc: BaseException) -> str:
    """The first line of an exception's message."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _describe(exc: BaseException) -> str:
    """``Type: first line`` of an exception (just the line for a bare Exception,
    which is how distributed wraps some remote errors)."""
    name = type(exc).__name__
    return _short(exc) if name == "Exception" else f"{name}: {_short(exc)}"
