"""A(g): the grids a symmetry fixes up to relabelling, counted by exact cover.

For an element ``g`` of G (:mod:`.group`), a grid ``X`` (a map cells →
digits) is *fixed up to relabelling* when ``X(g(c)) = π(X(c))`` for every
cell ``c`` and some relabelling ``π`` of the digits; at most one ``π`` can
do it (``X`` uses every digit).  :mod:`.burnside` needs

    A(g) = #{X with a standard unit : X fixed by g up to relabelling}
    A_t(g) = the same, with ``π`` of cycle type ``t``,  A(g) = Σ_t A_t(g).

A *standard unit* ``U`` (a row, column or box) holds ``1..N`` in reading
order.  Every grid has exactly one relabelling with ``U`` standard, and the
set of grids fixed by ``g`` up to relabelling is closed under relabelling
(``X∘g = π∘X`` gives ``σX∘g = (σπσ⁻¹)∘σX``), so ``A_t(g)`` is the number of
such grids with any ``π`` of type ``t``, divided by ``N!`` — the same for
every choice of ``U``.  Each ``g`` picks the unit that makes the count
cheapest: one that ``g`` maps onto itself when there is one (box 1 if it can).

Which relabellings can occur
----------------------------
If ``g^k`` maps a unit ``U`` onto itself then ``X`` restricted to ``U`` is a
bijection onto the digits that conjugates ``g^k|U`` into ``π^k``, so ``π^k``
has the cycle type of ``g^k|U``.  And a digit on a cell orbit of length
``L`` lies on a ``π``-cycle whose length divides ``L``, so for every ``ℓ``
the ``N·#{digits on cycles of length divisible by ℓ}`` cells holding them lie
on orbits of length divisible by ``ℓ``.  :func:`relabelling_types` keeps the
cycle types that pass both tests; a class with none fixes nothing, which the
tests check against brute force for 2×2 and 2×3.

Counting one (g, type) pair
---------------------------
1. *Relabellings* (:func:`relabellings`).  With ``U`` standard, ``π`` is
   built digit by digit; each choice ``π(a) = b`` fills the cells the
   standard unit determines (``X(g(c)) = π(X(c))`` along the cell orbits
   through ``U``) and is dropped at the first clash: a cell given two
   digits, a digit twice in a row, column or box, or a closed cycle that
   does not fit type ``t``.  If ``g`` maps ``U`` onto itself, ``π`` is
   forced (``π = D∘g∘D⁻¹`` on the standard digits ``D``) and nothing branches.
2. *Classes of relabellings.*  Symmetries of the problem (elements of G
   commuting with ``g`` and keeping ``U``) map the candidates onto each
   other with equal counts; one candidate per class is counted, weighted by
   the class size (:mod:`.cover`).
3. *Exact cover* (:class:`~counting.group.cover.OrbitCover`): one option
   per (cell orbit of ``g``, digit of its first cell), filled row by row
   with memo, and counted one prefix filling per class of the same
   symmetries that also keep ``π``.

Example
-------
>>> from counting.group.symmetries import conjugacy_classes
>>> g = conjugacy_classes("2x2")[0].representative   # the identity
>>> count_fixed("2x2", g, (1, 1, 1, 1)).count         # 288 / 4!
12
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from math import gcd
from typing import Iterator

import numpy as np

from counting.options import CountOptions
from counting.units import Tally
from counting.group.cover import (OrbitCover, commuting_symmetries, conjugate,
                                     relabelling_classes)
from counting.group.permutations import cycle_type, partitions
from counting.group.symmetries import Symmetry
from grids.kind import GridKind, as_kind

__all__ = ["FixedCount", "FixedEstimate", "estimate_fixed", "estimate_fixed_seconds",
           "cell_orbits", "relabelling_types", "standard_unit",
           "relabellings", "count_fixed", "power_type", "unit_cells"]


@dataclass(frozen=True)
class FixedCount:
    """``A_t(g)`` and how it was found.

    Attributes
    ----------
    count : int
        Grids with the standard unit fixed by ``g`` with a relabelling of type ``t``.
    unit : str
        The standard unit used (``"box 1"``, ``"row 4"``, …).
    relabellings : int
        Relabellings ``π`` of type ``t`` consistent with the standard unit.
    classes : int
        Classes of those relabellings with equal counts: one exact cover each.
    searches : int
        Exact-cover counts run (one per class of relabellings, or of prefix
        fillings: :mod:`.cover`).
    nodes : int
        Search-tree nodes of every search the orbit covers ran: those
        counts, and the probes that chose a prefix and listed its fillings
        (:meth:`~counting.group.cover.OrbitCover.count`).
    seconds : float
        Wall-clock seconds, relabellings and exact covers together.
    dead_ends, memo_hits : int
        Dead ends and memo hits of those same searches.
    """

    count: int
    unit: str
    relabellings: int
    classes: int
    searches: int
    nodes: int
    seconds: float
    dead_ends: int = 0
    memo_hits: int = 0

    def tally(self, factor: int = 1) -> Tally:
        """``factor`` × the count, with the work of its searches (nodes,
        dead ends, memo hits) and its seconds."""
        return Tally(factor * self.count, self.nodes, self.dead_ends, self.memo_hits,
                     self.seconds)


def cell_orbits(perm: np.ndarray) -> list[list[int]]:
    """The cycles of a cell permutation, each from its smallest cell, ``c, g(c), …``."""
    perm = [int(p) for p in perm]
    seen = [False] * len(perm)
    out = []
    for start in range(len(perm)):
        if seen[start]:
            continue
        orbit = []
        k = start
        while not seen[k]:
            seen[k] = True
            orbit.append(k)
            k = perm[k]
        out.append(orbit)
    return out


def power_type(partition: tuple[int, ...], k: int) -> tuple[int, ...]:
    """The cycle type of ``π^k`` for ``π`` of type ``partition``.

    Example
    -------
    >>> power_type((6, 2, 1), 2)
    (3, 3, 1, 1, 1)
    """
    out = []
    for length in partition:
        g = gcd(length, k)
        out += [length // g] * g
    return tuple(sorted(out, reverse=True))


def _units(kind: GridKind) -> list[tuple[str, list[int]]]:
    """Boxes first (box 1 is the preferred standard unit), then rows, columns;
    a kind whose regions replace the boxes has no boxes here (its regions and
    extra houses are houses too, but only these can be made standard)."""
    s = kind.shape
    names = {"box": s.box_cells, "row": s.row_cells, "column": s.column_cells}
    if kind.regions() is not None:
        del names["box"]
    return [(f"{name} {i + 1}", [int(x) for x in cells[i]])
            for name, cells in names.items() for i in range(s.n)]


def _order(perm: np.ndarray) -> int:
    out = 1
    for orbit in cell_orbits(perm):
        out = out * len(orbit) // gcd(out, len(orbit))
    return out


def _invariant_unit_types(kind: GridKind, perm: np.ndarray) -> dict[int, set[tuple[int, ...]]]:
    """``{k: {cycle type of g^k on U : U a unit with g^k(U) = U}}``, k = 1..order."""
    out: dict[int, set[tuple[int, ...]]] = {}
    power = np.arange(perm.size)
    for k in range(1, _order(perm) + 1):
        power = perm[power]
        types = set()
        for _, cells in _units(kind):
            image = power[cells]
            if set(image.tolist()) == set(cells):
                position = {c: i for i, c in enumerate(cells)}
                types.add(cycle_type([position[int(x)] for x in image]))
        if types:
            out[k] = types
    return out


def relabelling_types(shape, g: Symmetry) -> list[tuple[int, ...]]:
    """The cycle types ``t`` of ``π`` for which ``A_t(g)`` can be non-zero.

    Partitions of N, largest parts first, that pass the invariant-unit and
    orbit-length tests of the module docstring.  Empty: ``g`` fixes nothing.
    """
    kind = as_kind(shape)
    s = kind.shape
    perm = g.cell_permutation()
    invariant = _invariant_unit_types(kind, perm)
    lengths = [len(o) for o in cell_orbits(perm) for _ in o]
    out = []
    for t in partitions(s.n):
        if any(len(types) > 1 or power_type(t, k) not in types for k, types in invariant.items()):
            continue
        if any(s.n * sum(x for x in t if x % ell == 0) > sum(1 for L in lengths if L % ell == 0)
               for ell in range(2, s.n + 1)):
            continue
        out.append(t)
    return out


def standard_unit(shape, g: Symmetry) -> tuple[str, list[int]]:
    """The unit made standard for ``g``: the first unit (boxes, rows,
    columns) that ``g`` maps onto itself, else the one whose images under
    ``g, g², …`` come back soonest (box 1 on ties)."""
    perm = g.cell_permutation()
    best, best_k = None, None
    for name, cells in _units(as_kind(shape)):
        target = set(cells)
        image, k = perm[cells], 1
        while set(image.tolist()) != target:
            image, k = perm[image], k + 1
        if k == 1:
            return name, cells
        if best_k is None or k < best_k:
            best, best_k = (name, cells), k
    return best


def other_unit(shape, g: Symmetry) -> str | None:
    """The name of a unit that ``g`` maps onto itself other than
    :func:`standard_unit`'s (boxes, rows, columns in that order), to count
    ``A(g)`` a second way (:func:`count_fixed`'s ``unit``); None when ``g``
    keeps no other unit."""
    perm = g.cell_permutation()
    first = standard_unit(shape, g)[0]
    for name, cells in _units(as_kind(shape)):
        if name != first and set(perm[cells].tolist()) == set(cells):
            return name
    return None


class _Partial:
    """A partial grid and a partial relabelling, kept consistent with
    ``X(g(c)) = π(X(c))`` and the kind's rules (one digit per house, the
    cells of a difference pair different)."""

    def __init__(self, kind: GridKind, perm: np.ndarray, target: tuple[int, ...] | None):
        n = kind.shape.n
        self.n = n
        self.g = [int(p) for p in perm]
        self.ginv = [0] * len(self.g)
        for c, img in enumerate(self.g):
            self.ginv[img] = c
        houses = kind.unit_cells()
        self.unit_of = [[] for _ in range(n * n)]     # the houses of each cell
        for h, cells in enumerate(houses):
            for c in cells:
                self.unit_of[c].append(h)
        self.differ = [[] for _ in range(n * n)]      # the other cell of each pair
        for a, b in kind.differences():
            self.differ[a].append(b)
            self.differ[b].append(a)
        self.target = None if target is None else sorted(target)
        self.cell = [0] * (n * n)             # digit 1..N, 0 = unknown
        self.used = [0] * len(houses)         # digit bitmask per house
        self.cells_of = [[] for _ in range(n + 1)]
        self.pi = [0] * (n + 1)               # π(a), 0 = unknown
        self.pi_inv = [0] * (n + 1)
        self.closed: list[int] = []           # lengths of π's closed cycles

    def copy(self) -> "_Partial":
        new = object.__new__(_Partial)
        new.__dict__.update(self.__dict__)
        new.cell, new.used = self.cell[:], self.used[:]
        new.cells_of = [x[:] for x in self.cells_of]
        new.pi, new.pi_inv, new.closed = self.pi[:], self.pi_inv[:], self.closed[:]
        return new

    def set_cell(self, c: int, d: int) -> bool:
        if self.cell[c]:
            return self.cell[c] == d
        bit = 1 << d
        units = self.unit_of[c]
        if any(self.used[u] & bit for u in units) or any(self.cell[b] == d for b in self.differ[c]):
            return False
        for u in units:
            self.used[u] |= bit
        self.cell[c] = d
        self.cells_of[d].append(c)
        if self.pi[d] and not self.set_cell(self.g[c], self.pi[d]):
            return False
        before = self.cell[self.ginv[c]]
        return not before or self.set_pi(before, d)

    def set_pi(self, a: int, b: int) -> bool:
        if self.pi[a]:
            return self.pi[a] == b
        if self.pi_inv[b]:
            return False
        self.pi[a], self.pi_inv[b] = b, a
        if not self._cycle_fits(a):
            return False
        return all(self.set_cell(self.g[c], b) for c in list(self.cells_of[a]))

    def _cycle_fits(self, a: int) -> bool:
        """After ``π(a)`` is set: a cycle it closes must be one of ``target``'s."""
        if self.target is None:
            return True
        length, x = 1, self.pi[a]
        while x != a:
            if not self.pi[x]:
                return True
            x, length = self.pi[x], length + 1
        self.closed.append(length)
        left = self.target[:]
        for ell in self.closed:
            if ell not in left:
                return False
            left.remove(ell)
        return True


