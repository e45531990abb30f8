"""Latin rectangles and squares counted as ordered 1-factorizations.

A ``k × n`` Latin rectangle whose column ``c`` holds the set ``P_c`` is an
*ordered 1-factorization* of the ``k``-regular bipartite graph ``G_P``
(columns vs symbols, an edge when the symbol lies in the column's set): row
``i`` is a perfect matching and the ``k`` rows partition the edges.
``F_k(G)`` is their number.  This module validates inputs and turns the
private kernel's (:mod:`factorization._kernel`) counts into exact Python
ints; the identities it uses (each tested in ``tests/factorization``):

* ``F_1 = 1`` (a perfect matching), ``F_2 = 2^c`` (``c`` cycles).
* Rooted recurrence: ``F_d(G) = d · Σ_{M ∋ e} F_{d-1}(G - M)`` over the
  perfect matchings ``M`` through one edge ``e`` (colour classes are
  symmetric, so ``e`` has each colour in ``F_d / d`` factorizations).
* 2-factors: ``F_4(G) = Σ_K 2^{c(K) + c(G - K)}`` over the 2-factors ``K``
  (colours 1, 2 form ``K``), the kernel's ``F_4``, enumerated as
  ``6 · Σ`` over the ``K`` through two fixed edges of one column.
* ``F_d`` is a class function of ``G`` under permuting columns and symbols
  separately, so it is memoised on a canonical form.
* ``L_n = F_n(K_{n,n})``; ``k × n`` rectangles are the sequences of ``k``
  disjoint perfect matchings of ``K_{n,n}``.

Work above the overflow bound
-----------------------------
The kernel counts in 128 bits while ``(d!)^n < 2^127`` (``F_d <= (d!)^n``:
a column's ``d`` edges take distinct colours).  Above it (the top levels of
``L_n`` from ``n = 9``) this module applies the rooted recurrence itself,
with the children of a graph grouped by canonical form and Python ints.

Units
-----
:func:`latin_units` descends the rooted recurrence from ``K_{n,n}`` down
to degree ``d`` and returns the distinct classes there with computed
weights, so that ``L_n = Σ weight · F_d(H)``; each :func:`count_unit_class`
is independent (a pool can spread them).  The weights are the products of
the factors ``d`` and matching multiplicities on the way down: exact ints.

How a reduction or the CLI calls it
-----------------------------------
* ``patterns2`` unit (``R × 2R`` rectangles with column sets): the unit's
  count ``c = L(P) / R!`` is
  ``count_factorizations(spec.column_sets, counter=C) // math.factorial(R)``
  with one ``C = FactorizationCounter(2 * R)`` per worker process (its memo
  carries over between units; keys are exact classes).
* Latin squares of order ``n`` as a job: ``units = latin_units(n, d)``
  (``d = n // 2 + 1``: 3,506 units for ``n = 9``) in the store with
  ``unit.key`` / ``unit.column_sets`` and ``unit.weight``; a worker counts
  ``count_unit_class(unit, counter=C)`` (``C = FactorizationCounter(n)``);
  the total is ``Σ unit.weight * count``.  Or in one call:
  ``latin_squares(n, workers=W)``.
* ``count 1xN --rows K``: ``latin_rectangles(K, N)``.
"""
from __future__ import annotations

import math
import multiprocessing
import os
import sys
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from factorization._kernel import CANON_VERSION, Kernel, key_to_adj
from factorization.memo_file import (MemoFile, MemoFileError, NoRoomForMemo, open_memo, refusal,
                                     reserve)

__all__ = ["count_factorizations", "latin_rectangles", "latin_squares", "latin_units",
           "count_unit_class", "count_unit_chunk", "adjacency", "LatinUnit",
           "FactorizationCounter", "MAX_N", "process_counter", "process_memo_mb",
           "reserve_process_memo", "shared_memo_refusal", "NoRoomForMemo", "PROCESS_MEMO_MIN_MB",
           "ENGINE_NAME", "KERNEL_VERSION", "CANON_VERSION", "KERNEL_LIMIT",
           "forget_process_counters"]

