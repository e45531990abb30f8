"""Reproduce published grid totals: the library behind ``gridcount verify``.

Each shape is counted by the normal counting path — :meth:`Job.load` (the
shape's default reduction), a store in a temporary directory, and
:func:`counting.job.run_count` with the process pool — exactly as
``gridcount count`` would, and only then put beside the published value of
:mod:`counting.published`.  The computed total never reads the published one.

A shape whose count fails (an engine error) is reported with its error and
does not stop the other shapes; one refused as out of reach (estimated at
more than :data:`counting.reach.REACH_DAYS` days, or with no estimate) is
listed as not counted with that estimate, as the shapes of
:data:`NOT_COUNTED` are: a failed row means a count that went wrong, never
one too costly to make.

Example
-------
>>> rows = verify(["2x2"], workers=1)
>>> rows[0].status
'ok'
"""
from __future__ import annotations

import re
import tempfile
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Callable, Iterable

from counting import published, route_estimate
from counting.job import Job, run_count
from counting.exact_json import exact_map
from counting.options import CountOptions
from counting.plan import OutOfReach, check_reach, in_process_reason, record_identity
from counting.reduction.registry import MAX_N, SYMMETRY
from counting.store.database import Store
from counting.verify_table import (LONGEST_IN_TABLE, TABLE_WIDTH, format_markdown, format_table,
                                  not_counted_line, write_markdown)
from counting.group.burnside import MAX_SEARCHED_IDENTITY
from counting.group.latin_classes import isomorphism_class_count, main_class_count
from counting.group.loop_classes import MAX_SEARCHED_LOOPS, loop_class_count
from counting.group.split_burnside import split_orbit_count
from factorization import latin_rectangles
from grids.kind import as_kind

__all__ = ["QUICK_SHAPES", "LONG_SHAPES", "QUICK_SYMMETRY", "LONG_SYMMETRY", "VerifyRow",
           "LONG_FULL_GROUP", "NOT_COUNTED_FULL_GROUP", "default_full_group_shapes",
           "verify_full_group", "verify_latin_classes", "default_latin_classes", "verify", "verify_shape", "verify_rectangles", "default_rectangles",
           "QUICK_RECTANGLES", "LONG_RECTANGLES", "default_shapes", "default_symmetry_shapes",
           "format_table", "format_markdown", "write_markdown", "not_counted_line", "brief",
           "count_from_scratch"]

# Shapes `gridcount verify` counts: each finishes in a few seconds on the
# reference machine (2 cores; see results/verify.md).  Transposed pairs
# are listed together.
QUICK_SHAPES = ("1x1", "1x2", "2x1", "1x3", "3x1", "1x4", "4x1", "1x5", "5x1",
                "1x6", "6x1", "1x7", "7x1", "2x2", "2x3", "3x2")
# Added by `gridcount verify --all`: Latin squares of order 8 (about ten
# seconds by the classes of rows 1-3), 8x8 Sudoku both ways (seconds to tens
# of seconds each), 9x9 Sudoku (under a minute) and 10x10 Sudoku by the
# two-band patterns (2 to 4 minutes; results/bench_patterns2.md).
LONG_SHAPES = ("1x8", "2x4", "4x2", "3x3", "2x5", "1x9")
# Shapes verified a second time by an independent method: the band tables
# (three bands at once) beside the dancing-links units of the default.
SECOND_METHOD = {"2x3": ("patterns3",), "3x3": ("patterns3",)}
# Listed by `gridcount verify` beside their published totals but not
# counted: each is a long job for `gridcount count` (or one it refuses with
# its cost estimate), measured in the results file named.
NOT_COUNTED = {
    "1x10": "a long job (`gridcount count 1x10`, resumable; counted to its published total, "
            "its time measured): see results/bench_factorization.md",
    "2x6": "out of reach here (`gridcount count 2x6` prints this estimate and refuses the "
           "job; the per-class search is far longer): see results/layers-2x6-estimate.md",
    "1x9+x": "out of reach here (`gridcount count 1x9+x --prefix diagonals` prints its "
             "measured estimate in core-hours and workers for a day; published from a "
             "volunteer-computing count): see results/variants.md",
    "3x3+disjoint": "a long job (`gridcount count 3x3+disjoint`, by band 1, resumable; its "
                    "time measured): see results/variants.md",
    "3x3+x": "a long job (`gridcount count 3x3+x`: its diagonals, resumable): see "
             "results/variants.md",
    "3x3+anti-knight": "a job of minutes (`gridcount count 3x3+anti-knight`: "
                       "rows 1-2, resumable): see results/variants.md",
}
# Grid kinds with extra rules (variants) counted by the prefix reduction:
# diagonal Latin squares of orders 4-7 in seconds (order 7 by its diagonals,
# 6 units); order 8 by its diagonals (26 units) in about 3 minutes on one core;
# Windoku by row 1 + column 1 (its default prefix) in about 5 minutes on 2 cores.
QUICK_VARIANTS = ("1x4+x", "1x5+x", "1x6+x", "1x7+x")
LONG_VARIANTS = ("1x8+x", "3x3+windoku")


