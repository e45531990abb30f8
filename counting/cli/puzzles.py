"""``gridcount solve | count-solutions | check`` (and the registration of
``generate`` and ``explain``, which live in :mod:`counting.cli.generate` and
:mod:`counting.cli.explain`).

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

from counting.cli.common import CONTEXT_SETTINGS, not_together, only_with
from counting.cli.puzzle_io import (EXIT_MALFORMED, EXIT_NOT_UNIQUE, EXIT_OK, input_options,
                                    plural, progress_bar, read_source, run_options)
from counting.exact_json import exact
from dlx.api import COUNT_LIMIT_MAX
from grids import puzzles as P

__all__ = ["solve", "count_solutions", "check", "COMMANDS", "register",
           "EXIT_OK", "EXIT_NOT_UNIQUE", "EXIT_MALFORMED"]

_CHUNK = 2048


def _solve_file(pf: P.PuzzleFile, limit: int, workers: int, no_progress: bool) -> P.BatchResult:
    """The whole file through the batch engine, chunk by chunk for the bar
    (in one call when no bar is shown: no chunks to join); solutions of one
    byte a cell, as the file's grids are (no int64 copies, issue 37)."""
    m = pf.grids.shape[0]
    counts, sols = [], []
    with progress_bar(m, no_progress) as bar:
        step = max(m, 1) if bar.disable else _CHUNK * workers
        for lo in range(0, m, step):
            r = P.solve_batch(pf.grids[lo:lo + step], shape=pf.shape, limit=limit,
                              workers=workers, chunk_size=_CHUNK, dtype=np.uint8)
            counts.append(r.counts)
            sols.append(r.solutions)
            bar.update(len(r))
    n = pf.shape.n
    if not counts:
        return P.BatchResult(np.zeros(0, np.int64), np.zeros((0, n, n), np.uint8), limit)
    if len(counts) == 1:
        return P.BatchResult(counts[0], sols[0], limit)
    return P.BatchResult(np.concatenate(counts), np.concatenate(sols), limit)


def _conflict_reason(pf: P.PuzzleFile, index: int) -> str | None:
    return P.unit_conflict(pf.grids[index], pf.shape)


SUMMARY_LINES = 5   # malformed lines named in the summary, at most


def _summary(statuses: dict, seconds: float | None = None, malformed: tuple | list = ()) -> str:
    """``3 puzzles: 2 unique, 0 none, 0 multiple, 1 malformed (line 4) in 0.01 s``."""
    total = sum(statuses.values())
    parts = ", ".join(f"{v:,} {k}" for k, v in statuses.items())
    if malformed:
        shown = ", ".join(map(str, malformed[:SUMMARY_LINES]))
        more = ", ..." if len(malformed) > SUMMARY_LINES else ""
        parts += f" ({'line' if len(malformed) == 1 else 'lines'} {shown}{more})"
    rate = f" in {seconds:,.2f} s" if seconds is not None else ""
    return f"{plural(total, 'puzzle')}: {parts}{rate}"


def _exit_code(statuses: dict) -> int:
    if statuses.get("malformed"):
        return EXIT_MALFORMED
    if statuses.get("none") or statuses.get("multiple"):
        return EXIT_NOT_UNIQUE
    return EXIT_OK


def _tally(keys) -> dict:
    return {k: 0 for k in keys}


def _clues(grid: np.ndarray) -> int:
    return int(np.count_nonzero(grid))


# ----------------------------------------------------------------------
# solve

@click.command(context_settings=CONTEXT_SETTINGS)
@input_options
@click.option("--all", "all_solutions", is_flag=True,
              help="Print every solution of each puzzle (up to --limit), "
                   "after a '# line N' header.")
@click.option("--limit", type=click.IntRange(min=1), default=100, show_default=True,
              help="With --all: at most this many solutions per puzzle.")
@click.option("--first", is_flag=True,
              help="Print the first solution found without checking uniqueness "
                   "(faster; exit code 1 then means only 'no solution').")
@run_options
def solve(source, shape, fmt, all_solutions, limit, first, as_json, workers, no_progress):
    """Solve every puzzle in FILE ('-' for stdin), or one PUZZLE, one solution a line.

    Output has one line per puzzle, in input order: its solution when it has
    exactly one, otherwise a comment line saying so ('# line 7: no
    solution', '# line 9: more than one solution'), or what is wrong with
    it ('# line 5: malformed: ...').  With --all each puzzle gets a header
    line '# line N: K solutions' and its solutions (at most --limit).

    Input, detected from the first line or set with --format: one puzzle a
    line (N² symbols, '.' or '0' blank, digits 1-9 then A-Z for 10-35, so a
    16x16 grid uses 1-9 and A-G; '#' comments and blank lines skipped), or
    hint lists: a line with the number of hints, then one 'row column digit'
    line per hint (rows and columns from 0, digits 1..N as numbers or the
    letters above); puzzles may follow one another.  An argument that is no
    file is read as one PUZZLE written out.  The other commands read the
    same formats.

    \b
    Exit codes: 0 every puzzle has exactly one solution; 1 some have none
    or several; 2 malformed input (every bad line is reported) or bad usage.

    \b
    Example:
        gridcount solve puzzles.txt > solutions.txt
        gridcount solve --all --limit 10 puzzles.txt
        gridcount solve --shape 2x3 --format hints six.txt
    """
    if first and all_solutions:
        raise click.UsageError("use just one of --first and --all")
    only_with("limit", "--all", all_solutions, "it caps the solutions --all prints")
    pf, _ = read_source(source, shape, fmt, errors_in_output=True)
    t0 = time.perf_counter()
    batch = _solve_file(pf, 1 if first else 2, workers, no_progress)
    tally = _solve_tally(batch.counts, first, len(pf.errors))
    if not (as_json or all_solutions):
        # the common run: solution lines straight from the batch's bytes,
        # a document only for a puzzle without one (issue 37)
        text = _lean_text(pf, batch, first)
        if text:
            click.echo(text, nl=False)
        click.echo(_summary(tally, time.perf_counter() - t0, [e.line for e in pf.errors]),
                   err=True)
        sys.exit(_exit_code(tally))
    counts = batch.counts.tolist()
    lines = P.format_lines(batch.solutions)     # the whole batch's text at once
    results = []
    for e in pf.entries:
        if not e.ok:
            results.append({"line": e.line, "status": "malformed", "error": e.error})
            continue
        doc = _solve_doc(pf, e.line, e.index, counts[e.index], first)
        if doc["status"] in ("unique", "solved"):
            doc["solution"] = lines[e.index]
        if all_solutions and counts[e.index] > 0:
            # one more than printed, to know whether the list is complete
            sols = P.solutions(pf.grids[e.index], shape=pf.shape, limit=limit + 1)
            doc["solutions"] = [P.format_line(s) for s in sols[:limit]]
            doc["count"] = min(len(sols), limit)
            doc["at_least"] = len(sols) > limit
        results.append(doc)
    seconds = time.perf_counter() - t0
    if as_json:
        click.echo(json.dumps({"shape": pf.shape.name, "format": pf.format, "results": results,
                               "summary": tally}, indent=1))
    else:
        out = []
        for doc in results:
            out += _solve_lines(doc, all_solutions, limit)
        if out:
            click.echo("\n".join(out))     # one write, not one per puzzle
        click.echo(_summary(tally, seconds, [e.line for e in pf.errors]), err=True)
    sys.exit(_exit_code(tally))