ENGINE_NAME = "factorization-2"   # what a count made by this kernel names as its engine
#: the kernel and its canonical form (unit ids of ``factor`` jobs follow the
#: order of canonical keys): what a store of such a job records as its engine
KERNEL_VERSION = f"{ENGINE_NAME} canon-{CANON_VERSION}"

MAX_N = 16          # vertices a side: a canonical key row is 16 bits
KERNEL_LIMIT = 1 << 127   # kernel counters are unsigned 128-bit: larger levels run in Python ints


def _fits(n: int, d: int) -> bool:
    """Whether ``F_d`` of any ``d``-regular graph on ``n + n`` fits the kernel."""
    return math.factorial(d) ** n < KERNEL_LIMIT


def _key(row) -> tuple[int, ...]:
    return tuple(int(x) for x in row)


@dataclass(frozen=True)
class LatinUnit:
    """One independent piece of ``L_n``: ``weight · F_degree(graph)``.

    Attributes
    ----------
    unit_id : int
        Position in the order of canonical keys.
    n : int
        Order of the squares.
    degree : int
        ``d``: the graph is what remains after ``n - d`` rows.
    key : tuple of int
        The canonical key of the remaining ``d``-regular graph (4 words).
    weight : int
        Its computed multiplicity, so that ``L_n = Σ weight · F_d``.
    """

    unit_id: int
    n: int
    degree: int
    key: tuple[int, ...]
    weight: int

    @property
    def column_sets(self) -> tuple[tuple[int, ...], ...]:
        """The remaining graph as column sets of symbols ``1..n``."""
        adj = key_to_adj(self.key, self.n)
        return tuple(tuple(s + 1 for s in range(self.n) if (int(a) >> s) & 1) for a in adj)