def relabellings(shape, g: Symmetry, pi_type: tuple[int, ...] | None = None,
                 unit: tuple[str, list[int]] | None = None
                 ) -> Iterator[tuple[tuple[int, ...], list[int]]]:
    """Every relabelling ``π`` (of type ``pi_type``) that a grid with the
    standard unit fixed by ``g`` could use, with the cells it determines.

    Yields ``(pi, cells)``: ``pi[a - 1] = π(a)`` and ``cells[k]`` the digit
    of cell ``k`` forced by the standard unit and ``π`` (0 elsewhere).
    """
    kind = as_kind(shape)
    s = kind.shape
    name, cells = standard_unit(kind, g) if unit is None else unit
    start = _Partial(kind, g.cell_permutation(), pi_type)
    for d, c in enumerate(cells, start=1):
        if not start.set_cell(c, d):
            return

    def extend(p: _Partial):
        free = [a for a in range(1, s.n + 1) if not p.pi[a]]
        if not free:                       # every cycle closed, each one of the target's
            yield tuple(p.pi[1:]), p.cell
            return
        a = free[0]
        for b in range(1, s.n + 1):
            if not p.pi_inv[b]:
                q = p.copy()
                if q.set_pi(a, b):
                    yield from extend(q)

    yield from extend(start)


