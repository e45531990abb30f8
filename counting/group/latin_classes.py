"""Main classes and isomorphism classes of Latin squares, by Burnside's lemma.

A Latin square of order n is a set of n² triples ``(r, c, s)`` (row,
column, symbol) in which any two coordinates fix the third: the exact covers
of the problem whose options are the n³ triples and whose items are the 3n²
pairs ``(r, c)``, ``(r, s)``, ``(c, s)``.  ``--up-to-symmetry`` counts the
*isotopy* classes (rows, columns and symbols permuted separately,
:mod:`.burnside`).  This module counts two more classes the literature uses:

* **main classes** (paratopy, OEIS A003090): the group is
  ``W = S_n ≀ S_3 = S_n³ ⋊ S_3``, order ``6·n!³``; ``(a1, a2, a3; δ)`` moves
  coordinate ``i`` to place ``δ(i)`` and applies ``a_j`` to place ``j``:
  ``y_j = a_j(x_{δ⁻¹(j)})`` (:func:`paratopism`);
* **isomorphism classes** of quasigroups (OEIS A057991): ``S_n`` acting
  diagonally, ``(a, a, a; id)``.

Classes of W
------------
A conjugacy class of a wreath product ``S_n ≀ S_3`` is given by the cycles
of ``δ`` and, for each cycle, the cycle type of the product of the ``a_j``
along it (its *cycle product*).  So: δ = id, the multiset of the three
types; δ a transposition, the ordered pair (type of the product along the
2-cycle, type of the fixed coordinate's permutation); δ a 3-cycle, the type
of the product along it.  The centraliser has order
``Π_{(k, λ)} (k·z_λ)^m · m!`` over the cycle lengths ``k`` of δ and types
``λ``, ``m`` the number of k-cycles whose product has type ``λ`` and
``z_λ = Π i^{m_i} m_i!`` (:func:`~.permutations.centraliser_order`); the
class has ``|W| / centraliser`` elements (the sizes sum to ``|W|``, checked
by the tests for every n they reach, and against brute-force classes of
W for n = 2, 3).  Representatives: ``(σ1, σ2, σ3; id)``,
``(σ_s, id, σ_t; (1 2))`` — ``(r, c, s) ↦ (σ_s c, r, σ_t s)`` — and
``(σ_s, id, id; (1 2 3))`` — ``(r, c, s) ↦ (σ_s s, r, c)``.

The terms
---------
Classes = ``(1/|G|) Σ_classes |K|·Fix(g_K)``.  Fix by three methods, all the
engine's:

* the identity fixes every square: ``Fix = L_n``, the grid count, passed in
  (``grid_total``) or, for n ≤ :data:`~.burnside.MAX_SEARCHED_IDENTITY`,
  ``n!·A(id)`` searched;
* ``δ = id`` and ``δ = (1 2)`` move cells and relabel symbols separately:
  ``g`` is a cell permutation ``h`` (``(r, c) ↦ (σ1 r, σ2 c)``, or
  ``(σ_s c, r)``) with the relabelling ``π = σ3`` (``σ_t``), and
  ``Fix = #{X : X∘h = π∘X}``.  Conjugating by a relabelling keeps ``h``, so
  this is the same for every ``π`` of ``π``'s type ``t``; relabelling acts
  freely and each class of squares has one with row 1 standard, so
  ``Fix = z_t · A_t(h)`` (:func:`~.fixed.count_fixed`, which reduces by the
  relabellings' classes; a ``t`` that :func:`~.fixed.relabelling_types`
  rules out gives 0 with no search).  The isomorphism terms are of this
  kind too: ``h = (σ, σ)``, ``π = σ``;
* ``δ`` a 3-cycle moves symbols into rows: :func:`quotient_fixed`, the exact
  covers of the quotient by ``⟨g⟩`` (one option per orbit of triples that
  hits no pair twice, covering the pairs it meets; a fixed square is a union
  of such orbits; :func:`.full_burnside.quotient`, the same construction as
  the full group's Fix, which makes the pairs always covered together one item).
  A quotient with many covers is counted one first row per class under the
  diagonal ``(a, a, a)``, ``a(0) = 0``, that commute with ``g``
  (:func:`first_row_classes`).

A (1 2) term's cell permutation is no element of today's group, so
``count_fixed`` is handed the symmetries to reduce by: every diagonal
``(r, c) ↦ (a r, a c)`` commuting with it and keeping the standard unit
(:func:`cell_commuting`).

``method="quotient"`` counts every non-identity term by the quotient (for
checking; only small n).  The δ = id terms alone sum to ``n!³`` × the
isotopy classes (:attr:`LatinClasses.isotopy_classes`).

Example
-------
>>> main_class_count(4).classes, isomorphism_class_count(4).classes
(2, 35)
"""
from __future__ import annotations

