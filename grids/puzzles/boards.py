"""Solving puzzles on candidate bit-boards (the fast path of :func:`solve_batch`).

A board keeps, for each cell, the digits still possible there as one 16-bit
mask; placing a digit clears it from the cell's peers, a cell left with one
digit is placed (naked single), and so is a digit left with one place in a
unit (hidden single); otherwise the search branches on a cell of fewest
candidates, on a copy of the board.  The kernel is C
(``grids/puzzles/_boards.h``) and runs a whole batch without the GIL.
Standard 9×9 puzzles (3×3 boxes) run on a dedicated kernel with the same
rules on band bit-boards (``_bands9.h``: one 27-bit word per digit and
band, so a row, box or column of a digit is a few word operations).

Every solution it reports is checked in the kernel (each unit holds every
digit once, every given is kept); a failed check is a ``RuntimeError``,
never a result.  Grids of at most :data:`MAX_DIGITS` digits; larger ones
are left to the exact-cover engine (:func:`grids.grid.solve_grids`).
"""
from __future__ import annotations

import numpy as np

from grids.puzzles import _boards
from grids.puzzles.plain import MAX_DIGITS, board_tables
from grids.shape import Shape

__all__ = ["MAX_DIGITS", "solve_boards"]


def solve_boards(shape: Shape, grids: np.ndarray, limit: int) -> tuple[np.ndarray, np.ndarray]:
    """``(counts, solutions)`` of an ``(m, N²)`` batch of ``shape`` (digits
    ``0..N``, 0 blank), as :func:`grids.grid.solve_grids` gives them:
    ``counts[k]`` solutions found, at most ``limit``, ``-1`` when two givens
    repeat a digit in a unit; the first solution found of each grid as a
    flat row, zeros when there is none.  The solutions are uint8 when the
    grids are (one byte a cell, solved without widening the batch), else
    int64.

    Example
    -------
    >>> from grids.grid import as_batch
    >>> counts, sols = solve_boards(Shape(2, 2), as_batch(["12..............",
    ...                                                     "11.............."]), 2)
    >>> counts.tolist(), bool(sols[1].any()), sols.dtype.name
    ([2, -1], False, 'int64')
    """
    n = shape.n
    if n > MAX_DIGITS:
        raise ValueError(f"the board solver takes grids of at most {MAX_DIGITS} digits, "
                         f"not {n}")
    if not 1 <= limit <= np.iinfo(np.int64).max:
        raise ValueError(f"limit must be >= 1, got {limit}")
    grids = np.asarray(grids)
    dtype = np.uint8 if grids.dtype == np.uint8 else np.int64
    arr = np.ascontiguousarray(grids, dtype=dtype)
    if arr.ndim != 2 or arr.shape[1] != shape.n_cells:
        raise ValueError(f"grids must have shape (m, {shape.n_cells}), got {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() > n):
        raise ValueError(f"digits must be in 0..{n}")
    counts = np.zeros(arr.shape[0], dtype=np.int64)
    sols = np.zeros(arr.shape, dtype=dtype)
    kernel = _boards.solve_batch_bytes if dtype is np.uint8 else _boards.solve_batch
    # the kernel reads flat buffers; the tables are grids.puzzles.plain's
    kernel(n, *board_tables(shape), arr.reshape(-1), int(limit), counts, sols.reshape(-1))
    return counts, sols
