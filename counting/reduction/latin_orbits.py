"""The Latin-square groups of ``--up-to-symmetry``: main classes and isomorphism classes.

``gridcount count 1xN --up-to-symmetry --group main-class`` counts the main
classes of Latin squares of order N (paratopy, ``S_N ≀ S_3``: rows, columns
and symbols permuted and their roles exchanged; OEIS A003090) and ``--group
isomorphism`` the isomorphism classes of quasigroups (one permutation applied
to rows, columns and symbols; OEIS A057991), by Burnside's sum of
:mod:`counting.group.latin_classes` run as a job of units behind the same
:class:`~counting.reduction.base.Reduction` interface as the other groups
(:mod:`.orbits`, :mod:`.full_orbits`): stored, resumed, merged, recounted
and reported like them.  ``--group isotopy`` is today's ``grid`` group of a
Latin kind (rows, columns, symbols each permuted), the same job and store.
``--group loops`` (loops up to isomorphism) is a subclass in its own module,
:mod:`.loop_orbits`.

* A unit is one conjugacy class of the group (:class:`LatinUnit`, a
  :class:`~counting.group.latin_classes.LatinClass`): ``unit_id`` = its
  position among the classes (0 the identity), its count ``Fix(g)``, the
  Latin squares its representative maps onto themselves
  (:func:`~counting.group.latin_classes.term_fixed`), its weight the class size.
* Unit 0, the identity, fixes every square.  Its count is, as for every
  group, the grid count / N! (the squares with row 1 in order), recorded
  from the grid count's store and tied to it exactly as for today's group
  (:mod:`counting.store.identity`); its weight is N! (its class of one
  element times the N! squares each stands for), so that
  ``Σ weight · count = Σ |K| · Fix(g_K)``.
* The sum has no factors and one divisor, the group's order (``6·N!³`` or
  ``N!``), which :meth:`Reduction.total` checks divides it.

Each group has its own stored name (``symmetry-main-class``,
``symmetry-isomorphism``), so a store of one group is never taken for
another (:func:`counting.plan.other_group` refuses it naming both).  Kinds
that are not Latin squares, and orders above :data:`MAX_ORDER`, are refused
in one line (:func:`refusal`).

``gridcount recount`` counts a term for another element ``h·g·h⁻¹`` of its
class (``h`` a paratopism drawn from the unit's id) by the quotient exact
cover (:func:`~counting.group.latin_classes.quotient_fixed`): another
element, another method for every class counted as cells × relabelling.

Example
-------
>>> red = MainClassReduction("1x4")
>>> counts = {u.unit_id: red.count_directly(u).count for u in red.units()}
>>> red.total(counts), red.divisors[0][1]
(2, 82944)
"""
from __future__ import annotations

import dataclasses
import math
import random
import time
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from counting.group.burnside import BurnsideTerm, ClassRow, burnside_group, identity_fixed
from counting.group.latin_classes import (LatinClass, isomorphism_classes, paratopism,
                                          free_cells, paratopy_classes, quotient_fixed,
                                          ruled_out, term_fixed, term_search)
from counting.group.loop_classes import MAX_LOOPS
from counting.options import CountOptions
from counting.reduction.base import BandClass, Reduction
from counting.reduction.cost import stratified_sample, stratum_shares
from counting.reduction.orbits import BurnsideTerms
from counting.units import Tally, UnitResult, WorkUnit
from grids.kind import GridKind, as_kind

__all__ = ["LatinUnit", "LatinGroupReduction", "MainClassReduction", "IsomorphismReduction",
           "LatinGroupRefused", "refusal", "LATIN_GROUPS", "MAX_ORDER", "RECOUNT_METHOD"]

#: Largest order counted: order 10's main-class terms, today's isotopy terms
#: among them, are estimated term by term at millions of core-hours
#: (scripts/estimate_latin_terms.py, results/latin-classes.md); its
#: isomorphism terms were never measured.
MAX_ORDER = 9

RECOUNT_METHOD = ("Fix(g) counted again for a conjugate h·g·h⁻¹ (h a paratopism drawn from the "
                  "unit's id) by the quotient exact cover: another element, and another method "
                  "for the classes counted as cells × relabelling")


