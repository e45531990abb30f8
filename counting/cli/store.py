"""``gridcount status | export | merge | recount``: what a store holds.

Thin commands over :mod:`counting.job` and :mod:`counting.store.database`: open the
store, call the library, format the result.  ``status``, ``export`` and
``recount`` open the store read-only: they write nothing but the files
``export`` is asked for, create nothing beside the store, and run while a
``count`` holds the store.
"""
from __future__ import annotations

import contextlib
import json
import shutil
from pathlib import Path

import click

from counting import job as jobs
from counting import recount as recounting
from counting.cli.common import check_outputs, fail, output_errors, print_table, refuse
from counting.group.group_note import note_for
from counting.outputs import why_not_written, write_atomic
from counting.options import CountOptions
from counting.store import exchange
from counting.store.database import FORMAT_VERSION, Store, StoreError, StoreRefused
from counting.unit_ids import format_unit_list
from counting.store.lock import holder

__all__ = ["status", "export", "merge", "recount"]

#: Characters ``status`` gives the remaining ids however narrow the terminal.
MIN_LIST_WIDTH = 40


def _open_store(path: str) -> Store:
    with _store_errors():
        return Store.open(Path(path))


@contextlib.contextmanager
def _store_errors():
    """A store error as one line: a refusal (exit code 2) for what is not a
    store or is another job's, a failure (1) for a damaged row..."""
    try:
        yield
    except StoreRefused as e:
        refuse(str(e))
    except StoreError as e:
        fail(str(e))


def _job_of(store: Store, db: str) -> jobs.Job:
    """The store's job; a job this gridcount does not make (a kind or a
    reduction it does not know, another number of units) is a refusal."""
    try:
        return jobs.Job.for_store(store)
    except ValueError as e:
        refuse(f"{db}: {e}")


def _int(n: int | None) -> str:
    return "—" if n is None else f"{n:,}"


@click.command()
@click.argument("db", type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="JSON on stdout.")
def status(db, as_json):
    """Show what a store holds, what remains, and whether a count or merge
    is running on it (read without taking its lock).

    \b
    Example:
        gridcount status results/3x3-r71.sqlite
    """
    with _open_store(db) as store, _store_errors():
        job = _job_of(store, db)
        s = jobs.summarise(store, job)
        remaining = store.remaining_ids()
        version = store.format_version
    running = holder(db)
    group = note_for(job.reduction_object)     # None unless it counts orbits
    if as_json:
        doc = s.as_json()
        doc["remaining"] = None if s.foreign_units else remaining   # None: cannot be said
        doc["foreign_units"] = s.foreign_units
        doc["total_refused"] = s.total_refused   # why "total" is null although complete
        doc["store_format"] = version
        doc["running"] = running
        doc["recount_method"] = job.reduction_object.recount_method()
        doc["symmetry_group"] = None if group is None else group.as_json()
        click.echo(json.dumps(doc, indent=2))
        return
    print_table([
        ("store", str(db)),
        ("shape", s.shape),
        ("reduction", s.reduction),
        ("engine version", s.engine_version),
        ("units done", f"{s.done:,} of {s.n_units:,}"),
        ("classes complete", f"{s.classes_complete:,} of {s.n_classes:,}"),
        ("unit solutions so far", f"{s.unit_solutions:,}"),
        ("unit time so far", f"{s.unit_wall_seconds:,.1f} s (wall, summed over units)"),
        ("hosts", ", ".join(s.hosts) or "—"),
        *([("identity (unit 0)", s.identity.describe())] if s.identity else []),
        *(group.rows() if group else []),
        ("recount by", job.reduction_object.recount_method()),
        (f"total ({s.total_label})", _int(s.total)),     # last: what a reader looks for
    ])
    if s.foreign_note:   # its ids are not this gridcount's units: none can be said to remain
        click.echo(f"{db}: {s.foreign_note}")
    elif remaining:   # cut to the terminal's width (--json lists every id)
        head = f"remaining unit{'s' * (len(remaining) != 1)} (ids): "
        width = max(shutil.get_terminal_size().columns - len(head), MIN_LIST_WIDTH)
        click.echo(head + format_unit_list(remaining, width=width))
    if running:
        click.echo(_running_line(running))
    if version < FORMAT_VERSION:
        click.echo(f"store format {version}: its rows carry no checksum, so they were read "
                   f"unchecked; the next count or merge into it upgrades it to format "
                   f"{FORMAT_VERSION}")


def _running_line(info: dict) -> str:
    """What ``status`` says of a count or merge holding the store's lock."""
    who = f"pid {info.get('pid')} on host {info.get('host')} since {info.get('since')}"
    if info.get("unverified"):
        return (f"lock file: being {info.get('doing', 'counted')} by {who} (another host: "
                f"cannot tell from here whether it still runs)")
    return f"running now: being {info.get('doing', 'counted')} by {who}"


@click.command()
@click.argument("db", type=click.Path())
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), default=None,
              help="Write the per-unit counts (CSV) to this file.")
@click.option("--summary", "summary_path", type=click.Path(dir_okay=False), default=None,
              help="Write the summary (JSON) to this file.")
@click.option("--output-dir", "-o", type=click.Path(file_okay=False), default=None,
              help="Write the CSV and the summary not named by --csv or --summary into this "
                   "directory (created if missing) under their default names: SHAPE-units.csv "
                   "and SHAPE.json (SHAPE-rREDUCTION-... for a non-default reduction).")
