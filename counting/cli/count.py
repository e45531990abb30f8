"""``gridcount count | classes | verify``: counting a shape's grids.

Thin commands over :mod:`counting.job` and :mod:`counting.verify`: parse the
options, call the library, format the result.
"""
from __future__ import annotations

import dataclasses
import json
import signal
import sys
from pathlib import Path

import click

from counting import job as jobs
from counting import layer_route, plan, reach, rectangles
from counting.cli.full_group import show_group
from counting.cli.common import (Terminated, bad_value, check_size, enumeration_notice, fail,
                                 note, not_together, only_with, print_table, refuse,
                                 sigterm_stops_like_ctrl_c)
from counting.exact_json import exact, exact_map
from counting.options import CountOptions
from counting.reduction import registry
from counting.reduction.latin_orbits import MAX_ORDER as MAX_LATIN_ORDER
from counting.group.loop_classes import MAX_LOOPS, MAX_SEARCHED_LOOPS
from counting.reduction.prefix import PREFIX_HELP, PrefixReduction
from counting.run import dask_setup, dask_stats   # not dask_pool: --help needs no Dask
from counting.run.notice import say_if_slow
from counting.run.pool import default_workers
from counting.store.database import StoreError, StoreRefused
from counting.units import UnitResult
from counting.labels import Labels, labels_of
from grids.kind import as_kind

__all__ = ["count", "classes"]

REDUCTIONS = [*registry.REDUCTIONS, *registry.ALIASES_3X3, registry.PREFIX, registry.KIND_TABLES]
# reduction kinds, then 3x3's stored names, then the prefix reduction of grid kinds and the
# kind band tables
MEMO_MB_MIN = 0.01   # smallest --memo-mb accepted (about 10 KiB)
REDUCTION_HELP = ("Band-1 classes: 'moves' (the five moves; the default, '71' for 3x3) or "
                  "'patterns' (column-set patterns; '44' for 3x3); two-band shapes (Rx2, 2xR): "
                  "'patterns2' (column-set patterns of the two bands; the default from 10x10 "
                  "on) or 'layers' (the bands of every pattern at once, row by row, C = 2..5: "
                  "a second method); Latin squares (1xN, Nx1): 'cycles2' (classes of rows 1-3; the default "
                  "for orders 3-8), 'factor' (counted by 1-factorizations; the default for orders 9-11) "
                  "or 'cycles' (cycle type of row 2); three-band shapes "
                  "(2x3, 3x2, 3x3, 4x3, 3x4): 'patterns3' (band tables, a second method); grid kinds "
                  "with extra rules (3x3+x, 3x3+windoku, ...): 'prefix' (orbits of fillings of "
                  "a prefix of cells, rows 1-2 or the kind's measured cheapest, unless --prefix "
                  "says otherwise); kinds whose one extra house has a cell in every box: "
                  "'kind-tables' (band tables carrying the house; the default for 3x3+centre, "
                  "3x3+girandola and 3x3+asterisk, and for 2x3 and 3x3 a check).")
_CHOSEN = "; ".join(f"{kind} {name.split('-', 1)[1]}"
                    for kind, name in registry.PREFIX_CHOSEN.items())
PREFIX_OPTION_HELP = ("Grid kinds with extra rules: the cells whose fillings make the units; "
                      f"{PREFIX_HELP} [default: rows=2; measured cheapest: {_CHOSEN}]. The prefix is part of the job: a store of one prefix is "
                      "refused for another.")


def _load_job(shape: str, reduction: str | None, force: bool = False) -> jobs.Job:
    try:
        return jobs.Job.load(shape, reduction, force=force)
    except ValueError as e:
        fail(str(e))


@click.command()
@click.argument("shape")
@click.option("--reduction", type=click.Choice(REDUCTIONS), default=None, help=REDUCTION_HELP)
@click.option("--prefix", default=None, metavar="PREFIX", help=PREFIX_OPTION_HELP)
@click.option("--force", is_flag=True,
              help=f"Allow grids larger than 16x16, and jobs estimated to take more than "
                   f"{reach.REACH_DAYS} days (a job that could take more than "
                   f"{reach.format_seconds(reach.LONG_JOB_SECONDS)} is estimated first; "
                   f"--force skips the estimate).")
@click.option("--workers", "-w", type=click.IntRange(min=1), default=None,
              help="Worker processes [default: number of cores; a job estimated at a few "
                   "seconds is counted in this process, as the run statistics say].")
