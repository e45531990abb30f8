"""Recounting a sample of a store's finished units by an independent method
(``gridcount recount``): the check of a count that no checksum can make, since a
row forged with its checksum recomputed reads as a true one.

Example
-------
>>> import tempfile
>>> from pathlib import Path
>>> from counting.job import Job, run_count
>>> job = Job.load("2x2")
>>> with Store.create_or_open(Path(tempfile.mkdtemp()) / "s.sqlite", job.info()) as store:
...     run_count(job, store, progress=False, log=lambda msg: None) and None
...     recount(store, 1, seed=0).mismatches
[]
"""
from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field

from counting.job import Job
from counting.options import CountOptions
from counting.reduction import get_reduction
from counting.run.counter import count_unit
from counting.store.database import Store

__all__ = ["recount", "RecountReport", "RecountRefused"]


class RecountRefused(ValueError):
    """A recount that cannot be made: a sample of no unit, a store with no
    finished unit, or none that can be counted again independently."""


@dataclass
class RecountReport:
    checked: list[tuple[int, int, int]]   # (unit id, stored, recounted)
    not_recounted: dict[int, str] = field(default_factory=dict)  # unit id -> why
    method: str = ""                      # how the units were recounted, in words

    @property
    def mismatches(self) -> list[tuple[int, int, int]]:
        return [t for t in self.checked if t[1] != t[2]]


def recount(store: Store, sample: int, *, seed: int | None = None,
            options: CountOptions = CountOptions(), job: Job | None = None) -> RecountReport:
    """Recount ``sample`` finished units chosen at random, each by its
    reduction's independent method where it has one
    (:meth:`~counting.reduction.base.Reduction.count_independently`: band
    tables' units without the tables), else searched with an empty memo
    table, so no cached state from the first count is reused.

    ``options`` chooses the search (``CountOptions(memo=False)``: plain
    dancing links, independent of the memo and the tail).
    :class:`RecountRefused` when no finished unit can be recounted, naming
    why (before the units are enumerated where the reduction knows it:
    4x3's would load its band tables; a store whose unit ids this gridcount
    reads as other units, :meth:`~counting.reduction.base.Reduction.foreign_engine`)."""
    if sample < 1:
        raise RecountRefused("--sample must be >= 1")
    stored = {r.unit_id: r.count for r in store.results()}  # read (and checked) at once
    if not stored:
        raise RecountRefused("the store holds no finished unit to recount")
    red = get_reduction(store.job.shape, store.job.reduction)
    refused = red.recount_refused()     # before the units are enumerated (4x3's load its tables)
    if refused is None:                 # unit ids that mean other units here
        refused = red.foreign_engine(store.job.engine_version)
    if refused is None:
        job = job or Job.for_store(store)
        why = {u: red.not_recountable(job.units[u]) for u in stored}
        done = sorted(u for u, w in why.items() if w is None)
        refused = None if done else min(why.values())
    if refused is not None:
        raise RecountRefused(f"no finished unit of this store can be recounted: {refused}")
    rng = random.Random(seed)
    chosen = sorted(rng.sample(done, min(sample, len(done))))
    checked = []
    for u in chosen:
        again = red.count_independently(job.units[u], options)
        if again is None:   # searched: an independent count even of units a kernel counted
            again = count_unit(job.units[u], dataclasses.replace(options, kernel="search"),
                               fresh_memo=True).count
        checked.append((u, stored[u], again))
    return RecountReport(checked, {u: w for u, w in why.items() if w is not None},
                         red.recount_method())