class FactorizationCounter:
    """Counts ``F_d`` for graphs with ``n`` columns and ``n`` symbols.

    Holds the kernel's bounded memo (classes of degree ``>= memo_min``) and a
    Python memo for the levels above the 128-bit bound; reuse one counter for
    many graphs of one ``n``.

    Parameters
    ----------
    n : int
        Vertices a side, ``1..16``.
    memo_mb : float
        Size of the kernel's memo table in MiB (0: no memo).  When it is
        three quarters full, further results are computed but not stored
        (``stats()["dropped"]`` counts them).
    memo_min : int
        Smallest degree whose ``F_d`` is memoised (default 4; ``F_3`` is
        cheaper to recount than to canonicalise).
    memo_file : MemoFile, optional
        A mapped memo file (:func:`factorization.memo_file.open_memo`) to use
        as the table instead of a private one of ``memo_mb``: shared with
        every process that maps it, and kept when they end.
    """

    def __init__(self, n: int, memo_mb: float = 64.0, memo_min: int = 4,
                 memo_file: MemoFile | None = None):
        _check_int("n", n, 1, MAX_N)
        if not memo_mb >= 0:
            raise ValueError(f"memo_mb must be >= 0, got {memo_mb!r}")
        _check_int("memo_min", memo_min, 3, MAX_N)
        self.n = int(n)
        self.memo_file = memo_file
        self.kernel = Kernel(self.n, float(memo_mb), int(memo_min),
                             None if memo_file is None else memo_file.buffer)
        self._top: dict[tuple, int] = {}
        self._last_children: tuple = (None, None, None)   # ((adj, d), keys, multiplicities)

    def count(self, adj: np.ndarray, d: int) -> int:
        """``F_d`` of the ``d``-regular graph ``adj`` (``n`` uint32 masks), unchecked."""
        adj = np.ascontiguousarray(adj, dtype=np.uint32)
        if _fits(self.n, d):
            return self.kernel.count(adj, d)
        key = (self.kernel.canonical(adj), d)
        if key not in self._top:
            total = sum(int(m) * self.count(key_to_adj(_key(child), self.n), d - 1)
                        for child, m in zip(*self.children(adj, rooted=True)))
            self._top[key] = d * total
        return self._top[key]

    def children(self, adj: np.ndarray, rooted: bool) -> tuple[np.ndarray, np.ndarray]:
        """Distinct canonical keys of ``G - M`` over the perfect matchings ``M``
        (through the root edge, column 0's lowest symbol, when ``rooted``) and
        how many ``M`` give each."""
        keys = self.kernel.children(np.ascontiguousarray(adj, dtype=np.uint32), bool(rooted))
        if len(keys) == 0:
            return keys, np.zeros(0, dtype=np.int64)
        return np.unique(keys, axis=0, return_counts=True)

    def count_chunk(self, adj: np.ndarray, d: int, chunk: int, chunks: int) -> int:
        """One of ``chunks`` parts of ``F_d(adj)``, which sum to it exactly:
        ``d · Σ m_i · F_{d-1}(child_i)`` over the rooted children (distinct
        canonical keys in sorted order, :meth:`children`) whose position
        ``i`` is ``chunk`` modulo ``chunks``.  The children of the last graph
        asked are kept, so the chunks of one graph in a row enumerate them once.

        Example
        -------
        >>> c, k = FactorizationCounter(5), np.full(5, 31, dtype=np.uint32)
        >>> sum(c.count_chunk(k, 5, j, 3) for j in range(3)) == c.count(k, 5) == 161280
        True
        """
        _check_int("chunks", chunks, 1, 1 << 30)
        _check_int("chunk", chunk, 0, chunks - 1)
        adj = np.ascontiguousarray(adj, dtype=np.uint32)
        if self._last_children[0] != (adj.tobytes(), d):
            self._last_children = ((adj.tobytes(), d), *self.children(adj, rooted=True))
        _, keys, mult = self._last_children
        return d * sum(int(mult[i]) * self.count(key_to_adj(_key(keys[i]), self.n), d - 1)
                       for i in range(chunk, len(keys), chunks))

    def stats(self) -> dict:
        """Memo use and work: ``entries``, ``bytes`` (the table's), ``capacity``,
        ``hits``, ``misses``, ``dropped``, ``damaged`` (slots of a key sought
        whose checksum failed: recomputed), ``canon_calls``, ``canon_leaves``,
        ``matchings``, ``top_entries`` (the Python memo above the bound) and
        ``memo_file`` (its path, or None for a private table)."""
        return dict(self.kernel.stats(), top_entries=len(self._top),
                    memo_file=None if self.memo_file is None else str(self.memo_file.path))


def _check_int(name, v, lo, hi):
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not lo <= v <= hi:
        raise ValueError(f"{name} must be an integer in {lo}..{hi}, got {v!r}")


def adjacency(column_sets: Sequence[Iterable], k: int | None = None) -> tuple[np.ndarray, int]:
    """Validate column sets; return the masks (symbols in sorted order) and k
    (one line naming the problem, as :func:`count_factorizations`)."""
    if isinstance(column_sets, (str, bytes)):
        raise ValueError(f"column_sets must be a sequence of sets, got {column_sets!r}")
    sets = [list(s) for s in column_sets]
    n = len(sets)
    if not 1 <= n <= MAX_N:
        raise ValueError(f"need 1..{MAX_N} column sets, got {n}")
    for c, s in enumerate(sets):
        if len(set(s)) != len(s):
            raise ValueError(f"column {c}: repeated symbol in {s!r}")
    if k is None:
        k = len(sets[0])
    _check_int("k", k, 1, n)
    for c, s in enumerate(sets):
        if len(s) != k:
            raise ValueError(f"column {c}: needs {k} symbols (k-regular), got {len(s)}")
    symbols = set().union(*map(set, sets))
    try:
        order = sorted(symbols)
    except TypeError:
        raise ValueError("symbols must be mutually comparable") from None
    if len(order) != n:
        raise ValueError(f"{n} columns need {n} distinct symbols, got {len(order)}")
    index = {s: i for i, s in enumerate(order)}
    adj = np.zeros(n, dtype=np.uint32)
    for c, s in enumerate(sets):
        for x in s:
            adj[c] |= np.uint32(1 << index[x])
    for x, i in index.items():
        deg = sum(int(a) >> i & 1 for a in adj)
        if deg != k:
            raise ValueError(f"symbol {x!r} lies in {deg} column sets; each must lie in {k}")
    return adj, int(k)


