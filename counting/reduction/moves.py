"""The "moves" reduction ("71" for 3x3): classes by the five moves.

Five kinds of move map a band to another band with the same number of
completions (REDUCTION.md):

1. swap two rows of the band;
2. swap two columns of box 1;
3. swap two boxes of the band;
4. exchange two rows on one cycle of their column permutation;
5. swap two columns in different boxes with equal digit sets.

The classes are the connected components of the reduced bands joined to
the normalised images of their moves (:func:`move_labels`, a union-find
over a generating subset of the moves).  For 3×3 there are 71.
:func:`move_images` gives every image of one band under one kind of move.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterable
from functools import lru_cache

import numpy as np

from counting.reduction.band_reduction import BandReduction
from counting.reduction.bands import column_sets, reduced_bands, swap_axis
from counting.reduction.classes import components
from counting.reduction.normal_form import as_bands, index_of_normalised, normalise_valid
from grids.shape import Shape, as_shape

__all__ = ["ALL_MOVES", "check_moves", "move_images", "move_labels", "MovesReduction"]

ALL_MOVES = (1, 2, 3, 4, 5)  # the moves of the "moves" reduction (REDUCTION.md)


def _move_row_swaps(bands: np.ndarray, s: Shape, pairs=None) -> tuple[np.ndarray, np.ndarray]:
    """Move 1: swap two rows of the band (``pairs`` of rows; default all)."""
    n = len(bands)
    pairs = list(itertools.combinations(range(s.box_rows), 2)) if pairs is None else pairs
    images = [swap_axis(bands, 1, r, t) for r, t in pairs]
    return _concat([np.arange(n)] * len(pairs), images, s)


def _move_box1_column_swaps(bands: np.ndarray, s: Shape,
                            pairs=None) -> tuple[np.ndarray, np.ndarray]:
    """Move 2: swap two columns of box 1 (``pairs`` of columns; default all)."""
    n = len(bands)
    pairs = list(itertools.combinations(range(s.box_cols), 2)) if pairs is None else pairs
    images = [swap_axis(bands, 2, a, b) for a, b in pairs]
    return _concat([np.arange(n)] * len(pairs), images, s)


def _move_box_swaps(bands: np.ndarray, s: Shape, pairs=None) -> tuple[np.ndarray, np.ndarray]:
    """Move 3: swap two boxes of the band (``pairs`` of boxes; default all)."""
    n = len(bands)
    pairs = list(itertools.combinations(range(s.n_stacks), 2)) if pairs is None else pairs
    images = []
    for a, b in pairs:
        boxes = bands.reshape(n, s.box_rows, s.n_stacks, s.box_cols)
        images.append(swap_axis(boxes, 2, a, b).reshape(n, s.box_rows, s.n))
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


def _move_cycle_exchanges(bands: np.ndarray, s: Shape,
                          pairs=None) -> tuple[np.ndarray, np.ndarray]:
    """Move 4: exchange rows r and s on one cycle of their column permutation.

    For rows r, s let π send column c to the column where row s holds the
    digit ``band[r, c]``.  On a cycle of π rows r and s hold the same digit
    set, so exchanging them there keeps every row a permutation, every
    column's digit set, hence every box.  Cycles of length N are move 1.
    ``pairs`` of rows (r, s); default all.
    """
    srcs, images = [], []
    pairs = list(itertools.combinations(range(s.box_rows), 2)) if pairs is None else pairs
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


def _move_equal_set_column_swaps(bands: np.ndarray, s: Shape,
                                 pairs=None) -> tuple[np.ndarray, np.ndarray]:
    """Move 5: swap two columns in different boxes with equal digit sets.

    Each box keeps its digit set (one column is replaced by an equal set),
    each row stays a permutation, and the multiset of column sets is kept.
    """
    sets = column_sets(bands)
    srcs, images = [], []
    for a, b in itertools.combinations(range(s.n), 2):
        if a // s.box_cols == b // s.box_cols:
            continue  # same box: that is a lexicographic relabelling, not move 5
        keep = sets[:, a] == sets[:, b]
        if keep.any():
            srcs.append(np.flatnonzero(keep))
            images.append(swap_axis(bands[keep], 2, a, b))
    return _concat(srcs, images, s)


def _concat(srcs: list, images: list, s: Shape) -> tuple[np.ndarray, np.ndarray]:
    if not srcs:
        return np.zeros(0, dtype=np.intp), np.zeros((0, s.box_rows, s.n), dtype=np.uint8)
    return np.concatenate(srcs), np.concatenate(images)


_MOVES = {
    1: _move_row_swaps,
    2: _move_box1_column_swaps,
    3: _move_box_swaps,
    4: _move_cycle_exchanges,
    5: _move_equal_set_column_swaps,
}


def check_moves(moves: Iterable[int]) -> tuple[int, ...]:
    """The moves as a sorted tuple without repeats; ValueError for an unknown move.

    Examples
    --------
    >>> check_moves([4, 1, 4])
    (1, 4)
    """
    chosen = tuple(sorted(set(moves)))
    bad = [m for m in chosen if m not in _MOVES]
    if bad:
        raise ValueError(f"unknown move(s) {bad}; valid moves are {list(_MOVES)}")
    return chosen


def move_images(band: object, move: int, shape: Shape | str) -> np.ndarray:
    """All images of one band under one kind of move, *not* normalised.

    Parameters
    ----------
    band : array_like
        A valid ``(R, N)`` band.
    move : int
        1 row swaps, 2 box-1 column swaps, 3 box swaps, 4 cycle
        exchanges, 5 swaps of equal-set columns in different boxes.
    shape : Shape or str
        Box shape.

    Returns
    -------
    numpy.ndarray
        ``(k, R, N)`` uint8: every band one such move away.

    Examples
    --------
    >>> len(move_images(reduced_bands("3x3")[0], 1, "3x3"))   # three pairs of rows
    3
    """
    s = as_shape(shape)
    (kind,) = check_moves([move])
    stack, single = as_bands(band, s)
    if not single:
        raise ValueError(f"move_images takes one band of shape ({s.box_rows}, {s.n})")
    return _MOVES[kind](stack, s)[1]


def _generating_pairs(kind: int, moves: tuple[int, ...], s: Shape) -> list | None:
    """Which instances of move ``kind`` the union-find needs (None: all).

    Let K be the group that normalisation undoes (relabellings, column
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

    The full sets stay available through :func:`move_images` and
    ``move_labels(..., generators=False)``; the tests check that both give
    the same classes.
    """
    if kind == 1:
        return [(i, i + 1) for i in range(s.box_rows - 1)]
    if kind == 2:
        return [(i, i + 1) for i in range(s.box_cols - 1)]
    if kind == 3:
        return [(0, j) for j in range(1, s.n_stacks)]
    if kind == 4 and 1 in moves and s.box_rows >= 2:
        return [(0, 1)]
    return None


@lru_cache(maxsize=None)
def _move_labels(moves: tuple[int, ...], s: Shape, generators: bool) -> np.ndarray:
    bands = reduced_bands(s)
    src_parts, dst_parts = [], []
    for kind in moves:
        pairs = _generating_pairs(kind, moves, s) if generators else None
        src, images = _MOVES[kind](bands, s, pairs)
        if not len(src):
            continue  # e.g. no row swaps when R = 1
        src_parts.append(src)
        dst_parts.append(index_of_normalised(normalise_valid(images, s), s))
    if not src_parts:
        return np.arange(len(bands))
    return components(len(bands), np.concatenate(src_parts), np.concatenate(dst_parts))


def move_labels(shape: Shape | str, moves: Iterable[int] = ALL_MOVES,
                generators: bool = True) -> np.ndarray:
    """Index of the smallest reduced band in each reduced band's move class.

    Parameters
    ----------
    shape : Shape or str
        Box shape.
    moves : iterable of int
        The moves joining bands (default all five; a subset gives a finer
        partition, e.g. 416 classes for 3×3 under moves 1–3).
    generators : bool
        ``False`` uses every instance of every move instead of a generating
        subset (slower; for checks).

    Examples
    --------
    >>> labels = move_labels("3x3")
    >>> len(set(labels.tolist()))
    71
    """
    return _move_labels(check_moves(moves), as_shape(shape), bool(generators))


class MovesReduction(BandReduction):
    """Classes of reduced bands joined by the five moves ("71" for 3×3).

    Examples
    --------
    >>> r = MovesReduction("3x3")
    >>> r.name, r.n_units()
    ('71', 710)
    """

    kind = "moves"
    name_3x3 = "71"

    def labels(self) -> np.ndarray:
        return move_labels(self.shape, ALL_MOVES)
