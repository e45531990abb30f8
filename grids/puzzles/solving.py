"""Solving and counting puzzles on the engine, one at a time or in batches.

Nothing here pretends a puzzle has one solution.  :func:`classify` says
``"none"``, ``"unique"`` or ``"multiple"``; :func:`solve` returns the
solution only when it is unique and raises :class:`NoSolutionError` or
:class:`MultipleSolutionsError` otherwise.  Givens that repeat a digit in a
row, column or box are a puzzle with no solution (not a malformed one).

:func:`solve_batch` takes an ``(n, N²)`` array (or ``(n, N, N)``, or a list
of text grids) and runs the whole batch in C without the GIL: on candidate
bit-boards (:mod:`grids.puzzles.boards`) to solve and check uniqueness, on
the exact-cover engine (:func:`grids.grid.solve_grids`) to count;
``workers=k`` splits it over a thread pool, one engine per thread.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from dlx.api import BATCH_LIMIT_MAX, ConflictingGivensError, ExactCover
from grids.grid import PuzzleError, as_batch, grid_shape, shape_of, solve_grids, to_array, \
    unit_conflict
from grids.puzzles.boards import MAX_DIGITS, solve_boards
from grids.shape import Shape
from grids.sudoku import Sudoku

__all__ = [
    "STATUSES", "DEFAULT_LIMIT", "NoSolutionError", "MultipleSolutionsError", "get_sudoku",
    "thread_engine",
    "BatchResult", "solve_batch", "count_batch", "classify_batch",
    "solve", "solutions", "count_solutions", "classify", "is_unique",
]

#: Classification of a puzzle by its number of solutions.
STATUSES = ("none", "unique", "multiple")
#: Where :func:`count_solutions` and ``gridcount count-solutions`` stop
#: counting unless told otherwise (``limit=None``: exact, possibly for hours).
DEFAULT_LIMIT = 1_000_000
#: Batches with limits up to this (solve, check uniqueness) run on the
#: candidate bit-boards; larger limits count on the exact-cover engine.
BOARD_LIMIT = 2
#: Exact counts try plain search up to this many solutions before memo.
_PLAIN_COUNT_MAX = 100_000


class NoSolutionError(PuzzleError):
    """:func:`solve` on a puzzle with no solution."""


class MultipleSolutionsError(PuzzleError):
    """:func:`solve` on a puzzle with more than one solution."""



@lru_cache(maxsize=None)
def _sudoku(shape: Shape) -> Sudoku:
    return Sudoku.from_shape(shape)


def get_sudoku(shape=None, n_cells: int | None = None) -> Sudoku:
    """The :class:`~grids.sudoku.Sudoku` encoding for ``shape`` (one per shape).

    ``shape`` is a :class:`~grids.shape.Shape`, ``"RxC"``, a pair ``(R, C)``,
    a ``Sudoku``, or ``None``: 3x3, or ``k×k`` boxes when ``n_cells`` is
    ``k⁴`` (16 → 2x2, 256 → 4x4; see :func:`grids.grid.grid_shape`).

    Example
    -------
    >>> get_sudoku("2x3").n, str(get_sudoku(None, 16).shape)
    (6, '2x2')
    """
    if isinstance(shape, Sudoku):
        return shape
    return _sudoku(grid_shape(shape, n_cells))


# ----------------------------------------------------------------------
# engines

_local = threading.local()


def _solver_matrix(s: Sudoku) -> ExactCover:
    """The Sudoku matrix with its columns reordered for solving puzzles.

    The engine branches on the leftmost column of fewest rows and stops
    looking at the first column with one row left (a forced move), so the
    order of the columns decides how far each choice scans.  Putting the
    row-digit and column-digit columns (hidden singles) before the cell
    columns (naked singles) and the box-digit columns last solves the
    17-clue collection about 10% faster than the encoding's order (cell,
    row, column, box; measured in results/bench_puzzles.md).  Matrix rows
    are unchanged: row ``(r·N + c)·N + d-1`` still places ``d`` in ``(r, c)``.
    """
    indptr, indices = s.csr()
    nn = s.n * s.n
    kinds = [1, 2, 0, 3] if not s.latin else [1, 2, 0]     # R, K, C, B
    order = np.concatenate([np.arange(k * nn, (k + 1) * nn) for k in kinds])
    new_index = np.empty(s.n_columns, dtype=np.int64)
    new_index[order] = np.arange(s.n_columns)
    return ExactCover.from_csr(indptr, new_index[indices], s.n_columns)


def thread_engine(s: Sudoku, kind: str | None = "solve") -> ExactCover:
    """This thread's engine for shape ``s`` (one search per object at a time).

    ``kind``: ``"solve"`` (:func:`_solver_matrix`), ``None`` (the encoding's
    order, plain minimum remaining values) or ``"rows"`` (row by row, for
    memoized counts).
    """
    cache = getattr(_local, "ecs", None)
    if cache is None:
        cache = _local.ecs = {}
    key = (s.shape, kind)
    ec = cache.get(key)
    if ec is None:
        ec = cache[key] = _solver_matrix(s) if kind == "solve" else s.exact_cover(kind)
    return ec


@dataclass
class BatchResult:
    """Solutions of a batch.

    Attributes
    ----------
    counts : ndarray of int64, shape (n,)
        Solutions found, at most ``limit``; ``-1`` when the givens repeat a
        digit in a row, column or box (no solution).
    solutions : ndarray of int64 (or uint8, see :func:`solve_batch`), shape (n, N, N)
        The first solution found (all zeros when there is none).
    limit : int
        The limit the batch ran with.
    """

    counts: np.ndarray
    solutions: np.ndarray
    limit: int

    @property
    def n_solutions(self) -> np.ndarray:
        """``counts`` with conflicting givens as 0."""
        return np.maximum(self.counts, 0)

    @property
    def status(self) -> np.ndarray:
        """``"none"``, ``"unique"`` or ``"multiple"`` per puzzle (needs limit ≥ 2)."""
        if self.limit < 2:
            raise ValueError("a batch solved with limit=1 cannot tell unique from multiple")
        return np.asarray(STATUSES, dtype=object)[np.minimum(self.n_solutions, 2)]

    def __len__(self) -> int:
        return int(self.counts.size)


def solve_batch(grids, *, shape=None, limit: int = 2, workers: int = 1,
                chunk_size: int = 4096, dtype=np.int64) -> BatchResult:
    """Solve many puzzles in C without the GIL.

    Parameters
    ----------
    grids : array of shape (n, N²) or (n, N, N), or sequence of grids
    shape : str, optional
        Box shape (default from the grid size, see :func:`get_sudoku`).
    limit : int
        Stop each puzzle after this many solutions: 1 just solves, 2 also
        tells unique from multiple, larger values count (at most 2³¹-1).
    workers : int
        Threads; each takes chunks of ``chunk_size`` puzzles with its own
        engine, so the batch uses ``workers`` cores.
    chunk_size : int
        Puzzles per chunk (a whole number >= 1).
    dtype : np.int64 or np.uint8
        Of the solutions.  ``np.uint8`` is one byte a cell, an eighth of the
        memory, and a uint8 batch (as :func:`~grids.puzzles.files.read_puzzles`
        gives) is then solved without an int64 copy: what ``gridcount solve``
        does (grids of at most 255 digits).

    Raises ``ValueError`` naming the argument when one is out of range.

    Example
    -------
    >>> r = solve_batch(["1234341221434321", "12..............", "11.............."])
    >>> r.counts.tolist(), r.status.tolist()
    ([1, 2, -1], ['unique', 'multiple', 'none'])
    >>> solve_batch(["1234341221434321"], dtype=np.uint8).solutions.dtype.name
    'uint8'
    """
    if not _whole(limit) or not 1 <= limit <= BATCH_LIMIT_MAX:
        raise ValueError(f"limit must be a whole number in 1..{BATCH_LIMIT_MAX}, got {limit!r}")
    limit = int(limit)
    for name, value in (("workers", workers), ("chunk_size", chunk_size)):
        if not _whole(value) or value < 1:
            raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")
    arr = as_batch(grids, shape, dtype)
    s = get_sudoku(shape, arr.shape[1])
    n = s.n
    m = arr.shape[0]

    def run(lo: int, hi: int):
        return _run_batch(s, arr[lo:hi], limit)

    if workers == 1 or m <= chunk_size:
        counts, sols = run(0, m)
    else:
        # imported here: concurrent.futures (and the logging it loads) is a
        # few per cent of a one-thread `gridcount solve FILE` (issue 37)
        from concurrent.futures import ThreadPoolExecutor
        bounds = [(lo, min(lo + chunk_size, m)) for lo in range(0, m, chunk_size)]
        with ThreadPoolExecutor(max_workers=workers) as pool:
            parts = list(pool.map(lambda b: run(*b), bounds))
        counts = np.concatenate([p[0] for p in parts])
        sols = np.concatenate([p[1] for p in parts])
    return BatchResult(counts, sols.reshape(m, n, n), limit)


def _whole(value) -> bool:
    """An integer, not a bool (``True`` is no number of workers)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def count_batch(grids, *, shape=None, limit: int | None = DEFAULT_LIMIT,
                workers: int = 1) -> np.ndarray:
    """Solutions per puzzle, at most ``limit`` (so ``== limit`` means "≥ limit").

    Limits the batch engine takes (up to 2³¹-1) run as one batch on
    ``workers`` threads; larger limits, and ``limit=None`` (exact counts,
    see :func:`count_solutions`), count one puzzle at a time.  The counts are
    int64, or Python ints (an object array) when they may not fit: with
    ``limit=None`` or a limit above 2⁶³-1.

    Example
    -------
    >>> count_batch(["1234341221434321", "1" + "." * 15], limit=None).tolist()
    [1, 72]
    """
    if not _whole(workers) or workers < 1:
        raise ValueError(f"workers must be a whole number >= 1, got {workers!r}")
    if limit is not None and int(limit) <= BATCH_LIMIT_MAX:
        return solve_batch(grids, shape=shape, limit=limit, workers=workers).n_solutions
    arr = as_batch(grids, shape)
    s = get_sudoku(shape, arr.shape[1])
    counts = [count_solutions(g, limit, shape=s) for g in arr]
    fits = limit is not None and int(limit) <= np.iinfo(np.int64).max
    return np.asarray(counts, dtype=np.int64 if fits else object)


