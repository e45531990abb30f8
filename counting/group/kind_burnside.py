"""Essentially different grids of a grid kind: Burnside's lemma over the kind's group.

For a kind with extra rules (:mod:`grids.kind`: ``3x3+x``, ``2x3+disjoint``,
a jigsaw), two grids are essentially the same when one becomes the other by
an element of the kind's group ``H`` (:mod:`.kind_group`: the elements of the
shape's group G that keep the kind's rules) followed by a relabelling of the
digits.  The argument of :mod:`.burnside` holds word for word with ``H`` in
place of G (it only uses that the group maps grids to grids and commutes with
relabelling):

    E = 1/|H| · Σ_{h ∈ H} A(h) = 1/|H| · Σ_{classes K of H} |K|·A(h_K),

``A(h)`` the grids with a standard unit that ``h`` fixes up to relabelling,
counted by :func:`counting.group.fixed.count_fixed` on the kind (its exact
cover has the kind's houses and difference pairs, and the symmetries it
uses to save work are taken from ``H``).  The conjugacy classes are those of
``H``, not of G: an element's class in G may leave ``H``.  They are found
here by conjugating on cells (``H`` has at most a few thousand elements).

A unit is one (class, relabelling type) pair that can fix a grid, a
:class:`~counting.group.burnside.SymmetryUnit` whose ``shape`` is the kind's
text; the identity (class 0) fixes every grid: ``A(id)`` is the kind's grid
count over ``N!``, counted here only for grids of side at most
:data:`~counting.group.burnside.MAX_SEARCHED_IDENTITY`.

Example
-------
>>> from counting.group.kind_burnside import kind_symmetry_units, kind_count_unit
>>> units = kind_symmetry_units("2x2+x")
>>> kind_essentially_different("2x2+x", {u.unit_id: kind_count_unit(u).count for u in units})
1
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping

import numpy as np

from counting.group.burnside import (MAX_SEARCHED_IDENTITY, ClassRow, SymmetryUnit,
                                     relabelling_types_in_order)
from counting.group.fixed import FixedCount, count_fixed, relabelling_types
from counting.group.kind_group import kind_group
from counting.group.symmetries import Symmetry
from counting.options import CountOptions
from grids.kind import as_kind

__all__ = ["KindClass", "kind_classes", "kind_symmetry_units", "kind_count_unit",
           "kind_identity_fixed", "kind_burnside_table", "kind_essentially_different", "REDUCTION"]

#: The stored name of these units' reduction (as for plain shapes).
REDUCTION = "symmetry"


@dataclass(frozen=True)
class KindClass:
    """A conjugacy class of the kind's group: its position, size and first element."""

    class_id: int
    size: int
    representative: Symmetry

    @property
    def label(self) -> str:
        return self.representative.describe()


@lru_cache(maxsize=32)
def kind_classes(kind) -> tuple[KindClass, ...]:
    """The conjugacy classes of the kind's group ``H``, the identity's first,
    then in the order of their first element in ``H``'s list."""
    group = kind_group(as_kind(kind))
    perms = group.cell_permutations
    index = {p.tobytes(): i for i, p in enumerate(perms)}
    inverses = np.argsort(perms, axis=1)
    seen = np.zeros(len(perms), dtype=bool)
    out = []
    for i in range(len(perms)):
        if seen[i]:
            continue
        # h g h⁻¹ on cells: c -> h(g(h⁻¹(c))), for every h at once
        conj = np.take_along_axis(perms, perms[i][inverses], axis=1)
        members = {index[row.tobytes()] for row in conj}
        seen[list(members)] = True
        out.append(KindClass(len(out), len(members), group.elements[i]))
    if sum(c.size for c in out) != len(perms):
        raise ArithmeticError(f"the classes of {group.kind.name} do not partition its group")
    return tuple(out)


def kind_symmetry_units(kind) -> list[SymmetryUnit]:
    """Every unit of ``kind``, by unit id (identity first)."""
    return list(_units(as_kind(kind).name))