def unit_cells(shape, name: str) -> tuple[str, list[int]]:
    """``(name, cells)`` of the unit called ``name``: ``"box 1"``, ``"row 4"``, ``"column 9"``."""
    kind = as_kind(shape)
    for unit in _units(kind):
        if unit[0] == name:
            return unit
    raise ValueError(f"no unit {name!r} in {kind.name}: expected 'box k', "
                     f"'row k' or 'column k' with 1 <= k <= {kind.shape.n}")


@dataclass(frozen=True)
class FixedEstimate:
    """What :func:`estimate_fixed` measured of one unit.

    Attributes
    ----------
    seconds : float
        Estimated engine seconds of :func:`count_fixed` (no prefix classes).
    measured, candidates : int
        Candidate relabellings explored within the time budget, of all of
        them; the others are taken to cost the mean of those.
    """

    seconds: float
    measured: int
    candidates: int


def estimate_fixed(shape, g: Symmetry, pi_type: tuple[int, ...],
                   options: CountOptions | None = None, *, probes: int = 100,
                   seed: int = 0, max_seconds: float | None = None) -> FixedEstimate:
    """Estimated engine seconds of :func:`count_fixed` (Knuth's estimator,
    :func:`dlx.estimate.estimate`, on the orbit cover of each candidate
    relabelling).  It leaves out the prefix classes of ``reduce``, so it is
    high by up to their factor: an order of magnitude, for the decision of
    :mod:`counting.reach`.

    ``max_seconds`` is the budget of the whole estimate: the candidates are
    taken in a random order (``seed``) and explored, at least two paths
    each, until it is spent (at least one is); the candidates left are
    counted at the mean of those explored.  Without it every candidate is.
    [A unit of 2x5 has hundreds of candidates of about a second each: ten
    paths each, whatever the budget, kept ``count 2x5 --up-to-symmetry``
    estimating for 9 minutes.]
    """
    from dlx.estimate import estimate
    kind = as_kind(shape)
    options = CountOptions() if options is None else options
    unit = standard_unit(kind, g)
    orbits = cell_orbits(g.cell_permutation())
    candidates = list(relabellings(kind, g, pi_type, unit))
    if not candidates:
        return FixedEstimate(0.0, 0, 0)
    order = random.Random(seed).sample(range(len(candidates)), len(candidates))
    t0 = time.perf_counter()
    seconds = []
    for i in order:
        left = None if max_seconds is None else max_seconds - (time.perf_counter() - t0)
        if seconds and left is not None and left <= 0:
            break
        pi, known = candidates[i]
        cover = OrbitCover(kind, orbits, pi, known)
        ec = cover.build()
        share = None if left is None else max(left, 0.0) / (len(candidates) - len(seconds))
        e = estimate(ec, given=cover.given, probes=probes, seed=seed + i, max_seconds=share,
                     min_probes=2, **options.engine_arguments(ec))
        seconds.append(e.seconds)
    mean = sum(seconds) / len(seconds)
    return FixedEstimate(mean * len(candidates), len(seconds), len(candidates))