@click.option("--db", type=click.Path(dir_okay=False), default=None,
              help="Store of finished units [default: results/SHAPE-rREDUCTION.sqlite].")
@click.option("--units", "unit_list", default=None, help="Only these unit ids, e.g. 0-9,15.")
@click.option("--fresh", is_flag=True, help="Delete the store first and count everything again.")
@click.option("--no-memo", is_flag=True,
              help="Plain dancing links: no memoized subproblem counts, no closed-form last band.")
@click.option("--no-tail", is_flag=True,
              help="Search the last band instead of counting it in closed form.")
@click.option("--memo-mb", "memo_mb_text", metavar="MIB", default="16", show_default=True,
              help="Memo table size per worker, in MiB.")
@click.option("--private-memo", is_flag=True,
              help="The 1-factorization kernel's memo private to each worker, instead of the "
                   "file in the cache directory that the workers share and later runs reuse.")
@click.option("--allow-mismatch", is_flag=True,
              help="Continue a store written by another engine version.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar, no class log; only the result.")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON on stdout.")
@click.option("--up-to-symmetry", is_flag=True,
              help="Count the essentially different grids (Burnside's lemma over the grid "
                   "symmetry group) instead; the identity class is the grid count, taken from "
                   "its store (results/SHAPE-rREDUCTION.sqlite) or counted into it first.")
@click.option("--group", "group", type=click.Choice(list(registry.GROUPS)), default=None,
              help="With --up-to-symmetry, the group: 'grid', the shape's geometric group "
                   "(the part that keeps the kind's rules) × relabelling; 'full', the kind's "
                   "full group, the automorphisms of its exact cover (nauty), where it is "
                   "cells × relabelling (SudokuP: 4× 'grid'; Latin squares are refused: see "
                   "'main-class'). "
                   "Latin squares (1xN, Nx1) only: 'isotopy', another name for 'grid' there "
                   "(rows, columns and symbols each permuted: the same group, job and store); "
                   "'main-class', paratopy S_N wr S_3, their roles exchanged too (main "
                   "classes, OEIS A003090); 'isomorphism', one permutation applied to rows, "
                   "columns and symbols (quasigroups up to isomorphism, OEIS A057991); orders "
                   f"up to {MAX_LATIN_ORDER} for these two; 'loops', the same on the squares "
                   f"with an identity element (loops up to isomorphism, OEIS A057771), orders "
                   f"up to {MAX_LOOPS} (beyond {MAX_SEARCHED_LOOPS}, its identity from the grid "
                   f"count). "
                   f"[default: {registry.DEFAULT_GROUP}, for every kind]")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Run the units on a Dask cluster: tcp://HOST:PORT of a running scheduler, "
                   "or local[:N] to start N worker processes here (needs gridcount[dask]).")
@click.option("--wait-workers", type=float, default=None, metavar="SECONDS",
              help="With --scheduler: how long to wait while the cluster has no worker, "
                   f"then stop (finished units are kept) [default: {dask_setup.WAIT_WORKERS:g}].")
@click.option("--kernel", type=click.Choice(["auto", "factorization", "search"]),
              default="auto", show_default=True,
              help="Units that can be counted in closed form (two-band patterns) are counted "
                   "by the 1-factorization kernel; 'search' counts them by dancing links "
                   "instead (the independent check; recount always searches).")
@click.option("--rows", type=click.IntRange(min=1), default=None, metavar="K",
              help="Latin shapes (1xN, Nx1): count the K x N Latin rectangles instead, by the "
                   "1-factorization kernel (seconds; nothing is stored).")
