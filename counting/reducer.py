"""Symmetry reduction of the 9×9 Sudoku count to a few hundred work units.

The precise reduction is written down in ``docs/REDUCTION.md``; this module
*computes* every number in it (no count, factor or weight is typed in here).

Outline
-------
1. Relabel the digits so that box 1 reads 123/456/789 (factor ``9!``).
2. Reduce band 1 (rows 1–3) lexicographically: the columns of box 2 are
   sorted by their row-1 digit, the same for box 3, and box 2 comes before
   box 3 when its first row-1 digit is smaller (factor ``3!·3!·2``).  What is
   left are the *reduced bands*, enumerated by :func:`reduced_bands`.
3. Merge reduced bands whose completion counts are provably equal into
   *classes* (:func:`classes`): the ``"71"`` reduction joins bands related by
   the five moves of REDUCTION.md, the ``"44"`` reduction joins bands whose
   column-set patterns are equivalent.
4. Reduce column 1, rows 4–9, to one of the *column forms*
   (:func:`column_forms`, factor ``3!·3!·2``).
5. A work unit (:func:`units`) is one (class representative, column form)
   pair; :func:`total_from_unit_counts` turns unit counts back into the
   number of grids.

Conventions
-----------
A band is a ``(3, 9)`` array of digits 1..9 (row, column), a stack of bands
is ``(n, 3, 9)``.  Digits are ``uint8``.  Rows and columns are 0-based in
code and in :class:`~counting.units.UnitSpec` givens; the prose uses the
1-based "row 1", "box 2" of the documentation.

The box shape is written ``"RxC"`` (boxes of R rows and C columns, so a grid
of side ``N = R·C``; a band has R rows and R boxes).  The code is written
for a general shape where that is natural, but only ``"3x3"`` is accepted
for now: the other shapes raise :class:`ValueError`.

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

__all__ = [
    "SUPPORTED_SHAPES",
    "REDUCTIONS",
    "ALL_MOVES",
    "BoxShape",
    "Factorisation",
    "BandClass",
    "parse_shape",
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

SUPPORTED_SHAPES = ("3x3",)  # box shapes this module accepts for now
REDUCTIONS = ("71", "44")  # reduction names, the default first
ALL_MOVES = (1, 2, 3, 4, 5)  # the moves of the "71" reduction (REDUCTION.md)


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
    """Parse ``"RxC"`` and check that the shape is supported.

    Parameters
    ----------
    shape : str
        Box shape such as ``"3x3"``.

    Returns
    -------
    BoxShape

    Raises
    ------
    ValueError
        If the text is not ``"RxC"`` or the shape is not yet supported.

    Examples
    --------
    >>> parse_shape("3x3")
    BoxShape(rows=3, cols=3)
    """
    if not isinstance(shape, str):
        raise ValueError(f"box shape must be a string like '3x3', got {shape!r}")
    parts = shape.lower().split("x")
    if len(parts) != 2 or not all(p.isdigit() and int(p) > 0 for p in parts):
        raise ValueError(f"box shape must look like 'RxC' (e.g. '3x3'), got {shape!r}")
    parsed = BoxShape(int(parts[0]), int(parts[1]))
    if parsed.name not in SUPPORTED_SHAPES:
        raise ValueError(
            f"box shape {shape!r} is not supported yet; supported: {', '.join(SUPPORTED_SHAPES)}"
        )
    return parsed


# ---------------------------------------------------------------------------
# Factors
# ---------------------------------------------------------------------------

def relabel_factor(shape: str = "3x3") -> int:
    """Factor for relabelling the digits so that box 1 is standard.

    Every digit permutation maps grids to grids bijectively and exactly one
    of the ``N!`` permutations makes box 1 read 1..N row by row.

    Examples
    --------
    >>> relabel_factor("3x3") == math.factorial(9)
    True
    """
    return math.factorial(parse_shape(shape).n)


def band_factor(shape: str = "3x3") -> int:
    """Factor of the lexicographic reduction of band 1.

    Each of the ``R - 1`` boxes after box 1 has its ``C`` columns sorted by
    their row-1 digit (``C!`` orders each), and those boxes are ordered by
    their first row-1 digit (``(R-1)!`` orders).  Row-1 digits are distinct,
    so every band has exactly one sorted image: the factor is exact.

    Examples
    --------
    >>> band_factor("3x3") == math.factorial(3) ** 2 * math.factorial(2)
    True
    """
    s = parse_shape(shape)
    return math.factorial(s.cols) ** (s.band_boxes - 1) * math.factorial(s.band_boxes - 1)


def column_factor(shape: str = "3x3") -> int:
    """Factor of the reduction of column 1 below band 1.

    Below band 1, column 1 crosses ``C - 1`` bands of ``R`` rows.  Rows
    inside each of those bands are sorted by their column-1 digit (``R!``
    orders each) and the bands are ordered by their first column-1 digit
    (``(C-1)!`` orders).  Column-1 digits are distinct, so the factor is exact.

    Examples
    --------
    >>> column_factor("3x3") == math.factorial(3) ** 2 * math.factorial(2)
    True
    """
    s = parse_shape(shape)
    return math.factorial(s.rows) ** (s.stack_boxes - 1) * math.factorial(s.stack_boxes - 1)


@dataclass(frozen=True)
class Factorisation:
    """The three exact factors of the reduction.

    Attributes
    ----------
    relabel : int
        Digit relabelling that makes box 1 standard (``9!``).
    band : int
        Lexicographic reduction of band 1 (``3!·3!·2``).
    column : int
        Reduction of column 1, rows 4–9 (``3!·3!·2``).

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
    """Canonical forms of row 1, cells 4–9, of a reduced band.

    Row 1 holds in cells 4–9 the digits missing from box 1's first row; each
    box's part is sorted and box 2 opens with the smaller digit.

    Returns
    -------
    list of tuple of int
        The forms in lexicographic order (``456|789`` first).

    Examples
    --------
    >>> forms = row1_forms()
    >>> forms[0], forms[-1]
    ((4, 5, 6, 7, 8, 9), (4, 8, 9, 5, 6, 7))
    """
    s = parse_shape(shape)
    rest = tuple(range(s.cols + 1, s.n + 1))  # digits not in box 1's row 1
    return _sorted_splits(rest, s.cols)


