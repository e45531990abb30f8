"""Latin squares of order N by the cycle type of row 2 (shapes ``1xN``, ``Nx1``).

A reduction for Latin squares that splits the count into a few exact-cover
counts whose weights are conjugacy-class sizes, instead of the band
reduction's single unit of reduced squares.  Every number is computed here
(factors, cycle types, weights); the tests check each against brute force.

Notation
--------
A Latin square ``L`` of order ``N`` has rows, columns and symbols
``0..N-1`` in the prose and code below (digits ``1..N`` in unit givens);
``L[r]`` is row ``r`` read as a map column -> symbol.  Three groups act on
Latin squares and preserve the Latin property: permuting rows, permuting
columns, relabelling symbols.  A *completion* of a ``k × N`` Latin
rectangle ``A`` is a square whose first ``k`` rows are ``A``.

The reduction ``"cycles"`` (rows 1–2 fixed)
-------------------------------------------
1. **Row 1 in order** (factor ``N!``).  Exactly one relabelling of the
   symbols turns row 1 into ``0, 1, ..., N-1``: relabellings act freely,
   because row 1 holds every symbol once.  So
   ``L(N) = N! · #{squares with row 1 = id}``.
2. **Row 2 by its cycle type.**  With row 1 = id, row 2 is a permutation
   ``σ`` with ``σ(c) ≠ c`` for every column ``c`` (column ``c`` already holds
   ``c``): a *derangement*.  Let ``N(σ)`` be the number of squares with rows
   ``id, σ``.  For any permutation ``τ``, the map
   ``L ↦ L'``, ``L'[r][c] = τ(L[r][τ⁻¹(c)])`` (move column ``τ⁻¹(c)`` to
   ``c`` and relabel every symbol by ``τ``) is a bijection of Latin squares
   (its inverse is the same map with ``τ⁻¹``).  It keeps row 1 in order,
   ``L'[0][c] = τ(τ⁻¹(c)) = c``, and turns row 2 into
   ``L'[1][c] = τ(σ(τ⁻¹(c)))``, i.e. ``σ`` into ``τστ⁻¹``.  So
   ``N(τστ⁻¹) = N(σ)``: ``N`` is constant on conjugacy classes, which are the
   cycle types.  A derangement's cycle type is a partition of ``N`` with
   every part ``≥ 2``; the class of type ``1^m1 2^m2 ...`` has
   ``N! / Π_k (k^m_k · m_k!)`` members (the centralizer of a permutation of
   that type has ``Π_k k^m_k m_k!`` elements), and the class sizes add up
   to the number of derangements ``D(N)``.
3. **Column 1 below row 2 in order** (factor ``(N-2)!``).  With rows 1 and
   2 fixed, permuting rows ``3..N`` maps the completions of ``(id, σ)``
   onto themselves, and acts freely on them: the column-1 entries of rows
   ``3..N`` are distinct.  Each orbit holds exactly one square whose
   column 1 increases from row 3 down, and as the column-1 entries of rows
   ``3..N`` are the ``N - 2`` symbols other than ``0`` and ``σ(0)``, that
   condition fixes column 1 completely.  So ``N(σ) = (N-2)! · M(σ)``, where
   ``M(σ)`` counts the completions with that column 1.  ``M = N / (N-2)!``
   is then constant on cycle types too; no other property of the column
   normalisation is needed (in particular not that it commutes with the
   conjugation of step 2, which it does not: the conjugation moves the
   column-1 entries; the argument only uses that both ``N`` and the factor
   ``(N-2)!`` are the same for ``σ`` and ``τστ⁻¹``).

A *work unit* is one cycle type ``t``: rows 1 and 2 are ``id`` and the
representative ``σ_t`` (:func:`type_representative`, cycles on consecutive
symbols), column 1 below is increasing; its weight is the class size
``|t|`` and the engine counts ``M(σ_t)``.  Hence

    L(N) = N! · (N-2)! · Σ_t |t| · M(σ_t).

Order 8 has 7 units (``D(8) = 14,833`` derangements), order 9 has 8.
Order 1 has no row 2: one unit (row 1 given, weight 1), factor ``1! = 1``.

The reduction ``"cycles2"`` (rows 1–3 fixed)
--------------------------------------------
Order 9's cycle-type units are far too long for one run each (days of
CPU each, without progress or resume: ``results/bench_latin.md``), so
``"cycles2"`` splits by the first *three* rows and uses more of the
symmetry.  It is defined for orders 3 to :data:`MAX_ORDER_ROWS3`.  Let ``f(A)`` be the
number of completions of a ``3 × N`` Latin rectangle ``A``.  ``f`` is
unchanged when the three rows of ``A`` are permuted (apply the same
permutation to the top three rows of every completion), when the columns
are permuted and when the symbols are relabelled: the group
``Γ = S_3 × S_N × S_N`` of these moves acts on 3-row rectangles and ``f`` is
constant on its orbits.

1. Row 1 in order, as before (factor ``N!``).  The rectangles with row 1 =
   id are the pairs ``(σ, ρ)`` of rows 2 and 3 with ``σ`` a derangement and
   ``ρ`` *compatible*: ``ρ(c) ∉ {c, σ(c)}`` for every column ``c``.  Call this
   set ``Q``.
2. A unit is the intersection ``O`` of one Γ-orbit with ``Q``.  It is found
   from any member: for each of the 6 orders ``(a, b, c)`` of the three
   rows, relabel so that the new row 1 is in order, giving the pair
   ``(a⁻¹b, a⁻¹c)``; ``O`` is the union of the conjugacy classes
   ``{(τσ'τ⁻¹, τρ'τ⁻¹)}`` of these 6 pairs: once the rows are in the order
   ``(a, b, c)``, the moves of Γ that put row 1 in order are a column
   permutation ``τ⁻¹`` followed by the one relabelling that restores row 1,
   i.e. the relabelling by ``a⁻¹`` followed by the conjugation by ``τ`` of
   step 2 of ``"cycles"``.
3. **Weight.**  Let ``P_t`` be the pairs of ``Q`` whose row 2 is the type
   representative ``σ_t``.  Conjugation maps ``S_N × P_t`` onto the pairs of
   ``Q`` with row 2 of type ``t``, and each such pair ``(σ, ρ)`` is hit
   exactly ``|C(σ_t)|`` times (``τσ_tτ⁻¹ = σ`` holds for one coset of the
   centralizer ``C(σ_t)``, and ``τ`` then fixes the preimage
   ``τ⁻¹ρτ``).  As ``O`` is closed under conjugation,
   ``|O| = Σ_t (N! / |C(σ_t)|) · |O ∩ P_t| = Σ_t |t| · |O ∩ P_t|``; and
   ``O ∩ P_t`` is a union of orbits of ``C(σ_t)`` acting on row 3 by
   conjugation, which is how it is enumerated (``C(σ_t)`` has at most a few
   hundred elements).  The representative of ``O`` is its member of some
   ``P_t`` that comes first: ``t`` in the order of :func:`derangement_types`,
   then row 3 lexicographically; units are numbered in the order of their
   representatives.
4. Column 1 below row 3 in order (factor ``(N-3)!``): as in step 3 of
   ``"cycles"``, rows ``4..N`` are permuted freely, so ``f(A) = (N-3)! ·
   M3(A)`` with column 1 increasing from row 4 down (fixed by rows 1–3).

Hence ``L(N) = N! · (N-3)! · Σ_O |O| · M3(rep O)``, and ``Σ_O |O| = |Q|``,
the number of 3-row rectangles with row 1 in order (``(N-1)(N-2)`` times
the reduced ones of OEIS A001623, whose column 1 is also in order).  Order 8
has 370 units, order 9 has 2,877 (computed in a few seconds).

``Nx1``
-------
A grid of shape ``Nx1`` has boxes of one column: its box constraint is its
column constraint, so the ``Nx1`` grids are exactly the Latin squares of
order ``N`` (transposition maps the ``1xN`` grids onto the ``Nx1`` grids,
and both sets are all the Latin squares).  The encoding
(:class:`grids.sudoku.Sudoku`) drops the repeated constraint for both shapes,
so their exact-cover matrices are the same: ``Nx1`` has the same units,
weights and total as ``1xN`` and counts them with the same search; only
:attr:`CycleTypeReduction.shape` and the units' shape differ.

Example
-------
>>> r = CycleTypeReduction("1x5")
>>> [c.cycle_type for c in r.classes()], [c.weight for c in r.classes()]
([(5,), (3, 2)], [24, 20])
>>> r.factors
(('order row 1 (N!)', 120), ('order column 1 below row 2 ((N-2)!)', 6))
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from counting.group.permutations import class_size, cycle_type, partitions, type_representative
from counting.reduction.base import Reduction
from counting.units import UnitSpec
from grids.shape import Shape, as_shape

__all__ = [
    "MAX_ORDER_ROWS3",
    "LatinClass",
    "CycleTypeReduction",
    "RowTripleReduction",
    "derangement_types",
]

MAX_ORDER_ROWS3 = 9  # "cycles2" enumerates all N! permutations and its classes in
# Python: a few seconds for N = 9; N = 10 would take minutes and gigabytes, for a
# count (tens of thousands of units far longer than order 9's) out of reach anyway


# ---------------------------------------------------------------------------
# Cycle types
# ---------------------------------------------------------------------------

def derangement_types(n: int) -> tuple[tuple[int, ...], ...]:
    """The cycle types of the derangements of ``n`` symbols, in canonical order.

    Partitions of ``n`` with every part ``>= 2``, parts in decreasing order,
    listed in reverse lexicographic order (largest first part first).  The
    position in this tuple is a cycle type's ``class_id`` in ``"cycles"``.

    Examples
    --------
    >>> derangement_types(6)
    ((6,), (4, 2), (3, 3), (2, 2, 2))
    >>> derangement_types(1)
    ()
    """
    n = _check_order(n)
    if not n:
        return ()
    return tuple(p for p in partitions(n) if p[-1] >= 2)


def _check_order(n) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"order must be an integer >= 0, got {n!r}")
    return int(n)


# ---------------------------------------------------------------------------
# The reductions
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class LatinClass:
    """One unit of a cycle-type reduction, as ``gridcount classes`` lists it.

    Attributes
    ----------
    class_id : int
        Position in the reduction's order; also the unit's ``unit_id``.
    representative : tuple of tuple of int
        The fixed rows (1–2 for ``"cycles"``, 1–3 for ``"cycles2"``) of the
        representative, digits ``1..N``.
    weight : int
        Number of rectangles with row 1 in order that the unit stands for.
    cycle_type : tuple of int
        Cycle type of the representative's row 2 (``()`` for order 1).
    """

    class_id: int
    representative: tuple[tuple[int, ...], ...]
    weight: int
    cycle_type: tuple[int, ...]

    def array(self) -> np.ndarray:
        """The representative as a new uint8 array, one row per fixed row."""
        return np.array(self.representative, dtype=np.uint8)


class CycleTypeReduction(Reduction):
    """Latin squares of order ``N``, one work unit per cycle type of row 2.

    See the module docstring for the argument.  Objects are cheap; the
    classes are computed on first use and cached per order.

    Parameters
    ----------
    shape : Shape or str
        ``1xN`` or ``Nx1`` (the same squares, the same units).

    Attributes
    ----------
    kind, name : str
        ``"cycles"``, the name units and stores carry.
    shape : Shape
    fixed_rows : int
        Rows given in every unit (2; 1 for order 1, which has no row 2).

    Raises
    ------
    ValueError
        For a shape that is not a Latin square.
    """

    kind = "cycles"
    _ROWS = 2  # rows 1.._ROWS are given in every unit (fewer if N is smaller)

    def __init__(self, shape: Shape | str):
        s = as_shape(shape)
        if not self.applies_to(s):
            raise ValueError(f"reduction {self.kind!r} does not apply to box shape {s.name}: "
                             f"{self._requirement()}")
        self.shape = s
        self.fixed_rows = min(self._ROWS, s.n)

    @classmethod
    def applies_to(cls, shape: Shape | str) -> bool:
        """Whether ``shape`` is a Latin square (``1xN`` or ``Nx1``)."""
        return as_shape(shape).latin

    @classmethod
    def _requirement(cls) -> str:
        return "it counts Latin squares, shapes 1xN and Nx1"

    @property
    def n(self) -> int:
        return self.shape.n

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.shape.name!r})"

    # -- factors ---------------------------------------------------------------
    @property
    def factors(self) -> tuple[tuple[str, int], ...]:
        """``(("order row 1 (N!)", N!), ("order column 1 below row k ((N-k)!)", (N-k)!))``
        with ``k`` the fixed rows; order 1 has only the first."""
        n, k = self.n, self.fixed_rows
        out = [("order row 1 (N!)", math.factorial(n))]
        if n > 1:
            out.append((f"order column 1 below row {k} ((N-{k})!)", math.factorial(n - k)))
        return tuple(out)

    # -- classes and units -------------------------------------------------------
    def classes(self) -> list[LatinClass]:
        """The units' descriptions, ``class_id`` = ``unit_id`` = position."""
        return list(_type_classes(self.n))

    def units(self) -> list[UnitSpec]:
        """Every unit: the fixed rows, then column 1 below them increasing.

        ``unit_id = class_id`` (``form_id`` is 0); givens are
        ``(row, col, digit)``, 0-based row and column, digit ``1..N``.
        """
        return list(_units(type(self), self.shape))

    def unit_of(self, rows) -> int:
        """The unit whose completions a Latin rectangle's first rows fall under.

        ``rows``: the first :attr:`fixed_rows` rows (or more) of a Latin
        rectangle, digits ``1..N``, in any labelling (row 1 need not be in
        order).  Used by the tests to check the invariance argument.
        """
        a = self._rows_array(rows)
        if self.n == 1:
            return 0
        sigma = np.argsort(a[0])[a[1]]  # relabel so row 1 is in order
        return derangement_types(self.n).index(cycle_type(sigma))

    def _rows_array(self, rows) -> np.ndarray:
        a = np.asarray(rows, dtype=np.int64)
        n, k = self.n, self.fixed_rows
        if a.ndim != 2 or a.shape[1] != n or a.shape[0] < k:
            raise ValueError(f"expected at least {k} rows of {n} digits, got shape {a.shape}")
        a = a[:k] - 1
        if any(sorted(r) != list(range(n)) for r in a.tolist()) or \
                any(len(set(col)) != k for col in a.T.tolist()):
            raise ValueError(f"rows {a.tolist()} are not the rows of a Latin rectangle "
                             f"of order {n} (digits 1..{n})")
        return a