@click.option("--units", "units_path", type=click.Path(dir_okay=False), default=None,
              help="Write the finished units as a checked units export (JSON: the job, "
                   "every unit's row and checksum) that gridcount merge takes into any store.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the summary (and the files written) as JSON on stdout.")
def export(db, csv_path, summary_path, output_dir, units_path, as_json):
    """Write what a store holds to the files named: its per-unit counts
    (--csv), its summary (--summary), both under their default names in a
    directory (--output-dir), its finished units as a checked export to
    resume from elsewhere (--units).  Nothing else is written: --units
    alone writes the units export alone.

    \b
    Example:
        gridcount export results/3x3-r71.sqlite -o results   # results/3x3-units.csv, 3x3.json
        gridcount export part.sqlite --csv part.csv --summary part.json
        gridcount export /tmp/p.sqlite --json                # the summary on stdout only
        gridcount export results/3x3-r71.sqlite --units results/3x3-r71-done.json
    """
    with _open_store(db) as store, _store_errors():   # the input first: is it a store?
        job = _job_of(store, db)
        if not (csv_path or summary_path or output_dir or units_path or as_json):
            raise click.UsageError(
                "name what to write: --csv FILE, --summary FILE, --units FILE, or "
                "--output-dir DIR for the CSV and the summary under their default names "
                "(export writes no file it is not asked for)")
        s = jobs.summarise(store, job)   # a damaged store is refused before anything is created
        if output_dir:
            directory = Path(output_dir)
            try:
                directory.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                fail(f"cannot create directory {directory}: {e.strerror or e}")
            default_csv, default_summary = jobs.default_export_paths(job, directory)
            csv_path = csv_path or default_csv
            summary_path = summary_path or default_summary
        csv_path, summary_path, units_path = (Path(p) if p else None
                                              for p in (csv_path, summary_path, units_path))
        check_outputs([db], [csv_path, summary_path, units_path])
        units = exchange.units_export(store) if units_path else None
        if csv_path or summary_path:
            try:
                s = jobs.export(store, csv_path, summary_path, job)
            except OSError as e:
                fail(f"cannot write {e.filename}: {why_not_written(e)}")
        if units_path:
            with output_errors():
                write_atomic({units_path: units})
    written = {"csv": csv_path, "summary": summary_path, "units": units_path}
    if as_json:
        doc = s.as_json()
        doc["files"] = {k: str(v) for k, v in written.items() if v}
        click.echo(json.dumps(doc, indent=2))
        return
    total = "not computed here" if s.total_refused else _int(s.total)   # the line below: why
    said = {"csv": f"{csv_path} ({s.done:,} units)", "summary": f"{summary_path} (total "
            f"{total})", "units": f"{units_path} ({s.done:,} finished units, checked)"}
    wrote = [said[k] for k, v in written.items() if v]
    click.echo(f"wrote {' and '.join(wrote)}" if len(wrote) < 3 else
               f"wrote {', '.join(wrote[:-1])} and {wrote[-1]}")
    if s.foreign_note:   # why its summary has no total, or its units are not ours
        click.echo(f"{db}: {s.foreign_note}")


@click.command()
@click.argument("target", type=click.Path(dir_okay=False))
@click.argument("sources", nargs=-1, required=True, type=click.Path(dir_okay=False))
def merge(target, sources):
    """Merge the stores or units exports SOURCES into TARGET (created if missing).

    All or nothing: every source is read and checked first, then all are
    merged in one transaction.  A source that is damaged, of another job, or
    disagrees on a unit's count is named with the reason, and nothing is
    written.  A unit already in TARGET with the same count is left as it is,
    so merging twice changes nothing.  TARGET is locked like a count: a
    merge into a store that is being counted or merged into is refused.

    \b
    Example:
        gridcount merge all.sqlite machine1.sqlite machine2.sqlite
        gridcount merge results/3x3-r71.sqlite results/3x3-r71-done.json
    """
    try:
        rows = exchange.merge_paths(Path(target), [Path(s) for s in sources])
    except (StoreRefused, exchange.SameFileError) as e:   # locked, or of another job
        refuse(str(e))
    except StoreError as e:
        fail(str(e))
    for path, added, same in rows:
        click.echo(f"{path}: {added:,} units added, {same:,} already present with equal counts")


@click.command()
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
    with _open_store(db) as store, _store_errors():
        try:
            rep = recounting.recount(store, sample, seed=seed,
                                     options=CountOptions(memo=not no_memo))
        except recounting.RecountRefused as e:
            refuse(str(e))
        except ValueError as e:
            fail(str(e))
    click.echo(f"recounted by {rep.method}")
    for u, why in rep.not_recounted.items():
        click.echo(f"unit {u:>4}: not recounted here: {why}")
    for u, stored, again in rep.checked:
        mark = "ok" if stored == again else "MISMATCH"
        click.echo(f"unit {u:>4}: stored {stored:>12,}  recounted {again:>12,}  {mark}")
    if rep.mismatches:
        fail(f"{len(rep.mismatches):,} of {len(rep.checked):,} recounted units disagree "
             f"with the store")
    click.echo(f"all {len(rep.checked):,} recounted units agree")
