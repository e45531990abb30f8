"""Count one work unit: the function every pool runs, and its engine cache.

The local process pool (:mod:`counting.run.pool`), the Dask workers
(:mod:`counting.run.dask_pool`) and ``recount`` (:func:`counting.job.recount`)
all count a unit with :func:`count_unit`, so a unit is counted the same way
wherever it runs; only the :class:`~counting.options.CountOptions` value
chooses the method, and counts never depend on it.

Each process keeps one engine per shape (the *engine cache*): the memo table
survives from one unit to the next, which is always correct because its keys
are exact states of the same matrix.  ``fresh_memo=True`` empties it first,
for recounts that must not reuse anything from the first count.

:func:`estimate_cost` is the cheap guess by which both pools hand out units,
longest first (:func:`longest_first`).

Example
-------
>>> from counting.reduction import get_reduction
>>> count_unit(get_reduction("2x2", "moves").units()[0]).count
2
"""
from __future__ import annotations

import dataclasses
import functools
import math
import multiprocessing
import os
import socket
from datetime import datetime, timezone
from typing import Iterable

import numpy as np

from counting.options import CountOptions
from counting.units import UnitResult, UnitSpec
from dlx import ENGINE_VERSION, ExactCover
from grids.shape import Shape, as_shape
from grids.sudoku import Sudoku

__all__ = ["count_unit", "unit_problem", "worker_name", "estimate_cost", "estimate_work", "longest_first"]

# The engine cache: one ExactCover per (shape, priority) in this process.
_ENGINES: dict[tuple[str, str | None], ExactCover] = {}


def _exact_cover(shape: str, priority: str | None) -> ExactCover:
    key = (shape, priority)
    ec = _ENGINES.get(key)
    if ec is None:
        ec = _ENGINES[key] = Sudoku.from_shape(shape).exact_cover(priority=priority)
    return ec


def count_unit(spec: UnitSpec, options: CountOptions = CountOptions(), *,
               fresh_memo: bool = False) -> UnitResult:
    """Count one unit with the engine (band 1 and column 1 given).

    Memo counting fills the grid row by row (``Sudoku.row_priority``) and
    memoizes at row ends; plain counting uses the same order, which is also
    the fastest plain order measured (``results/bench_engine.md``).  The
    tail (``options.tail_enabled``) counts the last band in closed form
    (``Sudoku.tail_rows``) where the shape has one.  ``fresh_memo`` empties
    this process's memo table first (independent recounts).

    A unit that carries no givens (a two-band pattern unit,
    :class:`counting.reduction.patterns2.PatternUnitSpec`) is counted by its
    reduction's own ``count_unit``, on its own matrix.
    """
    if not isinstance(spec, UnitSpec):
        from counting.reduction import get_reduction
        result = get_reduction(spec.shape, spec.reduction).count_unit(
            spec, options, fresh_memo=fresh_memo)
        return dataclasses.replace(result, worker=worker_name())
    ec, given = unit_problem(spec)
    if fresh_memo:
        ec.clear_memo()
    count = ec.count(given=given, memo=options.memo, memo_mb=options.memo_mb,
                     tail=options.tail_enabled and ec.has_tail)
    st = ec.stats
    return UnitResult(
        unit_id=spec.unit_id, class_id=spec.class_id, form_id=spec.form_id,
        count=count, nodes=st.nodes, dead_ends=st.dead_ends, memo_hits=st.memo_hits,
        seconds=round(st.seconds, 6), host=socket.gethostname(),
        engine_version=ENGINE_VERSION,
        finished_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        worker=worker_name(),
    )


def unit_problem(spec) -> tuple[ExactCover, list[int]]:
    """The matrix a unit is counted on (this process's cached one, memo,
    priorities and tail included) and the unit's given rows in it.

    A unit without givens is its reduction's: ``reduction.unit_problem``.
    """
    if not isinstance(spec, UnitSpec):
        from counting.reduction import get_reduction
        return get_reduction(spec.shape, spec.reduction).unit_problem(spec)
    sud = Sudoku.from_shape(spec.shape)
    return _exact_cover(spec.shape, "rows"), [sud.row_index(r, c, d) for r, c, d in spec.givens]


