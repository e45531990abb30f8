"""Kinds with one extra house of one cell per box by band tables: the ``kind-tables`` reduction.

The method is :mod:`bandtables.kind_tables` (issue 35): with row 1 fixed by relabelling,

    grids = N! · Σ_{orbits q of band 1} mult(q) · completions(q)

where an orbit is a class of band-1 fillings (their column sets and house digits, up to
relabelling and the column moves that keep the other two bands' tables), ``mult(q)`` the
band-1 fillings it stands for and ``completions(q)`` the fillings of the other two bands
that complete any one of them, a contraction of those bands' tables.  The band enumerated
is :func:`bandtables.kind_tables.default_first` (band 1 for centre-dot and plain grids,
band 2 for girandola and asterisk, whose other bands then read one table).

Work units
----------
The orbits, in the order of their keys, are cut into ranges of :data:`ORBITS_PER_UNIT`
(64 for 9×9: a unit takes seconds; 2 for 6×6, whose kinds have a few dozen orbits).  A
unit (:class:`KindTablesUnit`) carries its orbits' keys and multiplicities, so a worker
needs only the tables to count it: its count is the exact ``Σ mult · completions`` over
its orbits, its weight 1, and the factor ``N!``.

A unit id means its orbits only in one listing of them, so a store records which: its
job's engine (:attr:`KindBandTableReduction.engine_version`) ends in ``+units-DIGEST``,
:func:`digest_of_units` of the whole list of units (every unit's first orbit, keys and
multiplicities, in order).  A store or a units export of another listing (another
gridcount, orbits listed by another version of the method) is refused in one line
naming both digests, by ``count`` and by ``merge``
(:meth:`KindBandTableReduction.foreign_engine`), instead of its unit 5 being read as
other orbits: some counted twice, others never.  Stores made before they recorded a
digest were listed by :data:`LISTED_BEFORE_DIGESTS`'s method and are taken as such
while this gridcount lists by it.  The tables (9×9: 40–60 s, 152 MB a table, about
345 MB resident while made) and the orbits (9×9: 15–20 s) are made once per machine into
its cache and memory-mapped read-only by every process after, workers and ``status``
alike (:mod:`bandtables.kind_cache`).

``gridcount recount`` counts a 6×6 unit's orbits by dancing links instead
(:mod:`bandtables.kind_search`): the other two bands filled by search under the column
sets and house digits the key leaves them, no table read.  A 9×9 orbit takes about a
minute that way, so 9×9 stores are not recounted
(:meth:`~KindBandTableReduction.recount_refused`); their check is a second decomposition
of the total.

Example
-------
>>> red = KindBandTableReduction("2x3")
>>> red.factor, red.n_units()
(720, 2)
>>> red.total({u.unit_id: red.count_directly(u).count for u in red.units()})
28200960
"""
from __future__ import annotations

import hashlib
import json
import random
import time
from dataclasses import dataclass, field
from functools import cached_property

from bandtables.kind_cache import shared_here
from bandtables.kind_search import search_completions
from bandtables.kind_tables import METHOD, KindBandTables
from counting.options import CountOptions
from counting.reduction import listing
from counting.reduction.base import BandClass, Reduction, checked_counts
from counting.units import Tally, WorkUnit
from dlx import ENGINE_VERSION
from grids.kind import as_kind

__all__ = ["KindBandTableReduction", "KindTablesUnit", "NAME", "ORBITS_PER_UNIT",
           "TABLES_VERSION", "SEARCH_MAX_R", "UNITS_TAG", "LISTED_BEFORE_DIGESTS",
           "digest_of_units"]

NAME = "kind-tables"

#: Band-1 orbits a unit, by box rows ``R``: 9×9 orbits take 0.03–0.3 s each (girandola
#: and asterisk to centre-dot, ``results/variants.md``), 6×6 ones microseconds.
ORBITS_PER_UNIT = {2: 2, 3: 64}

#: What a unit's result adds to the engine's version: results name the kind tables' method.
TABLES_VERSION = f"+kindtables{METHOD}"

#: What a store's job engine carries before the digest of its units (module docstring).
UNITS_TAG = "+units-"

