"""The symmetry group of a grid kind: the part of G that keeps its rules, times relabelling.

G is the geometric group of the kind's box shape
(:mod:`counting.group.symmetries`: band, stack, row-in-band and
column-in-stack permutations, transposition for square boxes).  An element
of G is a symmetry of a kind when it maps the kind's *constraint graph*
onto itself: cells are joined when they share a house (row, column, box or
region, extra house) or form a difference pair.  Every house has ``N``
cells and ``N`` digits, so "all different" there is "each digit once", and
the grids of a kind are exactly the ``N``-colourings of its graph: a
graph automorphism maps grids to grids.  Rows and columns are kept by every
element of G, so only the other edges are checked (and for a kind with
regions, G is the shape's group, so the answer is the subgroup of the
kind's symmetries that also keeps the boxes' geometry).

Relabelling the digits (``S_N``) keeps every kind, so the order of the
kind's group is ``|H|·N!`` with ``H`` the geometric part found here.

The search enumerates the row part ``x`` of G (1,296 elements for 9×9,
times 2 with transposition) and, for each, tests every column part ``y`` at
once with numpy.  Latin shapes (``1xN``, ``Nx1``) whose ``N!·N!`` pairs are
more than :data:`MAX_PAIRS` (order 8 on) are searched instead by
backtracking (:func:`_latin_elements`): there G is every pair of a row and
a column permutation, and rows ``0..k-1`` and columns ``0..k-1`` are mapped
together, each edge inside them tested as soon as its cells are placed.
Other shapes too large to enumerate, or a backtracking that passes
:data:`MAX_NODES`, raise ``ValueError``.

The conjugacy classes of ``H`` (:func:`kind_classes`) are those of ``H``,
not of G: an element's class in G may leave ``H``.  They are found by
conjugating on cells (``H`` has at most a few thousand elements).

Example
-------
>>> kind_group("2x2").geometric_order        # all of G for plain 4×4 grids
128
>>> g = kind_group("2x2+x")                  # 4×4 Sudoku X
>>> g.geometric_order, g.order
(16, 384)
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from counting.group.symmetries import Symmetry, group_order, wreath_elements
from grids.kind import GridKind, as_kind
from grids.variants.encoding import unit_cells

__all__ = ["KindGroup", "KindClass", "kind_group", "kind_classes", "constraint_edges", "MAX_PAIRS"]

#: Largest ``|row part| · |column part|`` enumerated (9×9: 1296², 1x7: 5040²).
MAX_PAIRS = 30_000_000
#: Edges tested on every column part before the others (on the few left), then 8 times as many.
FIRST_EDGES = 8
#: Placements the Latin backtracking may try before it gives up (1x8+x takes
#: 100,448, 1x9+x 706,305).
MAX_NODES = 2_000_000


def constraint_edges(kind) -> frozenset[tuple[int, int]]:
    """Pairs ``(a, b)``, ``a < b``, of cells that must differ, other than
    pairs sharing a row or a column."""
    kind = as_kind(kind)
    n = kind.shape.n
    edges = set()
    for cells in unit_cells(kind)[2 * n:]:
        cells = sorted(cells)
        edges.update((a, b) for i, a in enumerate(cells) for b in cells[i + 1:])
    edges.update(kind.differences())
    return frozenset((a, b) for a, b in edges if a // n != b // n and a % n != b % n)


@dataclass(frozen=True)
class KindGroup:
    """The symmetries of a kind (see the module docstring).

    Attributes
    ----------
    kind : GridKind
    elements : tuple of Symmetry
        The geometric part ``H`` (identity first).
    """

    kind: GridKind
    elements: tuple

    @property
    def geometric_order(self) -> int:
        """``|H|``: elements of G that keep the kind's rules."""
        return len(self.elements)

    @property
    def order(self) -> int:
        """``|H|·N!``: with relabelling."""
        return self.geometric_order * math.factorial(self.kind.shape.n)

    @property
    def index(self) -> int:
        """``|G| / |H|``: how many of the shape's symmetries the rules break."""
        return group_order(self.kind.shape) // self.geometric_order

    @cached_property
    def cell_permutations(self) -> np.ndarray:
        """``(|H|, N²)``: row ``i`` maps each cell to its image under element ``i``."""
        return np.array([g.cell_permutation() for g in self.elements], dtype=np.int64)

    def stabiliser(self, cells) -> np.ndarray:
        """Indices of the elements that map the set ``cells`` onto itself."""
        cells = np.array(sorted(int(c) for c in cells), dtype=np.int64)
        images = np.sort(self.cell_permutations[:, cells], axis=1)
        return np.flatnonzero((images == cells).all(axis=1))


