"""The ``gridcount`` command line: a thin layer over :mod:`counting.job`.

Every command opens what it needs, calls the library and formats the
result; errors become one line on stderr and a non-zero exit.
"""
from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
from pathlib import Path

import click

from counting import dask_pool
from counting import job as jobs
from counting.puzzle_cli import register as register_puzzle_commands
from counting.store import StoreError, Store
from dlx.sudoku import ALPHABET

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}
REDUCTIONS = ["moves", "patterns", "71", "44"]
REDUCTION_HELP = ("Band-1 classes: 'moves' (the five moves; the default, '71' for 3x3) or "
                  "'patterns' (column-set patterns; '44' for 3x3).")


def _fail(msg: str) -> None:
    raise click.ClickException(msg)


class Terminated(KeyboardInterrupt):
    """SIGTERM during a count: stopped in the same orderly way as Ctrl-C."""


def _raise_terminated(signum, frame) -> None:
    raise Terminated()


@contextlib.contextmanager
def _sigterm_stops_like_ctrl_c():
    """While counting, SIGTERM (a batch scheduler's or ``kill``'s stop) raises
    :class:`Terminated`, so the pool is shut down and every finished unit
    stays committed, instead of the process dying with its workers
    orphaned.  Outside the main thread signals cannot be caught: no-op."""
    try:
        previous = signal.signal(signal.SIGTERM, _raise_terminated)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _load_job(shape: str, reduction: str | None, force: bool = False) -> jobs.Job:
    try:
        return jobs.Job.load(shape, reduction, force=force)
    except ValueError as e:
        _fail(str(e))


def _open_store(path: str) -> Store:
    try:
        return Store.open(Path(path))
    except StoreError as e:
        _fail(str(e))


def _row_text(row) -> str:
    """A row of digits as text grids write it (1-9, then A-Z)."""
    return "".join(ALPHABET[d - 1] for d in row)


def _int(n: int | None) -> str:
    return "—" if n is None else f"{n:,}"


@click.group(context_settings=CONTEXT_SETTINGS)
@click.version_option(package_name="gridcount")
def cli() -> None:
    """Count Sudoku grids exactly, by dancing links over equivalence classes.

    \b
    Example:
        gridcount count 3x3            # all 9x9 grids, resumable
        gridcount status results/3x3-r71.sqlite
    """


@cli.command()
@click.argument("shape")
@click.option("--reduction", type=click.Choice(REDUCTIONS), default=None, help=REDUCTION_HELP)
@click.option("--force", is_flag=True, help="Allow grids larger than 16x16.")
@click.option("--workers", "-w", type=click.IntRange(min=1), default=None,
              help="Worker processes [default: number of cores].")
@click.option("--db", type=click.Path(dir_okay=False), default=None,
              help="Store of finished units [default: results/SHAPE-rREDUCTION.sqlite].")
@click.option("--units", "unit_list", default=None, help="Only these unit ids, e.g. 0-9,15.")
@click.option("--fresh", is_flag=True, help="Delete the store first and count everything again.")
@click.option("--no-memo", is_flag=True,
              help="Plain dancing links: no memoized subproblem counts, no closed-form last band.")
@click.option("--no-tail", is_flag=True,
              help="Search the last band instead of counting it in closed form.")
@click.option("--memo-mb", type=click.FloatRange(min=0.01), default=16.0, show_default=True,
              help="Memo table size per worker, in MiB.")
@click.option("--allow-mismatch", is_flag=True,
              help="Continue a store written by another engine version.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar, no class log; only the result.")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON on stdout.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Run the units on a Dask cluster: tcp://HOST:PORT of a running scheduler, "
                   "or local[:N] to start N worker processes here (needs gridcount[dask]).")
