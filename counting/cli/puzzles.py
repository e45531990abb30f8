"""``gridcount solve | count-solutions | check | generate | explain``.

A thin layer over :mod:`grids.puzzles`: read the file, call the library,
format the result.  :func:`register` adds the commands to a click group
(``counting.cli`` calls ``register(cli)``).

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
* Every malformed puzzle is reported on stderr as ``line N: problem``, and
  in the output in its place; the rest of the file is still processed.
* Results go to stdout in input order, for people (aligned, thousands
  separators) or with ``--json`` for scripts; summaries and the progress
  bar (shown only on a terminal, after two seconds) go to stderr.
* Exit codes: 0 every puzzle has one solution, 1 some have none or several,
  2 malformed input (or a usage error).
"""
from __future__ import annotations

import json
import os
import secrets
import sys
import time

import click
import numpy as np
from tqdm import tqdm

from grids import puzzles as P
from dlx.api import COUNT_LIMIT_MAX
from grids.grid import text_shape
from counting.cli.common import CONTEXT_SETTINGS, not_together, only_with, refuse
from grids.shape import Shape

_SOURCE = "FILE|PUZZLE"
EXIT_OK, EXIT_NOT_UNIQUE, EXIT_MALFORMED = 0, 1, 2
_CHUNK = 2048


# ----------------------------------------------------------------------
# shared options and helpers

def _parse_shape(ctx, param, value) -> Shape | None:
    if value is None:
        return None
    try:
        return text_shape(Shape.parse(value))
    except ValueError as e:
        raise click.BadParameter(str(e), ctx=ctx, param_hint="--shape")


def _shape_option(f):
    return click.option("--shape", default=None, metavar="RxC", callback=_parse_shape,
                        help="Box shape, e.g. 2x3 for 6x6 grids  [default: 3x3].")(f)


def _input_options(f):
    f = click.option("--format", "fmt", type=click.Choice(P.FORMATS),
                     default="auto", show_default=True,
                     help="Input format: one puzzle a line, or hint lists "
                          "(count, then 'row column digit' lines).")(f)
    f = _shape_option(f)
    f = click.argument("source", metavar=_SOURCE)(f)
    return f


def _run_options(f):
    f = click.option("--no-progress", is_flag=True, help="No progress bar.")(f)
    f = click.option("--workers", "-w", type=click.IntRange(min=1), default=1, show_default=True,
                     help="Threads (the engine runs without the GIL).")(f)
    f = click.option("--json", "as_json", is_flag=True, help="JSON on stdout.")(f)
    return f


def _read(source: str, shape: Shape | None, fmt: str) -> tuple[P.PuzzleFile, bool]:
    """The puzzles of SOURCE and whether they came from a file.

    SOURCE is ``-`` (stdin), an existing file, or else one puzzle written
    out; anything else is one error line naming both readings.
    """
    if source == "-" or os.path.exists(source):
        try:
            with click.open_file(source, "rb") as f:
                data = f.read()
        except OSError as e:
            raise click.BadParameter(f"cannot read {source!r}: {(e.strerror or str(e)).lower()}",
                                     param_hint=_SOURCE)
        pf = P.parse_puzzles(data.decode("utf-8", errors="replace"), shape=shape, format=fmt)
        for e in pf.errors:
            click.echo(f"line {e.line}: {e.error}", err=True)
        if pf.grids.shape[0] == 0 and not pf.errors:
            # "0 puzzles" and exit 0 would tell `check` the file is all unique
            refuse(f"{'standard input' if source == '-' else source} holds no puzzle "
                   f"(empty, or only blank and comment lines)")
        return pf, True
    try:
        return P.parse_puzzle(source, shape=shape), False
    except ValueError as e:
        shown = source if len(source) <= 100 else f"{source[:40]}...{source[-40:]}"
        hint = "" if shape else "; --shape RxC for other box shapes"
        raise click.BadParameter(f"{shown!r} is neither a file nor a puzzle ({e}{hint})",
                                 param_hint=_SOURCE)