def classify_batch(grids, *, shape=None, workers: int = 1) -> np.ndarray:
    """``"none"`` / ``"unique"`` / ``"multiple"`` per puzzle."""
    return solve_batch(grids, shape=shape, limit=2, workers=workers).status


def _run_batch(s: Sudoku, arr: np.ndarray, limit: int) -> tuple[np.ndarray, np.ndarray]:
    """``(counts, flat solutions)`` of a validated batch: on candidate
    bit-boards (:mod:`grids.puzzles.boards`) to solve or check uniqueness
    (limit up to :data:`BOARD_LIMIT`) grids of at most 16 digits, else on
    this thread's exact-cover engine (which also counts with shortcuts).
    The solutions have the dtype of ``arr`` (int64 or uint8)."""
    if limit <= BOARD_LIMIT and s.n <= MAX_DIGITS:
        return solve_boards(s.shape, arr, limit)
    counts, sols = solve_grids(thread_engine(s), arr.astype(np.int64, copy=False), s.n, limit)
    return counts, sols.astype(arr.dtype, copy=False)


def _puzzle(grid, shape) -> tuple[Sudoku, np.ndarray]:
    """The encoding of ``grid``'s shape and the grid as a flat array."""
    s = get_sudoku(shape_of(grid, shape))
    return s, to_array(grid, s.shape)


