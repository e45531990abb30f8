"""Two-band shapes by layers, as units of a store: the ``layers`` reduction.

The method is :mod:`factorization.layers` (issue 36): the bands of ``C``
stacks (the ``C × 2`` boxes of a ``2C × 2C`` grid, or by transposition the
``2 × C`` ones: the same total, as :mod:`counting.reduction.patterns2`
explains) are counted for every pattern class at once, row by row.  Layer
``L`` is the set of states after ``L`` rows with their sums ``T_L``; layer
``L + 1`` is the sum, over the states of layer ``L``, of each state's
children (linear in ``T_L``), and at the last layer ``C``::

    grids = Σ_q m_q · ℓ_q · F_C(q)²,   F_C(q) = T_C(q) / m_q.

Work units
----------
The job is the transitions ``L -> L + 1`` of the layer job
(:mod:`factorization.layer_job`), cut so that its units are known before
any layer is: the states of layer ``L`` sorted by canonical form get ids
``0 .. n_L - 1`` and the transition ``L -> L + 1`` (``L = 1 .. C - 2``) is
cut into :data:`PARTS` ranges ``[k·n_L // P, (k+1)·n_L // P)``
(:func:`~factorization.layer_job.part_ranges`; some are empty when
``n_L < P``).  The last transition ``C - 1 -> C`` is one unit: the total is
not linear in the last layer's sums (``F²``), so the unit that makes the
whole last layer is the one that can square it.  Unit ids: ``(L - 1)·P + k``,
then ``(C - 2)·P`` for the last; ``class_id`` is ``L - 1`` (one "class" a
transition).

What a unit's count is, and its weight
--------------------------------------
* A unit of transition ``L -> L + 1 < C``: its count is ``Σ_y`` of its partial
  ``T_{L+1}(y)`` (the recurrence's sums over its parents, exact), and its
  weight is **0**: it is a stage whose records later units read, not a term
  of the total.
* The last unit: its count is ``Σ_q m_q · ℓ_q · F_C(q)²``, weight 1, and the
  factor is 1, so ``total = Σ weight · count`` is that count.

The records between the units
-----------------------------
A unit's partial next layer is kept in a layer store
(:class:`factorization.layer_store.LayerStore`, the layer job's, with its two
SHA-256 digests: of the whole parent layer the unit was computed from, and of
its own records), one file a machine in the cache
(``$XDG_CACHE_HOME/gridcount/layers-v1/C{C}-parts{P}.sqlite``), beside the
count's store that records which units are done.  A unit of transition
``L -> L + 1`` needs all of layer ``L``: its worker merges the records of
the units of ``L - 1 -> L`` from the layer store (each checked against the
parent layer's digest and its own), and **counts those that are missing
itself** (they are pure, so a record written twice is the same record; the
layer store refuses a different one), then keeps the merged layers for its
next units.  So the pool may hand out units in any order and on any number
of workers, a unit is never waited for, and a unit counted by another
worker at the same time is at worst counted twice and stored once.  The
units are handed out in id order (layer by layer), so that this is rare.  A
record from another parent layer (another program version's canonical form,
a damaged earlier record) or whose records do not match their digest is
never merged: it is said in one line on stderr, dropped from this machine's
layer store and counted again (the layer store is a cache, as the band
tables are; the layer job's own stores, ``scripts/run_layer_job.py``, refuse
it instead).

A count killed at any point keeps the units its store holds (the count's
store, as every reduction's) and the records its layer store holds; the
same command again counts the units the count's store lacks, which find
their own or their parents' records where they were written.

``gridcount recount`` counts a unit again from row 1 in its own process
(:func:`factorization.layers.layer_counts`, the same transition kernel),
reading no layer store.

Example
-------
>>> red = LayerReduction("2x3")
>>> red.n_units(), [u.weight for u in red.units()]
(3, [0, 0, 1])
>>> red.total({u.unit_id: red.count_directly(u).count for u in red.units()})
28200960
"""
from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from bandtables.cache import cache_root
from counting.labels import LAYER_GRIDS, LAYER_STAGE_SUMS, ClassWords, labels_of
from counting.measured import amount, rows
from counting.options import CountOptions
from counting.reduction.base import BandClass, Reduction
from counting.reduction.cost import even_work
from counting.units import Tally, WorkUnit
from dlx import ENGINE_VERSION
from factorization.layer_canon import coordinate_group
from factorization.layer_job import (MAX_JOB_C, first_layer, last_classes, merge_parts,
                                     part_ranges)
