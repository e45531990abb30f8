"""What a unit given on the grid costs, for ordering and progress only.

The units of the band reductions are partial grids (:class:`UnitSpec`).
:func:`estimate_cost` guesses a unit's search cost from the freedom its
givens leave; :func:`longest_first` is the order in which both pools hand
such units out and :func:`estimate_work` each unit's share of the progress
bar.  Counts never depend on any of them.  Reductions whose units carry no
givens order them otherwise (:meth:`Reduction.hand_out`).
"""
from __future__ import annotations

import functools
import math
import random
from typing import Iterable

import numpy as np

from counting.units import UnitSpec
from grids.shape import Shape, as_shape

__all__ = ["estimate_cost", "longest_first", "estimate_work", "smallest_class_first",
           "even_work", "smallest_orbits_sample", "stratified_sample", "stratum_shares"]


def smallest_class_first(specs: Iterable) -> list:
    """Units without givens (two-band patterns, one per class; Burnside's
    units): the smallest classes first.  The most symmetric patterns, the
    smallest classes, have the most rectangles and the longest counts
    (``results/5x2-units.csv``), so they go first."""
    return sorted(specs, key=lambda s: (s.weight, s.unit_id))


def smallest_orbits_sample(units: Iterable, k: int, seed: int = 0) -> list:
    """The ``k`` Burnside units of the smallest classes, the identity (unit
    0, whose count is the grid count's) aside: their elements fix the most
    grids, so they are the costliest units, and an estimate from them errs
    high.  ``seed`` only orders ties."""
    rng = random.Random(seed)
    rest = [u for u in units if u.unit_id != 0]
    return sorted(rest, key=lambda u: (u.size, rng.random()))[:k]


def stratified_sample(strata: list[list], k: int, seed: int = 0) -> list:
    """``k`` units drawn from ``strata`` (lists of units that share no
    unit), each uniformly at random without replacement: first one from
    each stratum in turn, then the rest from the first stratum (the one
    that carries the work), the next when it runs out.  Every stratum that
    has units gives one, even beyond ``k``: a stratum none is drawn from
    would be estimated by the others' units.  The same ``seed`` draws the
    same units.  Weigh what they measure by :func:`stratum_shares`.

    Example
    -------
    >>> stratified_sample([[1, 2, 3], [10, 20]], 3, seed=4)[1] in (10, 20)
    True
    """
    rng = random.Random(seed)
    pools = [rng.sample(list(s), len(s)) for s in strata]
    out = [p.pop() for p in pools if p]
    for p in pools:
        while p and len(out) < k:
            out.append(p.pop())
    return out


def stratum_shares(strata: list[list], sample: list) -> list[float]:
    """How many units of ``strata`` each unit of ``sample`` stands for:
    its stratum's size over the number sampled from it (a stratum none was
    sampled from is shared evenly by every sampled unit), so that
    ``Σ share · cost`` estimates the strata's whole cost and the shares sum
    to their units.

    Example
    -------
    >>> stratum_shares([[1, 2, 3, 4], [10, 20]], [1, 2, 10])
    [2.0, 2.0, 2.0]
    """
    where = {u: i for i, s in enumerate(strata) for u in s}     # units are hashable
    picked = [0] * len(strata)
    for u in sample:
        picked[where[u]] += 1
    left = sum(len(s) for s, m in zip(strata, picked) if not m) / max(len(sample), 1)
    return [len(strata[where[u]]) / picked[where[u]] + left for u in sample]


def even_work(specs: Iterable) -> dict[int, float]:
    """Every unit an equal share of the work (units with no givens to
    measure freedom by)."""
    ids = [s.unit_id for s in specs]
    return {u: 1 / len(ids) for u in ids}


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
    still go out first, so the pool ends on short ones.
    """
    specs = list(specs)
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