def _given_rows(arr: np.ndarray, n: int) -> list[int]:
    cells = np.flatnonzero(arr)
    return (cells * n + arr[cells] - 1).tolist()


def solve(grid, *, shape=None) -> np.ndarray:
    """The unique solution of ``grid`` as an ``N × N`` array.

    Raises
    ------
    NoSolutionError
        The puzzle has no solution (the message says why when the givens
        repeat a digit).
    MultipleSolutionsError
        It has more than one; use :func:`solutions` to list them.
    """
    s, arr = _puzzle(grid, shape)
    res = _run_batch(s, arr[None, :], 2)
    count = int(res[0][0])
    if count == -1:
        raise NoSolutionError(f"no solution: {unit_conflict(arr, s.shape)}")
    if count == 0:
        raise NoSolutionError("no solution")
    if count > 1:
        raise MultipleSolutionsError("more than one solution")
    return res[1][0].reshape(s.n, s.n)


def solutions(grid, *, shape=None, limit: int | None = 100) -> list[np.ndarray]:
    """Every solution of ``grid`` (up to ``limit``) as ``N × N`` arrays, in search order."""
    s, arr = _puzzle(grid, shape)
    ec = thread_engine(s)
    try:
        return [s.to_grid(rows) for rows in ec.solutions(given=_given_rows(arr, s.n), limit=limit)]
    except ConflictingGivensError:
        return []


