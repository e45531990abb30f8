"""What a store's report says: the job, its classes, its units and workers.

:func:`build_report` reads a store and lays out a :class:`Report`: tables as
rows of strings and the charts (:mod:`counting.report.charts`); the pages
(:mod:`counting.report.pages`) only format it.  Everything shown is read
from the store and recomputed from it; nothing is typed in.

A unit that no worker counted here (a symmetry job's identity, which is the
grid count / N! taken from the grid count's store) is said in the job table
with its source, and left out of the worker table, the throughput chart and
the wall time.
"""
from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timezone

from counting import published
from counting.group.group_note import note_for
from counting.job import Job, summarise
from counting.labels import labels_of
from counting.report.charts import Figure, figures, pyplot
from counting.report.spans import busy_clock, busy_seconds, finished_at, unit_spans
from counting.store.database import Store
from counting.units import UnitResult
from grids.kind import as_kind

__all__ = ["Report", "build_report", "busy_seconds", "SLOWEST"]

SLOWEST = 10  # units listed in the "slowest units" table


@dataclass
class Report:
    """Everything the page shows: tables as rows of strings, charts as figures.

    ``class_sum`` is the table's Σ row (None until every unit is in);
    a store with no finished unit has no class, slowest or worker rows.
    """

    title: str
    class_title: str
    job_rows: list[tuple[str, str]]
    class_rows: list[tuple[str, ...]]
    class_header: tuple[str, ...]
    slow_rows: list[tuple[str, ...]]
    slow_header: tuple[str, ...]
    worker_rows: list[tuple[str, ...]]
    worker_header: tuple[str, ...]
    figures: list[Figure] = field(default_factory=list)
    class_note: str = ""   # what the class table leaves out
    class_sum: tuple[str, ...] | None = None
    empty: bool = False


def _n(x: int | None) -> str:
    return "—" if x is None else f"{x:,}"


def _s(seconds: float) -> str:
    if 0 < seconds < 0.001:   # not "0.000 s"
        return f"{seconds * 1000:.3f} ms"
    return f"{seconds:,.3f} s" if seconds < 100 else f"{seconds:,.1f} s"


def _duration(seconds: float) -> str:
    """``"42.0 s"``, ``"12 min 5 s"``, ``"3 h 02 min"``."""
    if seconds < 60:
        return f"{seconds:,.1f} s"
    m, s = divmod(round(seconds), 60)
    if m < 60:
        return f"{m} min {s} s"
    h, m = divmod(m, 60)
    return f"{h:,} h {m:02d} min"


def _worker(r: UnitResult) -> str:
    """The worker that ran a unit: its id when the store records one, else its host."""
    w = getattr(r, "worker", None)
    return f"{r.host}/{w}" if w not in (None, "") else r.host