# Essentially different grids (Burnside's lemma, `count --up-to-symmetry`),
# verified after the grid counts: Latin squares of orders 4-7 (isotopy
# classes), 2x2 and 2x3 in seconds each; 2x4 (its grid count for the identity
# included: 85 s), order 8 and 3x3 in about a minute or two each with their
# grid counts, order 9 in about 5 minutes (results/bench_symmetry.md), so
# those are --all's.
QUICK_SYMMETRY = ("1x4", "1x5", "1x6", "1x7", "2x2", "2x3")
LONG_SYMMETRY = ("2x4", "1x8", "3x3", "1x9")
# Essentially different grids under a kind's FULL group, cells × relabelling
# (counting/group/split_burnside.py), after the grid counts: Windoku with its
# grid count (about 5 minutes) and its 15 terms (about a CPU-minute, in this
# process) is --all's; SudokuP is listed (results/symmetry-full.md).
LONG_FULL_GROUP = ("3x3+windoku",)
NOT_COUNTED_FULL_GROUP = {
    "3x3+disjoint": "a long job (its grid count, then the terms of its full "
                    "group): see results/symmetry-full.md",
}
# Latin squares' main classes (paratopy) and isomorphism classes of quasigroups
# (counting/group/latin_classes.py, Burnside with the grid count as the
# identity's term): orders 4-7 in seconds; --all adds 8 (about 20 CPU-s) and
# 9 (about 4 minutes with its grid count; results/latin-classes.md).
# Loops up to isomorphism (counting/group/loop_classes.py: every term searched,
# the identity's too, no grid count, up to order 7): orders 4-6 in seconds; --all
# adds 7 (about 20 CPU-s, results/latin-classes.md) and 8 (its identity term,
# the reduced Latin squares, from 1x8's grid count of the run; the other terms
# under a CPU-second); 9 and beyond are refused (not measured).
LOOPS = "loops up to isomorphism"
LATIN_GROUPS = {"main classes": main_class_count, "isomorphism classes": isomorphism_class_count,
                LOOPS: loop_class_count}
QUICK_LATIN_CLASSES = tuple((g, n) for n in (4, 5, 6, 7) for g in LATIN_GROUPS
                            if (g, n) != (LOOPS, 7))
LONG_LATIN_CLASSES = ((LOOPS, 7), *((g, n) for n in (8, 9) for g in LATIN_GROUPS
                                    if (g, n) != (LOOPS, 9)))
NOT_COUNTED_SYMMETRY = {
    "2x5": "out of reach by search (`gridcount count 2x5 --up-to-symmetry` refuses it with "
           "its cost estimate: results/2x5-symmetry-terms.md); every term counted by the "
           "two-stack method, but their Burnside total differs from OEIS A291188, so the "
           "count is not believed: the difference and the second route for each term in "
           "results/2x5-symmetry-second-routes.md, docs/symmetry.md",
}