class RowTripleReduction(CycleTypeReduction):
    """Latin squares of order ``N``, one work unit per class of rows 1–3.

    ``"cycles2"`` of the module docstring: classes of 3-row rectangles under
    row permutations, column permutations and relabelling, factor
    ``N!·(N-3)!``.  Defined for ``3 <= N <= MAX_ORDER_ROWS3`` (it enumerates
    the ``N!`` permutations).
    """

    kind = "cycles2"
    _ROWS = 3

    @classmethod
    def applies_to(cls, shape: Shape | str) -> bool:
        s = as_shape(shape)
        return s.latin and 3 <= s.n <= MAX_ORDER_ROWS3

    @classmethod
    def _requirement(cls) -> str:
        return f"it counts Latin squares of order 3..{MAX_ORDER_ROWS3}, shapes 1xN and Nx1"

    def classes(self) -> list[LatinClass]:
        return list(_triple_classes(self.n))

    def unit_of(self, rows) -> int:
        a = self._rows_array(rows)
        table = _Triples.of(self.n)
        return table.unit_by_key[table.canonical_key(a)]


# ---------------------------------------------------------------------------
# "cycles": classes and units
# ---------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _type_classes(n: int) -> tuple[LatinClass, ...]:
    identity = tuple(range(1, n + 1))
    if n == 1:  # no row 2: one unit, the square itself
        return (LatinClass(0, (identity,), 1, ()),)
    out = []
    for i, t in enumerate(derangement_types(n)):
        sigma = type_representative(t)
        out.append(LatinClass(i, (identity, tuple(d + 1 for d in sigma)), class_size(t), t))
    return tuple(out)


