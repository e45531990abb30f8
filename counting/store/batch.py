"""Finished units committed in batches: one transaction for several units.

Each commit of a store waits for the disk (``synchronous=FULL``: an fsync
of the WAL), a few milliseconds; a job of many short units (9×9 by band
tables: 44 units in 0.08 s) would spend most of its run waiting for them.
A :class:`Batch` holds the units that come in and records them together in
one transaction (:meth:`counting.store.database.Store.atomic`; each unit as
:meth:`~counting.store.database.Store.record` records it: checked,
checksummed, once) when

* it holds :data:`UNITS` units, or
* the units it holds took :data:`WORK_SECONDS` of counting together, or
* :data:`WAIT_SECONDS` have passed since its last commit (a unit that comes
  in after a pause is committed at once),

looked at as each unit comes in, and when it is closed: at the end of the
run, on Ctrl-C, SIGTERM or an error.

The guarantee: a crash (``kill -9``, the out-of-memory killer, a power
cut) loses only the units the batch holds, at most :data:`UNITS` units that
took less than :data:`WORK_SECONDS` of counting together, which the next
run counts again; a unit is never stored twice nor in part, since each
commit is one transaction, all its units or none.

A unit the store refuses (another count of a unit already stored, a unit id
outside the job) does not cost the others: they are committed, then its
error is raised.

Example
-------
>>> import tempfile, pathlib
>>> from counting.store.database import JobInfo, Store
>>> from counting.units import UnitResult
>>> path = pathlib.Path(tempfile.mkdtemp()) / "job.sqlite"
>>> store = Store.create_or_open(path, JobInfo("2x2", "moves", "test", 2))
>>> def result(u):
...     return UnitResult(unit_id=u, class_id=u, form_id=0, count=2 - u, nodes=0, dead_ends=0,
...                       memo_hits=0, seconds=0.001, host="h", engine_version="test",
...                       finished_at="2026-01-01T00:00:00")
>>> with Batch(store) as batch:
...     for u in (0, 1):
...         batch.add(result(u))
...     len(store)    # held, not yet committed
0
>>> len(store)
2
>>> store.close()
"""
from __future__ import annotations

import time
from typing import Callable

from counting.store.database import Store
from counting.store.format import ConflictError
from counting.units import UnitResult

__all__ = ["Batch", "UNITS", "WORK_SECONDS", "WAIT_SECONDS"]

#: The most units a batch holds before it commits them.
UNITS = 32
#: The most counting (the units' own seconds, summed) a batch holds.
WORK_SECONDS = 1.0
#: A unit that comes in this long after the last commit is committed at once.
WAIT_SECONDS = 1.0


class Batch:
    """The units of one run on their way into ``store`` (see the module).

    ``units``, ``work_seconds`` and ``wait_seconds`` are the three limits;
    ``clock`` the monotonic clock they are measured by.  Use it as a
    context manager: leaving the block commits what it holds, however the
    block ends.
    """

    def __init__(self, store: Store, *, units: int = UNITS, work_seconds: float = WORK_SECONDS,
                 wait_seconds: float = WAIT_SECONDS,
                 clock: Callable[[], float] = time.monotonic):
        if units < 1:
            raise ValueError(f"a batch holds at least one unit, not {units}")
        self.store = store
        self.units, self.work_seconds, self.wait_seconds = units, work_seconds, wait_seconds
        self.clock = clock
        self.held: list[UnitResult] = []
        self.commits = 0                     # transactions made so far
        self._committed_at = clock()

    def add(self, result: UnitResult) -> None:
        """Hold ``result``; commit the batch if a limit is reached."""
        self.held.append(result)
        if (len(self.held) >= self.units
                or sum(r.seconds for r in self.held) >= self.work_seconds
                or self.clock() - self._committed_at >= self.wait_seconds):
            self.commit()

    def commit(self) -> None:
        """Record every held unit in one transaction (nothing to do when
        none is held).  A unit the store refuses is left out and its error
        (:class:`~counting.store.format.ConflictError`, ``ValueError``,
        ``TypeError``) raised once the others are committed; an interrupt
        inside the transaction rolls it back and leaves the units held."""
        if not self.held:
            return
        refused: Exception | None = None
        with self.store.atomic():
            for result in self.held:
                try:
                    self.store.record(result)   # a savepoint: a refused unit undoes only itself
                except (ConflictError, ValueError, TypeError) as e:
                    refused = refused or e
        self.held = []
        self.commits += 1
        self._committed_at = self.clock()
        self.store.checkpoint_if_due()
        if refused is not None:
            raise refused

    def __enter__(self) -> "Batch":
        return self

    def __exit__(self, *exc_info) -> None:
        self.commit()
