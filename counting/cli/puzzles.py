"""``gridcount count-solutions | check`` (and the registration of ``solve``,
``generate`` and ``explain``, which live in :mod:`counting.cli.solve`,
:mod:`counting.cli.generate` and :mod:`counting.cli.explain`).

A thin layer over :mod:`grids.puzzles`: read the file, call the library,
format the result.  :func:`register` adds the five puzzle commands to a
click group (``gridcount`` itself lists each command in
``counting.cli.COMMANDS`` and imports its module when it runs); what they
share is :mod:`counting.cli.puzzle_io`.

Conventions shared by the commands
----------------------------------
* Input: a FILE (or ``-`` for stdin) in the line format (one puzzle a line,
  ``N²`` symbols, ``.`` or ``0`` blank, ``#`` comments and blank lines
  skipped) or the hint-list format (a hint count, then ``row column digit``
  lines, rows and columns from 0), detected from the first line or forced
  with ``--format``; or one PUZZLE written out on the command line (an
  argument that is no file).  ``--shape RxC`` for other box shapes; digits
  past 9 are ``A``-``Z`` (10-35) in grids, so shapes of more than 35
  digits are refused.
* Every malformed puzzle is reported once: in the output in its place
  (``solve``, ``check``, and every ``--json``), else on stderr as ``line N:
  problem``; the rest of the file is still processed, and the summary on
  stderr names the malformed lines.
* Results go to stdout in input order, for people (aligned, thousands
  separators) or with ``--json`` for scripts; summaries and the progress
  bar (shown only on a terminal, after two seconds) go to stderr.
* Exit codes: 0 every puzzle has one solution, 1 some have none or several,
  2 malformed input (or a usage error).
"""
from __future__ import annotations

import json
import sys
import time

import click
import numpy as np

from counting.cli.common import CONTEXT_SETTINGS, not_together
from counting.cli.puzzle_io import (CHUNK, EXIT_MALFORMED, EXIT_NOT_UNIQUE, EXIT_OK,
                                    conflict_reason, exit_code, input_options, progress_bar,
                                    read_source, run_options, solve_file, summary)
from counting.cli.solve import solve
from counting.exact_json import exact
from dlx.api import COUNT_LIMIT_MAX
from grids import puzzles as P

__all__ = ["solve", "count_solutions", "check", "COMMANDS", "register",
           "EXIT_OK", "EXIT_NOT_UNIQUE", "EXIT_MALFORMED"]


def _tally(keys) -> dict:
    return {k: 0 for k in keys}


def _clues(grid: np.ndarray) -> int:
    return int(np.count_nonzero(grid))


# ----------------------------------------------------------------------
# count-solutions

@click.command(name="count-solutions", context_settings=CONTEXT_SETTINGS)
@input_options
@click.option("--limit", type=click.IntRange(min=1, max=COUNT_LIMIT_MAX),
              default=P.DEFAULT_LIMIT,
              show_default=True,
              help="Stop counting a puzzle at this many solutions and print '≥K'.")
@click.option("--no-limit", is_flag=True,
              help="Count exactly (memoized search, exact integers). A near-empty 9x9 grid "
                   "is then the full grid count and takes hours.")