# Latin rectangles (rows, n), counted by the kernel as `count 1xN --rows K`
# does, beside the published sequences (counting/published.py): 2 x n and
# 3 x n to n = 8, 4 x n to 7, in under a second each; --all adds 2 x 9,
# 2 x 10 and 3 x 9 (seconds each; results/bench_factorization.md).
QUICK_RECTANGLES = tuple([(2, n) for n in range(2, 9)] + [(3, n) for n in range(3, 9)]
                         + [(4, n) for n in range(4, 8)])
LONG_RECTANGLES = ((2, 9), (2, 10), (3, 9))


def default_rectangles(all_shapes: bool = False) -> list[tuple[int, int]]:
    """The Latin rectangles ``gridcount verify`` counts (``--all``: the long ones too)."""
    return list(QUICK_RECTANGLES + (LONG_RECTANGLES if all_shapes else ()))


def default_shapes(all_shapes: bool = False) -> list[str]:
    """The shapes ``gridcount verify`` runs (``--all``: the long ones too),
    then the ones listed but not counted."""
    return list(QUICK_SHAPES + QUICK_VARIANTS
                + (LONG_SHAPES + LONG_VARIANTS if all_shapes else ()) + tuple(NOT_COUNTED))


def default_full_group_shapes(all_shapes: bool = False) -> list[str]:
    """The kinds whose essentially different grids under the full group
    ``gridcount verify --all`` checks, then the ones listed but not counted."""
    return list((LONG_FULL_GROUP if all_shapes else ()) + tuple(NOT_COUNTED_FULL_GROUP))


def default_latin_classes(all_shapes: bool = False) -> list[tuple[str, int]]:
    """The (group, order) pairs of Latin-square classes ``gridcount verify``
    counts (``--all``: the long ones too)."""
    return list(QUICK_LATIN_CLASSES + (LONG_LATIN_CLASSES if all_shapes else ()))


def default_symmetry_shapes(all_shapes: bool = False) -> list[str]:
    """The shapes whose essentially different grids ``gridcount verify``
    checks, then the ones listed but not counted."""
    return list(QUICK_SYMMETRY + (LONG_SYMMETRY if all_shapes else ())
                + tuple(NOT_COUNTED_SYMMETRY))


@dataclass
class VerifyRow:
    """One shape's computed total beside its published one.

    ``computed`` is None when the count failed (``error`` says why);
    ``published`` is None when no published value is known.
    """

    shape: str
    n: int                      # side of the grid, R*C
    computed: int | None
    published: int | None
    source: str | None
    seconds: float
    units: int | None
    reduction: str | None
    error: str | None = None
    not_counted: str | None = None   # why a listed shape was not counted
    up_to_symmetry: bool = False     # essentially different grids, not all grids
    rect_rows: int | None = None     # Latin rectangles of this many rows, not grids
    full_group: bool = False         # essentially different under the kind's full group
    latin_group: str | None = None   # Latin squares' classes under this group, not isotopy
    not_counted_brief: str | None = None   # why not counted, in a few words ("a long job")

    @property
    def label(self) -> str:
        """The shape, and what is counted when it is not all grids."""
        if self.rect_rows is not None:
            return f"{self.rect_rows} x {self.n} Latin rectangles"
        if self.latin_group is not None:
            return f"{self.shape} ({self.latin_group})"
        if self.full_group:
            return f"{self.shape} (essentially different, full group)"
        return f"{self.shape} (essentially different)" if self.up_to_symmetry else self.shape

    @property
    def method(self) -> str:
        """The reduction the row was counted by (``"—"`` when not counted)."""
        return self.reduction or "—"

    @property
    def counts(self) -> str:
        """What the row counts: ``"grids"``, ``"essentially different"`` or
        ``"K x N rectangles"``."""
        if self.rect_rows is not None:
            return f"{self.rect_rows}x{self.n} rectangles"
        if self.latin_group is not None:
            return self.latin_group
        if self.full_group:
            return "essentially different (full group)"
        return "essentially different" if self.up_to_symmetry else "grids"

    @property
    def kind(self) -> str:
        return as_kind(self.shape).family

    @property
    def instead(self) -> str | None:
        """For a row not counted as a long job, the command its reason names
        to count it instead (``gridcount count 1x10``); None for a row out of
        reach (that command refuses it too) or counted."""
        if self.not_counted is None or (self.not_counted_brief or "").startswith("out of reach"):
            return None
        found = re.search(r"`(gridcount count [^`]*)`", self.not_counted)
        return None if found is None else found.group(1)

    @property
    def match(self) -> bool | None:
        """True/False when both totals exist, else None."""
        if self.computed is None or self.published is None:
            return None
        return self.computed == self.published

    @property
    def status(self) -> str:
        if self.error is not None:
            return "FAILED"
        if self.not_counted is not None:
            return "not counted"
        if self.published is None:
            return "no reference"
        return "ok" if self.match else "MISMATCH"

    @property
    def failed(self) -> bool:
        """A mismatch or a failed count (what makes the command exit non-zero)."""
        return self.status in ("FAILED", "MISMATCH")

    def as_json(self) -> dict:
        return {
            "shape": self.shape, "n": self.n, "kind": self.kind,
            **exact_map({"computed": self.computed, "published": self.published}),
            "source": self.source, "match": self.match, "status": self.status,
            "seconds": round(self.seconds, 3), "units": self.units,
            "reduction": self.reduction, "error": self.error, "not_counted": self.not_counted,
            "counts": self.counts, "rows": self.rect_rows,
            "not_counted_brief": self.not_counted_brief, "instead": self.instead,
        }


