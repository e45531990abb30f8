"""``--group loops``: loops of order N up to isomorphism (OEIS A057771).

``gridcount count 1xN --up-to-symmetry --group loops`` counts the loops of
order N (Latin squares with a two-sided identity element) up to
isomorphism, by the Burnside sum of :mod:`counting.group.loop_classes`, run
as a job of units like the other Latin-square groups
(:mod:`.latin_orbits`): stored (as ``symmetry-loops``), resumed, merged,
recounted and reported like them.

* A unit is one conjugacy class of ``S_N`` whose representative ``σ`` fixes
  a point (a ``σ`` fixing none fixes no loop: a loop's identity is unique, so
  ``σ`` fixes it); ``unit_id`` its position, 0 the identity.  Its count is
  :func:`~counting.group.loop_classes.loop_fixed_at` at ``σ``'s first fixed
  point ``e``: the loops of identity ``e`` that ``σ`` fixes; its weight the
  class size × ``σ``'s fixed points, every fixed point giving as many loops.
  So ``Σ weight · count = Σ_σ Fix(σ)``, which the order ``N!`` divides.
* Unit 0, the identity, counts ``R_N``, the reduced Latin squares (row 0
  and column 0 in order), weight ``N`` (the loops are ``N · R_N``).  Up to
  order :data:`~counting.group.loop_classes.MAX_SEARCHED_LOOPS` it is
  counted like any unit (:attr:`identity_from_grid` False).  Beyond (order
  8, :data:`~counting.group.loop_classes.MAX_LOOPS`), it is taken from the
  grid count's store and tied to it exactly as the other groups' identity
  (:func:`counting.plan.prepare_identity`, :mod:`counting.store.identity`:
  the rows' digest in its link, checked whenever the store is summarised),
  by the exact relation ``R_N = L_N / (N!·(N-1)!)``
  (:func:`~counting.group.loop_classes.reduced_from_grid_total`: a grid
  total it does not divide is refused).  :meth:`identity_result` takes it
  so at any order, which is how the smaller orders test that path.

``gridcount recount`` counts every unit for another element ``h·σ·h⁻¹`` of
its class at another of its fixed points ``h(e')`` (``h`` and ``e'`` drawn
from the unit's id): another element and another identity element; the
identity too up to order 7 (searched again, whether it was searched or
taken from a grid store).  Order 8's identity is the grid count's: its
recount is the grid store's (``gridcount recount`` of that store).

Example
-------
>>> red = LoopReduction("1x5")
>>> counts = {u.unit_id: red.count_directly(u).count for u in red.units()}
>>> red.total(counts)
6
"""
from __future__ import annotations

import math
import random

from counting.group.latin_classes import LatinClass
from counting.group.loop_classes import (MAX_SEARCHED_LOOPS, fixed_points, loop_classes,
                                         loop_cover, loop_fixed_at, loop_fixed_search,
                                         reduced_from_grid_total)
from counting.options import CountOptions
from counting.reduction.base import knuth_method
from counting.reduction.latin_orbits import LatinGroupReduction, LatinUnit
from counting.units import Tally, UnitResult
from dlx.api import ConflictingGivensError
from dlx.estimate import estimate

__all__ = ["LoopReduction", "LOOP_RECOUNT_METHOD", "ESTIMATE_LEAF_SOLUTIONS"]

LOOP_RECOUNT_METHOD = ("the loops of one identity element fixed by σ counted again for a "
                       "conjugate h·σ·h⁻¹ at another of its fixed points (h and the point drawn "
                       "from the unit's id): another element and another identity element")


#: Completions below a leaf of the cost estimate's paths: the default leaves
#: of order 7's identity took 0.8 s each; these about a millisecond, and its
#: estimate came to 10.5 s for 15.4 s counted.
ESTIMATE_LEAF_SOLUTIONS = 10_000