@lru_cache(maxsize=None)
def _units(kind: type, shape: Shape) -> tuple[UnitSpec, ...]:
    red = kind(shape)
    n, k = shape.n, red.fixed_rows
    out = []
    for cls in red.classes():
        rows = cls.representative
        givens = [(r, c, rows[r][c]) for r in range(k) for c in range(n)]
        below = sorted(set(range(1, n + 1)) - {row[0] for row in rows})
        givens += [(k + i, 0, d) for i, d in enumerate(below)]
        out.append(UnitSpec(shape=shape.name, reduction=red.name, unit_id=cls.class_id,
                            class_id=cls.class_id, form_id=0, weight=cls.weight,
                            givens=tuple(givens)))
    return tuple(out)


# ---------------------------------------------------------------------------
# "cycles2": orbits of 3-row rectangles
# ---------------------------------------------------------------------------

def _permutations(n: int) -> np.ndarray:
    """All permutations of ``0..n-1`` in lexicographic order, ``(n!, n)`` int8."""
    perms = np.zeros((1, 0), dtype=np.int8)
    for m in range(1, n + 1):
        blocks = [np.column_stack([np.full(len(perms), i, dtype=np.int8),
                                   perms + (perms >= i)]) for i in range(m)]
        perms = np.concatenate(blocks).astype(np.int8)
    return perms


