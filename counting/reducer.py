"""Symmetry reduction of the Sudoku count, for boxes of any shape R×C.

The precise reduction is written down in ``docs/REDUCTION.md`` for 9×9;
this module *computes* every number in it (no count, factor or weight is
typed in here) and applies the same steps to every box shape.

Outline (boxes of R rows × C columns, grids of side N = R·C)
-------------------------------------------------------------
1. Relabel the digits so that box 1 reads 1..N row by row (factor ``N!``).
2. Reduce band 1 (rows 1..R) lexicographically: the C columns of each of
   the ``R - 1`` later boxes are sorted by their row-1 digit, and those
   boxes are ordered by their first row-1 digit (factor ``(C!)^(R-1)·(R-1)!``).
   What is left are the *reduced bands*, enumerated by :func:`reduced_bands`.
3. Merge reduced bands whose completion counts are provably equal into
   *classes* (:func:`classes`): the ``"moves"`` reduction joins bands
   related by the five moves of REDUCTION.md, the ``"patterns"`` reduction
   joins bands whose column-set patterns are equivalent.  For 3×3 these are
   the 71 and the 44 classes, and keep their historical names ``"71"`` and
   ``"44"`` (:func:`reduction_name`).
4. Reduce column 1 below band 1 to one of the *column forms*
   (:func:`column_forms`): the rows inside each of the ``C - 1`` later bands
   are sorted by their column-1 digit and those bands are ordered by their
   first column-1 digit (factor ``(R!)^(C-1)·(C-1)!``).
5. A work unit (:func:`units`) is one (class representative, column form)
   pair; :func:`total_from_unit_counts` turns unit counts back into the
   number of grids.

Degenerate shapes
-----------------
The steps need no special cases; they degenerate as follows.

* ``1xN`` (Latin squares of order N; a box is a row): band 1 *is* row 1 and
  box 1, so step 1 fixes row 1 (``N!``) and step 2 has nothing left (factor
  ``1``, one reduced band, one class).  Column 1 below it crosses ``N - 1``
  one-row bands, ordered by their digit (factor ``(N-1)!``): one column form.
  One unit, counting the reduced Latin squares.  Total ``N!·(N-1)!·L_N``, the
  classical ``L(N) = N!·(N-1)!·(reduced squares)``.
* ``Nx1`` (Latin squares again; a box is a column): band 1 is the whole
  grid and box 1 is column 1 (``N!``); step 2 orders the ``N - 1`` one-column
  boxes by their row-1 digit (``(N-1)!``), so the reduced bands *are* the
  reduced Latin squares, all enumerated here; nothing lies below band 1
  (factor ``1``, one empty column form) and every unit counts 1.  The
  enumeration limits this to small N (:data:`MAX_BANDS`).
* ``1x1``: one cell, every factor 1, one unit counting 1.

Every factor is exact because the group it stands for acts freely: row 1's
digits (resp. column 1's) are distinct, so no non-trivial column (resp. row)
permutation maps a reduced band (column form) to itself.  The tests check
each factor against a brute-force count of whole grids for every shape small
enough (2×2, 2×3, 3×2, Latin squares up to order 5).

Conventions
-----------
A band is an ``(R, N)`` array of digits 1..N (row, column), a stack of bands
is ``(n, R, N)``.  Digits are ``uint8``.  Rows and columns are 0-based in
code and in :class:`~counting.units.UnitSpec` givens; the prose uses the
1-based "row 1", "box 2" of the documentation.

The box shape is written ``"RxC"`` (boxes of R rows and C columns, so a grid
of side ``N = R·C``; a band has R rows and R boxes, a stack C boxes).  Any
``R, C >= 1`` is accepted here; :func:`check_shape` adds the ``N <= 16``
limit that the command line lifts with ``--force``.

Heavy results are computed once and cached (:func:`functools.lru_cache`);
cached arrays are returned read-only, so copy them before modifying.
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from counting.units import UnitSpec
from dlx.shape import Shape

__all__ = [
    "MAX_N",
    "MAX_BANDS",
    "MAX_UNITS",
    "REDUCTIONS",
    "ALIASES_3X3",
    "ALL_MOVES",
    "BoxShape",
    "Factorisation",
    "BandClass",
    "parse_shape",
    "check_shape",
    "reduction_name",
    "default_reduction",
    "reduction_kind",
    "relabel_factor",
    "band_factor",
    "column_factor",
    "factorisation",
    "standard_box1",
    "row1_forms",
    "count_row1_completions",
    "reduced_bands",
    "normalise",
    "band_index",
    "move_images",
    "column_set_pattern",
    "canonical_column_set_pattern",
    "classes",
    "band_class_ids",
    "column_forms",
    "n_units",
    "units",
    "unit",
    "class_totals",
    "total_from_unit_counts",
]

MAX_N = 16  # largest grid side accepted without force (check_shape)
MAX_BANDS = 2_000_000  # enumeration guard: reduced (and partial) bands held at once
MAX_UNITS = 100_000  # guard: work units of one reduction (each a few hundred bytes)
REDUCTIONS = ("moves", "patterns")  # reduction kinds, the default first
ALIASES_3X3 = {"71": "moves", "44": "patterns"}  # 3x3's historical (stored) names
ALL_MOVES = (1, 2, 3, 4, 5)  # the moves of the "moves" reduction (REDUCTION.md)


# ---------------------------------------------------------------------------
# Box shape
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class BoxShape:
    """Shape of a Sudoku box: ``rows`` × ``cols`` cells.

    A grid has side ``n = rows * cols``.  A band (a horizontal strip of
    boxes) has ``rows`` rows and ``n // cols == rows`` boxes; a stack has
    ``cols`` boxes, so column 1 below band 1 spans ``cols - 1`` bands.

    Examples
    --------
    >>> s = parse_shape("3x3")
    >>> s.n, s.band_boxes, s.stack_boxes
    (9, 3, 3)
    """

    rows: int  # R: rows per box (= rows per band)
    cols: int  # C: columns per box

    @property
    def n(self) -> int:
        """Side of the grid and number of digits, ``R·C``."""
        return self.rows * self.cols

    @property
    def band_boxes(self) -> int:
        """Boxes side by side in one band, ``N / C = R``."""
        return self.n // self.cols

    @property
    def stack_boxes(self) -> int:
        """Boxes stacked in one column of boxes, ``N / R = C``."""
        return self.n // self.rows

    @property
    def name(self) -> str:
        """The ``"RxC"`` spelling of the shape."""
        return f"{self.rows}x{self.cols}"


def parse_shape(shape: str) -> BoxShape:
    """Parse ``"RxC"`` (R, C >= 1) into a :class:`BoxShape`.

    The text is read by :meth:`dlx.shape.Shape.parse`, the project's one
    shape parser; this adds the type check and the dataclass.  No size limit
    applies here (see :func:`check_shape`).

    Raises
    ------
    ValueError
        If the text is not ``"RxC"`` with positive integers.

    Examples
    --------
    >>> parse_shape("3x3")
    BoxShape(rows=3, cols=3)
    >>> parse_shape("1x5").n
    5
    """
    if not isinstance(shape, str):
        raise ValueError(f"bad box shape {shape!r}: expected a string RxC, e.g. 3x3 or 2x3")
    parsed = Shape.parse(shape.strip().lower())     # as before: ' 4X2 ' is 4x2
    return BoxShape(parsed.box_rows, parsed.box_cols)


def check_shape(shape: str, force: bool = False) -> BoxShape:
    """:func:`parse_shape`, plus the size rule ``N = R·C <= 16`` unless ``force``.

    Examples
    --------
    >>> check_shape("4x4").n
    16
    >>> check_shape("5x4", force=True).name
    '5x4'
    """
    s = parse_shape(shape)
    if s.n > MAX_N and not force:
        raise ValueError(
            f"box shape {shape!r} makes {s.n}x{s.n} grids; grids larger than "
            f"{MAX_N}x{MAX_N} need --force"
        )
    return s


def reduction_kind(reduction: str | None, shape: str = "3x3") -> str:
    """The kind (``"moves"`` or ``"patterns"``) a reduction name stands for.

    ``None`` means the default, ``"moves"``.  ``"71"`` and ``"44"`` are
    accepted for ``3x3`` only, where they name the 71 and 44 classes.

    Raises
    ------
    ValueError
        For an unknown name, or ``"71"``/``"44"`` with another shape.

    Examples
    --------
    >>> reduction_kind("44"), reduction_kind(None, "2x4")
    ('patterns', 'moves')
    """
    s = parse_shape(shape)
    if reduction is None:
        return REDUCTIONS[0]
    if reduction in REDUCTIONS:
        return reduction
    if reduction in ALIASES_3X3:
        if s.name != "3x3":
            raise ValueError(
                f"reduction {reduction!r} names the {reduction} classes of 3x3; for {s.name} "
                f"use {ALIASES_3X3[reduction]!r}"
            )
        return ALIASES_3X3[reduction]
    raise ValueError(
        f"unknown reduction {reduction!r}; valid reductions are "
        f"{', '.join(map(repr, REDUCTIONS))} (for 3x3 also {', '.join(map(repr, ALIASES_3X3))})"
    )


def reduction_name(reduction: str | None, shape: str = "3x3") -> str:
    """The stable name of a reduction for one shape, as units and stores carry it.

    For ``3x3`` the historical names: ``"71"`` (five moves) and ``"44"``
    (column-set patterns); for every other shape ``"moves"`` and
    ``"patterns"``.  ``None`` gives the default (:func:`default_reduction`).

    Examples
    --------
    >>> reduction_name("moves", "3x3"), reduction_name(None, "2x3")
    ('71', 'moves')
    """
    kind = reduction_kind(reduction, shape)
    if parse_shape(shape).name == "3x3":
        return {v: k for k, v in ALIASES_3X3.items()}[kind]
    return kind


def default_reduction(shape: str = "3x3") -> str:
    """The default reduction's name: the five-move classes (``"71"`` for 3x3).

    Examples
    --------
    >>> default_reduction("3x3"), default_reduction("1x4")
    ('71', 'moves')
    """
    return reduction_name(None, shape)


# ---------------------------------------------------------------------------
# Factors
# ---------------------------------------------------------------------------

def relabel_factor(shape: str = "3x3") -> int:
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
    return math.factorial(parse_shape(shape).n)


def band_factor(shape: str = "3x3") -> int:
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
    s = parse_shape(shape)
    return math.factorial(s.cols) ** (s.band_boxes - 1) * math.factorial(s.band_boxes - 1)


def column_factor(shape: str = "3x3") -> int:
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
    s = parse_shape(shape)
    return math.factorial(s.rows) ** (s.stack_boxes - 1) * math.factorial(s.stack_boxes - 1)


@dataclass(frozen=True)
class Factorisation:
    """The three exact factors of the reduction.

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
    """

    relabel: int
    band: int
    column: int

    @property
    def product(self) -> int:
        """``relabel · band · column``: the multiplier of Σ weight · Σ count."""
        return self.relabel * self.band * self.column


def factorisation(shape: str = "3x3") -> Factorisation:
    """All factors of the reduction for one box shape.

    Examples
    --------
    >>> factorisation().band == band_factor()
    True
    """
    return Factorisation(relabel_factor(shape), band_factor(shape), column_factor(shape))


# ---------------------------------------------------------------------------
# Reduced bands
# ---------------------------------------------------------------------------

def standard_box1(shape: str = "3x3") -> np.ndarray:
    """Box 1 after relabelling: digits 1..N in reading order.

    Examples
    --------
    >>> standard_box1().tolist()
    [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    """
    s = parse_shape(shape)
    return np.arange(1, s.n + 1, dtype=np.uint8).reshape(s.rows, s.cols)


def _sorted_splits(digits: tuple[int, ...], size: int) -> list[tuple[int, ...]]:
    """All splits of ``digits`` into groups of ``size``, canonically ordered.

    Each group is sorted and the groups are ordered by their first element,
    so the smallest remaining digit always opens the next group.  Returns
    the concatenated groups, in lexicographic order.
    """
    if not digits:
        return [()]
    first, rest = digits[0], digits[1:]
    out = []
    for others in itertools.combinations(rest, size - 1):
        remaining = tuple(d for d in rest if d not in others)
        out.extend((first, *others) + tail for tail in _sorted_splits(remaining, size))
    return sorted(out)


def row1_forms(shape: str = "3x3") -> list[tuple[int, ...]]:
    """Canonical forms of row 1, cells C+1..N (4–9 for 3×3), of a reduced band.

    Row 1 holds there the digits missing from box 1's first row; each later
    box's part is sorted and the boxes are ordered by their first digit.
    For ``1xN`` the tuple is empty (row 1 is box 1): one form.

    Returns
    -------
    list of tuple of int
        The forms in lexicographic order (``456|789`` first for 3×3).

    Examples
    --------
    >>> forms = row1_forms()
    >>> forms[0], forms[-1]
    ((4, 5, 6, 7, 8, 9), (4, 8, 9, 5, 6, 7))
    """
    s = parse_shape(shape)
    rest = tuple(range(s.cols + 1, s.n + 1))  # digits not in box 1's row 1
    return _sorted_splits(rest, s.cols)


def _fill_cells(partial: np.ndarray, cells: Iterable[tuple[int, int]], s: BoxShape,
                budget: int = MAX_BANDS) -> np.ndarray:
    """Extend partial bands cell by cell with every legal digit.

    ``partial`` is ``(m, R, N)`` with 0 for empty cells.  Cells are filled in
    the given order; each step keeps every digit absent from the cell's row
    and box (inside a band a column lies in one box, so that is all).

    Invariant: if the input is in lexicographic order and ``cells`` are
    visited in reading order, the output is in lexicographic order, because
    ``np.nonzero`` lists (partial, digit) pairs partial-major, digit-minor.

    Raises ValueError, before allocating, when a step would hold more than
    ``budget`` partial bands (a shape too large to reduce).
    """
    for r, c in cells:
        m = len(partial)
        rows = np.arange(m)[:, None]
        b0 = (c // s.cols) * s.cols
        used = np.zeros((m, s.n + 1), dtype=bool)  # column 0 catches the empty cells
        used[rows, partial[:, r, :]] = True
        used[rows, partial[:, :, b0:b0 + s.cols].reshape(m, -1)] = True
        free = ~used[:, 1:]
        if int(free.sum()) > budget:
            raise ValueError(
                f"shape {s.name}: band 1 has too many completions to enumerate (more than "
                f"{MAX_BANDS:,} reduced bands); this shape is out of reach"
            )
        src, digit = np.nonzero(free)
        partial = partial[src]
        partial[:, r, c] = digit + 1
    return partial


def _band_completions(row1: Iterable[int], s: BoxShape, budget: int = MAX_BANDS) -> np.ndarray:
    """All bands with box 1 standard and the given row-1 cells C+1..N.

    Returns an ``(m, R, N)`` uint8 array in lexicographic order.
    """
    start = np.zeros((1, s.rows, s.n), dtype=np.uint8)
    start[0, :, :s.cols] = np.arange(1, s.n + 1).reshape(s.rows, s.cols)
    start[0, 0, s.cols:] = tuple(row1)
    free = [(r, c) for r in range(1, s.rows) for c in range(s.cols, s.n)]  # reading order
    return _fill_cells(start, free, s, budget)


def count_row1_completions(form: Iterable[int], shape: str = "3x3") -> int:
    """Number of ways rows 2..R complete a band with the given row 1.

    Box 1 is standard (123/456/789 for 3×3) and row 1's cells C+1..N are
    ``form``.  For a canonical form every completion is a reduced band.

    Parameters
    ----------
    form : iterable of int
        Row 1, cells C+1..N (six distinct digits 4..9 for 3×3).

    Returns
    -------
    int

    Examples
    --------
    >>> counts = [count_row1_completions(f) for f in row1_forms()]
    >>> sum(counts) == len(reduced_bands())
    True
    """
    s = parse_shape(shape)
    form = tuple(int(d) for d in form)
    if sorted(form) != list(range(s.cols + 1, s.n + 1)):
        raise ValueError(
            f"row-1 form must be a permutation of {list(range(s.cols + 1, s.n + 1))}, got {form}"
        )
    return len(_band_completions(form, s))


@lru_cache(maxsize=None)
def _reduced_bands_cached(shape: str) -> np.ndarray:
    s = parse_shape(shape)
    _key_radix(s)  # refuse a shape whose bands cannot be keyed before enumerating them
    parts, total = [], 0
    for form in row1_forms(shape):
        # The budget is shared by all forms: at most MAX_BANDS bands in all.
        parts.append(_band_completions(form, s, MAX_BANDS - total))
        total += len(parts[-1])
    bands = np.concatenate(parts)
    keys = _band_keys(bands, s)
    # Invariant: forms are visited in order and each block is in order.
    assert np.all(np.diff(keys) > 0), "reduced bands are not strictly increasing"
    bands.setflags(write=False)
    return bands


def reduced_bands(shape: str = "3x3") -> np.ndarray:
    """All lexicographically reduced bands, in lexicographic order.

    A reduced band has box 1 standard (123/456/789 for 3×3), the columns of
    every later box sorted by their row-1 digit, and those boxes ordered by
    their first row-1 digit (for 3×3: box 2's smaller than box 3's).  They
    are generated directly, one row-1 form at a time, by filling rows 2..R
    cell by cell.

    Returns
    -------
    numpy.ndarray
        Read-only ``(n, R, N)`` uint8 array; ``bands[i]`` is band ``i`` in
        lexicographic order (row 1, row 2, … left to right).

    Raises
    ------
    ValueError
        If the shape's band is too large to enumerate.

    Examples
    --------
    >>> bands = reduced_bands()
    >>> bands[0].tolist()[0]
    [1, 2, 3, 4, 5, 6, 7, 8, 9]
    >>> bool(np.all(normalise(bands[:5]) == bands[:5]))
    True
    """
    return _reduced_bands_cached(parse_shape(shape).name)


# ---------------------------------------------------------------------------
# Normalisation and band keys
# ---------------------------------------------------------------------------

def _normalise(bands: np.ndarray, s: BoxShape) -> np.ndarray:
    """Normalise a stack of valid bands (no checks); see :func:`normalise`.

    Work is done in chunks of :data:`_CHUNK` bands, which keeps the
    temporaries in cache (about 40% faster on millions of move images).
    """
    n = len(bands)
    out = np.empty((n, s.rows, s.n), dtype=np.uint8)
    for lo in range(0, n, _CHUNK):
        out[lo:lo + _CHUNK] = _normalise_chunk(bands[lo:lo + _CHUNK], s)
    return out


_CHUNK = 1 << 16  # bands normalised or keyed at once


def _normalise_chunk(bands: np.ndarray, s: BoxShape) -> np.ndarray:
    n = len(bands)
    rows = np.arange(n)[:, None]
    # 1. Relabel: the digit in box-1 cell k (reading order) becomes k + 1.
    label = np.zeros((n, s.n + 1), dtype=np.uint8)
    label[rows, bands[:, :, :s.cols].reshape(n, s.n)] = np.arange(1, s.n + 1, dtype=np.uint8)
    out = np.take_along_axis(label, bands.reshape(n, s.rows * s.n).astype(np.intp), axis=1)
    out = out.reshape(n, s.rows, s.n)
    if s.band_boxes == 1:
        return out  # 1xN: no box after box 1
    # 2. Sort the columns of every box after box 1 by their row-1 digit, and
    # 3. order those boxes by their (now first, i.e. smallest) row-1 digit:
    # both only permute columns, so build that permutation from row 1 and
    # apply it once.
    tail = out[:, 0, s.cols:].reshape(n, s.band_boxes - 1, s.cols)
    order = np.argsort(tail, axis=-1)  # (n, R-1, C): column order inside each box
    box_order = np.argsort(tail.min(axis=-1), axis=-1)  # (n, R-1)
    inner = np.take_along_axis(order, box_order[:, :, None], axis=1)
    perm = np.empty((n, s.n), dtype=np.intp)
    perm[:, :s.cols] = np.arange(s.cols)
    perm[:, s.cols:] = (s.cols * (1 + box_order[:, :, None]) + inner).reshape(n, -1)
    return np.take_along_axis(out, perm[:, None, :], axis=2)


def _check_bands(bands: np.ndarray, s: BoxShape) -> None:
    """Raise ValueError unless ``bands`` is an ``(n, R, N)`` stack of valid bands.

    Checked in order: the array shape, digits in 1..N, every row a
    permutation, every box a permutation.
    """
    if bands.ndim != 3 or bands.shape[1:] != (s.rows, s.n):
        got = bands.shape[1:] if bands.ndim == 3 else bands.shape
        raise ValueError(f"expected band shape ({s.rows}, {s.n}) or (n, {s.rows}, {s.n}), got {got}")
    if bands.size and (bands.min() < 1 or bands.max() > s.n):
        raise ValueError(f"band digits must lie in 1..{s.n}")
    digits = np.arange(1, s.n + 1)
    if not np.array_equal(np.sort(bands, axis=-1), np.broadcast_to(digits, bands.shape)):
        raise ValueError(f"every row of a band must hold the digits 1..{s.n} once each")
    boxes = bands.reshape(len(bands), s.rows, s.band_boxes, s.cols).transpose(0, 2, 1, 3)
    boxes = boxes.reshape(len(bands), s.band_boxes, s.n)
    if not np.array_equal(np.sort(boxes, axis=-1), np.broadcast_to(digits, boxes.shape)):
        raise ValueError(f"every box of a band must hold the digits 1..{s.n} once each")


def _as_bands(band: object, s: BoxShape) -> tuple[np.ndarray, bool]:
    """Validate and convert to an ``(n, R, N)`` uint8 stack; flag a single band."""
    arr = np.asarray(band)
    if arr.dtype.kind not in "iu":
        raise ValueError(f"band digits must be integers, got dtype {arr.dtype}")
    single = arr.ndim == 2
    stack = arr[None] if single else arr
    _check_bands(stack, s)
    return stack.astype(np.uint8), single


def normalise(band: object, shape: str = "3x3") -> np.ndarray:
    """Relabel box 1 to 1..N in reading order (123/456/789 for 3×3), then
    reduce lexicographically (sort the columns of boxes 2..R, order those boxes).

    Parameters
    ----------
    band : array_like
        One band ``(R, N)`` or a stack ``(n, R, N)`` of valid bands
        (``(3, 9)`` for 3×3).

    Returns
    -------
    numpy.ndarray
        New uint8 array of the input's shape: the reduced band(s).

    Examples
    --------
    >>> b = reduced_bands()[100]
    >>> swapped = b[[1, 0, 2]]              # swap rows 1 and 2
    >>> normalise(swapped)[:, :3].tolist()
    [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    """
    s = parse_shape(shape)
    stack, single = _as_bands(band, s)
    out = _normalise(stack, s)
    return out[0] if single else out


def _key_radix(s: BoxShape) -> int:
    """Number of distinct band keys, ``((N-C)!)^R``; ValueError past int64."""
    radix = math.factorial(s.n - s.cols) ** s.rows
    if radix >= 2 ** 63:
        hint = f"; the transposed shape {s.cols}x{s.rows} counts the same grids" \
            if s.rows != s.cols else ""
        raise ValueError(
            f"shape {s.name}: band 1 is too large to enumerate (its keys do not fit 64 bits)"
            f"{hint}"
        )
    return radix


def _band_keys(bands: np.ndarray, s: BoxShape) -> np.ndarray:
    """int64 key of bands whose box 1 is standard, increasing with lexicographic order.

    With box 1 standard, row r's free cells (all but box 1) hold a
    permutation of the ``F = N - C`` digits missing from box 1's row r.  The
    key is each row's Lehmer rank (the rank of that permutation in
    lexicographic order, ``0 <= rank < F!``) read as digits in base ``F!``,
    row 1 first.  Box 1 being constant, key order = lexicographic order of
    the bands.  Needs ``(F!)^R < 2**63`` (:func:`_key_radix`; ``720**3`` for
    3×3, ``720**4`` for 4×2).
    """
    _key_radix(s)
    f = s.n - s.cols
    powers = np.int64(math.factorial(f)) ** np.arange(s.rows - 1, -1, -1, dtype=np.int64)
    keys = np.empty(len(bands), dtype=np.int64)
    for lo in range(0, len(bands), _CHUNK):
        free = bands[lo:lo + _CHUNK, :, s.cols:]  # (m, R, F)
        rank = np.zeros(free.shape[:2], dtype=np.int64)
        for i in range(f):
            # Lehmer digit i: how many later cells hold a smaller digit.
            smaller = np.zeros(free.shape[:2], dtype=np.uint8)
            for j in range(i + 1, f):
                smaller += free[:, :, j] < free[:, :, i]
            rank += smaller * np.int64(math.factorial(f - 1 - i))
        keys[lo:lo + _CHUNK] = rank @ powers
    return keys


@lru_cache(maxsize=None)
def _reduced_keys(shape: str) -> np.ndarray:
    s = parse_shape(shape)
    keys = _band_keys(reduced_bands(shape), s)
    keys.setflags(write=False)
    return keys


def _index_of_normalised(bands: np.ndarray, s: BoxShape) -> np.ndarray:
    """Indices in :func:`reduced_bands` of already-normalised bands."""
    keys = _band_keys(bands, s)
    ref = _reduced_keys(s.name)
    idx = np.searchsorted(ref, keys)
    found = (idx < len(ref)) & (ref[np.minimum(idx, len(ref) - 1)] == keys)
    if not np.all(found):
        raise AssertionError("a normalised band is missing from reduced_bands()")
    return idx


def band_index(band: object, shape: str = "3x3") -> np.ndarray | int:
    """Index in :func:`reduced_bands` of the normalised form of a band.

    Examples
    --------
    >>> b = reduced_bands()[1234]
    >>> band_index(b)
    1234
    >>> band_index(b[[1, 0, 2]]) == band_index(normalise(b[[1, 0, 2]]))
    True
    """
    s = parse_shape(shape)
    stack, single = _as_bands(band, s)
    idx = _index_of_normalised(_normalise(stack, s), s)
    return int(idx[0]) if single else idx


# ---------------------------------------------------------------------------
# The five moves of the "moves" reduction ("71" for 3x3)
# ---------------------------------------------------------------------------

def _swap_axis(bands: np.ndarray, axis: int, i: int, j: int) -> np.ndarray:
    """Copy of ``bands`` with positions i and j of ``axis`` exchanged."""
    perm = np.arange(bands.shape[axis])
    perm[[i, j]] = perm[[j, i]]
    return np.take(bands, perm, axis=axis)


def _move_row_swaps(bands: np.ndarray, s: BoxShape, pairs=None) -> tuple[np.ndarray, np.ndarray]:
    """Move 1: swap two rows of the band (``pairs`` of rows; default all)."""
    n = len(bands)
    pairs = list(itertools.combinations(range(s.rows), 2)) if pairs is None else pairs
    images = [_swap_axis(bands, 1, r, t) for r, t in pairs]
    return _concat([np.arange(n)] * len(pairs), images, s)


def _move_box1_column_swaps(bands: np.ndarray, s: BoxShape,
                            pairs=None) -> tuple[np.ndarray, np.ndarray]:
    """Move 2: swap two columns of box 1 (``pairs`` of columns; default all)."""
    n = len(bands)
    pairs = list(itertools.combinations(range(s.cols), 2)) if pairs is None else pairs
    images = [_swap_axis(bands, 2, a, b) for a, b in pairs]
    return _concat([np.arange(n)] * len(pairs), images, s)


def _move_box_swaps(bands: np.ndarray, s: BoxShape, pairs=None) -> tuple[np.ndarray, np.ndarray]:
    """Move 3: swap two boxes of the band (``pairs`` of boxes; default all)."""
    n = len(bands)
    pairs = list(itertools.combinations(range(s.band_boxes), 2)) if pairs is None else pairs
    images = []
    for a, b in pairs:
        boxes = bands.reshape(n, s.rows, s.band_boxes, s.cols)
        images.append(_swap_axis(boxes, 2, a, b).reshape(n, s.rows, s.n))
    return _concat([np.arange(n)] * len(pairs), images, s)


def _cycle_labels(perm: np.ndarray) -> np.ndarray:
    """Label each position of each row of ``perm`` by the minimum of its cycle.

    ``perm`` is ``(n, N)``, every row a permutation of 0..N-1.  After k
    rounds ``label[c] = min(c, π(c), …, π^k(c))``; N − 1 rounds reach the
    whole cycle.
    """
    label = np.broadcast_to(np.arange(perm.shape[1]), perm.shape).copy()
    image = perm.copy()
    for _ in range(perm.shape[1] - 1):
        np.minimum(label, image, out=label)
        image = np.take_along_axis(perm, image, axis=1)
    return label


def _move_cycle_exchanges(bands: np.ndarray, s: BoxShape,
                          pairs=None) -> tuple[np.ndarray, np.ndarray]:
    """Move 4: exchange rows r and s on one cycle of their column permutation.

    For rows r, s let π send column c to the column where row s holds the
    digit ``band[r, c]``.  On a cycle of π rows r and s hold the same digit
    set, so exchanging them there keeps every row a permutation, every
    column's digit set, hence every box.  Cycles of length N are move 1.
    ``pairs`` of rows (r, s); default all.
    """
    srcs, images = [], []
    pairs = list(itertools.combinations(range(s.rows), 2)) if pairs is None else pairs
    for r, t in pairs:
        where_in_t = np.argsort(bands[:, t, :], axis=1)  # [i, d-1] = column of d in row t
        perm = np.take_along_axis(where_in_t, bands[:, r, :].astype(np.intp) - 1, axis=1)
        label = _cycle_labels(perm)
        for lead in range(s.n):  # one cycle per band: the one whose minimum is `lead`
            on_cycle = label == lead
            length = on_cycle.sum(axis=1)
            keep = on_cycle[:, lead] & (length < s.n)
            if not keep.any():
                continue
            chosen, mask = bands[keep].copy(), on_cycle[keep]
            row_r, row_t = chosen[:, r, :].copy(), chosen[:, t, :].copy()
            chosen[:, r, :] = np.where(mask, row_t, row_r)
            chosen[:, t, :] = np.where(mask, row_r, row_t)
            srcs.append(np.flatnonzero(keep))
            images.append(chosen)
    return _concat(srcs, images, s)


def _column_sets(bands: np.ndarray) -> np.ndarray:
    """Bit mask of each column's digit set: bit d−1 for digit d, ``(n, N)``."""
    return (np.left_shift(1, bands.astype(np.int64) - 1)).sum(axis=1)


def _move_equal_set_column_swaps(bands: np.ndarray, s: BoxShape,
                                 pairs=None) -> tuple[np.ndarray, np.ndarray]:
    """Move 5: swap two columns in different boxes with equal digit sets.

    Each box keeps its digit set (one column is replaced by an equal set),
    each row stays a permutation, and the multiset of column sets is kept.
    """
    sets = _column_sets(bands)
    srcs, images = [], []
    for a, b in itertools.combinations(range(s.n), 2):
        if a // s.cols == b // s.cols:
            continue  # same box: that is a lexicographic relabelling, not move 5
        keep = sets[:, a] == sets[:, b]
        if keep.any():
            srcs.append(np.flatnonzero(keep))
            images.append(_swap_axis(bands[keep], 2, a, b))
    return _concat(srcs, images, s)


def _concat(srcs: list, images: list, s: BoxShape) -> tuple[np.ndarray, np.ndarray]:
    if not srcs:
        return np.zeros(0, dtype=np.intp), np.zeros((0, s.rows, s.n), dtype=np.uint8)
    return np.concatenate(srcs), np.concatenate(images)


_MOVES = {
    1: _move_row_swaps,
    2: _move_box1_column_swaps,
    3: _move_box_swaps,
    4: _move_cycle_exchanges,
    5: _move_equal_set_column_swaps,
}


def _check_moves(moves: Iterable[int]) -> tuple[int, ...]:
    chosen = tuple(sorted(set(moves)))
    bad = [m for m in chosen if m not in _MOVES]
    if bad:
        raise ValueError(f"unknown move(s) {bad}; valid moves are {list(_MOVES)}")
    return chosen


def move_images(band: object, move: int, shape: str = "3x3") -> np.ndarray:
    """All images of one band under one kind of move, *not* normalised.

    Parameters
    ----------
    band : array_like
        A valid ``(R, N)`` band.
    move : int
        1 row swaps, 2 box-1 column swaps, 3 box swaps, 4 cycle
        exchanges, 5 swaps of equal-set columns in different boxes.

    Returns
    -------
    numpy.ndarray
        ``(k, R, N)`` uint8: every band one such move away.

    Examples
    --------
    >>> len(move_images(reduced_bands()[0], 1))   # three pairs of rows
    3
    """
    s = parse_shape(shape)
    (kind,) = _check_moves([move])
    stack, single = _as_bands(band, s)
    if not single:
        raise ValueError(f"move_images takes one band of shape ({s.rows}, {s.n})")
    return _MOVES[kind](stack, s)[1]


# ---------------------------------------------------------------------------
# Connected components (vectorised union-find)
# ---------------------------------------------------------------------------

def _components(n: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Smallest vertex of each vertex's component in the graph with edges a–b.

    Hook-and-shortcut union-find.  Invariants: ``parent[x] <= x``; after
    each shortcut ``parent[x]`` is a root.  A root is hooked only under a
    smaller vertex, so at the end each component's root is its minimum.
    """
    parent = np.arange(n)
    while True:
        pa, pb = parent[a], parent[b]
        differ = pa != pb
        if not differ.any():
            return parent
        lo = np.minimum(pa[differ], pb[differ])
        hi = np.maximum(pa[differ], pb[differ])
        np.minimum.at(parent, hi, lo)
        while True:  # shortcut until every vertex points at a root
            grand = parent[parent]
            if np.array_equal(grand, parent):
                break
            parent = grand


# ---------------------------------------------------------------------------
# The "moves" classes ("71" for 3x3): union-find over the moves
# ---------------------------------------------------------------------------

def _generating_pairs(kind: int, moves: tuple[int, ...], s: BoxShape) -> list | None:
    """Which instances of move ``kind`` the union-find needs (None: all).

    Let K be the group that :func:`normalise` undoes (relabellings, column
    orders inside boxes 2..R, orders of boxes 2..R); ``normalise(k·y) =
    normalise(y)`` for k in K.  Fewer instances give the same classes when:

    * move 1 (rows), move 2 (box-1 columns): these permutations commute with
      K, so ``normalise(g·normalise(h·y)) = normalise(g·h·y)``: swaps of
      adjacent rows (columns) reach every permutation;
    * move 3: a swap of two boxes other than box 1 lies in K, so only the
      swaps of box 1 with another box give new edges;
    * move 4, when move 1 is used too: exchanging rows r, s on a cycle equals
      a row permutation g, the exchange of rows 1, 2 on the image cycle, and
      g back, and the set of those images commutes with K (relabelling keeps
      the cycles, a column move maps them); with move 1 joining y to g·y, the
      pair (1, 2) alone is enough.

    The full sets stay available through :func:`move_images`; the tests
    check that both give the same classes.
    """
    if kind == 1:
        return [(i, i + 1) for i in range(s.rows - 1)]
    if kind == 2:
        return [(i, i + 1) for i in range(s.cols - 1)]
    if kind == 3:
        return [(0, j) for j in range(1, s.band_boxes)]
    if kind == 4 and 1 in moves and s.rows >= 2:
        return [(0, 1)]
    return None


@lru_cache(maxsize=None)
def _move_labels(moves: tuple[int, ...], shape: str, generators: bool = True) -> np.ndarray:
    """Index of the smallest reduced band in each reduced band's move class.

    ``generators=False`` uses every instance of every move (for checks).
    """
    s = parse_shape(shape)
    bands = reduced_bands(shape)
    src_parts, dst_parts = [], []
    for kind in moves:
        pairs = _generating_pairs(kind, moves, s) if generators else None
        src, images = _MOVES[kind](bands, s, pairs)
        if not len(src):
            continue  # e.g. no row swaps when R = 1
        src_parts.append(src)
        dst_parts.append(_index_of_normalised(_normalise(images, s), s))
    if not src_parts:
        return np.arange(len(bands))
    return _components(len(bands), np.concatenate(src_parts), np.concatenate(dst_parts))


# ---------------------------------------------------------------------------
# The "patterns" classes ("44" for 3x3): equivalent column-set patterns
# ---------------------------------------------------------------------------
# A pattern is, for each box of the band, the set of its columns' digit sets.
# Internally a pattern with standard box 1 is an (m, R, C) array of column
# bit masks, each box's masks sorted ascending; its key packs boxes 2..R
# (box 1 is always the standard {1,4,7},{2,5,8},{3,6,9}).

def _std_column_masks(s: BoxShape) -> np.ndarray:
    """Masks of box 1's column sets when box 1 is standard, ascending."""
    return _column_sets(standard_box1(s.name)[None])[0]


def _mask_digits(s: BoxShape) -> np.ndarray:
    """Table: mask → its R digits (0-based, ascending); only R-bit masks used."""
    table = np.zeros((1 << s.n, s.rows), dtype=np.int64)
    for combo in itertools.combinations(range(s.n), s.rows):
        table[sum(1 << d for d in combo)] = combo
    return table


def _relabel_masks(masks: np.ndarray, perm: np.ndarray, s: BoxShape) -> np.ndarray:
    """Apply 0-based digit permutations ``perm`` (m, N) to masks (m, ...)."""
    bits = (masks[..., None] >> np.arange(s.n)) & 1
    shape = (len(masks),) + (1,) * (masks.ndim - 1) + (s.n,)
    return (bits << perm.reshape(shape)).sum(axis=-1)


def _restore_box1(pattern: np.ndarray, s: BoxShape) -> np.ndarray:
    """Relabel so that box 1's column sets become the standard ones.

    Box 1's sets, ascending, go to the standard sets in order, each set's
    digits ascending onto the standard set's digits ascending.  Any other
    choice differs by a relabelling that keeps box 1 standard, which the
    ``"44"`` equivalence allows anyway.
    """
    m = len(pattern)
    digits = _mask_digits(s)
    src = digits[np.sort(pattern[:, 0, :], axis=-1)].reshape(m, -1)  # (m, N) old digits
    dst = digits[_std_column_masks(s)].reshape(-1)  # matching new digits
    perm = np.zeros((m, s.n), dtype=np.int64)
    perm[np.arange(m)[:, None], src] = dst
    return _relabel_masks(pattern, perm, s)


def _pattern_keys(pattern: np.ndarray, s: BoxShape) -> np.ndarray:
    """Sort each box's masks and pack boxes 2..R into one int64."""
    # Invariant: box 1 holds the standard column sets (in some order).
    assert np.array_equal(np.sort(pattern[:, 0, :], axis=-1),
                          np.broadcast_to(_std_column_masks(s), pattern[:, 0, :].shape))
    tail = np.sort(pattern[:, 1:, :], axis=-1).reshape(len(pattern), -1)
    if s.n * tail.shape[1] >= 63:
        raise ValueError(f"shape {s.name}: column-set patterns do not fit an int64 key")
    shifts = s.n * np.arange(tail.shape[1] - 1, -1, -1, dtype=np.int64)
    return (tail << shifts).sum(axis=1)


def _pattern_from_keys(keys: np.ndarray, s: BoxShape) -> np.ndarray:
    """Inverse of :func:`_pattern_keys` (box 1 set to the standard sets)."""
    width = (s.band_boxes - 1) * s.cols
    shifts = s.n * np.arange(width - 1, -1, -1, dtype=np.int64)
    tail = (keys[:, None] >> shifts) & ((1 << s.n) - 1)
    box1 = np.broadcast_to(_std_column_masks(s), (len(keys), s.cols))
    return np.concatenate([box1, tail], axis=1).reshape(len(keys), s.band_boxes, s.cols)


def _wreath_generators(s: BoxShape) -> list[np.ndarray]:
    """Digit permutations (0-based) generating all relabellings that keep
    box 1's column sets, as a set of sets: swaps of adjacent column sets
    (with their digits in order) and swaps of adjacent digits inside the
    first set.  Conjugating the latter by the former reaches every set.
    """
    std = _mask_digits(s)[_std_column_masks(s)]  # (C, R): set j, its digits ascending
    gens = []
    for j in range(s.cols - 1):
        perm = np.arange(s.n)
        perm[std[j]], perm[std[j + 1]] = std[j + 1], std[j]
        gens.append(perm)
    for i in range(s.rows - 1):
        perm = np.arange(s.n)
        perm[[std[0, i], std[0, i + 1]]] = std[0, i + 1], std[0, i]
        gens.append(perm)
    return gens


def _pattern_moves(pattern: np.ndarray, s: BoxShape) -> list[np.ndarray]:
    """Images of patterns under generators of the ``"44"`` equivalence."""
    out = []
    for a in range(s.band_boxes - 1):  # adjacent box swaps generate all box orders
        swapped = _swap_axis(pattern, 1, a, a + 1)
        out.append(_restore_box1(swapped, s) if a == 0 else swapped)
    for perm in _wreath_generators(s):
        out.append(_relabel_masks(pattern, np.broadcast_to(perm, (len(pattern), s.n)), s))
    return out


@lru_cache(maxsize=None)
def _pattern_labels(shape: str) -> np.ndarray:
    """Index of the smallest reduced band with an equivalent pattern."""
    s = parse_shape(shape)
    bands = reduced_bands(shape)
    pattern = _column_sets(bands).reshape(len(bands), s.band_boxes, s.cols)
    band_keys = _pattern_keys(pattern, s)
    # Close the set of patterns under the generators, recording edges.
    known = np.unique(band_keys)
    frontier, edge_a, edge_b = known, [], []
    while len(frontier):
        current = _pattern_from_keys(frontier, s)
        found = []
        for image in _pattern_moves(current, s):
            keys = _pattern_keys(image, s)
            edge_a.append(frontier)
            edge_b.append(keys)
            found.append(keys)
        if not found:
            break  # no generators (1x1): every pattern is its own class
        frontier = np.setdiff1d(np.concatenate(found), known)  # unique, sorted
        known = np.union1d(known, frontier)
    a = np.searchsorted(known, np.concatenate(edge_a or [known[:0]]))
    b = np.searchsorted(known, np.concatenate(edge_b or [known[:0]]))
    root = _components(len(known), a, b)[np.searchsorted(known, band_keys)]
    # Label each band by the smallest band index sharing its pattern orbit.
    first = np.full(len(known), len(bands))
    np.minimum.at(first, root, np.arange(len(bands)))
    return first[root]


def column_set_pattern(band: object, shape: str = "3x3") -> tuple:
    """The column-set pattern of a band: per box, the set of column sets.

    Returns
    -------
    tuple
        One entry per box; each is the sorted tuple of its columns' digit
        sets, each set a sorted tuple of digits.

    Examples
    --------
    >>> column_set_pattern(reduced_bands()[0])[0]
    ((1, 4, 7), (2, 5, 8), (3, 6, 9))
    """
    s = parse_shape(shape)
    stack, single = _as_bands(band, s)
    if not single:
        raise ValueError(f"column_set_pattern takes one band of shape ({s.rows}, {s.n})")
    cols = np.sort(stack[0], axis=0).T.reshape(s.band_boxes, s.cols, s.rows)
    return tuple(tuple(sorted(tuple(int(d) for d in c) for c in box)) for box in cols)


def canonical_column_set_pattern(band: object, shape: str = "3x3") -> tuple:
    """The canonical form of a band's column-set pattern, by brute force.

    Straight from REDUCTION.md: for every order of the boxes and every
    relabelling sending the new box 1's column sets onto the standard ones
    ({1,4,7}, {2,5,8}, {3,6,9} for 3×3; in any order, any order inside), read
    boxes 2..R as sorted lists of sorted sets; keep the smallest tuple.  Two
    bands are in the same ``"patterns"`` (``"44"``) class exactly when these
    forms are equal.  It tries all ``R! · C!·(R!)^C`` candidates (3!·3!·(3!)³
    for 3×3), so it serves checks; :func:`classes` builds the classes by a
    closure over generators instead.

    Returns
    -------
    tuple
        ``(box 2, box 3)``, each a sorted tuple of sorted digit tuples.

    Examples
    --------
    >>> b = reduced_bands()[0]
    >>> canonical_column_set_pattern(b) == canonical_column_set_pattern(b[[2, 0, 1]])
    True
    """
    s = parse_shape(shape)
    pattern = np.array(column_set_pattern(band, shape)) - 1  # (boxes, C, R), 0-based
    targets = _relabel_targets(s)  # (k, C, R)
    weights = np.int64(s.n) ** np.arange(s.rows - 1, -1, -1, dtype=np.int64)
    code_bits = int(s.n ** s.rows - 1).bit_length()  # one sorted column set
    width = (s.band_boxes - 1) * s.cols
    if code_bits * width >= 63:
        raise ValueError(f"shape {s.name}: canonical patterns do not fit an int64 key")
    shifts = code_bits * np.arange(width - 1, -1, -1, dtype=np.int64)
    best = None
    for order in itertools.permutations(range(s.band_boxes)):
        boxes = pattern[list(order)]
        # perm[k] sends the new box 1's set j, digit i, onto targets[k, j, i].
        perm = np.zeros((len(targets), s.n), dtype=np.int64)
        perm[:, boxes[0].reshape(-1)] = targets.reshape(len(targets), -1)
        image = np.sort(perm[:, boxes[1:]], axis=-1)  # (k, boxes-1, C, R)
        codes = np.sort(image @ weights, axis=-1).reshape(len(targets), width)
        key = int(((codes << shifts).sum(axis=1)).min())
        if best is None or key < best:
            best = key
    codes = [(best >> int(sh)) & ((1 << code_bits) - 1) for sh in shifts]
    sets = [tuple(int(c // int(w)) % s.n + 1 for w in weights) for c in codes]
    return tuple(tuple(sets[b * s.cols:(b + 1) * s.cols]) for b in range(s.band_boxes - 1))


def _relabel_targets(s: BoxShape) -> np.ndarray:
    """Every ordering of the standard column sets and of the digits inside
    them, as a (k, C, R) array of 0-based digits (k = C! · (R!)^C).
    """
    std = _mask_digits(s)[_std_column_masks(s)]  # (C, R)
    out = []
    for order in itertools.permutations(range(s.cols)):
        inner = [list(itertools.permutations(std[j])) for j in order]
        out.extend(itertools.product(*inner))
    return np.array(out, dtype=np.int64)


# ---------------------------------------------------------------------------
# Classes
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class BandClass:
    """One class of reduced bands with equal completion counts.

    Attributes
    ----------
    class_id : int
        Position of the class in the order of representatives.
    representative : tuple of tuple of int
        The lexicographically smallest reduced band of the class, as R
        row tuples (three for 3×3).
    weight : int
        Number of reduced bands in the class.

    Examples
    --------
    >>> c = classes()[0]
    >>> c.class_id, c.array().shape
    (0, (3, 9))
    """

    class_id: int
    representative: tuple[tuple[int, ...], ...]
    weight: int

    def array(self) -> np.ndarray:
        """The representative as a new ``(R, N)`` uint8 array."""
        return np.array(self.representative, dtype=np.uint8)


@lru_cache(maxsize=None)
def _labels(kind: str, moves: tuple[int, ...] | None, shape: str) -> np.ndarray:
    """Per reduced band, the index of its class's smallest band."""
    if kind == "moves":
        return _move_labels(ALL_MOVES if moves is None else moves, shape)
    return _pattern_labels(shape)


@lru_cache(maxsize=None)
def _classes_cached(
    kind: str, moves: tuple[int, ...] | None, shape: str
) -> tuple[tuple[BandClass, ...], np.ndarray]:
    bands = reduced_bands(shape)
    labels = _labels(kind, moves, shape)
    # Class ids follow the representatives' band indices, which follow
    # lexicographic order because reduced_bands() is sorted.
    reps, class_ids, weights = np.unique(labels, return_inverse=True, return_counts=True)
    out = tuple(
        BandClass(k, tuple(tuple(int(d) for d in row) for row in bands[rep]), int(w))
        for k, (rep, w) in enumerate(zip(reps, weights))
    )
    class_ids = class_ids.reshape(-1)
    class_ids.setflags(write=False)
    return out, class_ids


def _resolve(reduction: str | None, moves: Iterable[int] | None, shape: str) -> tuple:
    """``(kind, moves, shape name)``: the cache key of a validated request."""
    kind = reduction_kind(reduction, shape)
    shape = parse_shape(shape).name
    if moves is not None:
        if kind != "moves":
            raise ValueError("moves apply only to the five-move reduction ('moves', '71' for 3x3)")
        moves = _check_moves(moves)
        if moves == ALL_MOVES:
            moves = None  # share the cache with the default
    return kind, moves, shape


def classes(
    reduction: str | None = None, moves: Iterable[int] | None = None, shape: str = "3x3"
) -> list[BandClass]:
    """The classes of reduced bands of a reduction.

    Parameters
    ----------
    reduction : {"moves", "patterns", "71", "44"}, optional
        ``"moves"`` (the default; ``"71"`` for 3×3): union-find over the
        five moves of REDUCTION.md, each image re-normalised.
        ``"patterns"`` (``"44"`` for 3×3): bands with equivalent column-set
        patterns.  See :func:`reduction_kind`.
    moves : iterable of int, optional
        For ``"moves"`` only: the moves to use (default all of 1–5).
    shape : str
        Box shape ``"RxC"``.

    Returns
    -------
    list of BandClass
        Sorted by representative; ``class_id`` is the position.

    Raises
    ------
    ValueError
        For an unknown reduction or move, or moves given with ``"44"``.

    Examples
    --------
    >>> cs = classes("71")
    >>> sum(c.weight for c in cs) == len(reduced_bands())
    True
    """
    return list(_classes_cached(*_resolve(reduction, moves, shape))[0])


def band_class_ids(
    reduction: str | None = None, moves: Iterable[int] | None = None, shape: str = "3x3"
) -> np.ndarray:
    """Class id of every reduced band (read-only array aligned with
    :func:`reduced_bands`).

    Examples
    --------
    >>> ids = band_class_ids("71")
    >>> int(ids[0])
    0
    """
    return _classes_cached(*_resolve(reduction, moves, shape))[1]


# ---------------------------------------------------------------------------
# Column forms and work units
# ---------------------------------------------------------------------------

def column_forms(band: object, shape: str = "3x3") -> list[tuple[int, ...]]:
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
    >>> column_forms(reduced_bands()[0])[0]
    (2, 3, 5, 6, 8, 9)
    """
    s = parse_shape(shape)
    stack, single = _as_bands(band, s)
    if not single:
        raise ValueError(f"column_forms takes one band of shape ({s.rows}, {s.n})")
    missing = tuple(sorted(set(range(1, s.n + 1)) - set(stack[0, :, 0].tolist())))
    return _sorted_splits(missing, s.rows)


def _givens(band: np.ndarray, form: tuple[int, ...], s: BoxShape) -> tuple:
    """Band cells in reading order, then column 1 below band 1 (0-based)."""
    cells = [(r, c, int(band[r, c])) for r in range(s.rows) for c in range(s.n)]
    cells += [(s.rows + i, 0, d) for i, d in enumerate(form)]
    return tuple(cells)


@lru_cache(maxsize=None)
def _units_cached(kind: str, shape: str) -> tuple[UnitSpec, ...]:
    s = parse_shape(shape)
    reduction = reduction_name(kind, shape)  # the stable name units carry
    out = []
    class_list = _classes_cached(kind, None, shape)[0]
    # Every band has (N-R)! / column factor column forms (the factor is exact).
    n_forms = math.factorial(s.n - s.rows) // column_factor(shape)
    if len(class_list) * n_forms > MAX_UNITS:
        raise ValueError(
            f"shape {s.name}: {len(class_list):,} classes x {n_forms:,} column forms = "
            f"{len(class_list) * n_forms:,} work units, more than {MAX_UNITS:,}; "
            f"this shape is out of reach"
        )
    for cls in class_list:
        forms = column_forms(cls.representative, shape)
        n_forms = len(forms)
        for form_id, form in enumerate(forms):
            out.append(UnitSpec(
                shape=s.name,
                reduction=reduction,
                unit_id=cls.class_id * n_forms + form_id,
                class_id=cls.class_id,
                form_id=form_id,
                weight=cls.weight,
                givens=_givens(cls.array(), form, s),
            ))
    # Invariant: ids are 0..len-1 in order (every class has the same number of forms).
    assert [u.unit_id for u in out] == list(range(len(out)))
    return tuple(out)


def units(reduction: str | None = None, shape: str = "3x3") -> list[UnitSpec]:
    """All work units of a reduction, ordered by ``unit_id``.

    ``unit_id = class_id * n_forms + form_id``.  Givens are the ``R·N`` band
    cells and the ``N - R`` cells of column 1 below band 1 (27 and 6 for
    3×3), as ``(row, col, digit)`` with 0-based row and column.  Every unit
    carries :func:`reduction_name` as its reduction.

    Examples
    --------
    >>> u = units("71")[-1]
    >>> n_forms = len(column_forms(classes("71")[-1].representative))
    >>> u.unit_id == u.class_id * n_forms + u.form_id
    True
    """
    reduction, _, shape = _resolve(reduction, None, shape)
    return list(_units_cached(reduction, shape))


def n_units(reduction: str | None = None, shape: str = "3x3") -> int:
    """Number of work units of a reduction.

    Examples
    --------
    >>> n_units("71") == len(classes("71")) * len(column_forms(reduced_bands()[0]))
    True
    """
    reduction, _, shape = _resolve(reduction, None, shape)
    return len(_units_cached(reduction, shape))


def unit(reduction: str, unit_id: int, shape: str = "3x3") -> UnitSpec:
    """One work unit by id.

    Raises
    ------
    ValueError
        If ``unit_id`` is not an int in ``0 .. n_units - 1``.

    Examples
    --------
    >>> unit("44", 0).class_id
    0
    """
    kind, _, shape = _resolve(reduction, None, shape)
    all_units = _units_cached(kind, shape)
    if isinstance(unit_id, bool) or not isinstance(unit_id, (int, np.integer)):
        raise ValueError(f"unit id must be an int, got {unit_id!r}")
    if not 0 <= unit_id < len(all_units):
        raise ValueError(
            f"unit id {unit_id} out of range for reduction {reduction_name(kind, shape)!r}: "
            f"valid ids are 0..{len(all_units) - 1}"
        )
    return all_units[int(unit_id)]


# ---------------------------------------------------------------------------
# Totals
# ---------------------------------------------------------------------------

def _checked_counts(counts: Mapping[int, int], n: int) -> dict[int, int]:
    """Exact int counts for unit ids 0..n-1; ValueError naming any gap."""
    clean = {}
    for key, value in counts.items():
        if isinstance(key, bool) or not isinstance(key, (int, np.integer)) or not 0 <= key < n:
            raise ValueError(f"unknown unit id {key!r}: valid ids are 0..{n - 1}")
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise ValueError(f"count of unit {key} must be a non-negative int, got {value!r}")
        clean[int(key)] = int(value)
    missing = [i for i in range(n) if i not in clean]
    if missing:
        shown = ", ".join(map(str, missing[:20])) + (", …" if len(missing) > 20 else "")
        raise ValueError(f"{len(missing)} unit id(s) missing: {shown}")
    return clean


def class_totals(
    counts: Mapping[int, int], reduction: str | None = None, shape: str = "3x3"
) -> dict[int, int]:
    """Σ over column forms of the unit counts, per class.

    Parameters
    ----------
    counts : mapping of int to int
        Count of every unit id of the reduction.

    Returns
    -------
    dict
        ``class_id -> Σ_form count``, exact ints.

    Examples
    --------
    >>> ones = {u.unit_id: 1 for u in units("44")}
    >>> class_totals(ones, "44")[0] == len(column_forms(classes("44")[0].representative))
    True
    """
    all_units = units(reduction, shape)
    clean = _checked_counts(counts, len(all_units))
    totals: dict[int, int] = {}
    for u in all_units:
        totals[u.class_id] = totals.get(u.class_id, 0) + clean[u.unit_id]
    return totals


def total_from_unit_counts(
    counts: Mapping[int, int], reduction: str | None = None, shape: str = "3x3"
) -> int:
    """Number of grids: ``relabel · band · column · Σ_class weight · Σ_form count``.

    For 3×3 that is ``9! · (3!·3!·2) · (3!·3!·2) · Σ_class weight · Σ_form count``.

    The three factors are those of :func:`factorisation`.

    Parameters
    ----------
    counts : mapping of int to int
        Count of every unit id of the reduction (all must be present).

    Returns
    -------
    int
        Exact.

    Raises
    ------
    ValueError
        Naming missing or unknown unit ids, or bad counts.

    Examples
    --------
    >>> ones = {u.unit_id: 1 for u in units("71")}
    >>> n_forms = len(column_forms(reduced_bands()[0]))
    >>> total_from_unit_counts(ones) == factorisation().product * n_forms * len(reduced_bands())
    True
    """
    totals = class_totals(counts, reduction, shape)
    weights = {c.class_id: c.weight for c in classes(reduction, shape=shape)}
    return factorisation(shape).product * sum(weights[k] * t for k, t in totals.items())