def _date(t: datetime) -> str:
    return t.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def build_report(store: Store) -> Report:
    """Read ``store`` and lay out its report (raises
    :class:`~counting.report.charts.ReportUnavailable` without matplotlib)."""
    job = Job.for_store(store)      # the store is checked before matplotlib is asked for
    s = summarise(store, job)
    results = sorted(store.results(), key=lambda r: r.unit_id)
    weight = {c.class_id: c.weight for c in job.classes}
    red = job.reduction_object
    # a unit not counted by this job's workers (a symmetry job's identity, taken from the
    # grid store) names why; a reduction that can recount none of its units (9x9 kind
    # tables, 4x3 band tables) counted them all here, and says so once
    refused = red.recount_refused()
    elsewhere = {r.unit_id: None if refused else red.not_recountable(job.units[r.unit_id])
                 for r in results}
    here = [r for r in results if elsewhere[r.unit_id] is None]

    by_worker: dict[str, list[UnitResult]] = defaultdict(list)
    for r in here:
        by_worker[_worker(r)].append(r)
    timed = [(t, _worker(r), r.host) for r in here if (t := finished_at(r)) is not None]
    spans = unit_spans(here)      # when the units counted here ran
    job_rows = _job_rows(job, s, results, spans, by_worker, timed) + [
        (f"unit {r.unit_id} (not counted here)", f"from {r.worker}: {elsewhere[r.unit_id]}")
        for r in results if elsewhere[r.unit_id] is not None] + (
        [("recount", f"none: {refused}")] if refused else [])
    # another kernel's units: this gridcount's weights are of other units, so no term
    class_header, class_rows, not_started = _class_rows(job, results, weight,
                                                        weighed=s.total_refused is None)
    described = class_header[-1] == "elements"
    class_sum = None
    if s.weighted_sum is not None and class_rows:
        class_sum = ("Σ", "", "", "", f"{s.weighted_sum:,}",
                     _s(sum(r.seconds for r in results)), *(("",) if described else ()))

    slow = sorted(here, key=lambda r: (-r.seconds, r.unit_id))[:SLOWEST]
    slow_header = ("unit", "class", "count", "seconds", "search nodes", "memo hits", "worker")
    slow_rows = [(str(r.unit_id), str(r.class_id), f"{r.count:,}", _s(r.seconds),
                  *((f"{r.nodes:,}", f"{r.memo_hits:,}") if r.searched else ("—", "—")),
                  _worker(r)) for r in slow]

    # a unit's seconds are the wall time of its count (the store keeps no CPU time);
    # solutions per second measure a search: a kernel's units (counted, not
    # searched: 10^30 "solutions" a second for Latin squares of order 10) have none
    worker_header = ("worker", "units", "time in units (wall)", "median unit",
                     "unit solutions / s in searched units")
    worker_rows = []
    for w in sorted(by_worker):
        rs = by_worker[w]
        in_units = sum(r.seconds for r in rs)
        rate = UnitResult.search_rate(rs)
        worker_rows.append((w, f"{len(rs):,}", _s(in_units), _s(statistics.median(r.seconds for r in rs)),
                            "—" if rate is None else f"{rate:,.0f} sol/s"))

    rep = Report(
        title=f"gridcount report: {job.shape}, reduction {job.reduction}",
        class_title=labels_of(red).class_table_title,
        job_rows=job_rows, class_rows=class_rows, class_header=class_header,
        slow_rows=slow_rows, slow_header=slow_header,
        worker_rows=worker_rows, worker_header=worker_header, class_sum=class_sum,
        empty=not results,
        class_note=f"{not_started:,} of {len(job.units_of_class):,} classes not started yet "
                   f"(not listed)" if not_started and results else "")
    if results:
        rep.figures = figures(pyplot(), job, results, weight if s.total_refused is None else None,
                              by_worker, timed, busy_clock(spans))
    return rep


