"""Count a grid kind band by band, carrying across each band border what its rules need.

The method ``results/variants-sharing.md`` favours for kinds whose extra houses have one
cell per box (issue 35): a *band decomposition*.  The bands are filled top to bottom, and
how the bands below can be filled depends on the bands above only through their
*interface*:

* the digits each column holds so far (the column sets of ``patterns3``),
* the digits each extra house holds so far (centre-dot, girandola, asterisk: three a band),
* for each difference pair whose cells lie in different bands (anti-king, anti-knight),
  the digit on its upper cell.

So, with ``ways_b(I)`` the number of fillings of bands 1..b whose interface is ``I``,

    ways_{b+1}(I') = Σ_I ways_b(I) · #{fillings of band b+1 that fit I and make I'},

and the number of grids is ``N! · Σ_I ways_last(I)``: row 1 is fixed to ``1..N``, since
relabelling the digits maps grids of the kind onto grids of the kind (every rule is a
house or a difference pair) and acts freely.

This module is the plain, exact statement of the method: a band's fillings are found by
backtracking in Python, one interface at a time, so it counts 4×4 and 6×6 kinds (checked
against brute force in the tests) and refuses larger jobs (``max_fillings``).  A fast 9×9
version keeps the same transfer and replaces the enumeration by band tables, as
``patterns3`` does for plain Sudoku.

Example
-------
>>> r = count_by_bands("2x2+x")
>>> r.grids, r.interfaces
(48, (4, 1))
"""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

from grids.kind import as_kind

__all__ = ["BandCount", "count_by_bands", "MAX_FILLINGS", "MAX_SIDE"]

#: Most band fillings enumerated (over all interfaces) before the count is refused.
MAX_FILLINGS = 5_000_000
#: Largest side counted: a 9×9 band alone has 2,612,736 fillings with row 1 fixed, which
#: this Python enumeration would take minutes over before refusing.
MAX_SIDE = 6


@dataclass(frozen=True)
class BandCount:
    """The result of :func:`count_by_bands`.

    Attributes
    ----------
    grids : int
        The number of grids of the kind.
    interfaces : tuple of int
        How many distinct interfaces the transfer held after each band (the last is
        after the last band): the size of what a band decomposition carries.
    fillings : int
        Band fillings enumerated in all.
    """

    grids: int
    interfaces: tuple[int, ...]
    fillings: int


class _Band:
    """One band's cells in reading order, with what each must differ from."""

    def __init__(self, kind, band: int, open_before: tuple[int, ...], open_after: tuple[int, ...]):
        s = kind.shape
        n, rows = s.n, s.box_rows
        self.cells = [r * n + c for r in range(band * rows, (band + 1) * rows) for c in range(n)]
        inside = set(self.cells)
        houses = kind.houses()
        self.houses_of = {k: [h for h, cells in enumerate(houses) if k in cells] for k in self.cells}
        position = {k: i for i, k in enumerate(self.cells)}
        earlier: dict[int, set] = {k: set() for k in self.cells}
        for i, k in enumerate(self.cells):
            r, c = divmod(k, n)
            for j in self.cells[:i]:
                rj, cj = divmod(j, n)
                if rj == r or s.box_of(rj, cj) == s.box_of(r, c):
                    earlier[k].add(j)
            for h in self.houses_of[k]:
                earlier[k].update(j for j in houses[h] if j in position and position[j] < i)
        above: dict[int, list] = {k: [] for k in self.cells}      # positions in open_before
        for a, b in kind.differences():
            if a in inside and b in inside:
                first, second = sorted((a, b), key=position.get)
                earlier[second].add(first)
            elif b in inside and a in open_before:
                above[b].append(open_before.index(a))
            elif a in inside and b in open_before:
                above[a].append(open_before.index(b))
        self.earlier = {k: sorted(v, key=position.get) for k, v in earlier.items()}
        self.above = above
        self.column = {k: k % n for k in self.cells}
        self.open_after = open_after
        self.carried = [open_before.index(a) if a in open_before else None for a in open_after]


