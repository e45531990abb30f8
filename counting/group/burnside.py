"""Essentially different grids: Burnside's lemma over the grid symmetry group.

Two grids are *essentially the same* when one becomes the other by an
element of G (:mod:`.group`: band, stack, row-in-band and column-in-stack
permutations, and transposition for square boxes) followed by a relabelling
of the digits.  This module counts the classes.

The formula
-----------
The group acting is ``G × S_N`` (``S_N`` relabels the digits; it commutes
with G).  By Burnside's lemma the number of orbits on the set ``𝒳`` of grids is

    E = 1/(|G|·N!) · Σ_{g ∈ G} Σ_{π ∈ S_N} #{X ∈ 𝒳 : X∘g = π∘X}

(a grid ``X`` is a map cells → digits; ``X∘g = π∘X`` says that moving the
cells by ``g`` gives the grid relabelled by ``π``).  Fix ``g``.  A grid uses
every digit, so at most one ``π`` satisfies ``X∘g = π∘X``; the inner sum is
therefore ``F(g)``, the number of grids fixed by ``g`` *up to relabelling*.
That set is closed under relabelling (``X∘g = π∘X`` gives
``σX∘g = (σπσ⁻¹)∘σX``) and relabelling acts freely on grids, with exactly
one grid of each relabelling class having a given unit — box 1, say —
standard (``1..N`` in reading order).  So ``F(g) = N!·A(g)``, where

    A(g) = #{X ∈ 𝒳 with box 1 standard : X∘g = π∘X for some π},

and

    E = 1/|G| · Σ_{g ∈ G} A(g) = 1/|G| · Σ_{classes K} |K|·A(g_K).

``A`` is constant on a conjugacy class (``X ↦ X∘h`` maps the grids fixed by
``g`` to those fixed by ``h⁻¹gh``, and relabelling back to box 1 standard is
a bijection), so one representative per class suffices.  For the identity
every grid is fixed (with ``π = id``): ``A(id) = |𝒳|/N!``, the ordinary grid
count divided by ``N!``.  The tests check the formula against a brute-force
count of orbits (union-find over all grids) for 2×2 (2 classes) and 2×3 (49),
and ``A(g)`` against brute force for every class of both shapes.

Work units
----------
``A(g) = Σ_t A_t(g)`` over the cycle types ``t`` of ``π``
(:func:`counting.group.fixed.count_fixed`).  A *unit* is one (class,
type) pair that can be non-zero (:func:`counting.group.fixed.relabelling_types`
drops the rest, and with them most classes).  The units are ordered by
``(class_id, type_id)``, where ``class_id`` is the class's position in
:func:`counting.group.symmetries.conjugacy_classes` (0 = identity) and
``type_id`` the type's position in :func:`relabelling_types_in_order`
(the partitions of N from ``1^N`` to ``N``); a unit's id is its position
in that order, so the ids are stable and the identity's unit is unit 0
(as for every reduction, :mod:`counting.reduction.orbits`).  The unit
carries everything a worker
needs (:class:`SymmetryUnit`: shape, ids, class size = weight, the
representative ``g`` as row and column permutations and a transposition
flag, ``π``'s type) and its result (:class:`SymmetryResult`) is the exact
count ``fixed = A_t(g)`` with the search statistics.

Grid kinds
----------
For a kind with extra rules (:mod:`grids.kind`: ``3x3+x``, ``2x3+disjoint``,
a jigsaw), two grids are essentially the same when one becomes the other by
an element of the kind's group ``H`` (:mod:`.kind_group`: the elements of G
that keep the kind's rules) followed by a relabelling.  The argument above
holds word for word with ``H`` in place of G (it only uses that the group
maps grids to grids and commutes with relabelling):

    E = 1/|H| · Σ_{classes K of H} |K|·A(h_K),

``A(h)`` counted by :func:`counting.group.fixed.count_fixed` on the kind (its
exact cover has the kind's houses and difference pairs).  The classes are
those of ``H`` (:func:`~counting.group.kind_group.kind_classes`), not of G.
So the group is a parameter (:class:`BurnsideGroup`, :func:`burnside_group`:
G for a box shape, ``H`` for a kind) and every function here takes a box
shape or a grid kind; a kind's units carry the kind's text as ``shape``.

Latin squares
-------------
For ``1xN`` and ``Nx1`` a box is a row (column), the bands (stacks) are
the single rows (columns), so G permutes rows and columns freely and has no
transposition: the classes are the *isotopy classes* of Latin squares of
order N (OEIS A040082: 1, 1, 1, 2, 2, 22, 564, …).

The identity unit
-----------------
The identity class has one unit (``t = 1^N``).  Its ``fixed`` is the grid
count over ``N!``: :func:`count_unit` takes the grid count from the caller
(``grid_total``, e.g. from the grid count's store), and counts it by exact
cover itself only for grids of side ≤ 6.

As a job (store, pool, CLI)
---------------------------
``gridcount count SHAPE --up-to-symmetry`` runs these units as the
``symmetry`` reduction (:mod:`counting.reduction.orbits`): the work list
is :func:`symmetry_units`, a worker calls :func:`count_unit` (``options``:
the job's :class:`~counting.options.CountOptions`, of which ``memo`` and
``memo_mb`` apply) and the store keeps ``fixed`` as the unit's count; the
identity is recorded from the grid count's store
(:mod:`counting.plan`).  :func:`burnside_table` gives the
table the command prints (one :class:`ClassRow` per class with units:
``size``, ``fixed`` = A, ``weighted`` = size·A, ``as_dict()`` for
``--json``) and :func:`essentially_different` the total (exact,
divisibility checked).  ``scripts/bench_symmetry.py`` runs the same units
in a plain process pool and writes :data:`CSV_HEADER` / :func:`csv_row`
rows, with the search statistics the store does not keep.

Example
-------
>>> units = symmetry_units("2x2")
>>> results = {u.unit_id: count_unit(u).fixed for u in units}
>>> essentially_different("2x2", results)
2
>>> units = symmetry_units("2x2+x")                  # 4×4 Sudoku X, over its group H
>>> essentially_different("2x2+x", {u.unit_id: count_unit(u).fixed for u in units})
1
"""
from __future__ import annotations

