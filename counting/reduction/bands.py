"""Reduced bands: band 1 after box 1 is relabelled and the band reduced.

A band is an ``(R, N)`` array of digits (rows 1..R of the grid), a stack of
bands ``(n, R, N)``, digits ``uint8``.  A *reduced band* has box 1 standard
(1..N in reading order: 123/456/789 for 3×3), the columns of every later box
sorted by their row-1 digit, and those boxes ordered by their first row-1
digit.  This module enumerates them (:func:`reduced_bands`, one row-1 form
at a time, filling rows 2..R cell by cell) and keys them by an ``int64``
that increases with lexicographic order (:func:`band_keys`).

It also holds the two small array operations the moves and the column-set
patterns share: :func:`swap_axis` and :func:`column_sets`.

The enumeration is refused, before memory runs out, for a shape with more
than :data:`MAX_BANDS` reduced bands or whose band keys exceed 64 bits.
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from functools import lru_cache

import numpy as np

from grids.shape import Shape, as_shape

__all__ = [
    "MAX_BANDS",
    "CHUNK",
    "standard_box1",
    "sorted_splits",
    "row1_forms",
    "count_row1_completions",
    "reduced_bands",
    "key_radix",
    "band_keys",
    "swap_axis",
    "column_sets",
]

MAX_BANDS = 2_000_000  # enumeration guard: reduced (and partial) bands held at once
CHUNK = 1 << 16  # bands normalised or keyed at once (keeps temporaries in cache)


def standard_box1(shape: Shape | str) -> np.ndarray:
    """Box 1 after relabelling: digits 1..N in reading order, ``(R, C)``.

    Examples
    --------
    >>> standard_box1("3x3").tolist()
    [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    """
    s = as_shape(shape)
    return np.arange(1, s.n + 1, dtype=np.uint8).reshape(s.box_rows, s.box_cols)


def sorted_splits(digits: tuple[int, ...], size: int) -> list[tuple[int, ...]]:
    """All splits of ``digits`` into groups of ``size``, canonically ordered.

    Each group is sorted and the groups are ordered by their first element,
    so the smallest remaining digit always opens the next group.  Returns
    the concatenated groups, in lexicographic order.  (Row-1 forms split
    row 1's free digits among boxes; column forms split column 1's among
    bands.)

    Examples
    --------
    >>> sorted_splits((1, 2, 3, 4), 2)
    [(1, 2, 3, 4), (1, 3, 2, 4), (1, 4, 2, 3)]
    """
    if not digits:
        return [()]
    first, rest = digits[0], digits[1:]
    out = []
    for others in itertools.combinations(rest, size - 1):
        remaining = tuple(d for d in rest if d not in others)
        out.extend((first, *others) + tail for tail in sorted_splits(remaining, size))
    return sorted(out)


def row1_forms(shape: Shape | str) -> list[tuple[int, ...]]:
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
    >>> forms = row1_forms("3x3")
    >>> forms[0], forms[-1]
    ((4, 5, 6, 7, 8, 9), (4, 8, 9, 5, 6, 7))
    """
    s = as_shape(shape)
    rest = tuple(range(s.box_cols + 1, s.n + 1))  # digits not in box 1's row 1
    return sorted_splits(rest, s.box_cols)


def _fill_cells(partial: np.ndarray, cells: Iterable[tuple[int, int]], s: Shape,
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
        b0 = (c // s.box_cols) * s.box_cols
        used = np.zeros((m, s.n + 1), dtype=bool)  # column 0 catches the empty cells
        used[rows, partial[:, r, :]] = True
        used[rows, partial[:, :, b0:b0 + s.box_cols].reshape(m, -1)] = True
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


def _band_completions(row1: Iterable[int], s: Shape, budget: int = MAX_BANDS) -> np.ndarray:
    """All bands with box 1 standard and the given row-1 cells C+1..N.

    Returns an ``(m, R, N)`` uint8 array in lexicographic order.
    """
    start = np.zeros((1, s.box_rows, s.n), dtype=np.uint8)
    start[0, :, :s.box_cols] = np.arange(1, s.n + 1).reshape(s.box_rows, s.box_cols)
    start[0, 0, s.box_cols:] = tuple(row1)
    free = [(r, c) for r in range(1, s.box_rows) for c in range(s.box_cols, s.n)]  # reading order
    return _fill_cells(start, free, s, budget)


def count_row1_completions(form: Iterable[int], shape: Shape | str) -> int:
    """Number of ways rows 2..R complete a band with the given row 1.

    Box 1 is standard (123/456/789 for 3×3) and row 1's cells C+1..N are
    ``form``.  For a canonical form every completion is a reduced band.

    Parameters
    ----------
    form : iterable of int
        Row 1, cells C+1..N (six distinct digits 4..9 for 3×3).
    shape : Shape or str
        Box shape.

    Returns
    -------
    int

    Examples
    --------
    >>> counts = [count_row1_completions(f, "3x3") for f in row1_forms("3x3")]
    >>> sum(counts) == len(reduced_bands("3x3"))
    True
    """
    s = as_shape(shape)
    form = tuple(int(d) for d in form)
    if sorted(form) != list(range(s.box_cols + 1, s.n + 1)):
        raise ValueError(
            f"row-1 form must be a permutation of {list(range(s.box_cols + 1, s.n + 1))}, "
            f"got {form}"
        )
    return len(_band_completions(form, s))


@lru_cache(maxsize=None)
def _reduced_bands(s: Shape) -> np.ndarray:
    key_radix(s)  # refuse a shape whose bands cannot be keyed before enumerating them
    parts, total = [], 0
    for form in row1_forms(s):
        # The budget is shared by all forms: at most MAX_BANDS bands in all.
        parts.append(_band_completions(form, s, MAX_BANDS - total))
        total += len(parts[-1])
    bands = np.concatenate(parts)
    keys = band_keys(bands, s)
    # Invariant: forms are visited in order and each block is in order.
    assert np.all(np.diff(keys) > 0), "reduced bands are not strictly increasing"
    bands.setflags(write=False)
    return bands


def reduced_bands(shape: Shape | str) -> np.ndarray:
    """All lexicographically reduced bands, in lexicographic order.

    A reduced band has box 1 standard (123/456/789 for 3×3), the columns of
    every later box sorted by their row-1 digit, and those boxes ordered by
    their first row-1 digit (for 3×3: box 2's smaller than box 3's).  They
    are generated directly, one row-1 form at a time, by filling rows 2..R
    cell by cell.  Computed once per shape and cached.

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
    >>> bands = reduced_bands("3x3")
    >>> bands[0].tolist()[0]
    [1, 2, 3, 4, 5, 6, 7, 8, 9]
    """
    return _reduced_bands(as_shape(shape))


def key_radix(s: Shape) -> int:
    """Number of distinct band keys, ``((N-C)!)^R``; ValueError past int64."""
    radix = math.factorial(s.n - s.box_cols) ** s.box_rows
    if radix >= 2 ** 63:
        hint = f"; the transposed shape {s.transpose().name} counts the same grids" \
            if s.box_rows != s.box_cols else ""
        raise ValueError(
            f"shape {s.name}: band 1 is too large to enumerate (its keys do not fit 64 bits)"
            f"{hint}"
        )
    return radix


def band_keys(bands: np.ndarray, s: Shape) -> np.ndarray:
    """int64 key of bands whose box 1 is standard, increasing with lexicographic order.

    With box 1 standard, row r's free cells (all but box 1) hold a
    permutation of the ``F = N - C`` digits missing from box 1's row r.  The
    key is each row's Lehmer rank (the rank of that permutation in
    lexicographic order, ``0 <= rank < F!``) read as digits in base ``F!``,
    row 1 first.  Box 1 being constant, key order = lexicographic order of
    the bands.  Needs ``(F!)^R < 2**63`` (:func:`key_radix`; ``720**3`` for
    3×3, ``720**4`` for 4×2).
    """
    key_radix(s)
    f = s.n - s.box_cols
    powers = np.int64(math.factorial(f)) ** np.arange(s.box_rows - 1, -1, -1, dtype=np.int64)
    keys = np.empty(len(bands), dtype=np.int64)
    for lo in range(0, len(bands), CHUNK):
        free = bands[lo:lo + CHUNK, :, s.box_cols:]  # (m, R, F)
        rank = np.zeros(free.shape[:2], dtype=np.int64)
        for i in range(f):
            # Lehmer digit i: how many later cells hold a smaller digit.
            smaller = np.zeros(free.shape[:2], dtype=np.uint8)
            for j in range(i + 1, f):
                smaller += free[:, :, j] < free[:, :, i]
            rank += smaller * np.int64(math.factorial(f - 1 - i))
        keys[lo:lo + CHUNK] = rank @ powers
    return keys


def swap_axis(bands: np.ndarray, axis: int, i: int, j: int) -> np.ndarray:
    """Copy of ``bands`` with positions i and j of ``axis`` exchanged."""
    perm = np.arange(bands.shape[axis])
    perm[[i, j]] = perm[[j, i]]
    return np.take(bands, perm, axis=axis)


def column_sets(bands: np.ndarray) -> np.ndarray:
    """Bit mask of each column's digit set: bit d−1 for digit d, ``(n, N)``."""
    return (np.left_shift(1, bands.astype(np.int64) - 1)).sum(axis=1)
