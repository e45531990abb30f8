"""The layer method as a stored, resumable job: units are state-id ranges.

:func:`factorization.layers.layer_counts` runs the transitions
``1 -> 2 -> … -> C`` in one process and keeps nothing.  Here each
transition ``L -> L + 1`` is cut into *units*: the states of layer ``L``,
sorted by their canonical form, get ids ``0 .. n - 1``, and a unit is the
range ``[lo, hi)`` of at most ``unit_states`` ids.  A unit's result is the
partial next layer of its parents (:func:`factorization.layer_steps.next_layer`
with ``parents=slice(lo, hi)``): every ``T_{L+1}(y)`` is linear in the
parents' ``T_L``, so layer ``L + 1`` is the sum of its units' partial layers
(and only that sum is checked to have each ``T`` a multiple of its class's
labellings).  A unit is a pure function of layer ``L`` and its range, so it
is idempotent: it is stored once (:class:`factorization.layer_store.LayerStore`,
with the digest of the layer it was computed from and of its own records),
and a run that finds it stored reads it instead of counting it.

So a job killed at any point (between units, or while a unit is written:
its transaction is rolled back) resumes from its store to the same totals,
counting only the units that are missing.  The layers themselves are not
stored: each is the sum of its units, re-read on resumption (for ``C = 5``
about 16,000 states at most; the 2x6 layers would need a partitioned store,
which is not built: ``docs/layer-job.md``).

Example
-------
>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "2x3.sqlite")
>>> r = run_layer_job(3, path, unit_states=2)
>>> r.total, r.units, r.computed
(28200960, 4, 4)
>>> r = run_layer_job(3, path, unit_states=2)
>>> r.total, r.computed, r.reused
(28200960, 0, 4)
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable

from factorization.layer_canon import coordinate_group
from factorization.layer_steps import next_layer
from factorization.layer_store import LayerStore, layer_digest
from factorization.layers import MAX_LAYER_C, LayerClass

__all__ = ["LayerJobResult", "run_layer_job", "layer_units", "part_ranges", "merge_parts",
           "last_classes", "first_layer", "UNIT_STATES", "MAX_JOB_C"]

UNIT_STATES = 1_000     # parents a unit, by default (2x5's layer 3: 17 units)

#: Most stacks a stored job counts (2x6's middle layers need a partitioned store).
MAX_JOB_C = MAX_LAYER_C - 1


@dataclass(frozen=True)
class LayerJobResult:
    """What :func:`run_layer_job` did and found.

    Attributes
    ----------
    C : int
    sizes : tuple of int
        States of each layer ``1..C``.
    classes : dict
        ``form -> LayerClass`` of the complete bands' patterns.
    units, computed, reused : int
        Units of the job, counted by this run, read from the store.
    cpu_seconds : float
        CPU seconds of this run's units.
    """

    C: int
    sizes: tuple[int, ...]
    classes: dict
    units: int
    computed: int
    reused: int
    cpu_seconds: float

    @property
    def total(self) -> int:
        """Grids: ``Σ m·ℓ·F²``."""
        return sum(c.m * c.ell * c.F * c.F for c in self.classes.values())


def layer_units(n: int, unit_states: int) -> list[tuple[int, int]]:
    """The ranges ``[lo, hi)`` of ``n`` state ids, ``unit_states`` at most each."""
    return [(lo, min(lo + unit_states, n)) for lo in range(0, n, unit_states)]


def part_ranges(n: int, parts: int) -> list[tuple[int, int]]:
    """The ``parts`` ranges ``[k·n // parts, (k+1)·n // parts)`` of ``n``
    state ids (empty ones included: range ``k`` is part ``k`` whatever ``n``).

    >>> part_ranges(5, 3), part_ranges(1, 3)
    ([(0, 1), (1, 3), (3, 5)], [(0, 0), (0, 0), (0, 1)])
    """
    return [(k * n // parts, (k + 1) * n // parts) for k in range(parts)]


def first_layer(C: int) -> dict:
    """Layer 1: the single state of row 1 (each digit in its own column)."""
    return {tuple(1 << j for j in range(2 * C)): (1, coordinate_group(C).order)}


def merge_parts(parts: list[dict], order: int) -> dict:
    """The next layer: the units' partial ``T`` summed, each checked to be a
    multiple of its class's labellings (``|G| / stabiliser``)."""
    out: dict = {}
    for part in parts:
        for form, (t, st) in part.items():
            old = out.get(form)
            if old is not None and old[1] != st:
                raise ArithmeticError(f"layer state {form}: stabiliser orders {old[1]} and {st}")
            out[form] = ((0 if old is None else old[0]) + t, st)
    for form, (t, st) in out.items():
        if t % (order // st):
            raise ArithmeticError(f"layer state {form}: T = {t} is not a multiple of its "
                                  f"{order // st} labellings")
    return out


def run_layer_job(C: int, path, *, unit_states: int = UNIT_STATES, threads: int = 1,
                  on_unit: Callable[[int, int, int], None] | None = None,
                  before_commit: Callable[[], None] | None = None) -> LayerJobResult:
    """Count the bands of ``C`` stacks by layers as a job stored at ``path``.

    Parameters
    ----------
    C : int
        Stacks: ``2 .. 5`` (2x6's middle layers are too large for one store).
    path : str or Path
        The job's store (:class:`~factorization.layer_store.LayerStore`),
        created if absent; a store of another ``C`` or ``unit_states`` is refused.
    unit_states : int
        Parents a unit.
    threads : int
        Threads of a unit's compiled transition.
    on_unit : callable, optional
        ``on_unit(L, lo, hi)`` after each unit this run counts is committed.
    before_commit : callable, optional
        Called inside each unit's write transaction (the tests' stand-in for
        a process killed while it writes).

    Returns
    -------
    LayerJobResult
    """
    if isinstance(C, bool) or not isinstance(C, int) or not 2 <= C <= MAX_JOB_C:
        raise ValueError(f"stacks must be an integer in 2..{MAX_JOB_C}, got {C!r}")
    if isinstance(unit_states, bool) or not isinstance(unit_states, int) or unit_states < 1:
        raise ValueError(f"unit_states must be a positive integer, got {unit_states!r}")
    order = coordinate_group(C).order
    layer = first_layer(C)
    sizes, units, computed, reused, cpu = [1], 0, 0, 0, 0.0
    with LayerStore.open(path, C=C, unit_states=unit_states) as store:
        for L in range(1, C):
            layer = dict(sorted(layer.items()))     # ids: the states in form order
            digest = layer_digest(layer)
            parts = []
            for lo, hi in layer_units(len(layer), unit_states):
                units += 1
                part = store.get(L, lo, hi, digest)
                if part is not None:
                    reused += 1
                else:
                    c0 = time.process_time()
                    part, _ = next_layer(layer, C, threads=threads, parents=slice(lo, hi))
                    spent = time.process_time() - c0
                    store.put(L, lo, hi, digest, part, spent, before_commit)
                    computed, cpu = computed + 1, cpu + spent
                    if on_unit is not None:
                        on_unit(L, lo, hi)
                parts.append(part)
            layer = merge_parts(parts, order)
            sizes.append(len(layer))
    return LayerJobResult(C, tuple(sizes), last_classes(layer, C), units, computed, reused,
                          cpu)


def last_classes(layer: dict, C: int) -> dict:
    """``form -> LayerClass`` of the last layer ``{form: (T, stabiliser)}``
    (every ``T`` a multiple of its ``m``, as :func:`merge_parts` checks)."""
    order = coordinate_group(C).order
    n_labels = math.factorial(2 * C)
    classes = {}
    for form, (t, st) in layer.items():
        m = order // st
        mult = math.prod(math.factorial(form.count(v)) for v in set(form))
        classes[form] = LayerClass(form, m, n_labels // mult, t // m)
    return classes
