"""Essentially different grids under a kind's full group, when it splits into cells × relabelling.

The full group ``A`` of a kind (:mod:`.cover_automorphisms`) permutes the
options of its exact cover.  For SudokuP (``3x3+disjoint``, 10,368 × 9!)
and Windoku (``3x3+windoku``, 256 × 9!) every generator nauty finds moves
cells and relabels digits separately (option ``(k, d)`` to ``(p(k), q(d))``,
:meth:`~.cover_automorphisms.CoverGroup.cells_and_digits`).  Then ``A`` lies
in ``Sym(cells) × S_N``; it contains ``1 × S_N`` (relabelling keeps every
kind), so ``A = C × S_N`` with ``C`` the group of the cell parts, of order
``|A| / N!``.  Each ``(p, 1)`` is in ``A``, so each cell permutation ``p`` of
``C`` maps the grids onto grids, whatever it does to the houses (SudokuP's
exchanges rows with boxes, Windoku's windows with implied houses).

The count
---------
:mod:`.burnside` derives ``E = 1/|H| · Σ_{classes K of H} |K|·A(h_K)`` for
today's group ``H × S_N``; the derivation only uses that the cell group maps
grids to grids and commutes with relabelling, so it holds word for word for
``C``:

    E = 1/|C| · Σ_{classes K of C} |K|·A(c_K),    A(c) = Σ_t A_t(c),

``A_t(c)`` the grids with a standard unit fixed by ``c`` with a relabelling
of cycle type ``t``.  ``C`` is small (10,368 and 256 cell permutations), so
it is listed (:func:`~.full_burnside.group_elements`, its size checked
against ``|A| / N!``) and its classes found by conjugating with the
generators (:func:`~.full_burnside.element_classes`).  ``A_t(c)`` is
:func:`~.fixed.count_fixed`, whose relabellings, exact cover and classes of
candidates hold for any cell permutation that maps grids to grids; the
symmetries it reduces by are the elements of ``C`` that commute with ``c``
and keep the standard unit (:meth:`SplitGroup.commuting`), not those of the
shape's geometric group ``G``.  The identity's ``A`` is the grid count / N!,
passed in (``grid_total``) beyond 6×6 as for :func:`.burnside.count_unit`.

A class representative is an element that maps a row, column or box onto
itself when the class has one (the relabelling is then forced), else the
class's first element.

A kind whose full group mixes cells with digits (Latin squares: paratopy
exchanges rows, columns and digits) is refused with ``ValueError``;
:mod:`.full_burnside` counts the small ones.

Example
-------
>>> split_orbit_count("2x2+disjoint").orbits   # 4×4 SudokuP: 3,072 = 128 × 4! symmetries
3
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Mapping

import numpy as np

from counting.group.burnside import (MAX_SEARCHED_IDENTITY, identity_fixed, symmetry_units,
                                     type_label)
from counting.group.cover import SAMPLE, Commuting
from counting.group.cover_automorphisms import cover_group
from counting.group.fixed import count_fixed, relabelling_types
from counting.group.full_burnside import element_classes, group_elements
from counting.group.permutations import cycle_type
from counting.options import CountOptions
from grids.kind import GridKind, as_kind

__all__ = ["CellSymmetry", "SplitClass", "SplitGroup", "SplitTerm", "SplitBurnside",
           "split_group", "split_units", "count_split_unit", "split_orbit_count",
           "disagreements_with_today"]


@dataclass(frozen=True)
class CellSymmetry:
    """An element of a kind's cell group ``C``: ``cells[k]`` is the image of cell ``k``."""

    cells: tuple[int, ...]

    def cell_permutation(self) -> np.ndarray:
        """``perm[k]``: the cell that cell ``k`` goes to (int64, length N²)."""
        return np.asarray(self.cells, dtype=np.int64)

    def describe(self) -> str:
        """Its cycle type on the cells, e.g. ``cells 2^36 1^9``."""
        return "cells " + type_label(cycle_type(self.cells))


@dataclass(frozen=True)
class SplitClass:
    """A conjugacy class of ``C``: its position, size and representative."""

    class_id: int
    size: int
    representative: CellSymmetry

    @property
    def label(self) -> str:
        return self.representative.describe()


