"""A job's measured estimate by a route that is not built yet: 2x6 by layers.

``gridcount count 2x6`` cannot run the layer method's heavy stages yet
(issue 36), but they have been measured: ``scripts/estimate_two_factor_route.py
--json`` times the 2-factor route (``F_4`` by 2-factors once per kernel class
of degree 4, ``F_5`` and ``F_6`` rooted, all memoised by the kernel's
canonical form) on states drawn without bias by the layer sampler, and writes
what it measured to a small JSON file under ``results/`` (:data:`FILES`):
each stage's CPU seconds with their standard error, the memo's entries, the
sample, the machine, its load and the date.  This module reads that file
(:func:`load`) and turns it into what a person is told
(:class:`RouteEstimate`): core-hours with their error, the workers that would
finish in a day, memory, disk and the dominant stage.  No figure of the
estimate is written in the code: a planted file changes every figure.

A missing, unreadable, damaged or foreign file (another format, version or
shape) is a :class:`RouteFileError` naming the file and what is wrong; the
caller says so in one line and falls back to the search's estimate
(:func:`counting.plan.check_reach`).

Example
-------
>>> applies(as_kind("6x2")), applies(as_kind("2x5")), applies(as_kind("1x12"))
(True, False, False)
>>> e = RouteEstimate.from_json(example_document(), "example.json")
>>> e.describe().split(" by ")[0], e.workers_for_a_day, e.dominant.name
('150 ± 5 core-hours', 7, 'F_5')
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from counting.measured import required_amount
from counting.reach import REACH_DAYS, format_seconds
from counting.reduction import get_reduction
from factorization.layer_estimate import Figure
from grids.kind import GridKind, as_kind

__all__ = ["FORMAT", "VERSION", "FILES", "RouteEstimate", "RouteFileError", "Stage", "applies",
           "for_job", "load", "measurement_path", "example_document"]

FORMAT = "gridcount route measurement"   # the file's "format"
VERSION = 1                              # and its "version": another is foreign
#: The measurement file of each shape a route estimates (its spelling with
#: R <= C; the transpose is the same job).
FILES = {"2x6": Path(__file__).resolve().parents[1] / "results" / "layers-2x6-route.json"}
_GIB = 2 ** 30


class RouteFileError(ValueError):
    """The measurement file is missing, unreadable, damaged or foreign (the
    message names it and what is wrong, in one line)."""


@dataclass(frozen=True)
class Stage:
    """One stage of the route: its name, what it does, and its CPU."""

    name: str
    what: str
    cpu: Figure          # seconds, with the standard error of the sample


def applies(kind: GridKind) -> bool:
    """Whether a route's measurement is kept for ``kind`` (plain grids of a
    shape of :data:`FILES` or its transpose)."""
    return measurement_path(kind) is not None


def measurement_path(kind: GridKind) -> Path | None:
    """The measurement file for ``kind``, or None where no route is measured."""
    s = kind.shape
    if not kind.plain or s.latin:
        return None
    return FILES.get(f"{min(s.box_rows, s.box_cols)}x{max(s.box_rows, s.box_cols)}")


@dataclass(frozen=True)
class RouteEstimate:
    """A route's measured estimate of a whole job (see the module).

    Attributes
    ----------
    shape : str
        The job's shape (the file's, R <= C).
    route : str
        The route, in words.
    stages : tuple of Stage
    memo_entries : Figure
        Entries of the memo the route keeps (every kernel class of the
        degrees it memoises), estimated.
    slot_bytes : int
        Bytes of a memo slot (and of an entry written out to disk).
    fill : float
        How full a memo table may be (its slots a power of two).
    worker_limit_gib : float
        The memory a worker may have (the issue's target).
    sample, machine, load_average : dict
        What was measured, on what, and the load average before and after.
    date, command : str
        When and how the file was written.
    path : str
        The file read.
    """

    shape: str
    route: str
    stages: tuple[Stage, ...]
    memo_entries: Figure
    slot_bytes: int
    fill: float
    worker_limit_gib: float
    sample: dict
    machine: dict
    load_average: dict
    date: str
    command: str
    path: str

    # -- reading ------------------------------------------------------------
    @classmethod
    def from_json(cls, doc, path) -> "RouteEstimate":
        """The estimate in the document ``doc`` read from ``path``;
        :class:`RouteFileError` if it is not a measurement of this format."""
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise RouteFileError(f"{path} is not a route measurement (no \"format\": "
                                 f"\"{FORMAT}\")")
        if doc.get("version") != VERSION:
            raise RouteFileError(f"{path} is a route measurement of version "
                                 f"{doc.get('version')!r}, not {VERSION}")
        try:
            stages = tuple(Stage(str(s["name"]), str(s["what"]),
                                 Figure(required_amount(s["cpu_seconds"]),
                                        required_amount(s["stderr_seconds"])))
                           for s in doc["stages"])
            memo = doc["memo"]
            e = cls(shape=str(doc["shape"]), route=str(doc["route"]), stages=stages,
                    memo_entries=Figure(required_amount(memo["entries"]),
                                        required_amount(memo["entries_stderr"])),
                    slot_bytes=int(memo["slot_bytes"]), fill=float(memo["fill"]),
                    worker_limit_gib=float(doc["worker_limit_gib"]),
                    sample=dict(doc["sample"]), machine=dict(doc["machine"]),
                    load_average=dict(doc["load_average"]), date=str(doc["date"]),
                    command=str(doc["command"]), path=str(path))
        except (KeyError, TypeError, ValueError) as err:
            raise RouteFileError(f"{path} is damaged: {type(err).__name__} {err}") from None
        if not stages or e.slot_bytes <= 0 or not 0 < e.fill <= 1 or e.worker_limit_gib <= 0:
            raise RouteFileError(f"{path} is damaged: no stage, or a memo slot, fill or "
                                 f"memory limit out of range")
        return e

    # -- the figures --------------------------------------------------------
    @property
    def cpu(self) -> Figure:
        """CPU seconds of the whole job (errors of the stages combined)."""
        return Figure(math.fsum(s.cpu.value for s in self.stages),
                      math.sqrt(math.fsum(s.cpu.stderr ** 2 for s in self.stages)))

    @property
    def core_hours(self) -> Figure:
        return Figure(self.cpu.value / 3600, self.cpu.stderr / 3600)

    @property
    def dominant(self) -> Stage:
        return max(self.stages, key=lambda s: s.cpu.value)

    @property
    def workers_for_a_day(self) -> int:
        return max(1, math.ceil(self.cpu.value / 86400))

    def wall_seconds(self, workers: int) -> float:
        return self.cpu.value / max(workers, 1)

    def memo_bytes(self, workers: int = 1) -> int:
        """Bytes of the memo on one machine, or of a worker's share split by
        key over ``workers``: slots a power of two, at most :attr:`fill` full."""
        share = max(1.0, self.memo_entries.value / workers)
        return (1 << math.ceil(math.log2(share / self.fill))) * self.slot_bytes

    def split_workers(self) -> int:
        """The fewest workers whose shares of the memo, split by key, fit the limit."""
        limit = self.worker_limit_gib * _GIB
        return next(w for w in range(1, 1 << 20) if self.memo_bytes(w) <= limit)

    @property
    def disk_bytes(self) -> int:
        """The memo's entries written out (one slot each, no empty slots)."""
        return math.ceil(self.memo_entries.value) * self.slot_bytes

    # -- what is said ------------------------------------------------------------
    def _memory_text(self) -> str:
        one, w = self.memo_bytes(), self.split_workers()
        if one <= self.worker_limit_gib * _GIB:
            return (f"{one / _GIB:,.1f} GiB on one machine (the memo of "
                    f"{self.memo_entries.value:,.0f} entries), within the "
                    f"{self.worker_limit_gib:,.0f} GiB a worker aimed at")
        return (f"{one / _GIB:,.1f} GiB on one machine (the memo of "
                f"{self.memo_entries.value:,.0f} entries); "
                f"{self.memo_bytes(w) / _GIB:,.1f} GiB a worker only split by key over {w:,} "
                f"workers, a join not built: the target of {self.worker_limit_gib:,.0f} GiB "
                f"a worker is not met")

    def _measured_text(self) -> str:
        parts = ", ".join(f"{v:,} {k.replace('_', ' ')}" for k, v in self.sample.items()
                          if isinstance(v, int) and not isinstance(v, bool))
        return f"sampled: {parts} ({self.command})"

    def _machine_text(self) -> str:
        m, load = self.machine, self.load_average
        what = ", ".join(str(x) for x in (m.get("cpu"), f"{m.get('cores')} cores",
                                          f"{m.get('memory_gib')} GiB", m.get("os")) if x)
        return (f"{what}; one thread; load average {_load(load.get('before'))} before, "
                f"{_load(load.get('after'))} after")

    def rows(self, workers: int) -> list[tuple[str, str]]:
        """``(label, value)`` rows for people: the estimate, each stage, the
        wall time on ``workers``, the workers for a day, memory, disk, and
        what was measured where and when."""
        total, dom = self.cpu.value, self.dominant
        return [
            ("route", f"{self.route}: an estimate, the job is not runnable yet"),
            ("core-hours", f"{_hours(self.cpu)} (± one standard error)"),
            *[(f"  {s.name}", f"{_hours(s.cpu)}: {s.what}") for s in self.stages],
            ("dominant stage", f"{dom.name} ({100 * dom.cpu.value / total:,.0f} %)"),
            (f"on {workers:,} worker{'s' * (workers != 1)}",
             f"about {format_seconds(self.wall_seconds(workers))}"),
            ("workers for a day", f"{self.workers_for_a_day:,}"),
            ("memory", self._memory_text()),
            ("disk", f"{self.disk_bytes / _GIB:,.1f} GiB (the memo's entries written out, "
                     f"{self.slot_bytes} B each, to resume)"),
            ("measured", self._measured_text()),
            ("machine", self._machine_text()),
            ("date", self.date),
            ("measurement file", self.path),
        ]

    def describe(self, workers: int | None = None) -> str:
        """One line: the estimate, the wall time on ``workers`` (None: not
        said), the workers for a day, the dominant stage and the memory."""
        dom = self.dominant
        wall = "" if workers is None else (
            f"about {format_seconds(self.wall_seconds(workers))} on {workers:,} "
            f"worker{'s' * (workers != 1)}, ")
        return (f"{_hours(self.cpu)} by {self.route} (measured "
                f"{self.date}, {self.path}; not runnable yet), {wall}"
                f"{self.workers_for_a_day:,} workers for a day; {dom.name} dominates "
                f"({_hours(dom.cpu)}); memory {self._memory_text()}")

    def refusal(self, reduction: str, workers: int) -> str:
        """Why the job is refused with this estimate: the route is not built,
        and (said first) when so, it would take longer than
        :data:`counting.reach.REACH_DAYS` days on ``workers``; only
        ``--reduction reduction`` (without ``--force``) estimates the per-class count."""
        why = "the layer route is not built yet"
        if self.wall_seconds(workers) > REACH_DAYS * 86400:
            why = (f"more than {REACH_DAYS} days on {workers:,} "
                   f"worker{'s' * (workers != 1)}, and {why}")
        return (f"{why}, so it is refused (--force does not run the search in its place; "
                f"--reduction {reduction} without --force gives the per-class count's own "
                f"estimate)")

    def as_json(self, workers: int) -> dict:
        """The same as data (floats of seconds and bytes, the file's own records)."""
        return {"shape": self.shape, "route": self.route, "runnable": False,
                "cpu_seconds": round(self.cpu.value, 1),
                "cpu_seconds_stderr": round(self.cpu.stderr, 1),
                "core_hours": round(self.core_hours.value, 3),
                "core_hours_stderr": round(self.core_hours.stderr, 3),
                "stages": [{"name": s.name, "what": s.what, "cpu_seconds": round(s.cpu.value, 1),
                            "cpu_seconds_stderr": round(s.cpu.stderr, 1)}
                           for s in self.stages],
                "dominant_stage": self.dominant.name,
                "workers": workers, "wall_seconds": round(self.wall_seconds(workers), 1),
                "workers_for_a_day": self.workers_for_a_day,
                "memory_one_machine_bytes": self.memo_bytes(),
                "memory_split_workers": self.split_workers(),
                "memory_per_split_worker_bytes": self.memo_bytes(self.split_workers()),
                "memory_limit_per_worker_bytes": round(self.worker_limit_gib * _GIB),
                "memory_target_met": self.memo_bytes() <= self.worker_limit_gib * _GIB,
                "disk_bytes": self.disk_bytes, "sample": self.sample, "machine": self.machine,
                "load_average": self.load_average, "date": self.date, "command": self.command,
                "measurement_file": self.path}


def load(kind: GridKind, path: Path | None = None) -> RouteEstimate:
    """The route estimate of ``kind`` from its measurement file (``path``,
    else :func:`measurement_path`); :class:`RouteFileError` when the file is
    missing, unreadable, damaged or another shape's."""
    path = Path(path) if path is not None else measurement_path(kind)
    if path is None:
        raise RouteFileError(f"no route is measured for {kind.name}")
    shown = _shown(path)
    try:
        text = path.read_text()
    except FileNotFoundError:
        raise RouteFileError(f"{shown} is missing") from None
    except (OSError, UnicodeDecodeError) as err:
        raise RouteFileError(f"{shown} cannot be read ({type(err).__name__})") from None
    try:
        doc = json.loads(text)
    except ValueError as err:
        raise RouteFileError(f"{shown} is damaged: not JSON ({err})") from None
    e = RouteEstimate.from_json(doc, shown)
    s = kind.shape
    want = f"{min(s.box_rows, s.box_cols)}x{max(s.box_rows, s.box_cols)}"
    if e.shape != want:
        raise RouteFileError(f"{shown} is a measurement of {e.shape}, not {want}")
    return e


def for_job(kind: GridKind, reduction: str, say: Callable[[str], None] = lambda msg: None
            ) -> RouteEstimate | None:
    """The measured estimate of the route that replaces ``kind``'s default
    grid job (the reduction named ``reduction``), or None: no route for the
    kind, or another reduction asked; or its measurement file missing,
    unreadable, damaged or foreign, which is said to ``say`` in one line."""
    if not applies(kind) or reduction != get_reduction(kind.name, None).name:
        return None
    try:
        return load(kind)
    except RouteFileError as e:
        say(f"the layer route's measurement: {e}; the search's estimate instead")
        return None


def example_document() -> dict:
    """A small made-up measurement (the doctests' and the format's example)."""
    return {"format": FORMAT, "version": VERSION, "shape": "2x6", "route": "an example route",
            "stages": [{"name": "F_4", "what": "once per class", "cpu_seconds": 36000.0,
                        "stderr_seconds": 10800.0},
                       {"name": "F_5", "what": "from memoised children",
                        "cpu_seconds": 504000.0, "stderr_seconds": 14400.0}],
            "memo": {"entries": 3.0e8, "entries_stderr": 1.0e7, "slot_bytes": 64, "fill": 0.75},
            "worker_limit_gib": 20, "sample": {"terms": 30},
            "machine": {"cpu": "a CPU", "cores": 2, "memory_gib": 8, "os": "an OS"},
            "load_average": {"before": [1.0, 1.0, 1.0], "after": [1.0, 1.0, 1.0]},
            "date": "2026-01-01T00:00:00Z", "command": "python scripts/x.py"}


def _hours(cpu: Figure) -> str:
    """CPU seconds as core-hours with their error: ``416 ± 20 core-hours``."""
    v, se = cpu.value / 3600, cpu.stderr / 3600
    digits = 0 if v >= 10 else 2
    return f"{v:,.{digits}f}" + (f" ± {se:,.{digits}f}" if se else "") + " core-hours"


def _load(values) -> str:
    if not isinstance(values, list) or not values:
        return "unknown"
    return " / ".join(f"{float(v):.1f}" for v in values)


def _shown(path: Path) -> str:
    """``path`` as said: relative to the project where it lies inside it."""
    root = Path(__file__).resolve().parents[1]
    try:
        return str(path.resolve().relative_to(root))
    except ValueError:
        return str(path)
