"""Difference rules: named patterns of cell pairs that hold different digits.

``anti-king``
    Cells a king's move apart (touching, diagonals included) differ.
``anti-knight``
    Cells a knight's move apart differ.

Both apply to every shape (pairs already sharing a row, column or box are
listed too; they cost nothing).  :func:`difference_rule` is the factory
:mod:`grids.variants` registers.

Example
-------
>>> from grids.shape import Shape
>>> len(difference_rule("anti-king").differences(Shape(2, 2)))    # 42 touching pairs on 4×4
42
"""
from __future__ import annotations

from dataclasses import dataclass

from grids.shape import Shape

__all__ = ["DifferenceRule", "difference_rule", "DIFFERENCE_RULES", "pairs_at"]


def pairs_at(shape: Shape, steps) -> tuple[tuple[int, int], ...]:
    """Every pair of cells ``(a, b)``, ``a < b``, one of the ``(dr, dc)``
    steps apart (either sign)."""
    n = shape.n
    out = set()
    for r in range(n):
        for c in range(n):
            for dr, dc in steps:
                for sr, sc in ((dr, dc), (-dr, -dc), (dr, -dc), (-dr, dc)):
                    r2, c2 = r + sr, c + sc
                    if 0 <= r2 < n and 0 <= c2 < n and (r2, c2) != (r, c):
                        out.add(tuple(sorted((r * n + c, r2 * n + c2))))
    return tuple(sorted(out))


@dataclass(frozen=True)
class DifferenceRule:
    """A named pattern of moves; cells one move apart differ."""

    name: str
    steps: tuple  # (dr, dc) moves, each taken with every sign

    def applies_to(self, shape: Shape) -> str | None:
        return None

    def houses(self, shape: Shape) -> tuple:
        return ()

    def differences(self, shape: Shape) -> tuple[tuple[int, int], ...]:
        return pairs_at(shape, self.steps)


#: name -> rule; the one table of named difference rules
DIFFERENCE_RULES: dict[str, DifferenceRule] = {r.name: r for r in (
    DifferenceRule("anti-king", ((0, 1), (1, 0), (1, 1))),
    DifferenceRule("anti-knight", ((1, 2), (2, 1))),
)}


def difference_rule(name: str) -> DifferenceRule | None:
    """The named difference rule, or None (the factory for ``register_constraints``)."""
    return DIFFERENCE_RULES.get(name)
