"""The ``symmetry`` reduction of a grid kind: its essentially different grids as a job.

The sibling of :mod:`counting.reduction.orbits` for kinds with extra rules
(``3x3+x``, jigsaws): Burnside's lemma over the kind's group ``H``
(:mod:`counting.group.kind_burnside`), with the same units, store, pools,
resume, recount and report.  A unit is a (conjugacy class of ``H``,
relabelling type) pair, its weight the class size, its count ``A_t(h)``; the
sum has no factors and one divisor, ``|H|`` (the geometric order; with
relabelling the group has ``|H|·N!`` elements).  The identity (unit 0) is
the kind's grid count over ``N!``, recorded from the grid count's store
(:mod:`counting.plan`) like a plain shape's.
"""
from __future__ import annotations

import math

from counting.group.burnside import MAX_SEARCHED_IDENTITY, SymmetryUnit, type_label
from counting.group.fixed import estimate_fixed_seconds
from counting.group.kind_burnside import (REDUCTION, kind_burnside_table, kind_classes,
                                          kind_count_unit, kind_identity_fixed,
                                          kind_symmetry_units)
from counting.group.kind_group import kind_group
from counting.options import CountOptions
from counting.reduction.base import BandClass, Reduction
from counting.reduction.cost import even_work, smallest_class_first, smallest_orbits_sample
from counting.units import Tally, UnitResult
from grids.kind import as_kind

__all__ = ["KindSymmetryReduction", "NAME"]

NAME = REDUCTION


class KindSymmetryReduction(Reduction):
    """Burnside's count of the essentially different grids of one grid kind.

    Parameters
    ----------
    kind : GridKind or str
        A kind with extra rules (``"3x3+x"``).
    """

    kind = NAME
    counts_orbits = True

    def __init__(self, kind):
        self.grid_kind = as_kind(kind)
        self.shape = self.grid_kind.shape

    @classmethod
    def default_for(cls, shape) -> bool:
        """Never a default: chosen by ``--up-to-symmetry``."""
        return False

    @property
    def factors(self) -> tuple[tuple[str, int], ...]:
        return ()

    @property
    def group_order(self) -> int:
        """``|H|``: the geometric part of the kind's group."""
        return kind_group(self.grid_kind).geometric_order

    @property
    def divisors(self) -> tuple[tuple[str, int], ...]:
        n = self.shape.n
        return ((f"order of the kind's symmetry group |H| (× {n}! relabellings = "
                 f"{self.group_order * math.factorial(n):,})", self.group_order),)

    def classes(self) -> list[BandClass]:
        """The classes of ``H`` with units: weight their size, the
        representative its rows / columns (1-based)."""
        with_units = {u.class_id for u in self.units()}
        return [BandClass(c.class_id, (tuple(r + 1 for r in c.representative.rows),
                                       tuple(k + 1 for k in c.representative.cols)), c.size)
                for c in kind_classes(self.grid_kind.name) if c.class_id in with_units]

    def units(self) -> list[SymmetryUnit]:
        return kind_symmetry_units(self.grid_kind)

    def problem(self, spec) -> None:
        """None: a unit is counted by :meth:`count_directly`."""
        return None

    def count_directly(self, spec: SymmetryUnit, options: CountOptions = CountOptions()) -> Tally:
        """``A_t(h)`` of one unit (the identity only for grids of side ≤ 6)."""
        if (spec.shape, spec.reduction) != (self.grid_kind.name, NAME):
            raise ValueError(f"unit {spec.unit_id} is a {spec.shape}/{spec.reduction} unit, "
                             f"not {self.grid_kind.name}/{NAME}")
        fc = kind_count_unit(spec, options)
        return Tally(fc.count, fc.nodes, 0, 0, round(fc.seconds, 6))

    def hand_out(self, specs) -> list:
        return smallest_class_first(specs)

    def work_shares(self, specs) -> dict[int, float]:
        return even_work(specs)

    def class_label(self, class_id: int) -> str:
        return kind_classes(self.grid_kind.name)[class_id].label

    def unit_columns(self, spec: SymmetryUnit) -> dict[str, object]:
        """The class's size and representative and the relabelling type of a unit."""
        return {"class_size": spec.size, "representative": spec.symmetry.describe(),
                "pi_type": type_label(spec.pi_type)}

    def not_recountable(self, spec) -> str | None:
        if spec.is_identity and self.shape.n > MAX_SEARCHED_IDENTITY:
            return (f"the identity's count is the {self.grid_kind.name} grid count / "
                    f"{self.shape.n}!: recount the grid count's store")
        return None

    def estimate_unit_seconds(self, spec, options, *, probes: int, seed: int,
                              max_seconds: float) -> float:
        if spec.is_identity:
            return 0.0
        return estimate_fixed_seconds(self.grid_kind, spec.symmetry, spec.pi_type, options,
                                      probes=probes, seed=seed, max_seconds=max_seconds)

    def sample_units(self, k: int, seed: int = 0, among=None) -> list:
        """The ``k`` units of the smallest classes, identity aside (the costliest);
        ``among`` as for every reduction."""
        return smallest_orbits_sample(self.units_among(among), k, seed)

    def identity_result(self, grid_total: int, source: str) -> UnitResult:
        """Unit 0 from the grid count: ``grid_total / N!``, exact and checked."""
        unit = self.units()[0]
        fixed = kind_identity_fixed(self.grid_kind, grid_total)
        return UnitResult.made(unit, Tally(fixed),
                               worker=source)

    def burnside_table(self, fixed) -> list:
        """One :class:`~counting.group.burnside.ClassRow` per class with units."""
        return kind_burnside_table(self.grid_kind, fixed)

    def __repr__(self) -> str:
        return f"KindSymmetryReduction({self.grid_kind.name!r})"