def count_solutions(grid, limit: int | None = DEFAULT_LIMIT, *, shape=None) -> int:
    """Number of solutions of ``grid``, at most ``limit``.

    By default it stops at :data:`DEFAULT_LIMIT` (1,000,000) solutions,
    like ``gridcount count-solutions``: a result equal to the limit means
    "at least".  With ``limit=None`` the count is exact: plain search first, and past
    100,000 solutions a memoized count (subproblems keyed on the uncovered
    columns, filling the grid row by row; 128-bit counters, exact ints).
    That is fast for puzzles, but a near-empty 9×9 grid is the full grid
    count (hours; the empty grid has 6,670,903,752,021,072,936,960
    completions), so give a limit unless the puzzle has enough givens.

    Example
    -------
    >>> count_solutions("1" + "." * 15, shape="2x2")   # 288 / 4
    72
    >>> count_solutions("." * 81, limit=1000)
    1000
    >>> count_solutions("." * 81)                       # at least a million
    1000000
    """
    s, arr = _puzzle(grid, shape)
    if limit is not None:
        if not _whole(limit) or limit < 1:
            raise ValueError(f"limit must be a whole number >= 1 (or None for an exact count), "
                             f"got {limit!r}")
        limit = int(limit)
        if limit <= BATCH_LIMIT_MAX:
            return int(max(_run_batch(s, arr[None, :], limit)[0][0], 0))
    given = _given_rows(arr, s.n)
    try:
        if limit is not None:
            return thread_engine(s).count(given=given, limit=limit)
        # Plain search (minimum remaining values over the whole grid) is
        # fastest for puzzles with few solutions; past _PLAIN_COUNT_MAX
        # solutions, count again with memo (row by row, subproblems keyed on
        # the uncovered columns), which is what near-empty grids need.
        plain = thread_engine(s).count(given=given, limit=_PLAIN_COUNT_MAX)
        if plain < _PLAIN_COUNT_MAX:
            return plain
        return thread_engine(s, "rows").count(given=given, memo=True)
    except ConflictingGivensError:
        return 0


def classify(grid, *, shape=None) -> str:
    """``"none"``, ``"unique"`` or ``"multiple"``."""
    return STATUSES[min(count_solutions(grid, 2, shape=shape), 2)]


def is_unique(grid, *, shape=None) -> bool:
    """Whether ``grid`` has exactly one solution."""
    return count_solutions(grid, 2, shape=shape) == 1