def _not_counted(name: str, listed: dict, up_to_symmetry: bool) -> str:
    """Why a listed shape is not counted; for a shape with a route measured
    but not built (2x6 by layers), that route's estimate first, from its
    measurement file (:mod:`counting.route_estimate`), or in one clause why
    the file cannot be read."""
    kind = as_kind(name)
    if up_to_symmetry or not route_estimate.applies(kind):
        return listed[name]
    try:
        est = f"by layers, an estimate: {route_estimate.load(kind).describe()}"
    except route_estimate.RouteFileError as e:
        est = f"the layer route's measurement: {e}"
    return f"{est}; {listed[name]}"


def verify_shape(shape: str, *, workers: int = 1, options: CountOptions = CountOptions(),
                 up_to_symmetry: bool = False, grid_total: int | None = None,
                 reduction: str | None = None, in_process_if_small: bool = False,
                 note: Callable[[str], None] | None = None,
                 on_start: Callable[[], None] | None = None) -> VerifyRow:
    """Count ``shape`` from scratch (temporary store) and compare.

    ``options`` chooses the counting method, as for :func:`run_count`.
    ``seconds`` is the wall time of the whole computation: the reduction
    (classes and units) and the counting of every unit.  With
    ``up_to_symmetry`` the essentially different grids are counted (the
    ``symmetry`` job); its identity unit is ``grid_total`` when given (a
    grid count made in the same run), else the grid count made here first.
    ``reduction`` counts the grids by another reduction than the shape's
    default (a second, independent method: ``patterns3``).
    ``in_process_if_small``: a shape the quick look puts at a few seconds is
    counted in this process instead of on ``workers`` processes
    (:func:`counting.plan.in_process_reason`).  ``note`` is told, once a
    count, why a memo the workers would share cannot be used here (a FIFO
    at the memo file's path...): the workers then keep their own tables
    and say nothing (:func:`count_from_scratch`).  ``on_start`` is called once the
    count starts: not for a shape listed as not counted, nor for one found
    out of reach.
    """
    name = as_kind(shape).name
    chosen_reduction = reduction
    ref = published.lookup(name, up_to_symmetry=up_to_symmetry)
    listed = NOT_COUNTED_SYMMETRY if up_to_symmetry else NOT_COUNTED
    if name in listed:
        return _row_not_counted(name, ref, up_to_symmetry,
                                _not_counted(name, listed, up_to_symmetry),
                                brief(listed[name]), 0.0)
    t0 = time.perf_counter()
    computed = units = reduction = error = None
    try:
        quick: list = []
        try:
            check_reach(name, chosen_reduction, options, workers, up_to_symmetry=up_to_symmetry,
                        grid_total_known=grid_total is not None, quick=quick)
        except OutOfReach as e:   # too costly here: not counted (as listed shapes), not FAILED
            by = "layers" if e.route is not None else f"reduction {e.reduction}"
            return _row_not_counted(name, ref, up_to_symmetry,
                                    f"out of reach by {by}: {e.estimate}", f"out of reach by {by}",
                                    time.perf_counter() - t0)
        if in_process_if_small and in_process_reason(quick, workers) is not None:
            workers = 1
        if on_start is not None:
            on_start()
        with tempfile.TemporaryDirectory(prefix="gridcount-verify-") as tmp:
            if up_to_symmetry:
                job = Job.load(name, SYMMETRY)
                if grid_total is None:
                    grid_total = count_from_scratch(Job.load(name), Path(tmp) / "grids.sqlite",
                                                    workers, options, note=note)
                computed = count_from_scratch(job, Path(tmp) / "symmetry.sqlite", workers,
                                              options, identity=grid_total, note=note)
            else:
                job = Job.load(name, chosen_reduction)
                computed = count_from_scratch(job, Path(tmp) / "grids.sqlite", workers, options,
                                              note=note)
            units, reduction = job.n_units, job.reduction
    except Exception as e:  # reported in the table, never a crash (Ctrl-C still stops)
        error = str(e) or type(e).__name__
    return VerifyRow(
        shape=name, n=as_kind(name).shape.n, computed=computed,
        published=None if ref is None else ref.total, source=None if ref is None else ref.source,
        seconds=time.perf_counter() - t0, units=units, reduction=reduction, error=error,
        up_to_symmetry=up_to_symmetry,
    )