#: The method (:data:`bandtables.kind_tables.METHOD`) that listed the units of the stores
#: begun before a store recorded their digest (2026-11-29, ``"dlx1-memo-3"``): such a
#: store is resumed and merged only while this gridcount lists the orbits by that method
#: (tests/counting/reduction/test_kind_band_tables.py pins its listings' digests).
LISTED_BEFORE_DIGESTS = 1

#: The largest box rows ``R`` whose units ``gridcount recount`` counts by search (6×6).
SEARCH_MAX_R = 2

#: Orbits of a unit contracted and timed by the estimate.
TIMED_ORBITS = 2


@dataclass(frozen=True)
class KindTablesUnit(WorkUnit):
    """One range of band-1 orbits (``unit_id = class_id``, ``form_id = 0``, ``weight = 1``).

    Attributes
    ----------
    first_orbit : int
        The position of the unit's first orbit in the order of keys.
    keys, mults : tuple of int
        The orbits' canonical keys (:class:`bandtables.kind_tables.KindBandTables`) and
        the band-1 fillings each stands for.
    """

    first_orbit: int = 0
    keys: tuple[int, ...] = field(default=(), repr=False)
    mults: tuple[int, ...] = field(default=(), repr=False)


def digest_of_units(units) -> str:
    """16 hexadecimal digits of the SHA-256 of a list of units: every unit's id, first
    orbit, keys and multiplicities, in order (what its unit ids mean)."""
    text = json.dumps([[u.unit_id, u.first_orbit, list(u.keys), list(u.mults)] for u in units],
                      separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class KindBandTableReduction(Reduction):
    """The ``kind-tables`` reduction of one kind (module docstring).

    Parameters
    ----------
    kind : GridKind or str
        Boxes of 2 or 3 rows × 3 columns and at most one extra house, with one cell in
        every box (``"3x3+centre"``, ``"3x3+girandola"``, ``"3x3+asterisk"``, ``"3x3"``,
        ``"2x3"``, a kind file's such house).

    Raises
    ------
    ValueError
        For any other kind, naming why (:func:`bandtables.kind_tables.band_house_columns`).
    """

    kind = NAME
    engine_pinned = True     # unit ids are ranges of one listing of the band-1 orbits
    total_lists_units = False    # every unit weighs 1: complete_total

    def __init__(self, kind):
        self.grid_kind = as_kind(kind)
        self.shape = self.grid_kind.shape
        self.tables = KindBandTables(self.grid_kind)       # checks the kind; builds nothing yet
        self.per_unit = ORBITS_PER_UNIT[self.tables.R]

    @property
    def name(self) -> str:
        return NAME

    @property
    def factors(self) -> tuple[tuple[str, int], ...]:
        return ((f"relabel row 1 ({self.shape.n}!)", self.tables.factor),)

    @cached_property
    def _units(self) -> tuple[KindTablesUnit, ...]:
        keys, mults = self.tables.orbits
        k = self.per_unit
        return tuple(KindTablesUnit(self.grid_kind.name, NAME, u, u, 0, 1, lo,
                                    tuple(int(x) for x in keys[lo:lo + k]),
                                    tuple(int(x) for x in mults[lo:lo + k]))
                     for u, lo in enumerate(range(0, len(keys), k)))

    def units(self) -> list[KindTablesUnit]:
        return list(self._units)

    @cached_property
    def units_digest(self) -> str:
        """:func:`digest_of_units` of this gridcount's units (lists them)."""
        return digest_of_units(self._units)

    @property
    def engine_version(self) -> str:
        """What a store of this job records as its engine: the engine's version, the
        tables' method and ``+units-DIGEST`` (module docstring); lists the units."""
        return f"{ENGINE_VERSION}{TABLES_VERSION}{UNITS_TAG}{self.units_digest}"

    def foreign_engine(self, stored: str) -> str | None:
        """None when a store whose job records the engine ``stored`` holds units of this
        gridcount's listing of the orbits (the same digest; no digest: listed by
        :data:`LISTED_BEFORE_DIGESTS`'s method, while this gridcount's is that one); else
        why not, in one line naming both listings' digests (what differs: the same
        kernel, another list of band-1 orbits)."""
        _, tag, digest = stored.rpartition(UNITS_TAG)
        if tag and digest == self.units_digest:
            return None
        if not tag and METHOD == LISTED_BEFORE_DIGESTS:
            return None
        theirs = (f"{digest} in the store" if tag else
                  f"none recorded in the store, whose engine {stored!r} says kind-tables "
                  f"method {LISTED_BEFORE_DIGESTS} listed them; this gridcount lists by "
                  f"method {METHOD}")
        return (f"its units are another listing of the band-1 orbits (units digest "
                f"{self.units_digest} here, {theirs}), so its unit ids would stand for "
                f"other orbits here")

    def foreign_total_refused(self) -> None:
        """None: a complete store of another listing of the orbits has its total here.
        Every unit's count is the exact ``Σ mult · completions`` over its own orbits and
        its weight 1 in any listing, so the total is ``N! · Σ`` of the stored counts,
        whichever orbits each id stands for (:meth:`total` reads of a unit its weight alone)."""
        return None

    def complete_total(self, counts, n_units: int) -> int:
        """``N! · Σ`` of the counts of units ``0 .. n_units-1``, the orbits not listed:
        every unit weighs 1, in any listing (:meth:`foreign_total_refused`), so a
        complete store's total needs only its counts (9×9: 12-17 s of a core saved
        without this machine's cache of the orbits)."""
        return self.factor * sum(checked_counts(counts, n_units).values())

    def classes(self) -> list[BandClass]:
        """One class per unit, weight 1; its representative the column sets of its first
        orbit's band 1 (digits ``1..N``, column by column), then its house digits."""
        out = []
        for u in self._units:
            cols, house = self.tables.band1_sets(u.keys[0])
            sets = [tuple(d + 1 for d in range(self.shape.n) if m >> d & 1)
                    for m in (*cols, house)]
            out.append(BandClass(u.unit_id, tuple(sets), 1))
        return out

    def class_label(self, class_id: int) -> str:
        u = self._units[class_id]
        return (f"band-{self.tables.first + 1} orbits {u.first_orbit + 1}–"
                f"{u.first_orbit + len(u.keys)}")

    def unit_columns(self, spec: KindTablesUnit) -> dict[str, object]:
        """The per-unit CSV columns of ``gridcount export``: the orbits' positions, and
        the band-1 fillings they stand for."""
        return {"first_orbit": spec.first_orbit, "orbits": len(spec.keys),
                "band1_fillings": sum(spec.mults)}

    def _check_spec(self, spec) -> None:
        if (spec.shape, spec.reduction) != (self.grid_kind.name, NAME):
            raise ValueError(f"a unit of {spec.shape} by {spec.reduction}, not of "
                             f"{self.grid_kind.name} by {NAME}")

    def problem(self, spec) -> None:
        """None: a unit is a table contraction, counted by :meth:`count_directly`."""
        return None

    def engine_suffix(self) -> str:
        return TABLES_VERSION

    def count_directly(self, spec: KindTablesUnit, options: CountOptions = CountOptions()) -> Tally:
        """``Σ mult · completions`` over the unit's orbits, exact; ``nodes`` is the
        number of orbits.  The tables are made first (once per process) and their time
        is not the unit's; ``options`` do not apply."""
        self._check_spec(spec)
        self.tables.build_tables()
        t0 = time.perf_counter()
        count = self.tables.count(spec.keys, spec.mults)
        return Tally(count, nodes=len(spec.keys), seconds=time.perf_counter() - t0,
                     engine_version=ENGINE_VERSION + TABLES_VERSION)

    def count_independently(self, spec: KindTablesUnit,
                            options: CountOptions = CountOptions()) -> int:
        """``gridcount recount``'s count: each orbit's completions by dancing links
        (:func:`bandtables.kind_search.search_completions`), no table read."""
        self._check_spec(spec)
        return sum(m * search_completions(self.tables, key)
                   for key, m in zip(spec.keys, spec.mults))

    def recount_refused(self) -> str | None:
        """9×9: no search within reach.  One orbit of band 1 leaves about 10^8 to 10^10
        completions, a minute of dancing links (plain 3x3's first orbit: 47 s, measured
        2026-11-29), so a unit of 64 orbits would be an hour; counting the same tables
        again would check nothing."""
        if self.tables.R <= SEARCH_MAX_R:
            return None
        return (f"no count of a {self.shape.n}x{self.shape.n} unit without the tables fits: "
                f"each band-1 orbit is about a minute of dancing links, a unit of "
                f"{self.per_unit} an hour, and the same tables again would check nothing; "
                f"a second decomposition (scripts/count_kind_band_tables.py --first, "
                f"--columns) checks the total")

    def recount_method(self) -> str:
        if self.tables.R > SEARCH_MAX_R:
            return "none within reach for 9x9 (a second decomposition checks the total)"
        return ("dancing links on the other two bands under each orbit's column sets and "
                "house digits, no band table read")

    def hand_out(self, specs) -> list:
        """In unit order (units of equal orbits differ little)."""
        return sorted(specs, key=lambda s: s.unit_id)

    def work_shares(self, specs) -> dict[int, float]:
        """A unit's share: its orbits."""
        specs = list(specs)
        n = sum(len(s.keys) for s in specs) or 1
        return {s.unit_id: len(s.keys) / n for s in specs}

    def worker_memory_mib(self, options) -> float:
        """What a worker holds beside the tables it maps from this machine's cache
        (no memo table); the tables too where no cache can be written here, since
        each worker then makes its own copy (:func:`bandtables.kind_cache.shared_here`)."""
        own = self.tables.worker_bytes
        return (own - self.tables.table_bytes if shared_here() else own) / 2 ** 20

    def listing_cached(self) -> bool:
        """Whether the band-1 orbits the units are cut from are in this
        machine's cache (9×9: else about 12 s of a core to enumerate)."""
        return self.tables.orbits_cached()

    def tables_notice(self) -> str | None:
        """The other two bands' tables, while this machine's cache lacks them (9×9:
        152 MB a table, 21–30 s of a core to make as measured in
        ``results/kind-tables-seconds.json``); None once they are there."""
        if self.tables.tables_cached():
            return None
        return listing.tables_notice(self.grid_kind.name, self.tables.n_tables,
                                     self.tables.table_bytes, kept=shared_here())

    def shared_memory_mib(self, options) -> float:
        """The tables, mapped from this machine's cache: one copy for all workers
        (none where no cache can be written: :meth:`worker_memory_mib` counts them)."""
        return self.tables.table_bytes / 2 ** 20 if shared_here() else 0.0

    def estimate_memory(self, options=None) -> tuple[int, int]:
        """``(what the process that makes the tables holds beside them, the tables)``:
        made once per machine and mapped read-only by every worker."""
        return self.tables.worker_bytes - self.tables.table_bytes, self.tables.table_bytes

    def estimate_unit_seconds(self, spec: KindTablesUnit, options, *, probes: int, seed: int,
                              max_seconds: float) -> float:
        """CPU seconds of ``spec``: :data:`TIMED_ORBITS` of its orbits drawn with ``seed``
        contracted and timed by this process's CPU clock, scaled to its orbits (the
        tables made before the clock starts: a worker makes them once)."""
        self.tables.build_tables()
        picked = sorted(random.Random(seed).sample(range(len(spec.keys)),
                                                   min(TIMED_ORBITS, len(spec.keys))))
        t0 = time.process_time()
        self.tables.count([spec.keys[i] for i in picked], [1] * len(picked))
        return (time.process_time() - t0) * len(spec.keys) / max(len(picked), 1)

    def estimate_method(self, sampled: int) -> str:
        built = self.tables.build_seconds
        tables = "" if built is None else f": {built:,.1f} s here"
        return (f"{TIMED_ORBITS} band-1 orbits contracted and timed in each of {sampled} "
                f"sampled unit{'s' * (sampled != 1)}, scaled to the unit's orbits; the "
                f"tables made once a machine and mapped after{tables}")

    def n_orbits(self) -> int:
        """Band-1 orbits summed."""
        return len(self.tables.orbits[0])

    def n_band1_fillings(self) -> int:
        """Band-1 fillings with row 1 fixed that keep the house inside the band: Σ mult."""
        return int(sum(int(m) for m in self.tables.orbits[1]))
