"""A counting job: the reduction's units, a store, and what can be said of them.

Library functions behind every ``gridcount`` command (the CLI only parses
arguments and formats): run the missing units into a store, summarise a
store, export it (recounting a sample: :mod:`counting.recount`).

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
import math
import os
import platform
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Callable, Iterable

from counting.run import pool
from counting.options import CountOptions
from counting.reduction import (BandClass, Reduction, check_shape, default_reduction,
                                get_reduction, reduction_name)
from counting.store.batch import Batch
from counting.store.database import JobInfo, OtherJobError, Store, StoreError
from counting.store.identity import IdentityCheck, check_identity
from counting.run.progress import Progress
from counting.units import UnitResult, UnitSpec
from counting.labels import labels_of
from counting.exact_json import exact, exact_map
from grids.kind import GridKind, as_kind
from dlx import ENGINE_VERSION

__all__ = ["Job", "default_db_path", "default_export_stem", "default_export_paths", "run_count",
           "RunReport", "summarise", "Summary", "export", "describe_machine"]


#: A job with more classes than this logs a class total only for classes of
#: several units (a one-unit class's line repeats its unit; 3,506 of them
#: for ``1x9`` would bury the summary).
CLASS_LINES_UP_TO = 100


def default_db_path(shape: str, reduction: str) -> Path:
    """Where ``gridcount count`` keeps a job's store by default."""
    return Path("results") / f"{shape}-r{reduction}.sqlite"


def default_export_stem(job: "Job") -> str:
    """File stem of ``gridcount export``'s default outputs: the shape for
    the shape's default reduction (``results/2x4-units.csv``), else
    ``SHAPE-rREDUCTION``."""
    if job.reduction == default_reduction(job.shape):
        return job.shape
    return f"{job.shape}-r{job.reduction}"


def default_export_paths(job: "Job", directory: str | os.PathLike) -> tuple[Path, Path]:
    """``gridcount export``'s default outputs in ``directory`` (the store's
    own, unless ``--output-dir`` says otherwise): the per-unit CSV and the
    JSON summary, named by :func:`default_export_stem`."""
    stem = default_export_stem(job)
    return Path(directory) / f"{stem}-units.csv", Path(directory) / f"{stem}.json"


@dataclass(frozen=True)
class Job:
    """The reduction of one grid kind: its classes, units and factors.

    ``shape`` is the kind's canonical text (:attr:`grids.kind.GridKind.name`:
    ``"3x3"`` for plain 9×9 grids), as the store's job row and every unit
    carry it; :attr:`kind` is the value.
    """

    shape: str
    reduction: str

    @classmethod
    def load(cls, shape: str, reduction: str | None = None, force: bool = False) -> "Job":
        """The job of box shape ``shape`` (``"RxC"``) under ``reduction``.

        The shape is checked (``N <= 16`` unless ``force``) and spelled
        ``"RxC"``; the reduction defaults to the shape's default and is
        stored under its stable name (:func:`~counting.reduction.reduction_name`:
        ``"71"``/``"44"`` for 3x3, ``"moves"``/``"patterns"`` otherwise).
        Raises ``ValueError`` with a one-line message on bad input.
        """
        job = cls.named(shape, reduction, force)
        job.units  # computes (and validates) the reduction now
        return job

    @classmethod
    def named(cls, shape: str, reduction: str | None = None, force: bool = False) -> "Job":
        """:meth:`load` without listing the units (a complete store's total may not need them)."""
        kind = as_kind(shape)
        check_shape(kind, force=force)
        return cls(kind.name, reduction_name(None if reduction is None else str(reduction),
                                             kind.name))

    @classmethod
    def for_store(cls, store: Store) -> "Job":
        """The job a store was made for; :class:`OtherJobError` when this
        gridcount's reduction of that name makes another number of units
        (it has changed since the store was made: its unit ids mean other
        units now, so the store is another job's)."""
        job = cls.load(store.job.shape, store.job.reduction, force=True)
        if job.n_units != store.job.n_units:
            raise OtherJobError(
                f"{store.path} was made for {store.job.n_units:,} units of {job.shape} "
                f"({job.reduction}), and this gridcount makes {job.n_units:,}: the reduction has "
                f"changed since, so its unit ids mean other units; count again into another "
                f"--db, or read it with the gridcount that made it")
        return job

    @cached_property
    def units(self) -> list[UnitSpec]:
        return get_reduction(self.shape, self.reduction).units()

    @cached_property
    def classes(self) -> list[BandClass]:
        return get_reduction(self.shape, self.reduction).classes()

    @property
    def kind(self) -> GridKind:
        """What the job counts: the grid kind its ``shape`` text names."""
        return as_kind(self.shape)

    @property
    def reduction_object(self) -> Reduction:
        """The :class:`~counting.reduction.Reduction` this job counts."""
        return get_reduction(self.shape, self.reduction)

    @property
    def factors(self) -> tuple[tuple[str, int], ...]:
        """The reduction's exact factors, ``(label, value)`` in print order."""
        return self.reduction_object.factors

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
        return JobInfo(self.shape, self.reduction, self.reduction_object.engine_version,
                       self.n_units)

    def total(self, counts: dict[int, int]) -> int:
        """The grid total from every unit's count (exact)."""
        return get_reduction(self.shape, self.reduction).total(counts)

    def partial_sum(self, counts: dict[int, int]) -> int:
        """Σ of the weighted terms over the units present (the total's last factor)."""
        return self.reduction_object.weighted_sum(counts)


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
    in_process: str | None = None  # why a small job was counted in this process, in words

    @property
    def unit_solutions(self) -> int:
        return sum(r.count for r in self.counted)

    @property
    def unit_wall_seconds(self) -> float:
        """The wall-clock seconds of the units counted now, summed (each
        unit's ``seconds``: the wall time of its count, not CPU time)."""
        return sum(r.seconds for r in self.counted)