@lru_cache(maxsize=32)
def _units(name: str) -> tuple[SymmetryUnit, ...]:
    kind = as_kind(name)
    types = relabelling_types_in_order(kind.shape.n)
    type_id = {t: i for i, t in enumerate(types)}
    out = []
    for cls in kind_classes(name):
        g = cls.representative
        for t in sorted(relabelling_types(kind, g), key=type_id.get):
            out.append(SymmetryUnit(name, REDUCTION, len(out), cls.class_id, type_id[t],
                                    cls.size, g.rows, g.cols, g.transpose, t))
    return tuple(out)


def kind_identity_fixed(kind, grid_total: int) -> int:
    """``A(id) = grid_total / N!``, checking that ``N!`` divides it (a kind
    with no grid has ``A(id) = 0``)."""
    kind = as_kind(kind)
    if isinstance(grid_total, bool) or not isinstance(grid_total, int) or grid_total < 0:
        raise ValueError(f"grid total must be a non-negative integer, got {grid_total!r}")
    q, r = divmod(grid_total, math.factorial(kind.shape.n))
    if r:
        raise ValueError(f"grid total {grid_total:,} of {kind.name} is not a multiple of "
                         f"{kind.shape.n}! (relabelling acts freely): not a grid count")
    return q


def kind_count_unit(unit: SymmetryUnit, options: CountOptions | None = None, *,
                    grid_total: int | None = None) -> FixedCount:
    """``A_t(h)`` of one unit (``.count``); the identity's from ``grid_total``
    when given (no search), else counted (grids of side at most 6 only)."""
    kind = as_kind(unit.shape)
    if unit.is_identity and grid_total is not None:
        return FixedCount(kind_identity_fixed(kind, grid_total), "grid count", 1, 1, 0, 0, 0.0)
    if unit.is_identity and kind.shape.n > MAX_SEARCHED_IDENTITY:
        raise ValueError(f"the identity of {kind.name} fixes every grid: its count is the "
                         f"grid count / {kind.shape.n}!, pass grid_total (from the grid count)")
    return count_fixed(kind, unit.symmetry, unit.pi_type, options)


def _checked(kind, fixed: Mapping[int, int]) -> dict[int, int]:
    ids = {u.unit_id for u in kind_symmetry_units(kind)}
    if set(fixed) != ids:
        missing, extra = sorted(ids - set(fixed)), sorted(set(fixed) - ids)
        raise ValueError(f"units of {as_kind(kind).name}: {len(missing)} without a count"
                         f"{f' (first: {missing[0]})' if missing else ''}, "
                         f"{len(extra)} unknown{f' (first: {extra[0]})' if extra else ''}")
    for u, v in fixed.items():
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"unit {u}: count must be a non-negative integer, got {v!r}")
    return dict(fixed)


def kind_burnside_table(kind, fixed: Mapping[int, int]) -> list[ClassRow]:
    """Per class with units: size, ``A = Σ_t A_t`` and the representative."""
    fixed = _checked(kind, fixed)
    per_class: dict[int, int] = {}
    for u in kind_symmetry_units(kind):
        per_class[u.class_id] = per_class.get(u.class_id, 0) + fixed[u.unit_id]
    classes = kind_classes(as_kind(kind).name)
    return [ClassRow(k, classes[k].size, a, classes[k].label, classes[k].label)
            for k, a in sorted(per_class.items())]


def kind_essentially_different(kind, fixed: Mapping[int, int]) -> int:
    """``Σ size·A / |H|``, exact; ``ArithmeticError`` if ``|H|`` does not divide it."""
    order = kind_group(as_kind(kind)).geometric_order
    numerator = sum(row.weighted for row in kind_burnside_table(kind, fixed))
    q, r = divmod(numerator, order)
    if r:
        raise ArithmeticError(f"Σ size·A = {numerator:,} is not a multiple of |H| = {order:,}: "
                              f"some unit count is wrong")
    return q