#: The terms that may carry work are cut into this many strata by their free
#: cells for the cost estimate (:meth:`LatinGroupReduction.strata`).
CARRYING_STRATA = 4


class LatinGroupRefused(ValueError):
    """A kind or order a Latin-square group cannot count (one line: why)."""


@dataclass(frozen=True)
class LatinUnit(BurnsideTerm, WorkUnit):
    """One term: ``Fix(g)`` of a class representative ``g`` (``form_id`` 0).

    ``weight`` is the class size, times N! for the identity (whose count is
    the squares with row 1 in order: module docstring).

    Attributes
    ----------
    coset, types : as :class:`~counting.group.latin_classes.LatinClass`
    class_size : int
        The number of elements of the class.
    """

    coset: str = ""
    types: tuple = ()
    class_size: int = 0

    @property
    def size(self) -> int:
        return self.class_size

    @property
    def latin_class(self) -> LatinClass:
        return LatinClass(as_kind(self.shape).shape.n, self.coset, self.types, self.class_size)


def refusal(kind, group: str) -> str | None:
    """Why ``--group GROUP`` (``isotopy``, ``main-class``, ``isomorphism``,
    ``loops``) cannot count ``kind``, in one line; None when it can."""
    kind = as_kind(kind)
    if not (kind.plain and kind.shape.latin):
        rules = "" if kind.plain else " with extra rules"
        return (f"--group {group} counts plain Latin squares (1xN or Nx1), not {kind.name} "
                f"({kind.side} {kind.family} grids{rules})")
    n = kind.shape.n
    if group == "loops" and n > MAX_LOOPS:
        return (f"--group loops counts orders up to {MAX_LOOPS}: not order {n} (its terms "
                f"are not measured; results/latin-classes.md)")
    if group != "isotopy" and n > MAX_ORDER:
        if group == "main-class":
            why = (f"its terms, today's isotopy terms among them, are out of reach: each one's "
                   f"cost estimated by scripts/estimate_latin_terms.py {n}, as "
                   f"results/latin-classes.md records for order 10")
        else:
            why = "its terms are not measured, and its identity is the grid count; " \
                  "results/latin-classes.md"
        return f"--group {group} counts orders up to {MAX_ORDER}: not order {n} ({why})"
    return None


