"""``gridcount status | export | merge | recount``: what a store holds.

Thin commands over :mod:`counting.job` and :mod:`counting.store`: open the
store, call the library, format the result.
"""
from __future__ import annotations

import json
from pathlib import Path

import click

from counting import job as jobs
from counting.cli import fail, print_table
from counting.options import CountOptions
from counting.store import Store, StoreError

__all__ = ["status", "export", "merge", "recount"]


def _open_store(path: str) -> Store:
    try:
        return Store.open(Path(path))
    except StoreError as e:
        fail(str(e))


def _job_of(store: Store, db: str) -> jobs.Job:
    try:
        return jobs.Job.for_store(store)
    except ValueError as e:
        fail(f"{db}: {e}")


def _int(n: int | None) -> str:
    return "—" if n is None else f"{n:,}"


@click.command()
@click.argument("db", type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="JSON on stdout.")
def status(db, as_json):
    """Show what a store holds and what remains.

    \b
    Example:
        gridcount status results/3x3-r71.sqlite
    """
    with _open_store(db) as store:
        job = _job_of(store, db)
        s = jobs.summarise(store, job)
        remaining = store.remaining_ids()
    if as_json:
        doc = s.as_json()
        doc["remaining"] = remaining
        click.echo(json.dumps(doc, indent=2))
        return
    print_table([
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
        click.echo(f"remaining units: {jobs.format_unit_list(remaining)}")


@click.command()
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
        job = _job_of(store, db)
        default_csv, default_json = jobs.default_export_paths(job)
        csv_path = Path(csv_path) if csv_path else default_csv
        json_path = Path(json_path) if json_path else default_json
        for p in (csv_path, json_path):
            if not p.parent.exists():
                fail(f"directory {p.parent} does not exist")
        s = jobs.export(store, csv_path, json_path, job)
    click.echo(f"wrote {csv_path} ({s.done:,} units) and {json_path} "
               f"(total {_int(s.total)})")


@click.command()
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
    with _open_store(db) as store:
        try:
            rep = jobs.recount(store, sample, seed=seed, options=CountOptions(memo=not no_memo))
        except ValueError as e:
            fail(str(e))
    for u, stored, again in rep.checked:
        mark = "ok" if stored == again else "MISMATCH"
        click.echo(f"unit {u:>4}: stored {stored:>12,}  recounted {again:>12,}  {mark}")
    if rep.mismatches:
        fail(f"{len(rep.mismatches)} of {len(rep.checked)} recounted units disagree with the store")
    click.echo(f"all {len(rep.checked)} recounted units agree")