def brief(note: str) -> str:
    """A listed row's reason in a few words: its note's words before the
    first parenthesis or colon (every note of :data:`NOT_COUNTED` and its
    siblings opens so: ``"a long job (`gridcount count 1x10`, ..."`` gives
    ``"a long job"``)."""
    return re.split(r" \(|:", note, maxsplit=1)[0]


def _row_not_counted(name: str, ref, up_to_symmetry: bool, why: str, short: str,
                     seconds: float) -> VerifyRow:
    """The row of a shape not counted (``why``; ``short``, the same in a few
    words) beside its published ``ref``."""
    return VerifyRow(shape=name, n=as_kind(name).shape.n, computed=None,
                     published=None if ref is None else ref.total,
                     source=None if ref is None else ref.source, seconds=seconds, units=None,
                     reduction=None, not_counted=why, not_counted_brief=short,
                     up_to_symmetry=up_to_symmetry)


def verify_full_group(shape: str, *, workers: int = 1, options: CountOptions = CountOptions(),
                      grid_total: int | None = None,
                      note: Callable[[str], None] | None = None) -> VerifyRow:
    """The essentially different grids of ``shape`` under its full group
    (:func:`counting.group.split_burnside.split_orbit_count`) beside the
    published value; the identity's term from ``grid_total`` (a grid count
    of the same run) or a grid count made here first (beyond 6×6; ``note``
    as for :func:`verify_shape`)."""
    name = as_kind(shape).name
    n = as_kind(name).shape.n
    ref = published.FULL_GROUP.get(name)
    row = dict(shape=name, n=n, published=None if ref is None else ref.total,
               source=None if ref is None else ref.source, up_to_symmetry=True, full_group=True)
    if name in NOT_COUNTED_FULL_GROUP:
        return VerifyRow(computed=None, seconds=0.0, units=None, reduction=None,
                         not_counted=NOT_COUNTED_FULL_GROUP[name],
                         not_counted_brief=brief(NOT_COUNTED_FULL_GROUP[name]), **row)
    t0 = time.perf_counter()
    computed = units = error = None
    try:
        if grid_total is None and n > MAX_SEARCHED_IDENTITY:
            with tempfile.TemporaryDirectory(prefix="gridcount-verify-") as tmp:
                grid_total = count_from_scratch(Job.load(name), Path(tmp) / "grids.sqlite",
                                                workers, options, note=note)
        result = split_orbit_count(name, options, grid_total=grid_total)
        computed, units = result.orbits, len(result.terms)
    except Exception as e:  # reported in the table, never a crash (Ctrl-C still stops)
        error = str(e) or type(e).__name__
    return VerifyRow(computed=computed, seconds=time.perf_counter() - t0, units=units,
                     reduction="full group", error=error, **row)


