"""The units of a puzzle's grid as the rules use them, and what a rule finds.

:class:`Geometry` holds, for one box shape, the cells of every row, column
and box, each cell's peers and the box-line crossings; :func:`geometry`
builds it once per shape.  :class:`Deduction` is what a technique of
:mod:`grids.puzzles.techniques` returns: its rule's name, the candidates it
removes and why, for people.  Candidates are bit masks (bit ``d-1`` for
digit ``d``; a placed cell has none).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from grids.grid import ALPHABET, cell_name
from grids.shape import Shape

__all__ = ["Geometry", "geometry", "Deduction", "digits_of", "popcount"]


class Geometry:
    """Units and their intersections for one shape, as the rules use them.

    Attributes
    ----------
    n, nn, full : int
        Digits, cells, and the mask of every digit (bit ``d-1`` for ``d``).
    latin : bool
        No box units (``1xN``, ``Nx1``).
    units : list of tuple of int
        Cells of every unit, in the order of :attr:`grids.shape.Shape.units`:
        ``N`` rows, ``N`` columns, then ``N`` boxes.
    label : list of str
        Name of every unit (``"box 3"``).
    peers : list of tuple of int
        The cells sharing a unit with each cell.
    peer_set : list of frozenset of int
        The same, for membership tests (``b in g.peer_set[a]``: a and b see
        each other).
    cell_units : list of tuple of int
        The units (indices into ``units``) of each cell.
    crossings : list of tuple
        ``(box unit, line unit, cells of both, box cells off the line, line
        cells off the box)`` for every box and row or column that meet.
    """

    def __init__(self, shape: Shape):
        self.n = shape.n
        self.nn = shape.n_cells
        self.full = (1 << shape.n) - 1
        self.latin = shape.latin
        self.units = [tuple(cells.tolist()) for _, cells in shape.units]
        self.label = [name for name, _ in shape.units]
        self.peers = [tuple(p.tolist()) for p in shape.peers]
        self.peer_set = [frozenset(p) for p in self.peers]
        of_cell: list[list[int]] = [[] for _ in range(self.nn)]
        for ui, unit in enumerate(self.units):
            for k in unit:
                of_cell[k].append(ui)
        self.cell_units = [tuple(u) for u in of_cell]
        n, units = self.n, self.units
        self.crossings: list[tuple[int, int, tuple, tuple, tuple]] = []
        if not shape.latin:
            for bu in range(2 * n, 3 * n):
                box = set(units[bu])
                for lu in range(2 * n):
                    both = box & set(units[lu])
                    if both:
                        self.crossings.append((bu, lu, tuple(sorted(both)),
                                               tuple(sorted(box - both)),
                                               tuple(sorted(set(units[lu]) - box))))

    def name(self, k: int) -> str:
        """``r1c1``-style name of cell ``k``."""
        return cell_name(k, self.n)

    @staticmethod
    def sym(d: int) -> str:
        """The symbol of digit ``d`` (``1``-``9``, then ``A``-``Z``)."""
        return ALPHABET[d - 1]


@lru_cache(maxsize=None)
def geometry(shape: Shape) -> Geometry:
    """The :class:`Geometry` of ``shape``, built once per shape."""
    return Geometry(shape)


@dataclass(frozen=True)
class Deduction:
    """Candidates a technique removes.

    Attributes
    ----------
    rule : str
        The technique's name (a row of the statistics table).
    eliminations : tuple
        ``(cell, digit)`` pairs removed (cells row-major from 0), never empty.
    why : str
        The pattern found, for people (``X-Wing on 4: rows 2,7 × columns 3,8``).
    """

    rule: str
    eliminations: tuple[tuple[int, int], ...]
    why: str


def popcount(mask: int) -> int:
    """Set bits of ``mask`` (candidates of a cell)."""
    return bin(mask).count("1")


def digits_of(mask: int) -> list[int]:
    """The digits of a candidate mask, smallest first."""
    out, d = [], 1
    while mask:
        if mask & 1:
            out.append(d)
        mask >>= 1
        d += 1
    return out