def _open_cells(kind, last_band: int) -> tuple[int, ...]:
    """Cells of bands 0..last_band that are in a difference pair with a cell below."""
    n, rows = kind.shape.n, kind.shape.box_rows
    limit = (last_band + 1) * rows * n
    out = {a for a, b in kind.differences() if a < limit <= b}
    out |= {b for a, b in kind.differences() if b < limit <= a}
    return tuple(sorted(out))


def count_by_bands(kind, *, max_fillings: int = MAX_FILLINGS) -> BandCount:
    """The number of grids of ``kind`` by the band transfer of this module.

    Parameters
    ----------
    kind : GridKind or str
        A Sudoku kind with boxes (``"2x3+disjoint"``, ``"2x2+x+anti-king"``); Latin
        shapes and jigsaw regions are refused.
    max_fillings : int
        Refuse (ValueError) once more band fillings than this have been enumerated.

    Raises
    ------
    ValueError
        For a Latin shape, regions instead of boxes, a side over :data:`MAX_SIDE`, or a
        job over ``max_fillings``.
    """
    kind = as_kind(kind)
    s = kind.shape
    if s.latin or kind.regions() is not None:
        raise ValueError(f"{kind}: the band transfer needs boxes (not a Latin shape, no regions)")
    if s.n > MAX_SIDE:
        raise ValueError(f"{kind}: the band transfer in Python counts grids up to "
                         f"{MAX_SIDE}x{MAX_SIDE}; a larger kind needs band tables")
    n, n_bands = s.n, s.n // s.box_rows
    houses = kind.houses()
    opens = [()] + [_open_cells(kind, b) for b in range(n_bands)]
    full = (1 << n) - 1
    row1 = {k: k + 1 for k in range(n)}        # row 1 reads 1..N (relabelling: factor N!)
    # an interface: (column masks, house masks, digits on the open cells above)
    ways = {((0,) * n, (0,) * len(houses), ()): 1}
    sizes, fillings = [], 0
    for b in range(n_bands):
        band = _Band(kind, b, opens[b], opens[b + 1])
        nxt: dict[tuple, int] = defaultdict(int)
        for (cols, hmask, carried), w in ways.items():
            digit: dict[int, int] = {}

            def place(i: int) -> None:
                nonlocal fillings
                if i == len(band.cells):
                    fillings += 1
                    if fillings > max_fillings:
                        raise ValueError(f"{kind}: over {max_fillings:,} band fillings; the band "
                                         f"transfer in Python counts 4x4 and 6x6 kinds")
                    new_cols = list(cols)
                    new_h = list(hmask)
                    for k, d in digit.items():
                        new_cols[band.column[k]] |= 1 << (d - 1)
                        for h in band.houses_of[k]:
                            new_h[h] |= 1 << (d - 1)
                    out = tuple(digit[a] if j is None else carried[j]
                                for a, j in zip(band.open_after, band.carried))
                    nxt[(tuple(new_cols), tuple(new_h), out)] += w
                    return
                k = band.cells[i]
                banned = cols[band.column[k]]
                for h in band.houses_of[k]:
                    banned |= hmask[h]
                for j in band.earlier[k]:
                    banned |= 1 << (digit[j] - 1)
                for j in band.above[k]:
                    banned |= 1 << (carried[j] - 1)
                choices = [row1[k]] if k in row1 else range(1, n + 1)
                for d in choices:
                    if not (banned >> (d - 1)) & 1 and (full >> (d - 1)) & 1:
                        digit[k] = d
                        place(i + 1)
                        del digit[k]

            place(0)
        ways = nxt
        sizes.append(len(ways))
    return BandCount(math.factorial(n) * sum(ways.values()), tuple(sizes), fillings)