@dataclass(frozen=True)
class SplitGroup:
    """The cell group ``C`` of a kind whose full group is ``C × S_N``.

    Attributes
    ----------
    kind : GridKind
    elements : ndarray
        ``(|C|, N²)``: every cell permutation, the identity first.
    classes : tuple of SplitClass
        The conjugacy classes, the identity's first.
    class_index : dict
        Each element (``int64`` bytes) to its ``class_id``.
    """

    kind: GridKind
    elements: np.ndarray
    classes: tuple
    class_index: dict = field(repr=False, compare=False)   # element bytes -> class_id

    @property
    def order(self) -> int:
        """``|C|`` (the full group has ``|C|·N!`` elements)."""
        return len(self.elements)

    def class_of(self, perm) -> int:
        """The ``class_id`` of the class holding the cell permutation ``perm``;
        ``ValueError`` when ``perm`` is not in ``C``."""
        key = np.asarray(perm, dtype=np.int64).tobytes()
        if key not in self.class_index:
            raise ValueError(f"the cell permutation is not in the full group of {self.kind.name}")
        return self.class_index[key]

    def commuting(self, perm: np.ndarray, unit: list[int],
                  limit: int = SAMPLE) -> list[Commuting]:
        """Elements ``h`` of ``C`` with ``h∘g = g∘h`` (``g`` = ``perm``) that
        map ``unit`` (its cells in reading order) onto itself, with their
        ``σ_h``; at most ``limit`` (a fixed sample when there are more)."""
        e = self.elements
        perm = np.asarray(perm, dtype=np.int64)
        cells = np.sort(np.asarray(unit, dtype=np.int64))
        keep = (e[:, perm] == perm[e]).all(axis=1) & \
            (np.sort(e[:, cells], axis=1) == cells).all(axis=1)
        found = np.flatnonzero(keep)
        if len(found) > limit:
            found = np.sort(np.random.default_rng(0).choice(found, size=limit, replace=False))
        return [Commuting.of(e[i], unit) for i in found]


def _keeps_a_unit(kind: GridKind, elements: np.ndarray) -> np.ndarray:
    """Per element: whether it maps some row, column or box (the units
    :func:`~.fixed.standard_unit` can make standard) onto itself."""
    s = kind.shape
    units = [s.row_cells, s.column_cells] + ([] if kind.regions() is not None else [s.box_cells])
    out = np.zeros(len(elements), dtype=bool)
    for group in units:
        for cells in group:
            cells = np.sort(np.asarray(cells, dtype=np.int64))
            out |= (np.sort(elements[:, cells], axis=1) == cells).all(axis=1)
    return out


def split_group(kind) -> SplitGroup:
    """The cell group of ``kind`` (needs pynauty).  ``ValueError`` in one
    line when its full group does not split into cells × relabelling;
    ``ArithmeticError`` when the cell parts do not make ``|A| / N!`` permutations."""
    return _split_group(as_kind(kind).name)


@lru_cache(maxsize=16)
def _split_group(name: str) -> SplitGroup:
    kind = as_kind(name)
    full = cover_group(kind)
    n = kind.shape.n
    cell_generators = []
    for i in range(len(full.generators)):
        parts = full.cells_and_digits(i)
        if parts is None:
            raise ValueError(f"the full group of {kind.name} does not split into cells × "
                             f"relabelling: nauty's generator {i + 1} mixes cells with digits")
        if parts[0] != tuple(range(n * n)) and parts[0] not in cell_generators:
            cell_generators.append(parts[0])
    order, rest = divmod(full.order, math.factorial(n))
    if rest:
        raise ArithmeticError(f"{kind.name}: the full group's order {full.order:,} is not "
                              f"a multiple of {n}!")
    if not cell_generators:             # the 1×1 grid: one option, nothing to move
        cell_generators = [tuple(range(n * n))]
    elements = group_elements(cell_generators, order)
    keeps = _keeps_a_unit(kind, elements)
    classes, index = [], {}
    for members in element_classes(elements, cell_generators):
        best = next((i for i in members if keeps[i]), members[0])
        rep = CellSymmetry(tuple(int(v) for v in elements[best]))
        index.update((elements[i].tobytes(), len(classes)) for i in members)
        classes.append(SplitClass(len(classes), len(members), rep))
    elements.flags.writeable = False
    return SplitGroup(kind, elements, tuple(classes), index)


@dataclass(frozen=True)
class SplitTerm:
    """One term of Burnside's sum: ``A_t`` of a class representative.

    ``fixed`` is ``A_t(c)``; the identity's comes from the grid count
    (``searches`` 0) beyond :data:`~.burnside.MAX_SEARCHED_IDENTITY`;
    ``nodes``, ``dead_ends`` and ``memo_hits`` are the engine's figures of
    every search the term ran (:attr:`~.fixed.FixedCount.nodes`).
    """

    class_id: int
    size: int
    pi_type: tuple[int, ...]
    fixed: int
    searches: int
    nodes: int
    seconds: float
    dead_ends: int = 0
    memo_hits: int = 0


