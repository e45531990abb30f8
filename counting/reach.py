"""Whether a counting job is within reach: its cost, estimated before it starts.

``gridcount count`` never starts a long job blind.  Every job whose store is
not complete is looked at first, in two steps:

1. a **quick look** (:func:`quick_cost`, well under a second for a small
   job): the same estimate as below with two sampled units, few paths and
   shallow leaves (:data:`QUICK`), which errs high (the call overhead of
   many small leaf counts is counted as work).  A job it puts under
   :data:`LONG_JOB_SECONDS` / :data:`QUICK_MARGIN` on the workers asked is
   small: it starts at once and nothing is printed (:func:`could_be_long`),
   and one it puts at a few seconds is counted in the calling process
   rather than on a pool (:func:`runs_in_process`);
2. otherwise the **estimate** (:func:`job_cost`, a few seconds), which
   ``gridcount count`` prints before the first unit starts.

An estimate is *units × measured seconds per unit*:

* the units are the reduction's own (:meth:`Reduction.n_units_bound`: a
  lower bound where enumerating them takes minutes, as for 2×6);
* the seconds per unit are measured on this machine on a few units
  (:meth:`Reduction.sample_units`: drawn at random, or for a symmetry job
  those of the smallest classes, the costliest, or for a Latin-group job a
  sample stratified by a cheap check, each unit standing for its stratum:
  :meth:`Reduction.sample_shares`), each by what fits the way
  it is counted (:func:`unit_seconds`): the reduction's own estimate where
  it has one (band tables: one slice of the contraction, timed), a unit
  counted by a kernel (``factor``) is counted and timed, and a unit that is
  an exact cover is explored by Knuth's estimator
  (:func:`dlx.estimate.estimate`): random paths down the unit's search
  tree, each ended by an exact count with the engine, memo and tail as the
  run would use them.  The mean of those estimates is the rate.

Units differ more than one unit's estimate errs: SudokuP's 12,542 band
units range over four decades, and two sampled units put the job at 0.27,
3.1 or 0.51 core-hours by the seed (it took 1.5).  So the estimate samples
:data:`SAMPLE` units in the same time budget, :data:`LEAST_PATHS` paths at
least in all (eight put it at 1.28, 1.76 and 0.93 by the same seeds),
:data:`TIMED_SAMPLE` where each unit is counted in full, and says
how far apart the sampled units were when they differ by
:data:`WIDE_SPREAD` or more: such a job can take several times its
estimate either way.

Knuth's estimator ignores memo hits shared between different parts of a
unit, so where they are common (Latin squares of order 9) it is high, by
about 4× to 10× there.  Two-band units that the 1-factorization kernel
counts are estimated on its recurrence's tree with the children that many
units share counted once (``TwoBandPatternReduction.children_share``: 2×5's
quick look at 14 s of CPU for 15 s counted, where counting each unit's
children apart put it at 185 s and had it estimated at length).  It is an
order of magnitude, which is what the decision needs.  A job estimated to
need more than :data:`REACH_DAYS` days on the workers asked for is refused,
with the estimate; ``--force`` runs it anyway (unestimated).

Example
-------
>>> from counting.reduction import get_reduction
>>> cost = job_cost(get_reduction("2x3"), max_seconds=0.5)
>>> cost.units, cost.units_exact, cost.out_of_reach(workers=2)
(9, True, False)
>>> could_be_long(quick_cost(get_reduction("2x3")), workers=2)
False
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

from counting.options import CountOptions
from counting.reduction import Reduction
from counting.reduction.base import knuth_method
from counting.run.counter import count_unit, unit_problem
from counting.run.pool import process_mib
from dlx.estimate import LEAF_SOLUTIONS, estimate
from factorization.layer_estimate import estimate_layers
from grids.kind import GridKind

__all__ = ["JobCost", "job_cost", "searching_memory", "quick_cost", "could_be_long", "REACH_DAYS",
           "LONG_JOB_SECONDS", "IN_PROCESS_SECONDS", "runs_in_process", "QUICK", "QUICK_MARGIN", "SAMPLE", "TIMED_SAMPLE", "WIDE_SPREAD",
           "format_seconds", "layers_estimate", "LAYERS_SAMPLE", "LAYERS_STACKS"]

#: A job estimated to take longer than this on the workers asked for is refused.
REACH_DAYS = 7
#: A job that could take longer than this (wall seconds on the workers asked:
#: ten minutes) is estimated, and the estimate printed, before it starts.
LONG_JOB_SECONDS = 600
#: The quick look: two sampled units (another seed than the full estimate's,
#: whose kernel timings a memo warmed on the same units would spoil), few
#: paths, shallow leaves (at most this many completions below a leaf), a
#: small time budget.
QUICK = {"sample": 2, "probes": 10, "max_seconds": 0.2, "leaf_solutions": 10**4, "seed": 1}
#: The quick look clears a job as small only with this margin below
#: :data:`LONG_JOB_SECONDS` (two units and ten paths can miss costly units).
QUICK_MARGIN = 10
#: A job the quick look puts at no more than this many CPU seconds (its
#: units left, all of them) is counted in the calling process
#: (:func:`runs_in_process`): a pool's worker processes each import the
#: library and map the job's tables before their first unit (a second or
#: more), which costs such a job more than sharing the cores saves.
IN_PROCESS_SECONDS = 3.0
#: Units sampled by the estimate, each walked by Knuth's estimator (in the
#: same time budget however many: more units, fewer paths each) ...
SAMPLE = 8
#: ... or counted in full by a kernel and timed.
TIMED_SAMPLE = 2
#: Paths walked over all the sampled units however long they take (a unit
#: of Sudoku X takes about a second a path): twenty, as two units of ten did.
LEAST_PATHS = 20
#: Sampled units this many times apart are said to vary widely.
WIDE_SPREAD = 10
#: How a unit is measured: Knuth's estimator, or a kernel's count timed.


# The layer method's estimate beside a refused two-band job (issue 36): states
# of layer C - 3 sampled, with one child and one grandchild each (a few CPU
# seconds for C = 6; scripts/estimate_layers.py samples more).
LAYERS_SAMPLE = {"samples": 4, "children": 1, "parents": 0, "seed": 1}
LAYERS_STACKS = (6,)    # where the layers are estimated, not counted


def layers_estimate(kind: GridKind) -> str | None:
    """The layer method's measured estimate of ``kind``'s grids (a plain
    two-band shape of :data:`LAYERS_STACKS` stacks: 2x6, 6x2), one
    clause to print beside the search's; None for every other kind."""
    s = kind.shape
    if not kind.plain or s.latin or 2 not in (s.box_rows, s.box_cols) \
            or s.box_rows * s.box_cols // 2 not in LAYERS_STACKS:
        return None
    e = estimate_layers(s.box_rows * s.box_cols // 2, **LAYERS_SAMPLE)
    return e.describe() + " (scripts/estimate_layers.py samples more)"


def timed_method(sampled: int) -> str:
    """How a job whose ``sampled`` units a kernel counted and timed was
    estimated, in words."""
    return f"the kernel's timed count from {sampled} sampled unit{'s' * (sampled != 1)}"


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
    method : str or None
        How the seconds per unit were measured, in words
        (:meth:`Reduction.estimate_method`; None: Knuth's estimate from the
        ``sampled`` units).
    memory : (int, int) or None
        Bytes a worker needs for itself (its memo, for ``factor``) and bytes
        of tables shared by the workers of a machine
        (:meth:`Reduction.estimate_memory`), where known.
    countable : bool
        False for a job the reduction can estimate but never count (5x3).
    provisional : bool
        A lower bound made before what the units need exists (4x3's tables):
        good for refusing a job, not for accepting it.
    done : int
        Units already in the job's store: not counted again, not in the cost.
    unit_range : (float, float) or None
        The least and the most estimated seconds of a sampled unit (None: one
        unit, or a model instead of a sample).
    """

    shape: str
    reduction: str
    units: int
    units_exact: bool
    unit_seconds: float
    sampled: int
    seconds: float
    method: str | None = None
    memory: tuple[int, int] | None = None
    countable: bool = True
    provisional: bool = False
    done: int = 0
    unit_range: tuple[float, float] | None = None

    @property
    def cpu_seconds(self) -> float:
        """Estimated CPU seconds of the units left to count (at least, if
        units are a bound)."""
        return max(self.units - self.done, 0) * self.unit_seconds

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
        day = self.workers_for_a_day()
        units = f"{at_least}{self.units:,} units" if not self.done else \
            f"{max(self.units - self.done, 0):,} of {at_least}{self.units:,} units left"
        method = self.method or knuth_method(self.sampled)
        memory = "" if self.memory is None else \
            f"; memory per worker about {_two_figures(self.memory[0] / 2 ** 20)} MiB" \
            f"{self.shared_text()}"
        return (f"{_core_hours(self.cpu_seconds)} core-hours ({units} "
                f"× {format_seconds(self.unit_seconds)} each, {method}), about "
                f"{format_seconds(self.wall_seconds(workers))} on {workers} "
                f"worker{'s' * (workers != 1)}; {day:,} worker{'s' * (day != 1)} "
                f"would finish it in a day{memory}{self.spread_text()}")

    def spread_text(self) -> str:
        """``; the sampled units took …``: said when they are
        :data:`WIDE_SPREAD` or more apart (the estimate is rough), else ``""``."""
        if self.unit_range is None:
            return ""
        lo, hi = self.unit_range
        if not hi >= WIDE_SPREAD * lo:
            return ""
        return (f"; the sampled units were estimated at {format_seconds(lo)} to "
                f"{format_seconds(hi)} each: units this unequal can make the job take "
                f"several times the estimate, either way")

    def shared_text(self) -> str:
        """`` plus … of tables shared by the workers of a machine``, or ``""``."""
        if self.memory is None or not self.memory[1]:
            return ""
        shared = self.memory[1]
        tables = (f"{shared / 2 ** 30:,.1f} GiB" if shared >= 2 ** 30 else
                  f"{shared / 2 ** 20:,.0f} MiB")
        return f" plus {tables} of tables shared by the workers of a machine"

    def memory_mib(self, workers: int) -> float:
        """MiB that ``workers`` workers on one machine need (0 where unknown)."""
        if self.memory is None:
            return 0.0
        return (workers * self.memory[0] + self.memory[1]) / 2 ** 20

    def as_json(self, workers: int) -> dict:
        return {"units": self.units, "units_exact": self.units_exact, "units_done": self.done,
                "unit_cpu_seconds": round(self.unit_seconds, 6),
                "cpu_seconds": round(self.cpu_seconds, 3),
                "wall_seconds": round(self.wall_seconds(workers), 3), "workers": workers,
                "sampled_units": self.sampled, "method": self.method,
                "workers_for_a_day": self.workers_for_a_day(),
                "memory_private_bytes": None if self.memory is None else self.memory[0],
                "memory_shared_bytes": None if self.memory is None else self.memory[1],
                "unit_cpu_seconds_range": None if self.unit_range is None else
                [round(x, 6) for x in self.unit_range],
                "out_of_reach": self.out_of_reach(workers)}


def quick_cost(reduction: Reduction, options: CountOptions = CountOptions(),
               left=None) -> JobCost:
    """The quick look at a job (:data:`QUICK`): :func:`job_cost` on one
    unit, cheaply and on the high side; see :func:`could_be_long`."""
    return job_cost(reduction, options, left=left, **QUICK)


def could_be_long(quick: JobCost, workers: int) -> bool:
    """Whether a job whose quick look is ``quick`` could run longer than
    :data:`LONG_JOB_SECONDS` on ``workers`` (with :data:`QUICK_MARGIN`):
    then it is estimated in full and the estimate printed."""
    return quick.wall_seconds(workers) * QUICK_MARGIN >= LONG_JOB_SECONDS


def runs_in_process(quick: JobCost) -> bool:
    """Whether a job whose quick look is ``quick`` is small enough to count
    in the calling process rather than on a pool of worker processes (at
    most :data:`IN_PROCESS_SECONDS` of CPU time; never on a provisional
    bound or an uncertain number of units)."""
    return (quick.countable and quick.units_exact and not quick.provisional
            and quick.cpu_seconds <= IN_PROCESS_SECONDS)


def job_cost(reduction: Reduction, options: CountOptions = CountOptions(), *,
             sample: int | None = None, seed: int = 0, probes: int = 200,
             max_seconds: float = 6.0, leaf_solutions: int = LEAF_SOLUTIONS,
             bound_ok: bool = True, left=None) -> JobCost:
    """Estimate the CPU time of every unit of ``reduction`` (see the module).

    ``sample`` units (None: :data:`SAMPLE`, or :data:`TIMED_SAMPLE` where a
    kernel counts them) are drawn with ``seed`` (from the ids in ``left`` when
    given: a store's remaining units, so that the units a resumed job has
    still to count are the ones estimated); each is explored by up to
    ``probes`` random paths in about ``max_seconds / sample`` seconds (at
    least ten paths each, leaves of about ``leaf_solutions`` completions),
    by :func:`unit_seconds`.
    With ``bound_ok`` False a provisional bound is not taken
    (:meth:`~counting.reduction.base.Reduction.cost_model`): the units are timed.
    """
    t0 = time.perf_counter()
    process = process_mib()         # before this estimate's engine and memo table
    model = reduction.cost_model(bound_ok)
    if model is not None:
        return JobCost(reduction.shape.name, reduction.name, model["units"], model["units_exact"],
                       model["unit_seconds"], model["sampled"], time.perf_counter() - t0,
                       model["method"], model["memory"], model["countable"],
                       model["provisional"])
    n, exact = reduction.n_units_bound()
    specs = reduction.sample_units(SAMPLE if sample is None else sample, seed, among=left)
    timed = bool(specs) and _timed(reduction, specs[0])
    if sample is None and timed:
        specs = specs[:TIMED_SAMPLE]     # each is counted in full
    budget = max_seconds / max(len(specs), 1)
    least = max(2, -(-LEAST_PATHS // max(len(specs), 1)))   # paths a unit, whatever the budget
    per_unit = [unit_seconds(reduction, spec, options, probes=probes, seed=seed + i,
                             max_seconds=budget, leaf_solutions=leaf_solutions,
                             min_probes=least)
                for i, spec in enumerate(specs)]
    shares = reduction.sample_shares(specs, among=left)
    if shares is None or not per_unit:     # a uniform sample: its mean stands for every unit
        mean = math.fsum(per_unit) / len(per_unit) if per_unit else 0.0
    else:                                  # a stratified one: each for its share of the units
        mean = math.fsum(w * t for w, t in zip(shares, per_unit)) / \
            max(n if left is None else len(left), 1)
    memory = reduction.estimate_memory(options)
    return JobCost(reduction.shape.name, reduction.name, n, exact, mean, len(specs),
                   time.perf_counter() - t0,
                   timed_method(len(specs)) if timed else reduction.estimate_method(len(specs)),
                   searching_memory(options, process) if memory is None else memory,
                   unit_range=(min(per_unit), max(per_unit)) if len(per_unit) > 1 else None)


def searching_memory(options: CountOptions, process: float) -> tuple[int, int]:
    """``(private, shared)`` bytes of a worker whose reduction does not say
    (:meth:`~counting.reduction.base.Reduction.estimate_memory` None): its memo
    table at the size asked (none without memo) plus ``process`` MiB, what
    this process held before it estimated the job (measured,
    :func:`counting.run.pool.process_mib`: a worker loads the same library
    and units); nothing shared."""
    table = options.memo_mb if options.memo else 0.0
    return round((table + process) * 2 ** 20), 0


def unit_seconds(reduction: Reduction, spec, options: CountOptions, *, probes: int, seed: int,
                 max_seconds: float, leaf_solutions: int = LEAF_SOLUTIONS,
                 min_probes: int = 10) -> float:
    """Estimated seconds of counting one unit: the reduction's own estimate
    where it has one; for a unit counted by a kernel and not searched
    (:meth:`~counting.reduction.base.Reduction.problem` None: ``factor``),
    the kernel's time on it, counted; else Knuth's estimator on the unit's
    problem (this process's matrix, whose memo table is emptied after)."""
    own = reduction.estimate_unit_seconds(spec, options, probes=probes, seed=seed,
                                          max_seconds=max_seconds)
    if own is not None:
        return own
    if _timed(reduction, spec):
        return count_unit(spec, options).seconds
    ec, given = unit_problem(spec)
    try:
        return estimate(ec, given=given, probes=probes, seed=seed, max_seconds=max_seconds,
                        leaf_solutions=leaf_solutions, min_probes=min_probes,
                        **options.engine_arguments(ec)).seconds
    finally:
        ec.clear_memo()


def _timed(reduction: Reduction, spec) -> bool:
    """Whether ``spec`` is measured by counting it: a unit that a kernel
    counts (no exact cover to explore) and no estimate of the reduction's own."""
    own = type(reduction).estimate_unit_seconds is not Reduction.estimate_unit_seconds
    return not own and reduction.problem(spec) is None


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
