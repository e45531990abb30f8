"""The measured cost of a whole job by layers, from sampled states.

The layer method (:mod:`factorization.layers`) for ``C`` stacks runs the
transitions ``1 -> 2 -> … -> C``.  For ``C = 6`` the middle layers hold
millions to a billion states, so the job is estimated, not run: layers
``1 .. E = C - 4`` are computed, and the three layers after are sampled
(:mod:`factorization.layer_sample` proves the weights unbiased):

* a layer ``E + 1`` state ``y`` is drawn by a uniform parent and a uniform
  labelled row, with probability ``p(y)``; its own transition is run and
  timed (:func:`factorization.layer_steps.children_of`);
* ``k`` of ``y``'s children ``z`` (layer ``E + 2``) are drawn uniformly,
  each weighted by ``1 / np(z)`` (its parent classes), and timed;
* ``k`` of each ``z``'s children ``w`` (layer ``E + 3``) likewise.

Each sample ``y`` gives one unbiased term for every sum over those layers
(states, rows, distinct children, CPU seconds); the estimate is their mean
and its standard error their standard deviation over ``√n``.  The stage
``E -> E + 1`` (a sum over the computed layer ``E``) is timed on ``parents``
uniformly drawn parents, or, with ``parents=0``, approximated from their
rows (``R(x)`` over their stabiliser) times the next stage's CPU a row.
The last transition, into the ``C``-row classes, is a sum over layer
``C - 1`` (``w``'s layer for ``C = 5``; for ``C = 6`` each layer-5 state has
a handful of rows and the last stage is the ``w`` units' sum).

Memory is the table of a stage's children (a power-of-two number of slots
at least twice the states, :attr:`LayerTable.slot_bytes` each), on one
machine or split by key over ``P`` workers; disk is a layer's records
(:data:`record_bytes`: masks of 16 bits, ``T`` of 128 bits, the stabiliser
order of 64) and what a partitioned stage would send between workers (one
record for each distinct child of each parent, an upper bound).

Example
-------
>>> e = estimate_layers(5, samples=2, children=1, parents=0, seed=3)
>>> [s.step for s in e.stages]
[1, 2, 3, 4]
"""
from __future__ import annotations

import math
import random
import statistics
import time
from dataclasses import dataclass, field

from factorization.layer_sample import (multiplicity_factorial, parent_classes, random_child,
                                        row_count)
from factorization.layer_steps import children_of, slot_bytes
from factorization.layers import layer_counts

__all__ = ["Figure", "StageCost", "UnitSample", "LayersEstimate", "estimate_layers",
           "record_bytes", "table_bytes", "SAMPLED_LAYERS"]

SAMPLED_LAYERS = 3      # layers after the computed ones, sampled (y, z, w)
_GIB = 2 ** 30


def record_bytes(C: int) -> int:
    """Bytes of one state on disk: ``2C`` masks of 16 bits, ``T`` (128
    bits), the stabiliser order (64 bits)."""
    return 2 * 2 * C + 16 + 8


def table_bytes(states: float, slot_bytes: int, workers: int = 1) -> int:
    """Bytes of a table of ``states`` split over ``workers`` by key: slots
    a power of two at least twice the states of a share."""
    share = max(1, math.ceil(states / workers))
    return (1 << math.ceil(math.log2(2 * share))) * slot_bytes


@dataclass(frozen=True)
class Figure:
    """An estimated sum: its value and standard error (0 when computed)."""

    value: float
    stderr: float = 0.0

    @classmethod
    def of(cls, terms: list[float]) -> "Figure":
        """The mean of unbiased terms, with the standard error of the mean."""
        mean = statistics.fmean(terms)
        se = statistics.stdev(terms) / math.sqrt(len(terms)) if len(terms) > 1 else math.inf
        return cls(mean, se)

    def text(self, unit: str = "", scale: float = 1.0) -> str:
        v, se = self.value / scale, self.stderr / scale
        body = f"{v:,.0f}" if v >= 100 or (not se and v == int(v)) else f"{v:,.2f}"
        if se:
            body += f" ± {se:,.0f}" if se >= 100 else f" ± {se:,.2f}"
        return f"{body}{' ' + unit if unit else ''}"


@dataclass(frozen=True)
class UnitSample:
    """One timed state: its transition's figures (a layer-``layer`` unit)."""

    layer: int
    form: tuple[int, ...]
    stab: int
    rows: int
    children: int
    cpu: float
    weight: float   # its term's factor: states of the layer this unit stands for