def _bar(total: int, no_progress: bool, unit: str = "puzzle"):
    # disable=None: hidden when stderr is not a terminal; delay: only on
    # files that take more than a couple of seconds
    return tqdm(total=total, unit=unit, file=sys.stderr, delay=2.0, leave=False,
                disable=True if no_progress else None, unit_scale=True)


def _solve_file(pf: P.PuzzleFile, limit: int, workers: int, no_progress: bool) -> P.BatchResult:
    """The whole file through the batch engine, chunk by chunk (for the bar)."""
    m = pf.grids.shape[0]
    counts, sols = [], []
    step = _CHUNK * workers
    with _bar(m, no_progress) as bar:
        for lo in range(0, m, step):
            r = P.solve_batch(pf.grids[lo:lo + step], shape=pf.shape, limit=limit,
                              workers=workers, chunk_size=_CHUNK)
            counts.append(r.counts)
            sols.append(r.solutions)
            bar.update(len(r))
    n = pf.shape.n
    if not counts:
        return P.BatchResult(np.zeros(0, np.int64), np.zeros((0, n, n), np.int64), limit)
    return P.BatchResult(np.concatenate(counts), np.concatenate(sols), limit)


def _conflict_reason(pf: P.PuzzleFile, index: int) -> str | None:
    return P.unit_conflict(pf.grids[index], pf.shape)


def _summary(statuses: dict, seconds: float | None = None) -> str:
    total = sum(statuses.values())
    parts = ", ".join(f"{v:,} {k}" for k, v in statuses.items())
    rate = f" in {seconds:,.2f} s" if seconds is not None else ""
    return f"{_plural(total, 'puzzle')}: {parts}{rate}"


def _exit_code(statuses: dict) -> int:
    if statuses.get("malformed"):
        return EXIT_MALFORMED
    if statuses.get("none") or statuses.get("multiple"):
        return EXIT_NOT_UNIQUE
    return EXIT_OK


def _tally(keys) -> dict:
    return {k: 0 for k in keys}


def _plural(k: int, word: str) -> str:
    return f"{k:,} {word}" + ("" if k == 1 else "s")


def _clues(grid: np.ndarray) -> int:
    return int(np.count_nonzero(grid))


# ----------------------------------------------------------------------
# solve

@click.command(context_settings=CONTEXT_SETTINGS)
@_input_options
@click.option("--all", "all_solutions", is_flag=True,
              help="Print every solution of each puzzle (up to --limit), "
                   "after a '# line N' header.")
@click.option("--limit", type=click.IntRange(min=1), default=100, show_default=True,
              help="With --all: at most this many solutions per puzzle.")
@click.option("--first", is_flag=True,
              help="Print the first solution found without checking uniqueness "
                   "(faster; exit code 1 then means only 'no solution').")
@_run_options
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
    pf, _ = _read(source, shape, fmt)
    t0 = time.perf_counter()
    batch = _solve_file(pf, 1 if first else 2, workers, no_progress)
    tally = _tally(["solved", "none"] if first else ["unique", "none", "multiple"])
    tally["malformed"] = 0
    results = []
    for e in pf.entries:
        if not e.ok:
            tally["malformed"] += 1
            results.append({"line": e.line, "status": "malformed", "error": e.error})
            continue
        count = int(batch.counts[e.index])
        doc: dict = {"line": e.line}
        if count <= 0:
            doc["status"] = "none"
            if count < 0:
                doc["reason"] = _conflict_reason(pf, e.index)
        elif first:
            doc["status"] = "solved"
        else:
            doc["status"] = "unique" if count == 1 else "multiple"
        if doc["status"] in ("unique", "solved"):
            doc["solution"] = P.format_line(batch.solutions[e.index])
        if all_solutions and count > 0:
            # one more than printed, to know whether the list is complete
            sols = P.solutions(pf.grids[e.index], shape=pf.shape, limit=limit + 1)
            doc["solutions"] = [P.format_line(s) for s in sols[:limit]]
            doc["count"] = min(len(sols), limit)
            doc["at_least"] = len(sols) > limit
        tally[doc["status"]] += 1
        results.append(doc)
    seconds = time.perf_counter() - t0
    if as_json:
        click.echo(json.dumps({"shape": pf.shape.name, "format": pf.format, "results": results,
                               "summary": tally}, indent=1))
    else:
        for doc in results:
            _print_solve(doc, all_solutions, limit)
        click.echo(_summary(tally, seconds), err=True)
    sys.exit(_exit_code(tally))


