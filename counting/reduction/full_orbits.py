"""The ``symmetry-full`` reduction: essentially different grids under a kind's full group.

``gridcount count KIND --up-to-symmetry --group full`` runs Burnside's sum
over the kind's full group ``C × S_N`` (the automorphisms of its exact
cover, where they split into cells × relabelling) as a job of units, one
per term (:mod:`counting.group.full_terms`), behind the same
:class:`~counting.reduction.base.Reduction` interface as today's group
(``symmetry``, :mod:`.orbits`): stored, resumed, merged, recounted and
reported like it.  The sum has no factors and one divisor, ``|C|``; unit 0
is the identity, whose count is the grid count / N!, recorded from the grid
count's store and tied to it exactly as for today's group.

Its stored name is another than today's (``symmetry-full``), so a store of
one group is never taken for the other: unit ids, row checksums and the
default store path (``results/KIND-rsymmetry-full.sqlite``) all differ.
"""
from __future__ import annotations

from functools import cached_property

from counting.group import burnside, full_terms
from counting.group.fixed import estimate_fixed
from counting.group.split_burnside import CellSymmetry
from counting.options import CountOptions
from counting.reduction.base import BandClass, Reduction, knuth_method
from counting.reduction.cost import smallest_orbits_sample
from counting.reduction.orbits import BurnsideTerms, SymmetryReduction
from counting.units import Tally, UnitResult
from grids.kind import GridKind

__all__ = ["FullSymmetryReduction", "NAME", "GROUP"]

NAME = full_terms.REDUCTION
#: The ``--group`` name of the group it counts under.
GROUP = "full"


class FullSymmetryReduction(BurnsideTerms, Reduction):
    """Burnside's count of the essentially different grids of one kind
    under its full group (``kind``: a box shape or a grid kind, or its text).

    Raises :class:`~counting.group.full_terms.FullGroupRefused` (a
    ``ValueError``) for a kind it cannot count.
    """

    kind = NAME
    counts_orbits = True
    group_name = GROUP

    def __init__(self, kind: GridKind | str):
        self.terms = full_terms.full_terms(kind)
        self.grid_kind = self.terms.kind
        self.shape = self.grid_kind.shape
        self.measured: list[tuple[int, int]] = []

    @classmethod
    def default_for(cls, shape) -> bool:
        """Never a shape's default: chosen by ``--up-to-symmetry --group full``."""
        return False

    @cached_property
    def today(self) -> SymmetryReduction:
        """Today's group's reduction of the same kind (its recount, when
        ``C`` is that group)."""
        return SymmetryReduction(self.grid_kind.name)

    @property
    def published_group(self) -> str:
        """The ``--group`` whose published values count this job's orbits:
        ``"grid"`` when ``C`` is today's group (plain 9×9: its essentially
        different grids are the grid group's), else ``"full"``
        (:func:`counting.published.lookup`)."""
        return "grid" if self.terms.same_as_today else GROUP

    @property
    def factors(self) -> tuple[tuple[str, int], ...]:
        return ()

    @property
    def divisors(self) -> tuple[tuple[str, int], ...]:
        n = self.shape.n
        return ((f"order of the kind's full group's cell part |C| (× {n}! relabellings = "
                 f"{self.terms.full_order:,})", self.terms.order),)

    @property
    def group_order(self) -> int:
        """``|C|``, the full group's order without relabelling."""
        return self.terms.order

    def classes(self) -> list[BandClass]:
        """The classes with units (``class_id`` their position among all
        classes of ``C``; the representative: its cell images, 1-based)."""
        reps = {u.class_id: u.cells for u in self.terms.units}
        return [BandClass(c.class_id, (tuple(k + 1 for k in reps[c.class_id]),), c.size)
                for c in self.terms.classes if c.class_id in reps]

    def units(self) -> list[full_terms.FullUnit]:
        return list(self.terms.units)

    def problem(self, spec) -> None:
        """None: a unit is a sum over relabellings of orbit covers, counted
        by :meth:`count_directly`."""
        return None

    def count_directly(self, spec: full_terms.FullUnit,
                       options: CountOptions = CountOptions()) -> Tally:
        self._check_spec(spec)
        t = full_terms.count_full_unit(spec, options)
        return Tally(t.fixed, t.nodes, t.dead_ends, t.memo_hits, t.seconds)

    def count_independently(self, spec: full_terms.FullUnit,
                            options: CountOptions = CountOptions()) -> int | None:
        """Another element of the unit's class (``C`` listed), or today's
        recount of the same unit (``C`` is today's group)."""
        self._check_spec(spec)
        if self.terms.same_as_today:
            return self.today.count_independently(self.today.units()[spec.unit_id], options)
        return full_terms.recount_full_unit(spec, options)

    def recount_method(self) -> str:
        if self.terms.same_as_today:
            return self.today.recount_method()
        return ("A(c) counted again for another element of the class of C (other cells, "
                "other exact covers); a class of one element searched again")

    def not_recountable(self, spec) -> str | None:
        if spec.is_identity and (self.grid_kind.plain
                                 or self.shape.n > burnside.MAX_SEARCHED_IDENTITY):
            return (f"the identity's count is the {self.grid_kind.name} grid count / "
                    f"{self.shape.n}!: recount the grid count's store")
        return None

    def class_label(self, class_id: int) -> str:
        return self.terms.classes[class_id].label

    def unit_columns(self, spec: full_terms.FullUnit) -> dict[str, object]:
        return {"class_size": spec.size, "representative": spec.describe(),
                "pi_type": burnside.type_label(spec.pi_type)}

    def estimate_unit_seconds(self, spec, options, *, probes: int, seed: int,
                              max_seconds: float) -> float:
        if spec.is_identity:
            return 0.0
        g = CellSymmetry(spec.cells)
        e = estimate_fixed(self.grid_kind, g, spec.pi_type, options, probes=probes, seed=seed,
                           max_seconds=max_seconds)
        self.measured.append((e.measured, e.candidates))
        return e.seconds

    def estimate_method(self, sampled: int) -> str:
        return knuth_method(sampled)

    def sample_units(self, k: int, seed: int = 0, among=None) -> list:
        return smallest_orbits_sample(self.units_among(among), k, seed)

    def identity_result(self, grid_total: int, source: str) -> UnitResult:
        """The identity unit's result: ``grid_total / N!``, exact and checked."""
        unit = self.terms.units[0]
        fixed = burnside.identity_fixed(self.grid_kind, grid_total)
        return UnitResult.made(unit, Tally(fixed), worker=source)

    def burnside_table(self, fixed) -> list:
        """One :class:`~counting.group.burnside.ClassRow` per class with units."""
        counts = {int(k): int(v) for k, v in fixed.items()}
        missing = [u.unit_id for u in self.terms.units if u.unit_id not in counts]
        if missing:
            raise ValueError(f"{len(missing):,} units of {self.grid_kind.name} have no count yet")
        per_class: dict[int, int] = {}
        for u in self.terms.units:
            per_class[u.class_id] = per_class.get(u.class_id, 0) + counts[u.unit_id]
        classes = self.terms.classes
        return [burnside.ClassRow(k, classes[k].size, a, classes[k].label,
                                  classes[k].representative)
                for k, a in sorted(per_class.items())]

    def __repr__(self) -> str:
        return f"FullSymmetryReduction({self.grid_kind.name!r})"

