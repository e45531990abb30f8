"""Three-band shapes by column-set patterns: the ``patterns3`` reduction.

Boxes of ``R`` rows × 3 columns make ``3R × 3R`` grids of three bands of
``R`` rows and ``R`` stacks of three columns; the ``3 × R`` boxes make the
same grids transposed (same units, same total).  Every step below is
computed in code (:mod:`bandtables`) and tested in
``tests/counting/reduction/test_patterns3.py``.

The identity
------------
1. In a band each box's three columns split the ``N = 3R`` digits into
   three ``R``-sets: the box's *column code*.  A band's *pattern* ``P`` is
   the ordered column sets of its ``N`` columns; ``L(P)`` counts the bands
   with that pattern (``R × N`` Latin rectangles with those column sets,
   :mod:`dlx.rectangle`; the boxes are then complete by themselves).
2. In a stack each grid column holds every digit once, so a digit lies in
   a different column of the stack in each band: given ``P1`` and ``P2``
   (with no digit twice in one grid column), band 3's column sets are the
   complements, ``P3``, and again a pattern.  Hence, exactly,
   ``grids = Σ_{P1} Σ_{P2 compatible} L(P1)·L(P2)·L(P3)``.
3. *Rows ordered by column 1.*  ``L = R!·l`` in every band
   (:attr:`dlx.rectangle.ColumnSetRectangles.row_order_factor`): the
   :attr:`ThreeBandPatternReduction.factors` are ``R!`` once per band.
4. *Classes.*  Relabelling the digits, permuting the stacks and permuting
   the columns inside a stack map grids to grids and keep every band's
   ``l`` and the compatibility, so ``l(P1)·Σ_{P2} l(P2)·l(P3)`` depends
   only on the class of ``P1`` (:mod:`bandtables.tables`).  For 3×3 these
   are the 44 column-set classes (Russell).

Hence, with ``size`` the number of (ordered) patterns in a class::

    grids = (R!)³ · Σ_class size · l(rep) · Σ_{P2} l(P2)·l(P3)

Work units
----------
One unit per class, ``unit_id = class_id``, classes numbered by their key
(:mod:`bandtables.tables`).  A unit is a :class:`BandPatternUnitSpec`
carrying the representative's column sets; its count
(:meth:`ThreeBandPatternReduction.count_unit`) is
``l(rep) · Σ_{P2} l(P2)·l(P3)``: the grids whose band 1 has exactly those
column sets, divided by ``(R!)³``.  The sum is a table contraction (the
``nogil`` kernel of :mod:`bandtables._contract`), not an exact-cover
search: there is no :meth:`~ThreeBandPatternReduction.unit_problem`.

Example
-------
>>> red = ThreeBandPatternReduction("2x3")
>>> red.factor, red.n_units()
(8, 3)
>>> red.total({u.unit_id: red.count_unit(u).count for u in red.units()})
28200960
"""
from __future__ import annotations

import math
import socket
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone

from bandtables import KERNEL_VERSION
from bandtables.api import BandTables
from bandtables.tables import DENSE_MAX_R, pattern_column_sets
from counting.options import CountOptions
from counting.reduction.base import Reduction
from counting.units import UnitResult, WorkUnit
from dlx import ENGINE_VERSION
from dlx.rectangle import ColumnSetRectangles
from dlx.shape import as_shape

__all__ = ["ThreeBandPatternReduction", "BandPatternClass", "BandPatternUnitSpec", "tables"]

NAME = "patterns3"

_TABLES: dict[int, BandTables] = {}  # per process: one read-only set of tables per R


def tables(R: int) -> BandTables:
    """This process's tables for ``R`` (built on first use, then shared by
    every unit and every thread of the process)."""
    bt = _TABLES.get(R)
    if bt is None:
        bt = _TABLES[R] = BandTables.build(R)
    return bt


@dataclass(frozen=True)
class BandPatternClass:
    """One class of band-1 patterns.

    Attributes
    ----------
    class_id : int
        Position in the order of class keys.
    representative : tuple of tuple of int
        The representative's ``3R`` column sets (digits ``1..3R``), box by
        box, of band 1 of an ``R × 3`` grid.
    weight : int
        The class size: its number of ordered patterns.
    l : int
        ``l = L / R!`` of every pattern of the class.
    """

    class_id: int
    representative: tuple[tuple[int, ...], ...]
    weight: int
    l: int


@dataclass(frozen=True)
class BandPatternUnitSpec(WorkUnit):
    """Everything a worker needs to count one ``patterns3`` unit.

    ``unit_id`` equals ``class_id``, ``form_id`` is 0 and ``weight`` is the
    class size (ordered patterns).

    Attributes
    ----------
    column_sets : tuple of tuple of int
        Band 1's ``3R`` column sets (sorted digits ``1..3R``), box by box,
        in the ``R × 3`` orientation (for ``3 × R`` read transposed).
    """

    column_sets: tuple[tuple[int, ...], ...] = field(repr=False)


