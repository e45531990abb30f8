"""The ``symmetry`` reduction: essentially different grids as a job of units.

Burnside's lemma (derived in :mod:`counting.group.burnside`) counts the
essentially different grids of a shape as

    E = Σ_classes |K| · A(g_K) / |G|

over the conjugacy classes K of the grid symmetry group G (for a grid kind
with extra rules, ``3x3+x`` or a jigsaw: its group ``H``, the part of G that
keeps the rules; :class:`~counting.group.burnside.BurnsideGroup`), where A(g) is
the number of grids with box 1 standard that g fixes up to relabelling.
This module puts that sum behind the :class:`~counting.reduction.base.Reduction`
interface, so that the store, the local and Dask pools, resume, merge,
recount, export and the report treat it like a grid count:

* a unit is one (class, relabelling type) pair that can fix a grid
  (:class:`~counting.group.burnside.SymmetryUnit`), its weight the class
  size, its count ``A_t(g)``; ``unit_id`` is its position, 0 the identity;
* the sum is Σ size · count (the default :meth:`Reduction.term`), there are
  no factors, and one divisor, ``|G|`` (``|H|``); :meth:`Reduction.total` checks that
  it divides (an orbit count is an integer, so a wrong count is caught);
* ``classes()`` lists the classes that have units (the others fix nothing),
  ``class_id`` being the class's position among *all* conjugacy classes.

The identity unit (unit 0) is the grid count over ``N!``; a worker cannot
count it (beyond 6×6 it is a whole grid count), so it is recorded from the
grid count's store by :func:`counting.plan.record_identity` before the
other units run, tied to that store's rows (:mod:`counting.store.identity`
checks it against them whenever the store is summarised).  The cost
estimate of :mod:`counting.reach` explores each sampled unit's orbit covers
by Knuth's estimator.

``gridcount recount`` counts a unit a second way: ``A_t`` is constant on a
class, so it counts it for another element ``h·g·h⁻¹`` of the class, whose
cell orbits are not the representative's, nor (where a class representative
``h`` allows it) are its exact covers theirs with the cells renamed
(:meth:`SymmetryReduction.count_independently`).
"""
from __future__ import annotations

import math

from counting.options import CountOptions
from counting.reduction.base import BandClass, Reduction, knuth_method
from counting.group import burnside
from counting.group.fixed import count_fixed, estimate_fixed, other_unit
from counting.reduction.cost import even_work, smallest_class_first, smallest_orbits_sample
from counting.units import Tally, UnitResult
from grids.kind import GridKind, as_kind
from grids.shape import Shape

__all__ = ["SymmetryReduction", "BurnsideTerms", "NAME"]

NAME = burnside.REDUCTION
#: How ``gridcount recount`` counts a unit (:meth:`SymmetryReduction.count_independently`).
RECOUNT_METHOD = ("A(g) counted again for a conjugate h·g·h⁻¹ of the class representative "
                  "(other cells, other exact covers); a central g, which has no other "
                  "conjugate, with another unit made standard, or searched again with an "
                  "empty memo table when it keeps no other unit")


class BurnsideTerms:
    """What the units of a Burnside job share, whatever its group: each is a
    term of one kind's job (:attr:`grid_kind`, stored under :attr:`kind`),
    handed out smallest class first, with even shares of the work."""

    def _check_spec(self, spec) -> None:
        if as_kind(spec.shape) != self.grid_kind or spec.reduction != self.kind:
            raise ValueError(f"unit {spec.unit_id} is a {spec.shape}/{spec.reduction} unit, "
                             f"not {self.grid_kind.name}/{self.kind}")

    def hand_out(self, specs) -> list:
        return smallest_class_first(specs)

    def work_shares(self, specs) -> dict[int, float]:
        return even_work(specs)