@run_options
def count_solutions(source, shape, fmt, limit, no_limit, as_json, workers, no_progress):
    """Print the number of solutions of each puzzle in FILE ('-' for stdin), or of one PUZZLE.

    Counts are exact below --limit (default 1,000,000); a puzzle that reaches
    it is printed as '≥1,000,000'.  The empty 9x9 grid has
    6,670,903,752,021,072,936,960 completions, which plain enumeration would
    never finish; --no-limit counts exactly with memoized subproblems (the
    engine's 128-bit counters), fast for puzzles with a few dozen givens.

    \b
    Exit codes: 0 counted every puzzle; 2 malformed input (every bad line
    is reported) or bad usage.

    \b
    Example:
        gridcount count-solutions puzzles.txt
        gridcount count-solutions --limit 100 --json puzzles.txt
        gridcount count-solutions --no-limit --shape 2x3 six.txt
    """
    not_together("no_limit", "limit", "--no-limit counts exactly, --limit stops at K solutions")
    pf, _ = read_source(source, shape, fmt, errors_in_output=as_json)
    m = pf.grids.shape[0]
    counts = []
    # exact counts may take long each: the bar moves puzzle by puzzle
    step = 1 if no_limit else CHUNK * workers
    with progress_bar(m, no_progress) as bar:
        for lo in range(0, m, step):
            chunk = pf.grids[lo:lo + step]
            counts += P.count_batch(chunk, shape=pf.shape, limit=None if no_limit else limit,
                                    workers=workers).tolist()
            bar.update(len(chunk))
    capped = [not no_limit and c >= limit for c in counts]
    rows = []
    for e in pf.entries:
        if not e.ok:
            rows.append({"line": e.line, "status": "malformed", "error": e.error})
        else:
            rows.append({"line": e.line, "clues": _clues(pf.grids[e.index]),
                         **exact("solutions", counts[e.index]), "at_least": capped[e.index]})
    malformed = sum(1 for r in rows if r.get("status") == "malformed")
    if as_json:
        click.echo(json.dumps({"shape": pf.shape.name, **exact("limit", None if no_limit else limit),
                               "results": rows}, indent=1))
    else:
        texts = [("malformed" if r.get("status") else
                  ("≥" if r["at_least"] else "") + f"{r['solutions_int']:,}") for r in rows]
        w_line = max([4] + [len(f"{r['line']}") for r in rows])
        w_sol = max([9] + [len(t) for t in texts])
        click.echo(f"{'line':>{w_line}}  {'clues':>5}  {'solutions':>{w_sol}}")
        for r, t in zip(rows, texts):
            clues = f"{r['clues']:,}" if "clues" in r else ""
            click.echo(f"{r['line']:>{w_line}}  {clues:>5}  {t:>{w_sol}}")
    sys.exit(EXIT_MALFORMED if malformed else EXIT_OK)


# ----------------------------------------------------------------------
# check

@click.command(context_settings=CONTEXT_SETTINGS)
@input_options
@click.option("--quiet", "-q", is_flag=True, help="Only the summary line (and the exit code).")
@run_options
def check(source, shape, fmt, quiet, as_json, workers, no_progress):
    """Classify each puzzle in FILE ('-' for stdin), or one PUZZLE: none, unique or multiple.

    Prints 'line  clues  status' per puzzle (status none, unique, multiple
    or malformed) and a summary on stderr.

    \b
    Exit codes (for scripts):
        0  every puzzle has exactly one solution
        1  some puzzle has no solution or several
        2  malformed input (every bad line is reported) or bad usage

    \b
    Example:
        gridcount check puzzles.txt
        gridcount check -q puzzles.txt && echo all unique
        gridcount check --json puzzles.txt
    """
    not_together("quiet", "as_json", "--quiet prints only the summary line, --json everything")
    pf, _ = read_source(source, shape, fmt, errors_in_output=not quiet)
    t0 = time.perf_counter()
    batch = solve_file(pf, 2, workers, no_progress)
    status = batch.status if len(batch) else np.zeros(0, dtype=object)
    tally = _tally(["unique", "none", "multiple", "malformed"])
    rows = []
    for e in pf.entries:
        if not e.ok:
            row = {"line": e.line, "status": "malformed", "error": e.error}
        else:
            row = {"line": e.line, "clues": _clues(pf.grids[e.index]),
                   "status": str(status[e.index])}
            if batch.counts[e.index] < 0:
                row["reason"] = conflict_reason(pf, e.index)
        tally[row["status"]] += 1
        rows.append(row)
    seconds = time.perf_counter() - t0
    if as_json:
        click.echo(json.dumps({"shape": pf.shape.name, "results": rows, "summary": tally},
                              indent=1))
    elif not quiet:
        w = max([4] + [len(str(r["line"])) for r in rows])
        click.echo(f"{'line':>{w}}  {'clues':>5}  status")
        for r in rows:
            clues = f"{r['clues']:,}" if "clues" in r else ""
            extra = f"  ({r['reason']})" if r.get("reason") else ""
            extra = f"  ({r['error']})" if r.get("error") else extra
            click.echo(f"{r['line']:>{w}}  {clues:>5}  {r['status']}{extra}")
    if not as_json:
        click.echo(summary(tally, seconds, [e.line for e in pf.errors]), err=True)
    sys.exit(exit_code(tally))


# ----------------------------------------------------------------------

#: The commands defined here (``generate`` and ``explain`` are in their own modules).
COMMANDS = (solve, count_solutions, check)


def register(group: click.Group) -> None:
    """Add solve, count-solutions, check, generate and explain to ``group``
    (the last two imported here: ``solve`` does not load them, issue 37)."""
    from counting.cli.explain import explain
    from counting.cli.generate import generate
    for cmd in (*COMMANDS, generate, explain):
        group.add_command(cmd)
