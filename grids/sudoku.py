"""Sudoku (any box shape) and Latin squares as exact cover.

A grid with boxes of ``R`` rows × ``C`` columns has ``N = R·C`` digits and is
``N × N``.  Its exact-cover matrix has one row per candidate (cell, digit),
``N**3`` in all, and these columns, in this order:

* cell ``(r, c)`` is filled                   — ``N²`` columns, id ``r·N + c``
* digit ``d`` appears in row ``r``             — ``N²`` columns, ``N² + r·N + d-1``
* digit ``d`` appears in column ``c``          — ``N²`` columns, ``2N² + c·N + d-1``
* digit ``d`` appears in box ``b``             — ``N²`` columns, ``3N² + b·N + d-1``

so ``4N²`` columns (324 for the 9×9 Sudoku).  Boxes are numbered as
:class:`grids.shape.Shape` numbers them (row-major), and all box geometry comes
from the :class:`~grids.shape.Shape` a ``Sudoku`` holds.

Latin squares of order ``n`` are the shapes ``1×n`` and ``n×1``: a box is
then a whole row or column, its constraint repeats one already present, and
the encoding drops it, leaving ``3n²`` columns.

Matrix row ``(r·N + c)·N + (d-1)`` places digit ``d`` (1..N) in cell
``(r, c)`` (0-based); :meth:`Sudoku.row_index` and :meth:`Sudoku.decode`
convert both ways.

Grids
-----
Text (``N²`` symbols, ``.`` or ``0`` blank, digits ``1``–``9`` then ``A``–``Z``)
and arrays (``N × N`` or ``N²`` integers, 0 blank) are read and written by
:mod:`grids.grid`, the one grid parser and formatter.

Example
-------
>>> s = Sudoku(2, 2)
>>> s.count()
288
>>> s.solve("1234" "34.." "...." "....")[0].tolist()
[1, 2, 3, 4]
"""
from __future__ import annotations

from functools import cached_property

import numpy as np

from dlx.api import ExactCover
from grids.grid import ALPHABET, as_batch, check_units, format_line, parse_symbols, solve_grids, \
    to_array
from grids.shape import Shape, as_shape

__all__ = ["Sudoku", "ALPHABET"]


