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
   :mod:`grids.rectangle`; the boxes are then complete by themselves).
2. In a stack each grid column holds every digit once, so a digit lies in
   a different column of the stack in each band: given ``P1`` and ``P2``
   (with no digit twice in one grid column), band 3's column sets are the
   complements, ``P3``, and again a pattern.  Hence, exactly,
   ``grids = Σ_{P1} Σ_{P2 compatible} L(P1)·L(P2)·L(P3)``.
3. *Rows ordered by column 1.*  ``L = R!·l`` in every band
   (:attr:`grids.rectangle.ColumnSetRectangles.row_order_factor`): the
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
(:mod:`bandtables.tables`; for 4×3 the order of :mod:`bandtables.orbits`).
A unit is a :class:`BandPatternUnitSpec` carrying the representative's
column sets; its count (:meth:`ThreeBandPatternReduction.count_directly`) is
``l(rep) · Σ_{P2} l(P2)·l(P3)``: the grids whose band 1 has exactly those
column sets, divided by ``(R!)³``.  The sum is a table contraction (the
``nogil`` kernels of :mod:`bandtables._contract`), not an exact-cover
search: :meth:`~ThreeBandPatternReduction.problem` is None.
Exchanging bands 2 and 3 keeps every term and pairs stack 1's ``K``
band-2 choices, so the kernels sum ``K/2`` of them and double; a unit may
be counted in slices of those (``count_slice(spec, (start, stop))``).  A
whole 4x3 unit is summed one choice per orbit of two stacks' choices under
band 1's symmetries (:mod:`bandtables.symmetry`: the same sum, fewer
terms; measured in ``results/bench_patterns3.md``).

Tables: every table a unit reads is memory-mapped read-only from the
machine's cache directory, where it is built on first use and checked by
its digests (:mod:`bandtables.cache`), so a machine's workers share one
copy: for 2×3 and 3×3 the dense tables (built in a fraction of a second),
for 4×3 (and 3×4) those of :mod:`bandtables.tables4` (or read from
``table_dir``).  Costs: 3×3 ≈ 0.3 s for all 44 units; 4×3: 144,578
units of 173 slices each (``results/bench_patterns3.md``).

