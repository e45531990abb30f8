"""Oracle helpers of the full-group tests (test_split_burnside.py,
test_full_terms.py, test_cli_count_group.py): the full group's cell moves and
the grids of a 6×6 kind.

The moves are the cell parts of nauty's generators (checked to be the kind's
automorphisms by tests/counting/group/test_cover_automorphisms.py); the grids
come from the plain Sudoku encoding with a kind's extra houses checked on
them by tests/variant_samples.py's definitions, not from the code under test.
"""
from __future__ import annotations

import numpy as np

from variant_samples import kind_parts


def cell_moves(kind: str) -> list[tuple[int, ...]]:
    """The cell parts of nauty's generators of the full group."""
    from counting.group.cover_automorphisms import cover_group

    g = cover_group(kind)
    return [g.cells_and_digits(i)[0] for i in range(len(g.generators))]


def kind_grids(kind: str, standard_grids) -> np.ndarray:
    """The grids of a 6×6 kind with box 1 standard: the plain grids
    (``standard_grids``, the fixture of tests/counting/group/conftest.py)
    that keep its extra houses and its difference pairs (anti-king,
    anti-knight: the two cells hold different digits)."""
    head = kind.split("+")[0]
    R, C, houses, pairs = kind_parts(kind)
    n = R * C
    grids = standard_grids(head)
    extra = [[r * n + c for r, c in h] for h in houses[3 * n:]]
    ok = np.ones(len(grids), dtype=bool)
    for cells in extra:
        ok &= (np.sort(grids[:, cells], axis=1) == np.arange(1, n + 1)).all(axis=1)
    for (r1, c1), (r2, c2) in pairs:
        ok &= grids[:, r1 * n + c1] != grids[:, r2 * n + c2]
    return grids[ok]