def _stderr_line(message: str) -> None:
    print(message, file=sys.stderr)


def _bar_line(message: str) -> None:
    """A line on stderr that keeps the progress bar (also on stderr) intact."""
    from tqdm import tqdm
    tqdm.write(message, file=sys.stderr)


def run_count(job: Job, store: Store, *, workers: int = 1, unit_ids: Iterable[int] | None = None,
              options: CountOptions = CountOptions(), progress: bool | None = None,
              log: Callable[[str], None] | None = None,
              scheduler: str | None = None, wait_workers: float | None = None,
              warn: Callable[[str], None] | None = None,
              in_process: str | None = None) -> RunReport:
    """Count the units of ``job`` that ``store`` does not hold yet.

    The results are committed in small batches as they arrive
    (:class:`counting.store.batch.Batch`: a crash loses at most the batch,
    never a unit twice), and what is held when the run stops, however it
    stops, is committed before this returns.  When the last unit of a class
    arrives, the class total is logged at once (a one-unit class only when
    the job has at most :data:`CLASS_LINES_UP_TO` classes).  ``KeyboardInterrupt``
    propagates after the bar is closed; what was committed stays.

    ``progress``: ``True`` always draws the bar (stderr), ``False`` never,
    ``None`` only on a terminal.  ``scheduler`` (``tcp://HOST:PORT`` or
    ``local[:N]``) runs the units on a Dask cluster instead of the local
    process pool; this process stays the only writer of the store, and
    ``wait_workers`` (seconds, default :data:`counting.run.dask_setup.WAIT_WORKERS`)
    bounds the wait while the cluster has no worker.  A lost worker is said
    through ``warn`` (default: stderr, above the bar), even when ``log`` is
    silenced; one that cannot be made good stops the run with
    :class:`counting.run.pool.WorkerLost` or a :class:`counting.run.dask_pool.DaskPoolError`.
    ``options`` chooses the counting method
    (:func:`counting.run.counter.count_unit`); counts never depend on it.
    ``in_process``: why the units are counted in this process although more
    ``workers`` were available (a small job, :func:`counting.plan.in_process_reason`),
    kept in the report; the units are then counted here, one at a time.
    """
    wanted = list(range(job.n_units) if unit_ids is None else unit_ids)
    done = store.done_ids()
    todo = [job.units[u] for u in wanted if u not in done]
    if in_process is not None:
        workers = 1
    report = RunReport(skipped=len(wanted) - len(todo), workers=workers, in_process=in_process)
    results = {r.unit_id: r.count for r in store.results()}
    weight = {c.class_id: c.weight for c in job.classes}
    say = log or _stderr_line
    warn = warn or _bar_line
    if scheduler is not None and todo:
        from counting.run import dask_pool
        # connects now: a bad address or cluster fails before the bar opens
        source = dask_pool.run_units_dask(
            todo, scheduler=scheduler, options=options, log=warn,
            wait_workers=dask_pool.WAIT_WORKERS if wait_workers is None else wait_workers)
        report.workers = source.n_workers
        for note in source.notes:
            say(note)
    else:
        source = pool.run_units(todo, workers=workers, options=options, log=warn)
    bar = Progress(f"{job.shape} r{job.reduction}", job.reduction_object.work_shares([job.units[u] for u in wanted]),
                   done, progress)
    say = log or bar.write
    with bar, Batch(store) as batch:   # leaving it commits the units it holds
        t0 = time.perf_counter()
        try:
            for res in source:
                batch.add(res)
                report.counted.append(res)
                results[res.unit_id] = res.count
                bar.advance(res.unit_id)
                members = job.units_of_class[res.class_id]
                if (len(members) > 1 or len(job.classes) <= CLASS_LINES_UP_TO) \
                        and all(u in results for u in members):
                    words = job.reduction_object.class_words(res.class_id)
                    say(words.complete_line(len(members), sum(results[u] for u in members),
                                            weight[res.class_id]))
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

