"""Public API of the band tables: three bands of ``R`` rows at once.

For boxes of ``R`` rows × 3 columns the grid has three bands and ``R``
stacks of three columns.  Given band 1 (through its column sets only),
the completions of bands 2 and 3 are

    Σ_{P2 compatible with P1}  L(P2) · L(P3)

(``P3`` forced column by column, :func:`bandtables.partitions.compatible_pairs`).
:class:`BandTables` holds, once per process and read-only, what this sum
reads: the normalising table ``act`` and the table ``T`` of ``l = L / R!``
(:mod:`bandtables.tables`), and calls the private ``nogil`` kernel
:func:`bandtables.kernels.contract`.  Workers that share a machine share
the tables through :meth:`BandTables.save` / :meth:`BandTables.load`
(memory maps: one copy in the page cache, not one per process; the
``patterns3`` reduction reads them from :mod:`bandtables.cache`).

Example
-------
>>> bt = BandTables.build(2)
>>> bt.U, bt.K, len(bt.classes.reps)
(15, 10, 3)
>>> sets = [{1, 2}, {3, 4}, {5, 6}, {1, 3}, {2, 5}, {4, 6}]
>>> bt.l(sets) * bt.completions(sets) * bt.row_orders ** 3 > 0
True
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from bandtables import kernels
from bandtables.partitions import (band2_choices, code_index, compatible_pairs, normalisers,
                                  unordered_codes)
from bandtables.tables import DENSE_MAX_R, ClassTable, class_table, load_dense, save_dense

__all__ = ["BandTables", "band_codes", "max_terms_bound"]


def band_codes(column_sets, R: int) -> np.ndarray:
    """Ordered box codes ``(R, 3R)`` uint8 of a band given its column sets.

    ``column_sets`` lists the ``3R`` columns left to right (box ``i`` owns
    columns ``3i .. 3i+2``), each an iterable of ``R`` digits ``1..3R``;
    ``out[i, d-1]`` is the column (0, 1, 2) of digit ``d`` in box ``i``.

    Raises
    ------
    ValueError
        Naming the first box whose three columns do not split ``1..3R``
        into three sets of ``R``.
    """
    N = 3 * R
    sets = [sorted(int(d) for d in s) for s in column_sets]
    if len(sets) != N:
        raise ValueError(f"a band of {R} rows has {N} column sets, got {len(sets)}")
    out = np.empty((R, N), dtype=np.uint8)
    for i in range(R):
        box = sets[3 * i:3 * i + 3]
        if sorted(d for s in box for d in s) != list(range(1, N + 1)) \
                or any(len(s) != R for s in box):
            raise ValueError(f"box {i + 1}: columns {box} do not split 1..{N} into three "
                             f"sets of {R}")
        for j, s in enumerate(box):
            out[i, np.array(s) - 1] = j
    return out


def max_terms_bound(R: int) -> int:
    """Bregman's bound on ``L`` of an ``R × 3R`` band, divided by ``R!``.

    ``L`` counts ``R``-edge-colourings of an ``R``-regular bipartite graph
    with ``3R`` vertices a side (columns, digits); colour by colour, a
    ``k``-regular one has at most ``(k!)^(3R/k)`` perfect matchings
    (Bregman), so ``L <= Π_k (k!)^(3R/k)``.  Used to check the tables.
    """
    bound = 1.0
    for k in range(1, R + 1):
        bound *= math.factorial(k) ** (3 * R / k)
    return math.floor(bound) // math.factorial(R) + 1


class BandTables:
    """The read-only tables of one ``R`` and the contraction over them.

    Parameters
    ----------
    R : int
        Rows of a band (``2 <= R <= 3``: the dense table).
    act : ndarray of uint16, shape (U, U)
        ``act[u, v]``: code ``v`` after the relabelling sending ``u`` to 0.
    T : ndarray of uint64, shape (U^(R-1),)
        ``l`` of the pattern ``(0, v)`` by flat rest ``v``.
    classes : ClassTable or None
        The band classes (None: built in the process when :attr:`classes`
        is first read).

    Attributes
    ----------
    U : int
        Number of unordered box codes.
    K : int
        Band-2 choices per stack.
    K0 : int
        ``K / 2``: stack 1's choices summed (one of each pair exchanged by
        swapping bands 2 and 3; the sum is doubled).
    row_orders : int
        ``R!``: ``L = R! · l`` in each band.
    """

    def __init__(self, R: int, act: np.ndarray, T: np.ndarray, classes: ClassTable | None = None):
        if isinstance(R, bool) or not isinstance(R, int) or not 2 <= R <= DENSE_MAX_R:
            raise ValueError(f"band tables exist for R = 2..{DENSE_MAX_R}, got {R!r}")
        U = len(unordered_codes(R))
        if act.dtype != np.uint16 or act.shape != (U, U) or not act.flags.c_contiguous:
            raise ValueError(f"act must be C-contiguous uint16 ({U}, {U}), got "
                             f"{act.dtype} {act.shape}")
        if T.dtype != np.uint64 or T.shape != (U ** (R - 1),) or not T.flags.c_contiguous:
            raise ValueError(f"T must be C-contiguous uint64 ({U ** (R - 1)},), got "
                             f"{T.dtype} {T.shape}")
        self.R, self.U, self._classes = R, U, classes
        self.act, self.T = act, T
        self.K = len(compatible_pairs(np.repeat(np.arange(3), R), R)[0])
        self.K0 = self.K // 2
        self.row_orders = math.factorial(R)
        self._tmax = int(T.max())
        if self._tmax >= max_terms_bound(R):
            raise ValueError(f"table entry {self._tmax} exceeds Bregman's bound "
                             f"{max_terms_bound(R)}: the table is wrong")
        # The kernel's 128-bit accumulator: K^R terms, each < tmax² (proof, not hope).
        if self._tmax ** 2 * self.K ** R >= 2 ** 128:
            raise OverflowError(f"Σ of {self.K}^{R} terms below {self._tmax}² may exceed 2^128")

    @classmethod
    def build(cls, R: int) -> "BandTables":
        """Build the tables in this process (cached per ``R`` by the builders)."""
        ct = class_table(R)
        return cls(R, normalisers(R)[1], ct.T, ct)

    def save(self, directory) -> None:
        """Write the tables of this ``R`` under ``directory``
        (:func:`bandtables.tables.save_dense`: ``act``, ``T`` and the classes)."""
        save_dense(self.R, directory)

    @classmethod
    def load(cls, R: int, directory) -> "BandTables":
        """Memory-map the tables :meth:`save` wrote (read-only, shared pages),
        the classes included."""
        act, classes = load_dense(R, directory)
        return cls(R, act, classes.T, classes)

    @property
    def classes(self) -> ClassTable:
        """The band classes (built on first use if none were given)."""
        if self._classes is None:
            self._classes = class_table(self.R)
        return self._classes

    def l(self, column_sets) -> int:
        """``l = L / R!`` of a band with these column sets, read from ``T``."""
        return int(self.T[self._rest(column_sets)])

    def _rest(self, column_sets) -> int:
        """Flat rest of the band after relabelling box 1 to the standard code."""
        u = code_index(band_codes(column_sets, self.R), self.R)
        rest = self.act[u[0], u[1:]].astype(np.int64)
        return int((rest * self.U ** np.arange(self.R - 2, -1, -1)).sum())

    def class_id(self, column_sets) -> int:
        """The class (:attr:`classes`) of a band with these column sets."""
        return int(self.classes.rest_class[self._rest(column_sets)])

    def pairs(self, column_sets) -> tuple[np.ndarray, np.ndarray]:
        """The kernel's band-2 and band-3 codes per stack and choice, ``(R, K)``
        each (:func:`bandtables.partitions.band2_choices`: stack 1 halved)."""
        return band2_choices(band_codes(column_sets, self.R), self.R)

    def completions(self, column_sets, x0: tuple[int, int] | None = None) -> int:
        """``Σ_{P2} l(P2)·l(P3)`` over band-2 patterns compatible with band 1's
        column sets (exact int); multiply by ``(R!)²`` for the completions
        of bands 2 and 3 of one band 1.

        Computed as twice the sum over stack 1's first ``K0 = K/2`` choices
        (bands 2 and 3 exchanged give equal terms).  ``x0 = (start, stop)``
        restricts those to ``start <= x_0 < stop`` (``0 .. K0``): a slice,
        doubled likewise; the slices add up to the whole.
        """
        start, stop = (0, self.K0) if x0 is None else x0
        if not (isinstance(start, int) and isinstance(stop, int)
                and 0 <= start <= stop <= self.K0):
            raise ValueError(f"x0 must be a range inside 0..{self.K0}, got {x0!r}")
        b, c = self.pairs(column_sets)
        hi, lo = kernels.contract(self.act, self.T, b, c, start, stop)
        return 2 * ((int(hi) << 64) | int(lo))
