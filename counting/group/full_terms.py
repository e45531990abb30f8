"""Burnside's terms under a kind's full group, as work units: ``--group full``.

``gridcount count KIND --up-to-symmetry --group full`` counts the
essentially different grids under the kind's full group (the automorphisms
of its exact cover, :mod:`.cover_automorphisms`) where that group is
``C × S_N``, cells × relabelling (:mod:`.split_burnside` derives the sum
``E = 1/|C| · Σ_{classes K of C} |K|·A_t(c_K)``).  This module lists that
sum's terms as units a store and the pools can handle (:class:`FullUnit`,
one per class of ``C`` and relabelling type that can fix a grid, unit 0 the
identity) and counts one (:func:`count_full_unit`).

Two cases, decided from the group's order alone:

* ``|C|`` equals the order of today's group ``H`` (``G`` for a plain kind:
  9×9's 3,359,232): today's group is all of ``C`` (it is a subgroup, each of
  its class representatives being checked to keep the exact cover,
  :func:`.cover_automorphisms.today_joined`, and they generate it).  The
  terms are then today's units (:func:`.burnside.symmetry_units`), the same
  classes, types and ids, counted the same way; listing ``C`` (3.4 million
  permutations of 81 cells for 9×9) would add nothing.
* ``C`` is larger (SudokuP: 4 times ``H``): ``C`` is listed and its classes
  found (:func:`.split_burnside.split_group`, up to
  :data:`.full_burnside.MAX_ELEMENTS` elements) and each term is counted by
  :func:`.split_burnside.count_split_unit`.

A kind whose full group mixes cells with digits (Latin squares: paratopy),
or whose ``C`` is too large to list, is refused in one line
(:class:`FullGroupRefused`, :func:`refusal`).

The identity's term is the grid count / N! beyond 6×6, recorded from the
grid count's store exactly as for today's group (:mod:`counting.plan`).

Example
-------
>>> t = full_terms("2x2+disjoint")               # 4×4 SudokuP
>>> t.order, t.same_as_today, t.units[0].is_identity
(128, False, True)
>>> sum(u.size * count_full_unit(u).fixed for u in t.units) // t.order
3
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from counting.group import burnside
from counting.group.burnside import BurnsideTerm, relabelling_types_in_order, type_label
from counting.group.cover_automorphisms import cover_group, nauty_missing, today_joined
from counting.group.fixed import count_fixed
from counting.group.full_burnside import MAX_ELEMENTS
from counting.group.permutations import cycle_type
from counting.group.split_burnside import (CellSymmetry, SplitTerm, count_split_unit,
                                           split_group, split_units)
from counting.options import CountOptions
from counting.units import WorkUnit
from grids.kind import GridKind, as_kind

__all__ = ["REDUCTION", "FullUnit", "FullClass", "FullTerms", "FullGroupRefused", "full_terms",
           "refusal", "count_full_unit", "recount_full_unit"]

#: The stored name of the reduction whose units these are (``--group full``).
REDUCTION = "symmetry-full"


class FullGroupRefused(ValueError):
    """A kind ``--group full`` cannot count (one line: why)."""


@dataclass(frozen=True)
class FullUnit(BurnsideTerm, WorkUnit):
    """One term: ``A_t(c)`` of a class representative ``c`` of ``C`` and a type ``t``.

    ``class_id`` is the class's position among the classes of ``C`` (0 the
    identity), ``form_id`` the type's position in
    :func:`~.burnside.relabelling_types_in_order`, ``weight`` the class size.

    Attributes
    ----------
    cells : tuple of int
        The representative: cell ``k`` goes to ``cells[k]``.
    pi_type : tuple of int
        The relabelling's cycle type, a partition of N, largest first.
    """

    cells: tuple[int, ...] = ()
    pi_type: tuple[int, ...] = ()

    def describe(self) -> str:
        """The representative by its cycle type on the cells, e.g. ``cells 2^36 1^9``."""
        return "cells " + type_label(cycle_type(self.cells))


@dataclass(frozen=True)
class FullClass:
    """A conjugacy class of ``C``: its id, size and words for it."""

    class_id: int
    size: int
    label: str
    representative: str


@dataclass(frozen=True)
class FullTerms:
    """The terms of Burnside's sum under the full group of ``kind``.

    ``order`` is ``|C|`` (the full group has ``|C|·N!`` elements);
    ``same_as_today``: ``C`` is today's group and the terms are its units.
    """

    kind: GridKind
    order: int
    same_as_today: bool
    classes: tuple
    units: tuple

    @property
    def full_order(self) -> int:
        """``|C|·N!``."""
        return self.order * math.factorial(self.kind.shape.n)


def full_terms(kind) -> FullTerms:
    """The terms of ``kind`` under its full group (module docstring);
    :class:`FullGroupRefused` when it is not cells × relabelling or ``C``
    is too large to list; ImportError without pynauty."""
    return _terms(as_kind(kind).name)


def refusal(kind) -> str | None:
    """Why ``--group full`` cannot count ``kind``, in one line; None when it can."""
    missing = nauty_missing()
    if missing is not None:
        return f"--group full needs nauty: {missing}"
    try:
        full_terms(kind)
    except FullGroupRefused as e:
        return str(e)
    return None


@lru_cache(maxsize=16)
def _terms(name: str) -> FullTerms:
    kind = as_kind(name)
    full = cover_group(kind)
    n = kind.shape.n
    for i in range(len(full.generators)):
        if full.cells_and_digits(i) is None:
            raise FullGroupRefused(
                f"the full group of {kind.name} does not split into cells × relabelling "
                f"(nauty's generator {i + 1} mixes cells with digits): --group full counts "
                f"only kinds whose full group does")
    order, rest = divmod(full.order, math.factorial(n))
    if rest:
        raise ArithmeticError(f"{kind.name}: the full group's order {full.order:,} is not "
                              f"a multiple of {n}!")
    today = burnside.burnside_group(kind)
    if order == today.order:
        today_joined(kind, [c.representative for c in today.classes[1:]])
        classes = tuple(FullClass(c.class_id, c.size, c.label, c.representative.describe())
                        for c in today.classes)
        units = tuple(FullUnit(name, REDUCTION, u.unit_id, u.class_id, u.form_id, u.weight,
                               tuple(int(v) for v in u.symmetry.cell_permutation()), u.pi_type)
                      for u in burnside.symmetry_units(kind))
        return FullTerms(kind, order, True, classes, units)
    if order > MAX_ELEMENTS:
        raise FullGroupRefused(
            f"the full group of {kind.name} has a cell part of {order:,} permutations "
            f"({order // today.order:,}× today's group), more than the {MAX_ELEMENTS:,} "
            f"--group full lists to find its classes")
    group = split_group(kind)
    type_id = {t: i for i, t in enumerate(relabelling_types_in_order(n))}
    classes = tuple(FullClass(c.class_id, c.size, c.label, c.label) for c in group.classes)
    pairs = sorted(split_units(kind), key=lambda ct: (ct[0].class_id, type_id[ct[1]]))
    units = tuple(FullUnit(name, REDUCTION, i, c.class_id, type_id[t], c.size,
                           c.representative.cells, t) for i, (c, t) in enumerate(pairs))
    return FullTerms(kind, order, False, classes, units)


def count_full_unit(unit: FullUnit, options: CountOptions | None = None, *,
                    grid_total: int | None = None) -> SplitTerm:
    """``A_t`` of one term: today's unit of the same id when ``C`` is
    today's group, else :func:`~.split_burnside.count_split_unit`.  The
    identity needs ``grid_total`` beyond 6×6 (ValueError in one line)."""
    terms = full_terms(unit.shape)
    if terms.same_as_today:
        today = burnside.symmetry_units(terms.kind)[unit.unit_id]
        r = burnside.count_unit(today, options, grid_total=grid_total)
        return SplitTerm(unit.class_id, unit.size, unit.pi_type, r.fixed, r.searches, r.nodes,
                         r.seconds, r.dead_ends, r.memo_hits)
    group = split_group(terms.kind)
    return count_split_unit(terms.kind, group.classes[unit.class_id], unit.pi_type, options,
                            grid_total=grid_total)


def recount_full_unit(unit: FullUnit, options: CountOptions | None = None) -> int | None:
    """``A_t`` of a term of a listed ``C`` counted for another element of
    its class (``A_t`` is constant on a class: other cells, other exact
    covers); None when the class has one element, or ``C`` is today's group
    (then today's recount applies: :mod:`counting.reduction.full_orbits`)."""
    terms = full_terms(unit.shape)
    if terms.same_as_today:
        return None
    group = split_group(terms.kind)
    rep = group.classes[unit.class_id].representative.cells
    for element in group.elements:
        cells = tuple(int(v) for v in element)
        if cells != rep and group.class_of(element) == unit.class_id:
            perm = CellSymmetry(cells).cell_permutation()
            return count_fixed(terms.kind, CellSymmetry(cells), unit.pi_type, options,
                               commuting=lambda u: group.commuting(perm, u)).count
    return None
