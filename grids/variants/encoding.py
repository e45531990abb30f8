"""A grid kind as exact cover: extra houses, difference pairs, regions.

:func:`variant_exact_cover` extends :mod:`grids.sudoku`'s encoding.  Matrix
row ``(r·N + c)·N + d-1`` still places digit ``d`` in cell ``(r, c)``
(:meth:`grids.sudoku.Sudoku.row_index`), so givens are the same rows.
Primary columns, in order:

* cell, row-digit and column-digit: ``3N²``, as in :mod:`grids.sudoku`;
* box-digit, ``N²``, with the *regions* in place of the boxes when the kind
  has them (a Latin shape without regions has none: its boxes repeat rows
  or columns);
* extra house ``h`` holds digit ``d``: ``N`` per house of
  :meth:`grids.kind.GridKind.houses`;
* with ``implied=True`` (the default), ``N`` per house those houses imply
  (:func:`grids.variants.implied.implied_houses`): no count changes, the
  search is faster (Windoku: about 7× on a 7-row completion).

Secondary columns (covered at most once): for difference pair ``p = (a, b)``
of :meth:`grids.kind.GridKind.differences` and digit ``d``, column
``(p, d)`` is covered by placing ``d`` in ``a`` and by placing ``d`` in
``b``, so at most one of the two holds ``d``.

``priority="rows"`` gives the row-by-row order of
:meth:`~grids.sudoku.Sudoku.row_priority` (cell and row-digit columns of grid
row ``r`` get priority ``r``, every other column ``N``).  No closed-form tail
is declared: the extra rules may reach into the last band.

Example
-------
>>> variant_exact_cover("2x2+x").count()       # 4×4 Sudoku X
48
>>> variant_exact_cover("1x4+x").count()       # diagonal Latin squares of order 4
48
"""
from __future__ import annotations

import numpy as np

from dlx.api import ExactCover
from grids.grid import to_array
from grids.kind import GridKind, as_kind
from grids.variants.implied import implied_houses

__all__ = ["variant_exact_cover", "variant_columns", "variant_givens", "unit_cells"]


def unit_cells(kind) -> tuple[tuple[int, ...], ...]:
    """Every house of ``kind`` as cell tuples (:meth:`GridKind.unit_cells`)."""
    return as_kind(kind).unit_cells()


def variant_columns(kind: GridKind, implied: bool = True) -> tuple[list[list[int]], int, int]:
    """``(rows, n_primary, n_secondary)``: the columns of every placement."""
    kind = as_kind(kind)
    n, nn = kind.shape.n, kind.shape.n ** 2
    houses = unit_cells(kind)[2 * n:]       # boxes or regions, then extra houses
    if implied:
        houses += implied_houses(kind)
    pairs = kind.differences()
    in_house = [[] for _ in range(nn)]
    for h, cells in enumerate(houses):
        for k in cells:
            in_house[k].append(h)
    in_pair = [[] for _ in range(nn)]
    for p, (a, b) in enumerate(pairs):
        in_pair[a].append(p)
        in_pair[b].append(p)
    n_primary = 3 * nn + len(houses) * n
    rows = []
    for k in range(nn):
        r, c = divmod(k, n)
        for d in range(n):
            cols = [k, nn + r * n + d, 2 * nn + c * n + d]
            cols += [3 * nn + h * n + d for h in in_house[k]]
            cols += [n_primary + p * n + d for p in in_pair[k]]
            rows.append(cols)
    return rows, n_primary, len(pairs) * n


def variant_exact_cover(kind, priority: str | None = "rows", *, implied: bool = True,
                        row_order=None) -> ExactCover:
    """A fresh :class:`~dlx.api.ExactCover` for the grids of ``kind``.

    Parameters
    ----------
    kind : GridKind or str
        ``"3x3+windoku"``, ``"2x2+@j.kind"``, a :class:`~grids.kind.GridKind`.
    priority : {"rows", None}
        ``"rows"`` fills the grid row by row (memo points at row ends);
        None is plain minimum remaining values.
    implied : bool
        Add the houses the kind's houses imply (same counts, faster).
    row_order : sequence of int, optional
        With ``priority="rows"``: the order in which grid rows are filled
        (0-based, a permutation; default top to bottom).  Counts do not
        depend on it; times do (Windoku with rows 1–2 given: filling row 9
        and row 5 next halves the nodes of one unit measured).
    """
    if priority not in (None, "rows"):
        raise ValueError(f"priority must be None or 'rows', got {priority!r}")
    kind = as_kind(kind)
    n, nn = kind.shape.n, kind.shape.n ** 2
    rows, n_primary, n_secondary = variant_columns(kind, implied)
    prio = None
    if priority == "rows":
        order = list(range(n)) if row_order is None else [int(r) for r in row_order]
        if sorted(order) != list(range(n)):
            raise ValueError(f"row_order must be a permutation of 0..{n - 1}, got {row_order!r}")
        rank = np.empty(n, dtype=np.int64)
        rank[order] = np.arange(n)
        prio = np.full(n_primary + n_secondary, n, dtype=np.int64)
        prio[:nn] = rank[np.arange(nn) // n]
        prio[nn:2 * nn] = rank[np.arange(nn) // n]
    return ExactCover(rows, n_primary, n_secondary, priority=prio)


def variant_givens(kind, grid) -> list[int]:
    """The matrix rows of a (partial) grid's filled cells (no unit checks: the
    engine reports givens that clash as :class:`~dlx.api.ConflictingGivensError`)."""
    kind = as_kind(kind)
    n = kind.shape.n
    arr = to_array(grid, kind.shape).ravel()
    return [k * n + int(v) - 1 for k, v in enumerate(arr) if v]
