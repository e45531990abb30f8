"""A counting job: the reduction's units, a store, and what can be said of them.

Library functions behind every ``gridcount`` command (the CLI only parses
arguments and formats): run the missing units into a store, summarise a
store, export it, recount a sample, merge stores.

Example
-------
>>> job = Job.load("3x3", "71")
>>> job.n_units, len(job.classes)
(710, 71)
"""
from __future__ import annotations

import csv
import io
import json
import os
import platform
import random
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Callable, Iterable

from counting import pool, reducer
from counting.options import CountOptions
from counting.store import JobInfo, Store
from counting.unit_count import count_unit
from counting.units import UnitResult, UnitSpec
from dlx import ENGINE_VERSION

__all__ = ["Job", "default_db_path", "default_export_stem", "default_export_paths", "run_count",
           "RunReport", "summarise", "Summary", "export", "recount", "RecountReport", "merge",
           "parse_unit_list", "format_unit_list", "describe_machine"]


def default_db_path(shape: str, reduction: str) -> Path:
    """Where ``gridcount count`` keeps a job's store by default."""
    return Path("results") / f"{shape}-r{reduction}.sqlite"


def default_export_stem(job: "Job") -> str:
    """File stem of ``gridcount export``'s default outputs: the shape for
    the shape's default reduction (``results/2x4-units.csv``), else
    ``SHAPE-rREDUCTION``."""
    if job.reduction == reducer.default_reduction(job.shape):
        return job.shape
    return f"{job.shape}-r{job.reduction}"


def default_export_paths(job: "Job") -> tuple[Path, Path]:
    """``gridcount export``'s default outputs: the per-unit CSV and the JSON
    summary under ``results/`` (:func:`default_export_stem`)."""
    stem = default_export_stem(job)
    return Path("results") / f"{stem}-units.csv", Path("results") / f"{stem}.json"


@dataclass(frozen=True)
class Job:
    """The reduction of one shape: its classes, units and factors."""

    shape: str
    reduction: str

    @classmethod
    def load(cls, shape: str, reduction: str | None = None, force: bool = False) -> "Job":
        """The job of box shape ``shape`` (``"RxC"``) under ``reduction``.

        The shape is checked (``N <= 16`` unless ``force``) and spelled
        ``"RxC"``; the reduction defaults to the shape's default and is
        stored under its stable name (:func:`reducer.reduction_name`:
        ``"71"``/``"44"`` for 3x3, ``"moves"``/``"patterns"`` otherwise).
        Raises ``ValueError`` with a one-line message on bad input.
        """
        name = reducer.check_shape(shape, force=force).name
        job = cls(name, reducer.reduction_name(None if reduction is None else str(reduction), name))
        job.units  # computes (and validates) the reduction now
        return job

    @classmethod
    def for_store(cls, store: Store) -> "Job":
        return cls.load(store.job.shape, store.job.reduction, force=True)

    @cached_property
    def units(self) -> list[UnitSpec]:
        return reducer.units(self.reduction, self.shape)

    @cached_property
    def classes(self) -> list[reducer.BandClass]:
        return reducer.classes(self.reduction, shape=self.shape)

    @cached_property
    def factorisation(self) -> reducer.Factorisation:
        return reducer.factorisation(self.shape)

    @property
    def n_units(self) -> int:
        return len(self.units)

    @cached_property
    def units_of_class(self) -> dict[int, list[int]]:
        out: dict[int, list[int]] = defaultdict(list)
        for u in self.units:
            out[u.class_id].append(u.unit_id)
        return dict(out)

    def info(self) -> JobInfo:
        return JobInfo(self.shape, self.reduction, ENGINE_VERSION, self.n_units)

    def total(self, counts: dict[int, int]) -> int:
        """The grid total from every unit's count (exact)."""
        return reducer.total_from_unit_counts(counts, self.reduction, self.shape)

    def partial_sum(self, counts: dict[int, int]) -> int:
        """Σ weight · count over the units present (the total's last factor)."""
        weight = {c.class_id: c.weight for c in self.classes}
        return sum(weight[self.units[u].class_id] * n for u, n in counts.items())