def _codes(perms: np.ndarray) -> np.ndarray:
    """Each row as one int64 (base ``n`` digits, first most significant):
    the numeric order is the lexicographic order."""
    n = perms.shape[1]
    return perms.astype(np.int64) @ (n ** np.arange(n - 1, -1, -1, dtype=np.int64))


def _conjugates(taus: np.ndarray, rho: np.ndarray) -> np.ndarray:
    """``τρτ⁻¹`` for every row ``τ`` of ``taus``: ``out[k, x] = τ_k(ρ(τ_k⁻¹(x)))``."""
    inverse = np.argsort(taus, axis=1)
    return np.take_along_axis(taus, rho[inverse], axis=1)


def _to_representative(sigma: Sequence[int], ctype: tuple[int, ...]) -> np.ndarray:
    """A permutation ``τ`` with ``τστ⁻¹ = type_representative(ctype)``.

    The cycles of ``σ``, longest first, go to the representative's blocks in
    order: a cycle ``x, σ(x), σ²(x), ...`` to ``s, s+1, s+2, ...``.
    """
    n = len(sigma)
    seen = [False] * n
    cycles = []
    for start in range(n):
        cyc = []
        x = start
        while not seen[x]:
            seen[x] = True
            cyc.append(x)
            x = int(sigma[x])
        if cyc:
            cycles.append(cyc)
    cycles.sort(key=len, reverse=True)
    tau = np.empty(n, dtype=np.int64)
    pos = 0
    for cyc in cycles:
        tau[cyc] = np.arange(pos, pos + len(cyc))
        pos += len(cyc)
    return tau