def _print_solve(doc: dict, all_solutions: bool, limit: int) -> None:
    line, status = doc["line"], doc["status"]
    if status == "malformed":
        click.echo(f"# line {line}: malformed: {doc['error']}")
    elif status == "none":
        why = f" ({doc['reason']})" if doc.get("reason") else ""
        click.echo(f"# line {line}: no solution{why}")
    elif all_solutions:
        k = doc["count"]
        more = f" (at least; --limit {limit})" if doc["at_least"] else ""
        click.echo(f"# line {line}: {_plural(k, 'solution')}{more}")
        for s in doc["solutions"]:
            click.echo(s)
    elif status == "multiple":
        click.echo(f"# line {line}: more than one solution (--all lists them)")
    else:
        click.echo(doc["solution"])


# ----------------------------------------------------------------------
# count-solutions

@click.command(name="count-solutions", context_settings=CONTEXT_SETTINGS)
@_input_options
@click.option("--limit", type=click.IntRange(min=1, max=COUNT_LIMIT_MAX),
              default=P.DEFAULT_LIMIT,
              show_default=True,
              help="Stop counting a puzzle at this many solutions and print '≥K'.")
@click.option("--no-limit", is_flag=True,
              help="Count exactly (memoized search, exact integers). A near-empty 9x9 grid "
                   "is then the full grid count and takes hours.")
@_run_options
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
    pf, _ = _read(source, shape, fmt)
    m = pf.grids.shape[0]
    counts = []
    # exact counts may take long each: the bar moves puzzle by puzzle
    step = 1 if no_limit else _CHUNK * workers
    with _bar(m, no_progress) as bar:
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
                         "solutions": counts[e.index], "at_least": capped[e.index]})
    malformed = sum(1 for r in rows if r.get("status") == "malformed")
    if as_json:
        click.echo(json.dumps({"shape": pf.shape.name, "limit": None if no_limit else limit,
                               "results": rows}, indent=1))
    else:
        texts = [("malformed" if r.get("status") else
                  ("≥" if r["at_least"] else "") + f"{r['solutions']:,}") for r in rows]
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
@_input_options
@click.option("--quiet", "-q", is_flag=True, help="Only the summary line (and the exit code).")
@_run_options
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
    pf, _ = _read(source, shape, fmt)
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
        click.echo(_summary(tally, seconds), err=True)
    sys.exit(_exit_code(tally))


# ----------------------------------------------------------------------
# generate

@click.command(context_settings=CONTEXT_SETTINGS)
@click.option("--clues", "-n", type=click.IntRange(min=0), default=None,
              help="Clues per puzzle (required unless --minimal).")
@click.option("--count", "-k", type=click.IntRange(min=1), default=1, show_default=True,
              help="How many puzzles.")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Seed; the same seed gives the same puzzles [default: random, printed].")
@click.option("--symmetric", is_flag=True, help="Clues symmetric under a 180° rotation.")
@click.option("--minimal", is_flag=True,
              help="Remove clues until none can go (with --clues: minimal puzzles of that size).")
@click.option("--max-seconds", type=float, default=30.0, show_default=True,
              help="Give up on a puzzle after this long.")
@click.option("--output-format", "out_fmt", type=click.Choice(["line", "hints"]), default="line",
              show_default=True, help="Write puzzles one a line, or as hint lists.")
@_shape_option
@click.option("--json", "as_json", is_flag=True,
              help="JSON on stdout (with solutions and timings).")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
