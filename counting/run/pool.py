"""Count work units, in this process or in a pool of worker processes.

One progress bar in the parent counts finished units; workers draw nothing.
Each result is handed to the caller (who commits it) as soon as it arrives.
Workers ignore SIGINT; on Ctrl-C the parent stops handing out units,
terminates the workers and re-raises, so every unit committed so far stays
committed and the units in flight are simply not recorded.

A worker killed from outside (``kill -9``, the out-of-memory killer) is
noticed at once: the run says so in one line, and its unit is counted again
by a new worker.  A worker that gives no result far beyond its unit's
estimate (stopped by ``SIGSTOP``, hung) is killed and its unit counted again
the same way (the rule: :mod:`counting.run.stall`).  A unit that has killed
or stalled :data:`ATTEMPTS` workers stops the run with :class:`WorkerLost`
(finished units stay committed), rather than killing workers for ever.

Every unit is counted by :func:`counting.run.counter.count_unit`; the
:class:`~counting.options.CountOptions` value travels with each task, so a
worker holds no options of its own.

Example
-------
>>> from counting.reduction import get_reduction
>>> [r.count for r in run_units(get_reduction("2x2").units(), options=CountOptions())]
[2, 1]
"""
from __future__ import annotations

import functools
import os
from typing import Callable, Iterable, Iterator

from counting.options import CountOptions
from counting.run.counter import count_unit, hand_out, kinds_of, reduction_of, start_worker
from counting.run.stall import Deadlines
from counting.units import UnitResult, UnitSpec
from dlx.pools import WorkerDied, WorkerStalled, map_unordered
from dlx.api import MEMO_MB_MAX

__all__ = ["run_units", "default_workers", "check_memory", "process_mib", "WorkerLost",
           "ATTEMPTS"]

#: Workers that may die counting one unit before the run stops (the first
#: count and two recounts): enough for a stray ``kill``, few enough that a
#: unit which exhausts memory every time stops the run quickly.
ATTEMPTS = 3


class WorkerLost(RuntimeError):
    """A unit killed or stalled every worker that counted it (:data:`ATTEMPTS`
    of them)."""


def run_units(specs: Iterable[UnitSpec], *, workers: int = 1, options: CountOptions,
              log: Callable[[str], None] | None = None) -> Iterator[UnitResult]:
    """Count ``specs`` (longest first) and yield each result as it arrives.

    ``workers=1`` counts in this process; more use spawned worker processes
    (:func:`dlx.pools.map_unordered`), one unit at a time each (with one more
    sent ahead while many wait, so a worker need not wait for this process
    between units).  On
    ``KeyboardInterrupt`` the workers are terminated and the interrupt
    re-raised: results already yielded are the caller's to keep.
    ``options`` says how each unit is counted
    (:func:`counting.run.counter.count_unit`).

    A worker that dies while counting, or gives no result long past its
    unit's estimate (:mod:`counting.run.stall`, then it is killed), is
    replaced and its unit counted again; ``log`` receives one line saying
    so.  A unit that kills or stalls :data:`ATTEMPTS` workers raises
    :class:`WorkerLost`.  Every unit is yielded once.

    Raises
    ------
    ValueError
        ``workers`` processes with their memo tables do not fit in this
        machine's memory (:func:`check_memory`), or ``$GRIDCOUNT_STALL_FLOOR``
        is not a number of seconds.
    WorkerLost
        A unit killed or stalled every worker that counted it.
    """
    ordered = hand_out(specs)
    if workers <= 1 or len(ordered) <= 1:
        for spec in ordered:
            yield count_unit(spec, options)
        return
    workers = min(workers, len(ordered))
    red = reduction_of(ordered[0])
    check_job_memory(workers, options, red)
    deadlines = Deadlines(red.work_shares(ordered))
    say = log or (lambda msg: None)

    def on_death(died: WorkerDied) -> None:
        unit = died.item.unit_id
        again = (f"counting it again in a new worker (attempt {died.deaths + 1} of "
                 f"{died.attempts})")
        if isinstance(died, WorkerStalled):
            expected = deadlines.expected(unit) or 0.0
            state = "; the process was stopped" if died.stopped else ""
            say(f"worker process {died.pid} gave no result for unit {unit} in "
                f"{died.seconds:,.1f} s (its estimate: {expected:,.1f} s{state}): taken for "
                f"stalled and killed; {again}")
        else:
            say(f"worker process {died.pid} died ({died.cause}) while counting unit {unit}; "
                f"{again}")

    def deadline(spec: UnitSpec, attempt: int) -> float | None:
        return deadlines.limit(spec.unit_id, attempt)

    # a partial of a module-level function pickles as a reference plus the
    # options: each task carries them, no worker state is needed
    task = functools.partial(count_unit, options=options)
    try:
        for result in map_unordered(task, ordered, workers, retries=ATTEMPTS - 1,
                                    on_death=on_death, deadline=deadline,
                                    initializer=start_worker, initargs=(kinds_of(ordered),)):
            deadlines.finished(result.unit_id, result.seconds)
            yield result
    except WorkerDied as died:
        if isinstance(died, WorkerStalled):
            verb, hint = "stalled or killed", "stopped workers, or an overloaded machine?"
        else:
            verb, hint = "killed", "out of memory? try a smaller --memo-mb or fewer --workers"
        raise WorkerLost(
            f"unit {died.item.unit_id} {verb} all {died.deaths} worker processes that counted "
            f"it (the last, process {died.pid}: {died.cause}); {hint}") from None