def parse_unit_list(text: str, n_units: int) -> list[int]:
    """Parse ``"0-9,15,700-709"`` into unit ids, checking the range.

    Example
    -------
    >>> parse_unit_list("0-2,7", 710)
    [0, 1, 2, 7]
    """
    ids: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        lo, sep, hi = part.partition("-")
        try:
            a = int(lo)
            b = int(hi) if sep else a
        except ValueError:
            raise ValueError(f"bad unit list item {part!r}: use ids and ranges like 0-9,15") from None
        if a > b:
            raise ValueError(f"bad unit range {part!r}: start after end")
        if a < 0 or b >= n_units:
            raise ValueError(f"unit ids {part!r} out of range 0..{n_units - 1}")
        ids.update(range(a, b + 1))
    if not ids:
        raise ValueError("empty unit list")
    return sorted(ids)


def format_unit_list(ids: Iterable[int]) -> str:
    """Unit ids as :func:`parse_unit_list` reads them, runs as ranges.

    Example
    -------
    >>> format_unit_list([0, 1, 2, 7, 9, 10])
    '0-2,7,9-10'
    """
    out, start, prev = [], None, None
    for i in ids:
        if start is None:
            start = prev = i
        elif i == prev + 1:
            prev = i
        else:
            out.append(f"{start}" if start == prev else f"{start}-{prev}")
            start = prev = i
    if start is not None:
        out.append(f"{start}" if start == prev else f"{start}-{prev}")
    return ",".join(out)


