"""Whether a counting job is within reach: its cost, estimated before it starts.

``gridcount count`` must never accept a job that cannot finish.  For grids
of :data:`ESTIMATE_FROM_N` × :data:`ESTIMATE_FROM_N` and larger (below that
every shape the reductions can enumerate counts in minutes) it first
estimates the job's CPU time as *units × measured seconds per unit*:

* the units are the reduction's own (:meth:`Reduction.n_units_bound`: a
  lower bound where enumerating them takes minutes, as for 2×6);
* the seconds per unit are measured on this machine: a few units
  (:meth:`Reduction.sample_units`: drawn at random, or for a symmetry job
  those of the smallest classes, the costliest) are each explored by
  Knuth's estimator (:func:`unit_seconds`,
  :func:`dlx.estimate.estimate`): random paths down the unit's search
  tree, each ended by an exact count with the engine, memo and tail as the
  run would use them.  The mean of those estimates is the rate.

The estimate ignores memo hits shared between different parts of a unit,
so where they are common (Latin squares of order 9) it is high, by about
4× there; it is an order of magnitude, which is what the decision needs.
A job estimated to need more than :data:`REACH_DAYS` days on the workers
asked for is refused, with the estimate; ``--force`` runs it anyway.

Example
-------
>>> from counting.reduction import get_reduction
>>> cost = job_cost(get_reduction("2x3"), max_seconds=0.5)
>>> cost.units, cost.units_exact, cost.out_of_reach(workers=2)
(9, True, False)
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

from counting.options import CountOptions
from counting.reduction import Reduction
from counting.run.counter import unit_problem
from dlx.estimate import estimate

__all__ = ["JobCost", "job_cost", "REACH_DAYS", "ESTIMATE_FROM_N", "needs_estimate",
           "format_seconds"]

#: A job estimated to take longer than this on the workers asked for is refused.
REACH_DAYS = 7
#: Jobs of N×N grids are estimated from this N on (10×10: 2x5, 5x2, 1x10, ...).
ESTIMATE_FROM_N = 10


@dataclass(frozen=True)
class JobCost:
    """A job's estimated CPU time: ``units × unit_seconds``.

    Attributes
    ----------
    shape, reduction : str
    units : int
        Number of units, or a lower bound on it when ``units_exact`` is False.
    units_exact : bool
    unit_seconds : float
        Mean estimated CPU seconds of one unit, over the sampled units.
    sampled : int
        Units explored, in ``seconds`` of wall time.
    """

    shape: str
    reduction: str
    units: int
    units_exact: bool
    unit_seconds: float
    sampled: int
    seconds: float
    memory_mib: float | None = None
    method: str = "Knuth's estimate"

    @property
    def cpu_seconds(self) -> float:
        """Estimated CPU seconds of the whole job (at least, if units are a bound)."""
        return self.units * self.unit_seconds

    def wall_seconds(self, workers: int) -> float:
        """Estimated wall seconds on ``workers`` cores, if the units spread evenly."""
        return self.cpu_seconds / max(workers, 1)

    def out_of_reach(self, workers: int) -> bool:
        """Whether the job would take more than :data:`REACH_DAYS` days on ``workers``."""
        return self.wall_seconds(workers) > REACH_DAYS * 86400

    def workers_for_a_day(self) -> int:
        """Workers (one core each) that would finish the job in a day."""
        return max(1, math.ceil(self.cpu_seconds / 86400))

    def describe(self, workers: int) -> str:
        """One line: the estimate, how it was made, the wall time on
        ``workers``, the memo a worker needs (where known) and the workers
        that would finish it in a day."""
        at_least = "" if self.units_exact else "at least "
        memo = "" if self.memory_mib is None else \
            f"; memo about {_two_figures(self.memory_mib)} MiB a worker"
        day = self.workers_for_a_day()
        return (f"{_core_hours(self.cpu_seconds)} core-hours ({at_least}{self.units:,} units "
                f"× {format_seconds(self.unit_seconds)} each, {self.method} from "
                f"{self.sampled} sampled unit{'s' * (self.sampled != 1)}), about "
                f"{format_seconds(self.wall_seconds(workers))} on {workers} "
                f"worker{'s' * (workers != 1)}{memo}; {day:,} worker{'s' * (day != 1)} "
                f"would finish it in a day")

    def as_json(self, workers: int) -> dict:
        return {"units": self.units, "units_exact": self.units_exact,
                "unit_cpu_seconds": round(self.unit_seconds, 6),
                "cpu_seconds": round(self.cpu_seconds, 3),
                "wall_seconds": round(self.wall_seconds(workers), 3), "workers": workers,
                "sampled_units": self.sampled, "method": self.method,
                "memo_mib_per_worker": None if self.memory_mib is None
                else round(self.memory_mib, 1),
                "workers_for_a_day": self.workers_for_a_day(),
                "out_of_reach": self.out_of_reach(workers)}


def needs_estimate(reduction: Reduction) -> bool:
    """Whether ``gridcount count`` estimates this job before it starts."""
    return reduction.shape.n >= ESTIMATE_FROM_N


def job_cost(reduction: Reduction, options: CountOptions = CountOptions(), *,
             sample: int = 2, seed: int = 0, probes: int = 200,
             max_seconds: float = 6.0) -> JobCost:
    """Estimate the CPU time of every unit of ``reduction`` (see the module).

    ``sample`` units are drawn with ``seed``; each is explored by up to
    ``probes`` random paths in about ``max_seconds / sample`` seconds (at
    least ten paths each), by the reduction's
    :meth:`~counting.reduction.base.Reduction.estimate_unit_seconds`.
    """
    t0 = time.perf_counter()
    n, exact = reduction.n_units_bound()
    specs = reduction.sample_units(sample, seed)
    budget = max_seconds / max(len(specs), 1)
    per_unit = [unit_seconds(reduction, spec, options, probes=probes, seed=seed + i,
                             max_seconds=budget)
                for i, spec in enumerate(specs)]
    mean = math.fsum(per_unit) / len(per_unit) if per_unit else 0.0
    return JobCost(reduction.shape.name, reduction.name, n, exact, mean, len(specs),
                   time.perf_counter() - t0, reduction.estimate_memory_mib(options),
                   reduction.estimate_method)


def unit_seconds(reduction: Reduction, spec, options: CountOptions, *, probes: int, seed: int,
                 max_seconds: float) -> float:
    """Estimated seconds of counting one unit: the reduction's own estimate
    where it has one, else Knuth's estimator on the unit's problem (this
    process's matrix, whose memo table is emptied after)."""
    own = reduction.estimate_unit_seconds(spec, options, probes=probes, seed=seed,
                                          max_seconds=max_seconds)
    if own is not None:
        return own
    ec, given = unit_problem(spec)
    try:
        return estimate(ec, given=given, probes=probes, seed=seed, max_seconds=max_seconds,
                        **options.engine_arguments(ec)).seconds
    finally:
        ec.clear_memo()


def _two_figures(value: float) -> str:
    """``value`` to two significant figures with thousands separators:
    ``0.0042``, ``3.5``, ``42``, ``4,200,000``; from 10^12 on ``6.1·10^27``."""
    if value <= 0 or not math.isfinite(value):
        return f"{value:,.0f}"
    magnitude = math.floor(math.log10(value))
    value = round(value, 1 - magnitude)             # 9.96 -> 10: one more digit left
    magnitude = math.floor(math.log10(value))
    if magnitude >= 12:     # a power of ten reads better than 13+ digits
        return f"{value / 10 ** magnitude:.1f}·10^{magnitude}"
    digits = max(0, 1 - magnitude)
    return f"{round(value, 1 - magnitude):,.{digits}f}"


def _core_hours(seconds: float) -> str:
    return _two_figures(seconds / 3600)


def format_seconds(seconds: float) -> str:
    """A duration for people: ``"0.42 s"``, ``"40 s"``, ``"12 min"``, ``"5.3 h"``,
    ``"3.2 days"``, ``"24,000 years"`` (two significant figures)."""
    for size, name in ((365.25 * 86400, "years"), (86400, "days"), (3600, "h"), (60, "min")):
        if seconds >= size:
            return f"{_two_figures(seconds / size)} {name}"
    return f"{_two_figures(seconds)} s"