import math
import socket
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Mapping

from counting.exact_json import exact_map
from counting.options import CountOptions
from counting.group.fixed import count_fixed, relabelling_types, standard_unit
from counting.group.kind_group import kind_classes
from counting.group.permutations import partitions
from counting.group.symmetries import Symmetry, conjugacy_classes, group_order
from counting.units import WorkUnit
from dlx.api import ENGINE_VERSION
from grids.kind import GridKind, as_kind

__all__ = ["BurnsideGroup", "burnside_group", "BurnsideTerm", "SymmetryUnit", "SymmetryResult", "ClassRow",
           "symmetry_units", "count_unit",
           "identity_fixed", "burnside_table", "relabelling_types_in_order", "essentially_different", "type_label",
           "CSV_HEADER", "csv_row", "MAX_SEARCHED_IDENTITY"]

#: Largest grid side whose identity unit :func:`count_unit` counts by
#: itself (a 6×6 grid count takes well under a second; 8×8 would take hours).
MAX_SEARCHED_IDENTITY = 6

#: The stored name of the reduction whose units these are
#: (:mod:`counting.reduction.orbits`).
REDUCTION = "symmetry"


def type_label(pi_type: tuple[int, ...]) -> str:
    """Cycle type in exponent notation, e.g. ``(3, 3, 1, 1, 1)`` → ``"3^2 1^3"``.

    Example
    -------
    >>> type_label((9,)), type_label((2, 2, 2, 1, 1, 1))
    ('9', '2^3 1^3')
    """
    parts = []
    for length in sorted(set(pi_type), reverse=True):
        m = pi_type.count(length)
        parts.append(str(length) if m == 1 else f"{length}^{m}")
    return " ".join(parts)