def _solve_tally(counts: np.ndarray, first: bool, malformed: int) -> dict:
    """The summary's counts by status (``solved``/``none`` with ``--first``)."""
    found = int(np.count_nonzero(counts > 0))
    if first:
        return {"solved": found, "none": counts.size - found, "malformed": malformed}
    unique = int(np.count_nonzero(counts == 1))
    return {"unique": unique, "none": counts.size - found, "multiple": found - unique,
            "malformed": malformed}


def _solve_doc(pf: P.PuzzleFile, line: int, index: int, count: int, first: bool) -> dict:
    """The result document of a puzzle that was read (its status, and why
    it has no solution when its givens repeat a digit; no solution text)."""
    doc: dict = {"line": line}
    if count <= 0:
        doc["status"] = "none"
        if count < 0:
            doc["reason"] = _conflict_reason(pf, index)
    elif first:
        doc["status"] = "solved"
    else:
        doc["status"] = "unique" if count == 1 else "multiple"
    return doc


def _lean_text(pf: P.PuzzleFile, batch: P.BatchResult, first: bool) -> bytes:
    """``solve``'s output without --json or --all, in input order: the
    solution line of each puzzle solved (unique, or any with --first), the
    lines of its document for any other, as one ASCII text.

    The solutions are one block of bytes (:func:`grids.grid.format_block`);
    the runs of solved puzzles between the others are slices of it, so a
    file of 50,000 puzzles makes no string or document per puzzle."""
    counts = batch.counts
    block = P.format_block(batch.solutions)
    width = pf.shape.n_cells + 1                  # bytes of a line
    others = np.flatnonzero(counts <= 0 if first else counts != 1).tolist()
    if not others and not pf.entries.errors:
        return block                            # every puzzle solved: no copy
    rows = memoryview(block)                    # slices of it copy nothing
    lines = pf.entries.lines
    chunks: list = []                           # bytes and memoryviews
    row = 0             # the next row of the block to write
    other = 0           # the next of `others`

    def rows_until(stop: int) -> None:
        nonlocal row, other
        while other < len(others) and others[other] < stop:
            k = others[other]
            other += 1
            chunks.append(rows[row * width:k * width])
            doc = _solve_doc(pf, int(lines[k]), k, int(counts[k]), first)
            chunks.append(_text_lines(_solve_lines(doc, False, 0)))
            row = k + 1
        chunks.append(rows[row * width:stop * width])
        row = stop

    # the j-th malformed puzzle (from 0) at place p of the file follows p - j puzzles read
    for j, (place, e) in enumerate(pf.entries.errors):
        rows_until(place - j)
        chunks.append(_text_lines(_solve_lines(
            {"line": e.line, "status": "malformed", "error": e.error}, False, 0)))
    rows_until(len(counts))
    return b"".join(chunks)


def _text_lines(lines: list[str]) -> bytes:
    return "".join(line + "\n" for line in lines).encode("utf-8")


def _solve_lines(doc: dict, all_solutions: bool, limit: int) -> list[str]:
    """The output lines of one puzzle's result document."""
    line, status = doc["line"], doc["status"]
    if status == "malformed":
        return [f"# line {line}: malformed: {doc['error']}"]
    if status == "none":
        why = f" ({doc['reason']})" if doc.get("reason") else ""
        return [f"# line {line}: no solution{why}"]
    if all_solutions:
        k = doc["count"]
        more = f" (at least; --limit {limit})" if doc["at_least"] else ""
        return [f"# line {line}: {plural(k, 'solution')}{more}", *doc["solutions"]]
    if status == "multiple":
        return [f"# line {line}: more than one solution (--all lists them)"]
    return [doc["solution"]]


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
    step = 1 if no_limit else _CHUNK * workers
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
    batch = _solve_file(pf, 2, workers, no_progress)
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
                row["reason"] = _conflict_reason(pf, e.index)
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
        click.echo(_summary(tally, seconds, [e.line for e in pf.errors]), err=True)
    sys.exit(_exit_code(tally))


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
