"""Basic fish: X-Wing (2), Swordfish (3), Jellyfish (4).

For one digit, take ``size`` rows in which the digit's candidates all lie in
the same ``size`` columns.  Each of those rows holds the digit once, in one
of those columns, and no two in the same column, so the rows use up the
digit of every one of the columns: it is removed from the columns' other
cells.  The same with rows and columns exchanged.
"""
from __future__ import annotations

from itertools import combinations

from grids.puzzles.geometry import Deduction, Geometry, popcount

__all__ = ["FISH", "find_fish", "x_wing", "swordfish", "jellyfish"]

#: The fish of each size, by name.
FISH = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}


def _indices(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def find_fish(g: Geometry, cand: list[int], size: int) -> Deduction | None:
    """The first fish of ``size`` that removes a candidate, or ``None``."""
    n = g.n
    if 2 * size > n:
        return None
    for d in range(1, n + 1):
        bit = 1 << (d - 1)
        for by_rows in (True, False):
            def cell(base: int, cover: int) -> int:
                return base * n + cover if by_rows else cover * n + base
            lines = []
            for i in range(n):
                m = 0
                for j in range(n):
                    if cand[cell(i, j)] & bit:
                        m |= 1 << j
                if m and popcount(m) <= size:
                    lines.append((i, m))
            for combo in combinations(lines, size):
                union = 0
                for _, m in combo:
                    union |= m
                if popcount(union) != size:
                    continue
                base = {i for i, _ in combo}
                covers = _indices(union)
                elims = tuple((cell(i, j), d) for j in covers for i in range(n)
                              if i not in base and cand[cell(i, j)] & bit)
                if elims:
                    a, b = ("rows", "columns") if by_rows else ("columns", "rows")
                    why = (f"{FISH[size]} on {g.sym(d)}: {a} "
                           f"{','.join(str(i + 1) for i in sorted(base))} × {b} "
                           f"{','.join(str(j + 1) for j in covers)}")
                    return Deduction(FISH[size], elims, why)
    return None


def x_wing(g: Geometry, cand: list[int]) -> Deduction | None:
    """An X-Wing: two rows whose candidates for a digit lie in two columns (or
    two columns in two rows)."""
    return find_fish(g, cand, 2)


def swordfish(g: Geometry, cand: list[int]) -> Deduction | None:
    """A Swordfish: three rows in three columns (or the reverse)."""
    return find_fish(g, cand, 3)


def jellyfish(g: Geometry, cand: list[int]) -> Deduction | None:
    """A Jellyfish: four rows in four columns (or the reverse)."""
    return find_fish(g, cand, 4)