def count(shape, reduction, prefix, force, workers, db, unit_list, fresh, no_memo, no_tail, memo_mb_text,
          private_memo, allow_mismatch, quiet, no_progress, as_json, up_to_symmetry, group, scheduler,
          wait_workers, kernel, rows):
    """Count all grids of box shape SHAPE (RxC), resuming from the store.

    Units already in the store are skipped; Ctrl-C (exit 130) or SIGTERM
    (exit 143) keeps every finished unit and a re-run of the same command
    resumes.  A worker that dies is replaced and its unit counted again; a
    unit that kills three workers, or a cluster left without workers for
    --wait-workers seconds, stops the run (exit 1), the finished units kept.
    A store of another job, or one another process is counting, is refused
    (exit 2), as is a --scheduler run when no scheduler answers there or
    Dask is not installed (nothing was counted; the user must mend it).

    \b
    Example:
        gridcount count 3x3
        gridcount count 3x3 --reduction 44 --workers 2
        gridcount count 3x3 --units 0-9 --db /tmp/part.sqlite
        gridcount count 2x4            # 8x8 grids, boxes of 2 rows x 4 columns
        gridcount count 1x7            # Latin squares of order 7
        gridcount count 3x3 --scheduler tcp://HOST:8786
        gridcount count 3x3 --up-to-symmetry   # 5,472,730,538 essentially different
        gridcount count 3x3+disjoint --up-to-symmetry --group full
        gridcount count 1x7 --up-to-symmetry --group main-class   # 147
        gridcount count 2x3+x --prefix boxes=1,4  # a grid kind, units from boxes 1 and 4
    """
    # Everything is checked before anything is deleted (--fresh) or opened.
    try:
        kind = as_kind(shape)
    except ValueError as e:
        bad_value("SHAPE", str(e))
    not_together("quiet", "as_json", "--quiet prints only the total, --json the whole result")
    for other in _NOT_WITH_ROWS:
        not_together("rows", other, "--rows counts Latin rectangles at once, with no store")
    if rows is not None:
        _count_rectangles(kind, rows, as_json, quiet)
        return
    only_with("group", "--up-to-symmetry", up_to_symmetry,
              "it chooses the group the essentially different grids are counted under")
    check_size(kind, force, before=lambda msg: _json_error(as_json, msg, 2))
    reduction = _checked_reduction(kind, reduction, prefix, route_refuses=True)
    if db is not None and not db.strip():
        bad_value("--db", "an empty path names no store (leave --db out for the default)")
    not_together("no_memo", "memo_mb_text", "--memo-mb sizes the memo table, which --no-memo "
                                            "turns off")
    if scheduler is not None:
        if workers is not None:
            raise click.UsageError("--workers sets the local pool; with --scheduler the cluster's "
                                   "workers count (local:N starts N)")
        try:
            target = dask_setup.parse_scheduler(scheduler)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--scheduler")
        try:
            dask_setup.check_wait_workers(wait_workers if wait_workers is not None else 0)
        except ValueError as e:
            bad_value("--wait-workers", str(e))
    elif wait_workers is not None:
        raise click.UsageError("--wait-workers applies to --scheduler runs (the local pool "
                               "replaces a lost worker itself)")
    options = dataclasses.replace(_count_options(memo_mb_text, no_memo, no_tail), kernel=kernel,
                                  shared_memo=not private_memo)
    asked_workers = workers   # without --workers a small job is counted in this process
    cores = default_workers()
    if workers is not None and workers > cores:
        if not (quiet or as_json):
            click.echo(f"--workers {workers}: this machine gives the count {cores} cores, so "
                       f"{cores} worker processes count (more would only share them)", err=True)
        workers = cores
    workers = workers or cores
    if scheduler is None:
        estimate_on, here = workers, workers
    else:   # remote workers: their memory limits are checked on connecting
        estimate_on = target.n_workers or default_workers()
        here = estimate_on if target.kind == "local" else 0
    request = plan.CountRequest(
        shape=shape, reduction=reduction, up_to_symmetry=up_to_symmetry, group=group,
        force=force,
        db=Path(db) if db else None, unit_list=unit_list, fresh=fresh,
        allow_mismatch=allow_mismatch, options=options, workers=estimate_on,
        local_workers=here, scheduler=scheduler, wait_workers=wait_workers,
        in_process_if_small=asked_workers is None and scheduler is None)
    quiet_run = quiet or as_json
    say = (lambda msg: None) if quiet_run else (lambda msg: click.echo(msg, err=True))
    if (notice := enumeration_notice(kind, reduction, force)) is not None:
        say(notice)
    try:
        with sigterm_stops_like_ctrl_c():
            outcome = plan.count(
                request, say=say, note=(lambda msg: None) if quiet_run else note,
                progress=False if (quiet or no_progress or as_json) else None,
                log=(lambda msg: None) if quiet_run else None,
                # lost workers are said even then (no bar is drawn then either)
                warn=(lambda msg: click.echo(msg, err=True)) if quiet_run else None,
                on_report=None if quiet_run else _print_run)
    except plan.BadUnits as e:
        raise click.BadParameter(str(e), param_hint="--units")
    except plan.NoGrids as e:
        _say_no_grids(e, as_json, quiet)
        return
    except plan.OutOfReach as e:   # a route's measured estimate (2x6 by layers) first as a table
        _json_error(as_json, str(e), 2, **e.as_json(estimate_on))
        if e.route is not None and not (as_json or quiet):
            print_table(e.route.rows(estimate_on))
        refuse(str(e))
    except (plan.NoDiskRoom, plan.GroupRefused, plan.RouteUnusable, plan.ClusterUnavailable) as e:
        _json_error(as_json, str(e), 2)
        refuse(str(e))
    except plan.TooMuchMemory as e:
        bad_value(e.option or "--workers", str(e))
    except plan.Interrupted as e:
        terminated = isinstance(e.__cause__, Terminated)
        how = "terminated" if terminated else "interrupted"
        again = "the same command without --fresh" if fresh else "the same command again"
        click.echo(f"\n{how}: {e}; run {again} to resume.", err=True)
        # the shell's convention: 128 + the signal's number
        sys.exit(128 + (signal.SIGTERM if terminated else signal.SIGINT))
    except StoreRefused as e:       # another job's store, or one being counted
        _json_error(as_json, str(e), 2)
        refuse(str(e))
    except (ValueError, StoreError, plan.RunFailed) as e:
        _json_error(as_json, str(e), 1)
        fail(str(e))
    if as_json:
        doc = outcome.summary.as_json()
        doc["run"] = _run_json(outcome.report)
        if outcome.table is not None:
            doc["burnside"] = [row.as_dict() for row in outcome.table]
        doc["store"] = str(outcome.path)
        doc["notes"] = outcome.notes   # what the run says on stderr without --json
        click.echo(json.dumps(doc, indent=2))
        return
    if not quiet:
        _print_run(outcome.report, labels_of(outcome.summary.reduction))
        if outcome.table is not None:
            _print_burnside(outcome.table, labels_of(outcome.summary.reduction))
    _print_summary(outcome.summary, outcome.path, quiet=quiet)