# JSON keys of the band reductions' factors (kept from format 1 of the export);
# other reductions' factors appear under their printed labels
_JSON_FACTOR_KEYS = {"relabel box 1 (N!)": "relabel_box1", "reduce band 1": "reduce_band1",
                     "reduce column 1": "reduce_column1"}

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
    factors: tuple[tuple[str, int], ...]  # the reduction's exact factors, as printed
    sum_label: str                # how the weighted sum is printed
    weighted_sum: int | None      # Σ_unit weight · count (when complete)
    total: int | None             # product of the factors · weighted_sum
    unit_solutions: int
    nodes: int
    dead_ends: int
    memo_hits: int
    unit_wall_seconds: float      # Σ the units' seconds: wall time, not CPU time
    hosts: list[str]
    class_totals: dict[int, int]  # complete classes only
    divisors: tuple[tuple[str, int], ...] = ()   # exact divisors of factor · Σ (Burnside: |G|)
    total_label: str = "grids"    # what the total counts, after the shape
    identity: IdentityCheck | None = None   # a symmetry store's unit 0 against its grid store
    #: why the store's unit ids are not this gridcount's units (another listing of them:
    #: :meth:`~counting.reduction.base.Reduction.foreign_engine`), or None when they are
    foreign_units: str | None = None
    #: why such a store's total (and weighted sum) is not computed here
    #: (:meth:`~counting.reduction.base.Reduction.foreign_total_refused`), or None
    total_refused: str | None = None

    @property
    def complete(self) -> bool:
        return self.done == self.n_units

    @property
    def foreign_note(self) -> str | None:
        """What ``status``, ``report`` and ``export`` say of a store whose unit ids are
        not this gridcount's units (one line), or None: what it holds is shown, not which
        of this gridcount's units remain, nor a total this gridcount cannot compute."""
        if self.foreign_units is None:
            return None
        no_total = ("" if self.total_refused is None else
                    f"; its total is not computed here: {self.total_refused}")
        return (f"{self.foreign_units}; which of this gridcount's units remain cannot be "
                f"said (what is shown is the store's units, as stored){no_total}")

    @property
    def factor(self) -> int:
        return math.prod(v for _, v in self.factors)

    def as_json(self) -> dict:
        """The summary as ``--json`` and ``export --summary`` give it; every
        integer that can pass 2^53 (the total, the factors and the divisors,
        the sums over the units) as a decimal string with the integer beside
        it (:mod:`counting.exact_json`)."""
        factors = {_JSON_FACTOR_KEYS.get(label, label): value for label, value in self.factors}
        formula = " * ".join([*factors, f"({self.sum_label})"])
        doc = {
            "shape": self.shape, "reduction": self.reduction,
            "engine_version": self.engine_version,
            "units_done": self.done, "units_total": self.n_units,
            **exact("total", self.total),
            "total_counts": self.total_label,
            "factorisation": exact_map({**factors, "weighted_unit_sum": self.weighted_sum}),
            "formula": "total = " + formula + "".join(f" / {label}" for label, _ in self.divisors),
            **exact_map({"unit_solutions": self.unit_solutions, "nodes": self.nodes,
                         "dead_ends": self.dead_ends, "memo_hits": self.memo_hits}),
            "unit_wall_seconds": round(self.unit_wall_seconds, 3),
            "hosts": self.hosts,
        }
        if self.divisors:
            doc["divisors"] = exact_map(dict(self.divisors))
        if self.identity is not None:
            doc["identity"] = self.identity.as_json()
        if self.foreign_units is not None:
            doc["foreign_units"] = self.foreign_units
            doc["total_refused"] = self.total_refused   # why "total" is null, or null
        return doc


