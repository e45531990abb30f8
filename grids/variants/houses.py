"""Extra houses: named sets of ``N`` cells that hold every digit once.

Each rule here is a :class:`HouseRule`; :func:`house_rule` is the factory
:mod:`grids.variants` registers with :func:`grids.kind.register_constraints`.
Cells are numbered ``k = r·N + c`` (0-based) as everywhere in gridcount; the
positions below are written 1-based (``r2c5``), as puzzles print them.

``x``
    Both main diagonals (any ``N × N``, Latin shapes too: ``1x5+x`` are the
    diagonal Latin squares of order 5).
``disjoint``
    One house per position inside a box: the cells at the same place in
    every box (SudokuP; any shape with boxes, not a Latin one).
``windoku``
    Four windows, rows 2–4 and 6–8 × columns 2–4 and 6–8 (3×3 boxes only).
``centre``
    The centre cells of the boxes (odd box rows and columns, boxes).
``asterisk``
    r2c5 r3c3 r3c7 r5c2 r5c5 r5c8 r7c3 r7c7 r8c5 (9×9 grids).
``girandola``
    r1c1 r1c9 r2c5 r5c2 r5c5 r5c8 r8c5 r9c1 r9c9 (9×9 grids).

Example
-------
>>> from grids.shape import Shape
>>> house_rule("x").houses(Shape(1, 3))
((0, 4, 8), (2, 4, 6))
>>> house_rule("windoku").applies_to(Shape(2, 3))
'windoku windows are defined on 9×9 grids with 3×3 boxes only'
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from grids.shape import Shape

__all__ = ["HouseRule", "house_rule", "HOUSE_RULES"]


@dataclass(frozen=True)
class HouseRule:
    """A named rule of extra houses (see the module docstring).

    Attributes
    ----------
    name : str
        Its text after ``+`` in a kind.
    make : callable
        ``make(shape)``: the houses as tuples of cell indices.
    needs : callable
        ``needs(shape)``: None when the rule is defined on ``shape``, else why not.
    """

    name: str
    make: Callable[[Shape], tuple]
    needs: Callable[[Shape], "str | None"]

    def applies_to(self, shape: Shape) -> str | None:
        return self.needs(shape)

    def houses(self, shape: Shape) -> tuple[tuple[int, ...], ...]:
        return self.make(shape)

    def differences(self, shape: Shape) -> tuple[tuple[int, int], ...]:
        return ()


def _diagonals(s: Shape) -> tuple:
    n = s.n
    return (tuple(i * n + i for i in range(n)), tuple(i * n + n - 1 - i for i in range(n)))


def _disjoint(s: Shape) -> tuple:
    out = []
    for i in range(s.box_rows):
        for j in range(s.box_cols):
            out.append(tuple((r0 + i) * s.n + c0 + j
                             for r0, c0 in map(s.box_origin, range(s.n))))
    return tuple(out)


def _windows(s: Shape) -> tuple:
    return tuple(tuple(r * 9 + c for r in range(r0, r0 + 3) for c in range(c0, c0 + 3))
                 for r0 in (1, 5) for c0 in (1, 5))


def _centres(s: Shape) -> tuple:
    i, j = s.box_rows // 2, s.box_cols // 2
    return (tuple((r0 + i) * s.n + c0 + j for r0, c0 in map(s.box_origin, range(s.n))),)


def _named(text: str) -> Callable[[Shape], tuple]:
    """A house of 1-based ``rRcC`` names separated by spaces."""
    def make(s: Shape) -> tuple:
        cells = []
        for word in text.split():
            r, c = word[1:].split("c")
            cells.append((int(r) - 1) * s.n + int(c) - 1)
        return (tuple(sorted(cells)),)
    return make


def _any(s: Shape) -> str | None:
    return None


def _boxes(s: Shape) -> str | None:
    return "a Latin square has no boxes" if s.latin else None


def _odd_boxes(s: Shape) -> str | None:
    if s.latin:
        return "a Latin square has no boxes"
    if s.box_rows % 2 == 0 or s.box_cols % 2 == 0:
        return "boxes have a centre cell only with odd box rows and columns"
    return None


def _three_by_three(s: Shape) -> str | None:
    if (s.box_rows, s.box_cols) != (3, 3):
        return "windoku windows are defined on 9×9 grids with 3×3 boxes only"
    return None


def _nine(s: Shape) -> str | None:
    return None if s.n == 9 else f"defined on 9×9 grids only, not {s.n}×{s.n}"


#: name -> rule; the one table of named extra houses
HOUSE_RULES: dict[str, HouseRule] = {r.name: r for r in (
    HouseRule("x", _diagonals, _any),
    HouseRule("disjoint", _disjoint, _boxes),
    HouseRule("windoku", _windows, _three_by_three),
    HouseRule("centre", _centres, _odd_boxes),
    HouseRule("asterisk", _named("r2c5 r3c3 r3c7 r5c2 r5c5 r5c8 r7c3 r7c7 r8c5"), _nine),
    HouseRule("girandola", _named("r1c1 r1c9 r2c5 r5c2 r5c5 r5c8 r8c5 r9c1 r9c9"), _nine),
)}


def house_rule(name: str) -> HouseRule | None:
    """The named house rule, or None (the factory for ``register_constraints``)."""
    return HOUSE_RULES.get(name)
