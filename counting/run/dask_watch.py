"""What a Dask run watches while it waits: the scheduler's workers.

:class:`WorkerWatch` is asked (:meth:`WorkerWatch.check`, at most once a
second) in every wait of :mod:`counting.run.dask_pool`: for the next
finished unit and while fetching a result.  It looks at the scheduler's
list of workers and

* says when no worker is left (the scheduler keeps the units and hands them
  to the next worker that joins) and when workers are back, and raises
  :class:`~counting.run.dask_setup.NoWorkers` after ``wait_workers``
  seconds without any;
* takes for stalled a worker that holds units of this run and has sent the
  scheduler no heartbeat (its ``last_seen`` has not moved) for the stall
  floor of :mod:`counting.run.stall` (2 minutes;
  ``$GRIDCOUNT_STALL_FLOOR`` for tests).  A stopped process
  (``SIGSTOP``) sends none; a counting one does (the engine releases the
  GIL).  The run says so in one line, naming the worker and its units, and
  has the scheduler remove the worker, which gives its units to the other
  workers.  Whatever the stopped worker might send when it is continued,
  the scheduler no longer takes it (and the run keeps one result per unit
  anyway).  Dask would remove it by itself only after its ``worker-ttl``
  (5 minutes by default), and without a word.

Silences are measured on a clock that advances at most
:data:`_CLOCK_STEP_MAX` seconds per look, so when the client itself was
stopped (Ctrl-Z) or busy, the workers are not blamed for the gap.
"""
from __future__ import annotations

import time
from typing import Callable

from counting.run.dask_setup import NoWorkers
from counting.run.stall import floor_seconds

__all__ = ["WorkerWatch", "WATCH_SECONDS"]

WATCH_SECONDS = 1.0       # how often a waiting run asks the scheduler for its workers
_CLOCK_STEP_MAX = 5.0     # longest step of the silence clock between two looks


class WorkerWatch:
    """Says when the scheduler has no worker, gives up after a while, and
    removes a worker whose heartbeats stopped while it held units.

    ``units_of(keys)`` gives the unit ids of this run among task keys;
    ``pids`` names worker processes by address where known.
    """

    def __init__(self, client, address: str, wait_workers: float, say: Callable[[str], None],
                 *, units_of: Callable[[list], list[int]] = lambda keys: [],
                 pids: dict[str, int] | None = None, stall_seconds: float | None = None):
        self.client = client
        self.address = address
        self.wait_workers = wait_workers
        self.say = say
        self.units_of = units_of
        self.pids = dict(pids or {})
        self.stall_seconds = floor_seconds() if stall_seconds is None else stall_seconds
        self.next_look = 0.0
        self.last_look: float | None = None
        self.clock = 0.0
        self.empty_since: float | None = None
        self.beats: dict[str, tuple[object, float]] = {}   # address -> (last_seen, clock then)

    def check(self) -> None:
        """Ask the scheduler (at most once a second) for its workers;
        :class:`NoWorkers` once there has been none for ``wait_workers`` s."""
        now = time.monotonic()
        if now < self.next_look:
            return
        self.next_look = now + WATCH_SECONDS
        if self.last_look is not None:
            self.clock += min(now - self.last_look, _CLOCK_STEP_MAX)
        self.last_look = now
        try:
            info = self.client.scheduler_info(n_workers=-1)
        except OSError:  # pragma: no cover - the scheduler is gone: its futures say so
            return
        n = info.get("n_workers")
        if n is None:  # pragma: no cover - an old scheduler
            return
        self._check_heartbeats(info.get("workers", {}))
        if n == 0 and self.empty_since is None:
            self.empty_since = now
            self.say(f"no Dask worker is connected to the scheduler at {self.address}: "
                     f"counting has stopped; waiting up to {self.wait_workers:g} s "
                     f"(--wait-workers) for one to join")
        elif n > 0 and self.empty_since is not None:
            self.empty_since = None
            self.say(f"{n} Dask worker(s) connected to the scheduler at {self.address}: "
                     f"counting goes on")
        if self.empty_since is not None and now - self.empty_since >= self.wait_workers:
            raise NoWorkers(
                f"no Dask worker has been connected to the scheduler at {self.address} for "
                f"{self.wait_workers:g} s (--wait-workers); start some with: dask worker "
                f"{self.address} --nthreads 1")

    def result_in(self) -> None:
        """A unit's result has come in.  If the run has said that no worker
        was left, look again now rather than up to a second later: a
        replacement can count every unit left within that second, and the
        run then ended without ever saying that counting went on."""
        if self.empty_since is not None:
            self.next_look = 0.0
            self.check()

    def _check_heartbeats(self, workers: dict) -> None:
        for gone in set(self.beats) - set(workers):
            del self.beats[gone]
        for address, w in workers.items():
            seen = w.get("last_seen")
            before = self.beats.get(address)
            if before is None or before[0] != seen:
                self.beats[address] = (seen, self.clock)
            elif self.clock - before[1] > self.stall_seconds:
                self.beats[address] = (seen, self.clock)   # asked again a floor later
                self._remove_if_counting(address, self.clock - before[1])

    def _remove_if_counting(self, address: str, silent: float) -> None:
        """Remove a silent worker that holds units of this run (one left
        idle is Dask's own to drop, after its ``worker-ttl``)."""
        keys = self.client.processing(workers=[address]).get(address, [])
        units = sorted(self.units_of(list(keys)))
        if not units:
            return
        pid = self.pids.get(address)
        who = f"{address} (process {pid})" if pid is not None else address
        which = f"unit {units[0]}" if len(units) == 1 else f"units {', '.join(map(str, units))}"
        self.say(f"Dask worker {who} has sent no heartbeat for {silent:,.1f} s while it holds "
                 f"{which}: taken for stalled and removed from the scheduler, which gives its "
                 f"units to other workers")
        self.client.sync(self.client.scheduler.unregister, address=address,
                         stimulus_id=f"gridcount-stalled-{time.time()}", close=True)
