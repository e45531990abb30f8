"""Independent checks for the reduction tests: band predicates and
brute-force counts that use no part of counting.reduction.

"Brute force" counts whole grids (or whole bands) with no symmetry
reduction at all: the engine on the plain encoding, or an exact cover of
one band built here.  SMALL_SHAPES are those small enough for that.

The literal numbers (36,288 reduced bands, 71 and 44 classes, …) are the
reference values of REDUCTION.md; the reductions compute them and never
type them in.
"""
from __future__ import annotations

import functools

import numpy as np

from dlx import ExactCover
from grids.shape import Shape
from grids.sudoku import Sudoku

SUDOKU = Shape(3, 3)
N_REDUCED = 36_288
N_CLASSES = {"71": 71, "44": 44}
DIGITS = np.arange(1, 10)
SMALL_SHAPES = ["1x1", "1x2", "2x1", "1x3", "3x1", "1x4", "4x1", "1x5", "5x1",
                "2x2", "2x3", "3x2"]


def is_valid_band(band: np.ndarray) -> bool:
    """Every row and every box of a 3×3 band holds 1..9 once."""
    rows_ok = all(sorted(row) == list(DIGITS) for row in band.tolist())
    boxes_ok = all(sorted(band[:, 3 * b:3 * b + 3].ravel().tolist()) == list(DIGITS)
                   for b in range(3))
    return rows_ok and boxes_ok


def is_reduced(band: np.ndarray) -> bool:
    """Box 1 is 123/456/789 and the band is lexicographically reduced."""
    row1 = band[0].tolist()
    return (
        band[:, :3].tolist() == [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
        and row1[3:6] == sorted(row1[3:6])
        and row1[6:9] == sorted(row1[6:9])
        and row1[3] < row1[6]
    )


def strictly_increasing_lexicographically(flat: np.ndarray) -> bool:
    """Consecutive rows of ``flat`` increase in lexicographic order."""
    a, b = flat[:-1].astype(int), flat[1:].astype(int)
    differ = a != b
    first = differ.argmax(axis=1)
    rows = np.arange(len(a))
    return bool(np.all(differ.any(axis=1)) and np.all(a[rows, first] < b[rows, first]))


def random_symmetry_of_reduction(band: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Apply a random element of the group that normalise() undoes:
    a digit relabelling, column orders inside boxes 2 and 3, and a box 2/3 swap.
    """
    relabel = np.concatenate([[0], rng.permutation(DIGITS)])
    cols = list(range(3))
    boxes = [3 + c for c in rng.permutation(3)], [6 + c for c in rng.permutation(3)]
    if rng.integers(2):
        boxes = boxes[::-1]
    return relabel[band[:, cols + boxes[0] + boxes[1]]]


def shape_of(name: str) -> tuple[int, int, int]:
    """``(R, C, N)`` of ``"RxC"``, read here without grids.shape."""
    r, c = (int(x) for x in name.split("x"))
    return r, c, r * c


@functools.lru_cache(maxsize=None)
def brute_force_grids(name: str) -> int:
    """Every grid of the shape, no reduction: plain dancing links for the
    smallest shapes, memoized row-by-row counting for 2x3 and 3x2 (plain
    DLX takes ~25 s there; a slow test does that too)."""
    r, c, n = shape_of(name)
    if n <= 5:
        return Sudoku(r, c).count()
    return Sudoku(r, c).exact_cover(priority="rows").count(memo=True)


def count_with(name: str, cells: dict[tuple[int, int], int]) -> int:
    """Completions of a partial grid given as {(row, col): digit}, plain DLX."""
    r, c, n = shape_of(name)
    sud = Sudoku(r, c)
    grid = np.zeros((n, n), dtype=int)
    for (i, j), d in cells.items():
        grid[i, j] = d
    return sud.count(grid)


def band_cells(band) -> dict[tuple[int, int], int]:
    return {(i, j): int(d) for i, row in enumerate(np.asarray(band).tolist())
            for j, d in enumerate(row)}


@functools.lru_cache(maxsize=None)
def brute_force_bands_with_box1_standard(name: str) -> int:
    """Bands (R rows) with box 1 = 1..N in reading order, by an exact cover
    of the band alone: items cell, row-digit and box-digit (inside a band a
    column lies in one box, so the box items cover the columns)."""
    r, c, n = shape_of(name)
    options, given = [], []
    for i in range(r):
        for j in range(n):
            for d in range(n):
                box = j // c
                options.append([i * n + j, r * n + i * n + d, 2 * r * n + box * n + d])
                if j < c and d == i * c + j:
                    given.append(len(options) - 1)
    return ExactCover(options, n_primary=3 * r * n).count(given=given)
