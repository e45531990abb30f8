"""What a count by the kernel will cost, before it runs: CPU time and memo.

The kernel memoises ``F_d`` on canonical classes, so a job's work is not
the sum of its units' costs counted apart (each would redo the classes the
others share) but, for every degree ``d`` the recurrence passes through,

    N_d · e_d

where ``N_d`` is the number of classes of ``d``-regular graphs met (each
expanded once, on its memo miss) and ``e_d`` the CPU time of expanding one
(on the clock of the thread doing it, :func:`dlx.estimate.sample_seconds`):
enumerating its rooted children with a canonical form (and a memo probe)
each, or at the lowest memoised degree counting it outright.

* ``e_d`` is **measured** here, on graphs met by random descents from the
  sampled units (:func:`descent_seconds`).
* ``N_d`` is the number of classes at the units' degree ``D`` (known: the
  units) scaled by the ratio of labelled ``d``- and ``D``-regular bipartite
  graphs (:func:`log_labelled`, the asymptotic count of 0-1 matrices with
  constant line sums).  Classes with automorphisms are more common at
  degrees near ``n`` (sparse complements), so scaling down from ``D`` runs
  high by up to about 1.5×; when the classes at ``D`` are not enumerated,
  ``labelled / (n!)²`` is a lower bound on them.
* The memo needs a slot of :data:`SLOT_BYTES` for every class of degree
  ``memo_min .. D−1``, in a table at most three quarters full.

Example
-------
>>> round(math.exp(log_labelled(4, 2)))    # exact: 90
79
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from dlx.estimate import sample_seconds
from factorization._kernel import key_to_adj
from factorization.api import FactorizationCounter

__all__ = ["log_labelled", "descent_seconds", "FactorCost", "factor_cost", "SLOT_BYTES",
           "level_classes", "memo_bytes_needed", "tree_seconds", "distinct_share",
           "random_regular", "classes_bound"]

SLOT_BYTES = 64   # one memo entry (256-bit key, 128-bit value, degree)
_FILL = 0.75      # the table stores while at most this full


def log_labelled(n: int, d: int) -> float:
    """Natural log of the number of ``d``-regular bipartite graphs on
    ``n + n`` labelled vertices (``n × n`` 0-1 matrices with every line
    sum ``d``), by the asymptotic formula
    ``C(n,d)^{2n} / C(n², nd) · e^{-1/2}`` (O'Neil; McKay): a few per cent
    low at ``n = 10``, exact enough for ratios."""
    if not 0 <= d <= n:
        raise ValueError(f"degree must be in 0..{n}, got {d}")
    if d in (0, n):
        return 0.0
    return 2 * n * math.log(math.comb(n, d)) - math.log(math.comb(n * n, n * d)) - 0.5


def descent_seconds(counter: FactorizationCounter, adj: np.ndarray, degree: int,
                    rng: random.Random, memo_min: int = 4) -> dict[int, float]:
    """CPU seconds of expanding one class at each degree ``degree ..
    memo_min``, on one random descent from ``adj``: at ``d > memo_min`` the
    rooted children with their canonical forms, then a random one of them;
    at ``memo_min`` a count of ``F_d`` with nothing memoised below."""
    out: dict[int, float] = {}
    n = counter.n
    for d in range(degree, memo_min, -1):
        t = sample_seconds()
        keys, _ = counter.children(adj, rooted=True)
        out[d] = sample_seconds() - t
        if len(keys) == 0:
            return out
        adj = _adj(keys[rng.randrange(len(keys))], n)
    cold = FactorizationCounter(n, memo_mb=0.0, memo_min=max(memo_min, 3))
    t = sample_seconds()
    cold.count(adj, memo_min)
    out[memo_min] = sample_seconds() - t
    return out


def _adj(key_row, n: int) -> np.ndarray:
    return key_to_adj(tuple(int(w) for w in key_row), n)


@dataclass(frozen=True)
class FactorCost:
    """The estimated cost of counting ``F_D`` of ``classes`` graphs of
    order ``n`` with one shared memo.

    Attributes
    ----------
    cpu_seconds : float
        Σ_d N_d · e_d.
    levels : tuple of (degree, classes, seconds each)
    memo_bytes : int
        Memo table holding every class of degrees ``memo_min .. D−1``.
    paths : int
        Random descents the ``e_d`` are means of.
    """

    n: int
    degree: int
    cpu_seconds: float
    levels: tuple[tuple[int, float, float], ...]
    memo_bytes: int
    paths: int

    @property
    def memo_mib(self) -> float:
        return self.memo_bytes / 2 ** 20


def factor_cost(n: int, degree: int, classes: float, graphs, *, seed: int = 0,
                max_seconds: float = 6.0, memo_min: int = 4, min_paths: int = 2) -> FactorCost:
    """Estimate the work of ``F_degree`` over ``classes`` classes of order
    ``n`` (see the module): random descents from ``graphs`` (adjacency
    masks of sampled units, used in turn) for about ``max_seconds`` (at
    least ``min_paths``)."""
    rng = random.Random(seed)
    counter = FactorizationCounter(n, memo_mb=0.0)
    graphs = list(graphs)
    if not graphs:
        raise ValueError("no sampled graph to descend from")
    sums: dict[int, float] = {}
    paths, t0 = 0, time.perf_counter()
    while paths < min_paths or time.perf_counter() - t0 < max_seconds:
        for d, s in descent_seconds(counter, graphs[paths % len(graphs)], degree, rng,
                                    memo_min).items():
            sums[d] = sums.get(d, 0.0) + s
        paths += 1
    levels = tuple((d, level_classes(n, degree, classes, d), sums[d] / paths)
                   for d in range(degree, memo_min - 1, -1) if d in sums)
    return FactorCost(n, degree, math.fsum(c * e for _, c, e in levels), levels,
                      memo_bytes_needed(n, degree, classes, memo_min), paths)


def tree_seconds(n: int, adj: np.ndarray, degree: int, *, seed: int = 0,
                 max_seconds: float = 6.0, memo_min: int = 4, min_paths: int = 2,
                 below_share: float = 1.0) -> float:
    """CPU seconds of ``F_degree(adj)`` counted alone, by Knuth's estimator
    on the recurrence's tree: on a random path, the cost of expanding a node
    at each degree times the product of the branchings above it (distinct
    children: a child met twice is a memo hit).  For graphs whose classes
    rarely repeat (2×6 units on 12 + 12); it ignores hits between branches,
    so it runs high where they are common.

    ``below_share`` weights everything below the root: the share of the
    root's children that a job of many such graphs expands for the first
    time, the others being memo hits left by other units
    (:func:`distinct_share`); 1 counts the graph alone."""
    if not 0 <= below_share <= 1:
        raise ValueError(f"below_share must be in 0..1, got {below_share!r}")
    rng = random.Random(seed)
    counter = FactorizationCounter(n, memo_mb=0.0)
    total, paths, t0 = 0.0, 0, time.perf_counter()
    while paths < min_paths or time.perf_counter() - t0 < max_seconds:
        g, weight = adj, 1.0
        for d in range(degree, memo_min, -1):
            t = sample_seconds()
            keys, _ = counter.children(g, rooted=True)
            total += weight * (sample_seconds() - t)
            if len(keys) == 0:
                weight = 0.0
                break
            weight *= len(keys) * (below_share if d == degree else 1.0)
            g = _adj(keys[rng.randrange(len(keys))], n)
        if weight:
            cold = FactorizationCounter(n, memo_mb=0.0, memo_min=max(memo_min, 3))
            t = sample_seconds()
            cold.count(g, memo_min)
            total += weight * (sample_seconds() - t)
        paths += 1
    return total / paths


def distinct_share(key_sets: Sequence[set], units: int) -> float:
    """The share of the children of a job's ``units`` graphs that the job
    expands once, the rest being memo hits, estimated from the sets of
    children (canonical keys) of ``len(key_sets)`` of its graphs drawn at
    random without replacement; 1 (nothing shared) from fewer than two.

    With ``m_c`` the number of the job's graphs that have child class ``c``,
    the job meets ``T = Σ m_c`` children and expands ``D`` distinct classes.
    The sample estimates ``T`` (``units`` × the mean set size) and
    ``Q = Σ m_c (m_c − 1)`` from the children shared by its pairs (a pair
    of the job's graphs shares ``Q / (units (units − 1))`` on average), and
    the share is ``T / (T + Q) = T / Σ m_c²``: exactly ``D / T`` when every
    class is shared by equally many graphs, lower when they share unequally
    (Cauchy–Schwarz: ``T² ≤ D Σ m_c²``), so it can err low.  2×5: 0.06 from
    all 346 units, against 0.09 counted (13,857 classes of 152,561 children).

    Example
    -------
    >>> distinct_share([{1, 2}, {2, 3}, {3, 1}], 3)   # every class in 2 of 3
    0.5
    >>> distinct_share([{1, 2}, {3, 4}], 10), distinct_share([{1}], 10)
    (1.0, 1.0)
    """
    k = len(key_sets)
    if k < 2 or units < 2:
        return 1.0
    occurrences = units * sum(len(s) for s in key_sets) / k                  # T
    shared = sum(len(a & b) for i, a in enumerate(key_sets) for b in key_sets[i + 1:])
    pairs = shared * units * (units - 1) / (k * (k - 1)) * 2                 # Q
    if occurrences + pairs == 0:
        return 1.0
    return min(1.0, occurrences / (occurrences + pairs))


def random_regular(n: int, d: int, rng: random.Random) -> np.ndarray:
    """A random ``d``-regular bipartite graph on ``n + n``: ``n − d`` random
    disjoint perfect matchings removed from ``K_{n,n}`` (each drawn by
    rejection, a uniform permutation until it avoids the removed edges)."""
    adj = np.full(n, (1 << n) - 1, dtype=np.uint32)
    for _ in range(n - d):
        while True:
            p = rng.sample(range(n), n)
            if all(int(adj[c]) >> p[c] & 1 for c in range(n)):
                break
        for c in range(n):
            adj[c] &= ~np.uint32(1 << p[c])
    return adj


def level_classes(n: int, degree: int, classes: float, d: int) -> float:
    """Estimated classes at degree ``d`` from ``classes`` at ``degree``: scaled
    by the labelled counts (see the module)."""
    return classes * math.exp(log_labelled(n, d) - log_labelled(n, degree))


def classes_bound(n: int, d: int) -> int:
    """A lower bound on the classes of ``d``-regular graphs on ``n + n``:
    labelled graphs over the ``(n!)²`` relabellings (estimated count)."""
    return max(1, math.ceil(math.exp(log_labelled(n, d) - 2 * math.lgamma(n + 1))))


def memo_bytes_needed(n: int, degree: int, classes: float, memo_min: int = 4) -> int:
    """Bytes of a memo table that holds every class of degrees ``memo_min ..
    degree − 1`` (estimated from ``classes`` at ``degree``), at most three
    quarters full."""
    stored = sum(level_classes(n, degree, classes, d) for d in range(memo_min, degree))
    return int(stored * SLOT_BYTES / _FILL)