class BurnsideTerm:
    """What every Burnside unit (a work unit of one class and one relabelling
    type) names in its own words: its class size, its type, whether it is the
    identity's term."""

    @property
    def size(self) -> int:
        """The class size: the unit's weight in Σ size · A."""
        return self.weight

    @property
    def type_id(self) -> int:
        """The relabelling type's position (kept as ``form_id``)."""
        return self.form_id

    @property
    def is_identity(self) -> bool:
        return self.class_id == 0


@dataclass(frozen=True)
class SymmetryUnit(BurnsideTerm, WorkUnit):
    """One work unit: ``A_t(g)`` for a class representative ``g`` and a type ``t``.

    Of the common fields (:class:`counting.units.WorkUnit`): ``reduction``
    is ``"symmetry"``, ``unit_id`` the position in the order of
    ``(class_id, type_id)`` (module docstring), ``class_id`` the position in
    :func:`~counting.group.symmetries.conjugacy_classes`, ``form_id`` the
    type's position in :func:`relabelling_types_in_order` (:attr:`type_id`)
    and ``weight`` the number of elements of the class (:attr:`size`).

    Attributes
    ----------
    rows, cols : tuple of int
        The representative ``g`` (one-line notation, 0-based):
        cell ``(r, c)`` goes to ``(rows[r], cols[c])``, or to
        ``(rows[c], cols[r])`` when ``transpose``.
    transpose : bool
    pi_type : tuple of int
        The cycle type of the relabelling, a partition of N, largest first.
    """

    rows: tuple[int, ...] = ()
    cols: tuple[int, ...] = ()
    transpose: bool = False
    pi_type: tuple[int, ...] = ()

    @property
    def symmetry(self) -> Symmetry:
        return Symmetry(self.rows, self.cols, self.transpose)



@dataclass(frozen=True)
class SymmetryResult:
    """The outcome of one unit, as a store would keep it.

    ``fixed`` is ``A_t(g)``, exact; ``relabellings`` the candidate ``π``
    consistent with the standard unit, ``searches`` the exact covers run
    (0 when the grid count was supplied), ``nodes``, ``dead_ends`` and
    ``memo_hits`` the engine's figures of every search the unit ran
    (:attr:`~.fixed.FixedCount.nodes`).
    """

    unit_id: int
    class_id: int
    type_id: int
    fixed: int
    standard_unit: str
    relabellings: int
    searches: int
    nodes: int
    seconds: float
    host: str
    engine_version: str
    dead_ends: int = 0
    memo_hits: int = 0

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class BurnsideGroup:
    """The geometric group whose orbits (with relabelling) are counted.

    G for a box shape (classes from the wreath products,
    :func:`~counting.group.symmetries.conjugacy_classes`), ``H`` for a kind
    with extra rules (classes by conjugating on cells,
    :func:`~counting.group.kind_group.kind_classes`); the units, the table and
    the divisibility check below are the same for both.

    Attributes
    ----------
    kind : GridKind
        The grids acted on (a plain kind for a box shape).
    classes : tuple
        Its conjugacy classes (``class_id``, ``size``, ``representative``,
        ``label``), identity first, ``class_id`` = position.
    order : int
        ``|G|`` or ``|H|``, the geometric order (relabelling aside).
    symbol : str
        ``"G"`` or ``"H"``, as messages name the group.
    """

    kind: GridKind
    classes: tuple
    order: int
    symbol: str

    def other_conjugate(self, g: Symmetry) -> tuple[Symmetry, Symmetry] | None:
        """``(h, h·g·h⁻¹)`` for an ``h`` of the group with ``h·g·h⁻¹ ≠ g``, or
        None when ``g`` is central (it commutes with the whole group: its
        class is itself).

        ``A_t`` is the same for both (module docstring: ``X ↦ X∘h``), so
        counting ``h·g·h⁻¹`` is a second count of ``g``'s units; a second
        decomposition, too, when the unit made standard for ``h·g·h⁻¹``
        (:func:`~counting.group.fixed.standard_unit`) is not the image under
        ``h`` of ``g``'s, for otherwise its exact covers are those of ``g``
        with the cells renamed by ``h``.  So ``h`` is the first class
        representative that gives such a conjugate, else the first that does
        not commute with ``g``.  A representative of each class is in the
        group (for a kind: in ``H``, so ``h`` keeps its rules and so does
        ``h·g·h⁻¹``), and they generate it — a finite group is not the union
        of the conjugates of a proper subgroup, and the subgroup they generate
        meets every class — so None only when ``g`` commutes with every element.
        """
        shape = self.kind.shape
        cells = standard_unit(self.kind, g)[1]
        first = None
        for cls in self.classes[1:]:
            h = cls.representative
            other = g.conjugated_by(shape, h)
            if other == g:
                continue
            if set(h.cell_permutation()[cells].tolist()) != set(standard_unit(self.kind, other)[1]):
                return h, other
            first = first or (h, other)
        return first


