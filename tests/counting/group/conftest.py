"""Shared oracle of the symmetry tests: every grid with box 1 standard."""
from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from grids.shape import Shape
from grids.sudoku import Sudoku


@cache
def _standard_grids(name: str) -> np.ndarray:
    shape = Shape.parse(name)
    sud = Sudoku(shape.box_rows, shape.box_cols)
    n = shape.n
    given = [sud.row_index(int(c) // n, int(c) % n, d + 1)
             for d, c in enumerate(shape.box_cells[0])]
    out = []
    for rows in sud.exact_cover().solutions(given=given):
        grid = np.zeros(n * n, dtype=np.int64)
        for i in rows:
            r, c, d = sud.decode(i)
            grid[r * n + c] = d
        out.append(grid)
    out = np.asarray(out)
    out.flags.writeable = False
    return out


@pytest.fixture(scope="session")
def standard_grids():
    """``standard_grids("2x3")``: every grid with box 1 standard, ``(count, N²)``,
    digits 1..N, listed by the plain Sudoku encoding (``grids.sudoku``), not by
    the orbit options under test."""
    return _standard_grids