class LatinGroupReduction(BurnsideTerms, Reduction):
    """Burnside's count of the Latin squares of one order under a group of
    :data:`LATIN_GROUPS` (subclasses set :attr:`kind`, :attr:`group_name`,
    :attr:`title`).  Raises :class:`LatinGroupRefused` for a kind it cannot count."""

    counts_orbits = True
    group_name = ""
    title = ""

    def __init__(self, kind: GridKind | str):
        self.grid_kind = as_kind(kind)
        why = refusal(self.grid_kind, self.group_name)
        if why is not None:
            raise LatinGroupRefused(why)
        self.shape = self.grid_kind.shape

    @classmethod
    def default_for(cls, shape) -> bool:
        """Never a shape's default: chosen by ``--up-to-symmetry --group``."""
        return False

    def latin_classes(self) -> tuple[LatinClass, ...]:
        """The group's conjugacy classes, the identity first."""
        raise NotImplementedError

    @property
    def group_order(self) -> int:
        """The group's order (relabelling included: it acts on symbols)."""
        raise NotImplementedError

    @property
    def today_order(self) -> int:
        """The order of today's group (``--group grid``, isotopy) without
        relabelling: its note (:func:`~counting.group.group_note.note_for`)
        reads the kind's full group from there."""
        return burnside_group(self.grid_kind).order

    def unit_weight(self, cls: LatinClass) -> int:
        """The weight of the unit of class ``cls``, so that ``Σ weight ·
        count = Σ |K| · Fix``: the class size, times N! for the identity
        (whose count is the squares with row 1 in order)."""
        return cls.size * (math.factorial(cls.n) if cls.is_identity else 1)

    @cached_property
    def _units(self) -> tuple[LatinUnit, ...]:
        name = self.grid_kind.name
        return tuple(LatinUnit(name, self.kind, i, i, 0, self.unit_weight(c),
                               c.coset, c.types, c.size)
                     for i, c in enumerate(self.latin_classes()))

    @property
    def factors(self) -> tuple[tuple[str, int], ...]:
        return ()

    @property
    def divisors(self) -> tuple[tuple[str, int], ...]:
        return ((f"order of the group ({self.title})", self.group_order),)

    def units(self) -> list[LatinUnit]:
        return list(self._units)

    def classes(self) -> list[BandClass]:
        """One class per unit, its representative ``(a1, a2, a3, δ)`` 1-based,
        its weight its unit's (the class size; N! for the identity), so that
        an export's Σ weight · count is the sum the total divides."""
        return [BandClass(u.class_id, tuple(tuple(int(v) + 1 for v in p)
                                            for p in u.latin_class.perms()), u.weight)
                for u in self._units]

    def problem(self, spec) -> None:
        """None: a unit is counted by :func:`~counting.group.latin_classes.term_fixed`."""
        return None

    def count_directly(self, spec: LatinUnit, options: CountOptions = CountOptions()) -> Tally:
        """The unit's count with the nodes, dead ends and memo hits of its
        searches (:meth:`term_search`) and the CPU seconds it took."""
        self._check_spec(spec)
        t0 = time.process_time()
        search = self.term_search(spec, options)
        return dataclasses.replace(search, seconds=time.process_time() - t0)

    def term_search(self, spec: LatinUnit, options: CountOptions) -> Tally:
        """``Fix`` of the unit's class (the identity's: the squares with row
        1 in order, searched only up to order 6: beyond, it is the grid
        count's) with the work of its searches
        (:func:`~counting.group.latin_classes.term_search`)."""
        search = term_search(spec.latin_class, options)
        if spec.is_identity:
            search = dataclasses.replace(search, count=identity_fixed(self.grid_kind,
                                                                      search.count))
        return search

    def count_independently(self, spec: LatinUnit,
                            options: CountOptions = CountOptions()) -> int | None:
        """Fix of a conjugate of the representative by the quotient (module docstring)."""
        self._check_spec(spec)
        n = self.shape.n
        rng = random.Random(spec.unit_id)
        h = paratopism(n, *(rng.sample(range(n), n) for _ in range(3)),
                       rng.choice([(0, 1, 2), (1, 0, 2), (1, 2, 0), (2, 1, 0), (0, 2, 1),
                                   (2, 0, 1)]))
        g = spec.latin_class.triples()
        conjugate = np.empty_like(g)
        conjugate[h] = h[g]                   # (h g h⁻¹)(h x) = h(g x)
        return quotient_fixed(n, conjugate, options)

    def recount_method(self) -> str:
        return RECOUNT_METHOD

    def not_recountable(self, spec) -> str | None:
        if spec.is_identity:
            return (f"the identity's count is the {self.grid_kind.name} grid count / "
                    f"{self.shape.n}!: recount the grid count's store")
        return None

    def class_label(self, class_id: int) -> str:
        return self._units[class_id].latin_class.label()

    def unit_columns(self, spec: LatinUnit) -> dict[str, object]:
        return {"class_size": spec.size, "representative": spec.latin_class.representative()}

    def strata(self, among=None) -> list[list[LatinUnit]]:
        """The units (``among``; the identity, recorded from the grid
        store, aside) in strata for the cost estimate: the terms that a
        check of milliseconds finds to fix nothing
        (:func:`~counting.group.latin_classes.ruled_out`) are one; the
        others, which carry the work, are cut into :data:`CARRYING_STRATA`
        by their free cells (:func:`~counting.group.latin_classes.free_cells`,
        most first), the first of them first.  Order 9's main classes:
        31, 5,762, 32, 32 and 32 terms, of 110, 13, 15, 12 and 5 CPU s
        (results/latin-classes-terms-9-main.csv).  The smallest classes,
        which an estimate of another group samples, are ruled-out terms here."""
        if among is None:
            return [list(s) for s in self._strata]
        return self._strata_of(self.units_among(among))

    @cached_property
    def _strata(self) -> list[list[LatinUnit]]:
        return self._strata_of(self._units)

    @staticmethod
    def _strata_of(units) -> list[list[LatinUnit]]:
        carrying, nothing = [], []
        for u in units:
            if not u.is_identity:
                (nothing if ruled_out(u.latin_class) else carrying).append(u)
        carrying.sort(key=lambda u: (-free_cells(u.latin_class), u.unit_id))
        k = CARRYING_STRATA
        cut = [len(carrying) * i // k for i in range(k + 1)]
        parts = [carrying[a:b] for a, b in zip(cut, cut[1:])]
        return [parts[0], nothing, *parts[1:]]

    def sample_units(self, k: int, seed: int = 0, among=None) -> list:
        """A sample stratified by :meth:`strata`: one unit of each, the
        rest from the first (:func:`~counting.reduction.cost.stratified_sample`)."""
        return stratified_sample(self.strata(among), k, seed)

    def sample_shares(self, sample: list, among=None) -> list[float]:
        """Each sampled unit stands for its stratum's units over the number
        sampled from it (:func:`~counting.reduction.cost.stratum_shares`)."""
        return stratum_shares(self.strata(among), sample)

    def estimate_unit_seconds(self, spec, options, *, probes: int, seed: int,
                              max_seconds: float) -> float:
        """The CPU seconds of counting the term in full (the identity's:
        none, it is recorded).  [Knuth's estimator on its orbit covers
        leaves out the commuting symmetries the count reduces by, and was
        about 1,000× high on order 9's costliest terms.]"""
        if spec.is_identity:
            return 0.0
        t0 = time.process_time()
        term_fixed(spec.latin_class, options)
        return time.process_time() - t0

    def estimate_method(self, sampled: int) -> str:
        return (f"{sampled} sampled term{'s' * (sampled != 1)} counted and timed, each standing "
                f"for its stratum: the terms that carry work, and those a quick check finds "
                f"fix nothing")

    def identity_result(self, grid_total: int, source: str) -> UnitResult:
        """The identity unit's result: ``grid_total / N!``, exact and checked."""
        return UnitResult.made(self._units[0], Tally(identity_fixed(self.grid_kind, grid_total)),
                               worker=source)

    def burnside_table(self, fixed) -> list[ClassRow]:
        """One :class:`~counting.group.burnside.ClassRow` per class: its
        size and ``Fix`` (the identity's: every square)."""
        counts = {int(k): int(v) for k, v in fixed.items()}
        missing = [u.unit_id for u in self._units if u.unit_id not in counts]
        if missing:
            raise ValueError(f"{len(missing):,} units of {self.grid_kind.name} have no count yet")
        return [ClassRow(u.class_id, u.size, u.weight // u.size * counts[u.unit_id],
                         u.latin_class.label(), u.latin_class.representative())
                for u in self._units]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.grid_kind.name!r})"


class MainClassReduction(LatinGroupReduction):
    """Main classes (``--group main-class``): paratopy, ``S_N ≀ S_3``."""

    kind = "symmetry-main-class"
    group_name = "main-class"
    title = "paratopy S_N ≀ S_3, 6·N!³"

    def latin_classes(self) -> tuple[LatinClass, ...]:
        return paratopy_classes(self.shape.n)

    @property
    def group_order(self) -> int:
        return 6 * math.factorial(self.shape.n) ** 3


class IsomorphismReduction(LatinGroupReduction):
    """Isomorphism classes of quasigroups (``--group isomorphism``): ``S_N`` diagonally."""

    kind = "symmetry-isomorphism"
    group_name = "isomorphism"
    title = "S_N on rows, columns and symbols at once, N!"

    def latin_classes(self) -> tuple[LatinClass, ...]:
        return isomorphism_classes(self.shape.n)

    @property
    def group_order(self) -> int:
        return math.factorial(self.shape.n)


#: ``--group`` name -> the reduction counting under it.
LATIN_GROUPS = {cls.group_name: cls for cls in (MainClassReduction, IsomorphismReduction)}