import dataclasses
import math
import time
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement, permutations, product

import numpy as np

from counting.group.burnside import MAX_SEARCHED_IDENTITY, type_label
from counting.group.cover import SAMPLE, Commuting
from counting.group.fixed import cell_orbits, count_fixed, relabelling_types
from counting.group.full_burnside import quotient
from counting.group.orbits import orbit_classes
from counting.group.permutations import centraliser_order, partitions, type_representative
from counting.group.split_burnside import CellSymmetry
from counting.group.symmetries import Symmetry
from counting.options import CountOptions
from counting.units import Tally
from dlx.api import ConflictingGivensError

__all__ = ["LatinClass", "LatinTerm", "LatinClasses", "paratopism", "paratopy_classes",
           "isomorphism_classes", "wreath_centraliser", "quotient_fixed", "quotient_search",
           "first_row_classes", "diagonal_commuting", "cell_commuting",
           "term_fixed", "term_search", "ruled_out", "free_cells", "split_parts", "triple_quotient",
           "main_class_count", "isomorphism_class_count", "METHODS"]

#: How the non-identity terms are counted: ``"fast"`` (cells × relabelling
#: where the element splits, the quotient otherwise) or ``"quotient"`` (all by
#: the quotient, slower: a check).
METHODS = ("fast", "quotient")

#: A quotient with this many exact covers or more is counted first row by first row.
SPLIT_AT = 100_000
#: Most commuting elements used to make classes of first rows (random
#: elements of a group nearly always generate it; fewer only make more classes).
GENERATORS = 12

#: Most diagonal elements handed to ``count_fixed`` for a (1 2) term: all of
#: them up to order 9 (8! keep row 1).  A sample as small as the default
#: :data:`~.cover.SAMPLE` holds too few that also keep the relabelling, and
#: order 9's (1^9, 2^2 1^5) term then ran over 480 s.
COMMUTING_LIMIT = 50_000

_IDENTITY_DELTA = (0, 1, 2)
_SWAP = (1, 0, 2)          # δ = (1 2): coordinate 0 goes to place 1 and 1 to 0
_CYCLE = (1, 2, 0)         # δ = (1 2 3): coordinate 0 → place 1 → place 2 → place 0


def paratopism(n: int, a1, a2, a3, delta=_IDENTITY_DELTA) -> np.ndarray:
    """The permutation of the n³ triples (index ``(r·n + c)·n + s``) made by
    ``(a1, a2, a3; δ)``: ``y_j = a_j(x_{δ⁻¹(j)})``, ``δ[i]`` the place
    coordinate ``i`` goes to.

    Example
    -------
    >>> paratopism(2, (0, 1), (0, 1), (0, 1), (1, 0, 2)).tolist()   # transpose
    [0, 1, 4, 5, 2, 3, 6, 7]
    """
    a = [np.asarray(p, dtype=np.int64) for p in (a1, a2, a3)]
    x = np.array(np.unravel_index(np.arange(n ** 3), (n, n, n)))
    y = np.empty_like(x)
    for i in range(3):
        y[delta[i]] = a[delta[i]][x[i]]
    return np.ravel_multi_index(tuple(y), (n, n, n)).astype(np.int64)


def wreath_centraliser(cycles) -> int:
    """The centraliser order in ``S_n ≀ S_3`` of a class given as
    ``[(k, λ), ...]``: one pair per cycle of δ, its length ``k`` and the type
    ``λ`` of its cycle product.  ``Π (k·z_λ)^m · m!`` over the distinct pairs.

    Example
    -------
    >>> wreath_centraliser([(1, (1, 1)), (1, (1, 1)), (1, (1, 1))])   # identity of S_2 ≀ S_3
    48
    """
    out = 1
    for (k, lam), m in Counter(cycles).items():
        out *= (k * centraliser_order(lam)) ** m * math.factorial(m)
    return out