def count_factorizations(column_sets: Sequence[Iterable], k: int | None = None, *,
                         counter: FactorizationCounter | None = None,
                         memo_mb: float = 64.0) -> int:
    """Number of ``k × n`` Latin rectangles whose column ``c`` holds ``column_sets[c]``.

    Equivalently ``F_k(G)``, the ordered 1-factorizations of the bipartite
    graph columns–symbols.

    Parameters
    ----------
    column_sets : sequence of iterables
        ``n <= 16`` sets of ``k`` distinct, mutually comparable symbols; the
        union must have ``n`` symbols, each in exactly ``k`` sets.
    k : int, optional
        The degree (default: the size of the first set).
    counter : FactorizationCounter, optional
        Reuse its memo (its ``n`` must match).
    memo_mb : float
        Memo size when no counter is given.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        One line naming the problem (a set of the wrong size, a symbol in
        the wrong number of sets, ...).

    Example
    -------
    >>> count_factorizations([{1, 2}, {3, 4}, {1, 3}, {2, 4}])
    2
    """
    adj, k = adjacency(column_sets, k)
    if counter is None:
        counter = FactorizationCounter(len(adj), memo_mb)
    elif counter.n != len(adj):
        raise ValueError(f"counter is for n = {counter.n}, the sets have n = {len(adj)}")
    return counter.count(adj, k)


def _complete(n: int) -> np.ndarray:
    return np.full(n, (1 << n) - 1, dtype=np.uint32)


def latin_squares(n: int, *, memo_mb: float = 256.0, workers: int = 1,
                  unit_degree: int | None = None, stats: dict | None = None) -> int:
    """``L_n``, the number of ``n × n`` Latin squares, as ``F_n(K_{n,n})``.

    With ``workers > 1`` the rooted recurrence is unfolded down to degree
    ``unit_degree`` (default ``n // 2 + 1``) by :func:`latin_units` and the
    units are counted by a process pool.  ``stats``, when a dict, receives the
    memo figures (summed over workers) and the number of units.

    Example
    -------
    >>> [latin_squares(n) for n in range(1, 6)]
    [1, 2, 12, 576, 161280]
    """
    _check_int("n", n, 1, MAX_N)
    _check_int("workers", workers, 1, 256)
    if workers == 1:
        counter = FactorizationCounter(n, memo_mb)
        total = counter.count(_complete(n), n)
        if stats is not None:
            stats.update(counter.stats())
        return total
    d = n // 2 + 1 if unit_degree is None else unit_degree
    units = latin_units(n, d)
    total, st = _count_units_pool(units, workers, memo_mb)
    if stats is not None:
        stats.update(st, units=len(units))
    return total


def _worker_init(n: int, memo_mb: float):
    global _WORKER
    _WORKER = FactorizationCounter(n, memo_mb)


def _worker_count(chunk):
    """Σ weight · F over a chunk of units, with this worker's cumulative stats."""
    total = sum(u.weight * count_unit_class(u, counter=_WORKER) for u in chunk)
    return total, os.getpid(), _WORKER.stats()


def _count_units_pool(units, workers, memo_mb):
    """Σ weight · F over the units on a pool of ``workers`` processes, each
    with its own memo of ``memo_mb / workers``; returns the total and the
    memo figures summed over the workers."""
    n = units[0].n
    # small chunks, interleaved, so the two ends of the key order mix
    n_chunks = min(len(units), 16 * workers)
    chunks = [units[i::n_chunks] for i in range(n_chunks)]
    ctx = multiprocessing.get_context("fork")
    latest: dict[int, dict] = {}
    total = 0
    with ctx.Pool(workers, _worker_init, (n, memo_mb / workers)) as pool:
        for part, pid, st in pool.imap_unordered(_worker_count, chunks):
            total += part
            if pid not in latest or st["canon_calls"] >= latest[pid]["canon_calls"]:
                latest[pid] = st
    keys = ("entries", "bytes", "hits", "misses", "dropped", "canon_calls", "canon_leaves",
            "matchings")
    return total, {k: sum(st[k] for st in latest.values()) for k in keys}