def verify_latin_classes(group: str, n: int, *, workers: int = 1,
                         options: CountOptions = CountOptions(),
                         grid_total: int | None = None,
                         note: Callable[[str], None] | None = None) -> VerifyRow:
    """Latin squares of order ``n`` up to ``group`` (``"main classes"``,
    ``"isomorphism classes"`` or loops, :data:`LATIN_GROUPS`) beside the
    published value; the identity's term from ``grid_total`` (a grid count
    of the same run) or a grid count of ``1xN`` made here first (beyond 6×6;
    ``note`` as for :func:`verify_shape`), except for loops up to order 7,
    whose every term is searched."""
    source, values = published.LATIN_CLASSES[group]
    t0 = time.perf_counter()
    computed = units = error = None
    try:
        searched = MAX_SEARCHED_LOOPS if group == LOOPS else MAX_SEARCHED_IDENTITY
        if grid_total is None and n > searched:
            with tempfile.TemporaryDirectory(prefix="gridcount-verify-") as tmp:
                grid_total = count_from_scratch(Job.load(f"1x{n}"), Path(tmp) / "grids.sqlite",
                                                workers, options, note=note)
        result = LATIN_GROUPS[group](n, options, grid_total=grid_total)
        computed, units = result.classes, len(result.terms)
    except Exception as e:  # reported in the table, never a crash (Ctrl-C still stops)
        error = str(e) or type(e).__name__
    return VerifyRow(shape=f"1x{n}", n=n, computed=computed, published=values.get(n),
                     source=source, seconds=time.perf_counter() - t0, units=units,
                     reduction="latin_classes", error=error, up_to_symmetry=True,
                     latin_group=group)


def verify_rectangles(rows: int, n: int) -> VerifyRow:
    """Count the ``rows × n`` Latin rectangles as ``gridcount count 1xN
    --rows K`` does (:func:`factorization.latin_rectangles`) and compare."""
    ref = published.RECTANGLES.get((rows, n))
    t0 = time.perf_counter()
    computed = error = None
    try:
        computed = latin_rectangles(rows, n)
    except Exception as e:  # reported in the table, never a crash
        error = str(e) or type(e).__name__
    return VerifyRow(shape=f"1x{n}", n=n, computed=computed,
                     published=None if ref is None else ref.total,
                     source=None if ref is None else ref.source,
                     seconds=time.perf_counter() - t0, units=None, reduction=f"rows={rows}",
                     error=error, rect_rows=rows)


def count_from_scratch(job: Job, path: Path, workers: int, options: CountOptions,
                       identity: int | None = None,
                       note: Callable[[str], None] | None = None) -> int:
    """Count ``job`` into a new store at ``path``; its total.  ``identity``:
    the grid count from which a symmetry job's unit 0 is recorded first.

    Every count of a job that verify makes goes through this function, so a
    test may replace it (``monkeypatch.setattr(verify, "count_from_scratch",
    ...)``) to make one count fail and see the row report it.

    As ``gridcount count`` does (:meth:`Reduction.local_options
    <counting.reduction.base.Reduction.local_options>`), a memo the workers
    would share but cannot use here is said once, to ``note``, and the
    workers get tables of their own, instead of each saying it again."""
    red = job.reduction_object
    here = red.local_options(options)
    if here != options and note is not None:
        note(f"memo: {red.describe_memo(options)}")
    with Store.create_or_open(path, job.info()) as store:
        if identity is not None:
            record_identity(store, job.shape, identity, "this verify run")
        run_count(job, store, workers=workers, options=here, progress=False,
                  log=lambda msg: None)
        counts = {r.unit_id: r.count for r in store.results()}
    return job.total(counts)