def _say_no_grids(e: "plan.NoGrids", as_json: bool, quiet: bool) -> None:
    """A kind with no grid: its count, 0, said as such (exit 0, nothing stored)."""
    if as_json:
        click.echo(json.dumps({"shape": e.shape, "reduction": e.reduction, "units_total": 0,
                               "total": "0", "total_int": 0, "total_counts": e.counts,
                               "no_grid": str(e)}, indent=2))
    elif quiet:
        click.echo("0")
    else:
        click.echo(f"{e}\n{e.shape} {e.counts}  0")


def _json_error(as_json: bool, message: str, exit_code: int, **data) -> None:
    """Under ``--json``, a refusal or failure is a JSON object on stdout too
    (``{"error": ..., "exit_code": ..., **data}``): a script never reads an empty stdout."""
    if as_json:
        click.echo(json.dumps({"error": message, "exit_code": exit_code, **data}))


def _prefix_reduction(kind, reduction: str | None, prefix: str | None) -> str | None:
    """The reduction a ``--prefix`` asks for (``"prefix-rows=1,cols=1"``), or
    ``reduction`` unchanged without one; a one-line error (exit 2) for a
    prefix of a plain kind, beside another reduction, or that is not one."""
    if prefix is None:
        return reduction
    if kind.plain:
        bad_value("--prefix", f"a prefix chooses the units of a grid kind with extra rules "
                               f"(3x3+x, ...); plain {kind.name} grids have --reduction")
    if reduction not in (None, registry.PREFIX):
        bad_value("--prefix", f"--reduction {reduction} is not the prefix reduction")
    try:
        return PrefixReduction(kind, prefix).name   # checks it holds a whole house
    except ValueError as e:
        bad_value("--prefix", str(e))


def _checked_reduction(kind, reduction: str | None, prefix: str | None,
                       route_refuses: bool = False) -> str | None:
    """:func:`_prefix_reduction`, then a reduction that does not apply to the
    kind (``3x3 --reduction patterns2``, ``3x3+x --reduction moves``) as a
    bad option value, exit 2 like every refusal (nothing is enumerated yet);
    with ``route_refuses`` (``count``), ``2x6 --reduction layers`` is let
    through: :func:`counting.plan.count` refuses it with the layer route's
    measured estimate (:func:`counting.layer_route.refuse_layers_beyond_units`);
    without (``classes``), it is refused saying the same why
    (:func:`counting.layer_route.layers_refused_because`)."""
    reduction = _prefix_reduction(kind, reduction, prefix)
    try:
        registry.get_reduction(kind.name, reduction)
    except ValueError as e:
        if not layer_route.layers_beyond_units(kind, reduction):
            bad_value("--reduction", str(e))
        if not route_refuses:
            bad_value("--reduction", f"reduction {reduction!r} has no units for box shape "
                                     f"{kind.name}: {layer_route.layers_refused_because(kind)}")
    return reduction