Example
-------
>>> red = ThreeBandPatternReduction("2x3")
>>> red.factor, red.n_units()
(8, 3)
>>> red.total({u.unit_id: red.count_directly(u).count for u in red.units()})
28200960
"""
from __future__ import annotations

import math
import random
import re
import resource
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from bandtables import KERNEL_VERSION, kernels
from bandtables.api import BandTables
from bandtables.tables import DENSE_MAX_R, pattern_column_sets
from counting.options import CountOptions
from counting.reduction.band_completions import MAX_R as RECOUNT_MAX_R
from counting.reduction.band_completions import METHOD as RECOUNT_METHOD
from counting.reduction.band_completions import count_without_tables
from counting.reduction.base import Reduction
from counting.reduction.cost import even_work, smallest_class_first
from counting.units import Tally, WorkUnit
from dlx import ENGINE_VERSION
from grids.rectangle import ColumnSetRectangles
from grids.shape import as_shape

__all__ = ["ThreeBandPatternReduction", "BandPatternClass", "BandPatternUnitSpec", "tables",
           "tables4", "forget_tables"]

NAME = "patterns3"

MAX_R = 5             # 4x3 / 3x4 read the cached tables of bandtables.tables4
TABLES_MAX_R = 4      # 5x3 / 3x5: the job is estimated, never counted (no tables)

_TABLES: dict[str, BandTables] = {}  # per process: the mapped tables of R <= 3 by directory
_TABLES4: dict[str, object] = {}     # per process: the memory-mapped 4x3 tables by directory


def forget_tables() -> None:
    """Forget the tables this process has mapped (:func:`tables`, :func:`tables4`), as
    a new process starts: the next call maps them again from the cache of then."""
    _TABLES.clear()
    _TABLES4.clear()


def tables(R: int) -> BandTables:
    """The tables of ``R <= 3``, memory-mapped read-only from the machine's
    cache (:func:`bandtables.cache.tables_dir`: built there on first use, in
    a fraction of a second, and checked by their digests once per process),
    so the worker processes of a machine share one copy in its page cache;
    every unit and thread of a process reads the same mapping.  Where no
    cache can be written (a read-only home), the process builds its own copy
    and says so on standard error."""
    from bandtables.cache import tables_dir
    try:
        d = str(tables_dir(R))
    except OSError as e:       # no cache can be written here: this process's own copy
        d = f"in process: {e}"
        if d not in _TABLES:
            print(f"the band tables' cache cannot be used ({e}): the {R}x3 tables are built "
                  f"in this process", file=sys.stderr, flush=True)
            _TABLES[d] = BandTables.build(R)
        return _TABLES[d]
    bt = _TABLES.get(d)
    if bt is None:
        bt = _TABLES[d] = BandTables.load(R, d)
    return bt


def tables4(directory: str | None = None):
    """The 4x3 tables (:class:`bandtables.tables4.Tables4`), memory-mapped
    from ``directory`` (built there beforehand by
    :func:`bandtables.tables4.build`), or by default from the machine's
    cache, where they are built on first use and checked by their digests
    (:func:`bandtables.cache.tables4_dir`): one copy per machine in the page
    cache, whatever the number of workers."""
    from bandtables.cache import tables4_dir
    from bandtables.tables4 import load
    d = str(directory) if directory else str(tables4_dir())
    t = _TABLES4.get(d)
    if t is None:
        t = _TABLES4[d] = load(d)
    return t


def _private_bytes() -> int:
    """This process's private resident memory (``RssAnon`` of Linux), or its
    peak resident memory where ``/proc`` is missing (an upper bound)."""
    try:
        with open("/proc/self/status") as fh:
            m = re.search(r"^RssAnon:\s+(\d+) kB", fh.read(), re.M)
        if m:
            return int(m.group(1)) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


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
        ``R x 3`` (native) or ``3 x R`` (its transpose), ``2 <= R <= 5``
        (``R = 5``: the job's estimate only, :meth:`cost_model`).
        ``R <= 3`` builds its dense tables in a fraction of a second;
        ``R = 4`` reads the tables of :mod:`bandtables.tables4` (:func:`tables4`).
    table_dir : str, optional
        Directory of the 4x3 tables (default: the machine's cache, built on first use).

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

    def __init__(self, shape, table_dir: str | None = None):
        self.shape = as_shape(shape)
        self.table_dir = table_dir
        if not self.applies_to(self.shape):
            raise ValueError(f"reduction {NAME!r} applies to boxes of R x 3 or 3 x R cells "
                             f"(R = 2..{MAX_R}), not {self.shape.name}")
        self.rows = self.shape.box_rows if self.shape.box_cols == 3 else self.shape.box_cols

    @classmethod
    def applies_to(cls, shape) -> bool:
        """Whether ``shape`` has three bands or three stacks, ``2 <= R <= 5``."""
        s = as_shape(shape)
        if s.latin or 3 not in (s.box_rows, s.box_cols):
            return False
        R = s.box_rows if s.box_cols == 3 else s.box_cols
        return 2 <= R <= MAX_R

    #: Before the band-1 reductions when choosing a default: 4x3 and larger
    #: have bands too large for them to enumerate (:mod:`counting.reduction.registry`).
    default_rank = -1

    @classmethod
    def default_for(cls, shape) -> bool:
        """The default for ``R >= 4`` (4x3, 3x4, 5x3, 3x5), whose band 1 the
        other reductions cannot enumerate."""
        if not cls.applies_to(shape):
            return False
        s = as_shape(shape)
        return (s.box_rows if s.box_cols == 3 else s.box_cols) >= TABLES_MAX_R

    @property
    def factors(self) -> tuple[tuple[str, int], ...]:
        """The row orderings, one per band: ``R!`` each (stacks, for ``3×R``)."""
        R = self.rows
        what = "rows of band" if self.shape.box_cols == 3 else "columns of stack"
        first = "column" if self.shape.box_cols == 3 else "row"
        f = ColumnSetRectangles(R, 3 * R).row_order_factor
        return tuple((f"order the {what} {b} by {first} 1 ({R}!)", f) for b in (1, 2, 3))

    def _class_records(self):
        """``(reps as code tuples, sizes, l)`` of this ``R``."""
        R = self.rows
        if R > TABLES_MAX_R:
            raise ValueError(f"{self.shape.name} by {NAME} is estimated only: its tables cannot "
                             f"be built ({self._act_bytes() / 2 ** 40:,.1f} TiB for one "
                             f"relabelling table alone)")
        if R <= DENSE_MAX_R:
            ct = tables(R).classes
            return ct.reps, ct.sizes, ct.l
        t4 = tables4(self.table_dir)
        return [tuple(r) for r in t4.reps.tolist()], [int(x) for x in t4.sizes], t4.l

    def classes(self) -> list[BandPatternClass]:
        """The classes with representatives, sizes and ``l`` (a new list)."""
        R = self.rows
        reps, sizes, ls = self._class_records()
        return [BandPatternClass(i, pattern_column_sets(rep, R), size, int(l))
                for i, (rep, size, l) in enumerate(zip(reps, sizes, ls))]

    def units(self) -> list[BandPatternUnitSpec]:
        """One unit per class, ``unit_id = class_id`` (a new list)."""
        return [BandPatternUnitSpec(self.shape.name, NAME, c.class_id, c.class_id, 0, c.weight,
                                    c.representative) for c in self.classes()]

    def n_units(self) -> int:
        return len(self._class_records()[0])

    def unit_columns(self, spec: BandPatternUnitSpec) -> dict[str, object]:
        """The per-unit CSV column of ``gridcount export``: band 1's column
        sets, box by box, digits ``1..N`` written ``0..N-1`` in hex (one
        character each, N <= 16), as ``results/4x3-sample-units.csv``."""
        return {"band1_column_sets": " ".join("".join("%x" % (d - 1) for d in s)
                                              for s in spec.column_sets)}

    def _check_spec(self, spec: BandPatternUnitSpec) -> None:
        if as_shape(spec.shape) not in (self.shape, self.shape.transpose()) \
                or spec.reduction != NAME:
            raise ValueError(f"unit {spec.unit_id} is a {spec.shape}/{spec.reduction} unit, "
                             f"not {self.shape.name}/{NAME}")

    def count_independently(self, spec: BandPatternUnitSpec,
                            options: CountOptions = CountOptions()) -> int:
        """``gridcount recount``'s count: for 2x3 and 3x3 without the band
        tables or the contraction (:mod:`counting.reduction.band_completions`:
        the engine on bands 2-3, ``l`` of band 1 by the direct counter;
        ``options`` do not apply)."""
        self._check_spec(spec)
        return count_without_tables(spec.column_sets, self.rows)

    def recount_refused(self) -> str | None:
        """4x3 (and 3x4): no method independent of the band tables fits (one
        band 1 has about 10²⁰ completions of bands 2-3, beyond a search)."""
        if self.rows <= RECOUNT_MAX_R:
            return None
        return (f"no method independent of the band tables fits {self.shape.name} (one band 1 "
                f"has about 10^20 completions of bands 2-3, beyond a search), and the same "
                f"tables again would check nothing")

    def recount_method(self) -> str:
        if self.rows <= RECOUNT_MAX_R:
            return RECOUNT_METHOD
        return f"none: no method independent of the band tables fits {self.shape.name}"

    def problem(self, spec) -> None:
        """None: a unit is a table contraction (:mod:`bandtables`), not an
        exact-cover problem; :meth:`count_directly` counts it."""
        return None

    def hand_out(self, specs) -> list:
        """Smallest class first (unit costs are nearly uniform: every unit
        sums ``K^R / 2`` terms)."""
        return smallest_class_first(specs)

    def work_shares(self, specs) -> dict[int, float]:
        return even_work(specs)

    def _act_bytes(self) -> int:
        """Bytes of one ``U × U`` relabelling table of 32-bit codes (U > 2^16 for R = 5)."""
        from bandtables.estimate import job_size
        U = job_size(self.rows)["U"]
        return U * U * (2 if U < 2 ** 16 else 4)

    def cost_model(self, bound_ok: bool = True):
        """The job's estimate without its tables (:mod:`counting.reach`), or
        None where the units are timed on the tables themselves.

        For 5x3 always, and for 4x3 while this machine's cache holds no
        tables (they take minutes to build) unless ``bound_ok`` is False: a
        lower bound (*provisional* for 4x3: a job it does not refuse is
        estimated again on the tables, :func:`counting.plan.check_reach`), ``classes ≥
        patterns / |moves|`` units of ``K^R / 2`` terms each
        (:func:`bandtables.estimate.job_size`), at the seconds per term
        measured here on the 3x3 kernel alone, whose tables stay in cache
        (those of 4x3 and 5x3 do not, and their terms are no less work):
        a rough lower bound, not a proven one.
        """
        from bandtables.cache import cached_tables4
        from bandtables.estimate import job_size
        R = self.rows
        if R <= DENSE_MAX_R or (R == TABLES_MAX_R and (
                not bound_ok or self.table_dir or cached_tables4())):
            return None
        size, small = job_size(R), job_size(3)
        bt = BandTables.build(3)     # in this process: an estimate (or refusal) writes nothing
        work = [bt.pairs(pattern_column_sets(rep, 3)) for rep in bt.classes.reps[:8]]
        t0 = time.process_time()
        for b, c in work:                      # the kernel alone, its tables in cache
            kernels.contract(bt.act, bt.T, b, c, 0, bt.K0)
        per_term = (time.process_time() - t0) / (len(work) * small["terms_per_unit"])
        why = ("its tables cannot be built" if R > TABLES_MAX_R else
               "the tables are not built on this machine yet; they are built on first use")
        return {"units": size["classes_lower_bound"], "units_exact": False,
                "unit_seconds": size["terms_per_unit"] * per_term, "sampled": 0,
                "method": (f"{size['terms_per_unit']:,} terms each at "
                           f"{per_term * 1e9:.2g} ns, the 3x3 kernel's in-cache rate "
                           f"measured here: a rough lower bound, {why}"),
                "memory": None, "countable": R <= TABLES_MAX_R,
                "provisional": R <= TABLES_MAX_R}

    def _slices_timed(self) -> int:
        """Slices the estimate times in one call: as many as the 4x3 kernel
        sorts together (:data:`bandtables.kernels.BATCH4`; a unit is counted
        whole, so that is the rate the job runs at), one below 4x3."""
        if self.rows <= DENSE_MAX_R:
            return 1
        from bandtables.kernels import BATCH4
        return min(BATCH4, self.choices // 2)

    def estimate_method(self, sampled: int) -> str:
        width = self._slices_timed()
        what = "one" if width == 1 else f"{width} consecutive"
        scaled = "" if self.rows <= DENSE_MAX_R else (
            ", scaled to the slices band 1's symmetries leave a unit")
        return (f"{what} of {self.choices // 2} band-2 slices timed in each of {sampled} "
                f"sampled unit{'s' * (sampled != 1)}{scaled}")

    def estimate_unit_seconds(self, spec, options, *, probes: int, seed: int,
                              max_seconds: float) -> float:
        """CPU seconds of counting ``spec``: a few consecutive slices
        (:meth:`_slices_timed`, from stack 1's choice drawn with ``seed``)
        are counted in one call, timed by this process's CPU clock (a shared
        machine stretches wall time, not core-hours), and scaled to the
        slices the unit sums: ``K/2``, or for 4x3 the slices' worth of terms
        left by the orbits of band 1's symmetries (:mod:`bandtables.symmetry`;
        the time to find them included)."""
        width = self._slices_timed()
        x0 = random.Random(seed).randrange(self.choices // 2 - width + 1)
        self.l(spec.column_sets)               # the tables mapped before the clock starts
        t0 = time.process_time()
        self.count_slice(spec, (x0, x0 + width))
        per_slice = (time.process_time() - t0) / width
        if self.rows <= DENSE_MAX_R:
            return per_slice * (self.choices // 2)
        from bandtables.api import band_codes
        from bandtables.symmetry import orbit_plan
        t0 = time.process_time()
        _, calls = orbit_plan(band_codes(spec.column_sets, self.rows), self.rows)
        slices = sum(len(x0s) * len(x1s) for _, x0s, x1s in calls) / self.choices
        return per_slice * slices + (time.process_time() - t0)

    def estimate_memory(self, options=None) -> tuple[int, int] | None:
        """For 4x3: this process's private resident memory (measured, after
        counting) and the bytes of the mapped tables; None for the in-process
        tables of 2x3 and 3x3 (a few MiB)."""
        if self.rows <= DENSE_MAX_R:
            return None
        from bandtables.cache import table_bytes
        t = tables4(self.table_dir)
        return _private_bytes(), table_bytes(Path(t.act.filename).parent)

    def _completions(self, column_sets, x0=None) -> tuple[int, int]:
        """``(Σ_{P2} l(P2)·l(P3), terms summed)`` for band 1's column sets
        (stack 1's choice in ``x0``).  A whole 4x3 unit (``x0`` None) is
        summed one choice per orbit in two stacks under band 1's symmetries
        (:mod:`bandtables.symmetry`: the same sum, fewer terms when band 1
        has a symmetry fixing a stack)."""
        R, K = self.rows, self.choices
        width = K // 2 if x0 is None else x0[1] - x0[0]
        if R <= DENSE_MAX_R:
            return tables(R).completions(column_sets, x0), width * K ** (R - 1)
        from bandtables.api import band_codes
        from bandtables.tables4 import completions4, completions4_by_orbits
        codes = band_codes(column_sets, R)
        if x0 is None:
            return completions4_by_orbits(tables4(self.table_dir), codes)
        return completions4(tables4(self.table_dir), codes, x0), width * K ** (R - 1)

    def l(self, column_sets) -> int:
        """``l = L / R!`` of a band with these column sets (:meth:`bandtables.api.BandTables.l`),
        from this shape's tables (4x3: mapped, made first if this machine has none)."""
        R = self.rows
        if R <= DENSE_MAX_R:
            return tables(R).l(column_sets)
        from bandtables.api import band_codes
        from bandtables.partitions import code_index
        return tables4(self.table_dir).lookup(code_index(band_codes(column_sets, R), R))

    @property
    def choices(self) -> int:
        """``K``: band-2 codes per stack compatible with band 1's."""
        from bandtables.estimate import job_size
        return job_size(self.rows)["K"]

    def band_completions(self, column_sets) -> int:
        """Completions of bands 2 and 3 of any band 1 with these column sets
        (``R × 3`` orientation): ``(R!)² · Σ_{P2} l(P2)·l(P3)``, exact."""
        return math.factorial(self.rows) ** 2 * self._completions(column_sets)[0]

    def count_directly(self, spec: BandPatternUnitSpec,
                       options: CountOptions = CountOptions()) -> Tally:
        """Count one unit: ``l(rep) · Σ_{P2} l(P2)·l(P3)`` (exact int).

        ``options`` are accepted for the common interface and ignored (no
        memo table; the tables are read-only).  ``nodes`` reports the number
        of terms summed.
        """
        return self.count_slice(spec, None)

    def count_slice(self, spec: BandPatternUnitSpec, x0: tuple[int, int] | None) -> Tally:
        """The part of a unit's count from stack 1's band-2 choices
        ``x0 = (start, stop)`` of ``0 .. K/2 - 1`` (None: all of them; the
        kernel sums half of stack 1's choices and doubles, see
        :func:`bandtables.partitions.band2_choices`; the slices add up to
        the unit)."""
        self._check_spec(spec)
        K = self.choices
        t0 = time.perf_counter()
        inner, terms = self._completions(spec.column_sets, x0)
        count = self.l(spec.column_sets) * inner
        seconds = time.perf_counter() - t0
        return Tally(count, nodes=terms, seconds=seconds,
                     engine_version=ENGINE_VERSION + self.engine_suffix())

    def engine_suffix(self) -> str:
        """``+bandtables`` and the kernel's version: results name the tables' kernel."""
        return f"+bandtables{KERNEL_VERSION}"

    def n_patterns(self) -> int:
        """Number of ordered band-1 patterns: ``(N! / (R!)³)^R``."""
        R = self.rows
        return (math.factorial(3 * R) // math.factorial(R) ** 3) ** R
