"""Count work units, in this process or in a pool of worker processes.

One progress bar in the parent counts finished units; workers draw nothing.
Each result is handed to the caller (who commits it) as soon as it arrives.
Workers ignore SIGINT; on Ctrl-C the parent stops handing out units,
terminates the workers and re-raises, so every unit committed so far stays
committed and the units in flight are simply not recorded.

Every unit is counted by :func:`counting.unit_count.count_unit`; the
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
import multiprocessing as mp
import os
from typing import Iterable, Iterator

from counting.options import CountOptions
from counting.unit_count import count_unit, longest_first
from counting.units import UnitResult, UnitSpec
from dlx._pools import spawn_pool

__all__ = ["run_units", "default_workers"]


def run_units(specs: Iterable[UnitSpec], *, workers: int = 1,
              options: CountOptions) -> Iterator[UnitResult]:
    """Count ``specs`` (longest first) and yield each result as it arrives.

    ``workers=1`` counts in this process; more use a ``multiprocessing``
    pool (spawn context, so it behaves the same on every platform).  On
    ``KeyboardInterrupt`` the pool is terminated and the interrupt re-raised:
    results already yielded are the caller's to keep.  ``options`` says how
    each unit is counted (:func:`counting.unit_count.count_unit`).
    """
    ordered = longest_first(specs)
    if workers <= 1 or len(ordered) <= 1:
        for spec in ordered:
            yield count_unit(spec, options)
        return
    # a partial of a module-level function pickles as a reference plus the
    # options: each task carries them, no worker state is needed
    task = functools.partial(count_unit, options=options)
    with spawn_pool(min(workers, len(ordered))) as pool:
        it = pool.imap_unordered(task, ordered, chunksize=1)
        remaining = len(ordered)
        while remaining:
            try:
                # a timed wait keeps Ctrl-C responsive (an untimed one can
                # swallow it)
                result = it.next(timeout=0.2)
            except mp.TimeoutError:
                continue
            remaining -= 1
            yield result


def default_workers() -> int:
    """Cores available to this process."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1
