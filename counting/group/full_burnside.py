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
           "MAX_ELEMENTS"]

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


def fixed_grids(graph: CoverGraph, perm) -> int:
    """The grids the option permutation ``perm`` maps onto themselves, as
    exact covers of the quotient by ``⟨perm⟩``'s orbits."""
    options_items: list[list[int]] = [[] for _ in range(graph.n_options)]
    primary = [j for j, p in enumerate(graph.primary) if p]
    secondary = [j for j, p in enumerate(graph.primary) if not p]
    column = {j: c for c, j in enumerate(primary + secondary)}
    for j, options in enumerate(graph.items):
        for o in options:
            options_items[o].append(column[j])
    seen = [False] * graph.n_options
    rows = []
    for start in range(graph.n_options):
        if seen[start]:
            continue
        covered: list[int] = []
        o = start
        while not seen[o]:
            seen[o] = True
            covered += options_items[o]
            o = int(perm[o])
        if len(set(covered)) == len(covered):       # the orbit covers no item twice
            rows.append(sorted(covered))
    if not rows:
        return 0
    return ExactCover(rows, len(primary), len(secondary)).count()


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