from factorization.layer_steps import next_layer
from factorization.layer_store import LayerStore, LayerStoreError, layer_digest
from factorization.layers import layer_counts
from grids.shape import as_shape

__all__ = ["LayerReduction", "LayerUnitSpec", "NAME", "PARTS", "LAYERS_VERSION",
           "layer_store_path", "forget_layers", "measured_count", "measured_growth_mib",
           "measured_transition_cpu",
           "MEASURED", "MEASURED_FORMAT"]

NAME = "layers"

#: Ranges each transition ``L -> L + 1 < C`` is cut into, by ``C``: 2x5's
#: heavy transition 3 -> 4 (16,150 parents, ``results/layers.md``) in 16 units.
PARTS = {2: 1, 3: 2, 4: 4, 5: 16}

#: The measurements of whole ``layers`` counts (``scripts/measure_layers_count.py``).
MEASURED = Path(__file__).resolve().parents[2] / "results" / "layers-count-seconds.json"
#: That file's ``"format"``: any other is foreign.
MEASURED_FORMAT = "gridcount layers count measurement"

#: What the layer method adds to the engine's version in a unit's result
#: (and, with ``-partsP``, in the store's job: unit ids are ranges of ``P`` parts).
LAYERS_VERSION = "+layers1"


@dataclass(frozen=True)
class LayerUnitSpec(WorkUnit):
    """One unit: a range of the parents of transition ``layer -> layer + 1``.

    ``unit_id = (layer - 1)·parts + part`` (the last transition: one unit),
    ``class_id = layer - 1``, ``form_id = part``, ``weight`` 0 for a stage
    whose records later units read, 1 for the last (module docstring).

    Attributes
    ----------
    layer : int
        ``L``: the unit's parents are states of layer ``L``.
    part, parts : int
        The unit's range is part ``part`` of ``parts`` of layer ``L``'s ids.
    """

    layer: int = 1
    part: int = 0
    parts: int = 1


def layer_store_path(C: int, parts: int) -> Path:
    """This machine's layer store of the ``layers`` jobs of ``C`` stacks."""
    return cache_root() / "layers-v1" / f"C{C}-parts{parts}.sqlite"


#: This process's merged layers, by (layer store, C, parts): ``[(layer, digest), ...]``
#: for layers ``1, 2, ...`` (each a pure function of ``C``, checked when merged).
_LAYERS: dict[tuple[str, int, int], list[tuple[dict, str]]] = {}


def measured_count(shape, path: Path | str | None = None) -> dict | None:
    """The row of ``path`` (default :data:`MEASURED`) measuring the ``layers``
    count of ``shape`` or of its transpose, with its ``measured_at``; None when
    there is none, its ``fresh`` figures (CPU, wall, load) are not non-negative
    numbers, its ``workers`` not a positive integer, or the
    file cannot be read or is foreign (:func:`counting.measured.rows`: read
    once a process)."""
    s = as_shape(shape)
    counts, doc = rows(MEASURED if path is None else path, MEASURED_FORMAT, "counts")
    for row in counts:
        if row.get("kind") in (s.name, s.transpose().name) and row.get("reduction") == NAME:
            fresh = row.get("fresh")
            workers = row.get("workers")
            ok = isinstance(fresh, dict) and isinstance(doc.get("measured_at"), str) \
                and type(workers) is int and workers >= 1 and None not in (
                    amount(fresh.get("cpu_seconds")), amount(fresh.get("wall_seconds")),
                    amount(fresh.get("load_average_before")))
            return {**row, "measured_at": doc["measured_at"]} if ok else None
    return None


def _breakdown(shape, key: str, path: Path | str | None):
    """The figure ``key`` of the breakdown measured for ``shape`` (or its
    transpose) in ``path``; None where there is none."""
    row = measured_count(shape, path)
    try:
        return row["breakdown"][key]
    except (TypeError, KeyError):
        return None