class LoopReduction(LatinGroupReduction):
    """Loops up to isomorphism (``--group loops``): ``S_N`` on rows, columns
    and symbols at once, acting on the Latin squares with an identity element."""

    kind = "symmetry-loops"
    group_name = "loops"
    title = "S_N on rows, columns and symbols at once, acting on loops, N!"

    @property
    def identity_from_grid(self) -> bool:
        """Whether a job takes the identity unit from the grid count's store:
        beyond order :data:`~counting.group.loop_classes.MAX_SEARCHED_LOOPS`."""
        return self.shape.n > MAX_SEARCHED_LOOPS

    def latin_classes(self) -> tuple[LatinClass, ...]:
        """The classes of ``S_N`` whose elements fix a point, the identity first."""
        return tuple(c for c in loop_classes(self.shape.n) if fixed_points(c))

    @property
    def group_order(self) -> int:
        return math.factorial(self.shape.n)

    def unit_weight(self, cls: LatinClass) -> int:
        """The class size × the representative's fixed points (module docstring)."""
        return cls.size * len(fixed_points(cls))

    def term_search(self, spec: LatinUnit, options: CountOptions) -> Tally:
        """The loops of identity ``e`` (the representative's first fixed
        point) that the representative maps onto themselves, with the nodes,
        dead ends and memo hits of their search; ValueError for an identity
        that is the grid count's (:attr:`identity_from_grid`)."""
        why = self.not_recountable(spec)
        if why is not None:
            raise ValueError(why)
        cls = spec.latin_class
        return loop_fixed_search(cls.n, cls.perms()[0], fixed_points(cls)[0], options)

    def count_independently(self, spec: LatinUnit,
                            options: CountOptions = CountOptions()) -> int | None:
        """The same count for a conjugate ``h·σ·h⁻¹`` at another fixed point
        (module docstring); None for an identity that is the grid count's."""
        self._check_spec(spec)
        if self.not_recountable(spec) is not None:
            return None
        cls = spec.latin_class
        n = cls.n
        rng = random.Random(spec.unit_id)
        h = rng.sample(range(n), n)
        sigma = cls.perms()[0]
        conjugate = [0] * n
        for x in range(n):
            conjugate[h[x]] = h[sigma[x]]          # (h σ h⁻¹)(h x) = h(σ x)
        e = h[rng.choice(fixed_points(cls))]
        return loop_fixed_at(n, tuple(conjugate), e, options)

    def recount_method(self) -> str:
        return LOOP_RECOUNT_METHOD

    def not_recountable(self, spec) -> str | None:
        """None, every unit being searched, but an identity that is the grid
        count's (:attr:`identity_from_grid`): its recount is the grid store's."""
        if spec.is_identity and self.identity_from_grid:
            n = self.shape.n
            return (f"the identity's count is the {self.grid_kind.name} grid count / "
                    f"({self.identity_divisor(n)}): recount the grid count's store")
        return None

    def identity_divisor(self, n: int) -> str:
        """``N!·(N-1)!``: the identity counts the reduced Latin squares."""
        return f"{n}!·{n - 1}!"

    def identity_result(self, grid_total: int, source: str) -> UnitResult:
        """The identity unit's result from the grid count: ``R_N = L_N /
        (N!·(N-1)!)``, exact (ValueError in one line when it does not divide:
        :func:`~counting.group.loop_classes.reduced_from_grid_total`)."""
        fixed = reduced_from_grid_total(self.shape.n, grid_total)
        return UnitResult.made(self._units[0], Tally(fixed), worker=source)

    def strata(self, among=None) -> list[list[LatinUnit]]:
        """The identity, which carries the most work here when it is
        searched, as a stratum of its own, then the strata of
        :meth:`LatinGroupReduction.strata` (which leave out an identity
        taken from the grid store)."""
        units = self.units_among(among)
        head = [u for u in units if u.is_identity and not self.identity_from_grid]
        return [*([head] if head else []), *super().strata(among)]

    def estimate_unit_seconds(self, spec, options, *, probes: int, seed: int,
                              max_seconds: float) -> float:
        """Knuth's estimator on the unit's exact cover (the identity's too:
        counting it would cost as much as the run, 16,942,080 reduced
        squares at order 7); 0 for a unit whose givens already clash, and for
        an identity taken from the grid store."""
        if spec.is_identity and self.identity_from_grid:
            return 0.0
        cls = spec.latin_class
        problem = loop_cover(cls.n, cls.perms()[0], fixed_points(cls)[0])
        if problem is None:
            return 0.0
        cover, given = problem
        try:
            return estimate(cover, given=given, probes=probes, seed=seed,
                            max_seconds=max_seconds, leaf_solutions=ESTIMATE_LEAF_SOLUTIONS,
                            **options.engine_arguments(cover)).seconds
        except ConflictingGivensError:
            return 0.0

    def estimate_method(self, sampled: int) -> str:
        return knuth_method(sampled)