class ThreeBandPatternReduction(Reduction):
    """The ``patterns3`` reduction of one three-band shape (``R×3`` or ``3×R``).

    Parameters
    ----------
    shape : Shape or str
        ``R x 3`` (native) or ``3 x R`` (its transpose), ``2 <= R <= 3``
        (the dense tables; ``4x3`` is estimated only, see
        ``results/bench_patterns3.md``).

    Attributes
    ----------
    shape : Shape
    rows : int
        ``R``, the rows of a band in the ``R × 3`` orientation.
    """

    kind = NAME
    members = "column-set patterns of band 1"
    sum_label = "Σ class size × unit count"
    term_label = "size × count"
    representative_label = "column sets of band 1"
    count_noun = "grids with band 1's column sets, / (R!)³"

    def __init__(self, shape):
        self.shape = as_shape(shape)
        if not self.applies_to(self.shape):
            raise ValueError(f"reduction {NAME!r} applies to boxes of R x 3 or 3 x R cells "
                             f"(R = 2..{DENSE_MAX_R}), not {self.shape.name}")
        self.rows = self.shape.box_rows if self.shape.box_cols == 3 else self.shape.box_cols

    @classmethod
    def applies_to(cls, shape) -> bool:
        """Whether ``shape`` has three bands or three stacks, ``2 <= R <= 3``."""
        s = as_shape(shape)
        if s.latin or 3 not in (s.box_rows, s.box_cols):
            return False
        R = s.box_rows if s.box_cols == 3 else s.box_cols
        return 2 <= R <= DENSE_MAX_R

    @classmethod
    def default_for(cls, shape) -> bool:
        """Never the default (until the registry says otherwise)."""
        return False

    @property
    def factors(self) -> tuple[tuple[str, int], ...]:
        """The row orderings, one per band: ``R!`` each (stacks, for ``3×R``)."""
        R = self.rows
        what = "rows of band" if self.shape.box_cols == 3 else "columns of stack"
        first = "column" if self.shape.box_cols == 3 else "row"
        f = ColumnSetRectangles(R, 3 * R).row_order_factor
        return tuple((f"order the {what} {b} by {first} 1 ({R}!)", f) for b in (1, 2, 3))

    def classes(self) -> list[BandPatternClass]:
        """The classes with representatives, sizes and ``l`` (a new list)."""
        R = self.rows
        ct = tables(R).classes
        return [BandPatternClass(i, pattern_column_sets(rep, R), size, int(l))
                for i, (rep, size, l) in enumerate(zip(ct.reps, ct.sizes, ct.l))]

    def units(self) -> list[BandPatternUnitSpec]:
        """One unit per class, ``unit_id = class_id`` (a new list)."""
        return [BandPatternUnitSpec(self.shape.name, NAME, c.class_id, c.class_id, 0, c.weight,
                                    c.representative) for c in self.classes()]

    def n_units(self) -> int:
        return len(tables(self.rows).classes.reps)

    def _check_spec(self, spec: BandPatternUnitSpec) -> None:
        if as_shape(spec.shape) not in (self.shape, self.shape.transpose()) \
                or spec.reduction != NAME:
            raise ValueError(f"unit {spec.unit_id} is a {spec.shape}/{spec.reduction} unit, "
                             f"not {self.shape.name}/{NAME}")

    def unit_problem(self, spec):
        """None: a unit is a table contraction, not an exact-cover problem.

        Raises
        ------
        NotImplementedError
            Always; :meth:`count_unit` counts a unit by itself.
        """
        raise NotImplementedError(f"{NAME} units are table contractions (bandtables), "
                                  f"not exact-cover problems")

    def estimate_unit_seconds(self, spec, options, *, probes: int, seed: int,
                              max_seconds: float) -> float:
        """The unit's own seconds: it is cheaper to count than to estimate."""
        return self.count_unit(spec, options).seconds

    def band_completions(self, column_sets) -> int:
        """Completions of bands 2 and 3 of any band 1 with these column sets
        (``R × 3`` orientation): ``(R!)² · Σ_{P2} l(P2)·l(P3)``, exact."""
        bt = tables(self.rows)
        return bt.row_orders ** 2 * bt.completions(column_sets)

    def count_unit(self, spec: BandPatternUnitSpec, options: CountOptions = CountOptions(), *,
                   fresh_memo: bool = False) -> UnitResult:
        """Count one unit: ``l(rep) · Σ_{P2} l(P2)·l(P3)`` (exact int).

        ``options`` and ``fresh_memo`` are accepted for the common interface
        and ignored (no memo table; the tables are read-only).  ``nodes``
        reports the number of terms summed, ``K^R``.
        """
        self._check_spec(spec)
        bt = tables(self.rows)
        t0 = time.perf_counter()
        count = bt.l(spec.column_sets) * bt.completions(spec.column_sets)
        seconds = time.perf_counter() - t0
        return UnitResult(
            unit_id=spec.unit_id, class_id=spec.class_id, form_id=spec.form_id, count=count,
            nodes=bt.K ** self.rows, dead_ends=0, memo_hits=0, seconds=round(seconds, 6),
            host=socket.gethostname(), engine_version=f"{ENGINE_VERSION}+bandtables{KERNEL_VERSION}",
            finished_at=datetime.now(timezone.utc).isoformat(timespec="seconds"))

    def n_patterns(self) -> int:
        """Number of ordered band-1 patterns: ``(N! / (R!)³)^R``."""
        R = self.rows
        return (math.factorial(3 * R) // math.factorial(R) ** 3) ** R