def latin_units(n: int, degree: int, *, counter: FactorizationCounter | None = None
                ) -> list[LatinUnit]:
    """Split ``L_n`` into independent units at ``degree``.

    Unfolds ``F_n(K_{n,n}) = n · Σ_{M ∋ e} F_{n-1}(K - M)`` level by level,
    merging children with equal canonical forms (weights add), down to the
    ``degree``-regular graphs; then ``L_n = Σ_units weight · F_degree(graph)``.

    Example
    -------
    >>> units = latin_units(4, 2)
    >>> sum(u.weight * count_unit_class(u) for u in units)
    576
    """
    _check_int("n", n, 1, MAX_N)
    _check_int("degree", degree, 1, n)
    if counter is None:
        counter = FactorizationCounter(n, memo_mb=0)
    level = {counter.kernel.canonical(_complete(n)): 1}
    for d in range(n, degree, -1):
        nxt: dict[tuple, int] = {}
        for key, w in level.items():
            kids, mult = counter.children(key_to_adj(key, n), rooted=True)
            for child, m in zip(kids, mult):
                child = _key(child)
                nxt[child] = nxt.get(child, 0) + w * d * int(m)
        level = nxt
    return [LatinUnit(i, n, degree, key, level[key]) for i, key in enumerate(sorted(level))]


def count_unit_class(unit: LatinUnit | Sequence[Iterable], degree: int | None = None, *,
                     counter: FactorizationCounter | None = None) -> int:
    """``F_d`` of a unit's graph (a :class:`LatinUnit`, or column sets).

    The unit's term of ``L_n`` is ``unit.weight * count_unit_class(unit)``.
    """
    if isinstance(unit, LatinUnit):
        adj, d = key_to_adj(unit.key, unit.n), unit.degree
    else:
        adj, d = adjacency(unit, degree)
    if counter is None:
        counter = FactorizationCounter(len(adj))
    elif counter.n != len(adj):
        raise ValueError(f"counter is for n = {counter.n}, the unit has n = {len(adj)}")
    return counter.count(adj, d)


def count_unit_chunk(column_sets: Sequence[Iterable], degree: int, chunk: int, chunks: int, *,
                     counter: FactorizationCounter | None = None) -> int:
    """Chunk ``chunk`` of ``chunks`` of ``F_degree`` of the graph of
    ``column_sets`` (:meth:`FactorizationCounter.count_chunk`): the chunks
    of one graph sum to :func:`count_unit_class` of it."""
    adj, d = adjacency(column_sets, degree)
    if counter is None:
        counter = FactorizationCounter(len(adj))
    elif counter.n != len(adj):
        raise ValueError(f"counter is for n = {counter.n}, the unit has n = {len(adj)}")
    return counter.count_chunk(adj, d, chunk, chunks)