def burnside_group(shape) -> BurnsideGroup:
    """The group of ``shape`` (a box shape or a grid kind, or its text)."""
    return _group(as_kind(shape).name)


@lru_cache(maxsize=64)
def _group(name: str) -> BurnsideGroup:
    kind = as_kind(name)
    if kind.plain:
        return BurnsideGroup(kind, conjugacy_classes(kind.shape), group_order(kind.shape), "G")
    classes = kind_classes(name)   # checked to partition H: their sizes add up to |H|
    return BurnsideGroup(kind, classes, sum(c.size for c in classes), "H")


def relabelling_types_in_order(n: int) -> tuple[tuple[int, ...], ...]:
    """The cycle types of relabellings of N digits, numbered by ``type_id``:
    ``1^N`` first, ``(N,)`` last."""
    return tuple(reversed(partitions(n)))


def symmetry_units(shape) -> list[SymmetryUnit]:
    """Every unit of ``shape`` (a box shape or a grid kind, or its text), by unit id."""
    return list(_units(as_kind(shape).name))


@lru_cache(maxsize=64)
def _units(name: str) -> tuple[SymmetryUnit, ...]:
    group = _group(name)
    types = relabelling_types_in_order(group.kind.shape.n)
    type_id = {t: i for i, t in enumerate(types)}
    out = []
    for cls in group.classes:
        g = cls.representative
        for t in sorted(relabelling_types(group.kind, g), key=type_id.get):
            out.append(SymmetryUnit(name, REDUCTION, len(out), cls.class_id, type_id[t],
                                    cls.size, g.rows, g.cols, g.transpose, t))
    return tuple(out)


def identity_fixed(shape, grid_total: int) -> int:
    """``A(id) = grid_total / N!``, checking that ``N!`` divides it
    (``shape`` a box shape or a grid kind: its box shape's N)."""
    kind = as_kind(shape)
    s = kind.shape
    # 0 only for a kind with extra rules and no grid at all (every box shape
    # has grids): then no grid is fixed either
    least = 1 if kind.plain else 0
    if isinstance(grid_total, bool) or not isinstance(grid_total, int) or grid_total < least:
        raise ValueError(f"grid total must be an integer ≥ {least}, got {grid_total!r}")
    q, r = divmod(grid_total, math.factorial(s.n))
    if r:
        raise ValueError(f"grid total {grid_total:,} of {kind.name} is not a multiple of "
                         f"{s.n}! (relabelling acts freely): not a grid count")
    return q


def count_unit(unit: SymmetryUnit, options: CountOptions | None = None, *,
               grid_total: int | None = None) -> SymmetryResult:
    """Count one unit.

    The identity unit needs ``grid_total`` (the number of grids of the
    shape) unless the grid side is at most :data:`MAX_SEARCHED_IDENTITY`;
    every other unit ignores it.  Raises ``ValueError`` with a one-line
    message when the identity's count is missing.
    """
    if unit.is_identity and grid_total is not None:
        return SymmetryResult(unit.unit_id, unit.class_id, unit.type_id,
                              identity_fixed(unit.shape, grid_total), "grid count", 1, 0, 0,
                              0.0, socket.gethostname(), ENGINE_VERSION)
    kind = as_kind(unit.shape)
    n = kind.shape.n
    if unit.is_identity and n > MAX_SEARCHED_IDENTITY:
        raise ValueError(f"the identity of {kind.name} fixes every grid: its count is the "
                         f"grid count / {n}!, pass grid_total (from the grid count)")
    fc = count_fixed(kind, unit.symmetry, unit.pi_type, options)
    return SymmetryResult(unit.unit_id, unit.class_id, unit.type_id, fc.count, fc.unit,
                          fc.relabellings, fc.searches, fc.nodes, round(fc.seconds, 6),
                          socket.gethostname(), ENGINE_VERSION, fc.dead_ends, fc.memo_hits)