class _Triples:
    """Everything "cycles2" computes for one order: per cycle type ``t``
    the compatible third rows of ``(id, σ_t)`` (sorted, with their codes)
    and the centralizer of ``σ_t``; the orbits; the key of each orbit."""

    def __init__(self, n: int):
        self.n = n
        self.types = derangement_types(n)
        self.type_index = {t: i for i, t in enumerate(self.types)}
        self.sizes = [class_size(t) for t in self.types]
        self.reps = [np.array(type_representative(t), dtype=np.int64) for t in self.types]
        perms = _permutations(n)
        columns = np.arange(n)
        self.thirds = []        # per type: compatible rows 3, lexicographic
        self.codes = []         # their codes (ascending)
        self.centralizers = []  # per type: every τ with τσ_t = σ_tτ
        for s in self.reps:
            third = perms[((perms != columns) & (perms != s)).all(axis=1)].astype(np.int64)
            self.thirds.append(third)
            self.codes.append(_codes(third))
            self.centralizers.append(
                perms[(perms[:, s] == s[perms]).all(axis=1)].astype(np.int64))
        self.classes, self.unit_by_key = self._orbits()

    @staticmethod
    @lru_cache(maxsize=None)
    def of(n: int) -> "_Triples":
        return _Triples(n)

    def _normal_pairs(self, rows: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """For each of the 6 orders of the three rows: the type of the new
        row 2 and the conjugates of the new row 3 that go with ``σ_t``."""
        out = []
        for a, b, c in itertools.permutations(rows):
            a_inv = np.argsort(a)
            sigma, rho = a_inv[b], a_inv[c]
            t = self.type_index[cycle_type(sigma)]
            tau = _to_representative(sigma, self.types[t])
            rho_t = _conjugates(tau[None, :], rho)[0]  # now row 2 is σ_t
            out.append((t, _conjugates(self.centralizers[t], rho_t)))
        return out

    def canonical_key(self, rows: np.ndarray) -> tuple[int, int]:
        """``(type, code)`` of the first member of the orbit of a 3-row
        rectangle (0-based symbols), in the order of the representatives."""
        return min((t, int(_codes(conj).min())) for t, conj in self._normal_pairs(rows))

    def _orbits(self) -> tuple[tuple[LatinClass, ...], dict]:
        n = self.n
        identity = np.arange(n)
        visited = [np.zeros(len(c), dtype=bool) for c in self.codes]
        classes, unit_by_key = [], {}
        for t, third in enumerate(self.thirds):
            for j in range(len(third)):
                if visited[t][j]:
                    continue
                members = set()
                for t2, conj in self._normal_pairs(np.stack([identity, self.reps[t], third[j]])):
                    idx = np.searchsorted(self.codes[t2], _codes(conj))
                    assert np.array_equal(self.codes[t2][idx], _codes(conj))
                    visited[t2][idx] = True
                    members.update((t2, int(i)) for i in np.unique(idx))
                weight = sum(self.sizes[t2] for t2, _ in members)
                unit_by_key[(t, int(self.codes[t][j]))] = len(classes)
                rows = (tuple(range(1, n + 1)), tuple(int(d) + 1 for d in self.reps[t]),
                        tuple(int(d) + 1 for d in third[j]))
                classes.append(LatinClass(len(classes), rows, weight, self.types[t]))
        return tuple(classes), unit_by_key


def _triple_classes(n: int) -> tuple[LatinClass, ...]:
    return _Triples.of(n).classes
