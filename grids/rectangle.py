"""Latin rectangles with given column sets, as exact cover.

An ``R × N`` *Latin rectangle with column sets* ``S_0 .. S_{N-1}`` is an
array of ``R`` rows and ``N`` columns in which every row holds each digit
``1..N`` once and column ``c`` holds the ``R`` digits of ``S_c``, once each.
The sets must have ``R`` digits each, and every digit must lie in exactly
``R`` of them (it appears once in each row, each time in another column);
then such rectangles always exist (the bipartite graph digit–column is
``R``-regular, so König's theorem splits it into ``R`` perfect matchings,
the rows).  They are what is left of a Sudoku band once its column sets are
fixed, and what the two-band reduction of :mod:`counting.reduction.patterns2`
counts.

The matrix
----------
One matrix serves every choice of column sets of one size.  Its columns,
all primary, in this order:

* cell ``(r, c)`` is filled                 — ``R·N`` columns, id ``r·N + c``
* row ``r`` holds digit ``d``                — ``R·N`` columns, ``R·N + r·N + d-1``
* column ``c`` holds digit ``d``             — ``N²`` columns, ``2·R·N + c·N + d-1``

and its rows:

* placements ``(r, c, d)``, id ``(r·N + c)·N + d-1`` (``R·N²`` rows), each
  covering its cell, row-digit and column-digit item;
* *blockers* ``(c, d)``, id ``R·N² + c·N + d-1`` (``N²`` rows), each
  covering the column-digit item ``(c, d)`` alone.

A problem selects, as given rows, the blocker of every digit ``d`` *not* in
``S_c`` (:meth:`ColumnSetRectangles.givens`).  Then the exact covers are the
rectangles: the ``R`` cells of column ``c`` take ``R`` distinct digits whose
column-digit items are still uncovered, and exactly ``R`` are (those of
``S_c``), so the placements take all of them and no further blocker can be
part of a solution.

Rows first, then the tail
-------------------------
:meth:`ColumnSetRectangles.row_priority` gives the cell and row-digit items
of row ``r`` priority ``r`` and the column-digit items priority ``R``, so
the search fills the rectangle row by row and memo points fall at row ends
(as :meth:`grids.sudoku.Sudoku.row_priority` does for grids).  Once the first
``R - T`` rows are filled, the rest is again a Latin rectangle with column
sets (``T`` rows; each column lacks ``T`` digits of its set) — exactly what
:meth:`dlx.api.ExactCover.set_tail` counts in closed form, so
:meth:`ColumnSetRectangles.exact_cover` declares the last ``tail_rows`` rows
as the tail.

Rows ordered by column 0
------------------------
Permuting the rows of a rectangle keeps its column sets, and only the
identity permutation fixes a rectangle (column 0 holds distinct digits), so
the ``R!`` row orders of a rectangle are distinct rectangles of the same
sets, exactly one of which reads ``S_0`` in increasing order down column 0.
``givens(..., order_rows=True)`` fixes column 0 that way, and the count is
then ``L / R!`` (:attr:`ColumnSetRectangles.row_order_factor`).

Example
-------
>>> rect = ColumnSetRectangles(2, 4)
>>> sets = [{1, 2}, {3, 4}, {1, 3}, {2, 4}]
>>> rect.count(sets), rect.count(sets, order_rows=True) * rect.row_order_factor
(2, 2)
"""
from __future__ import annotations

import math
from functools import cached_property
from typing import Iterable, Sequence

import numpy as np

from dlx.api import ExactCover

__all__ = ["ColumnSetRectangles"]

MAX_N = 64  # the tail reads a row or column's items as one 64-bit word


