"""A ``patterns3`` unit counted again without the band tables: the recount's method.

A ``patterns3`` unit (:mod:`counting.reduction.patterns3`) is
``l(P1) · Σ_{P2} l(P2)·l(P3)`` for band 1's column sets ``P1``, summed by a
table contraction.  :func:`count_without_tables` counts the same number by
two methods that share nothing with the tables or the contraction:

* ``l(P1)``, the bands with those column sets whose rows read column 1
  increasing, by the direct counter :func:`bandtables.kernels.count_l`
  (the tables of ``R <= 3`` take their ``l`` from the dancing-links
  rectangle counter instead, :func:`bandtables.tables.band_l`);
* ``Σ_{P2} l(P2)·l(P3) = C / (R!)²``, where ``C`` is the number of
  completions of bands 2 and 3 below *one* band 1 with those column sets
  (it depends on the column sets only): a band ``B`` with them is built
  (:func:`witness_band`), and ``C`` is counted by the dancing-links engine
  on the whole grid (:class:`grids.sudoku.Sudoku`), as the band reductions
  count it: ``C = f · Σ_forms count(B, form)`` over the column forms of
  column 1 below band 1 (:func:`counting.reduction.forms.column_forms`,
  ``f`` = :func:`counting.reduction.factors.column_factor`, 72 for 3×3).

For 3×3 that is 10 engine counts a unit (a few seconds), for 2×3 three (a few
ms).  4×3 has no such method within reach: one band 1 has about 10²⁰
completions of bands 2 and 3, far beyond a search.

Example
-------
>>> from counting.reduction.patterns3 import ThreeBandPatternReduction
>>> red = ThreeBandPatternReduction("2x3")
>>> spec = red.units()[0]
>>> count_without_tables(spec.column_sets, 2) == red.count_directly(spec).count
True
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from counting.reduction.factors import column_factor
from counting.reduction.forms import column_forms, unit_givens
from grids.shape import Shape

__all__ = ["count_without_tables", "witness_band", "METHOD", "MAX_R"]

#: The largest band height (rows ``R`` of ``R × 3`` boxes) counted this way.
MAX_R = 3
#: The method in words (``gridcount recount`` and ``status`` say it).
METHOD = "dancing links on bands 2-3, l of band 1 by the direct counter (no band table)"


def witness_band(column_sets, R: int) -> np.ndarray:
    """One band (``R × 3R`` array of digits ``1..3R``) with these column sets:
    every row a permutation, column ``j`` holding the digits of ``column_sets[j]``.

    Raises
    ------
    ValueError
        If no band has these column sets.
    """
    N = 3 * R
    sets = [sorted(int(d) for d in s) for s in column_sets]
    if len(sets) != N or any(len(s) != R for s in sets):
        raise ValueError(f"a band of {R} rows has {N} column sets of {R} digits each")
    band = np.zeros((R, N), dtype=np.int64)
    left = [set(s) for s in sets]

    def fill(r: int, c: int, used: set) -> bool:
        if r == R:
            return True
        if c == N:
            return fill(r + 1, 0, set())
        for d in sorted(left[c] - used):
            left[c].discard(d)
            band[r, c] = d
            if fill(r, c + 1, used | {d}):
                return True
            left[c].add(d)
        return False

    if not fill(0, 0, set()):
        raise ValueError(f"no band of {R} rows has the column sets {sets}")
    return band


@lru_cache(maxsize=None)
def _sudoku(R: int):
    from grids.sudoku import Sudoku
    return Sudoku(R, 3)


def count_without_tables(column_sets, R: int) -> int:
    """``l(P1) · Σ_{P2} l(P2)·l(P3)`` for band 1's column sets (``R × 3``
    orientation, digits ``1..3R``), exact, by the methods of the module doc.

    Raises
    ------
    ValueError
        For ``R > MAX_R`` (no search within reach), or column sets no band has.
    ArithmeticError
        If the completions are not a multiple of ``(R!)²`` (they always are).
    """
    from bandtables.kernels import count_l
    if not 2 <= R <= MAX_R:
        raise ValueError(f"bands of {R} rows have no count without the tables within reach")
    shape = Shape(R, 3)
    band = witness_band(column_sets, R)
    sud = _sudoku(R)
    completions = column_factor(shape) * sum(
        sud.count(_grid(unit_givens(band, form, shape), shape.n))
        for form in column_forms(band, shape))
    inner, rest = divmod(completions, math.factorial(R) ** 2)
    if rest:
        raise ArithmeticError(f"{completions} completions are not a multiple of ({R}!)²")
    masks = np.array([sum(1 << (int(d) - 1) for d in s) for s in column_sets], dtype=np.uint32)
    return int(count_l(masks, R)) * inner


def _grid(givens, n: int) -> np.ndarray:
    grid = np.zeros((n, n), dtype=np.int64)
    for r, c, d in givens:
        grid[r, c] = d
    return grid
