"""What each Dask worker counted in a run, and how the run table shows it.

:mod:`counting.run.dask_pool` adds every result to the statistics of the worker
that sent it (:func:`add_result`); the CLI prints them with
:func:`per_worker_rows` and :func:`describe_workers`.  Workers are told apart
by their address: a nanny restarts a dead worker under its old *name* but at
a new address, so two rows called "worker 0" were two different processes.

Example
-------
>>> stats = {}
>>> add_result(stats, 5, 2.0, "tcp://h:1", "0")
>>> add_result(stats, 3, 1.0, "tcp://h:3", "0")     # worker 0, restarted
>>> per_worker_rows(stats)[1]
('worker tcp://h:3', '1 units, 1.0 s, 3 sol/s; replaced tcp://h:1')
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from counting.exact_json import exact

__all__ = ["WorkerStats", "add_result", "per_worker_rows", "describe_workers"]


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
    replaces : str or None
        Address of an earlier worker of the same name that counted in this
        run: this one is its restart.
    kernel_solutions, kernel_seconds : int, float
        The part of ``unit_solutions`` and ``seconds`` from units a kernel
        counted without searching: left out of the solutions a second
        (:meth:`counting.units.UnitResult.search_rate`).
    """

    address: str
    name: str
    units: int = 0
    unit_solutions: int = 0
    seconds: float = 0.0
    replaces: str | None = None
    kernel_solutions: int = 0
    kernel_seconds: float = 0.0

    @property
    def solutions_per_second(self) -> float | None:
        """Solutions a second of the units this worker searched (None: none)."""
        seconds = self.seconds - self.kernel_seconds
        return (self.unit_solutions - self.kernel_solutions) / seconds if seconds > 0 else None

    def as_json(self) -> dict:
        return {"address": self.address, "name": self.name, "units": self.units,
                **exact("unit_solutions", self.unit_solutions), "seconds": round(self.seconds, 3),
                "replaces": self.replaces}


def add_result(per_worker: dict[str, WorkerStats], count: int, seconds: float, address: str,
               name: str, searched: bool = True) -> None:
    """Count one unit (``count`` solutions in ``seconds``; ``searched``: by the
    search, not a kernel, :attr:`counting.units.UnitResult.searched`) to the
    worker at ``address``; a new address under a name already seen is a
    restart of the worker last seen under that name."""
    stats = per_worker.get(address)
    if stats is None:
        earlier = [w.address for w in per_worker.values()
                   if w.name == name and name not in (address, "?")]
        stats = per_worker[address] = WorkerStats(address, name,
                                                  replaces=earlier[-1] if earlier else None)
    stats.units += 1
    stats.unit_solutions += count
    stats.seconds += seconds
    if not searched:
        stats.kernel_solutions += count
        stats.kernel_seconds += seconds


def per_worker_rows(per_worker: Mapping[str, WorkerStats]) -> list[tuple[str, str]]:
    """``(label, value)`` rows of per-worker throughput, for a table.

    Workers are named by their address, in the order of their first result;
    a restart says which worker it replaced.

    Example
    -------
    >>> per_worker_rows({"tcp://h:1": WorkerStats("tcp://h:1", "w1", 2, 10_000_000, 2.0)})
    [('worker tcp://h:1', '2 units, 2.0 s, 5,000,000 sol/s')]
    """
    rows = []
    for w in per_worker.values():
        rate = w.solutions_per_second
        value = f"{w.units:,} units, {w.seconds:,.1f} s, " + \
            (f"{rate:,.0f} sol/s" if rate is not None else "—")
        if w.replaces:
            value += f"; replaced {w.replaces}"
        rows.append((f"worker {w.address}", value))
    return rows


def describe_workers(at_start: int, per_worker: Mapping[str, WorkerStats]) -> str:
    """The "workers" entry of a run's statistics: the workers at the start,
    and, when others counted too, how many did and how many were restarts.

    Example
    -------
    >>> describe_workers(2, {})
    '2'
    >>> stats = {}
    >>> for address in ("tcp://h:1", "tcp://h:2", "tcp://h:3"):
    ...     add_result(stats, 1, 1.0, address, "1" if address == "tcp://h:2" else "0")
    >>> describe_workers(2, stats)
    '2 at the start, 3 counted units (1 replaced a lost worker)'
    """
    counted = len(per_worker)
    replaced = sum(1 for w in per_worker.values() if w.replaces)
    if counted <= at_start and not replaced:
        return f"{at_start}"
    text = f"{at_start} at the start, {counted} counted units"
    if replaced:
        text += f" ({replaced} replaced a lost worker)" if replaced == 1 else \
            f" ({replaced} replaced lost workers)"
    return text
