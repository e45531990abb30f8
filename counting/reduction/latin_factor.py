"""Latin squares counted, not searched: units of 1-factorizations (``factor``).

A Latin square of order n is an ordered 1-factorization of the complete
bipartite graph K_{n,n} (columns on one side, symbols on the other; row i is
a perfect matching, and the n rows partition the edges).  The kernel of
:mod:`factorization` counts F_d(G), the ordered 1-factorizations of a
d-regular bipartite G, by the rooted recurrence

    F_d(G) = d · Σ over perfect matchings M ∋ e of F_{d−1}(G − M)

memoised on canonical forms.  Unfolding it from K_{n,n} down to degree
``d = n//2 + 1`` and merging children with equal canonical forms
(:func:`factorization.latin_units`) gives

    L_n = Σ_unit weight(unit) · F_d(graph of the unit)

exactly: a work unit is one canonical d-regular graph (the column sets it
leaves), its weight is the number of ways the rooted recurrence reaches it
(computed, never typed), and its count is F_d of that graph.  The factor is
1 and the identity is linear, so the store, resume, merge and recount treat
these units like any others.

Units are enumerated here up to order :data:`MAX_ORDER` (order 9: 3,524
units at degree 5, in seconds); order 10 has about 1.6·10⁵ units at degree 6
and is left to a later release.

Example
-------
>>> red = LatinFactorReduction("1x5")
>>> from counting.run.counter import count_unit
>>> red.total({u.unit_id: count_unit(u).count for u in red.units()})
161280
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import lru_cache

from counting.options import CountOptions
from counting.reduction.base import BandClass, Reduction
from counting.reduction.cost import even_work, smallest_class_first
from counting.units import Tally, WorkUnit
from factorization import ENGINE_NAME, count_unit_class, latin_units, process_counter
from grids.shape import as_shape

__all__ = ["LatinFactorReduction", "FactorUnitSpec", "NAME", "MAX_ORDER"]

NAME = "factor"
MAX_ORDER = 9          # largest order whose units are enumerated here


@dataclass(frozen=True)
class FactorUnitSpec(WorkUnit):
    """One unit: a canonical ``degree``-regular bipartite graph, by the
    column sets it leaves (column ``c`` may still take the symbols in
    ``column_sets[c]``).  ``class_id = unit_id``, ``form_id = 0``, ``weight``
    the unit's multiplicity in the recurrence."""

    degree: int = 0
    column_sets: tuple[tuple[int, ...], ...] = field(default=(), repr=False)


@lru_cache(maxsize=None)
def _units(n: int) -> tuple:
    return tuple(latin_units(n, n // 2 + 1))


class LatinFactorReduction(Reduction):
    """The ``factor`` reduction of Latin squares ``1xN`` / ``Nx1``, N ≤ 9."""

    kind = NAME

    def __init__(self, shape):
        self.shape = as_shape(shape)
        if not self.applies_to(self.shape):
            raise ValueError(f"reduction {NAME!r} applies to Latin squares of order 2.."
                             f"{MAX_ORDER} (1xN or Nx1), not {self.shape.name}")

    @classmethod
    def applies_to(cls, shape) -> bool:
        s = as_shape(shape)
        return s.latin and 2 <= s.n <= MAX_ORDER

    @classmethod
    def default_for(cls, shape) -> bool:
        """The default for order 9, where searching takes a day and this
        takes minutes; smaller orders keep the classes of rows 1-3."""
        return cls.applies_to(shape) and as_shape(shape).n == MAX_ORDER

    @property
    def factors(self) -> tuple[tuple[str, int], ...]:
        return ()

    def classes(self) -> list[BandClass]:
        """One class per unit: its column sets as the representative."""
        return [BandClass(u.unit_id, u.column_sets, u.weight) for u in _units(self.shape.n)]

    def units(self) -> list[FactorUnitSpec]:
        return [FactorUnitSpec(self.shape.name, NAME, u.unit_id, u.unit_id, 0, u.weight,
                               u.degree, u.column_sets) for u in _units(self.shape.n)]

    def problem(self, spec) -> None:
        """None: a unit is counted by the factorization kernel, not searched."""
        return None

    def count_directly(self, spec: FactorUnitSpec,
                       options: CountOptions = CountOptions()) -> Tally:
        """F_degree of the unit's graph, on this process's counter (its memo
        table kept from one unit to the next: its keys are canonical forms,
        so this is always correct)."""
        if as_shape(spec.shape) not in (self.shape, self.shape.transpose()) \
                or spec.reduction != NAME:
            raise ValueError(f"unit {spec.unit_id} is a {spec.shape}/{spec.reduction} unit, "
                             f"not {self.shape.name}/{NAME}")
        counter = process_counter(self.shape.n, options.memo_mb)
        t0 = time.perf_counter()
        count = count_unit_class(spec.column_sets, spec.degree, counter=counter)
        return Tally(count, seconds=time.perf_counter() - t0, engine_version=ENGINE_NAME)

    def hand_out(self, specs) -> list:
        return smallest_class_first(specs)

    def work_shares(self, specs) -> dict[int, float]:
        return even_work(specs)

    def __repr__(self) -> str:
        return f"LatinFactorReduction({self.shape.name!r})"
