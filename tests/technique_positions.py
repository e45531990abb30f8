"""Hand-made candidate positions for the technique tests
(``tests/grids/puzzles/techniques/``): every cell of a 9×9 grid starts with
every candidate, and a test removes what makes its pattern."""
import re

from grids.puzzles.geometry import geometry
from grids.shape import Shape

GEO = geometry(Shape(3, 3))
FULL = (1 << 9) - 1


def cell(name: str) -> int:
    """``"r2c3"`` → flat cell index (row-major from 0), read here, not by the code under test."""
    r, c = map(int, re.fullmatch(r"r(\d)c(\d)", name).groups())
    return (r - 1) * 9 + (c - 1)


def full() -> list[int]:
    """Every candidate everywhere."""
    return [FULL] * 81


def keep_only(cand: list[int], digit: int, where: list[str], within: list[str]) -> None:
    """In the cells ``within``, leave ``digit`` only in the cells ``where``."""
    keep = {cell(x) for x in where}
    for k in map(cell, within):
        if k not in keep:
            cand[k] &= ~(1 << (digit - 1))


def row(r: int) -> list[str]:
    return [f"r{r}c{c}" for c in range(1, 10)]


def col(c: int) -> list[str]:
    return [f"r{r}c{c}" for r in range(1, 10)]


def set_cell(cand: list[int], name: str, digits: str) -> None:
    """The candidates of one cell, e.g. ``set_cell(cand, "r1c1", "12")``."""
    m = 0
    for d in digits:
        m |= 1 << (int(d) - 1)
    cand[cell(name)] = m


def removed(deduction) -> set[tuple[str, int]]:
    """A deduction's eliminations as ``{("r2c3", 4), ...}``."""
    return {(f"r{k // 9 + 1}c{k % 9 + 1}", d) for k, d in deduction.eliminations}