class SymmetryReduction(BurnsideTerms, Reduction):
    """Burnside's count of the essentially different grids of one shape or grid kind.

    Parameters
    ----------
    shape : Shape, GridKind or str
        A box shape (``"3x3"``: over its group G) or a kind with extra
        rules (``"3x3+x"``: over the kind's group H).
    """

    kind = NAME
    counts_orbits = True

    def __init__(self, shape: Shape | GridKind | str):
        self.group = burnside.burnside_group(shape)
        self.grid_kind = self.group.kind
        self.shape = self.grid_kind.shape
        #: (relabellings explored, relabellings) of each unit estimated, in turn
        self.measured: list[tuple[int, int]] = []

    @classmethod
    def default_for(cls, shape) -> bool:
        """Never a shape's default: chosen by ``--up-to-symmetry``."""
        return False

    @property
    def factors(self) -> tuple[tuple[str, int], ...]:
        return ()

    @property
    def divisors(self) -> tuple[tuple[str, int], ...]:
        if self.grid_kind.plain:
            return (("order of the symmetry group |G|", self.group_order),)
        n = self.shape.n
        return ((f"order of the kind's symmetry group |H| (× {n}! relabellings = "
                 f"{self.group_order * math.factorial(n):,})", self.group_order),)

    def classes(self) -> list[BandClass]:
        """The classes with units, ``class_id`` their position among all
        conjugacy classes, weight their size, the representative its rows /
        columns (1-based) (a new list)."""
        with_units = {u.class_id for u in self.units()}
        return [BandClass(c.class_id, (tuple(r + 1 for r in c.representative.rows),
                                       tuple(k + 1 for k in c.representative.cols)),
                          c.size)
                for c in self.group.classes if c.class_id in with_units]

    def units(self) -> list[burnside.SymmetryUnit]:
        return burnside.symmetry_units(self.grid_kind)

    def problem(self, spec) -> None:
        """None: a unit is a sum over relabellings of orbit covers
        (:func:`counting.group.burnside.count_unit`), counted by
        :meth:`count_directly`."""
        return None

    def count_directly(self, spec: burnside.SymmetryUnit,
                       options: CountOptions = CountOptions()) -> Tally:
        """Count ``A_t(g)`` of one unit (not the identity beyond 6×6: its
        count comes from the grid count).  Every search here starts from an
        empty table."""
        self._check_spec(spec)
        return _tally(burnside.count_unit(spec, options))

    def count_independently(self, spec: burnside.SymmetryUnit,
                            options: CountOptions = CountOptions()) -> int | None:
        """``A_t`` counted for another element ``h·g·h⁻¹`` of the unit's
        class (:meth:`~counting.group.burnside.BurnsideGroup.other_conjugate`):
        other cell orbits, other exact covers, the same count.  A central
        ``g`` (its class is itself) is counted with another unit that ``g``
        keeps made standard (:func:`~counting.group.fixed.other_unit`): other
        relabelling candidates, other exact covers.  None (searched again as
        stored) when ``g`` keeps no other unit either."""
        self._check_spec(spec)
        conjugate = self.group.other_conjugate(spec.symmetry)
        if conjugate is not None:
            return count_fixed(self.grid_kind, conjugate[1], spec.pi_type, options).count
        unit = other_unit(self.grid_kind, spec.symmetry)
        if unit is None:
            return None
        return count_fixed(self.grid_kind, spec.symmetry, spec.pi_type, options,
                           unit=unit).count

    def recount_method(self) -> str:
        return RECOUNT_METHOD


    def class_label(self, class_id: int) -> str:
        """The class's elements by their cycle types (G's
        :class:`~counting.group.symmetries.ConjugacyClass` label), or by its
        representative (a class of a kind's group H)."""
        return self.group.classes[class_id].label

    def unit_columns(self, spec: burnside.SymmetryUnit) -> dict[str, object]:
        """The class (its size, representative ``g`` and, for G, cycle types)
        and the relabelling type ``π`` of a unit, for ``results/RxC-symmetry.csv``."""
        columns = {"class_size": spec.size, "representative": spec.symmetry.describe()}
        if self.grid_kind.plain:   # H's classes are named by their representative, just given
            columns["class"] = self.group.classes[spec.class_id].label
        return {**columns, "pi_type": burnside.type_label(spec.pi_type)}

    def not_recountable(self, spec) -> str | None:
        """The identity's count is the grid count's: recount that store instead.
        [A kind's identity of side at most 6 is searched again by recount, as
        the kind reduction did before the two became one.]"""
        if spec.is_identity and (self.grid_kind.plain
                                 or self.shape.n > burnside.MAX_SEARCHED_IDENTITY):
            return (f"the identity's count is the {self.grid_kind.name} grid count / "
                    f"{self.shape.n}!: recount the grid count's store")
        return None

    def estimate_unit_seconds(self, spec, options, *, probes: int, seed: int,
                              max_seconds: float) -> float:
        """Knuth's estimate over the unit's orbit covers
        (:func:`counting.group.fixed.estimate_fixed_seconds`); the
        identity costs nothing here (it comes from the grid count)."""
        if spec.is_identity:
            return 0.0
        e = estimate_fixed(self.grid_kind, spec.symmetry, spec.pi_type, options,
                           probes=probes, seed=seed, max_seconds=max_seconds)
        self.measured.append((e.measured, e.candidates))
        return e.seconds

    def estimate_method(self, sampled: int) -> str:
        """Knuth's estimate from ``sampled`` units (the last estimated), saying
        how many of their relabellings the time budget let it explore when
        not all of them (:func:`counting.group.fixed.estimate_fixed`: the
        others at their mean)."""
        method = knuth_method(sampled)
        last = self.measured[-sampled:] if sampled else []
        done, total = sum(m for m, _ in last), sum(c for _, c in last)
        if done == total:
            return method
        return (f"{method}: {done:,} of their {total:,} relabellings explored within "
                f"the time budget, the others taken at their mean")

    def sample_units(self, k: int, seed: int = 0, among=None) -> list:
        """The ``k`` units of the smallest classes, identity aside (its count
        is the grid count's): their elements fix the most grids, so these are
        the costliest units, and the estimate from them errs high rather than
        missing a few units of weeks among many of seconds (as 2x5 has).
        ``seed`` only orders ties; ``among`` as for every reduction."""
        return smallest_orbits_sample(self.units_among(among), k, seed)

    def identity_result(self, grid_total: int, source: str) -> UnitResult:
        """The identity unit's result: ``grid_total / N!``, exact and checked;
        ``source`` (the grid count's store) is kept as its worker."""
        unit = self.units()[0]
        return UnitResult.made(unit, _tally(burnside.count_unit(unit, grid_total=grid_total)),
                               worker=source)

    def burnside_table(self, fixed) -> list:
        """One :class:`~counting.group.burnside.ClassRow` per class with units."""
        return burnside.burnside_table(self.grid_kind, fixed)

    @property
    def group_order(self) -> int:
        """``|G|``, the shape's geometric symmetry group (``|H|`` for a kind)."""
        return self.group.order

    def __repr__(self) -> str:
        return f"SymmetryReduction({self.grid_kind.name!r})"


def _tally(r: burnside.SymmetryResult) -> Tally:
    """A :class:`~counting.group.burnside.SymmetryResult` as a count and its work."""
    return Tally(r.fixed, r.nodes, r.dead_ends, r.memo_hits, r.seconds, r.engine_version, r.host)