def generate(clues, count, seed, symmetric, minimal, max_seconds, out_fmt, shape, as_json,
             no_progress):
    """Make puzzles with a unique solution and exactly --clues clues.

    Each puzzle starts from a random full grid (the engine's first solution
    with its rows in a seeded random order) and removes clues in a random
    order while the solution stays unique.  A grid that cannot get down to
    --clues is replaced by a new one until --max-seconds; puzzles that could
    not be made are reported on stderr (exit code 1).  Deterministic for a
    given --seed (puzzle i uses the i-th child of the seed), unless time
    runs out.

    \b
    Example:
        gridcount generate --clues 25 --count 10 --seed 1
        gridcount generate --clues 24 --symmetric --seed 7
        gridcount generate --minimal --count 5 --seed 3
    """
    if clues is None and not minimal:
        raise click.UsageError("give --clues N, or --minimal")
    not_together("as_json", "out_fmt", "--json writes the puzzles as JSON")
    try:
        P.check_generate_args(None, minimal=True, max_seconds=max_seconds)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--max-seconds")
    try:
        s = P.check_generate_args(clues, minimal=minimal, shape=shape)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--clues")
    if seed is None:
        seed = secrets.randbits(63)
        if not as_json:
            click.echo(f"seed {seed}", err=True)
    made, failed = [], 0
    t0 = time.perf_counter()
    with _bar(count, no_progress) as bar:
        for i, g in enumerate(P.generate_many(count, clues, seed=seed, symmetric=symmetric,
                                              minimal=minimal, max_seconds=max_seconds,
                                              shape=s)):
            bar.update(1)
            if not g.ok:
                failed += 1
                what = f"{clues}-clue " if clues is not None else ""
                bar.write(f"puzzle {i + 1}: no unique {what}puzzle found in {g.seconds:,.1f} s "
                          f"({_plural(g.attempts, 'grid')} tried)", file=sys.stderr)
            made.append((i, g))
            if g.ok and not as_json:
                text = (P.format_line(g.puzzle) + "\n" if out_fmt == "line"
                        else P.format_hints(g.puzzle))
                tqdm.write(text, file=sys.stdout, end="")
    seconds = time.perf_counter() - t0
    if as_json:
        click.echo(json.dumps({
            "seed": seed, "shape": s.name, "clues": clues, "symmetric": symmetric,
            "minimal": minimal, "failed": failed, "seconds": round(seconds, 4),
            "puzzles": [{"index": i, "puzzle": P.format_line(g.puzzle) if g.ok else None,
                         "solution": P.format_line(g.solution) if g.ok else None,
                         "clues": g.clues, "grids_tried": g.attempts,
                         "uniqueness_checks": g.checks, "seconds": round(g.seconds, 4)}
                        for i, g in made]}, indent=1))
    else:
        ok = count - failed
        click.echo(f"{_plural(ok, 'puzzle')} in {seconds:,.2f} s "
                   f"({seconds / count * 1000:,.1f} ms each)"
                   + (f"; {failed:,} not made" if failed else ""), err=True)
    sys.exit(EXIT_NOT_UNIQUE if failed else EXIT_OK)


# ----------------------------------------------------------------------
# explain