def estimate_fixed_seconds(shape, g: Symmetry, pi_type: tuple[int, ...],
                           options: CountOptions | None = None, *, probes: int = 100,
                           seed: int = 0, max_seconds: float | None = None) -> float:
    """:func:`estimate_fixed`'s seconds."""
    return estimate_fixed(shape, g, pi_type, options, probes=probes, seed=seed,
                          max_seconds=max_seconds).seconds


def count_fixed(shape, g: Symmetry, pi_type: tuple[int, ...],
                options: CountOptions | None = None, *, unit: str | None = None,
                reduce: bool = True, commuting=None) -> FixedCount:
    """``A_t(g)`` for ``t = pi_type``: see the module docstring.

    Parameters
    ----------
    shape : Shape, GridKind or str
        A box shape or a grid kind with extra rules (:mod:`grids.kind`).
    g : Symmetry
        An element of the group of ``shape`` (of a kind: of its group,
        :mod:`.kind_group`, so that it keeps the kind's rules).
    pi_type : tuple of int
        A partition of N: the cycle type of the relabelling.
    options : CountOptions, optional
        ``memo`` and ``memo_mb`` of the exact covers (``tail`` does not apply).
    unit : str, optional
        The unit to make standard (``"row 2"``, …); default
        :func:`standard_unit`.  The count does not depend on it.
    reduce : bool
        Count one relabelling and one prefix filling per class of the
        symmetries that commute with ``g`` (:mod:`.cover`); ``False`` counts
        every candidate in full (for checking).  The count does not depend on it.
    commuting : callable, optional
        ``commuting(unit_cells)``: the symmetries to reduce by, each a
        :class:`~counting.group.cover.Commuting` that commutes with ``g``
        and keeps the unit (default: :func:`~counting.group.cover.commuting_symmetries`,
        elements of G).  With it ``g`` need not be an element of G: any
        object whose ``cell_permutation()`` maps the kind's grids onto
        grids (:mod:`.split_burnside`: a kind's full group on cells).
    """
    kind = as_kind(shape)
    s = kind.shape
    options = CountOptions() if options is None else options
    pi_type = tuple(sorted((int(x) for x in pi_type), reverse=True))
    if sum(pi_type) != s.n or min(pi_type, default=0) < 1:
        raise ValueError(f"relabelling type must be a partition of {s.n}, got {pi_type}")
    t0 = time.perf_counter()
    unit = standard_unit(kind, g) if unit is None else unit_cells(kind, unit)
    orbits = cell_orbits(g.cell_permutation())
    candidates = list(relabellings(kind, g, pi_type, unit))
    if commuting is None:
        commuting = lambda cells: commuting_symmetries(kind, g, cells)  # noqa: E731
    symmetries = []
    if reduce and candidates and not all(len(o) == 1 for o in orbits):
        symmetries = commuting(unit[1])
    total = searches = nodes = dead_ends = memo_hits = 0
    classes = relabelling_classes([pi for pi, _ in candidates], symmetries)
    for i, weight in classes:
        pi, known = candidates[i]
        cover = OrbitCover(kind, orbits, pi, known)
        keeping = [h for h in symmetries if conjugate(pi, h.sigma) == pi]
        total += weight * cover.count(options, keeping)
        searches += cover.searches
        nodes += cover.nodes
        dead_ends += cover.dead_ends
        memo_hits += cover.memo_hits
    return FixedCount(total, unit[0], len(candidates), len(classes), searches, nodes,
                      time.perf_counter() - t0, dead_ends, memo_hits)