def kind_group(kind) -> KindGroup:
    """The symmetry group of ``kind`` (a :class:`GridKind` or its text)."""
    kind = as_kind(kind)
    s = kind.shape
    n, nn = s.n, s.n * s.n
    if min(s.box_rows, s.box_cols) == 1 and math.factorial(n) ** 2 > MAX_PAIRS:
        return _identity_first(kind, _latin_elements(kind))
    # sizes first: listing 16×16's 7.9 M row parts alone takes gigabytes
    n_xs = math.factorial(s.box_rows) ** s.box_cols * math.factorial(s.box_cols)
    n_ys = math.factorial(s.box_cols) ** s.box_rows * math.factorial(s.box_rows)
    if n_xs * n_ys > MAX_PAIRS:
        raise ValueError(f"the symmetry group of {kind.name} is too large to search "
                         f"({n_xs}·{n_ys} row and column parts)")
    xs = np.array(wreath_elements(s.box_rows, s.box_cols), dtype=np.int64)
    ys = np.array(wreath_elements(s.box_cols, s.box_rows), dtype=np.int64)
    edges = sorted(constraint_edges(kind))
    keep = np.zeros(nn * nn, dtype=bool)
    found = []
    if edges:
        e = np.array(edges, dtype=np.int64)
        keep[e[:, 0] * nn + e[:, 1]] = True
        ends = [np.divmod(e[:, 0], n), np.divmod(e[:, 1], n)]   # (rows, cols) of each end
    # a few edges (in a fixed shuffled order, so not all from one house) rule
    # out most column parts: test them on every one, the others on those left
    if edges:
        shuffled = np.random.default_rng(0).permutation(len(edges))
        ends = [(r[shuffled], c[shuffled]) for r, c in ends]
    parts = [slice(0, FIRST_EDGES), slice(FIRST_EDGES, 8 * FIRST_EDGES), slice(8 * FIRST_EDGES, None)]
    for transpose in ([False, True] if s.box_rows == s.box_cols else [False]):
        for x in xs:
            if not edges:
                found.extend(Symmetry(tuple(x), tuple(y), transpose) for y in ys)
                continue
            left = np.arange(len(ys))
            for part in parts:
                cells = []
                for r, c in ends:
                    if transpose:
                        r, c = c, r
                    cells.append(x[r[part]][None, :] * n + ys[left][:, c[part]])  # (left, edges)
                lo, hi = np.minimum(*cells), np.maximum(*cells)
                left = left[keep[lo * nn + hi].all(axis=1)]
            found.extend(Symmetry(tuple(int(v) for v in x), tuple(int(v) for v in ys[i]), transpose)
                         for i in left)
    return _identity_first(kind, found)


def _identity_first(kind: GridKind, found: list) -> KindGroup:
    """The group of the elements ``found``, the identity first."""
    identity = Symmetry.identity(kind.shape)
    found.sort(key=lambda g: g != identity)
    return KindGroup(kind, tuple(found))


def _latin_elements(kind: GridKind) -> list:
    """The elements of ``H`` for a Latin shape (G: every row permutation ``x``
    with every column permutation ``y``), by backtracking.

    Invariant: at depth ``k`` rows ``0..k-1`` and columns ``0..k-1`` have their
    images ``x[i]``, ``y[j]``, and every constraint edge between two cells of
    that ``k×k`` block maps to an edge.  The edges whose last row or column
    is ``k`` are tested when row ``k`` and column ``k`` are placed, so a
    complete placement keeps every edge; it is a bijection of the cells, so
    it maps the edges onto the edges.
    """
    n = kind.shape.n
    edges = constraint_edges(kind)
    due: list[list[tuple[int, int, int, int]]] = [[] for _ in range(n)]
    for a, b in edges:   # tested at the depth where the later of its rows and columns is placed
        (r1, c1), (r2, c2) = divmod(a, n), divmod(b, n)
        due[max(r1, c1, r2, c2)].append((r1, c1, r2, c2))
    x, y = [0] * n, [0] * n
    free_x, free_y = [True] * n, [True] * n
    found, nodes = [], 0

    def place(k: int) -> None:
        nonlocal nodes
        if k == n:
            found.append(Symmetry(tuple(x), tuple(y), False))
            return
        for rx in range(n):
            if not free_x[rx]:
                continue
            x[k], free_x[rx] = rx, False
            for cy in range(n):
                if not free_y[cy]:
                    continue
                nodes += 1
                if nodes > MAX_NODES:
                    raise ValueError(f"the symmetry group of {kind.name} is too large to search "
                                     f"(more than {MAX_NODES:,} placements)")
                y[k] = cy
                if all(tuple(sorted((x[r1] * n + y[c1], x[r2] * n + y[c2]))) in edges
                       for r1, c1, r2, c2 in due[k]):
                    free_y[cy] = False
                    place(k + 1)
                    free_y[cy] = True
            free_x[rx] = True

    place(0)
    return found


@dataclass(frozen=True)
class KindClass:
    """A conjugacy class of the kind's group: its position, size and first element."""

    class_id: int
    size: int
    representative: Symmetry

    @property
    def label(self) -> str:
        return self.representative.describe()


@lru_cache(maxsize=32)
def kind_classes(kind) -> tuple[KindClass, ...]:
    """The conjugacy classes of the kind's group ``H``, the identity's first,
    then in the order of their first element in ``H``'s list."""
    group = kind_group(as_kind(kind))
    perms = group.cell_permutations
    index = {p.tobytes(): i for i, p in enumerate(perms)}
    inverses = np.argsort(perms, axis=1)
    seen = np.zeros(len(perms), dtype=bool)
    out = []
    for i in range(len(perms)):
        if seen[i]:
            continue
        # h g h⁻¹ on cells: c -> h(g(h⁻¹(c))), for every h at once
        conj = np.take_along_axis(perms, perms[i][inverses], axis=1)
        members = {index[row.tobytes()] for row in conj}
        seen[list(members)] = True
        out.append(KindClass(len(out), len(members), group.elements[i]))
    if sum(c.size for c in out) != len(perms):
        raise ArithmeticError(f"the classes of {group.kind.name} do not partition its group")
    return tuple(out)
