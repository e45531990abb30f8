"""Essentially different grids under a kind's full symmetry group (small kinds).

The full group ``A`` (:mod:`.cover_automorphisms`) permutes the options of
the kind's exact cover and maps its solutions (the grids) onto solutions.
Burnside's lemma counts the orbits of grids:
``Σ_{g∈A} Fix(g) / |A|``, ``Fix(g)`` the grids ``g`` maps onto themselves.

Fix(g) by a quotient exact cover
--------------------------------
A grid ``S`` (a set of options) has ``g(S) = S`` exactly when it is a union
of orbits of ``⟨g⟩`` on the options.  An orbit can lie in a grid only when
its options cover pairwise different items (no item twice).  So the grids
fixed by ``g`` are the exact covers of the *quotient*: one option per such
orbit, covering the union of its options' items, with the same primary
(exactly once) and secondary (at most once) items.  Conjugate elements fix
equally many grids, so one quotient is counted per conjugacy class.

This is for small kinds only: ``A`` is listed element by element (at most
:data:`MAX_ELEMENTS`; its size must be the order of :func:`cover_group`, a
second check of that order) and its classes are found by conjugating with
the generators.  ``--up-to-symmetry`` still counts under today's group.

Example
-------
>>> full_orbit_count("2x2").orbits          # 4×4 Sudoku: 288 grids, 2 essentially different
2
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from counting.group.cover_automorphisms import CoverGraph, cover_graph, cover_group
from dlx.api import ExactCover
from grids.kind import GridKind, as_kind

__all__ = ["FullBurnside", "full_orbit_count", "group_elements", "element_classes", "fixed_grids",
           "Quotient", "quotient", "MAX_ELEMENTS"]

#: Most elements of the full group listed.
MAX_ELEMENTS = 200_000


def group_elements(generators, order: int) -> np.ndarray:
    """``(order, degree)``: every permutation the generators make, the
    identity first.  ValueError when ``order`` is over :data:`MAX_ELEMENTS`;
    ArithmeticError when the generators make another number of them."""
    if order > MAX_ELEMENTS:
        raise ValueError(f"the full group has {order:,} elements, more than the "
                         f"{MAX_ELEMENTS:,} listed")
    gens = [np.asarray(g, dtype=np.int64) for g in generators]
    degree = len(gens[0]) if gens else 1
    identity = np.arange(degree, dtype=np.int64)
    seen = {identity.tobytes()}
    out, frontier = [identity], [identity]
    while frontier and len(out) <= MAX_ELEMENTS:
        new = []
        for p in frontier:
            for g in gens:
                q = g[p]
                key = q.tobytes()
                if key not in seen:
                    seen.add(key)
                    new.append(q)
        out += new
        frontier = new
    if len(out) != order:
        raise ArithmeticError(f"the generators make {len(out):,} permutations, "
                              f"the order is {order:,}")
    return np.array(out)


def element_classes(elements: np.ndarray, generators) -> list[list[int]]:
    """Element indices by conjugacy class: orbits of ``g -> h g h⁻¹`` over
    the generators ``h`` (they generate the group, so these are the classes)."""
    index = {p.tobytes(): i for i, p in enumerate(elements)}
    parent = list(range(len(elements)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for h in (np.asarray(g, dtype=np.int64) for g in generators):
        h_inv = np.argsort(h)
        conj = h[elements[:, h_inv]]          # row i: h ∘ g_i ∘ h⁻¹
        for i, row in enumerate(conj):
            a, b = root(i), root(index[row.tobytes()])
            if a != b:
                parent[a] = b
    classes: dict[int, list[int]] = {}
    for i in range(len(elements)):
        classes.setdefault(root(i), []).append(i)
    return sorted(classes.values(), key=min)


@dataclass(frozen=True)
class Quotient:
    """The quotient exact cover by ``⟨perm⟩`` (module docstring): ``rows``
    (column lists, the primary columns ``0 .. n_primary - 1`` first) and
    each option's row (``row_of``, -1: its orbit covers some item twice).
    Items covered by the same rows are one column (they are covered
    together); a primary item no row covers is a column with no row, so
    the quotient has no cover."""

    rows: list
    n_primary: int
    n_secondary: int
    row_of: np.ndarray

    def count(self, **engine) -> int:
        """Its exact covers (``engine``: keywords of :meth:`dlx.api.ExactCover.count`)."""
        return self.cover().count(**engine) if self.rows else 0

    def cover(self) -> ExactCover:
        return ExactCover(self.rows, self.n_primary, self.n_secondary)


def quotient(options_items, perm, primary) -> Quotient:
    """The quotient by ``⟨perm⟩`` of the exact cover whose option ``o``
    covers the items ``options_items[o]`` (``primary[j]``: item ``j`` is
    covered exactly once, else at most once); ``perm`` permutes the options
    and maps the cover onto itself."""
    n_options = len(options_items)
    row_of = np.full(n_options, -1, dtype=np.int64)
    kept: list[list[int]] = []
    for start in range(n_options):
        if row_of[start] != -1:
            continue
        orbit, covered, o = [], [], start
        while not orbit or o != start:
            orbit.append(o)
            covered += list(options_items[o])
            o = int(perm[o])
        keep = len(set(covered)) == len(covered)        # the orbit covers no item twice
        row_of[orbit] = len(kept) if keep else -2
        if keep:
            kept.append(covered)
    row_of[row_of == -2] = -1
    holders: dict[int, list[int]] = {j: [] for j in range(len(primary))}
    for r, items in enumerate(kept):
        for j in items:
            holders[j].append(r)
    column: dict[tuple, int] = {}
    for want_primary in (True, False):
        for j, rows in holders.items():
            key = (want_primary, tuple(rows))
            if bool(primary[j]) == want_primary and key not in column and (rows or want_primary):
                column[key] = len(column)
    n_primary = sum(1 for p, _ in column if p)
    rows_out: list[set[int]] = [set() for _ in kept]
    for j, rows in holders.items():
        for r in rows:
            rows_out[r].add(column[(bool(primary[j]), tuple(rows))])
    return Quotient([sorted(r) for r in rows_out], n_primary, len(column) - n_primary, row_of)


def fixed_grids(graph: CoverGraph, perm) -> int:
    """The grids the option permutation ``perm`` maps onto themselves, as
    exact covers of the quotient by ``⟨perm⟩``'s orbits."""
    options_items: list[list[int]] = [[] for _ in range(graph.n_options)]
    for j, options in enumerate(graph.items):
        for o in options:
            options_items[o].append(j)
    return quotient(options_items, perm, graph.primary).count()


@dataclass(frozen=True)
class FullBurnside:
    """Burnside's sum over the full group: per class ``(size, Fix)``."""

    kind: GridKind
    order: int
    classes: tuple        # ((size, fixed grids), ...), the identity's first

    @property
    def total(self) -> int:
        return sum(size * fixed for size, fixed in self.classes)

    @property
    def orbits(self) -> int:
        """The essentially different grids; ArithmeticError if ``|A|`` does not divide the sum."""
        if self.total % self.order:
            raise ArithmeticError(f"{self.kind.name}: Σ |K|·Fix = {self.total:,} is not a "
                                  f"multiple of the order {self.order:,}")
        return self.total // self.order


@lru_cache(maxsize=32)
def full_orbit_count(kind) -> FullBurnside:
    """Burnside over the full group of ``kind`` (small kinds: see the module docstring)."""
    kind = as_kind(kind)
    group = cover_group(kind)
    graph = cover_graph(kind)
    elements = group_elements(group.generators, group.order)
    classes = element_classes(elements, group.generators)
    return FullBurnside(kind, group.order,
                        tuple((len(c), fixed_grids(graph, elements[c[0]])) for c in classes))
