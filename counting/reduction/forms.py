"""Column forms: column 1 below band 1, reduced, and a unit's givens.

Below band 1, column 1 crosses ``C - 1`` bands of ``R`` rows.  Sorting the
rows inside each of them by their column-1 digit, and ordering those bands
by their first column-1 digit, leaves one of the *column forms*
(:func:`column_forms`; the factor is
:func:`~counting.reduction.factors.column_factor`).  A work unit of a band
reduction fixes band 1 and one column form (:func:`unit_givens`).
"""
from __future__ import annotations

import numpy as np

from counting.reduction.bands import sorted_splits
from counting.reduction.normal_form import as_bands
from grids.shape import Shape, as_shape

__all__ = ["column_forms", "unit_givens"]


def column_forms(band: object, shape: Shape | str) -> list[tuple[int, ...]]:
    """Canonical forms of column 1 below a band (rows 4–9 for 3×3).

    The ``N - R`` digits missing from column 1 of the band are split into
    the ``C - 1`` later bands, ascending inside each band, the bands ordered
    by their first digit (for 3×3: rows 4–6 and 7–9 ascending, row 4's
    digit smaller than row 7's).  Every band has the same number of forms.
    For ``Nx1`` there is nothing below band 1: one empty form.

    Returns
    -------
    list of tuple of int
        ``(N - R)``-tuples (rows R+1..N) in lexicographic order.

    Examples
    --------
    >>> from counting.reduction.bands import reduced_bands
    >>> column_forms(reduced_bands("3x3")[0], "3x3")[0]
    (2, 3, 5, 6, 8, 9)
    """
    s = as_shape(shape)
    stack, single = as_bands(band, s)
    if not single:
        raise ValueError(f"column_forms takes one band of shape ({s.box_rows}, {s.n})")
    missing = tuple(sorted(set(range(1, s.n + 1)) - set(stack[0, :, 0].tolist())))
    return sorted_splits(missing, s.box_rows)


def unit_givens(band: np.ndarray, form: tuple[int, ...], s: Shape) -> tuple:
    """A unit's givens: band cells in reading order, then column 1 below
    band 1, as ``(row, col, digit)`` with 0-based row and column."""
    cells = [(r, c, int(band[r, c])) for r in range(s.box_rows) for c in range(s.n)]
    cells += [(s.box_rows + i, 0, d) for i, d in enumerate(form)]
    return tuple(cells)