def measured_growth_mib(shape, path: Path | str | None = None) -> float | None:
    """MiB one process grew counting every unit of ``shape``'s job (or its
    transpose's) in id order, as measured in ``path`` (default
    :data:`MEASURED`: the script's ``breakdown``, ``units_growth_mib``); None
    where that shape is not measured, or the figure is missing or not a
    non-negative number."""
    return amount(_breakdown(shape, "units_growth_mib", path))


def measured_transition_cpu(shape, path: Path | str | None = None) -> list[float] | None:
    """CPU seconds of the units of each transition ``1 -> 2, ..., C-1 -> C``
    of ``shape``'s job, counted in id order in one process, as measured in
    ``path`` (default :data:`MEASURED`: ``units_cpu_by_transition``); None
    where not measured, or not ``C - 1`` non-negative numbers."""
    cpu = _breakdown(shape, "units_cpu_by_transition", path)
    s = as_shape(shape)
    if not isinstance(cpu, list) or len(cpu) != max(s.box_rows, s.box_cols) - 1:
        return None
    out = [amount(x) for x in cpu]
    return None if None in out else out


def forget_layers() -> None:
    """Forget the layers this process has merged: the next unit merges them
    again from the layer store (as a new process would)."""
    _LAYERS.clear()


def _unit_records(store: LayerStore, layers: list, C: int, L: int, lo: int, hi: int) -> dict:
    """The partial layer ``L + 1`` of layer ``L``'s ids ``[lo, hi)``, read from
    ``store`` or counted and written there."""
    layer, digest = layers[L - 1]
    if lo == hi:
        return {}
    try:
        part = store.get(L, lo, hi, digest)
    except LayerStoreError as e:     # stale or damaged: never merged, counted again
        print(f"{e}: dropped and counted again", file=sys.stderr, flush=True)
        store.drop(L, lo)
        part = None
    if part is not None:
        return part
    c0 = time.process_time()
    part, _ = next_layer(layer, C, parents=slice(lo, hi))
    store.put(L, lo, hi, digest, part, time.process_time() - c0)
    return part


def _layers_upto(store: LayerStore, C: int, parts: int, upto: int) -> list[tuple[dict, str]]:
    """Layers ``1 .. upto`` (``upto <= C - 1``), each merged from its units'
    records (the missing ones counted and written), sorted by form."""
    key = (str(store.path), C, parts)
    layers = _LAYERS.setdefault(key, [])
    if not layers:
        start = first_layer(C)
        layers.append((start, layer_digest(start)))
    order = coordinate_group(C).order
    while len(layers) < upto:
        L = len(layers)
        n = len(layers[L - 1][0])
        records = [_unit_records(store, layers, C, L, lo, hi)
                   for lo, hi in part_ranges(n, parts)]
        layer = dict(sorted(merge_parts(records, order).items()))
        layers.append((layer, layer_digest(layer)))
    return layers


