"""Public API of the dancing-links engine.

Users import this layer (``from dlx import ExactCover``); it validates every
input, converts it to the int32 arrays the compiled engine expects, and owns
the docstrings.  The compiled module ``dlx._engine`` trusts what it is given.
Private modules beside it hold its parts, re-exported here: the input checks
(``dlx._inputs``), the limits and memo-size validator (``dlx._limits``) and
:class:`SearchStats` (``dlx._stats``).

Example
-------
>>> from dlx import ExactCover
>>> rows = [[0, 3, 6], [0, 3], [3, 4, 6], [2, 4, 5], [1, 2, 5, 6], [1, 6]]
>>> ec = ExactCover(rows, n_primary=7)
>>> ec.count()
1
>>> ec.first()
[1, 3, 5]
"""
from __future__ import annotations

import time
from typing import Iterator, Sequence

import numpy as np

from dlx import _engine
from dlx._guard import ThreadGuard
from dlx._inputs import (INT32_MAX, as_index, batch_givens, check_entries, check_indptr,
                         check_limit, column_counts, int_array, tail_arguments)
from dlx._limits import BATCH_LIMIT_MAX, COUNT_LIMIT_MAX, MEMO_MB_MAX, check_memo_mb
from dlx._stats import SearchStats, search_stats

__all__ = ["ExactCover", "SearchStats", "ConflictingGivensError", "ENGINE_VERSION",
           "check_memo_mb", "MEMO_MB_MAX", "COUNT_LIMIT_MAX", "BATCH_LIMIT_MAX"]

#: Bumped whenever a change could alter what a search counts or how it is
#: stored; stores of finished units record it.
ENGINE_VERSION = "dlx1-memo-3"

_MEMO_AT = {"class": False, "all": True}


class ConflictingGivensError(ValueError):
    """Given (pre-selected) rows that share a column."""