def describe_machine() -> dict:
    """CPU model, cores, memory and software versions of this machine."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem_gib = None
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    mem_gib = round(int(line.split()[1]) / 2**20, 1)
                    break
    except OSError:
        pass
    import numpy
    return {
        "cpu": cpu,
        "cores": pool.default_workers(),
        "memory_gib": mem_gib,
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "engine_version": ENGINE_VERSION,
    }


# ---------------------------------------------------------------------------
# counting

@dataclass
class RunReport:
    """What one ``run_count`` did (statistics of the units counted now)."""

    counted: list[UnitResult] = field(default_factory=list)
    skipped: int = 0
    wall_seconds: float = 0.0
    workers: int = 1
    interrupted: bool = False
    per_worker: dict = field(default_factory=dict)  # Dask runs: address -> WorkerStats

    @property
    def unit_solutions(self) -> int:
        return sum(r.count for r in self.counted)

    @property
    def cpu_seconds(self) -> float:
        return sum(r.seconds for r in self.counted)


def run_count(job: Job, store: Store, *, workers: int = 1, unit_ids: Iterable[int] | None = None,
              options: CountOptions = CountOptions(), progress: bool | None = None,
              log: Callable[[str], None] | None = None,
              scheduler: str | None = None, wait_workers: float | None = None,
              warn: Callable[[str], None] | None = None) -> RunReport:
    """Count the units of ``job`` that ``store`` does not hold yet.

    Each result is committed as it arrives.  When the last unit of a class
    arrives, the class total is logged at once.  ``KeyboardInterrupt``
    propagates after the bar is closed; what was committed stays.

    ``progress``: ``True`` always draws the bar (stderr), ``False`` never,
    ``None`` only on a terminal.  ``scheduler`` (``tcp://HOST:PORT`` or
    ``local[:N]``) runs the units on a Dask cluster instead of the local
    process pool; this process stays the only writer of the store, and
    ``wait_workers`` (seconds, default :data:`counting.dask_pool.WAIT_WORKERS`)
    bounds the wait while the cluster has no worker.  A lost worker is said
    through ``warn`` (default: stderr, above the bar), even when ``log`` is
    silenced; one that cannot be made good stops the run with
    :class:`counting.pool.WorkerLost` or a :class:`counting.dask_pool.DaskPoolError`.
    ``options`` chooses the counting method
    (:func:`counting.unit_count.count_unit`); counts never depend on it.
    """
    from tqdm import tqdm

    wanted = list(range(job.n_units) if unit_ids is None else unit_ids)
    done = store.done_ids()
    todo = [job.units[u] for u in wanted if u not in done]
    report = RunReport(skipped=len(wanted) - len(todo), workers=workers)
    results = {r.unit_id: r.count for r in store.results()}
    factor = job.factorisation.product
    weight = {c.class_id: c.weight for c in job.classes}
    # Σ weight · count over the store (total so far) and over this run
    # (grids per second), kept as running sums as units arrive
    weighted_all = job.partial_sum(results)
    weighted_now = 0
    say = log or (lambda msg: tqdm.write(msg))
    warn = warn or (lambda msg: tqdm.write(msg, file=sys.stderr))
    if scheduler is not None and todo:
        from counting import dask_pool
        # connects now: a bad address or cluster fails before the bar opens
        source = dask_pool.run_units_dask(
            todo, scheduler=scheduler, options=options, log=warn,
            wait_workers=dask_pool.WAIT_WORKERS if wait_workers is None else wait_workers)
        report.workers = source.n_workers
        for note in source.notes:
            say(note)
    else:
        source = pool.run_units(todo, workers=workers, options=options, log=warn)
    t0 = time.perf_counter()
    bar = tqdm(total=len(wanted), initial=report.skipped, unit="unit",
               desc=f"{job.shape} r{job.reduction}",
               disable=(None if progress is None else not progress), dynamic_ncols=True,
               smoothing=0.1)
    with bar:
        try:
            for res in source:
                store.record(res)
                report.counted.append(res)
                results[res.unit_id] = res.count
                bar.update(1)
                elapsed = time.perf_counter() - t0
                weighted_all += weight[res.class_id] * res.count
                weighted_now += weight[res.class_id] * res.count
                bar.set_postfix_str(f"{factor * weighted_now / max(elapsed, 1e-9):.3e} grids/s, "
                                    f"total so far {factor * weighted_all:.6e}", refresh=False)
                members = job.units_of_class[res.class_id]
                if all(u in results for u in members):
                    s = sum(results[u] for u in members)
                    say(f"class {res.class_id:>3} complete: Σ over {len(members)} forms = {s:,} "
                        f"completions (weight {weight[res.class_id]:,})")
        except KeyboardInterrupt:
            report.interrupted = True
            raise
        finally:
            source.close()  # stops a pool / cancels a cluster's outstanding units
            report.wall_seconds = time.perf_counter() - t0
            report.per_worker = dict(getattr(source, "per_worker", {}))
    return report


# ---------------------------------------------------------------------------
# summaries

@dataclass
class Summary:
    """Everything ``status`` and ``export`` say about a store."""

    shape: str
    reduction: str
    engine_version: str
    n_units: int
    done: int
    classes_complete: int
    n_classes: int
    relabel: int
    band: int
    column: int
    weighted_sum: int | None      # Σ_class weight · Σ_form count (when complete)
    total: int | None             # relabel · band · column · weighted_sum
    unit_solutions: int
    nodes: int
    dead_ends: int
    memo_hits: int
    cpu_seconds: float
    hosts: list[str]
    class_totals: dict[int, int]  # complete classes only

    @property
    def complete(self) -> bool:
        return self.done == self.n_units

    def as_json(self) -> dict:
        f = {"relabel_box1": self.relabel, "reduce_band1": self.band,
             "reduce_column1": self.column,
             "weighted_unit_sum": None if self.weighted_sum is None else str(self.weighted_sum)}
        return {
            "shape": self.shape, "reduction": self.reduction,
            "engine_version": self.engine_version,
            "units_done": self.done, "units_total": self.n_units,
            "total": None if self.total is None else str(self.total),
            "total_int": self.total,
            "factorisation": f,
            "formula": "total = relabel_box1 * reduce_band1 * reduce_column1 * "
                       "sum_class(weight * sum_form(unit count))",
            "unit_solutions": str(self.unit_solutions),
            "nodes": self.nodes, "dead_ends": self.dead_ends, "memo_hits": self.memo_hits,
            "cpu_seconds": round(self.cpu_seconds, 3),
            "hosts": self.hosts,
        }


def summarise(store: Store, job: Job | None = None) -> Summary:
    """Summarise a store (partial or complete)."""
    job = job or Job.for_store(store)
    results = store.results()
    counts = {r.unit_id: r.count for r in results}
    complete = len(counts) == job.n_units
    ctot = {cid: sum(counts[u] for u in members)
            for cid, members in job.units_of_class.items()
            if all(u in counts for u in members)}
    f = job.factorisation
    wsum = job.partial_sum(counts) if complete else None
    return Summary(
        shape=job.shape, reduction=job.reduction, engine_version=store.job.engine_version,
        n_units=job.n_units, done=len(counts), classes_complete=len(ctot),
        n_classes=len(job.classes), relabel=f.relabel, band=f.band, column=f.column,
        weighted_sum=wsum, total=job.total(counts) if complete else None,
        unit_solutions=sum(counts.values()),
        nodes=sum(r.nodes for r in results), dead_ends=sum(r.dead_ends for r in results),
        memo_hits=sum(r.memo_hits for r in results),
        cpu_seconds=sum(r.seconds for r in results),
        hosts=sorted({r.host for r in results}), class_totals=ctot,
    )


CSV_FIELDS = ["unit_id", "class_id", "form_id", "weight", "count", "nodes", "dead_ends",
              "memo_hits", "seconds", "host", "engine_version", "finished_at"]


def units_csv(store: Store, job: Job | None = None) -> str:
    """Per-unit counts as CSV text (header row, sorted by unit id)."""
    job = job or Job.for_store(store)
    weight = {c.class_id: c.weight for c in job.classes}
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_FIELDS)
    for r in store.results():
        w.writerow([r.unit_id, r.class_id, r.form_id, weight[r.class_id], r.count, r.nodes,
                    r.dead_ends, r.memo_hits, f"{r.seconds:.6f}", r.host, r.engine_version,
                    r.finished_at])
    return buf.getvalue()


def export(store: Store, csv_path: Path | None, json_path: Path | None,
           job: Job | None = None, machine: dict | None = None) -> Summary:
    """Write the per-unit CSV and the JSON summary (either may be None)."""
    job = job or Job.for_store(store)
    summary = summarise(store, job)
    if csv_path is not None:
        _write_atomic(Path(csv_path), units_csv(store, job))
    if json_path is not None:
        doc = summary.as_json()
        doc["machine"] = machine if machine is not None else describe_machine()
        _write_atomic(Path(json_path), json.dumps(doc, indent=2) + "\n")
    return summary


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


# ---------------------------------------------------------------------------
# recount and merge

@dataclass
class RecountReport:
    checked: list[tuple[int, int, int]]   # (unit id, stored, recounted)

    @property
    def mismatches(self) -> list[tuple[int, int, int]]:
        return [t for t in self.checked if t[1] != t[2]]


def recount(store: Store, sample: int, *, seed: int | None = None,
            options: CountOptions = CountOptions(), job: Job | None = None) -> RecountReport:
    """Recount ``sample`` finished units chosen at random (each with an
    empty memo table, so no cached state from the first count is reused).

    ``options`` chooses the counting method (``CountOptions(memo=False)``:
    plain dancing links, independent of the memo and the tail)."""
    job = job or Job.for_store(store)
    done = sorted(store.done_ids())
    if sample < 1:
        raise ValueError("--sample must be >= 1")
    if not done:
        raise ValueError("the store holds no finished unit to recount")
    rng = random.Random(seed)
    chosen = sorted(rng.sample(done, min(sample, len(done))))
    checked = []
    for u in chosen:
        again = count_unit(job.units[u], options, fresh_memo=True)
        checked.append((u, store.get(u).count, again.count))
    return RecountReport(checked)


def merge(target: Path, sources: Iterable[Path]) -> list[tuple[Path, int, int]]:
    """Merge ``sources`` into ``target`` (created from the first source's
    job if missing).  Returns (source, added, identical) per source; a
    conflicting count raises ``ConflictError`` and writes nothing for that
    source."""
    sources = [Path(s) for s in sources]
    opened = [Store.open(s) for s in sources]
    try:
        tgt = Store.open(target) if Path(target).exists() else \
            Store.create_or_open(target, opened[0].job)
        with tgt:
            out = []
            for path, src in zip(sources, opened):
                rep = tgt.merge_from(src)
                out.append((path, rep.added, rep.identical))
            return out
    finally:
        for s in opened:
            s.close()
