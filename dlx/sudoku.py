"""Sudoku (any box shape) and Latin squares as exact cover.

A grid with boxes of ``R`` rows × ``C`` columns has ``N = R·C`` digits and is
``N × N``.  Its exact-cover matrix has one row per candidate (cell, digit),
``N**3`` in all, and these columns, in this order:

* cell ``(r, c)`` is filled                   — ``N²`` columns, id ``r·N + c``
* digit ``d`` appears in row ``r``             — ``N²`` columns, ``N² + r·N + d-1``
* digit ``d`` appears in column ``c``          — ``N²`` columns, ``2N² + c·N + d-1``
* digit ``d`` appears in box ``b``             — ``N²`` columns, ``3N² + b·N + d-1``

so ``4N²`` columns (324 for the 9×9 Sudoku).  Boxes are numbered row-major:
``b = (r // R)·R + c // C`` (a band of ``R`` rows holds ``N / C = R`` boxes).

Latin squares of order ``n`` are the shapes ``1×n`` and ``n×1``: a box is
then a whole row or column, its constraint repeats one already present, and
the encoding drops it, leaving ``3n²`` columns.

Matrix row ``(r·N + c)·N + (d-1)`` places digit ``d`` (1..N) in cell
``(r, c)`` (0-based); :meth:`Sudoku.row_index` and :meth:`Sudoku.decode`
convert both ways.

Grids as text
-------------
``N²`` symbols, row-major; whitespace is ignored.  Blanks are ``.`` or
``0``.  Digits are ``1``–``9`` and then, for ``N > 9``, the letters
``A``–``Z`` for 10–35 (case-insensitive): a 16×16 grid uses ``1``–``9``,
``A``–``G``.  Grids as arrays: an ``N × N`` (or length ``N²``) integer
array, 0 for blank.

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

__all__ = ["Sudoku", "ALPHABET", "parse_shape"]

#: Digit symbols in text grids: value v (1-based) is ALPHABET[v - 1].
ALPHABET = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_BLANKS = ".0"


def parse_shape(text: str) -> tuple[int, int]:
    """Parse a box shape ``"RxC"`` into ``(R, C)``.

    Example
    -------
    >>> parse_shape("2x3")
    (2, 3)
    """
    parts = str(text).strip().lower().split("x")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise ValueError(f"bad box shape {text!r}: expected RxC, e.g. 3x3 or 2x3")
    r, c = int(parts[0]), int(parts[1])
    if r < 1 or c < 1:
        raise ValueError(f"bad box shape {text!r}: box rows and columns must be >= 1")
    return r, c


class Sudoku:
    """The exact-cover encoding of Sudoku grids with ``box_rows × box_cols`` boxes.

    Parameters
    ----------
    box_rows, box_cols : int
        Box shape; ``N = box_rows * box_cols``.

    Example
    -------
    >>> Sudoku(2, 3).n, Sudoku(3, 3).n_columns
    (6, 324)
    """

    def __init__(self, box_rows: int, box_cols: int):
        for name, v in (("box_rows", box_rows), ("box_cols", box_cols)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
                raise ValueError(f"bad box shape: {name} must be an integer >= 1, got {v!r}")
        self.box_rows = int(box_rows)
        self.box_cols = int(box_cols)
        self.n = self.box_rows * self.box_cols
        self.latin = self.box_rows == 1 or self.box_cols == 1
        self.n_kinds = 3 if self.latin else 4

    @classmethod
    def from_shape(cls, shape: str) -> "Sudoku":
        """``Sudoku.from_shape("2x3")``."""
        return cls(*parse_shape(shape))

    @property
    def shape(self) -> str:
        return f"{self.box_rows}x{self.box_cols}"

    @property
    def n_rows(self) -> int:
        return self.n ** 3

    @property
    def n_columns(self) -> int:
        return self.n_kinds * self.n * self.n

    # ------------------------------------------------------------------
    def box_of(self, r: int, c: int) -> int:
        """Box number of cell (r, c), row-major."""
        return (r // self.box_rows) * self.box_rows + c // self.box_cols

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
            b = (r // self.box_rows) * self.box_rows + c // self.box_cols
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
        band = lead_row // self.box_rows
        n_stacks = n // self.box_cols
        boxes = band * self.box_rows + np.arange(n_stacks)
        box_symbol = 3 * nn + boxes[:, None] * n + k[None, :]
        lead = (lead_row * n + k, nn + lead_row * n + k, box_symbol, k // self.box_cols)
        return lead_row, cell, row_symbol, column_symbol, lead

    @cached_property
    def _ec(self) -> ExactCover:
        return self.exact_cover()

    # ------------------------------------------------------------------
    def parse(self, grid) -> np.ndarray:
        """A grid (text or array) as an ``N × N`` int array, 0 for blank.

        Raises ``ValueError`` naming the cell on a bad symbol, a digit out of
        range, or a digit repeated in a row, column or box.
        """
        n = self.n
        if isinstance(grid, (str, bytes)):
            text = grid.decode() if isinstance(grid, bytes) else grid
            arr = np.asarray(self.parse_symbols(text), dtype=np.int64).reshape(n, n)
        else:
            arr = np.asarray(grid)
            if arr.dtype.kind not in "iu":
                raise ValueError(f"grid array must hold integers, got dtype {arr.dtype}")
            if arr.shape not in ((n, n), (n * n,)):
                raise ValueError(f"grid array must have shape ({n}, {n}) or ({n * n},), "
                                 f"got {arr.shape}")
            arr = arr.reshape(n, n).astype(np.int64)
            bad = np.argwhere((arr < 0) | (arr > n))
            if bad.size:
                r, c = bad[0]
                raise ValueError(f"r{r + 1}c{c + 1}: digit {arr[r, c]} out of range 1..{n} "
                                 f"(0 for blank)")
        self._check_units(arr)
        return arr

    def _check_units(self, arr: np.ndarray) -> None:
        n = self.n
        units = [(f"row {r + 1}", [(r, c) for c in range(n)]) for r in range(n)]
        units += [(f"column {c + 1}", [(r, c) for r in range(n)]) for c in range(n)]
        if not self.latin:
            for b in range(n):
                r0 = (b // self.box_rows) * self.box_rows
                c0 = (b % self.box_rows) * self.box_cols
                units.append((f"box {b + 1}", [(r0 + i, c0 + j) for i in range(self.box_rows)
                                               for j in range(self.box_cols)]))
        for name, cells in units:
            seen: dict[int, tuple[int, int]] = {}
            for r, c in cells:
                v = int(arr[r, c])
                if v == 0:
                    continue
                if v in seen:
                    r0, c0 = seen[v]
                    raise ValueError(f"{name} has digit {ALPHABET[v - 1]} twice: "
                                     f"r{r0 + 1}c{c0 + 1} and r{r + 1}c{c + 1}")
                seen[v] = (r, c)

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
        arr = np.asarray(grid).reshape(-1)
        return "".join("." if v == 0 else ALPHABET[int(v) - 1] for v in arr)

    # ------------------------------------------------------------------
    def count(self, grid=None, *, limit: int | None = None, memo: bool = False) -> int:
        """Number of completions of ``grid`` (of all grids if ``None``).

        Example
        -------
        >>> Sudoku(1, 3).count()   # Latin squares of order 3
        12
        """
        given = self.givens(grid) if grid is not None else []
        return self._ec.count(given=given, limit=limit, memo=memo)

    def solve(self, grid) -> np.ndarray | None:
        """One completion of ``grid`` as an ``N × N`` array, or ``None``."""
        sol = self._ec.first(given=self.givens(grid))
        return None if sol is None else self.to_grid(sol)

    def parse_batch(self, grids) -> np.ndarray:
        """Many grids as an ``(n, N²)`` int array, 0 for blank.

        Accepts an ``(n, N²)`` or ``(n, N, N)`` integer array, or a sequence
        of text grids.  Digits out of range raise ``ValueError`` naming the
        grid and cell; repeated digits are left to the engine (reported as
        conflicting givens).
        """
        n = self.n
        if isinstance(grids, np.ndarray):
            arr = grids
        else:
            arr = np.asarray([self._text_values(g, k) for k, g in enumerate(grids)],
                             dtype=np.int64).reshape(-1, n * n)
        if arr.dtype.kind not in "iu":
            raise ValueError(f"grid array must hold integers, got dtype {arr.dtype}")
        if arr.ndim == 3 and arr.shape[1:] == (n, n):
            arr = arr.reshape(arr.shape[0], n * n)
        if arr.ndim != 2 or arr.shape[1] != n * n:
            raise ValueError(f"grid batch must have shape (k, {n * n}) or (k, {n}, {n}), "
                             f"got {arr.shape}")
        bad = np.argwhere((arr < 0) | (arr > n))
        if bad.size:
            k, cell = bad[0]
            raise ValueError(f"grid {k}: r{cell // n + 1}c{cell % n + 1}: digit {arr[k, cell]} "
                             f"out of range 1..{n} (0 for blank)")
        return arr.astype(np.int64, copy=False)

    def _text_values(self, text: str, k: int) -> list[int]:
        try:
            return self.parse_symbols(text)
        except ValueError as e:
            raise ValueError(f"grid {k}: {e}") from None

    def parse_symbols(self, text: str) -> list[int]:
        """Text grid to a flat list of values (0 blank), without unit checks."""
        n = self.n
        symbols = [ch for ch in text if not ch.isspace()]
        if len(symbols) != n * n:
            raise ValueError(f"a {n}x{n} grid needs {n * n} symbols, got {len(symbols)}")
        out = []
        for k, ch in enumerate(symbols):
            if ch in _BLANKS:
                out.append(0)
                continue
            v = ALPHABET.find(ch.upper()) + 1
            if v == 0 or v > n:
                r, c = divmod(k, n)
                raise ValueError(f"r{r + 1}c{c + 1}: symbol {ch!r} is not a digit "
                                 f"1..{ALPHABET[n - 1]} or a blank (. or 0)")
            out.append(v)
        return out

    def solve_batch(self, grids, *, limit: int = 2,
                    ec: ExactCover | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Solve many grids at once, without the GIL.

        Returns ``(counts, solutions)``: ``counts[k]`` is the number of
        completions of grid ``k`` found, at most ``limit`` (so with the
        default 2: 0 none, 1 unique, 2 several), or ``-1`` if its givens
        repeat a digit in a unit; ``solutions[k]`` is the first completion
        as an ``(N, N)`` array (all zeros when there is none).  Pass ``ec``
        (from :meth:`exact_cover`) to reuse one matrix, one per thread.

        Example
        -------
        >>> counts, sols = Sudoku(2, 2).solve_batch(["1234341221434321", "1" * 16])
        >>> counts.tolist()
        [1, -1]
        """
        arr = self.parse_batch(grids)
        n = self.n
        k_idx, cell = np.nonzero(arr)
        given = cell * n + arr[k_idx, cell] - 1
        indptr = np.zeros(arr.shape[0] + 1, dtype=np.int64)
        np.cumsum(np.bincount(k_idx, minlength=arr.shape[0]), out=indptr[1:])
        ec = ec or self._ec
        counts, rows = ec.solve_batch((indptr, given), limit=limit, width=n * n)
        sols = np.zeros((arr.shape[0], n * n), dtype=np.int64)
        ok = rows >= 0
        r_k, r_j = np.nonzero(ok)
        vals = rows[r_k, r_j]
        sols[r_k, vals // n] = vals % n + 1
        return counts, sols.reshape(-1, n, n)

    def __repr__(self) -> str:
        return f"Sudoku({self.box_rows}, {self.box_cols})"
