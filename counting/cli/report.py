"""``gridcount report``: a page of charts and tables for one store.

A thin command over :func:`counting.report.write_report`.
"""
from __future__ import annotations

from pathlib import Path

import click

from counting.cli.common import Refused, check_outputs, fail, output_errors, refuse
from counting.outputs import why_not_written
from counting.report import FORMATS, ReportUnavailable, write_report
from counting.store.database import Store, StoreError, StoreRefused

__all__ = ["report"]

#: The format a report's file name asks for.
SUFFIX_FORMAT = {".md": "md", ".markdown": "md", ".html": "html", ".htm": "html"}


@click.command()
@click.argument("db", type=click.Path())
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False),
              help="File to write (required: report writes no file it is not given).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="html: one self-contained page (charts inline); md: Markdown with PNG "
                   "files in OUTPUT-files/ beside it [default: by OUTPUT's suffix (.md, "
                   ".markdown: md), else html].")
def report(db, out, fmt):
    """Write a report of a store: the job, its units, its workers, as charts and tables.

    Needs matplotlib (python -m pip install -e '.[report]' in the gridcount checkout).

    \b
    Example:
        gridcount report results/3x3-r71.sqlite -o report.html
        gridcount report results/3x3-r71.sqlite --format md -o results/3x3-report.md
    """
    path = Path(db)
    if not path.exists():
        refuse(f"{db}: no such store")
    try:   # the input first: "not a store" before anything about the output
        Store.open(path).close()
    except StoreRefused as e:   # not a store (exit code 2, as every refusal)
        refuse(str(e))
    except StoreError as e:     # damaged
        fail(str(e))
    if out is None:
        raise click.UsageError("name the report's file: -o FILE.html, or -o FILE.md for "
                               "Markdown (report writes no file it is not given)")
    suffix_fmt = SUFFIX_FORMAT.get(Path(out).suffix.lower())
    if fmt and suffix_fmt and fmt != suffix_fmt:
        raise Refused(f"{out}: a {Path(out).suffix} name for a --format {fmt} report; "
                      f"name it .{fmt} or leave --format out")
    fmt = fmt or suffix_fmt or "html"
    target = Path(out)
    check_outputs([path], [target])
    try:
        with output_errors():
            written = write_report(path, target, fmt)
    except StoreRefused as e:   # another job's (its reduction has changed since)
        refuse(str(e))
    except (ReportUnavailable, StoreError, ValueError) as e:
        fail(str(e))
    except OSError as e:
        fail(f"cannot write {target}: {why_not_written(e)}")
    click.echo(f"wrote {written}")