class ColumnSetRectangles:
    """The exact-cover encoding of ``R × N`` Latin rectangles with column sets.

    Parameters
    ----------
    n_rows, n_cols : int
        ``R`` and ``N``, with ``1 <= R <= N <= 64``.

    Attributes
    ----------
    n_rows, n_cols : int
        ``R`` and ``N`` (also the number of digits).
    n_columns : int
        Items of the matrix, ``2·R·N + N²``.
    row_order_factor : int
        ``R!``: rectangles per rectangle with column 0 in increasing order.

    Example
    -------
    >>> ColumnSetRectangles(5, 10).n_columns
    200
    """

    def __init__(self, n_rows: int, n_cols: int):
        for name, v in (("n_rows", n_rows), ("n_cols", n_cols)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise ValueError(f"{name} must be an integer, got {v!r}")
        if not 1 <= n_rows <= n_cols <= MAX_N:
            raise ValueError(f"rectangle must have 1 <= rows <= columns <= {MAX_N}, "
                             f"got {n_rows} x {n_cols}")
        self.n_rows = int(n_rows)
        self.n_cols = int(n_cols)
        self.n_columns = 2 * self.n_rows * self.n_cols + self.n_cols ** 2
        self.row_order_factor = math.factorial(self.n_rows)

    # -- ids -----------------------------------------------------------------
    def row_index(self, r: int, c: int, d: int) -> int:
        """Matrix row placing digit ``d`` (1..N) at ``(r, c)`` (0-based)."""
        R, N = self.n_rows, self.n_cols
        if not (0 <= r < R and 0 <= c < N and 1 <= d <= N):
            raise ValueError(f"({r}, {c}, {d}) is not a cell and digit of a {R}x{N} rectangle")
        return (r * N + c) * N + d - 1

    def blocker_index(self, c: int, d: int) -> int:
        """Matrix row that keeps digit ``d`` out of column ``c``."""
        R, N = self.n_rows, self.n_cols
        if not (0 <= c < N and 1 <= d <= N):
            raise ValueError(f"({c}, {d}) is not a column and digit of a {R}x{N} rectangle")
        return R * N * N + c * N + d - 1

    def decode(self, rows: Iterable[int]) -> np.ndarray:
        """The ``R × N`` array of the placements among ``rows`` (0 where none)."""
        R, N = self.n_rows, self.n_cols
        out = np.zeros((R, N), dtype=np.int64)
        for i in rows:
            i = int(i)
            if i < R * N * N:
                cell, d0 = divmod(i, N)
                out[cell // N, cell % N] = d0 + 1
        return out

    # -- the matrix ----------------------------------------------------------
    def csr(self) -> tuple[np.ndarray, np.ndarray]:
        """The matrix as CSR arrays ``(indptr, indices)``: placements, then blockers."""
        R, N = self.n_rows, self.n_cols
        r, c, d = (a.ravel() for a in np.meshgrid(np.arange(R), np.arange(N), np.arange(N),
                                                  indexing="ij"))
        place = np.stack([r * N + c, R * N + r * N + d, 2 * R * N + c * N + d], axis=1).ravel()
        block = 2 * R * N + np.arange(N * N)
        indices = np.concatenate([place, block])
        indptr = np.concatenate([np.arange(0, place.size + 1, 3),
                                 place.size + np.arange(1, N * N + 1)])
        return indptr, indices

    def row_priority(self) -> np.ndarray:
        """Item priorities that fill the rectangle row by row.

        Cell and row-digit items of row ``r`` get ``r``, column-digit items
        ``R`` (they are covered on the way), so memo points fall at row ends.
        """
        R, N = self.n_rows, self.n_cols
        prio = np.full(self.n_columns, R, dtype=np.int64)
        prio[:R * N] = np.arange(R * N) // N
        prio[R * N:2 * R * N] = np.arange(R * N) // N
        return prio

    def tail_columns(self, tail_rows: int) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
        """``(priority, cell, row_symbol, column_symbol)`` for
        :meth:`ExactCover.set_tail`: the last ``tail_rows`` rows."""
        R, N = self.n_rows, self.n_cols
        first = R - tail_rows
        rows = np.arange(first, R)[:, None]
        k = np.arange(N)
        return (first, rows * N + k, R * N + rows * N + k,
                2 * R * N + k[:, None] * N + k[None, :])

    def exact_cover(self, *, tail_rows: int | None = None) -> ExactCover:
        """A fresh :class:`ExactCover`, filled row by row (:meth:`row_priority`).

        ``tail_rows`` (default :attr:`default_tail_rows`; 0 for none) rows at
        the bottom are declared as the closed-form tail.
        """
        tail_rows = self.default_tail_rows if tail_rows is None else tail_rows
        if isinstance(tail_rows, bool) or not isinstance(tail_rows, (int, np.integer)) \
                or not 0 <= tail_rows <= self.n_rows:
            raise ValueError(f"tail_rows must be an integer in 0..{self.n_rows}, "
                             f"got {tail_rows!r}")
        indptr, indices = self.csr()
        ec = ExactCover.from_csr(indptr, indices, self.n_columns, priority=self.row_priority())
        if tail_rows:
            ec.set_tail(*self.tail_columns(int(tail_rows)))
        return ec

    @property
    def default_tail_rows(self) -> int:
        """Rows handed to the tail by default: three (the tail counts two in
        closed form and enumerates the third; measured fastest for 5 × 10,
        ``results/bench_patterns2.md``), or all when there are fewer."""
        return min(3, self.n_rows)

    # -- problems ------------------------------------------------------------
    def check_column_sets(self, column_sets: Sequence[Iterable[int]]) -> tuple[frozenset, ...]:
        """The column sets as frozensets, validated.

        Raises ``ValueError`` (one line) unless there are ``N`` sets of ``R``
        distinct digits ``1..N`` each and every digit lies in exactly ``R``.
        """
        R, N = self.n_rows, self.n_cols
        if isinstance(column_sets, (str, bytes)) or len(column_sets) != N:
            raise ValueError(f"need {N} column sets, got {column_sets!r}")
        out = []
        for c, s in enumerate(column_sets):
            digits = list(s)
            if any(isinstance(d, bool) or not isinstance(d, (int, np.integer)) or not 1 <= d <= N
                   for d in digits):
                raise ValueError(f"column {c}: digits must be integers 1..{N}, got {s!r}")
            if len(set(digits)) != len(digits) or len(digits) != R:
                raise ValueError(f"column {c}: needs {R} distinct digits, got {s!r}")
            out.append(frozenset(int(d) for d in digits))
        for d in range(1, N + 1):
            k = sum(d in s for s in out)
            if k != R:
                raise ValueError(f"digit {d} lies in {k} column sets; every digit must lie "
                                 f"in exactly {R}")
        return tuple(out)

    def givens(self, column_sets: Sequence[Iterable[int]], *,
               order_rows: bool = False) -> list[int]:
        """Given rows of one problem: the blocker of every digit outside its
        column's set, and with ``order_rows`` column 0 read in increasing
        order (then the count is ``L / R!``)."""
        sets = self.check_column_sets(column_sets)
        N = self.n_cols
        given = [self.blocker_index(c, d) for c in range(N) for d in range(1, N + 1)
                 if d not in sets[c]]
        if order_rows:
            given += [self.row_index(r, 0, d) for r, d in enumerate(sorted(sets[0]))]
        return given

    @cached_property
    def _ec(self) -> ExactCover:
        return self.exact_cover()

    def count(self, column_sets: Sequence[Iterable[int]], *, order_rows: bool = False,
              memo: bool = False, tail: bool = False) -> int:
        """Number of rectangles with these column sets (``/ R!`` with ``order_rows``).

        Example
        -------
        >>> ColumnSetRectangles(1, 3).count([{1}, {2}, {3}])
        1
        """
        return self._ec.count(given=self.givens(column_sets, order_rows=order_rows),
                              memo=memo, tail=tail)

    def __repr__(self) -> str:
        return f"ColumnSetRectangles({self.n_rows}, {self.n_cols})"