def count(shape, reduction, force, workers, db, unit_list, fresh, no_memo, no_tail, memo_mb,
          allow_mismatch, quiet, no_progress, as_json, scheduler):
    """Count all grids of box shape SHAPE (RxC), resuming from the store.

    Units already in the store are skipped; Ctrl-C (exit 130) or SIGTERM
    (exit 143) keeps every finished unit and a re-run of the same command
    resumes.

    \b
    Example:
        gridcount count 3x3
        gridcount count 3x3 --reduction 44 --workers 2
        gridcount count 3x3 --units 0-9 --db /tmp/part.sqlite
        gridcount count 2x4            # 8x8 grids, boxes of 2 rows x 4 columns
        gridcount count 1x7            # Latin squares of order 7
        gridcount count 3x3 --scheduler tcp://HOST:8786
    """
    if scheduler is not None:
        if workers is not None:
            raise click.UsageError("--workers sets the local pool; with --scheduler the cluster's "
                                   "workers count (local:N starts N)")
        try:
            dask_pool.parse_scheduler(scheduler)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--scheduler")
    job = _load_job(shape, reduction, force)
    path = Path(db) if db else jobs.default_db_path(job.shape, job.reduction)
    workers = workers or jobs.pool.default_workers()
    try:
        ids = jobs.parse_unit_list(unit_list, job.n_units) if unit_list else None
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--units")
    if fresh:
        for suffix in ("", "-wal", "-shm"):
            p = Path(str(path) + suffix)
            if p.exists():
                p.unlink()
    if not db:
        path.parent.mkdir(parents=True, exist_ok=True)
    try:
        store = Store.create_or_open(path, job.info(), allow_mismatch=allow_mismatch)
    except StoreError as e:
        _fail(str(e))
    log = (lambda msg: None) if (quiet or as_json) else None
    progress = False if (quiet or no_progress or as_json) else None
    with store:
        try:
            with _sigterm_stops_like_ctrl_c():
                report = jobs.run_count(job, store, workers=workers, unit_ids=ids,
                                        memo=not no_memo, memo_mb=memo_mb, progress=progress,
                                        log=log, scheduler=scheduler,
                                        tail=False if no_tail else None)
        except KeyboardInterrupt as e:
            n = len(store)
            how = "terminated" if isinstance(e, Terminated) else "interrupted"
            click.echo(f"\n{how}: {n:,} of {job.n_units:,} units are safely in {path}; "
                       f"run the same command again to resume.", err=True)
            # the shell's convention: 128 + the signal's number
            sys.exit(128 + (signal.SIGTERM if isinstance(e, Terminated) else signal.SIGINT))
        except (StoreError, dask_pool.DaskPoolError) as e:
            _fail(str(e))
        summary = jobs.summarise(store, job)
    if as_json:
        doc = summary.as_json()
        doc["run"] = _run_json(report)
        click.echo(json.dumps(doc, indent=2))
        return
    if not quiet:
        _print_run(report)
    _print_summary(summary, path, quiet=quiet)


def _run_json(report: jobs.RunReport) -> dict:
    return {"units_counted": len(report.counted), "units_skipped": report.skipped,
            "unit_solutions": str(report.unit_solutions), "wall_seconds": round(report.wall_seconds, 3),
            "cpu_seconds": round(report.cpu_seconds, 3), "workers": report.workers,
            "dead_ends": sum(r.dead_ends for r in report.counted),
            "nodes": sum(r.nodes for r in report.counted),
            "memo_hits": sum(r.memo_hits for r in report.counted),
            "per_worker": [w.as_json() for w in report.per_worker.values()]}


def _print_run(report: jobs.RunReport) -> None:
    wall = report.wall_seconds
    cpu = report.cpu_seconds
    sols = report.unit_solutions
    rows = [
        ("units counted now", f"{len(report.counted):,}"),
        ("units already in store", f"{report.skipped:,}"),
        ("unit solutions (unweighted)", f"{sols:,}"),
        ("search nodes", f"{sum(r.nodes for r in report.counted):,}"),
        ("dead ends", f"{sum(r.dead_ends for r in report.counted):,}"),
        ("memo hits", f"{sum(r.memo_hits for r in report.counted):,}"),
        ("wall time", f"{wall:,.1f} s"),
        ("CPU time in units", f"{cpu:,.1f} s"),
        ("solutions per second per worker",
         f"{sols / cpu:,.0f} sol/s" if cpu > 0 else "—"),
        ("workers", f"{report.workers}"),
    ]
    _table(rows + dask_pool.per_worker_rows(report.per_worker))


def _table(rows) -> None:
    width = max(len(k) for k, _ in rows)
    vwidth = max(len(v) for _, v in rows)
    for k, v in rows:
        click.echo(f"{k:<{width}}  {v:>{vwidth}}")


def _print_summary(s: jobs.Summary, path, quiet: bool = False) -> None:
    if s.complete:
        if quiet:
            click.echo(f"{s.total:,}")
            return
        click.echo("")
        _table([
            ("relabel box 1 (N!)", f"{s.relabel:,}"),
            ("reduce band 1", f"{s.band:,}"),
            ("reduce column 1", f"{s.column:,}"),
            ("Σ class weight × Σ unit counts", f"{s.weighted_sum:,}"),
            (f"{s.shape} grids", f"{s.total:,}"),
        ])
    else:
        click.echo(f"{s.done:,} of {s.n_units:,} units done ({s.classes_complete} of "
                   f"{s.n_classes} classes complete) in {path}; the total needs every unit.")