@dataclass(frozen=True)
class StageCost:
    """The transition ``step -> step + 1`` over its whole layer."""

    step: int
    parents: Figure
    rows: Figure
    children: Figure      # Σ over parents of their distinct children
    cpu: Figure           # seconds
    how: str              # "computed", "sampled: …" or "approximated: …"


@dataclass
class LayersEstimate:
    """The result of :func:`estimate_layers`."""

    C: int
    stages: list[StageCost]
    units: list[UnitSample] = field(default_factory=list)
    samples: int = 0
    slot_bytes: int = 0
    seconds: float = 0.0          # wall time of the estimate itself
    memory_limit: int = 20 * _GIB

    @property
    def core_hours(self) -> Figure:
        value = sum(s.cpu.value for s in self.stages) / 3600
        se = math.sqrt(sum(s.cpu.stderr ** 2 for s in self.stages)) / 3600
        return Figure(value, se)

    def layer_size(self, L: int) -> Figure:
        """States of layer ``L`` (the parents of stage ``L``)."""
        return next(s.parents for s in self.stages if s.step == L)

    def largest_stage(self) -> StageCost:
        return max(self.stages, key=lambda s: s.cpu.value)

    def largest_table(self) -> tuple[int, float]:
        """``(layer, states)`` of the largest layer a stage builds."""
        sizes = [(s.step + 1, n.parents.value) for s, n in zip(self.stages, self.stages[1:])]
        return max(sizes, key=lambda t: t[1])

    def table_gib(self, workers: int = 1) -> float:
        return table_bytes(self.largest_table()[1], self.slot_bytes, workers) / _GIB

    def workers_for_memory(self) -> int:
        """Fewest workers sharing the largest table by key within the limit."""
        P = 1
        while table_bytes(self.largest_table()[1], self.slot_bytes, P) > self.memory_limit:
            P *= 2
        return P

    def disk_gib(self) -> tuple[float, float]:
        """``(largest layer on disk, records a partitioned stage sends at most)``, GiB."""
        largest = max(s.parents.value for s in self.stages) * record_bytes(self.C)
        sent = max(s.children.value for s in self.stages if not math.isnan(s.children.value))
        sent *= record_bytes(self.C)
        return largest / _GIB, sent / _GIB

    def describe(self) -> str:
        """One paragraph: core-hours, workers for a day, memory, disk."""
        ch = self.core_hours
        big = self.largest_stage()
        layer, states = self.largest_table()
        P = self.workers_for_memory()
        disk, sent = self.disk_gib()
        return (f"by layers (issue 36; not runnable yet): {ch.text('core-hours')} (± one "
                f"standard error; measured on {self.samples:,} sampled "
                f"layer-{self.C - SAMPLED_LAYERS} states), {math.ceil(ch.value / 24):,} "
                f"workers for a day; stage "
                f"{big.step} -> {big.step + 1} dominates ({big.cpu.value / 3600:,.0f} "
                f"core-hours); the largest layer, {layer}, about {states:,.0f} states: one "
                f"table {self.table_gib():,.1f} GiB, or {self.table_gib(P):,.1f} GiB a worker "
                f"split by key over {P:,} workers; disk {disk:,.1f} GiB for that layer, up to "
                f"{sent:,.0f} GiB sent between workers by the largest stage")


def _draw(seq_len: int, k: int, rng: random.Random) -> list[int]:
    return list(range(seq_len)) if seq_len <= k else rng.sample(range(seq_len), k)


