"""``gridcount explain``: a puzzle solved step by step, by human-style rules.

A thin layer over :func:`grids.puzzles.explain`: it prints the puzzle, the
steps, the solution, the table of rule counts and, when the rules had to
guess, how many guesses were made at each depth.  A guess that fails is one
line (``guess r5c5=3 (candidates 3,7): contradiction after 12 deductions
...``) unless ``--verbose`` asks for every step inside it; the guess that
leads to the solution is followed step by step.  ``--stats`` sums the rule
counts over a file; ``--json`` gives every step for scripts.
"""
from __future__ import annotations

import json
import sys

import click
import numpy as np

from counting.cli.common import CONTEXT_SETTINGS
from counting.cli.puzzle_io import (EXIT_MALFORMED, EXIT_NOT_UNIQUE, EXIT_OK, SOURCE,
                                    progress_bar, read_source, shape_option)
from grids import puzzles as P

__all__ = ["explain", "fold_guesses", "depth_table", "explanation_lines"]


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
            "rules": e.counts, "branches": e.branches, "backtracks": e.backtracks,
            "max_depth": e.max_depth}


def _guess_head(st, s) -> str:
    k, d = st.placement
    where = P.format_line(np.asarray([d]))
    opts = ",".join(P.format_line(np.asarray([x])) for x in st.candidates)
    return f"guess r{k // s.n + 1}c{k % s.n + 1}={where} (candidates {opts})"


def fold_guesses(steps, s) -> list[tuple[int, str]]:
    """``(depth, text)`` lines for people: deductions as they are, each failed
    guess as one line (how many deductions and nested guesses it took to
    refute, and why), the guess that was kept followed step by step."""
    out: list[tuple[int, str]] = []
    i, n = 0, len(steps)
    while i < n:
        st = steps[i]
        if st.rule != "branch":
            out.append((st.depth, st.text))
            i += 1
            continue
        j = i + 1
        while j < n and steps[j].depth > st.depth:
            j += 1
        head = _guess_head(st, s)
        if j < n and steps[j].rule == "contradiction":
            inner = steps[i + 1:j]
            found = sum(x.rule not in ("branch", "contradiction") for x in inner)
            nested = sum(x.rule == "branch" for x in inner)
            also = (f" and {nested:,} nested guess{'' if nested == 1 else 'es'}"
                    if nested else "")
            end = steps[j]
            k, d = end.eliminations[0]
            out.append((st.depth, f"{head}: contradiction after {found:,} "
                                  f"deduction{'' if found == 1 else 's'}{also} "
                                  f"({end.reason}) → r{k // s.n + 1}c{k % s.n + 1}"
                                  f"≠{P.format_line(np.asarray([d]))}"))
            i = j + 1
        else:
            out.append((st.depth, f"{head}: kept (never contradicted)"))
            i += 1
    return out


def depth_table(steps) -> list[str]:
    """Guesses and refuted guesses at each depth (1: no other guess in force)."""
    made: dict[int, int] = {}
    refuted: dict[int, int] = {}
    for st in steps:
        if st.rule == "branch":
            made[st.depth + 1] = made.get(st.depth + 1, 0) + 1
        elif st.rule == "contradiction":
            refuted[st.depth + 1] = refuted.get(st.depth + 1, 0) + 1
    if not made:
        return []
    rows = [(f"{d:,}", f"{made[d]:,}", f"{refuted.get(d, 0):,}") for d in sorted(made)]
    rows.append(("total", f"{sum(made.values()):,}", f"{sum(refuted.values()):,}"))
    head = ("depth", "guesses", "refuted")
    w = [max(len(r[c]) for r in [head, *rows]) for c in range(3)]
    return [f"{a:>{w[0]}}  {b:>{w[1]}}  {c:>{w[2]}}" for a, b, c in [head, *rows]]


def explanation_lines(ex: P.Explanation, unique: str, s, verbose: bool = False) -> list[str]:
    """Everything ``gridcount explain`` prints for one puzzle, line by line."""
    out = [_grid_block(ex.puzzle, s), ""]
    if verbose:
        out += ["  " * st.depth + st.text for st in ex.steps]
    else:
        out += ["  " * depth + text for depth, text in fold_guesses(ex.steps, s)]
    out.append("")
    if ex.solved:
        out += [_grid_block(ex.solution, s), ""]
        note = {"unique": "the only solution",
                "multiple": "one of several solutions (the puzzle is not unique)"}[unique]
        out.append(f"solution ({note}): {P.format_line(ex.solution)}")
    else:
        out.append(f"no solution: {ex.reason}")
    out += ["", ex.table()]
    depths = depth_table(ex.steps)
    if depths:
        out += ["", f"guesses by depth (deepest {ex.max_depth:,}):"] + depths
    return out


@click.command(context_settings=CONTEXT_SETTINGS)
@click.argument("source", metavar=SOURCE)
@click.option("--stats", is_flag=True,
              help="Only the table of rule counts (summed over every puzzle of a file).")
@shape_option
@click.option("--format", "fmt", type=click.Choice(P.FORMATS), default="auto",
              show_default=True, help="Input format of a FILE.")
@click.option("--workers", "-w", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes for --stats on a file (the rules run in Python).")
@click.option("--verbose", "-v", is_flag=True,
              help="Every step inside every guess (the whole search tree), not one line "
                   "per failed guess.")
@click.option("--json", "as_json", is_flag=True, help="JSON on stdout (every step).")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
def explain(source, stats, shape, fmt, workers, verbose, as_json, no_progress):
    """Solve a PUZZLE step by step with human-style rules.

    The PUZZLE is a grid on the command line, or the argument is a FILE
    ('-' for stdin) whose puzzles are explained one after another.  Rules, simplest first:
    naked single, hidden single (row, column, box), pointing and claiming
    (locked candidates), naked and hidden pairs and triples, X-Wing,
    XY-Wing, Swordfish, simple colouring, XYZ-Wing, X-chain, XY-chain,
    Jellyfish, alternating inference chain (AIC); only when they all stall
    does the solver guess (try a candidate, undo it on a contradiction).
    It prints the steps, each failed guess as one line (--verbose: every
    step inside it, indented), the guess that was kept followed step by
    step, a table of how often each rule fired and the guesses at each
    depth; these counts, not seconds, are the fair way to compare runs.
    --stats prints the table only, summed over a whole file.

    \b
    Exit codes: 0 every puzzle solved; 1 some have no solution; 2 malformed
    input or bad usage.

    \b
    Example:
        gridcount explain 53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79
        gridcount explain --verbose ........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3
        gridcount explain --stats puzzles.txt
    """
    if verbose and (stats or as_json):
        raise click.UsageError("--verbose has nothing to unfold with "
                               + ("--stats (which prints no steps)" if stats else
                                  "--json (which gives every step anyway)"))
    # the steps say a malformed puzzle in its place; --stats and --json do not
    pf, is_file = read_source(source, shape, fmt, errors_in_output=not (stats or as_json))
    malformed = len(pf.errors)
    if stats:
        try:
            with progress_bar(pf.grids.shape[0], no_progress) as bar:
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
        click.echo("\n".join(explanation_lines(ex, unique, s, verbose)))
        click.echo("")
    if as_json:
        click.echo(json.dumps(docs if is_file else docs[0], indent=1))
    sys.exit(EXIT_MALFORMED if malformed else (EXIT_NOT_UNIQUE if unsolved else EXIT_OK))