@cli.command()
@click.argument("shape")
@click.option("--reduction", type=click.Choice(REDUCTIONS), default=None, help=REDUCTION_HELP)
@click.option("--force", is_flag=True, help="Allow grids larger than 16x16.")
@click.option("--json", "as_json", is_flag=True, help="JSON on stdout.")
def classes(shape, reduction, force, as_json):
    """List the band-1 classes of SHAPE: id, representative, weight.

    \b
    Example:
        gridcount classes 3x3
        gridcount classes 3x3 --reduction 44 --json
        gridcount classes 2x3
    """
    job = _load_job(shape, reduction, force)
    cls = job.classes
    text = _row_text
    if as_json:
        click.echo(json.dumps([{"class_id": c.class_id, "weight": c.weight,
                                "representative": [text(row) for row in c.representative]}
                               for c in cls], indent=2))
        return
    reps = [" / ".join(text(row) for row in c.representative) for c in cls]
    band_rows = len(cls[0].representative)
    title = "representative (row 1)" if band_rows == 1 else f"representative (rows 1-{band_rows})"
    width = max(32, *(len(r) for r in reps))
    click.echo(f"{'class':>5}  {title:<{width}}  {'weight':>7}")
    for c, rep in zip(cls, reps):
        click.echo(f"{c.class_id:>5}  {rep:<{width}}  {c.weight:>7,}")
    click.echo(f"{len(cls)} classes, weights sum to {sum(c.weight for c in cls):,} reduced bands")


@cli.command()
@click.argument("db", type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="JSON on stdout.")
def status(db, as_json):
    """Show what a store holds and what remains.

    \b
    Example:
        gridcount status results/3x3-r71.sqlite
    """
    with _open_store(db) as store:
        try:
            job = jobs.Job.for_store(store)
        except ValueError as e:
            _fail(f"{db}: {e}")
        s = jobs.summarise(store, job)
        remaining = store.remaining_ids()
    if as_json:
        doc = s.as_json()
        doc["remaining"] = remaining
        click.echo(json.dumps(doc, indent=2))
        return
    _table([
        ("store", str(db)),
        ("shape / reduction", f"{s.shape} / {s.reduction} classes"),
        ("engine version", s.engine_version),
        ("units done", f"{s.done:,} of {s.n_units:,}"),
        ("classes complete", f"{s.classes_complete} of {s.n_classes}"),
        ("unit solutions so far", f"{s.unit_solutions:,}"),
        ("CPU time so far", f"{s.cpu_seconds:,.1f} s"),
        ("hosts", ", ".join(s.hosts) or "—"),
        ("total", _int(s.total)),
    ])
    if remaining:
        click.echo(f"remaining units: {_ranges(remaining)}")


def _ranges(ids: list[int]) -> str:
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


@cli.command()
@click.argument("db", type=click.Path())
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), default=None,
              help="Per-unit counts [default: results/SHAPE-units.csv; SHAPE-rREDUCTION-units.csv "
                   "for a non-default reduction].")
@click.option("--json", "json_path", type=click.Path(dir_okay=False), default=None,
              help="Summary [default: results/SHAPE.json; SHAPE-rREDUCTION.json for a "
                   "non-default reduction].")
def export(db, csv_path, json_path):
    """Write a store's per-unit counts (CSV) and summary (JSON).

    \b
    Example:
        gridcount export results/3x3-r71.sqlite
        gridcount export part.sqlite --csv part.csv --json part.json
    """
    with _open_store(db) as store:
        job = jobs.Job.for_store(store)
        stem = jobs.default_export_stem(job)
        csv_path = Path(csv_path) if csv_path else Path("results") / f"{stem}-units.csv"
        json_path = Path(json_path) if json_path else Path("results") / f"{stem}.json"
        for p in (csv_path, json_path):
            if not p.parent.exists():
                _fail(f"directory {p.parent} does not exist")
        s = jobs.export(store, csv_path, json_path, job)
    click.echo(f"wrote {csv_path} ({s.done:,} units) and {json_path} "
               f"(total {_int(s.total)})")


