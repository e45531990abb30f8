"""``gridcount solve``: the solution of each puzzle, one a line.

A thin layer over :mod:`grids.puzzles`: read the file, call the library,
format the result (the conventions the puzzle commands share are in
:mod:`counting.cli.puzzles`; their helpers in :mod:`counting.cli.puzzle_io`).

A plain file (every line ``N²`` symbols, the common case) solved without
``--json``, ``--all``, ``--workers`` or a progress bar is read, solved and
written as bytes by :mod:`grids.puzzles.plain`, so ``solve FILE`` imports no
NumPy (a third of tdoku's whole run on the 17-clue file, issue 37).  Any
other input goes through :class:`~grids.puzzles.PuzzleFile` and
:func:`~grids.puzzles.solve_batch`, on the same kernel and the same output
routine (:func:`_lean_text`), so both ways print the same bytes.
"""
from __future__ import annotations

import json
import sys
import time
from typing import Callable

import click

from counting.cli.common import CONTEXT_SETTINGS, only_with
from counting.cli.puzzle_io import (bar_shows, conflict_reason, exit_code, input_options, plural,
                                    read_input, read_source, run_options, solve_file, summary)
from grids import puzzles as P
from grids.puzzles.plain import MAX_DIGITS, read_plain, solve_plain
from grids.shape import Shape
from grids.symbols import text_shape

__all__ = ["solve"]


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
    data = read_input(source)
    if data is not None and not (as_json or all_solutions or workers > 1 or fmt == "hints"
                                 or bar_shows(no_progress)):
        _solve_plain(data, shape, first)      # exits, unless the file is not plain
    pf, _ = read_source(source, shape, fmt, errors_in_output=True, data=data)
    t0 = time.perf_counter()
    batch = solve_file(pf, 1 if first else 2, workers, no_progress)
    tally = _solve_tally(batch.counts.tolist(), first, len(pf.errors))
    if not (as_json or all_solutions):
        # the common run: solution lines straight from the batch's bytes,
        # a document only for a puzzle without one (issue 37)
        lines = pf.entries.lines
        text = _lean_text(P.format_block(batch.solutions), batch.counts.tolist(),
                          pf.shape.n_cells, first, lambda k: int(lines[k]), pf.entries.errors,
                          lambda k: conflict_reason(pf, k))
        if text:
            click.echo(text, nl=False)
        click.echo(summary(tally, time.perf_counter() - t0, [e.line for e in pf.errors]),
                   err=True)
        sys.exit(exit_code(tally))
    counts = batch.counts.tolist()
    lines = P.format_lines(batch.solutions)     # the whole batch's text at once
    results = []
    for e in pf.entries:
        if not e.ok:
            results.append({"line": e.line, "status": "malformed", "error": e.error})
            continue
        doc = _solve_doc(e.line, counts[e.index], first,
                         lambda k=e.index: conflict_reason(pf, k))
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
        click.echo(summary(tally, seconds, [e.line for e in pf.errors]), err=True)
    sys.exit(exit_code(tally))


def _solve_plain(data: bytes, shape: Shape | None, first: bool) -> None:
    """``solve``'s run on a plain file (:func:`grids.puzzles.plain.read_plain`),
    without NumPy: its output, its summary and its exit; returns only when
    the file is not plain (or its grids are too large for the board kernel),
    for the reading that says what is in it."""
    s = text_shape(shape)
    grids = read_plain(data, s.n) if s.n <= MAX_DIGITS else None
    if grids is None:
        return
    nn = s.n_cells
    t0 = time.perf_counter()
    counts, block = solve_plain(grids, s, 1 if first else 2, text=True)
    counts = counts.tolist()
    tally = _solve_tally(counts, first, 0)
    text = _lean_text(block, counts, nn, first, lambda k: k + 1, [],
                      lambda k: P.unit_conflict(list(grids[k * nn:(k + 1) * nn]), s))
    click.echo(text, nl=False)
    click.echo(summary(tally, time.perf_counter() - t0), err=True)
    sys.exit(exit_code(tally))


def _solve_tally(counts: list[int], first: bool, malformed: int) -> dict:
    """The summary's counts by status (``solved``/``none`` with ``--first``);
    ``counts`` as the batch gives them (-1 for repeated givens), at most 2."""
    none = counts.count(0) + counts.count(-1)
    if first:
        return {"solved": len(counts) - none, "none": none, "malformed": malformed}
    unique = counts.count(1)
    return {"unique": unique, "none": none, "multiple": len(counts) - none - unique,
            "malformed": malformed}


def _solve_doc(line: int, count: int, first: bool,
               reason: Callable[[], str | None]) -> dict:
    """The result document of a puzzle that was read (its status, and why
    it has no solution when its givens repeat a digit, ``reason()``; no
    solution text)."""
    doc: dict = {"line": line}
    if count <= 0:
        doc["status"] = "none"
        if count < 0:
            doc["reason"] = reason()
    elif first:
        doc["status"] = "solved"
    else:
        doc["status"] = "unique" if count == 1 else "multiple"
    return doc


def _lean_text(block: bytes, counts: list[int], width: int, first: bool,
               line_of: Callable[[int], int], errors: list,
               reason_of: Callable[[int], str | None]) -> bytes:
    """``solve``'s output without --json or --all, in input order: the
    solution line of each puzzle solved (unique, or any with --first), the
    lines of its document for any other, as one ASCII text.

    ``block``: the first solution of every puzzle read, ``width`` symbols
    and a newline each (:func:`grids.symbols.text_block`); ``counts`` their
    counts; ``line_of(k)`` the line of puzzle ``k``, ``reason_of(k)`` why it
    has none when its givens repeat a digit; ``errors`` the malformed
    puzzles, ``(place in the file's entries, entry)``.  The runs of solved
    puzzles between the others are slices of the block, so a file of
    50,000 puzzles makes no string or document per puzzle."""
    solved = len(counts) - counts.count(0) - counts.count(-1) if first else counts.count(1)
    if solved == len(counts) and not errors:
        return block                            # every puzzle solved: no copy
    others = [k for k, c in enumerate(counts) if (c <= 0 if first else c != 1)]
    rows = memoryview(block)                    # slices of it copy nothing
    width += 1                                  # bytes of a line
    chunks: list = []                           # bytes and memoryviews
    row = 0             # the next row of the block to write
    other = 0           # the next of `others`

    def rows_until(stop: int) -> None:
        nonlocal row, other
        while other < len(others) and others[other] < stop:
            k = others[other]
            other += 1
            chunks.append(rows[row * width:k * width])
            doc = _solve_doc(line_of(k), counts[k], first, lambda: reason_of(k))
            chunks.append(_text_lines(_solve_lines(doc, False, 0)))
            row = k + 1
        chunks.append(rows[row * width:stop * width])
        row = stop

    # the j-th malformed puzzle (from 0) at place p of the file follows p - j puzzles read
    for j, (place, e) in enumerate(errors):
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