def _grid_block(arr: np.ndarray, s) -> str:
    """A grid for people: box boundaries drawn, '.' for blanks."""
    n = s.n
    rows = []
    for r in range(n):
        if r and s.box_rows > 1 and r % s.box_rows == 0:
            rows.append("-+-".join(["-" * (2 * s.box_cols - 1)] * (n // s.box_cols)))
        cells = [P.format_line(arr[r * n + c: r * n + c + 1]) for c in range(n)]
        groups = [" ".join(cells[c:c + s.box_cols]) for c in range(0, n, s.box_cols)]
        rows.append(" | ".join(groups) if s.box_cols < n else " ".join(cells))
    return "\n".join(rows)


def _explain_json(e: P.Explanation, unique: str) -> dict:
    n = e.shape.n
    return {"puzzle": P.format_line(e.puzzle),
            "solution": P.format_line(e.solution) if e.solved else None,
            "solutions": unique, "reason": e.reason,
            "steps": [{"rule": st.rule, "depth": st.depth, "text": st.text,
                       "placement": (None if st.placement is None else
                                     [*P.cell_rc(st.placement[0], n), st.placement[1]]),
                       "eliminations": [[*P.cell_rc(k, n), d] for k, d in st.eliminations]}
                      for st in e.steps],
            "rules": e.counts, "branches": e.branches, "backtracks": e.backtracks}


@click.command(context_settings=CONTEXT_SETTINGS)
@click.argument("source", metavar=_SOURCE)
@click.option("--stats", is_flag=True,
              help="Only the table of rule counts (summed over every puzzle of a file).")
@_shape_option
@click.option("--format", "fmt", type=click.Choice(P.FORMATS), default="auto",
              show_default=True, help="Input format of a FILE.")
@click.option("--workers", "-w", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes for --stats on a file (the rules run in Python).")
@click.option("--json", "as_json", is_flag=True, help="JSON on stdout.")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
def explain(source, stats, shape, fmt, workers, as_json, no_progress):
    """Solve a PUZZLE step by step with human-style rules.

    The PUZZLE is a grid on the command line, or the argument is a FILE
    ('-' for stdin) whose puzzles are explained one after another.  Rules, simplest first:
    naked single, hidden single (row, column, box), pointing and claiming
    (locked candidates), naked and hidden pairs and triples; only when
    they all stall does the solver branch (try a candidate, undo it on a
    contradiction).  It prints the steps (indented inside a guess) and a
    table of how often each rule fired and how many branches were needed;
    these counts, not seconds, are the fair way to compare runs.  --stats
    prints the table only, summed over a whole file.

    \b
    Exit codes: 0 every puzzle solved; 1 some have no solution; 2 malformed
    input or bad usage.

    \b
    Example:
        gridcount explain 53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79
        gridcount explain --stats puzzles.txt
    """
    pf, is_file = _read(source, shape, fmt)
    malformed = len(pf.errors)
    if stats:
        try:
            with _bar(pf.grids.shape[0], no_progress) as bar:
                st = P.explain_stats(pf.grids, shape=pf.shape, workers=workers,
                                     progress=bar.update)
        except RuntimeError as e:   # a worker process died (grids.puzzles.explanation)
            raise click.ClickException(str(e)) from None
        if as_json:
            click.echo(json.dumps(st.as_dict(), indent=1))
        else:
            click.echo(st.table())
        code = EXIT_MALFORMED if malformed else (EXIT_NOT_UNIQUE if st.solved < st.puzzles
                                                 else EXIT_OK)
        sys.exit(code)
    s = pf.shape
    docs, unsolved = [], 0
    for i, e in enumerate(pf.entries):
        if not e.ok:
            if not as_json:
                click.echo(f"# line {e.line}: malformed: {e.error}\n")
            continue
        grid = pf.grids[e.index]
        ex = P.explain(grid, shape=s)
        unique = P.classify(grid, shape=s)
        unsolved += not ex.solved
        if as_json:
            docs.append({"line": e.line, **_explain_json(ex, unique)})
            continue
        if is_file:
            click.echo(f"# line {e.line}")
        _print_explanation(ex, unique, s)
        click.echo("")
    if as_json:
        click.echo(json.dumps(docs if is_file else docs[0], indent=1))
    sys.exit(EXIT_MALFORMED if malformed else (EXIT_NOT_UNIQUE if unsolved else EXIT_OK))


def _print_explanation(ex: P.Explanation, unique: str, s) -> None:
    click.echo(_grid_block(ex.puzzle, s))
    click.echo("")
    for st in ex.steps:
        click.echo("  " * st.depth + st.text)
    click.echo("")
    if ex.solved:
        click.echo(_grid_block(ex.solution, s))
        click.echo("")
        note = {"unique": "the only solution",
                "multiple": "one of several solutions (the puzzle is not unique)"}[unique]
        click.echo(f"solution ({note}): {P.format_line(ex.solution)}")
    else:
        click.echo(f"no solution: {ex.reason}")
    click.echo("")
    click.echo(ex.table())


# ----------------------------------------------------------------------

COMMANDS = (solve, count_solutions, check, generate, explain)


def register(group: click.Group) -> None:
    """Add solve, count-solutions, check, generate and explain to ``group``."""
    for cmd in COMMANDS:
        group.add_command(cmd)