def summarise(store: Store, job: Job | None = None) -> Summary:
    """Summarise a store (partial or complete)."""
    job = job or Job.for_store(store)
    results = store.results()
    counts = {r.unit_id: r.count for r in results}
    unknown = sorted(u for u in counts if not 0 <= u < job.n_units)
    if unknown:
        raise StoreError(f"{store.path} holds unit id {unknown[0]}, which job {job.shape} "
                         f"({job.reduction}) does not have (ids 0..{job.n_units - 1}): "
                         f"the store is damaged")
    identity = None
    if job.reduction_object.counts_orbits and job.reduction_object.identity_from_grid \
            and 0 in counts:
        identity = check_identity(store, results[0])   # results are sorted by unit id
    red = job.reduction_object
    foreign = red.foreign_engine(store.job.engine_version)
    refused = red.total_refused_for(store.job.engine_version)
    complete = len(counts) == job.n_units
    totalled = complete and refused is None    # no total of what it would misweigh
    ctot = {cid: sum(counts[u] for u in members)
            for cid, members in job.units_of_class.items()
            if all(u in counts for u in members)}
    wsum = job.partial_sum(counts) if totalled else None
    try:
        total = job.total(counts) if totalled else None
    except ValueError as e:   # Burnside's divisor does not divide: a count is wrong
        raise StoreError(f"{store.path}: {e}") from None
    return Summary(
        shape=job.shape, reduction=job.reduction, engine_version=store.job.engine_version,
        n_units=job.n_units, done=len(counts), classes_complete=len(ctot),
        n_classes=len(job.classes), factors=job.factors,
        sum_label=labels_of(job.reduction_object).sum_label,
        weighted_sum=wsum, total=total,
        unit_solutions=sum(counts.values()),
        nodes=sum(r.nodes for r in results), dead_ends=sum(r.dead_ends for r in results),
        memo_hits=sum(r.memo_hits for r in results),
        unit_wall_seconds=sum(r.seconds for r in results),
        hosts=sorted({r.host for r in results}), class_totals=ctot,
        divisors=job.reduction_object.divisors, total_label=labels_of(job.reduction_object).total_label,
        identity=identity,
        foreign_units=foreign, total_refused=refused,
    )


CSV_FIELDS = ["unit_id", "class_id", "form_id", "weight", "count", "nodes", "dead_ends",
              "memo_hits", "seconds", "host", "engine_version", "finished_at", "worker"]


def units_csv(store: Store, job: Job | None = None) -> str:
    """Per-unit counts as CSV text (header row, sorted by unit id); the weight column
    empty where this gridcount's weights are not the store's units' (a ``factor`` store
    of another kernel: :meth:`~counting.reduction.base.Reduction.total_refused_for`)."""
    job = job or Job.for_store(store)
    red = job.reduction_object
    weight = defaultdict(str) if red.total_refused_for(store.job.engine_version) else \
        {c.class_id: c.weight for c in job.classes}
    extra = list(red.unit_columns(job.units[0])) if job.units else []
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_FIELDS + extra)
    for r in store.results():
        w.writerow([r.unit_id, r.class_id, r.form_id, weight[r.class_id], r.count, r.nodes,
                    r.dead_ends, r.memo_hits, f"{r.seconds:.6f}", r.host, r.engine_version,
                    r.finished_at, r.worker, *red.unit_columns(job.units[r.unit_id]).values()])
    return buf.getvalue()


def export(store: Store, csv_path: Path | None, json_path: Path | None,
           job: Job | None = None, machine: dict | None = None) -> Summary:
    """Write the per-unit CSV and the JSON summary (either may be None).

    Both files are written to temporaries first and renamed into place only
    when both are complete, so a failure (full disk, unwritable directory)
    leaves the old files, if any, and no temporary.

    Raises
    ------
    OSError
        A file cannot be written; ``filename`` is the file meant, not its
        temporary.
    StoreError
        The store cannot be read (a damaged row, ...).
    """
    job = job or Job.for_store(store)
    summary = summarise(store, job)
    files = {}
    if csv_path is not None:
        files[Path(csv_path)] = units_csv(store, job)
    if json_path is not None:
        doc = summary.as_json()
        doc["machine"] = machine if machine is not None else describe_machine()
        files[Path(json_path)] = json.dumps(doc, indent=2) + "\n"
    _write_atomic(files)
    return summary


def _write_atomic(files: dict[Path, str]) -> None:
    """Write every file through a temporary beside it, then rename them all."""
    written: dict[Path, Path] = {}
    try:
        for path, text in files.items():
            tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
            written[path] = tmp
            try:
                tmp.write_text(text, encoding="utf-8")
            except OSError as exc:
                raise OSError(exc.errno, exc.strerror, str(path)) from exc
        for path, tmp in written.items():
            try:
                os.replace(tmp, path)
            except OSError as exc:
                raise OSError(exc.errno, exc.strerror, str(path)) from exc
    except BaseException:
        for tmp in written.values():
            try:
                tmp.unlink()
            except OSError:
                pass  # never created, or renamed already
        raise
