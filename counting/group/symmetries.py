"""The symmetry group G of the grids of one box shape, and its conjugacy classes.

For boxes of ``R`` rows × ``C`` columns (grids of side ``N = R·C``) an element
of G moves whole rows and whole columns so that every grid stays a grid:

* the row part permutes the ``C`` bands and, inside each band, its ``R``
  rows: an element of the wreath product ``S_R ≀ S_C`` acting on the ``N``
  row indices, blocks of ``R`` consecutive rows;
* the column part permutes the ``R`` stacks and the ``C`` columns inside
  each: ``S_C ≀ S_R`` on the column indices, blocks of ``C`` columns;
* when ``R = C``, also transposition.

So ``|G| = R!^C·C!·C!^R·R!`` times 2 when ``R = C`` (9×9: ``2·6⁸ =
3,359,232``).  Relabelling the digits is *not* in G; :mod:`.burnside`
explains how it enters the count.

Action on cells
---------------
An element is ``Symmetry(rows, cols, transpose)``: ``rows`` and ``cols`` are
permutations of ``0..N-1`` in one-line notation.  It maps cell ``(r, c)`` to
``(rows[r], cols[c])``, or, when ``transpose`` is set, to ``(rows[c],
cols[r])`` (transpose first, then move rows and columns).  Cells are numbered
``k = r·N + c`` as everywhere in gridcount; :meth:`Symmetry.cell_permutation`
gives the map as an array.

Conjugacy classes
-----------------
Classes come from the wreath-product structure, not from enumerating G
(3.4 M elements for 9×9).  In ``S_b ≀ S_n`` (n blocks of b points) the class
of an element is its *coloured cycle type*: the cycles of the block
permutation, each with the cycle type (a partition of b) of the product of
the within-block permutations around that cycle (the "cycle product"; its
conjugacy class in ``S_b`` does not depend on where the cycle starts).  A
colour ``(ℓ, λ)`` met ``m`` times contributes ``m!·(ℓ·z_λ)^m`` to the order
of the centraliser, ``z_λ = Π_i i^{a_i}·a_i!`` being the centraliser order
of λ in ``S_b`` (:class:`WreathClass`).

G without transposition is the direct product of the row and the column
wreath products, so its classes are pairs.  With ``R = C`` conjugation by the
transposition ``t`` swaps the two parts (``t·(x, y)·t = (y, x)``):

* inside the direct product, the classes ``(a, b)`` and ``(b, a)`` fuse:
  one G-class of size ``2·|a|·|b|`` for ``a ≠ b``, ``|a|²`` for ``a = b``;
* the coset ``(x, y)·t`` splits by the class of ``x·y`` in the wreath
  product ``H``: conjugating by ``(a, b)`` gives ``(a·x·b⁻¹, b·y·a⁻¹)·t``,
  so ``x·y`` moves within its H-class and ``(x, y)·t`` is conjugate to
  ``(x·y, 1)·t``; a class of ``H`` of size ``s`` gives a G-class of size
  ``|H|·s``.

The tests check the sizes, their sum ``|G|`` and the class count against
brute-force conjugation of every element of G for 2×2 and 2×3.

Representatives are chosen to fix as much as possible: block cycles are laid
out shortest first (fixed bands and stacks first) and each within-block
permutation fixes its leading points, so a class that has an element fixing
band 1, stack 1, row 1 or column 1 has a representative that does.

Example
-------
>>> from grids.shape import Shape
>>> group_order(Shape(3, 3))
3359232
>>> len(conjugacy_classes(Shape(2, 2)))
20
"""
from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass
from functools import cache

import numpy as np

from counting.group.permutations import centraliser_order, partitions, type_representative
from grids.shape import Shape, as_shape

__all__ = ["Symmetry", "WreathClass", "ConjugacyClass", "group_order", "centraliser", "wreath_elements",
           "wreath_classes", "conjugacy_classes"]