class Sudoku:
    """The exact-cover encoding of Sudoku grids with ``box_rows × box_cols`` boxes.

    Parameters
    ----------
    box_rows, box_cols : int
        Box shape; ``N = box_rows * box_cols``.

    Attributes
    ----------
    shape : Shape
        The box shape (``str(s.shape)`` is ``"RxC"``); all box geometry
        comes from it.

    Example
    -------
    >>> Sudoku(2, 3).n, Sudoku(3, 3).n_columns, str(Sudoku(2, 3).shape)
    (6, 324, '2x3')
    """

    def __init__(self, box_rows: int, box_cols: int):
        self.shape = Shape(box_rows, box_cols)
        self.n_kinds = 3 if self.shape.latin else 4
        self._last = None   # the engine of the last count()

    @classmethod
    def from_shape(cls, shape) -> "Sudoku":
        """``Sudoku.from_shape("2x3")``, or from a :class:`~grids.shape.Shape`."""
        s = as_shape(shape)
        return cls(s.box_rows, s.box_cols)

    @property
    def box_rows(self) -> int:
        return self.shape.box_rows

    @property
    def box_cols(self) -> int:
        return self.shape.box_cols

    @property
    def n(self) -> int:
        return self.shape.n

    @property
    def latin(self) -> bool:
        return self.shape.latin

    @property
    def n_rows(self) -> int:
        return self.n ** 3

    @property
    def n_columns(self) -> int:
        return self.n_kinds * self.n * self.n

    # ------------------------------------------------------------------
    def box_of(self, r: int, c: int) -> int:
        """Box number of cell (r, c), row-major."""
        return self.shape.box_of(r, c)

    def row_index(self, r: int, c: int, d: int) -> int:
        """Matrix row placing digit ``d`` (1..N) in cell ``(r, c)`` (0-based)."""
        n = self.n
        if not (0 <= r < n and 0 <= c < n and 1 <= d <= n):
            raise ValueError(f"({r}, {c}, {d}) is not a cell and digit of a {n}x{n} grid")
        return (r * n + c) * n + d - 1

    def decode(self, i: int) -> tuple[int, int, int]:
        """Inverse of :meth:`row_index`: ``(r, c, d)``."""
        n = self.n
        if not 0 <= i < n ** 3:
            raise ValueError(f"row {i} out of range 0..{n ** 3 - 1}")
        cell, d0 = divmod(i, n)
        r, c = divmod(cell, n)
        return r, c, d0 + 1

    def columns_of(self, r: int, c: int, d: int) -> list[int]:
        """The columns covered by placing ``d`` in ``(r, c)``."""
        n, nn = self.n, self.n * self.n
        cols = [r * n + c, nn + r * n + d - 1, 2 * nn + c * n + d - 1]
        if not self.latin:
            cols.append(3 * nn + self.box_of(r, c) * n + d - 1)
        return cols

    def csr(self) -> tuple[np.ndarray, np.ndarray]:
        """The matrix as CSR arrays (``indptr``, ``indices``)."""
        n, nn = self.n, self.n * self.n
        r, c, d = np.meshgrid(np.arange(n), np.arange(n), np.arange(n), indexing="ij")
        r, c, d = r.ravel(), c.ravel(), d.ravel()
        cols = [r * n + c, nn + r * n + d, 2 * nn + c * n + d]
        if not self.latin:
            b = self.shape.box_index[r, c]
            cols.append(3 * nn + b * n + d)
        indices = np.stack(cols, axis=1).ravel()
        indptr = np.arange(0, indices.size + 1, self.n_kinds)
        return indptr, indices

    def row_priority(self) -> np.ndarray:
        """Column priorities that fill the grid row by row.

        The cell and row-digit columns of grid row ``r`` get priority ``r``;
        column-digit and box-digit columns ``N`` (they are covered on the
        way).  With this order the search finishes one grid row before it
        starts the next, so memo points fall at row ends.
        """
        n, nn = self.n, self.n * self.n
        prio = np.full(self.n_columns, n, dtype=np.int64)
        prio[:nn] = np.arange(nn) // n
        prio[nn:2 * nn] = np.arange(nn) // n
        return prio

    def exact_cover(self, priority: str | None = None) -> ExactCover:
        """A fresh :class:`ExactCover` for this shape.

        ``priority="rows"`` uses :meth:`row_priority`; ``None`` is plain MRV.
        """
        if priority not in (None, "rows"):
            raise ValueError(f"priority must be None or 'rows', got {priority!r}")
        indptr, indices = self.csr()
        prio = self.row_priority() if priority == "rows" else None
        ec = ExactCover.from_csr(indptr, indices, self.n_columns, priority=prio)
        if priority == "rows" and self.n <= 64:
            first, cell, row_symbol, column_symbol, lead = self.tail_columns()
            ec.set_tail(first, cell, row_symbol, column_symbol, lead=lead)
        return ec

    def tail_rows(self) -> int:
        """Rows of the rectangle the row-by-row search hands over to.

        Once every row above the last band is filled, the band's box
        constraints are implied (a digit a stack still lacks is missing from
        exactly one of its columns), so what is left is a Latin rectangle:
        the last band, ``box_rows`` rows.  Latin squares have no boxes; there
        the last three rows are handed over (two are counted in closed form,
        the third by enumeration).
        """
        return min(3, self.n) if self.latin else self.box_rows

    def tail_columns(self) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, tuple | None]:
        """``(priority, cell, row_symbol, column_symbol, lead)`` for
        :meth:`ExactCover.set_tail` with :meth:`row_priority`.

        With boxes and at least two bands the tail starts at the lead row,
        the last row of the band above the last: in each stack its empty
        cells take exactly the digits that stack's box still lacks.
        """
        n, nn = self.n, self.n * self.n
        first = n - self.tail_rows()
        rows = np.arange(first, n)[:, None]
        k = np.arange(n)
        cell = rows * n + k[None, :]
        row_symbol = nn + rows * n + k[None, :]
        column_symbol = 2 * nn + k[:, None] * n + k[None, :]
        if self.latin or first < self.box_rows:
            return first, cell, row_symbol, column_symbol, None
        lead_row = first - 1
        boxes = self.shape.box_index[lead_row, ::self.box_cols]    # one per stack
        box_symbol = 3 * nn + boxes[:, None] * n + k[None, :]
        lead = (lead_row * n + k, nn + lead_row * n + k, box_symbol, k // self.box_cols)
        return lead_row, cell, row_symbol, column_symbol, lead

    def check_matrix(self, ec: ExactCover) -> None:
        """Raise ``ValueError`` unless ``ec`` is this shape's matrix (in any column order).

        Checked: the numbers of rows and columns, and that among digit 1 in
        every cell and every digit in ``r1c1``, the candidates sharing a
        column with digit 1 in ``r1c1`` are digit 1 in its peers
        (:attr:`grids.shape.Shape.peers`) and the other digits of ``r1c1``;
        that tells a box shape from its transpose.
        """
        n = self.n
        if (ec.n_rows, ec.n_columns) != (self.n_rows, self.n_columns):
            raise ValueError(f"not the matrix of {self.shape} grids: it has {ec.n_rows} rows and "
                             f"{ec.n_columns} columns, {self.shape} grids need {self.n_rows} "
                             f"and {self.n_columns} (use Sudoku.exact_cover)")
        first = set(ec.row(0))                      # digit 1 in r1c1
        nearby = set(range(0, self.n_rows, n)) | set(range(1, n))   # digit 1 anywhere; r1c1
        clash = {i for i in nearby if first.intersection(ec.row(i))} - {0}
        want = {self.row_index(0, 0, d) for d in range(2, n + 1)}
        want |= {int(k) * n for k in self.shape.peers[0]}
        if clash != want:
            raise ValueError(f"not the matrix of {self.shape} grids: digit 1 in r1c1 conflicts "
                             f"with other candidates than in {self.shape} grids "
                             f"(use Sudoku.exact_cover)")

    @cached_property
    def _fast_ec(self) -> ExactCover:
        return self.exact_cover(priority="rows")

    @cached_property
    def _ec(self) -> ExactCover:
        return self.exact_cover()

    # ------------------------------------------------------------------
    def parse(self, grid) -> np.ndarray:
        """A grid (text or array) as an ``N × N`` int array, 0 for blank.

        Raises ``ValueError`` naming the cell on a bad symbol, a digit out of
        range, or a digit repeated in a row, column or box.
        """
        arr = to_array(grid, self.shape)
        check_units(arr, self.shape)
        return arr.reshape(self.n, self.n)

    def givens(self, grid) -> list[int]:
        """The matrix rows of a (partial) grid's filled cells."""
        arr = self.parse(grid)
        n = self.n
        return [(r * n + c) * n + int(arr[r, c]) - 1
                for r in range(n) for c in range(n) if arr[r, c]]

    def to_grid(self, rows) -> np.ndarray:
        """Turn a set of matrix rows (e.g. a solution) into an ``N × N`` grid."""
        n = self.n
        grid = np.zeros((n, n), dtype=np.int64)
        for i in rows:
            r, c, d = self.decode(int(i))
            grid[r, c] = d
        return grid

    def format(self, grid) -> str:
        """A grid as one line of text (``.`` for blanks)."""
        return format_line(grid)

    # ------------------------------------------------------------------
    def count(self, grid=None, *, limit: int | None = None, memo: bool | None = None) -> int:
        """Number of completions of ``grid`` (of all grids if ``None``).

        The fast way is the default: without a ``limit`` the grid is filled
        row by row with memoized row ends and the closed-form last band
        (``exact_cover(priority="rows")``, 6×6 grids in about half a second);
        ``memo=False`` asks for plain dancing links.  With a ``limit`` the
        search is plain (a memo count cannot stop early).

        Example
        -------
        >>> Sudoku(1, 3).count()   # Latin squares of order 3
        12
        """
        given = self.givens(grid) if grid is not None else []
        fast = limit is None if memo is None else (memo and limit is None)
        if fast:
            self._last = ec = self._fast_ec
            return ec.count(given=given, memo=True, tail=ec.has_tail)
        self._last = self._ec
        return self._ec.count(given=given, limit=limit, memo=bool(memo))

    @property
    def stats(self):
        """The :class:`~dlx.SearchStats` of the last :meth:`count`."""
        return self._last.stats

    def solve(self, grid) -> np.ndarray | None:
        """One completion of ``grid`` as an ``N × N`` array, or ``None``."""
        sol = self._ec.first(given=self.givens(grid))
        return None if sol is None else self.to_grid(sol)

    def parse_batch(self, grids) -> np.ndarray:
        """Many grids as an ``(n, N²)`` int array, 0 for blank.

        Accepts an ``(n, N²)`` or ``(n, N, N)`` integer array, or a sequence
        of grids (text or arrays).  Digits out of range raise ``ValueError``
        naming the grid and cell; repeated digits are left to the engine
        (reported as conflicting givens).
        """
        return as_batch(grids, self.shape)

    def parse_symbols(self, text: str) -> list[int]:
        """Text grid to a flat list of values (0 blank), without unit checks."""
        return parse_symbols(text, self.shape).tolist()

    def solve_batch(self, grids, *, limit: int = 2,
                    ec: ExactCover | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Solve many grids at once, without the GIL.

        Returns ``(counts, solutions)``: ``counts[k]`` is the number of
        completions of grid ``k`` found, at most ``limit`` (so with the
        default 2: 0 none, 1 unique, 2 several), or ``-1`` if its givens
        repeat a digit in a unit; ``solutions[k]`` is the first completion
        as an ``(N, N)`` array (all zeros when there is none).  Pass ``ec``
        (from :meth:`exact_cover`) to reuse one matrix, one per thread; a
        matrix of another shape raises ``ValueError`` (:meth:`check_matrix`).

        Example
        -------
        >>> counts, sols = Sudoku(2, 2).solve_batch(["1234341221434321", "1" * 16])
        >>> counts.tolist()
        [1, -1]
        """
        arr = self.parse_batch(grids)
        if ec is not None:
            self.check_matrix(ec)
        counts, sols = solve_grids(ec or self._ec, arr, self.n, limit)
        return counts, sols.reshape(-1, self.n, self.n)

    def check_invariants(self) -> None:
        """For tests: :meth:`dlx.api.ExactCover.check_invariants` of the plain
        matrix that :meth:`solve`, :meth:`solve_batch` and limited counts search."""
        self._ec.check_invariants()

    def __repr__(self) -> str:
        return f"Sudoku({self.box_rows}, {self.box_cols})"