@cli.command()
@click.argument("target", type=click.Path(dir_okay=False))
@click.argument("sources", nargs=-1, required=True, type=click.Path(dir_okay=False))
def merge(target, sources):
    """Merge the stores SOURCES into TARGET (created if missing).

    A unit whose counts disagree between stores is reported and nothing of
    that source is written.

    \b
    Example:
        gridcount merge all.sqlite machine1.sqlite machine2.sqlite
    """
    try:
        rows = jobs.merge(Path(target), [Path(s) for s in sources])
    except StoreError as e:
        _fail(str(e))
    for path, added, same in rows:
        click.echo(f"{path}: {added:,} units added, {same:,} already present with equal counts")


@cli.command()
@click.argument("db", type=click.Path())
@click.option("--sample", "-k", type=click.IntRange(min=1), default=10, show_default=True,
              help="How many finished units to recount.")
@click.option("--seed", type=int, default=None, help="Seed for choosing the sample.")
@click.option("--no-memo", is_flag=True, help="Recount with plain dancing links (slow, independent).")
def recount(db, sample, seed, no_memo):
    """Recount a random sample of finished units; fail on any mismatch.

    \b
    Example:
        gridcount recount results/3x3-r71.sqlite --sample 20 --seed 1
    """
    with _open_store(db) as store:
        try:
            rep = jobs.recount(store, sample, seed=seed, memo=not no_memo)
        except ValueError as e:
            _fail(str(e))
    for u, stored, again in rep.checked:
        mark = "ok" if stored == again else "MISMATCH"
        click.echo(f"unit {u:>4}: stored {stored:>12,}  recounted {again:>12,}  {mark}")
    if rep.mismatches:
        _fail(f"{len(rep.mismatches)} of {len(rep.checked)} recounted units disagree with the store")
    click.echo(f"all {len(rep.checked)} recounted units agree")


@cli.command()
@click.option("--all", "all_shapes", is_flag=True,
              help="Add the long shapes: 2x4, 4x2 and 3x3 (minutes).")
@click.option("--shapes", default=None, help="Only these shapes, e.g. 2x3,3x2.")
@click.option("--workers", "-w", type=click.IntRange(min=1), default=None,
              help="Worker processes [default: number of cores].")
@click.option("--json", "as_json", is_flag=True, help="JSON on stdout.")
@click.option("--report", type=click.Path(dir_okay=False), default=None,
              help="Also write the table and this machine's description as Markdown.")
def verify(all_shapes, shapes, workers, as_json, report):
    """Count every reachable shape and compare with the published totals.

    Each shape is counted from scratch by the normal counting path (default
    reduction, temporary store, process pool).  Exit code 1 if any total
    disagrees with its published value or a count fails.

    \b
    Example:
        gridcount verify                       # the quick shapes, seconds
        gridcount verify --all                 # adds 2x4, 4x2 and 3x3
        gridcount verify --shapes 2x3,3x2 --json
    """
    from counting import verify as verifying

    if shapes is not None and all_shapes:
        raise click.UsageError("use either --shapes or --all")
    chosen = [s for s in shapes.split(",") if s.strip()] if shapes is not None \
        else verifying.default_shapes(all_shapes)
    if not chosen:
        raise click.BadParameter("no shape given", param_hint="--shapes")
    if report and not Path(report).parent.exists():
        _fail(f"directory {Path(report).parent} does not exist")
    workers = workers or jobs.pool.default_workers()
    say = (lambda msg: None) if as_json else (lambda msg: click.echo(msg, err=True))
    machine = jobs.describe_machine()
    if hasattr(os, "getloadavg"):  # other work on the machine slows the timings
        machine["load_average_at_start"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    try:
        rows = verifying.verify(
            chosen, workers=workers, on_start=lambda sh: say(f"counting {sh} ..."),
            on_row=lambda r: say(f"  {r.shape}: {r.status} ({r.seconds:,.2f} s)"))
    except ValueError as e:
        _fail(str(e))
    if hasattr(os, "getloadavg"):
        machine["load_average_at_end"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    if as_json:
        click.echo(json.dumps({"shapes": [r.as_json() for r in rows],
                               "all_agree": not any(r.failed for r in rows),
                               "workers": workers, "machine": machine}, indent=2))
    else:
        click.echo(verifying.format_table(rows))
    if report:
        command = "gridcount verify" + (" --all" if all_shapes else "") + \
            (f" --shapes {shapes}" if shapes else "") + f" --workers {workers}"
        verifying.write_markdown(Path(report), rows, machine, command)
    bad = [r for r in rows if r.failed]
    if bad:
        _fail(f"{len(bad)} of {len(rows)} shapes failed or disagree with the published totals: "
              f"{', '.join(r.shape for r in bad)}")


register_puzzle_commands(cli)


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="gridcount")


if __name__ == "__main__":  # pragma: no cover
    main()
