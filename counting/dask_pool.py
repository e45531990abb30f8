"""Count work units on a Dask cluster instead of the local process pool.

Why a second pool: a counting job can outgrow one machine (bigger shapes,
recounts, side jobs).  Dask's ``distributed`` scheduler already knows how to
spread tasks over many machines, restart a dead worker and hand its tasks to
another, so gridcount only has to submit units and take results back.  The
contract is that of :func:`counting.pool.run_units`: units go out longest
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

Workers need the same gridcount build as the client (one wheel, installed
with the ``dask`` extra on every worker machine): a task is a reference to
:func:`counting.unit_count.count_unit` with the run's
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
import signal
import threading
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterable, Iterator, Mapping
from urllib.parse import urlsplit

from counting.options import CountOptions
from counting.pool import default_workers
from counting.unit_count import count_unit, longest_first
from counting.units import UnitResult, UnitSpec
from dlx import ENGINE_VERSION

__all__ = ["run_units_dask", "parse_scheduler", "Scheduler", "DaskRun", "WorkerStats",
           "DaskPoolError", "DaskUnavailable", "SchedulerUnreachable", "EngineMismatch",
           "WorkerSetupError", "UnitFailed", "INSTALL_HINT", "per_worker_rows"]

# how to get the optional dependency (gridcount installs from its source tree)
INSTALL_HINT = "pip install 'gridcount[dask]' (in a source tree: pip install -e '.[dask]')"
CONNECT_TIMEOUT = 5.0     # seconds to reach a scheduler before giving up
WORKER_TIMEOUT = 60.0     # seconds to wait for a first worker on an empty cluster
_CLOSE_TIMEOUT = 10.0     # seconds allowed to close the client / a local cluster

# Preload (module text) of a local cluster's worker processes.  They share the
# terminal's process group, so Ctrl-C reaches them too; like the local pool's
# workers they leave it to the client, which cancels and closes everything.
_IGNORE_SIGINT = "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"

# One engine searches one unit at a time (dlx.api: "one object searches one
# problem at a time"), and count_unit keeps one engine per process, so
# tasks in the threads of one worker process take turns.
_COUNT_LOCK = threading.Lock()


# ---------------------------------------------------------------------------
# Errors: one line each, saying what to do.

class DaskPoolError(Exception):
    """Base class of every error raised by this module."""


class DaskUnavailable(DaskPoolError, ImportError):
    """``distributed`` is not installed."""


class SchedulerUnreachable(DaskPoolError, ConnectionError):
    """No scheduler answered at the address, or no worker joined it."""


class EngineMismatch(DaskPoolError):
    """A worker counts with another engine version than the client."""


class WorkerSetupError(DaskPoolError):
    """A worker cannot run gridcount at all (not installed, broken build)."""


class UnitFailed(DaskPoolError):
    """A unit raised on its worker, killed too many workers, or was cancelled."""


# ---------------------------------------------------------------------------
# Scheduler addresses

@dataclass(frozen=True)
class Scheduler:
    """A parsed ``--scheduler`` value.

    Attributes
    ----------
    kind : {"tcp", "local"}
        ``"tcp"``: connect to a running scheduler; ``"local"``: start a
        ``LocalCluster`` of worker processes on this machine.
    address : str or None
        ``"tcp://HOST:PORT"`` for ``kind="tcp"``.
    n_workers : int or None
        Worker processes of a local cluster (``None``: one per core).
    """

    kind: str
    address: str | None = None
    n_workers: int | None = None


_FORMS = "use tcp://HOST:PORT, local or local:N"


def parse_scheduler(text: str) -> Scheduler:
    """Parse ``tcp://HOST:PORT``, ``local`` or ``local:N``.

    Raises
    ------
    ValueError
        Anything else, with the accepted forms in the message.

    Example
    -------
    >>> parse_scheduler("local")
    Scheduler(kind='local', address=None, n_workers=None)
    >>> parse_scheduler("localhost:8786")
    Traceback (most recent call last):
    ...
    ValueError: scheduler address 'localhost:8786' has no scheme: did you mean tcp://localhost:8786?
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"empty scheduler address: {_FORMS}")
    text = text.strip()
    if text == "local":
        return Scheduler("local")
    if text.startswith("local:"):
        n = text[len("local:"):]
        if not n.isdigit() or int(n) < 1:
            raise ValueError(f"bad scheduler {text!r}: local:N needs a worker count N >= 1")
        return Scheduler("local", n_workers=int(n))
    if "://" not in text:
        raise ValueError(f"scheduler address {text!r} has no scheme: did you mean tcp://{text}?")
    parts = urlsplit(text)
    if parts.scheme != "tcp":
        raise ValueError(f"unsupported scheduler address {text!r}: {_FORMS}")
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"bad port in scheduler address {text!r}: "
                         f"expected a number 1..65535") from None
    if not parts.hostname or port is None or port == 0:
        raise ValueError(f"scheduler address {text!r} needs a host and a port: "
                         f"tcp://HOST:PORT (dask scheduler listens on 8786)")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise ValueError(f"unexpected parts in scheduler address {text!r}: {_FORMS}")
    return Scheduler("tcp", address=f"tcp://{parts.netloc}")


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
    return {"engine_version": ENGINE_VERSION, "gridcount": package}