def latin_rectangles(k: int, n: int, *, memo_mb: float = 64.0) -> int:
    """Number of ``k × n`` Latin rectangles (rows are permutations of ``n``
    symbols, no symbol twice in a column).

    A rectangle is a sequence of ``k`` disjoint perfect matchings of
    ``K_{n,n}``; they are counted level by level over canonical classes of
    the remaining graph, every matching counted (no rooting: the remaining
    rows are free).  ``k >= n - 1`` is ``L_n`` (the last row is forced).

    Example
    -------
    >>> latin_rectangles(2, 4), latin_rectangles(3, 4)
    (216, 576)
    """
    _check_int("n", n, 1, MAX_N)
    _check_int("k", k, 0, n)
    if k >= n - 1:
        return latin_squares(n, memo_mb=memo_mb)
    counter = FactorizationCounter(n, memo_mb=0)
    if k == 0:
        return 1
    # row 1: all n! permutations leave graphs isomorphic to K - I
    minus_identity = _complete(n) & ~(np.uint32(1) << np.arange(n, dtype=np.uint32))
    level = {counter.kernel.canonical(minus_identity): math.factorial(n)}
    for _ in range(1, k):
        nxt: dict[tuple, int] = {}
        for key, w in level.items():
            kids, mult = counter.children(key_to_adj(key, n), rooted=False)
            for child, m in zip(kids, mult):
                child = _key(child)
                nxt[child] = nxt.get(child, 0) + w * int(m)
        level = nxt
    return sum(level.values())


# per process: one counter (and memo table) per side n, shared by every caller
_PROCESS_COUNTERS: dict[tuple[int, bool], "FactorizationCounter"] = {}
PROCESS_MEMO_MIN_MB = 64.0   # the smallest memo table a process counter gets


def forget_process_counters() -> None:
    """Forget this process's counters (:func:`process_counter`), as a new process
    starts: the next call makes its counter anew, with the cache directory of then."""
    _PROCESS_COUNTERS.clear()


def process_memo_mb(memo_mb: float) -> float:
    """The memo table, in MiB, that :func:`process_counter` makes when asked
    for ``memo_mb``: never less than :data:`PROCESS_MEMO_MIN_MB`."""
    return max(float(memo_mb), PROCESS_MEMO_MIN_MB)


def process_counter(n: int, memo_mb: float = 64.0, shared: bool = True) -> "FactorizationCounter":
    """This process's counter for graphs of ``n`` + ``n`` vertices, made on
    first use (with a memo of :func:`process_memo_mb`) and kept: its memo keys
    are canonical forms, so every unit of every job on ``n`` may share it.

    With ``shared`` its table is the memo file of ``n`` and that size in the
    cache directory (:mod:`factorization.memo_file`), which every process of
    the machine counting on ``n`` maps and which outlives them; when the file
    cannot be used (not this kernel's, not a regular file, no room) one line
    says so on stderr and the table is private, and one line says so when its
    count of classes was wrong and was counted again."""
    c = _PROCESS_COUNTERS.get((n, shared))
    if c is None:
        mb = process_memo_mb(memo_mb)
        memo = None
        if shared:
            try:
                memo = open_memo(n, mb)
            except (MemoFileError, OSError) as e:
                print(f"gridcount: shared memo not used, this process keeps its own: {e}",
                      file=sys.stderr)
            if memo is not None and memo.recounted:
                print(f"gridcount: the memo file {memo.path} said it held "
                      f"{memo.recounted[0]:,} classes, its slots hold {memo.recounted[1]:,}: "
                      f"counted again", file=sys.stderr)
        c = _PROCESS_COUNTERS[(n, shared)] = FactorizationCounter(n, memo_mb=mb, memo_file=memo)
    return c


def reserve_process_memo(n: int, memo_mb: float = 64.0) -> bool:
    """Make the memo file that :func:`process_counter` (``shared``) maps for
    ``n`` and ``memo_mb``, every block reserved, unless it exists (True when
    made now): before the workers start, so that a disk without room for it
    is said once, :class:`NoRoomForMemo` (nothing made), and never met by a
    worker writing a slot."""
    return reserve(n, process_memo_mb(memo_mb))


def shared_memo_refusal(n: int, memo_mb: float = 64.0) -> str | None:
    """Why :func:`process_counter` (``shared``) would not map the memo file
    of ``n`` and ``memo_mb`` here, and would keep a private table saying so
    (:func:`factorization.memo_file.refusal`: one line); None when it
    would.  The process that starts the workers asks this first: it says
    it once and hands the workers private tables (a FIFO there was said
    by the parent and then again by every worker)."""
    return refusal(n, process_memo_mb(memo_mb))