def _count_rectangles(kind, rows: int, as_json: bool, quiet: bool) -> None:
    """``count 1xN --rows K``: the K x N Latin rectangles, estimated first
    (:func:`counting.rectangles.count_rectangles`)."""
    say = (lambda msg: None) if (quiet or as_json) else (lambda msg: click.echo(msg, err=True))
    try:
        total = rectangles.count_rectangles(kind, rows, note=say)
    except (rectangles.RectanglesOutOfReach, plan.OutOfReach) as e:
        _json_error(as_json, str(e), 2)
        refuse(str(e))
    except ValueError as e:
        bad_value("--rows", str(e))
    n = kind.shape.n
    if as_json:
        click.echo(json.dumps({"rows": rows, "columns": n, **exact("latin_rectangles", total)}))
    elif quiet:
        click.echo(f"{total:,}")
    else:
        click.echo(f"{rows} x {n} Latin rectangles  {total:,}")


def _print_burnside(table, labels) -> None:
    """The Burnside table: one line per class that fixes a grid (its heads
    from the reduction's ``labels``)."""
    header = ("class", "size", labels.fixed_label, labels.term_label, "elements")
    rows = [(str(r.class_id), f"{r.size:,}", f"{r.fixed:,}", f"{r.weighted:,}", r.label)
            for r in table]
    widths = [max(len(x[i]) for x in [header, *rows]) for i in range(len(header))]
    click.echo("")
    for line in [header, *rows]:
        cells = [c.rjust(w) for c, w in zip(line[:4], widths)] + [line[4]]
        click.echo("  ".join(cells).rstrip())
    fixing = sum(1 for r in table if r.fixed)
    click.echo(f"{len(rows):,} classes have units and {fixing:,} of them fix some grid; the other "
               f"classes of the group provably fix none")


# count's options that have no meaning for --rows (a kernel count, no store, no run)
_NOT_WITH_ROWS = ("reduction", "prefix", "db", "unit_list", "fresh", "up_to_symmetry", "group", "no_memo",
                  "no_tail", "memo_mb_text", "private_memo", "allow_mismatch", "scheduler", "wait_workers", "kernel",
                  "workers", "force")


def _count_options(memo_mb_text: str, no_memo: bool, no_tail: bool) -> CountOptions:
    """The engine switches as one validated :class:`CountOptions`, or a
    one-line error naming --memo-mb."""
    try:
        memo_mb = float(memo_mb_text)
    except ValueError:
        bad_value("--memo-mb", f"{memo_mb_text!r} is not a number of MiB")
    if memo_mb < MEMO_MB_MIN:   # a table needs a few entries (nan is caught below)
        bad_value("--memo-mb", f"{memo_mb_text!r}: the smallest memo table is "
                                f"{MEMO_MB_MIN} MiB")
    try:
        return CountOptions(memo=not no_memo, memo_mb=memo_mb, tail=False if no_tail else None)
    except ValueError as e:
        bad_value("--memo-mb", f"{memo_mb_text!r}: {e}")


def _run_json(report: jobs.RunReport) -> dict:
    return {"units_counted": len(report.counted), "units_skipped": report.skipped,
            **exact("unit_solutions", report.unit_solutions),
            "wall_seconds": round(report.wall_seconds, 3),
            "unit_wall_seconds": round(report.unit_wall_seconds, 3), "workers": report.workers,
            **exact_map({"dead_ends": sum(r.dead_ends for r in report.counted),
                         "nodes": sum(r.nodes for r in report.counted),
                         "memo_hits": sum(r.memo_hits for r in report.counted)}),
            "in_process": report.in_process,
            "per_worker": [w.as_json() for w in report.per_worker.values()]}