def estimate_layers(C: int, *, samples: int = 8, children: int = 2, parents: int = 0,
                    seed: int = 1, on_unit=None, memory_limit: int = 20 * _GIB
                    ) -> LayersEstimate:
    """Estimate every stage of the layer method for ``C`` stacks (5 or 6).

    Parameters
    ----------
    samples : int
        States of layer ``C - 3`` drawn (each a term of every estimate).
    children : int
        Children drawn of each sampled state, and of each of those.
    parents : int
        Parents of the computed layer ``C - 4`` timed for its stage (0:
        that stage is approximated from rows, see the module docstring).
    on_unit : callable, optional
        Called with each :class:`UnitSample` as it is timed.
    """
    if C not in (5, 6):
        raise ValueError(f"the sampled estimate is for 5 or 6 stacks, got {C!r}")
    if samples < 2 or children < 1 or parents < 0:
        raise ValueError("need samples >= 2, children >= 1, parents >= 0")
    t0 = time.perf_counter()
    rng = random.Random(seed)
    E = C - SAMPLED_LAYERS - 1
    done = layer_counts(C, upto=E)
    layer = done.last
    forms = list(layer)
    units: list[UnitSample] = []

    # terms[level][quantity]: one unbiased term per sample y
    keys = ("states", "rows", "children", "cpu")

    def unit(L, form, stab, weight, acc):
        """Expand one sampled state of layer ``L``, record it, and add its
        weighted figures to ``acc`` (the sample's sums, by level past ``E``)."""
        kids, stabs, st = children_of(form, stab, C)
        u = UnitSample(L, tuple(form), int(stab), st.rows, st.children, st.cpu, weight)
        units.append(u)
        if on_unit is not None:
            on_unit(u)
        for k, v in zip(keys, (1, u.rows, u.children, u.cpu)):
            acc[L - E - 1][k] += weight * v
        return kids, stabs
    terms = {lv: {k: [] for k in keys} for lv in range(3)}
    drawn_x = []
    for _ in range(samples):
        s = random_child(layer, C, rng, forms)
        drawn_x.append(s.parent)
        wy = 1 / float(s.probability)
        acc = [{k: 0.0 for k in keys} for _ in range(3)]
        kids, stabs = unit(E + 1, s.form, s.stab, wy, acc)
        zs = _draw(len(kids), children, rng)
        for j in zs:
            z = tuple(kids[j].tolist())
            wz = wy * len(kids) / len(zs) / len(parent_classes(z, C))
            kz, sz = unit(E + 2, z, int(stabs[j]), wz, acc)
            ws = _draw(len(kz), children, rng)
            for i in ws:
                w = tuple(kz[i].tolist())
                ww = wz * len(kz) / len(ws) / len(parent_classes(w, C))
                unit(E + 3, w, int(sz[i]), ww, acc)
        for lv in range(3):
            for k in keys:
                terms[lv][k].append(acc[lv][k])

    stages = [StageCost(L, Figure(done.sizes[L - 1]), Figure(done.rows[L - 1]),
                        Figure(done.sizes[L]), Figure(done.cpu[L - 1]), "computed")
              for L in range(1, E)]
    sampled = [StageCost(E + 1 + lv, Figure.of(terms[lv]["states"]), Figure.of(terms[lv]["rows"]),
                         Figure.of(terms[lv]["children"]), Figure.of(terms[lv]["cpu"]),
                         f"sampled: {len(terms[lv]['cpu']):,} terms")
               for lv in range(3)]
    stages.append(_stage_after_computed(E, layer, forms, C, parents, rng, drawn_x, sampled[0],
                                        units, on_unit))
    stages += sampled
    return LayersEstimate(C, stages, units, samples, slot_bytes(C),
                          time.perf_counter() - t0, memory_limit)


def _stage_after_computed(E, layer, forms, C, parents, rng, drawn_x, after, units, on_unit
                          ) -> StageCost:
    """Stage ``E -> E + 1``: timed on ``parents`` uniform parents, or
    approximated from the drawn parents' rows and the next stage's CPU a row."""
    N = len(forms)
    if parents:
        picked = _draw(N, parents, rng)
        got = []
        for i in picked:
            kids, _, st = children_of(forms[i], layer[forms[i]][1], C)
            u = UnitSample(E, forms[i], layer[forms[i]][1], st.rows, st.children, st.cpu,
                           N / len(picked))
            units.append(u)
            if on_unit is not None:
                on_unit(u)
            got.append(u)
        if len(got) == N:     # every parent: the sums themselves
            f = (lambda g: Figure(sum(g(u) for u in got)))
        else:
            f = (lambda g: Figure.of([N * g(u) for u in got]))
        return StageCost(E, Figure(N), f(lambda u: u.rows), f(lambda u: u.children),
                         f(lambda u: u.cpu), f"sampled: {len(got):,} of {N:,} parents")
    per_row = after.cpu.value / after.rows.value
    rows = Figure.of([N * row_count(x, C) / (layer[x][1] * multiplicity_factorial(x))
                      for x in drawn_x])
    return StageCost(E, Figure(N), rows, Figure(math.nan),
                     Figure(rows.value * per_row, rows.stderr * per_row),
                     "approximated: rows (R over the stabiliser and multiplicities) × the "
                     "next stage's CPU a row")