def check_job_memory(workers: int, options: CountOptions, red) -> None:
    """:func:`check_memory` of ``workers`` processes counting units of the
    reduction ``red`` (its worker and shared memory, said in its words)."""
    check_memory(workers, options, red.worker_memory_mib(options),
                 red.shared_memory_mib(options), what=red.worker_memory_what,
                 option=red.worker_memory_option)


def check_memory(workers: int, options: CountOptions, table_mib: float | None = None,
                 shared_mib: float = 0.0, *, what: str = "memo table",
                 option: str | None = "--memo-mb") -> None:
    """Refuse ``workers`` processes that together need more than this machine's memory.

    Each worker process needs about what this process holds now (it loads
    the same library and the job's units; measured, see
    :func:`process_mib`) plus its own memo table: ``table_mib`` MiB where the
    job says it (:meth:`~counting.reduction.base.Reduction.worker_memory_mib`),
    else ``options.memo_mb`` (none with ``memo=False``, plain dancing links);
    and, once for all of them, ``shared_mib`` MiB mapped from this machine's
    cache (:meth:`~counting.reduction.base.Reduction.shared_memory_mib`); more
    than the physical memory in all would swap for ever or wake the
    out-of-memory killer.  Raises ``ValueError`` (one line), naming the
    table ``what`` and ``option``, the option that makes it smaller (None:
    only fewer workers do).

    Example
    -------
    >>> check_memory(2, CountOptions(memo_mb=16))
    >>> check_memory(10**6, CountOptions(memo_mb=16))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: 1,000,000 workers × ... MiB each (16 MiB memo table + ... MiB process) = ...
    """
    if table_mib is None:
        table_mib = options.memo_mb if options.memo else 0
    table = table_mib
    each = table + process_mib()
    need = workers * each + shared_mib
    if need > MEMO_MB_MAX:
        size = f"{table:,.0f}" if table >= 100 or table == int(table) else f"{table:,g}"
        held = (f"{size} MiB {what} + {each - table:,.0f} MiB process" if table
                else f"a process without {what}: {each:,.0f} MiB")
        fix = f"fewer workers or a smaller {option}" if table and option else "fewer workers"
        shared = f" + {shared_mib:,.0f} MiB of tables shared by them" if shared_mib else ""
        raise ValueError(
            f"{workers:,} workers × {each:,.0f} MiB each ({held}){shared} = {need:,.0f} MiB, "
            f"more than this machine's memory ({MEMO_MB_MAX:,} MiB); use {fix}")


def process_mib() -> float:
    """The memory this process holds on its own now (MiB): its anonymous
    resident pages (heap, stacks, arrays: ``RssAnon`` in /proc/self/status),
    what a worker process, which loads the same library and units, needs
    besides its memo table.

    Pages mapped from files are left out: the library's code and the tables
    mapped from this machine's cache (:mod:`bandtables.kind_cache`) are held
    once in the page cache for every process, and :func:`check_memory`
    counts the tables once (``shared_mib``); counted here they were counted
    again for each worker once this process had read them (a 3x3+centre
    job's 145 MiB of tables).  Where /proc/self/status has no ``RssAnon``
    (Linux before 4.5): the resident set less its file-backed and shared
    pages (/proc/self/statm); not on Linux: the peak resident set.
    """
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("RssAnon:"):
                    return int(line.split()[1]) / 1024          # kB
    except (OSError, ValueError, IndexError):  # pragma: no cover - not Linux
        pass
    try:
        with open("/proc/self/statm") as f:
            pages = f.read().split()
        return (int(pages[1]) - int(pages[2])) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):  # pragma: no cover - not Linux
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def default_workers() -> int:
    """Cores available to this process."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1