def _job_rows(job: Job, s, results, spans, by_worker, timed) -> list[tuple[str, str]]:
    """The job table: what is counted, how far, the total, and when, where and how long."""
    red = job.reduction_object
    # the group whose published values count the job's orbits (a full group's may be today's)
    under = getattr(red, "published_group", getattr(red, "group_name", None))
    pub = published.lookup(job.shape, up_to_symmetry=red.counts_orbits, group=under)
    if s.total_refused is not None:    # complete or not: no total of this store here
        total_text = f"not computed here: {s.total_refused}"
    elif s.complete:
        total_text = _n(s.total)
    else:
        total_text = f"not yet: {job.n_units - s.done:,} of {job.n_units:,} units remain"
    if pub is None:
        match = "no published value"
    elif s.total_refused is not None:
        match = f"published {pub.total:,} ({pub.source}); no total here to compare"
    elif not s.complete:
        match = f"published {pub.total:,} ({pub.source}); the comparison needs every unit"
    else:
        match = ("matches" if s.total == pub.total else "DOES NOT MATCH") + \
            f" the published {pub.total:,} ({pub.source})"
    engines = sorted({r.engine_version for r in results}) or [s.engine_version]
    rows = [
        ("shape", f"{job.shape} ({as_kind(job.shape).side} grids)"),
        ("reduction", job.reduction),
        *[(label, f"{value:,}") for label, value in s.factors],
        *([(s.sum_label, f"{s.weighted_sum:,}")] if s.weighted_sum is not None else []),
        *[(f"÷ {label}", f"{value:,}") for label, value in s.divisors],
        *(group.rows() if (group := note_for(red)) else []),
        ("classes", f"{s.n_classes:,} ({s.classes_complete:,} complete)"),
        ("units done", f"{s.done:,} of {job.n_units:,}"),
        ("units remaining", f"{job.n_units - s.done:,}"),
        (s.total_label, total_text),
        ("published", match),
        ("engine versions", ", ".join(engines)),
        *([("units listing", s.foreign_note)] if s.foreign_note else []),
    ]
    if not results:
        return rows
    per_host: dict[str, set] = defaultdict(set)
    units_on: dict[str, int] = defaultdict(int)
    for w, rs in by_worker.items():
        for r in rs:
            per_host[r.host].add(w)
            units_on[r.host] += 1
    rows.append(("machines", "; ".join(
        f"{h} ({units_on[h]:,} unit{'s' * (units_on[h] != 1)}, {len(per_host[h]):,} "
        f"worker{'s' * (len(per_host[h]) != 1)})" for h in sorted(per_host)) or "—"))
    if timed:
        when = [t for t, _, _ in timed]
        rows += [("first unit finished", _date(min(when))),
                 ("last unit finished", _date(max(when))),
                 ("wall time", f"about {_duration(busy_seconds(spans))} (while a unit was "
                               f"counting, to the second; pauses between runs left out)")]
    rows.append(("time in units", f"{_s(s.unit_wall_seconds)} (wall, summed over units)"))
    searched = [r for r in results if r.searched]
    if searched:
        rows += [("search nodes", f"{sum(r.nodes for r in searched):,}"),
                 ("memo hits", f"{sum(r.memo_hits for r in searched):,}")]
    if len(searched) < len(results):
        kernels = sorted({r.engine_version for r in results if not r.searched})
        rows.append(("units counted by a kernel (no search)",
                     f"{len(results) - len(searched):,} ({', '.join(kernels)}: no search "
                     f"nodes or memo hits)"))
    return rows


def _class_rows(job: Job, results, weight, weighed: bool = True):
    """The class table's header, its rows (classes with a unit counted) and
    how many classes are not started; with ``weighed`` False (a store whose
    units are another kernel's), no weight and no term: this gridcount's
    weights are of other units."""
    red = job.reduction_object
    labels = labels_of(red)
    by_class: dict[int, list[UnitResult]] = defaultdict(list)
    for r in results:
        by_class[r.class_id].append(r)
    described_as = {cid: red.class_label(cid) for cid in job.units_of_class}
    described = any(described_as.values())
    header = ("class", labels.weight_label, "units done", labels.class_count_label,
              labels.term_label, "seconds", *(("elements",) if described else ()))
    rows, not_started = [], 0
    for cid in sorted(job.units_of_class):
        done = by_class.get(cid, [])
        if not done:   # a class with no unit counted yet has nothing to show
            not_started += 1
            continue
        members = job.units_of_class[cid]
        complete = len(done) == len(members)
        rows.append((str(cid), f"{weight[cid]:,}" if weighed else "—",
                     f"{len(done):,} / {len(members):,}",
                     f"{sum(r.count for r in done):,}" + ("" if complete else " (partial)"),
                     f"{sum(red.term(weight[cid], r.count) for r in done):,}"
                     if complete and weighed else "—",
                     _s(sum(r.seconds for r in done)),
                     *((described_as[cid] or "",) if described else ())))
    return header, rows, not_started