def _count_on_worker(spec: UnitSpec, options: CountOptions) -> tuple[UnitResult, str, str]:
    """Count one unit; return it with the worker's address and name."""
    from distributed import get_worker
    with _COUNT_LOCK:
        result = count_unit(spec, options)
    try:
        worker = get_worker()
        address, name = worker.address, str(worker.name)
    except ValueError:  # pragma: no cover - not inside a worker (client.submit on a thread?)
        address = name = "?"
    return result, address, name


# ---------------------------------------------------------------------------
# Per-worker statistics

@dataclass
class WorkerStats:
    """What one worker counted in this run.

    Attributes
    ----------
    address : str
        The worker's address (a restarted worker gets a new one).
    name : str
        The worker's name (``dask worker --name``; kept across restarts).
    units : int
        Units it counted.
    unit_solutions : int
        Sum of their (unweighted) counts.
    seconds : float
        Engine seconds of those units.
    """

    address: str
    name: str
    units: int = 0
    unit_solutions: int = 0
    seconds: float = 0.0

    @property
    def solutions_per_second(self) -> float | None:
        return self.unit_solutions / self.seconds if self.seconds > 0 else None

    def as_json(self) -> dict:
        return {"address": self.address, "name": self.name, "units": self.units,
                "unit_solutions": str(self.unit_solutions), "seconds": round(self.seconds, 3)}