def split_units(kind) -> list[tuple[SplitClass, tuple[int, ...]]]:
    """``(class, relabelling type)`` of every term that can be non-zero
    (:func:`~.fixed.relabelling_types`), classes in order, types from ``1^N``."""
    group = split_group(kind)
    out = []
    for cls in group.classes:
        types = relabelling_types(group.kind, cls.representative)
        out += [(cls, t) for t in sorted(types, key=lambda t: (-len(t), t))]
    return out


def count_split_unit(kind, cls: SplitClass, pi_type: tuple[int, ...],
                     options: CountOptions | None = None, *,
                     grid_total: int | None = None) -> SplitTerm:
    """``A_t`` of the class ``cls`` for ``t = pi_type``.

    The identity needs ``grid_total`` (the kind's number of grids) unless
    the grid side is at most :data:`~.burnside.MAX_SEARCHED_IDENTITY`;
    ``ValueError`` in one line when it is missing.
    """
    group = split_group(kind)
    n = group.kind.shape.n
    t0 = time.perf_counter()
    if cls.class_id == 0 and grid_total is not None:
        return SplitTerm(0, 1, pi_type, identity_fixed(group.kind, grid_total), 0, 0, 0.0)
    if cls.class_id == 0 and n > MAX_SEARCHED_IDENTITY:
        raise ValueError(f"the identity of {group.kind.name} fixes every grid: its count is "
                         f"the grid count / {n}!, pass grid_total (from the grid count)")
    g = cls.representative
    perm = g.cell_permutation()
    fc = count_fixed(group.kind, g, pi_type, options,
                     commuting=lambda unit: group.commuting(perm, unit))
    return SplitTerm(cls.class_id, cls.size, pi_type, fc.count, fc.searches, fc.nodes,
                     time.perf_counter() - t0, fc.dead_ends, fc.memo_hits)


@dataclass(frozen=True)
class SplitBurnside:
    """Burnside's sum over ``C × S_N``: one :class:`SplitTerm` per unit."""

    kind: GridKind
    order: int
    terms: tuple

    @property
    def total(self) -> int:
        """``Σ |K|·A_t``."""
        return sum(t.size * t.fixed for t in self.terms)

    @property
    def full_order(self) -> int:
        """``|C|·N!``, the full group's order."""
        return self.order * math.factorial(self.kind.shape.n)

    @property
    def orbits(self) -> int:
        """The essentially different grids; ``ArithmeticError`` if ``|C|``
        does not divide the sum (a wrong count somewhere)."""
        q, r = divmod(self.total, self.order)
        if r:
            raise ArithmeticError(f"{self.kind.name}: Σ |K|·A = {self.total:,} is not a "
                                  f"multiple of |C| = {self.order:,}: some count is wrong")
        return q


def split_orbit_count(kind, options: CountOptions | None = None, *,
                      grid_total: int | None = None,
                      progress: Callable[[SplitTerm], None] | None = None) -> SplitBurnside:
    """The essentially different grids of ``kind`` under its full group
    (see the module docstring); ``progress`` is called with each term as it
    is counted."""
    group = split_group(kind)
    terms = []
    for cls, t in split_units(group.kind):
        term = count_split_unit(group.kind, cls, t, options, grid_total=grid_total)
        if progress is not None:
            progress(term)
        terms.append(term)
    return SplitBurnside(group.kind, group.order, tuple(terms))


def disagreements_with_today(kind, terms, today: Mapping[int, int]) -> list[str]:
    """Where ``terms`` (:class:`SplitTerm`) and today's group's unit counts
    disagree, one line each (empty: they agree).

    ``today`` maps the unit ids of :func:`~.burnside.symmetry_units` (the
    classes of today's group ``H``, a subgroup of ``C``) to their counts,
    e.g. from a store of ``count KIND --up-to-symmetry``.  ``A_t`` is constant
    on a class of ``C``, so each unit of ``H`` must count what the term of
    the ``C``-class holding its representative counts for the same
    relabelling type (0 when there is no such term: its type was ruled out).
    Each class of ``C`` that meets ``H`` is so counted twice, by other
    elements, other standard units and other exact covers.
    """
    group = split_group(kind)
    mine = {(t.class_id, t.pi_type): t.fixed for t in terms}
    out = []
    for u in symmetry_units(group.kind):
        if u.unit_id not in today:
            continue
        class_id = group.class_of(u.symmetry.cell_permutation())
        expected = mine.get((class_id, u.pi_type), 0)
        if today[u.unit_id] != expected:
            out.append(f"unit {u.unit_id} ({u.symmetry.describe()}, π {type_label(u.pi_type)}) "
                       f"counts {today[u.unit_id]:,}, class {class_id} of the full group "
                       f"{expected:,}")
    return out