@dataclass(frozen=True)
class LatinClass:
    """A conjugacy class of the group acting (W or diagonal ``S_n``).

    Attributes
    ----------
    coset : str
        ``"id"``, ``"(12)"`` or ``"(123)"``: δ's class; ``"diagonal"`` for
        an isomorphism class.
    types : tuple of partitions
        δ = id: the three types (most cycles first); ``(12)``: (the 2-cycle's
        product, the fixed coordinate's); ``(123)``: the product's;
        diagonal: the type of ``a``.
    size : int
        Elements in the class.
    """

    n: int
    coset: str
    types: tuple
    size: int

    @property
    def is_identity(self) -> bool:
        return self.coset in ("id", "diagonal") and all(set(t) == {1} for t in self.types)

    def label(self) -> str:
        words = ", ".join(type_label(t) for t in self.types)
        return words if self.coset == "diagonal" else f"δ={self.coset}: {words}"

    def representative(self) -> str:
        """The representative in words, as :meth:`triples` builds it."""
        t = [type_label(x) for x in self.types]
        if self.coset == "id":
            return f"(σ[{t[0]}], σ[{t[1]}], σ[{t[2]}]; id)"
        if self.coset == "(12)":
            return f"(σ[{t[0]}], id, τ[{t[1]}]; (12)): (r,c,s)→(σ c, r, τ s)"
        if self.coset == "(123)":
            return f"(σ[{t[0]}], id, id; (123)): (r,c,s)→(σ s, r, c)"
        return f"(σ[{t[0]}], σ[{t[0]}], σ[{t[0]}])"

    def perms(self) -> tuple:
        """``(a1, a2, a3, δ)`` of the representative."""
        s = [type_representative(t) for t in self.types]
        ident = tuple(range(self.n))
        if self.coset == "id":
            return s[0], s[1], s[2], _IDENTITY_DELTA
        if self.coset == "(12)":
            return s[0], ident, s[1], _SWAP
        if self.coset == "(123)":
            return s[0], ident, ident, _CYCLE
        return s[0], s[0], s[0], _IDENTITY_DELTA

    def triples(self) -> np.ndarray:
        """The representative as a permutation of the n³ triples."""
        return paratopism(self.n, *self.perms())


