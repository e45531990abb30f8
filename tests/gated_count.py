"""``gridcount`` with a gate in its pool workers, for tests that kill a count
at a chosen point rather than at a moment (``tests/count_process.py``'s
:func:`start_gated_count`).

Run as ``python tests/gated_count.py GATE HOLD ARGS...``: ``gridcount ARGS``
where

* every finished unit is committed at once (a batch of one unit), so what a
  test reads in the store is what the parent has been told, and
* the first ``HOLD`` units begun (in whatever order the job hands them out)
  are counted at once; every later one, in a pool worker or in this process
  (``--workers 1``), and a unit begun again after its worker died, first
  writes ``GATE/waiting-ID`` and then waits until ``GATE/open`` exists.

So a test knows which units are stored and which are being counted when it
kills or interrupts a process, on a machine of any speed or load.  Spawned
workers run this file again as ``__mp_main__``, which puts the gate in
there too; ``dask worker --preload tests/gated_count.py`` puts it in a
Dask worker.
"""
from __future__ import annotations

import functools
import os
import sys
import time

if __name__ == "__main__":   # this folder holds test packages named like the program's
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))



def _gate() -> str:
    """The gate's folder (read when a unit begins: pytest imports this file
    too, to collect its doctests, without the variables)."""
    return os.environ["GRIDCOUNT_TEST_GATE"]


def _ticket() -> int:
    """The number of units begun before this one, in every process of the
    count: the first ``GATE/ticket-K`` this process creates (exclusively)."""
    k = 0
    while True:
        try:
            os.close(os.open(os.path.join(_gate(), f"ticket-{k}"), os.O_CREAT | os.O_EXCL))
            return k
        except FileExistsError:
            k += 1


def _gated(count_unit):
    @functools.wraps(count_unit)
    def gated_count_unit(spec, *args, **kwargs):
        if _ticket() >= int(os.environ["GRIDCOUNT_TEST_HOLD"]):
            with open(os.path.join(_gate(), f"waiting-{spec.unit_id}"), "w"):
                pass
            deadline = time.monotonic() + 600
            while not os.path.exists(os.path.join(_gate(), "open")):
                if time.monotonic() > deadline:
                    raise RuntimeError("the test never opened the gate")
                time.sleep(0.01)
        return count_unit(spec, *args, **kwargs)
    return gated_count_unit


def _put_in_the_gate() -> None:
    import counting.run.counter
    counting.run.counter.count_unit = _gated(counting.run.counter.count_unit)


def dask_setup(worker) -> None:
    """As a ``dask worker --preload``: the gate in a Dask worker too."""
    _put_in_the_gate()


if __name__ in ("__main__", "__mp_main__"):     # the count, or a spawned pool worker
    _put_in_the_gate()

if __name__ == "__main__":
    import counting.store.batch

    class _OneUnitBatch(counting.store.batch.Batch):
        def __init__(self, store, **limits):
            super().__init__(store, **{**limits, "units": 1})

    counting.store.batch.Batch = _OneUnitBatch
    from counting.cli import main
    sys.argv[0] = "gridcount"
    main()
