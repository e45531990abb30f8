"""6×6 kinds with one extra house of one cell per box, for the kind band tables' tests
(``tests/bandtables/test_kind_tables.py``, ``tests/counting/reduction/test_kind_band_tables.py``).

The 6×6 grids (boxes of 2 rows × 3 columns, the smallest the tables take) have no named
house of one cell per box (``centre`` needs odd boxes), so the tests make their own: a
house written as cells, as a test-only constraint (:func:`six`) or as a kind file's
``house`` line (:func:`six_kind_text`, for the command line), and brute force reads it
from the same cells (:func:`six_brute_total`).  The shapes are chosen so that the kind
keeps few or none of the plain column symmetries: a sum that used a symmetry the house
does not have would count another kind.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from grids.kind import GridKind
from grids.shape import as_shape
from variant_samples import basic_houses, brute_count


@dataclass(frozen=True)
class House:
    """One extra house given by its cells (a test-only constraint)."""
    name: str
    cells: tuple

    def applies_to(self, shape):
        return None

    def houses(self, shape):
        return (tuple(r * shape.n + c for r, c in self.cells),)

    def differences(self, shape):
        return ()


# one cell per 2x3 box, 0-based (row, column); names say what they keep
SIX_HOUSES = {
    "middles": ((0, 1), (0, 4), (2, 1), (2, 4), (4, 1), (4, 4)),        # keeps stack swaps
    "scattered": ((0, 0), (1, 5), (2, 1), (3, 3), (5, 2), (4, 4)),
    "two-rows": ((0, 0), (0, 4), (3, 2), (2, 5), (4, 1), (5, 3)),
}


def six(name: str) -> GridKind:
    """The 6×6 kind with the extra house ``SIX_HOUSES[name]``."""
    return GridKind(as_shape("2x3"), (House(name, SIX_HOUSES[name]),))


def six_kind_text(name: str) -> str:
    """The same house as a kind file (``gridcount count 2x3+@FILE``)."""
    return "house " + " ".join(f"r{r + 1}c{c + 1}" for r, c in SIX_HOUSES[name]) + "\n"


def six_brute_total(name: str) -> int:
    """Its grids by brute force: row 1 given as 1..6, times the 6! relabellings (a house
    is a house)."""
    houses = basic_houses(2, 3) + [list(SIX_HOUSES[name])]
    row1 = {(0, c): c + 1 for c in range(6)}
    return math.factorial(6) * brute_count(6, houses, (), row1)