class LayerReduction(Reduction):
    """The ``layers`` reduction of one two-band shape (``C×2`` or ``2×C``, ``C = 2..5``).

    Parameters
    ----------
    shape : Shape or str
        ``C x 2`` or ``2 x C``: the same units and total.
    """

    kind = NAME
    engine_pinned = True        # unit ids are ranges of PARTS[C] parts

    def __init__(self, shape):
        self.shape = as_shape(shape)
        if not self.applies_to(self.shape):
            raise ValueError(f"reduction {NAME!r} applies to boxes of C x 2 or 2 x C cells "
                             f"(C = 2..{MAX_JOB_C}), not {self.shape.name}")
        self.C = self.shape.box_rows if self.shape.box_cols == 2 else self.shape.box_cols
        self.parts = PARTS[self.C]

    @classmethod
    def applies_to(cls, shape) -> bool:
        """Whether ``shape`` has two bands or two stacks of ``C = 2..MAX_JOB_C``."""
        s = as_shape(shape)
        return 2 in (s.box_rows, s.box_cols) and 2 <= max(s.box_rows, s.box_cols) <= MAX_JOB_C \
            and not s.latin

    @classmethod
    def default_for(cls, shape) -> bool:
        """Never a default: chosen by ``--reduction layers``."""
        return False

    @property
    def factors(self) -> tuple[tuple[str, int], ...]:
        """None: the last unit's count is the grids (``Σ m·ℓ·F²``)."""
        return ()

    def units(self) -> list[LayerUnitSpec]:
        """The stage units, transition by transition, then the last (a new list)."""
        C, P = self.C, self.parts
        out = [LayerUnitSpec(self.shape.name, NAME, (L - 1) * P + k, L - 1, k, 0, L, k, P)
               for L in range(1, C - 1) for k in range(P)]
        last = (C - 2) * P
        out.append(LayerUnitSpec(self.shape.name, NAME, last, C - 2, 0, 1, C - 1, 0, 1))
        return out

    def n_units(self) -> int:
        return (self.C - 2) * self.parts + 1

    def classes(self) -> list[BandClass]:
        """One "class" a transition ``L -> L + 1``, its representative ``((L, L + 1),)``,
        its weight that of its units (0 for a stage, 1 for the last)."""
        return [BandClass(L - 1, ((L, L + 1),), int(L == self.C - 1))
                for L in range(1, self.C)]

    def class_label(self, class_id: int) -> str:
        return f"rows {class_id + 1} -> {class_id + 2}"

    def representative_text(self, c: BandClass) -> list[str]:
        """A transition's rows, ``L -> L + 1`` (not a row of digits: ``12``)."""
        return [f"{a} -> {b}" for a, b in c.representative]

    def class_words(self, class_id: int) -> ClassWords:
        """A transition by its rows, and the one quantity its count is: a
        stage's ``Σ T_{L+1}`` (weight 0), the last transition's grids."""
        if class_id == self.C - 2:
            return ClassWords(self.class_label(class_id), labels_of(self).total_label,
                              LAYER_GRIDS)
        return ClassWords(self.class_label(class_id), "", LAYER_STAGE_SUMS)

    def unit_columns(self, spec: LayerUnitSpec) -> dict[str, object]:
        """The per-unit CSV columns of ``gridcount export``: transition and part."""
        return {"layer": spec.layer, "part": spec.part, "parts": spec.parts}

    @property
    def engine_version(self) -> str:
        """The engine, the layer method and the parts (what the unit ids mean)."""
        return f"{ENGINE_VERSION}{LAYERS_VERSION}-parts{self.parts}"

    def foreign_engine(self, stored: str) -> str | None:
        """None for a store of this method and parts; else why its units are not these."""
        if stored == self.engine_version:
            return None
        return (f"its job's engine is {stored!r}, not {self.engine_version!r}: its unit "
                f"ids are other ranges of the layers' states")

    def engine_suffix(self) -> str:
        return LAYERS_VERSION

    def _check_spec(self, spec) -> None:
        if as_shape(spec.shape) not in (self.shape, self.shape.transpose()) \
                or spec.reduction != NAME:
            raise ValueError(f"unit {spec.unit_id} is a {spec.shape}/{spec.reduction} unit, "
                             f"not {self.shape.name}/{NAME}")
        fields = lambda u: (u.unit_id, u.layer, u.part, u.parts, u.weight)   # noqa: E731
        if not 0 <= spec.unit_id < self.n_units() or \
                fields(spec) != fields(self.units()[spec.unit_id]):
            raise ValueError(f"unit {spec.unit_id} (transition {spec.layer}, part {spec.part} "
                             f"of {spec.parts}) is not unit {spec.unit_id} of {self.shape.name} "
                             f"by {NAME}")

    def problem(self, spec) -> None:
        """None: a unit is a layer transition, counted by :meth:`count_directly`."""
        return None

    def count_directly(self, spec: LayerUnitSpec, options: CountOptions = CountOptions()
                       ) -> Tally:
        """The unit's count (module docstring), its records read from or
        written to this machine's layer store; the parent layers it needs
        merged first (their missing units counted here).  ``nodes``: the
        states of its partial next layer."""
        self._check_spec(spec)
        t0 = time.perf_counter()
        path = layer_store_path(self.C, self.parts)
        path.parent.mkdir(parents=True, exist_ok=True)
        with LayerStore.open(path, C=self.C, parts=self.parts) as store:
            layers = _layers_upto(store, self.C, self.parts, spec.layer)
            n = len(layers[spec.layer - 1][0])
            lo, hi = part_ranges(n, spec.parts)[spec.part]
            part = _unit_records(store, layers, self.C, spec.layer, lo, hi)
        count = self._unit_count(spec, part)
        return Tally(count, nodes=len(part), seconds=time.perf_counter() - t0,
                     engine_version=ENGINE_VERSION + LAYERS_VERSION)

    def _unit_count(self, spec: LayerUnitSpec, part: dict) -> int:
        """``Σ T`` of a stage's records; the grids ``Σ m·ℓ·F²`` of the last."""
        if spec.weight == 0:
            return sum(t for t, _ in part.values())
        layer = merge_parts([part], coordinate_group(self.C).order)
        return sum(c.m * c.ell * c.F * c.F for c in last_classes(layer, self.C).values())

    def count_independently(self, spec: LayerUnitSpec,
                            options: CountOptions = CountOptions()) -> int:
        """``gridcount recount``'s count: the layers again from row 1 in this
        process (:func:`factorization.layers.layer_counts`), no layer store read."""
        self._check_spec(spec)
        layer = dict(sorted(layer_counts(self.C, upto=spec.layer).last.items()))
        lo, hi = part_ranges(len(layer), spec.parts)[spec.part]
        part = next_layer(layer, self.C, parents=slice(lo, hi))[0] if lo < hi else {}
        return self._unit_count(spec, part)

    def recount_method(self) -> str:
        return ("the layers again from row 1 in one process, no layer store read "
                "(the same transition kernel)")

    def cost_model(self, bound_ok: bool = True) -> dict | None:
        """The whole job as measured from an empty layer store by
        ``scripts/measure_layers_count.py`` (``results/layers-count-seconds.json``:
        its CPU seconds spread evenly over the units), where that file has this
        shape or its transpose; else None (units are timed).  Timing a few units
        misleads here: a unit's time is mostly the parent layers it counts
        first, which the next units read (2x5: 3.5 s estimated, 66 s counted)."""
        row = measured_count(self.shape)
        if row is None:
            return None
        cpu, wall = row["fresh"]["cpu_seconds"], row["fresh"]["wall_seconds"]
        load = row["fresh"]["load_average_before"]
        return {"units": self.n_units(), "units_exact": True,
                "unit_seconds": cpu / self.n_units(), "sampled": 0,
                "method": (f"the whole job measured from an empty layer store: {cpu:,.1f} s "
                           f"CPU, {wall:,.1f} s wall on {row['workers']} workers at load "
                           f"{load:.1f} ({MEASURED.name}, {row['measured_at']})"),
                "memory": None, "countable": True, "provisional": False}

    def hand_out(self, specs) -> list:
        """In id order: a transition's units before the next's (module docstring)."""
        return sorted(specs, key=lambda s: s.unit_id)

    def work_shares(self, specs) -> dict[int, float]:
        """Each unit's share of the work (the progress bar, the stall rule):
        its transition's measured CPU seconds (:func:`measured_transition_cpu`)
        split evenly over that transition's units, the shares of ``specs``
        summing to 1; even shares where this ``C`` is not measured or its
        transitions measured at 0 s in all."""
        specs = list(specs)
        cpu = measured_transition_cpu(self.shape)
        work = {} if cpu is None else {s.unit_id: cpu[s.layer - 1] / s.parts for s in specs}
        total = math.fsum(work.values())
        if total <= 0:
            return even_work(specs)
        return {u: w / total for u, w in work.items()}

    #: What :meth:`worker_memory_mib` is, as the memory check says it; no
    #: option makes it smaller (``--memo-mb`` sizes no table here).
    worker_memory_what = "layers and a transition's table, measured"
    worker_memory_option = None

    def worker_memory_mib(self, options) -> float:
        """No memo table: a worker holds its layers and one transition's table
        beside what a loaded process holds (which the pool's check counts,
        :func:`counting.run.pool.process_mib`).  That is the growth measured
        for this ``C`` (:func:`measured_growth_mib`: one process counting
        every unit, so holding every layer); 0 where this ``C`` is not
        measured, and the check counts the process alone."""
        mib = measured_growth_mib(self.shape)
        return 0.0 if mib is None else mib

    def __repr__(self) -> str:
        return f"LayerReduction({self.shape.name!r})"

