"""The exact factors of the band reductions ("moves" and "patterns").

Three symmetry steps come before any class is formed, each dividing the
grids into orbits of one size, so each contributes an exact factor:

1. relabel the digits so that box 1 reads 1..N row by row (``N!``);
2. reduce band 1 lexicographically (``(C!)^(R-1)·(R-1)!``);
3. reduce column 1 below band 1 (``(R!)^(C-1)·(C-1)!``).

Every factor is exact because the group it stands for acts freely: row 1's
digits (resp. column 1's) are distinct, so no non-trivial column (resp.
row) permutation maps a reduced band (column form) to itself.  The tests
check each factor against a brute-force count of whole grids.

:attr:`Factorisation.factors` gives them with the labels the command line
prints, in order.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from grids.shape import Shape, as_shape

__all__ = ["FACTOR_LABELS", "relabel_factor", "band_factor", "column_factor",
           "Factorisation", "factorisation"]

# How `gridcount count` labels the three factors, in order.
FACTOR_LABELS = ("relabel box 1 (N!)", "reduce band 1", "reduce column 1")


def relabel_factor(shape: Shape | str) -> int:
    """Factor for relabelling the digits so that box 1 is standard.

    Every digit permutation maps grids to grids bijectively and exactly one
    of the ``N!`` permutations makes box 1 read 1..N row by row (box 1 holds
    every digit once).  For ``1xN`` box 1 is row 1, for ``Nx1`` column 1.

    Examples
    --------
    >>> relabel_factor("3x3") == math.factorial(9)
    True
    >>> relabel_factor("2x4") == math.factorial(8)
    True
    """
    return math.factorial(as_shape(shape).n)


def band_factor(shape: Shape | str) -> int:
    """Factor of the lexicographic reduction of band 1.

    Each of the ``R - 1`` boxes after box 1 has its ``C`` columns sorted by
    their row-1 digit (``C!`` orders each), and those boxes are ordered by
    their first row-1 digit (``(R-1)!`` orders).  These column moves are
    grid symmetries that leave box 1 (and column 1) alone, and row-1 digits
    are distinct, so every band has exactly one sorted image and no sorted
    band is fixed by a non-trivial move: the factor is exact.

    ``(C!)^(R-1)·(R-1)!``; for ``1xN`` (one box per band) it is 1, for
    ``Nx1`` (one-column boxes) ``(N-1)!``, the order of columns 2..N.

    Examples
    --------
    >>> band_factor("3x3") == math.factorial(3) ** 2 * math.factorial(2)
    True
    >>> band_factor("2x4"), band_factor("4x2"), band_factor("1x5"), band_factor("5x1")
    (24, 48, 1, 24)
    """
    s = as_shape(shape)
    return math.factorial(s.box_cols) ** (s.n_stacks - 1) * math.factorial(s.n_stacks - 1)


def column_factor(shape: Shape | str) -> int:
    """Factor of the reduction of column 1 below band 1.

    Below band 1, column 1 crosses ``C - 1`` bands of ``R`` rows.  Rows
    inside each of those bands are sorted by their column-1 digit (``R!``
    orders each) and the bands are ordered by their first column-1 digit
    (``(C-1)!`` orders).  These row moves are grid symmetries that leave
    band 1 alone, and column-1 digits are distinct, so the factor is exact.

    ``(R!)^(C-1)·(C-1)!``; for ``1xN`` (one-row bands) it is ``(N-1)!``, the
    order of rows 2..N; for ``Nx1`` (band 1 is the whole grid) it is 1.

    Examples
    --------
    >>> column_factor("3x3") == math.factorial(3) ** 2 * math.factorial(2)
    True
    >>> column_factor("2x4"), column_factor("4x2"), column_factor("1x5"), column_factor("5x1")
    (48, 24, 24, 1)
    """
    s = as_shape(shape)
    return math.factorial(s.box_rows) ** (s.n_bands - 1) * math.factorial(s.n_bands - 1)


@dataclass(frozen=True)
class Factorisation:
    """The three exact factors of the band reductions.

    Attributes
    ----------
    relabel : int
        Digit relabelling that makes box 1 standard (``N!``; ``9!`` for 3×3).
    band : int
        Lexicographic reduction of band 1 (``(C!)^(R-1)·(R-1)!``; ``3!·3!·2``).
    column : int
        Reduction of column 1 below band 1 (``(R!)^(C-1)·(C-1)!``; ``3!·3!·2``).

    Examples
    --------
    >>> f = factorisation("3x3")
    >>> f.product == f.relabel * f.band * f.column
    True
    >>> f.factors[1]
    ('reduce band 1', 72)
    """

    relabel: int
    band: int
    column: int

    @property
    def product(self) -> int:
        """``relabel · band · column``: the multiplier of Σ weight · Σ count."""
        return self.relabel * self.band * self.column

    @property
    def factors(self) -> tuple[tuple[str, int], ...]:
        """``(label, factor)`` pairs in order, labelled as the command line prints them."""
        return tuple(zip(FACTOR_LABELS, (self.relabel, self.band, self.column)))


def factorisation(shape: Shape | str) -> Factorisation:
    """All factors of the band reductions for one box shape.

    Examples
    --------
    >>> factorisation("3x3").band == band_factor("3x3")
    True
    """
    s = as_shape(shape)
    return Factorisation(relabel_factor(s), band_factor(s), column_factor(s))