def per_worker_rows(per_worker: Mapping[str, WorkerStats]) -> list[tuple[str, str]]:
    """``(label, value)`` rows of per-worker throughput, for a table.

    Example
    -------
    >>> per_worker_rows({"tcp://h:1": WorkerStats("tcp://h:1", "w1", 2, 10_000_000, 2.0)})
    [('worker w1 (tcp://h:1)', '2 units, 2.0 s, 5,000,000 sol/s')]
    """
    rows = []
    for w in sorted(per_worker.values(), key=lambda w: (w.name, w.address)):
        label = w.address if w.name in (w.address, "?") else f"{w.name} ({w.address})"
        rate = w.solutions_per_second
        rows.append((f"worker {label}", f"{w.units:,} units, {w.seconds:,.1f} s, "
                     + (f"{rate:,.0f} sol/s" if rate is not None else "—")))
    return rows


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
    """

    def __init__(self, ordered: list[UnitSpec], *, options: CountOptions, client=None,
                 cluster=None, address: str = "", n_workers: int = 0,
                 notes: list[str] | None = None):
        self.address = address
        self.n_workers = n_workers
        self.notes = notes or []
        # The generator holds the connection, never this object: dropping
        # the run frees the generator at once, whose ``finally`` cleans up.
        self._conn = _Connection(client, cluster, address)
        self._gen = _results(self._conn, ordered, options)

    @property
    def per_worker(self) -> dict[str, "WorkerStats"]:
        return self._conn.per_worker

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


def _results(conn: _Connection, ordered: list[UnitSpec],
             options: CountOptions) -> Iterator[UnitResult]:
    """Submit every unit, then yield results as they complete (the loop)."""
    if conn.client is None:
        return
    from distributed import as_completed
    client = conn.client
    try:
        token = uuid.uuid4().hex[:12]
        n = len(ordered)
        for rank, spec in enumerate(ordered):
            # higher priority runs first: longest estimate first
            fut = client.submit(_count_on_worker, spec, options,
                                key=f"gridcount-{spec.shape}-unit-{spec.unit_id}-{token}",
                                priority=n - rank, pure=False)
            conn.pending[fut.key] = (fut, spec)
        seen: set[int] = set()
        for fut in as_completed([f for f, _ in conn.pending.values()], loop=client.loop):
            _, spec = conn.pending.pop(fut.key)
            result, address, name = _outcome(fut, spec, conn.address)
            fut.release()
            if result.unit_id in seen:  # pragma: no cover - Dask already ensures this
                continue
            seen.add(result.unit_id)
            _check_engine(result, address)
            stats = conn.per_worker.get(address)
            if stats is None:
                stats = conn.per_worker[address] = WorkerStats(address, name)
            stats.units += 1
            stats.unit_solutions += result.count
            stats.seconds += result.seconds
            yield result
    finally:
        conn.shutdown()


def _outcome(fut, spec: UnitSpec, scheduler: str):
    """The worker's ``(result, address, name)``, or a one-line error."""
    try:
        result, address, name = fut.result()
    except (concurrent.futures.CancelledError, asyncio.CancelledError):
        raise UnitFailed(
            f"unit {spec.unit_id} was cancelled: the connection to the scheduler at "
            f"{scheduler} was lost (or it restarted); finished units are kept: rerun to resume"
        ) from None
    except Exception as e:
        if type(e).__name__ == "KilledWorker":
            raise UnitFailed(
                f"unit {spec.unit_id} was running on every worker that died while counting "
                f"it ({_short(e)}); out of memory? try a smaller --memo-mb, then rerun to resume"
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


def _check_engine(result: UnitResult, worker: str) -> None:
    """Refuse a result counted by another engine than the client's."""
    if result.engine_version != ENGINE_VERSION:
        raise EngineMismatch(
            f"worker {worker} counted unit {result.unit_id} with engine "
            f"{result.engine_version!r}, but this client has engine {ENGINE_VERSION!r}: "
            f"install the same gridcount wheel on the client and every worker")


# ---------------------------------------------------------------------------
# Connecting

def run_units_dask(specs: Iterable[UnitSpec], *, scheduler: str, options: CountOptions,
                   connect_timeout: float = CONNECT_TIMEOUT,
                   worker_timeout: float = WORKER_TIMEOUT) -> DaskRun:
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
        How each unit is counted, as for :func:`counting.pool.run_units`
        (``memo_mb`` per worker).
    connect_timeout : float
        Seconds to reach the scheduler.
    worker_timeout : float
        Seconds to wait for a first worker when the scheduler has none.

    Returns
    -------
    DaskRun
        Connected; iterate it to submit the units and receive the results.

    Raises
    ------
    ValueError
        ``scheduler`` is not a valid address.
    DaskUnavailable
        ``distributed`` is not installed.
    SchedulerUnreachable
        No scheduler at the address within ``connect_timeout``, or no worker
        within ``worker_timeout``.
    WorkerSetupError, EngineMismatch
        A worker cannot import gridcount, or has another engine version.

    Unlike :func:`counting.pool.run_units` (a generator), this connects when
    called, so a bad address fails before anything else starts.  With no
    units it connects to nothing.
    """
    target = parse_scheduler(scheduler)
    _import_distributed()
    unique = {s.unit_id: s for s in specs}
    ordered = longest_first(unique.values())
    if not ordered:
        return DaskRun([], options=options, address=target.address or target.kind)
    client, cluster = _connect(target, connect_timeout)
    try:
        workers = _wait_for_workers(client, worker_timeout)
        notes = _check_workers(client, workers)
    except BaseException:
        _close_quietly(client, cluster)
        raise
    return DaskRun(ordered, options=options, client=client,
                   cluster=cluster, address=client.scheduler.address,
                   n_workers=len(workers), notes=notes)


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


def _wait_for_workers(client, timeout: float) -> dict:
    workers = client.scheduler_info().get("workers", {})
    if workers:
        return workers
    try:
        client.wait_for_workers(1, timeout=timeout)
    except (TimeoutError, asyncio.TimeoutError, OSError):
        raise SchedulerUnreachable(
            f"no worker joined the Dask scheduler at {client.scheduler.address} within "
            f"{timeout:g} s; start some with: dask worker {client.scheduler.address} "
            f"--nthreads 1") from None
    return client.scheduler_info().get("workers", {})


def _check_workers(client, workers: dict) -> list[str]:
    """Ask every worker for its versions; remarks worth showing the user."""
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
    threaded = sorted(a for a, w in workers.items() if w.get("nthreads", 1) > 1)
    if threaded:
        return [f"{len(threaded)} worker(s) have several threads but count one unit at a time; "
                f"start workers with --nthreads 1 --nworkers N to use every core"]
    return []


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
