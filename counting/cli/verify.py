"""The ``verify`` command: every reachable shape counted and compared with
its published total (a thin layer over :func:`counting.verify.verify`)."""
from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

import click

from counting import job as jobs
from counting.cli.common import (Terminated, bad_value, check_outputs, fail, output_errors,
                                 refuse, sigterm_stops_like_ctrl_c)
from counting.run.pool import default_workers

__all__ = ["verify"]


@click.command()
@click.option("--all", "all_shapes", is_flag=True,
              help="Add the long rows (minutes): the shapes 1x8, 2x4, 4x2, 3x3, 2x5 and 1x9, "
                   "Windoku under its full group, Latin squares' main and isomorphism "
                   "classes of orders 8 and 9, loops of orders 7 and 8.")
@click.option("--shapes", default=None, help="Only these shapes, e.g. 2x3,3x2.")
@click.option("--workers", "-w", type=click.IntRange(min=1), default=None,
              help="Worker processes [default: number of cores; a shape estimated at a few "
                   "seconds is counted in this process].")
@click.option("--json", "as_json", is_flag=True, help="JSON on stdout.")
@click.option("--report", type=click.Path(dir_okay=False), default=None,
              help="Also write the table and this machine's description as Markdown.")
def verify(all_shapes, shapes, workers, as_json, report):
    """Count every reachable shape and compare with the published totals.

    Each shape is counted from scratch by the normal counting path (default
    reduction, temporary store, process pool), then (without --shapes) the
    essentially different grids of Latin squares of orders 4-7, 2x2 and 2x3
    (and 2x4, 1x8, 3x3 and 1x9 with --all) by Burnside's lemma, and with
    --all Windoku's under its full group (SudokuP's is listed), then Latin
    squares' main classes and isomorphism classes of orders 4-7 (8 and 9
    with --all) and loops up to isomorphism of orders 4-6 (7 and 8 with --all).

    Exit codes: 0 every row counted agrees (the default table's rows not
    counted, each with its reason, included); 1 a total disagrees with its
    published value or a count fails; 2 a usage error, or a shape named by
    --shapes not counted here (out of reach, or a long job for `gridcount
    count`), so not verified: the last line names each, why, and what
    counts it instead.

    \b
    Example:
        gridcount verify                       # the quick shapes, seconds
        gridcount verify --all                 # adds 1x8, 2x4, 4x2, 3x3, 2x5 and 1x9
        gridcount verify --shapes 2x3,3x2 --json
    """
    from counting import verify as verifying

    if shapes is not None and all_shapes:
        raise click.UsageError("use either --shapes or --all")
    chosen = [s for s in shapes.split(",") if s.strip()] if shapes is not None \
        else verifying.default_shapes(all_shapes)
    if not chosen:
        raise click.BadParameter("no shape given", param_hint="--shapes")
    # essentially different grids: with the default shapes, not with --shapes
    sym = [] if shapes is not None else verifying.default_symmetry_shapes(all_shapes)
    full = [] if shapes is not None else verifying.default_full_group_shapes(all_shapes)
    rects = [] if shapes is not None else verifying.default_rectangles(all_shapes)
    latin = [] if shapes is not None else verifying.default_latin_classes(all_shapes)
    check_outputs([], [report])
    small_here = workers is None   # without --workers a small shape is counted in this process
    workers = workers or default_workers()
    say = (lambda msg: None) if as_json else (lambda msg: click.echo(msg, err=True))
    machine = jobs.describe_machine()
    if hasattr(os, "getloadavg"):  # other work on the machine slows the timings
        machine["load_average_at_start"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    done: list = []

    def on_row(r) -> None:
        done.append(r)
        if r.not_counted is not None:   # never started: its reason is under the table
            say(f"{r.label}: not counted here (see below the table)")
        else:
            say(f"  {r.label}: {r.status} ({r.seconds:,.2f} s)")

    try:
        with sigterm_stops_like_ctrl_c():
            rows = verifying.verify(chosen, workers=workers, symmetry_shapes=sym, rectangles=rects,
                                    on_start=lambda sh: say(f"counting {sh} ..."), on_row=on_row,
                                    in_process_if_small=small_here, full_group_shapes=full,
                                    latin_classes=latin, note=say)
    except KeyboardInterrupt as e:
        how = "terminated" if isinstance(e, Terminated) else "interrupted"
        bad = [r.label for r in done if r.failed]
        outcome = "" if not done else \
            f" ({len(bad)} failed or disagree: {', '.join(bad)})" if bad else \
            " (all agree with the published totals)"
        asked = len(chosen) + len(sym) + len(full) + len(rects)
        click.echo(f"\n{how}: {len(done)} of {asked} shapes verified{outcome}; "
                   f"verify keeps nothing, run it again to check them all.", err=True)
        sys.exit(128 + (signal.SIGTERM if isinstance(e, Terminated) else signal.SIGINT))
    except ValueError as e:   # a shape of --shapes (each is checked before any count)
        bad_value("--shapes", str(e))
    if hasattr(os, "getloadavg"):
        machine["load_average_at_end"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    # rows named by --shapes and not counted are not verified (the default table's are listed)
    named_missed = [r for r in rows if r.not_counted is not None] if shapes is not None else []
    if as_json:
        click.echo(json.dumps({"shapes": [r.as_json() for r in rows],
                               "all_agree": not any(r.failed for r in rows),
                               "not_verified": [r.label for r in named_missed],
                               "workers": workers, "machine": machine}, indent=2))
    else:
        click.echo(verifying.format_table(rows))
    if report:
        command = "gridcount verify" + (" --all" if all_shapes else "") + \
            (f" --shapes {shapes}" if shapes else "") + f" --workers {workers}"
        with output_errors():
            verifying.write_markdown(Path(report), rows, machine, command)
    missed = None if not named_missed else (
        f"{len(named_missed)} of {len(rows)} shapes named by --shapes not counted here, so not "
        f"verified: {verifying.not_counted_line(named_missed)}; the reasons in full are under "
        f"the table")
    bad = [r for r in rows if r.failed]
    if bad:
        if missed:
            click.echo(missed, err=True)
        fail(f"{len(bad)} of {len(rows)} shapes failed or disagree with the published totals: "
             f"{', '.join(r.label for r in bad)}")
    if missed:
        refuse(missed)