def _print_run(report: jobs.RunReport, labels=None) -> None:
    """The run's table; ``labels``: the reduction's printed names (None: the
    grid count behind a symmetry identity, whose default names apply)."""
    wall = report.wall_seconds
    in_units = report.unit_wall_seconds
    sols = report.unit_solutions
    searched = [r for r in report.counted if r.searched]
    by_kernel = len(report.counted) - len(searched)
    rate = UnitResult.search_rate(report.counted)
    rows = [
        ("units counted now", f"{len(report.counted):,}"),
        ("units already in store", f"{report.skipped:,}"),
        *([(unit_sum, f"{sols:,}")] if (unit_sum := (labels or Labels()).unit_sum_label) else []),
        *([("search nodes", f"{sum(r.nodes for r in searched):,}"),
           ("dead ends", f"{sum(r.dead_ends for r in searched):,}"),
           ("memo hits", f"{sum(r.memo_hits for r in searched):,}")] if searched else []),
        *([("units counted by a kernel (no search)", f"{by_kernel:,}")] if by_kernel else []),
        ("wall time", f"{wall:,.1f} s"),
        ("time in units", f"{in_units:,.1f} s (wall, summed over units)"),
        *([("solutions a second, a worker (searched units)", f"{rate:,.0f} sol/s")]
          if rate is not None else []),
        ("workers", dask_stats.describe_workers(report.workers, report.per_worker)
         + (" (in this process)" if report.in_process else "")),
    ]
    print_table(rows + dask_stats.per_worker_rows(report.per_worker))
    if report.in_process:      # why, on a line of its own: a sentence, not a figure
        click.echo(report.in_process)


def _print_summary(s: jobs.Summary, path, quiet: bool = False) -> None:
    if s.complete:
        if quiet:
            click.echo(f"{s.total:,}")
            return
        click.echo("")
        print_table([
            *[(label, f"{value:,}") for label, value in s.factors],
            (s.sum_label, f"{s.weighted_sum:,}"),
            *[(f"÷ {label}", f"{value:,}") for label, value in s.divisors],
            (f"{s.shape} {s.total_label}", f"{s.total:,}"),
        ])
        if s.total == 0:
            click.echo(f"{s.shape} has no grid: each of its {s.n_units:,} units has no "
                       f"completion, so the count is 0")
        click.echo(f"units stored in {path}")
    else:
        click.echo(f"{s.done:,} of {s.n_units:,} units done ({s.classes_complete:,} of "
                   f"{s.n_classes:,} classes complete) in {path}; the total needs every unit.")


@click.command()
@click.argument("shape")
@click.option("--reduction", type=click.Choice(REDUCTIONS), default=None, help=REDUCTION_HELP)
@click.option("--prefix", default=None, metavar="PREFIX", help=PREFIX_OPTION_HELP)
@click.option("--force", is_flag=True, help="Allow grids larger than 16x16.")
@click.option("--json", "as_json", is_flag=True, help="JSON on stdout.")
@click.option("--group", "full_group", is_flag=True,
              help="Instead: the order of the kind's full symmetry group (the automorphisms "
                   "of its exact cover, by nauty: needs pynauty), today's group's, the index, "
                   "and what the full group adds.")
def classes(shape, reduction, prefix, force, as_json, full_group):
    """List the band-1 classes of SHAPE: id, representative, weight.

    \b
    Example:
        gridcount classes 3x3
        gridcount classes 3x3 --reduction 44 --json
        gridcount classes 2x3
        gridcount classes 2x2+x --prefix diagonals
        gridcount classes 3x3+disjoint --group
    """
    try:
        kind = as_kind(shape)
    except ValueError as e:
        bad_value("SHAPE", str(e))
    check_size(kind, force)
    if full_group:
        for other in ("reduction", "prefix"):
            not_together("full_group", other, "--group lists the group, not the classes")
        show_group(kind, as_json)
        return
    reduction = _checked_reduction(kind, reduction, prefix)
    if (notice := enumeration_notice(kind, reduction, force)) is not None:
        click.echo(notice, err=True)
    # 2x6's classes take minutes: say so when it is slow (a note, on a terminal)
    with say_if_slow(note, f"enumerating the classes of {shape} ..."):
        job = _load_job(shape, reduction, force)
        cls = job.classes
    text = job.reduction_object.representative_text
    if as_json:
        click.echo(json.dumps([{"class_id": c.class_id, **exact("weight", c.weight),
                                "representative": text(c)} for c in cls], indent=2))
        return
    reps = [" / ".join(text(c)) for c in cls]
    band_rows = len(cls[0].representative)
    title = labels_of(job.reduction_object).representative_label or (
        "representative (row 1)" if band_rows == 1 else f"representative (rows 1-{band_rows})")
    width = max(32, *(len(r) for r in reps))
    click.echo(f"{'class':>5}  {title:<{width}}  {'weight':>7}")
    for c, rep in zip(cls, reps):
        click.echo(f"{c.class_id:>5}  {rep:<{width}}  {c.weight:>7,}")
    click.echo(f"{len(cls):,} classes, weights sum to {sum(c.weight for c in cls):,} "
               f"{labels_of(job.reduction_object).members}")