def _fill_cells(partial: np.ndarray, cells: Iterable[tuple[int, int]], s: BoxShape) -> np.ndarray:
    """Extend partial bands cell by cell with every legal digit.

    ``partial`` is ``(m, R, N)`` with 0 for empty cells.  Cells are filled in
    the given order; each step keeps every digit absent from the cell's row
    and box (inside a band a column lies in one box, so that is all).

    Invariant: if the input is in lexicographic order and ``cells`` are
    visited in reading order, the output is in lexicographic order, because
    ``np.nonzero`` lists (partial, digit) pairs partial-major, digit-minor.
    """
    for r, c in cells:
        m = len(partial)
        rows = np.arange(m)[:, None]
        b0 = (c // s.cols) * s.cols
        used = np.zeros((m, s.n + 1), dtype=bool)  # column 0 catches the empty cells
        used[rows, partial[:, r, :]] = True
        used[rows, partial[:, :, b0:b0 + s.cols].reshape(m, -1)] = True
        src, digit = np.nonzero(~used[:, 1:])
        partial = partial[src]
        partial[:, r, c] = digit + 1
    return partial


def _band_completions(row1: Iterable[int], s: BoxShape) -> np.ndarray:
    """All bands with box 1 standard and the given row-1 cells 4–9.

    Returns an ``(m, R, N)`` uint8 array in lexicographic order.
    """
    start = np.zeros((1, s.rows, s.n), dtype=np.uint8)
    start[0, :, :s.cols] = np.arange(1, s.n + 1).reshape(s.rows, s.cols)
    start[0, 0, s.cols:] = tuple(row1)
    free = [(r, c) for r in range(1, s.rows) for c in range(s.cols, s.n)]  # reading order
    return _fill_cells(start, free, s)


def count_row1_completions(form: Iterable[int], shape: str = "3x3") -> int:
    """Number of ways rows 2–3 complete a band with the given row 1.

    Box 1 is 123/456/789 and row 1's cells 4–9 are ``form``.  For a
    canonical form every completion is a reduced band.

    Parameters
    ----------
    form : iterable of int
        Row 1, cells 4–9 (six distinct digits 4..9 for 3×3).

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
    bands = np.concatenate([_band_completions(f, s) for f in row1_forms(shape)])
    keys = _band_keys(bands, s)
    # Invariant: forms are visited in order and each block is in order.
    assert np.all(np.diff(keys) > 0), "reduced bands are not strictly increasing"
    bands.setflags(write=False)
    return bands


def reduced_bands(shape: str = "3x3") -> np.ndarray:
    """All lexicographically reduced bands, in lexicographic order.

    A reduced band has box 1 = 123/456/789, the columns of box 2 sorted by
    their row-1 digit, the same in box 3, and box 2's first row-1 digit
    smaller than box 3's.  They are generated directly, one row-1 form at a
    time, by filling rows 2–3 cell by cell.

    Returns
    -------
    numpy.ndarray
        Read-only ``(n, 3, 9)`` uint8 array; ``bands[i]`` is band ``i`` in
        lexicographic order (row 1, row 2, row 3, left to right).

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
    """Normalise a stack of valid bands (no checks); see :func:`normalise`."""
    n = len(bands)
    rows = np.arange(n)[:, None]
    # 1. Relabel: the digit in box-1 cell k (reading order) becomes k + 1.
    label = np.zeros((n, s.n + 1), dtype=np.uint8)
    label[rows, bands[:, :, :s.cols].reshape(n, -1)] = np.arange(1, s.n + 1, dtype=np.uint8)
    out = np.take_along_axis(label, bands.reshape(n, -1).astype(np.intp), axis=1)
    out = out.reshape(n, s.rows, s.n)
    # 2. Sort the columns of every box after box 1 by their row-1 digit.
    boxes = out.reshape(n, s.rows, s.band_boxes, s.cols)
    order = np.argsort(boxes[:, 0, 1:, :], axis=-1)  # (n, R-1, C)
    tail = np.take_along_axis(boxes[:, :, 1:, :], order[:, None, :, :], axis=-1)
    # 3. Order those boxes by their (now first) row-1 digit.
    box_order = np.argsort(tail[:, 0, :, 0], axis=-1)  # (n, R-1)
    tail = np.take_along_axis(tail, box_order[:, None, :, None], axis=2)
    boxes = np.concatenate([boxes[:, :, :1, :], tail], axis=2)
    return np.ascontiguousarray(boxes.reshape(n, s.rows, s.n))


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
    """Relabel box 1 to 123/456/789, then reduce lexicographically.

    Parameters
    ----------
    band : array_like
        One band ``(3, 9)`` or a stack ``(n, 3, 9)`` of valid bands.

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


def _band_keys(bands: np.ndarray, s: BoxShape) -> np.ndarray:
    """int64 key of bands whose box 1 is standard: the free cells in base N.

    The free cells (all but box 1) are read in reading order as base-N
    digits (digit − 1).  Box 1 being constant, key order = lexicographic
    order of the bands.  Needs ``N ** free < 2**63`` (9**18 for 3×3).
    """
    free = bands[:, :, s.cols:].reshape(len(bands), -1).astype(np.int64) - 1
    width = free.shape[1]
    if s.n ** width >= 2 ** 63:
        raise ValueError(f"shape {s.name}: {width} free cells do not fit an int64 key")
    powers = np.int64(s.n) ** np.arange(width - 1, -1, -1, dtype=np.int64)
    return free @ powers


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
# The five moves of the "71" reduction
# ---------------------------------------------------------------------------

def _swap_axis(bands: np.ndarray, axis: int, i: int, j: int) -> np.ndarray:
    """Copy of ``bands`` with positions i and j of ``axis`` exchanged."""
    perm = np.arange(bands.shape[axis])
    perm[[i, j]] = perm[[j, i]]
    return np.take(bands, perm, axis=axis)


def _move_row_swaps(bands: np.ndarray, s: BoxShape) -> tuple[np.ndarray, np.ndarray]:
    """Move 1: swap two rows of the band."""
    n = len(bands)
    pairs = list(itertools.combinations(range(s.rows), 2))
    images = [_swap_axis(bands, 1, r, t) for r, t in pairs]
    return np.tile(np.arange(n), len(pairs)), np.concatenate(images)


def _move_box1_column_swaps(bands: np.ndarray, s: BoxShape) -> tuple[np.ndarray, np.ndarray]:
    """Move 2: swap two columns of box 1."""
    n = len(bands)
    pairs = list(itertools.combinations(range(s.cols), 2))
    images = [_swap_axis(bands, 2, a, b) for a, b in pairs]
    return np.tile(np.arange(n), len(pairs)), np.concatenate(images)


def _move_box_swaps(bands: np.ndarray, s: BoxShape) -> tuple[np.ndarray, np.ndarray]:
    """Move 3: swap two boxes of the band."""
    n = len(bands)
    pairs = list(itertools.combinations(range(s.band_boxes), 2))
    images = []
    for a, b in pairs:
        boxes = bands.reshape(n, s.rows, s.band_boxes, s.cols)
        images.append(_swap_axis(boxes, 2, a, b).reshape(n, s.rows, s.n))
    return np.tile(np.arange(n), len(pairs)), np.concatenate(images)


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


def _move_cycle_exchanges(bands: np.ndarray, s: BoxShape) -> tuple[np.ndarray, np.ndarray]:
    """Move 4: exchange rows r and s on one cycle of their column permutation.

    For rows r, s let π send column c to the column where row s holds the
    digit ``band[r, c]``.  On a cycle of π rows r and s hold the same digit
    set, so exchanging them there keeps every row a permutation, every
    column's digit set, hence every box.  Cycles of length N are move 1.
    """
    n = len(bands)
    srcs, images = [], []
    for r, t in itertools.combinations(range(s.rows), 2):
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


def _move_equal_set_column_swaps(bands: np.ndarray, s: BoxShape) -> tuple[np.ndarray, np.ndarray]:
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
        A valid ``(3, 9)`` band.
    move : int
        1 row swaps, 2 box-1 column swaps, 3 box swaps, 4 cycle
        exchanges, 5 swaps of equal-set columns in different boxes.

    Returns
    -------
    numpy.ndarray
        ``(k, 3, 9)`` uint8: every band one such move away.

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
# The "71" classes: union-find over the moves
# ---------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _move_labels(moves: tuple[int, ...], shape: str) -> np.ndarray:
    """Index of the smallest reduced band in each reduced band's move class."""
    s = parse_shape(shape)
    bands = reduced_bands(shape)
    src_parts, dst_parts = [], []
    for kind in moves:
        src, images = _MOVES[kind](bands, s)
        src_parts.append(src)
        dst_parts.append(_index_of_normalised(_normalise(images, s), s))
    if not src_parts:
        return np.arange(len(bands))
    return _components(len(bands), np.concatenate(src_parts), np.concatenate(dst_parts))


# ---------------------------------------------------------------------------
# The "44" classes: equivalent column-set patterns
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
        frontier = np.setdiff1d(np.concatenate(found), known)  # unique, sorted
        known = np.union1d(known, frontier)
    a = np.searchsorted(known, np.concatenate(edge_a))
    b = np.searchsorted(known, np.concatenate(edge_b))
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
    relabelling sending the new box 1's column sets onto {1,4,7}, {2,5,8},
    {3,6,9} (in any order, any order inside), read boxes 2 and 3 as sorted
    lists of sorted sets; keep the smallest (box 2, box 3) pair.  Two bands
    are in the same ``"44"`` class exactly when these forms are equal.
    It tries all 3! · 3!·(3!)³ candidates, so it serves checks; :func:`classes`
    builds the ``"44"`` classes by a closure over generators instead.

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
        The lexicographically smallest reduced band of the class, as three
        row tuples.
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
        """The representative as a new ``(3, 9)`` uint8 array."""
        return np.array(self.representative, dtype=np.uint8)


def _check_reduction(reduction: str) -> str:
    if reduction not in REDUCTIONS:
        raise ValueError(
            f"unknown reduction {reduction!r}; valid reductions are {', '.join(map(repr, REDUCTIONS))}"
        )
    return reduction


@lru_cache(maxsize=None)
def _labels(reduction: str, moves: tuple[int, ...] | None, shape: str) -> np.ndarray:
    """Per reduced band, the index of its class's smallest band."""
    if reduction == "71":
        return _move_labels(ALL_MOVES if moves is None else moves, shape)
    return _pattern_labels(shape)


@lru_cache(maxsize=None)
def _classes_cached(
    reduction: str, moves: tuple[int, ...] | None, shape: str
) -> tuple[tuple[BandClass, ...], np.ndarray]:
    bands = reduced_bands(shape)
    labels = _labels(reduction, moves, shape)
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


def _resolve(reduction: str, moves: Iterable[int] | None, shape: str) -> tuple:
    _check_reduction(reduction)
    shape = parse_shape(shape).name
    if moves is not None:
        if reduction != "71":
            raise ValueError("moves apply only to the '71' reduction")
        moves = _check_moves(moves)
        if moves == ALL_MOVES:
            moves = None  # share the cache with the default
    return reduction, moves, shape


def classes(
    reduction: str = "71", moves: Iterable[int] | None = None, shape: str = "3x3"
) -> list[BandClass]:
    """The classes of reduced bands of a reduction.

    Parameters
    ----------
    reduction : {"71", "44"}
        ``"71"``: union-find over the five moves of REDUCTION.md, each
        image re-normalised.  ``"44"``: bands with equivalent column-set
        patterns.
    moves : iterable of int, optional
        For ``"71"`` only: the moves to use (default all of 1–5).
    shape : str
        Box shape; only ``"3x3"`` for now.

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
    reduction: str = "71", moves: Iterable[int] | None = None, shape: str = "3x3"
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
    """Canonical forms of column 1, rows 4–9, below a band.

    The six digits missing from column 1 of the band are split into rows
    4–6 (ascending) and rows 7–9 (ascending), with row 4's digit smaller
    than row 7's.

    Returns
    -------
    list of tuple of int
        Six-tuples (rows 4..9) in lexicographic order.

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
    """Band cells in reading order, then column 1 rows 4..9 (0-based)."""
    cells = [(r, c, int(band[r, c])) for r in range(s.rows) for c in range(s.n)]
    cells += [(s.rows + i, 0, d) for i, d in enumerate(form)]
    return tuple(cells)


@lru_cache(maxsize=None)
def _units_cached(reduction: str, shape: str) -> tuple[UnitSpec, ...]:
    s = parse_shape(shape)
    out = []
    class_list = _classes_cached(reduction, None, shape)[0]
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


def units(reduction: str = "71", shape: str = "3x3") -> list[UnitSpec]:
    """All work units of a reduction, ordered by ``unit_id``.

    ``unit_id = class_id * n_forms + form_id``.  Givens are the 27 band
    cells and the 6 cells of column 1, rows 4–9, as ``(row, col, digit)``
    with 0-based row and column.

    Examples
    --------
    >>> u = units("71")[-1]
    >>> n_forms = len(column_forms(classes("71")[-1].representative))
    >>> u.unit_id == u.class_id * n_forms + u.form_id
    True
    """
    reduction, _, shape = _resolve(reduction, None, shape)
    return list(_units_cached(reduction, shape))


def n_units(reduction: str = "71", shape: str = "3x3") -> int:
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
    reduction, _, shape = _resolve(reduction, None, shape)
    all_units = _units_cached(reduction, shape)
    if isinstance(unit_id, bool) or not isinstance(unit_id, (int, np.integer)):
        raise ValueError(f"unit id must be an int, got {unit_id!r}")
    if not 0 <= unit_id < len(all_units):
        raise ValueError(
            f"unit id {unit_id} out of range for reduction {reduction!r}: "
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
    counts: Mapping[int, int], reduction: str = "71", shape: str = "3x3"
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
    counts: Mapping[int, int], reduction: str = "71", shape: str = "3x3"
) -> int:
    """Number of grids: ``9! · (3!·3!·2) · (3!·3!·2) · Σ_class weight · Σ_form count``.

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
