"""``gridcount generate``: puzzles with a unique solution and a given number of clues.

A thin layer over :func:`grids.puzzles.generate_many`: check the options,
print each puzzle as it is made (one a line, or as a hint list), a summary
on stderr, or everything with ``--json``.
"""
from __future__ import annotations

import json
import secrets
import sys
import time

import click

from counting.cli.common import CONTEXT_SETTINGS, not_together
from counting.cli.puzzle_io import EXIT_NOT_UNIQUE, EXIT_OK, plural, progress_bar, shape_option
from grids import puzzles as P

__all__ = ["generate"]


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
@shape_option
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
    with progress_bar(count, no_progress) as bar:
        for i, g in enumerate(P.generate_many(count, clues, seed=seed, symmetric=symmetric,
                                              minimal=minimal, max_seconds=max_seconds,
                                              shape=s)):
            bar.update(1)
            if not g.ok:
                failed += 1
                what = f"{clues}-clue " if clues is not None else ""
                bar.write(f"puzzle {i + 1}: no unique {what}puzzle found in {g.seconds:,.1f} s "
                          f"({plural(g.attempts, 'grid')} tried)", file=sys.stderr)
            made.append((i, g))
            if g.ok and not as_json:
                text = (P.format_line(g.puzzle) + "\n" if out_fmt == "line"
                        else P.format_hints(g.puzzle))
                bar.write(text, file=sys.stdout, end="")
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
        click.echo(f"{plural(ok, 'puzzle')} in {seconds:,.2f} s "
                   f"({seconds / count * 1000:,.1f} ms each)"
                   + (f"; {failed:,} not made" if failed else ""), err=True)
    sys.exit(EXIT_NOT_UNIQUE if failed else EXIT_OK)