@dataclass(frozen=True)
class ClassRow:
    """One line of the Burnside table: a class, its size and ``A``."""

    class_id: int
    size: int
    fixed: int
    label: str
    representative: str

    @property
    def weighted(self) -> int:
        """``size · fixed``."""
        return self.size * self.fixed

    def as_dict(self) -> dict:
        """The row for ``--json``: ``size``, ``fixed`` and ``weighted`` as
        decimal strings with the integers beside them (3x3's ``fixed`` passes
        2^53: :mod:`counting.exact_json`)."""
        return {"class_id": self.class_id,
                **exact_map({"size": self.size, "fixed": self.fixed, "weighted": self.weighted}),
                "label": self.label, "representative": self.representative}


def _checked(shape, fixed: Mapping[int, int]) -> dict[int, int]:
    name = as_kind(shape).name
    ids = {u.unit_id for u in symmetry_units(name)}
    unknown = sorted(set(fixed) - ids)
    if unknown:
        raise ValueError(f"unit ids {unknown[:5]} are not units of {name}")
    missing = sorted(ids - set(fixed))
    if missing:
        raise ValueError(f"{len(missing):,} of {len(ids):,} units of {name} have no "
                         f"count yet (first: {missing[0]})")
    for u, v in fixed.items():
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"unit {u}: count must be a non-negative integer, got {v!r}")
    return dict(fixed)


def burnside_table(shape, fixed: Mapping[int, int]) -> list[ClassRow]:
    """Per class with units: size, ``A = Σ_t A_t`` and the description.

    ``fixed`` maps every unit id of ``shape`` (a box shape or a grid kind)
    to its count.  Classes without units fix nothing and are left out
    (their size·A is 0).
    """
    fixed = _checked(shape, fixed)
    per_class: dict[int, int] = {}
    for u in symmetry_units(shape):
        per_class[u.class_id] = per_class.get(u.class_id, 0) + fixed[u.unit_id]
    classes = burnside_group(shape).classes
    return [ClassRow(k, classes[k].size, a, classes[k].label,
                     classes[k].representative.describe())
            for k, a in sorted(per_class.items())]


def essentially_different(shape, fixed: Mapping[int, int]) -> int:
    """``Σ size·A / |G|`` (``|H|`` for a grid kind), exact; raises
    ``ArithmeticError`` if the order does not divide the sum (a wrong count
    somewhere: an orbit count is an integer)."""
    group = burnside_group(shape)
    numerator = sum(row.weighted for row in burnside_table(shape, fixed))
    q, r = divmod(numerator, group.order)
    if r:
        raise ArithmeticError(f"Σ size·A = {numerator:,} is not a multiple of |{group.symbol}| = "
                              f"{group.order:,}: some unit count is wrong")
    return q


#: Columns of ``results/RxC-symmetry.csv`` (:func:`csv_row`).
CSV_HEADER = ("unit_id", "class_id", "class_size", "representative", "class", "pi_type",
              "fixed", "standard_unit", "relabellings", "searches", "nodes", "seconds")


def csv_row(unit: SymmetryUnit, result: SymmetryResult) -> tuple:
    """One CSV row of a unit and its result, in :data:`CSV_HEADER` order."""
    cls = burnside_group(unit.shape).classes[unit.class_id]
    return (unit.unit_id, unit.class_id, unit.size, unit.symmetry.describe(), cls.label,
            type_label(unit.pi_type), result.fixed, result.standard_unit,
            result.relabellings, result.searches, result.nodes, f"{result.seconds:.3f}")