class ExactCover:
    """An exact-cover problem solved by dancing links.

    Parameters
    ----------
    rows : sequence of sequences of int
        Each row lists the columns it covers.  Columns ``0 .. n_primary-1``
        are primary (covered exactly once in a solution), the next
        ``n_secondary`` are secondary (covered at most once).  A solution is
        a set of rows that covers every primary column once and no secondary
        column twice.  Every row must cover a primary column: Algorithm X
        branches on primary columns only, so it would never choose a row of
        secondary columns alone (Knuth's convention), and such a row is
        refused (ValueError) rather than silently left out of the count.
    n_primary : int
        Number of primary columns.
    n_secondary : int, default 0
        Number of secondary columns.
    priority : sequence of int, optional
        One value per column.  The search finishes every primary column of
        the smallest priority before it branches on a column of the next
        (minimum remaining values inside a class).  Default: one class,
        i.e. plain minimum remaining values.

    Attributes
    ----------
    stats : SearchStats
        Statistics of the last search.

    Notes
    -----
    :meth:`check_invariants`, :meth:`links_snapshot` and :meth:`collide_hashes`
    are hooks for tests (the links after a search equal those before it).

    Examples
    --------
    >>> queens4 = ExactCover([[0, 4], [0, 5], [0, 6], [0, 7], [1, 4], [1, 5],
    ...                       [1, 6], [1, 7], [2, 4], [2, 5], [2, 6], [2, 7],
    ...                       [3, 4], [3, 5], [3, 6], [3, 7]], n_primary=8)
    >>> queens4.count()   # 4 rooks on a 4x4 board
    24
    """

    def __init__(self, rows: Sequence[Sequence[int]], n_primary: int,
                 n_secondary: int = 0, *, priority: Sequence[int] | None = None):
        if isinstance(rows, (str, bytes)):
            raise ValueError("rows must be a sequence of rows of column indices")
        n_cols = sum(column_counts(n_primary, n_secondary))
        indptr = [0]
        indices: list[int] = []
        for r, row in enumerate(rows):
            if isinstance(row, (str, bytes)) or not hasattr(row, "__iter__"):
                raise ValueError(f"row {r} must be a sequence of column indices, got {row!r}")
            for v in row:
                v = as_index(v, f"row {r}: column index")
                if not 0 <= v < n_cols:
                    raise ValueError(f"row {r}: column {v} is out of range 0..{n_cols - 1}")
                indices.append(v)
            indptr.append(len(indices))
        self._setup(np.asarray(indptr, dtype=np.int64),
                    np.asarray(indices, dtype=np.int64),
                    n_primary, n_secondary, priority)

    @classmethod
    def from_csr(cls, indptr, indices, n_primary: int, n_secondary: int = 0, *,
                 priority: Sequence[int] | None = None) -> "ExactCover":
        """Build from CSR arrays: row ``r`` covers ``indices[indptr[r]:indptr[r+1]]``.

        Example
        -------
        >>> import numpy as np
        >>> ExactCover.from_csr(np.array([0, 1, 2]), np.array([0, 0]), 1).count()
        2
        """
        self = cls.__new__(cls)
        self._setup(int_array(indptr, "indptr"), int_array(indices, "indices"),
                    n_primary, n_secondary, priority)
        return self

    def _setup(self, indptr: np.ndarray, indices: np.ndarray, n_primary,
               n_secondary, priority) -> None:
        n_primary, n_secondary = column_counts(n_primary, n_secondary)
        n_cols = n_primary + n_secondary
        check_indptr(indptr, indices)
        n_rows = indptr.size - 1
        lengths = np.diff(indptr)
        if n_rows and lengths.min() == 0:
            r = int(np.flatnonzero(lengths == 0)[0])
            raise ValueError(f"row {r} is empty: every row must cover at least one column")
        check_entries(indptr, indices, n_cols, "row", "column", "is repeated")
        if n_rows and n_secondary:
            lowest = np.minimum.reduceat(indices, indptr[:-1])
            secondary_only = np.flatnonzero(lowest >= n_primary)
            if secondary_only.size:
                r = int(secondary_only[0])
                raise ValueError(f"row {r} covers only secondary columns: no solution would "
                                 f"choose it (every row must cover a primary column)")
        if n_cols + indices.size + n_rows + 4 > INT32_MAX:
            raise ValueError("matrix too large for 32-bit links")
        if priority is None:
            prio = np.zeros(n_cols, dtype=np.int32)
        else:
            if isinstance(priority, (str, bytes)):
                raise ValueError("priority must be a sequence of integers")
            values = [as_index(p, "priority") for p in priority]
            if any(abs(v) > INT32_MAX for v in values):
                raise ValueError("priority values must fit in 32 bits")
            prio = int_array(values, "priority")
            if prio.size != n_cols:
                raise ValueError(f"priority must have one entry per column "
                                 f"({n_cols}), got {prio.size}")
            if prio.size and (prio.min() < -INT32_MAX or prio.max() > INT32_MAX):
                raise ValueError("priority values must fit in 32 bits")
            prio = prio.astype(np.int32)
        self._n_rows = n_rows
        self._n_primary = n_primary
        self._n_secondary = n_secondary
        self._indptr = indptr.astype(np.int32)
        self._indices = indices.astype(np.int32)
        self._priority = prio
        self._engine = _engine.Engine(self._indptr, self._indices, n_primary,
                                      n_secondary, prio)
        self._epoch = 0
        self._memo_mb = None
        self._tail = None
        self._guard = ThreadGuard()
        self.stats = SearchStats()

    # ------------------------------------------------------------------
    @property
    def n_rows(self) -> int:
        return self._n_rows

    @property
    def n_primary(self) -> int:
        return self._n_primary

    @property
    def n_secondary(self) -> int:
        return self._n_secondary

    @property
    def n_columns(self) -> int:
        return self._n_primary + self._n_secondary

    def row(self, r: int) -> list[int]:
        """The columns of row ``r``."""
        return self._indices[self._indptr[r]:self._indptr[r + 1]].tolist()

    def csr(self) -> tuple[np.ndarray, np.ndarray]:
        """The matrix as read-only int32 CSR arrays ``(indptr, indices)``."""
        out = (self._indptr.view(), self._indices.view())
        for a in out:
            a.flags.writeable = False
        return out

    @property
    def priority(self) -> np.ndarray:
        """Each column's priority (a read-only int32 array; lower goes first)."""
        out = self._priority.view()
        out.flags.writeable = False
        return out

    # ------------------------------------------------------------------
    def _check_given(self, given) -> np.ndarray:
        rows = [as_index(g, "given row") for g in given]
        for g in rows:
            if not 0 <= g < self._n_rows:
                raise ValueError(f"given row {g} is out of range 0..{self._n_rows - 1}")
        owner: dict[int, int] = {}
        for g in rows:
            for col in self.row(g):
                if col in owner:
                    other = owner[col]
                    what = (f"given row {g} is listed twice" if other == g else
                            f"given rows {other} and {g} both cover column {col}")
                    raise ConflictingGivensError(what)
                owner[col] = g
        return np.asarray(rows, dtype=np.int32)

    def _memo_points(self, memo_at) -> tuple[bool, np.ndarray]:
        """(memo at every node?, per-column flag: its class is a memo point)."""
        n = self.n_columns
        if isinstance(memo_at, str):
            if memo_at not in _MEMO_AT:
                raise ValueError(f"memo_at must be 'class', 'all' or a set of priority "
                                 f"values, got {memo_at!r}")
            return _MEMO_AT[memo_at], np.ones(n, dtype=np.int8)
        try:
            wanted = {as_index(v, "memo_at priority") for v in memo_at}
        except TypeError:
            raise ValueError(f"memo_at must be 'class', 'all' or a set of priority "
                             f"values, got {memo_at!r}") from None
        return False, np.isin(self._priority, list(wanted)).astype(np.int8)

    @property
    def has_tail(self) -> bool:
        """Whether :meth:`set_tail` declared a tail (``count(tail=True)``)."""
        return self._tail is not None

    def _start(self, given, limit, memo: bool, memo_at="class", tail: bool = False) -> None:
        given_arr = self._check_given(given)
        memo_all, memo_class = self._memo_points(memo_at)
        self._epoch += 1
        self._engine.start(given_arr, limit, memo, memo_all, memo_class, tail)

    def set_tail(self, priority: int, cell, row_symbol, column_symbol, *,
                 lead=None) -> None:
        """Let counting finish in closed form once a Latin rectangle is left.

        A promise about this matrix, which the caller (an encoding) must be
        able to keep: whenever every primary column of priority below
        ``priority`` is covered, the uncovered problem is to fill the empty
        cells of an ``R × N`` array with ``N`` symbols so that each row holds
        the symbols it still lacks and each column the symbols it still
        lacks, once each; every other uncovered primary column is then
        covered exactly once automatically.  (A Sudoku filled row by row
        keeps it from the last band on: the band's box constraints are
        implied.)  ``count(tail=True)`` then counts that rest without
        searching it: two rows in closed form (0 or 2**cycles of a graph on
        the symbols), more rows by enumerating the first row's fillings.
        If the sizes read off the uncovered columns do not fit a rectangle
        the search simply goes on.

        With ``lead``, the tail starts one row earlier, at a *lead row*: the
        last row of the band above, whose empty cells in each stack take
        exactly the symbols that stack's box still lacks.  Its fillings are
        enumerated; the rectangle each leaves is looked up in the memo table
        (with ``memo=True``) under the key the search would use there, and
        counted only on a miss.

        Parameters
        ----------
        priority : int
            The first priority class of the tail.
        cell : (R, N) array of int
            Column "cell (r, c) is filled".  Here and below each row of
            an array must be N consecutive columns (the engine reads a
            group's uncovered columns as one window of its bitset).
        row_symbol : (R, N) array of int
            Column "row r holds symbol s".
        column_symbol : (N, N) array of int
            Column "column c holds symbol s".
        lead : tuple, optional
            ``(cell, row_symbol, box_symbol, stack)`` of the lead row:
            ``cell`` and ``row_symbol`` of length N as above, ``box_symbol``
            (S, N), column "box s of the lead row's band holds symbol d",
            and ``stack`` (N,), the box (0..S-1) of each cell.

        Example
        -------
        >>> from grids.sudoku import Sudoku
        >>> ec = Sudoku(2, 2).exact_cover(priority="rows")  # sets its tail
        >>> ec.count(tail=True), ec.count()
        (288, 288)
        """
        priority, args = tail_arguments(priority, cell, row_symbol, column_symbol, lead,
                                        self._n_primary, self._priority)
        with self._guard.held():
            self._engine.configure_tail(priority, *args)
        self._tail = priority

    def _finish(self, t0: float) -> None:
        self._engine.finish()
        self.stats = search_stats(self._engine, t0)

    def count(self, *, given: Sequence[int] = (), limit: int | None = None,
              memo: bool = False, memo_mb: float = 16, memo_at="class",
              tail: bool = False) -> int:
        """Count the exact covers (that contain the ``given`` rows).

        Parameters
        ----------
        given : sequence of int
            Rows selected up front; they must not share a column.
        limit : int, optional
            Stop once ``limit`` solutions are found and return ``limit``
            ("0, 1 or 2+" uniqueness checks use ``limit=2``); at most
            :data:`COUNT_LIMIT_MAX` (2**128 - 1).
        memo : bool
            Memoize subproblem counts keyed on the set of uncovered columns.
            The table persists between calls on this object (keys are exact
            states of this matrix, so reuse is always correct).
        memo_mb : float
            Memory budget of the memo table in MiB.
        memo_at : {"class", "all"} or set of int
            Memoize where the search moves on to a new priority class
            ("class"), at every node ("all"), or only where it moves on to a
            class whose priority value is in the given set.
        tail : bool
            Count the tail declared by :meth:`set_tail` in closed form
            instead of searching it.

        Returns
        -------
        int
            The exact number of solutions (``min(count, limit)`` with a limit).

        Raises
        ------
        OverflowError
            If the count reaches 2**128 (the engine's counters are 128-bit
            and every addition is checked, so a count is never wrapped).
        RuntimeError
            If another thread is using this object (one object per thread).

        Example
        -------
        >>> ExactCover([[0], [0], [1]], n_primary=2).count()
        2
        """
        if limit is not None:
            limit = check_limit(limit, COUNT_LIMIT_MAX, "2**128 - 1")
            if memo:
                raise ValueError("memo counting cannot stop at a limit; use memo=False")
            if tail:
                raise ValueError("tail counting cannot stop at a limit; use tail=False")
        if tail and self._tail is None:
            raise ValueError("no tail declared for this matrix: call set_tail first")
        self._memo_points(memo_at)  # validates
        with self._guard.held():
            if memo:
                self._configure_memo(memo_mb)
            t0 = time.perf_counter()
            self._start(given, limit, memo, memo_at, tail)
            try:
                rc = self._engine.run(False)
                result = self._engine.stats()["solutions"]
            finally:
                self._finish(t0)
        if rc == _engine.RC_OVERFLOW:
            raise OverflowError("solution count exceeds 2**128")
        if limit is not None:
            result = min(result, limit)
        return result

    def _configure_memo(self, memo_mb: float) -> None:
        memo_mb = check_memo_mb(memo_mb)
        if memo_mb != self._memo_mb:
            self._engine.configure_memo(int(memo_mb * 2**20))
            self._memo_mb = memo_mb

    def clear_memo(self) -> None:
        """Forget every memoized subproblem count."""
        with self._guard.held():
            self._engine.clear_memo()

    def solutions(self, *, given: Sequence[int] = (),
                  limit: int | None = None) -> Iterator[list[int]]:
        """Yield solutions as sorted lists of row indices (givens included).

        Any other search on this object ends the iteration early with a
        ``RuntimeError``; closing the iterator restores the matrix.  While
        an iteration is under way (started and not exhausted or closed),
        the object belongs to the thread that started it: any call from
        another thread, ``next`` included, raises ``RuntimeError`` and
        leaves the iteration as it was.

        Example
        -------
        >>> list(ExactCover([[0], [1], [0, 1]], n_primary=2).solutions())
        [[0, 1], [2]]
        """
        if limit is not None:
            limit = as_index(limit, "limit")
            if limit < 0:
                raise ValueError(f"limit must be >= 0, got {limit}")
        return _Solutions(self, self._check_given(given), limit)

    def first(self, *, given: Sequence[int] = ()) -> list[int] | None:
        """The first solution found, or ``None`` if there is none.

        Example
        -------
        >>> ExactCover([[0], [0, 1]], n_primary=3).first() is None   # column 2: no row
        True
        """
        iteration = self.solutions(given=given, limit=1)
        try:
            return next(iteration, None)
        finally:
            iteration.close()

    def solve_batch(self, given, *, limit: int = 2,
                    width: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Search many problems (each a set of given rows) without the GIL.

        Parameters
        ----------
        given : sequence of sequences of int, or (indptr, indices) CSR arrays
            The given rows of each problem.
        limit : int
            Stop each problem after this many solutions (2 answers "none,
            unique or several"); at most :data:`BATCH_LIMIT_MAX`.
        width : int, optional
            Columns of the returned row array (default: ``n_primary``, enough
            for any solution whose rows each cover a primary column).

        Returns
        -------
        counts : ndarray of int64, shape (n,)
            Solutions found per problem, at most ``limit``; ``-1`` where the
            given rows conflict (two distinct rows share a column).  A row
            listed twice in one problem is a ``ValueError`` naming the
            problem, as in :meth:`count`.
        rows : ndarray of int32, shape (n, width)
            The first solution's rows (givens first), ``-1`` padded; all
            ``-1`` where there is none.

        The search runs in C with the GIL released, so a thread pool over
        chunks of a batch uses every core (each thread needs its own
        ``ExactCover``: one object searches one problem at a time).

        Example
        -------
        >>> ec = ExactCover([[0], [1], [0, 1]], n_primary=2)
        >>> counts, rows = ec.solve_batch([[], [0], [0, 2]])
        >>> counts.tolist()
        [2, 1, -1]
        """
        limit = check_limit(limit, BATCH_LIMIT_MAX, f"{BATCH_LIMIT_MAX:,}")
        indptr, indices = batch_givens(given, self._n_rows)
        most = max(self._n_rows, self._n_primary)
        width = self._n_primary if width is None else as_index(width, "width")
        if not 0 <= width <= most:
            raise ValueError(f"width must be in 0..{most}, got {width}")
        n = indptr.size - 1
        counts = np.zeros(n, dtype=np.int64)
        rows = np.full((n, width), -1, dtype=np.int32)
        with self._guard.held():
            self._epoch += 1
            t0 = time.perf_counter()
            self._engine.solve_batch(indptr.astype(np.int32), indices.astype(np.int32),
                                     limit, counts, rows)
            self.stats = search_stats(self._engine, t0)
        return counts, rows

    # ------------------------------------------------------------------
    # Test hooks: the engine's invariants as a test reads them (DLX1 §12's
    # ``sanity``); not needed to count.
    def check_invariants(self) -> None:
        """For tests: walk every link list; raise AssertionError on any inconsistency."""
        with self._guard.held():
            self._engine.check_invariants()

    def links_snapshot(self) -> tuple:
        """For tests: copies of the link arrays (equal before and after any search)."""
        with self._guard.held():
            return self._engine.snapshot()

    def collide_hashes(self) -> None:
        """For tests: every memo key of this object gets hash 0 from now
        on, so all share one bucket and only the full key comparison tells
        states apart (counts must not change)."""
        with self._guard.held():
            self._engine.collide_hashes()

    def __repr__(self) -> str:
        return (f"ExactCover(n_rows={self._n_rows}, n_primary={self._n_primary}, "
                f"n_secondary={self._n_secondary})")


class _Solutions:
    """The iterator :meth:`ExactCover.solutions` returns.

    From its first step until it is exhausted, closed or collected it holds
    its ExactCover for the thread that took that step (so another thread's
    call, even ``next`` on it, is refused and leaves it as it was) and the
    engine holds its suspended search."""

    def __init__(self, ec: ExactCover, given: np.ndarray, limit: int | None):
        self._ec, self._given, self._limit = ec, given, limit
        self._found = 0
        self._epoch = -1            # the ExactCover's epoch of this search
        self._t0 = 0.0
        self._open = False          # started, not ended: holds the object
        self._done = limit == 0

    def __iter__(self) -> "_Solutions":
        return self

    def __next__(self) -> list[int]:
        ec = self._ec
        with ec._guard.held():
            if self._done:
                raise StopIteration
            if not self._open:
                ec._guard.acquire()             # released by _end
                self._open, self._t0 = True, time.perf_counter()
            try:
                if self._epoch < 0:
                    ec._start(self._given, None, False, "class")
                    self._epoch = ec._epoch
                if ec._epoch != self._epoch:
                    raise RuntimeError("another search started on this ExactCover; "
                                       "this solutions() iterator is no longer valid")
                if ec._engine.run(True) != _engine.RC_SOLUTION:
                    raise StopIteration
            except BaseException:
                self._end()
                raise
            rows = sorted(ec._engine.solution_rows())
            self._found += 1
            if self._limit is not None and self._found >= self._limit:
                self._end()
            return rows

    def close(self) -> None:
        """End the iteration and restore the matrix (idempotent)."""
        if self._open:
            with self._ec._guard.held():
                self._end()

    def _end(self) -> None:
        # The caller holds the object.  A newer search owns the matrix (and
        # unwound this one when it started): leave it alone then.
        self._done = True
        if self._open:
            self._open = False
            if self._ec._epoch == self._epoch:
                self._ec._finish(self._t0)
            self._ec._guard.release()

    def __del__(self) -> None:
        try:
            self.close()
        except RuntimeError:
            # collected in another thread while the owner uses the object:
            # only give up the hold (the next search unwinds the matrix)
            self._open, self._done = False, True
            self._ec._guard.release()