def worker_name() -> str:
    """This process as a worker: ``"NAME:PID"`` (``"SpawnPoolWorker-2:4711"``,
    ``"MainProcess:4700"`` when the unit is counted in the calling process)."""
    return f"{multiprocessing.current_process().name}:{os.getpid()}"


def estimate_cost(spec: UnitSpec) -> float:
    """A cheap, computed guess of a unit's search cost (for ordering only).

    The log of the product of candidate counts over the blank cells after
    the givens (a blank cell's candidates: the digits none of its peers
    holds): more freedom means a larger tree.  It decides only the order in
    which units are handed out (longest first); counts never depend on it.

    Example
    -------
    >>> from counting.units import UnitSpec
    >>> empty = UnitSpec("2x2", "moves", 0, 0, 0, 1, ())
    >>> round(estimate_cost(empty) / math.log(4), 9)    # 16 cells, 4 digits each
    16.0
    """
    if not isinstance(spec, UnitSpec):
        return 0.0  # no givens to measure freedom by: every such unit counts alike
    shape = as_shape(spec.shape)
    grid = np.zeros(shape.n_cells, dtype=np.int64)
    for r, c, d in spec.givens:
        grid[r * shape.n + c] = d
    # held[k, d]: some peer of cell k holds digit d (column 0: blank peers)
    held = np.zeros((shape.n_cells, shape.n + 1), dtype=bool)
    peers = _peer_matrix(shape)
    held[np.arange(shape.n_cells)[:, None], grid[peers]] = True
    free = shape.n - held[:, 1:].sum(axis=1)
    cost = 0.0
    for k in np.flatnonzero(grid == 0):  # in cell order, one term at a time
        cost += math.log(max(int(free[k]), 1))
    return cost


@functools.lru_cache(maxsize=None)
def _peer_matrix(shape: Shape) -> np.ndarray:
    """``(N², P)`` array: row ``k`` lists the ``P`` peers of cell ``k``
    (:attr:`Shape.peers`; every cell of a shape has as many)."""
    return np.stack(shape.peers)


def longest_first(specs: Iterable[UnitSpec]) -> list[UnitSpec]:
    """``specs`` in the order units are handed out: class by class, the
    class with the largest unit first, and inside a class the largest
    :func:`estimate_cost` first; ties by id.

    Keeping a class's units together lets each class finish (and be
    logged) as the run goes, not all in its last minutes; the long units
    still go out first, so the pool ends on short ones.  Units without
    givens (two-band patterns) go out smallest class first.
    """
    specs = list(specs)
    if specs and not isinstance(specs[0], UnitSpec):
        # units without givens (two-band patterns, one per class): the most
        # symmetric patterns, the smallest classes, have the most rectangles
        # and the longest counts (results/5x2-units.csv), so they go first
        return sorted(specs, key=lambda s: (s.weight, s.unit_id))
    cost = {s.unit_id: estimate_cost(s) for s in specs}
    top: dict[int, float] = {}
    for s in specs:
        top[s.class_id] = max(top.get(s.class_id, -math.inf), cost[s.unit_id])
    return sorted(specs, key=lambda s: (-top[s.class_id], s.class_id, -cost[s.unit_id], s.unit_id))


def estimate_work(specs: Iterable[UnitSpec]) -> dict[int, float]:
    """Each unit's share of the job's work, by unit id (the shares sum to 1).

    :func:`estimate_cost` is the log of a search-space size, so the work of
    a unit is taken as ``exp(cost)``, the size itself (computed relative to
    the largest, so no float overflows).  On the 9×9 job this puts the
    share of work done within 2 % of the share of time spent at every
    point of a run, where counting units is off by up to 6 %.  It moves
    only the progress bar; counts never depend on it.
    """
    cost = {s.unit_id: estimate_cost(s) for s in specs}
    if not cost:
        return {}
    top = max(cost.values())
    size = {u: math.exp(c - top) for u, c in cost.items()}
    total = math.fsum(size.values())
    return {u: v / total for u, v in size.items()}
