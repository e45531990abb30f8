"""Count work units, in this process or in a pool of worker processes.

One progress bar in the parent counts finished units; workers draw nothing.
Each result is handed to the caller (who commits it) as soon as it arrives.
Workers ignore SIGINT; on Ctrl-C the parent stops handing out units,
terminates the workers and re-raises, so every unit committed so far stays
committed and the units in flight are simply not recorded.

A worker killed from outside (``kill -9``, the out-of-memory killer) is
noticed at once: the run says so in one line, and its unit is counted again
by a new worker.  A unit that has killed :data:`ATTEMPTS` workers stops the
run with :class:`WorkerLost` (finished units stay committed), rather than
killing workers for ever.

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
from counting.run.counter import count_unit, hand_out, reduction_of
from counting.units import UnitResult, UnitSpec
from dlx.pools import WorkerDied, map_unordered
from dlx.api import MEMO_MB_MAX

__all__ = ["run_units", "default_workers", "check_memory", "WorkerLost", "ATTEMPTS"]

#: Workers that may die counting one unit before the run stops (the first
#: count and two recounts): enough for a stray ``kill``, few enough that a
#: unit which exhausts memory every time stops the run quickly.
ATTEMPTS = 3


class WorkerLost(RuntimeError):
    """A unit killed every worker that counted it (:data:`ATTEMPTS` of them)."""


def run_units(specs: Iterable[UnitSpec], *, workers: int = 1, options: CountOptions,
              log: Callable[[str], None] | None = None) -> Iterator[UnitResult]:
    """Count ``specs`` (longest first) and yield each result as it arrives.

    ``workers=1`` counts in this process; more use spawned worker processes
    (:func:`dlx.pools.map_unordered`), one unit at a time each.  On
    ``KeyboardInterrupt`` the workers are terminated and the interrupt
    re-raised: results already yielded are the caller's to keep.
    ``options`` says how each unit is counted
    (:func:`counting.run.counter.count_unit`).

    A worker that dies while counting is replaced and its unit counted
    again; ``log`` receives one line saying so.  A unit that kills
    :data:`ATTEMPTS` workers raises :class:`WorkerLost`.  Every unit is
    yielded once.

    Raises
    ------
    ValueError
        ``workers`` memo tables of ``options.memo_mb`` do not fit in this
        machine's memory (:func:`check_memory`).
    WorkerLost
        A unit killed every worker that counted it.
    """
    ordered = hand_out(specs)
    if workers <= 1 or len(ordered) <= 1:
        for spec in ordered:
            yield count_unit(spec, options)
        return
    workers = min(workers, len(ordered))
    check_memory(workers, options, reduction_of(ordered[0]).worker_memory_mib(options))
    say = log or (lambda msg: None)

    def on_death(died: WorkerDied) -> None:
        say(f"worker process {died.pid} died ({died.cause}) while counting unit "
            f"{died.item.unit_id}; counting it again in a new worker "
            f"(attempt {died.deaths + 1} of {died.attempts})")

    # a partial of a module-level function pickles as a reference plus the
    # options: each task carries them, no worker state is needed
    task = functools.partial(count_unit, options=options)
    try:
        yield from map_unordered(task, ordered, workers, retries=ATTEMPTS - 1,
                                 on_death=on_death)
    except WorkerDied as died:
        raise WorkerLost(
            f"unit {died.item.unit_id} killed all {died.deaths} worker processes that counted "
            f"it (the last, process {died.pid}: {died.cause}); out of memory? try a smaller "
            f"--memo-mb or fewer --workers") from None


def check_memory(workers: int, options: CountOptions, per_worker_mib: float | None = None,
                 what: str = "memo tables") -> None:
    """Refuse ``workers`` memo tables that together exceed this machine's memory.

    Each worker process allocates its own table of ``per_worker_mib`` MiB
    (default ``options.memo_mb``, none without the memo;
    :meth:`~counting.reduction.base.Reduction.worker_memory_mib` says it for
    a job);
    more than the physical memory in all would swap for ever or wake the
    out-of-memory killer.  Raises ``ValueError`` (one line).

    Example
    -------
    >>> check_memory(2, CountOptions(memo_mb=16))
    >>> check_memory(10**6, CountOptions(memo_mb=16))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: 1000000 workers × 16 MiB memo tables = 16,000,000 MiB, more than ...
    """
    if per_worker_mib is None:
        per_worker_mib = options.memo_mb if options.memo else 0.0
    need = workers * per_worker_mib
    if need > MEMO_MB_MAX:
        raise ValueError(
            f"{workers} workers × {per_worker_mib:,.0f} MiB {what} = {need:,.0f} MiB, "
            f"more than this machine's memory ({MEMO_MB_MAX:,} MiB); use fewer workers or a "
            f"smaller --memo-mb")


def default_workers() -> int:
    """Cores available to this process."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1