def paratopy_classes(n: int) -> tuple[LatinClass, ...]:
    """The conjugacy classes of ``S_n ≀ S_3``, the identity first."""
    order = 6 * math.factorial(n) ** 3
    types = partitions(n)
    out = []
    for trio in combinations_with_replacement(types, 3):     # types[0] = (n,): largest first
        trio = tuple(reversed(trio))                          # 1^n first: the identity leads
        out.append(LatinClass(n, "id", trio, order // wreath_centraliser([(1, t) for t in trio])))
    out.sort(key=lambda c: not c.is_identity)
    for s, t in product(types, types):
        out.append(LatinClass(n, "(12)", (s, t), order // wreath_centraliser([(2, s), (1, t)])))
    for s in types:
        out.append(LatinClass(n, "(123)", (s,), order // wreath_centraliser([(3, s)])))
    return tuple(out)


def isomorphism_classes(n: int) -> tuple[LatinClass, ...]:
    """The conjugacy classes of ``S_n`` acting diagonally, the identity first."""
    fact = math.factorial(n)
    return tuple(LatinClass(n, "diagonal", (t,), fact // centraliser_order(t))
                 for t in reversed(partitions(n)))


def _items(n: int) -> np.ndarray:
    """``(n³, 3)``: the pair items of each triple (row-column, row-symbol, column-symbol)."""
    r, c, s = np.unravel_index(np.arange(n ** 3), (n, n, n))
    return np.stack([r * n + c, n * n + r * n + s, 2 * n * n + c * n + s], axis=1)


@lru_cache(maxsize=2)
def _all_permutations(n: int) -> np.ndarray:
    """``(n!, n)`` uint8: every permutation of ``range(n)``, in lexicographic order."""
    return np.array(list(permutations(range(n))), dtype=np.uint8).reshape(-1, n)


def diagonal_commuting(n: int, perm) -> np.ndarray:
    """The ``a`` with ``a(0) = 0`` whose diagonal ``(a, a, a)`` commutes
    with the triple permutation ``perm``: ``(k, n)`` int64."""
    perm = np.asarray(perm, dtype=np.int64)
    a_all = _all_permutations(n)
    a_all = a_all[a_all[:, 0] == 0].astype(np.int64)
    r, c, s = np.unravel_index(np.arange(n ** 3), (n, n, n))
    pr, pc, ps = np.unravel_index(perm, (n, n, n))
    keep = []
    for chunk in np.array_split(a_all, max(1, len(a_all) // 4096)):
        # diag(a)(perm(x)) == perm(diag(a)(x)) for every triple x
        left = (chunk[:, pr] * n + chunk[:, pc]) * n + chunk[:, ps]
        right = perm[(chunk[:, r] * n + chunk[:, c]) * n + chunk[:, s]]
        keep.append(chunk[(left == right).all(axis=1)])
    return np.concatenate(keep)


def first_row_classes(n: int, perm) -> list[tuple[tuple[int, ...], int]]:
    """``[(first row, class size), ...]``: the first rows ``ρ`` (``ρ[c]`` the
    symbol of cell ``(0, c)``) by classes of ``ρ ↦ aρa⁻¹`` over the ``a``
    of :func:`diagonal_commuting`.  Such an ``(a, a, a)`` maps the squares
    ``perm`` fixes onto themselves and row 0 onto itself, so every first
    row of a class starts equally many."""
    rows = _all_permutations(n)
    images = []
    found = diagonal_commuting(n, perm)
    if len(found) > GENERATORS:      # a fixed sample: any set gives a correct count
        found = found[np.sort(np.random.default_rng(0).choice(len(found), GENERATORS, False))]
    for a in found:
        image = np.empty_like(rows)
        image[:, a] = a[rows]                  # (aρa⁻¹)(a c) = a ρ(c)
        images.append(image)
    first, size, _ = orbit_classes(rows, images)
    return [(tuple(int(x) for x in rows[i]), int(k)) for i, k in zip(first, size)]


def triple_quotient(n: int, perm):
    """The quotient exact cover of the Latin squares of order ``n`` by
    ``⟨perm⟩`` (``perm`` a permutation of the n³ triples): its exact covers
    are the squares ``perm`` maps onto themselves (:func:`.full_burnside.quotient`)."""
    return quotient(_items(n).tolist(), np.asarray(perm, dtype=np.int64), [True] * (3 * n * n))


def quotient_fixed(n: int, perm, options: CountOptions | None = None, *,
                   split_at: int | None = SPLIT_AT) -> int:
    """The Latin squares of order ``n`` that the triple permutation ``perm``
    maps onto themselves: exact covers of the quotient by ``⟨perm⟩``.

    When there are ``split_at`` or more (None: never), count one first row
    per class of :func:`first_row_classes` (given to the search), weighted
    by the class size; else one search."""
    return quotient_search(n, perm, options, split_at=split_at).count


def quotient_search(n: int, perm, options: CountOptions | None = None, *,
                    split_at: int | None = SPLIT_AT) -> Tally:
    """:func:`quotient_fixed` with the work of its searches: the count, and
    the nodes, dead ends, memo hits and seconds of every search it made (the
    first, stopped at ``split_at`` covers, included; all 0 when the
    quotient has no option and nothing is searched)."""
    options = CountOptions() if options is None else options
    q = triple_quotient(n, perm)
    if not q.rows:
        return Tally(0)
    cover, row_of = q.cover(), q.row_of
    memo = dict(memo=options.memo, memo_mb=options.memo_mb, memo_at="all")
    if split_at is None or n < 3:
        return Tally.of_engine(cover.count(**memo), cover)
    small = Tally.of_engine(cover.count(limit=split_at), cover)
    if small.count < split_at:
        return small
    total = dataclasses.replace(small, count=0)          # its work, not its count
    for rho, size in first_row_classes(n, perm):
        given = {int(row_of[c * n + s]) for c, s in enumerate(rho)}      # triples (0, c, s)
        if -1 in given:
            continue
        try:
            fixed = cover.count(given=sorted(given), **memo)
        except ConflictingGivensError:
            continue
        total = total.plus(Tally.of_engine(fixed, cover), weight=size)
    return total


def cell_commuting(n: int, cells, unit: list[int], limit: int = SAMPLE) -> list[Commuting]:
    """The ``(r, c) ↦ (a r, a c)`` that commute with the cell permutation
    ``cells`` and map ``unit`` onto itself, as :class:`~.cover.Commuting`
    (at most ``limit``: a fixed sample when there are more).  They map Latin
    squares to Latin squares, so :func:`~.fixed.count_fixed` may reduce by them."""
    cells = np.asarray(cells, dtype=np.int64)
    r, c = np.divmod(np.arange(n * n), n)
    hr, hc = np.divmod(cells, n)
    target = np.sort(np.asarray(unit, dtype=np.int64))
    found = []
    a_all = _all_permutations(n)
    for chunk in np.array_split(a_all.astype(np.int64), max(1, len(a_all) // 4096)):
        d = chunk[:, r] * n + chunk[:, c]
        keep = ((chunk[:, hr] * n + chunk[:, hc]) == cells[d]).all(axis=1) & \
            (np.sort(d[:, target], axis=1) == target).all(axis=1)
        found.append(d[keep])
    d = np.concatenate(found)
    if len(d) > limit:
        d = d[np.sort(np.random.default_rng(0).choice(len(d), limit, False))]
    return [Commuting.of(p, unit) for p in d]


def _split_search(n: int, cells: CellSymmetry | Symmetry, pi_type, options,
                  transposing: bool) -> Tally:
    """``z_t · A_t(h)``: the squares with ``X∘h = π∘X`` for one ``π`` of
    type ``t``, with the work of :func:`~.fixed.count_fixed`'s searches."""
    kind = f"1x{n}"
    if tuple(pi_type) not in relabelling_types(kind, cells):
        return Tally(0)
    commuting = None
    if transposing:          # not an element of G: reduce by the diagonal elements
        perm = cells.cell_permutation()
        commuting = lambda unit: cell_commuting(n, perm, unit, limit=COMMUTING_LIMIT)  # noqa: E731
    fc = count_fixed(kind, cells, pi_type, options, commuting=commuting)
    return fc.tally(centraliser_order(pi_type))


def term_fixed(cls: LatinClass, options: CountOptions | None = None, *,
               grid_total: int | None = None, method: str = "fast") -> int:
    """Fix of the class's representative: the Latin squares it maps onto themselves.

    The identity's is ``grid_total`` (the grid count of ``1xn``), searched
    only for n ≤ :data:`~.burnside.MAX_SEARCHED_IDENTITY`; ValueError in one
    line when it is missing, or when ``grid_total`` is no multiple of n!.
    """
    return term_search(cls, options, grid_total=grid_total, method=method).count


def term_search(cls: LatinClass, options: CountOptions | None = None, *,
                grid_total: int | None = None, method: str = "fast") -> Tally:
    """:func:`term_fixed` with the work of its searches: the count, and the
    nodes, dead ends, memo hits and seconds of the exact covers counted
    (all 0 when nothing is searched: a term ruled out, an identity given
    ``grid_total``)."""
    n = cls.n
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    fact = math.factorial(n)
    if cls.is_identity:
        if grid_total is not None:
            if isinstance(grid_total, bool) or not isinstance(grid_total, int) \
                    or grid_total < 1 or grid_total % fact:
                raise ValueError(f"grid total of 1x{n} must be a positive multiple of {n}!, "
                                 f"got {grid_total!r}")
            return Tally(grid_total)
        if n > MAX_SEARCHED_IDENTITY:
            raise ValueError(f"the identity fixes every Latin square of order {n}: pass "
                             f"grid_total (the grid count of 1x{n})")
        return count_fixed(f"1x{n}", Symmetry.identity(f"1x{n}"), (1,) * n,
                           options).tally(fact)
    if method == "quotient" or cls.coset == "(123)":
        return quotient_search(n, cls.triples(), options)
    cells, pi_type = split_parts(cls)
    return _split_search(n, cells, pi_type, options, transposing=cls.coset == "(12)")


def split_parts(cls: LatinClass) -> tuple[CellSymmetry | Symmetry, tuple]:
    """A δ = id, (1 2) or diagonal representative as cells × relabelling:
    ``(h, type of π)`` (module docstring); ValueError for a δ = (1 2 3) one."""
    if cls.coset == "(123)":
        raise ValueError(f"a δ = (1 2 3) term moves symbols into rows: no cells × relabelling "
                         f"({cls.label()})")
    n = cls.n
    a1, a2, _, _ = cls.perms()
    if cls.coset == "(12)":                     # (r, c) ↦ (σ_s c, r), π = σ_t
        return CellSymmetry(tuple(a1[c] * n + r for r in range(n) for c in range(n))), \
            tuple(cls.types[1])
    pi_type = cls.types[-1] if cls.coset == "id" else cls.types[0]
    return Symmetry(tuple(a1), tuple(a2)), tuple(pi_type)


def ruled_out(cls: LatinClass) -> bool:
    """Whether the term's Fix is 0 without a search: a representative
    split as cells × relabelling whose relabelling type
    :func:`~.fixed.relabelling_types` rules out (:func:`term_fixed` returns
    0 for it at once).  The identity and the δ = (1 2 3) terms are never
    ruled out.  A check of a few milliseconds, made once per class of the
    cell permutation (its types decide it: :data:`_POSSIBLE`)."""
    if cls.is_identity or cls.coset == "(123)":
        return False
    cells_types = cls.types[:2] if cls.coset == "id" else cls.types[:1]
    key = (cls.n, cls.coset, tuple(map(tuple, cells_types)))
    cells, pi_type = split_parts(cls)
    if key not in _POSSIBLE:
        _POSSIBLE[key] = frozenset(relabelling_types(f"1x{cls.n}", cells))
    return pi_type not in _POSSIBLE[key]


def free_cells(cls: LatinClass) -> float:
    """The cells a square fixed by the term's representative is free to
    fill: the orbits of its cell permutation (a δ = (1 2 3) term: the orbits
    of its triple permutation / n).  A bound of no cost on the term's search,
    for the cost estimate only: at order 9 the terms that carry the work
    have 25 to 45, most of the others fewer."""
    if cls.coset == "(123)":
        return len(cell_orbits(cls.triples())) / cls.n
    return float(len(cell_orbits(split_parts(cls)[0].cell_permutation())))


#: (order, coset, the cells' types) -> the relabelling types such cells can
#: fix a square with (:func:`ruled_out`; a few thousand keys at most).
_POSSIBLE: dict[tuple, frozenset] = {}


@dataclass(frozen=True)
class LatinTerm:
    """One Burnside term: a class, its Fix, and the CPU seconds it took."""

    cls: LatinClass
    fixed: int
    cpu_seconds: float

    @property
    def weighted(self) -> int:
        return self.cls.size * self.fixed


@dataclass(frozen=True)
class LatinClasses:
    """Burnside's sum for one order and group.

    Attributes
    ----------
    n : int
    group : str
        ``"main classes"`` or ``"isomorphism classes"``.
    order : int
        The group's order (``6·n!³`` or ``n!``).
    terms : tuple of LatinTerm
    """

    n: int
    group: str
    order: int
    terms: tuple

    @property
    def total(self) -> int:
        return sum(t.weighted for t in self.terms)

    @property
    def classes(self) -> int:
        """The number of classes; ArithmeticError if the order does not divide the sum."""
        q, r = divmod(self.total, self.order)
        if r:
            raise ArithmeticError(f"order {self.n}, {self.group}: Σ |K|·Fix = {self.total:,} "
                                  f"is not a multiple of the order {self.order:,}")
        return q

    @property
    def isotopy_classes(self) -> int:
        """Main classes only: the δ = id terms / n!³, the isotopy classes."""
        part = sum(t.weighted for t in self.terms if t.cls.coset == "id")
        q, r = divmod(part, math.factorial(self.n) ** 3)
        if r:
            raise ArithmeticError(f"the δ = id terms {part:,} are no multiple of {self.n}!³")
        return q


def _count(group: str, order: int, classes, options, grid_total, method, on_term) -> LatinClasses:
    terms = []
    for cls in classes:
        t0 = time.process_time()
        fixed = term_fixed(cls, options, grid_total=grid_total, method=method)
        term = LatinTerm(cls, fixed, time.process_time() - t0)
        if on_term is not None:
            on_term(term)
        terms.append(term)
    return LatinClasses(classes[0].n, group, order, tuple(terms))


def _check_order(n) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"order must be a positive integer, got {n!r}")
    return n


def main_class_count(n: int, options: CountOptions | None = None, *,
                     grid_total: int | None = None, method: str = "fast",
                     on_term=None) -> LatinClasses:
    """Main classes of Latin squares of order ``n`` (OEIS A003090), every
    term counted (``on_term(term)`` told each as it is done)."""
    n = _check_order(n)
    return _count("main classes", 6 * math.factorial(n) ** 3, paratopy_classes(n), options,
                  grid_total, method, on_term)


def isomorphism_class_count(n: int, options: CountOptions | None = None, *,
                            grid_total: int | None = None, method: str = "fast",
                            on_term=None) -> LatinClasses:
    """Isomorphism classes of quasigroups of order ``n`` (OEIS A057991)."""
    n = _check_order(n)
    return _count("isomorphism classes", math.factorial(n), isomorphism_classes(n), options,
                  grid_total, method, on_term)
