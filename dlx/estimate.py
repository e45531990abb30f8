"""Knuth's estimator: how large, and how long, an exact-cover count will be.

Knuth (1975, "Estimating the efficiency of backtrack programs") walks one
random path down the search tree: at each node it chooses a column as the
search would, and one of the ``d`` rows still available in it uniformly at
random.  The product ``Π`` of the ``d``'s along the path is an unbiased
estimate of the number of nodes at the path's end, so ``Π · f(leaf)`` is an
unbiased estimate of ``Σ_leaves f(leaf)`` for any quantity ``f`` of a leaf.

Here a path stops at a *leaf*, after ``leaf`` rows are chosen, and the
engine counts what is left exactly, with the memo table and the tail as a
real run would.  Then

* ``Π · (leaf count)`` estimates the whole count (exactly unbiased), and
* ``Π · (leaf seconds)`` estimates the time of counting every leaf (CPU
  seconds of the counting thread, :func:`sample_seconds`, so the load of
  the machine does not inflate it): the
  time of the whole count, less the nodes above the leaves (few) and less
  what a real run saves when different leaves share memoized subcounts
  (where sharing is common the estimate is high).

A path that meets a column with no available row is a dead end and
contributes 0.  :func:`estimate` averages many paths and reports standard
errors; with no ``leaf`` it chooses the depth itself, from the branching
factors of a few full random paths, so that a leaf has about
:data:`LEAF_SOLUTIONS` completions or fewer.

Example
-------
>>> from dlx import ExactCover
>>> rooks = ExactCover([[r, 4 + c] for r in range(4) for c in range(4)], n_primary=8)
>>> e = estimate(rooks, probes=50, seed=1)
>>> e.count    # the count of 4 rooks on a 4x4 board is 24; every path sees 4·3·2·1
24.0
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from dlx.api import ExactCover

__all__ = ["Estimate", "estimate", "LEAF_SOLUTIONS", "sample_seconds"]


def sample_seconds() -> float:
    """The clock an estimate times its samples on: the CPU time of the
    calling thread, which does the work, in seconds.  Not the wall: on a
    loaded machine the wall time of a sample grows with the load, its CPU
    time does not; nor the process's CPU time, which adds its other threads'."""
    return time.thread_time()


#: The default leaf depth leaves about this many completions (or fewer) below
#: a leaf: enough that a leaf count is more than call overhead, few enough
#: that no leaf count runs long even without the memo table.
LEAF_SOLUTIONS = 10**6


@dataclass(frozen=True)
class Estimate:
    """The mean over ``probes`` random paths, with standard errors.

    Attributes
    ----------
    count, count_se : float
        Estimated number of solutions and its standard error.
    seconds, seconds_se : float
        Estimated engine seconds to count every leaf, and its standard error.
    probes : int
        Paths walked; ``dead_ends`` of them met a column with no row.
    leaf : int
        Rows each path chose before the engine counted the rest.
    leaf_nodes, leaf_dead_ends, leaf_memo_hits : int
        The engine's nodes, dead ends and memo hits, summed over the leaf
        counts it ran (a leaf met again is not counted again): the work
        the estimate searched, beside the random paths walked in numpy.
    """

    count: float
    count_se: float
    seconds: float
    seconds_se: float
    probes: int
    dead_ends: int
    leaf: int
    leaf_nodes: int = 0
    leaf_dead_ends: int = 0
    leaf_memo_hits: int = 0


class _Walker:
    """Random paths through one matrix, in the search's column order."""

    def __init__(self, ec: ExactCover, given: Sequence[int]):
        indptr, indices = ec.csr()
        self.ec = ec
        self.indptr = indptr.astype(np.int64)
        self.indices = indices.astype(np.int64)
        self.row_of = np.repeat(np.arange(ec.n_rows), np.diff(self.indptr))
        self.priority = ec.priority.astype(np.int64)
        self.primary = np.arange(ec.n_columns) < ec.n_primary
        self.start = np.zeros(ec.n_columns, dtype=bool)
        self.given = [int(g) for g in given]
        for g in self.given:
            self.start[self._cols(g)] = True

    def _cols(self, r: int) -> np.ndarray:
        return self.indices[self.indptr[r]:self.indptr[r + 1]]

    def walk(self, depth: int | None, rng: random.Random) -> tuple[int, list[int], list[int]]:
        """One random path of ``depth`` rows (None: to the end).

        Returns ``(Π, rows chosen, branching factors)``; ``Π`` is 0 at a
        dead end (a column with no available row), where the path stops.
        Columns are chosen as the search does: lowest priority first, then
        fewest available rows.  Invariant: ``covered`` holds exactly the
        columns of the givens and of the rows chosen so far; a row is
        available when none of its columns is covered.
        """
        covered = self.start.copy()
        path: list[int] = []
        branching: list[int] = []
        product = 1
        while depth is None or len(path) < depth:
            open_ = self.primary & ~covered
            if not open_.any():
                break
            choose = open_ & (self.priority == self.priority[open_].min())
            blocked = np.zeros(self.ec.n_rows, dtype=bool)
            blocked[self.row_of[covered[self.indices]]] = True
            live = ~blocked[self.row_of]          # entries of available rows
            sizes = np.bincount(self.indices[live], minlength=covered.size)
            col = int(np.argmin(np.where(choose, sizes, np.iinfo(np.int64).max)))
            d = int(sizes[col])
            branching.append(d)
            if d == 0:
                return 0, path, branching
            rows = self.row_of[live & (self.indices == col)]
            r = int(rows[rng.randrange(d)])
            product *= d
            covered[self._cols(r)] = True
            path.append(r)
        return product, path, branching

    def leaf_depth(self, rng: random.Random, walks: int = 8,
                   leaf_solutions: int = LEAF_SOLUTIONS) -> int:
        """The shallowest depth at which a typical path has at most
        ``leaf_solutions`` completions below it (Knuth's estimate from
        full random walks: the product of the branching factors below)."""
        best = []
        for _ in range(walks):
            _, _, branching = self.walk(None, rng)
            below, k = 1, len(branching)
            while k > 0 and below * max(branching[k - 1], 1) <= leaf_solutions:
                below *= max(branching[k - 1], 1)
                k -= 1
            best.append(k)
        return sorted(best)[len(best) // 2]


def estimate(ec: ExactCover, *, given: Sequence[int] = (), leaf: int | None = None,
             probes: int = 100, seed: int = 0, memo: bool = True, memo_mb: float = 16,
             tail: bool | None = None, max_seconds: float | None = None,
             leaf_solutions: int = LEAF_SOLUTIONS, min_probes: int = 10) -> Estimate:
    """Estimate the count of ``ec`` (with ``given``) and the engine time it takes.

    Parameters
    ----------
    ec : ExactCover
        The matrix; its memo table is emptied first (and left with what the
        leaves stored).
    given : sequence of int
        Rows selected up front, as for :meth:`ExactCover.count`.
    leaf : int, optional
        Rows each path chooses before the engine counts the rest; by
        default the shallowest depth with about ``leaf_solutions``
        completions or fewer below (so no leaf count runs long).
    probes : int
        Paths to walk (at least 1).
    seed : int
        Seed of the random paths: the same seed gives the same paths.
    memo, memo_mb, tail
        How the leaves are counted (``tail=None``: when the matrix has one).
    max_seconds : float, optional
        Stop walking after this long (at least ``min_probes`` paths are
        always walked).
    leaf_solutions : int
        Completions below a leaf chosen by default (:data:`LEAF_SOLUTIONS`);
        fewer make a cheaper, coarser estimate that errs high (the call
        overhead of many small leaf counts is counted as work).
    min_probes : int
        Paths walked whatever ``max_seconds`` says (at least 1).

    Returns
    -------
    Estimate
    """
    if isinstance(probes, bool) or not isinstance(probes, int) or probes < 1:
        raise ValueError(f"probes must be an int >= 1, got {probes!r}")
    tail = ec.has_tail if tail is None else bool(tail)
    walker = _Walker(ec, given)
    rng = random.Random(seed)
    ec.clear_memo()
    leaves: dict[frozenset, tuple[int, float]] = {}  # leaf -> (count, seconds)
    searched = [0, 0, 0]          # nodes, dead ends, memo hits of the leaf counts
    t0 = time.perf_counter()
    if leaf is None:
        leaf = walker.leaf_depth(rng, leaf_solutions=leaf_solutions)

    def probe() -> tuple[float, float, bool]:
        """(Π·count, Π·seconds, dead end?) of one path."""
        product, path, _ = walker.walk(leaf, rng)
        if product == 0:
            return 0.0, 0.0, True
        key = frozenset(path)
        if key not in leaves:   # a leaf met again costs what it cost the first time
            t = sample_seconds()
            c = ec.count(given=walker.given + path, memo=memo, memo_mb=memo_mb, tail=tail)
            leaves[key] = (c, sample_seconds() - t)
            st = ec.stats
            for i, v in enumerate((st.nodes, st.dead_ends, st.memo_hits)):
                searched[i] += v
        c, seconds = leaves[key]
        return float(product * c), product * seconds, False

    samples: list[tuple[float, float, bool]] = []
    while len(samples) < probes:
        if max_seconds is not None and len(samples) >= max(min_probes, 1) \
                and time.perf_counter() - t0 > max_seconds:
            break
        samples.append(probe())
    counts = [s[0] for s in samples]
    secs = [s[1] for s in samples]
    return Estimate(count=math.fsum(counts) / len(counts), count_se=_se(counts),
                    seconds=math.fsum(secs) / len(secs), seconds_se=_se(secs),
                    probes=len(samples), dead_ends=sum(s[2] for s in samples), leaf=leaf,
                    leaf_nodes=searched[0], leaf_dead_ends=searched[1],
                    leaf_memo_hits=searched[2])


def _se(values: list[float]) -> float:
    n = len(values)
    if n < 2:
        return math.inf
    mean = math.fsum(values) / n
    return math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1) / n)