def verify(shapes: Iterable[str], *, workers: int = 1, options: CountOptions = CountOptions(),
           on_start: Callable[[str], None] | None = None,
           on_row: Callable[[VerifyRow], None] | None = None,
           symmetry_shapes: Iterable[str] = (),
           rectangles: Iterable[tuple[int, int]] = (),
           in_process_if_small: bool = False,
           full_group_shapes: Iterable[str] = (),
           latin_classes: Iterable[tuple[str, int]] = (),
           note: Callable[[str], None] | None = None) -> list[VerifyRow]:
    """Verify every shape in turn, then the essentially different grids of
    ``symmetry_shapes`` (their identity taken from a grid count of this run
    when there is one), then those of ``full_group_shapes`` under their full
    groups (the same identity), then the ``(group, n)`` Latin-square
    ``latin_classes`` (the identity from ``1xN``'s grid count of this run when
    there is one), then the ``(rows, n)`` Latin ``rectangles``;
    ``on_start`` is told each count as it starts (not the shapes listed
    but not counted, :data:`NOT_COUNTED`, nor those found out of reach) and
    ``on_row`` each row as it is done.

    Every shape is checked (``N <= 16``) before anything is counted, so a
    bad shape fails at once with a ``ValueError``.  ``in_process_if_small``
    and ``note`` (each line once a run, not once a count): as for
    :func:`verify_shape`.
    """
    said: set[str] = set()

    def note_once(line: str) -> None:
        if note is not None and line not in said:
            said.add(line)
            note(line)

    names = [_checked_kind(s) for s in shapes]
    sym_names = [_checked_kind(s) for s in symmetry_shapes]
    full_names = [_checked_kind(s) for s in full_group_shapes]
    rows = []
    grids: dict[str, int] = {}
    second = [(n, False, r) for n in names for r in SECOND_METHOD.get(n, ())]
    for name, sym, red in [(n, False, None) for n in names] + second + \
            [(n, True, None) for n in sym_names]:
        what = f"{name} (essentially different)" if sym else f"{name} by {red}" if red else name
        row = verify_shape(name, workers=workers, options=options, up_to_symmetry=sym,
                           grid_total=grids.get(name) if sym else None, reduction=red,
                           in_process_if_small=in_process_if_small, note=note_once,
                           on_start=None if on_start is None else partial(on_start, what))
        if not sym and red is None and row.computed is not None and row.match is not False:
            grids[name] = row.computed
        rows.append(row)
        if on_row:
            on_row(row)
    for name in full_names:
        if on_start and name not in NOT_COUNTED_FULL_GROUP:
            on_start(f"{name} (essentially different, full group)")
        rows.append(verify_full_group(name, workers=workers, options=options,
                                      grid_total=grids.get(name), note=note_once))
        if on_row:
            on_row(rows[-1])
    for group, n in latin_classes:
        if on_start:
            on_start(f"1x{n} ({group})")
        rows.append(verify_latin_classes(group, n, workers=workers, options=options,
                                         grid_total=grids.get(f"1x{n}"), note=note_once))
        if on_row:
            on_row(rows[-1])
    for k, n in rectangles:
        if on_start:
            on_start(f"{k} x {n} Latin rectangles")
        rows.append(verify_rectangles(k, n))
        if on_row:
            on_row(rows[-1])
    return rows


def _checked_kind(text: str) -> str:
    """The kind's canonical text, its shape checked (``N <= 16``: verify has no --force)."""
    n = as_kind(text).shape.n
    if n > MAX_N:
        raise ValueError(f"{text!r} makes {n}x{n} grids; verify counts grids up to "
                         f"{MAX_N}x{MAX_N} (gridcount count --force counts larger ones)")
    return as_kind(text).name