# -- partitions and cycle types: counting.group.permutations -------------------------

def _type_permutation(partition: tuple[int, ...], offset: int = 0) -> list[int]:
    """A permutation of ``offset..offset+n-1`` (as images) of cycle type
    ``partition``: cycles on consecutive points, shortest first, so the
    leading points are the fixed ones."""
    return list(type_representative(sorted(partition), offset))


# -- one element --------------------------------------------------------------
@dataclass(frozen=True)
class Symmetry:
    """One element of G: a row permutation, a column permutation, a transposition flag.

    Cell ``(r, c)`` goes to ``(rows[r], cols[c])``, or to ``(rows[c],
    cols[r])`` when ``transpose`` (see the module docstring).  Build checked
    values with :meth:`make`.
    """

    rows: tuple[int, ...]   # one-line row permutation, bands kept together
    cols: tuple[int, ...]   # one-line column permutation, stacks kept together
    transpose: bool = False

    @classmethod
    def make(cls, shape, rows, cols, transpose: bool = False) -> "Symmetry":
        """A checked element of the group of ``shape``.

        Raises ``ValueError`` if ``rows`` does not move whole bands, ``cols``
        whole stacks, or ``transpose`` is set for ``R ≠ C``.
        """
        s = as_shape(shape)
        rows, cols = tuple(int(v) for v in rows), tuple(int(v) for v in cols)
        for name, perm, block in (("rows", rows, s.box_rows), ("cols", cols, s.box_cols)):
            if sorted(perm) != list(range(s.n)):
                raise ValueError(f"{name} must be a permutation of 0..{s.n - 1}, got {perm}")
            for b in range(0, s.n, block):
                if len({perm[i] // block for i in range(b, b + block)}) != 1:
                    raise ValueError(f"{name} must move whole blocks of {block}, got {perm}")
        if transpose and s.box_rows != s.box_cols:
            raise ValueError(f"transposition is a symmetry only of square boxes, not {s.name}")
        return cls(rows, cols, bool(transpose))

    @classmethod
    def identity(cls, shape) -> "Symmetry":
        n = as_shape(shape).n
        return cls(tuple(range(n)), tuple(range(n)), False)

    @classmethod
    def from_cell_permutation(cls, shape, perm) -> "Symmetry":
        """The element of G whose :meth:`cell_permutation` is ``perm``.

        Cells 0 and 1 land in one row unless ``perm`` transposes; then the
        images of row 1 and of column 1 give ``rows`` and ``cols``.  Raises
        ``ValueError`` if ``perm`` is no element of G: not moving whole
        bands, stacks or rows and columns, or transposing non-square boxes.

        Example
        -------
        >>> g = Symmetry.make("2x2", (1, 0, 2, 3), (0, 1, 3, 2), transpose=True)
        >>> Symmetry.from_cell_permutation("2x2", g.cell_permutation()) == g
        True
        """
        s = as_shape(shape)
        n = s.n
        perm = np.asarray(perm, dtype=np.int64)
        if perm.shape != (n * n,):
            raise ValueError(f"a cell permutation of {s.name} has {n * n} entries, "
                             f"got shape {perm.shape}")
        transpose = n > 1 and perm[0] // n != perm[1] // n
        row_images, col_images = perm[::n], perm[:n]        # of cells (r, 0) and (0, c)
        if transpose:
            rows, cols = col_images // n, row_images % n
        else:
            rows, cols = row_images // n, col_images % n
        g = cls.make(s, rows, cols, transpose)
        if not np.array_equal(g.cell_permutation(), perm):
            raise ValueError(f"the cell permutation is no element of the group of {s.name}: "
                             f"it does not move whole rows and columns")
        return g

    def conjugated_by(self, shape, h: "Symmetry") -> "Symmetry":
        """``h·g·h⁻¹`` (``h⁻¹`` first, then ``g``, then ``h``; ``g`` is self):
        it does to the cells ``h`` moves what ``g`` does to the cells they
        came from, so ``(h·g·h⁻¹)(h(c)) = h(g(c))``.

        Example
        -------
        >>> swap = Symmetry.make("2x2", (1, 0, 2, 3), (0, 1, 2, 3))       # rows 1 and 2
        >>> flip = Symmetry.make("2x2", (0, 1, 2, 3), (0, 1, 2, 3), True)  # transposition
        >>> flip.conjugated_by("2x2", swap).describe()
        'rows=2134 cols=2134 T'
        """
        hp = h.cell_permutation()
        return Symmetry.from_cell_permutation(shape, hp[self.cell_permutation()[np.argsort(hp)]])

    def cell_permutation(self) -> np.ndarray:
        """``perm[k]``: the cell that cell ``k`` goes to (int64, length N²)."""
        n = len(self.rows)
        r, c = np.divmod(np.arange(n * n), n)
        if self.transpose:
            r, c = c, r
        return np.asarray(self.rows)[r] * n + np.asarray(self.cols)[c]

    def describe(self) -> str:
        """``rows=… cols=… T`` in one-line notation (1-based digits, as printed)."""
        word = "".join
        out = f"rows={word(str(v + 1) for v in self.rows)} cols={word(str(v + 1) for v in self.cols)}"
        if len(self.rows) > 9:
            out = (f"rows={','.join(str(v + 1) for v in self.rows)} "
                   f"cols={','.join(str(v + 1) for v in self.cols)}")
        return out + (" T" if self.transpose else "")


# -- classes of a wreath product ------------------------------------------------
@dataclass(frozen=True)
class WreathClass:
    """A conjugacy class of ``S_b ≀ S_n``: its coloured cycle type.

    Attributes
    ----------
    block, n_blocks : int
        ``b`` (points per block) and ``n``.
    cycles : tuple of (int, tuple)
        ``(ℓ, λ)`` per cycle of the block permutation: its length and the
        cycle type of its cycle product, sorted shortest cycle first.
    """

    block: int
    n_blocks: int
    cycles: tuple[tuple[int, tuple[int, ...]], ...]

    @property
    def order(self) -> int:
        """``|S_b ≀ S_n| = b!^n·n!``."""
        return math.factorial(self.block) ** self.n_blocks * math.factorial(self.n_blocks)

    @property
    def centraliser(self) -> int:
        return math.prod(math.factorial(m) * (length * centraliser_order(lam)) ** m
                         for (length, lam), m in Counter(self.cycles).items())

    @property
    def size(self) -> int:
        return self.order // self.centraliser

    @property
    def label(self) -> str:
        """``ℓ[λ]`` per cycle, e.g. ``1[111] 1[21] 1[3]``: three fixed blocks."""
        return " ".join(f"{length}[{''.join(map(str, lam))}]" for length, lam in self.cycles)

    def representative(self) -> tuple[int, ...]:
        """An element of the class in one-line notation on ``b·n`` points.

        Cycles take consecutive blocks, shortest first; each block goes to
        the next block of its cycle point by point, the last one back to the
        first through a permutation of type λ whose fixed points lead.
        """
        b = self.block
        images = [0] * (b * self.n_blocks)
        first = 0
        for length, lam in self.cycles:
            blocks = list(range(first, first + length))
            for i, blk in enumerate(blocks[:-1]):
                for j in range(b):
                    images[blk * b + j] = blocks[i + 1] * b + j
            closing = _type_permutation(lam)
            for j in range(b):
                images[blocks[-1] * b + j] = blocks[0] * b + closing[j]
            first += length
        return tuple(images)


def _colour_key(colour: tuple[int, tuple[int, ...]]):
    """Shortest cycle first, then more fixed points first."""
    length, lam = colour
    return (length, -lam.count(1), tuple(-x for x in lam))


@cache
def wreath_classes(block: int, n_blocks: int) -> tuple[WreathClass, ...]:
    """Every conjugacy class of ``S_block ≀ S_n_blocks``, in a fixed order.

    Example
    -------
    >>> [c.label for c in wreath_classes(2, 2)]
    ['1[11] 1[11]', '1[11] 1[2]', '1[2] 1[2]', '2[11]', '2[2]']
    """
    out = []
    for lengths in reversed(partitions(n_blocks)):
        multiplicity = Counter(lengths)
        per_length = []
        for length in sorted(multiplicity):
            lams = sorted(partitions(block), key=lambda lam: _colour_key((length, lam)))
            per_length.append([tuple((length, lam) for lam in combo) for combo in
                               itertools.combinations_with_replacement(lams, multiplicity[length])])
        for parts in itertools.product(*per_length):
            cycles = tuple(c for part in parts for c in part)
            out.append(WreathClass(block, n_blocks, cycles))
    return tuple(out)


# -- classes of G -------------------------------------------------------------
@dataclass(frozen=True)
class ConjugacyClass:
    """A conjugacy class of G.

    Attributes
    ----------
    class_id : int
        Stable number: position in :func:`conjugacy_classes` (0 is the identity).
    size : int
        Number of elements.
    representative : Symmetry
        One element, chosen to fix what it can (module docstring).
    label : str
        The class in words: ``rows <coloured cycle type> | cols <…>``, or
        ``T rows·cols <…>`` for the transposing classes.
    """

    class_id: int
    size: int
    representative: Symmetry
    label: str


def group_order(shape) -> int:
    """``|G|`` of the box shape (module docstring)."""
    s = as_shape(shape)
    r, c = s.box_rows, s.box_cols
    order = (math.factorial(r) ** c * math.factorial(c)) * (math.factorial(c) ** r * math.factorial(r))
    return order * (2 if r == c else 1)


@cache
def _classes(shape: Shape) -> tuple[ConjugacyClass, ...]:
    r, c = shape.box_rows, shape.box_cols
    row_classes = wreath_classes(r, c)   # C bands of R rows
    col_classes = wreath_classes(c, r)   # R stacks of C columns
    found = []
    if r != c:
        for a, b in itertools.product(row_classes, col_classes):
            found.append((a.size * b.size, Symmetry(a.representative(), b.representative()),
                          f"rows {a.label} | cols {b.label}"))
    else:
        for i, a in enumerate(row_classes):
            for b in row_classes[i:]:
                size = a.size * b.size * (1 if a == b else 2)
                found.append((size, Symmetry(a.representative(), b.representative()),
                              f"rows {a.label} | cols {b.label}"))
        n = shape.n
        for a in row_classes:
            found.append((a.order * a.size,
                          Symmetry(a.representative(), tuple(range(n)), True),
                          f"T rows·cols {a.label}"))
    return tuple(ConjugacyClass(i, size, g, label) for i, (size, g, label) in enumerate(found))


def conjugacy_classes(shape) -> tuple[ConjugacyClass, ...]:
    """The conjugacy classes of G for ``shape``, identity first, stable ids.

    Order: without transposition, pairs (row class, column class) in the
    order of :func:`wreath_classes`; with it, unordered pairs ``a ≤ b``, then
    the transposing classes.  The sizes sum to :func:`group_order`.
    """
    return _classes(as_shape(shape))


# -- centralisers ---------------------------------------------------------------
@cache
def wreath_elements(block: int, n_blocks: int) -> tuple[tuple[int, ...], ...]:
    """Every element of ``S_block ≀ S_n_blocks`` in one-line notation on
    ``block·n_blocks`` points (blocks of consecutive points kept together)."""
    out = []
    for top in itertools.permutations(range(n_blocks)):
        for inner in itertools.product(itertools.permutations(range(block)), repeat=n_blocks):
            out.append(tuple(top[i] * block + inner[i][j]
                             for i in range(n_blocks) for j in range(block)))
    return tuple(out)


def _compose(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """``a∘b``: first ``b``, then ``a``."""
    return tuple(a[i] for i in b)


def _inverse(a: tuple[int, ...]) -> tuple[int, ...]:
    out = [0] * len(a)
    for i, v in enumerate(a):
        out[v] = i
    return tuple(out)


def centraliser(shape, g: Symmetry, cells=None, *, limit: int | None = None,
                seed: int = 0) -> list[Symmetry]:
    """The elements ``h`` of G with ``h∘g = g∘h`` (and ``h(cells) = cells``).

    Products follow the action on cells: ``h∘g`` has rows
    ``h.rows∘(g.rows or g.cols)`` and columns ``h.cols∘(g.cols or g.rows)``
    (``g``'s parts swap when ``h`` transposes), so commuting splits into a
    condition on the row part and one on the column part; with a transposing
    ``g`` the column part is determined by the row part.  Each answer is
    checked on cells.  Enumerates the row and column wreath products
    (1,296 elements each for 9×9), never G.

    ``cells`` must be a unit or another rectangle of rows × columns.  With
    ``limit``, at most that many elements are returned: all of them if there
    are no more, else a sample drawn with ``seed`` (still elements of the
    centraliser, not a subgroup: for uses that only need some symmetries).
    """
    s = as_shape(shape)
    n = s.n
    rows_w = wreath_elements(s.box_rows, s.box_cols)
    cols_w = wreath_elements(s.box_cols, s.box_rows)
    xg, yg = g.rows, g.cols
    if cells is None:
        row_set = col_set = frozenset(range(n))
    else:
        cells = [int(c) for c in cells]
        row_set = frozenset(c // n for c in cells)
        col_set = frozenset(c % n for c in cells)
        if len(row_set) * len(col_set) != len(cells):
            raise ValueError("cells must be a rectangle of rows × columns (a unit)")

    def keeps(x, source, target):
        return frozenset(x[i] for i in source) == target

    blocks = []     # (transposing h?, row parts, column parts or None: fixed by the row part)
    for th in ([False, True] if s.box_rows == s.box_cols else [False]):
        # h(U) = U: rows of U go to rows of U (or, transposing, columns to rows)
        xs = [x for x in rows_w if keeps(x, col_set if th else row_set, row_set)]
        if not g.transpose:
            # h∘g: (x∘(yg if th else xg), y∘(xg if th else yg)); g∘h: (xg∘x, yg∘y)
            xa, ya = (yg, xg) if th else (xg, yg)
            xs = [x for x in xs if _compose(x, xa) == _compose(xg, x)]
            ys = [y for y in cols_w if keeps(y, row_set if th else col_set, col_set)
                  and _compose(y, ya) == _compose(yg, y)]
            blocks.append((th, xs, ys))
        else:
            # g∘h = (xg∘y, yg∘x) transposing; h∘g as above: y is fixed by x
            xg_inv = _inverse(xg)
            pairs = []
            for x in xs:
                y = _compose(xg_inv, _compose(x, yg if th else xg))
                if keeps(y, row_set if th else col_set, col_set):
                    pairs.append((x, y))
            blocks.append((th, pairs, None))
    sizes = [len(a) * (1 if b is None else len(b)) for _, a, b in blocks]
    picks = range(sum(sizes))
    if limit is not None and sum(sizes) > limit:
        picks = sorted(np.random.default_rng(seed).choice(sum(sizes), size=limit, replace=False))
    found = []
    gp = g.cell_permutation()
    for k in picks:
        k = int(k)
        for (th, a, b), size in zip(blocks, sizes):
            if k < size:
                x, y = a[k] if b is None else (a[k // len(b)], b[k % len(b)])
                break
            k -= size
        h = Symmetry(x, y, th)
        hp = h.cell_permutation()
        if np.array_equal(hp[gp], gp[hp]):
            found.append(h)
    return found
