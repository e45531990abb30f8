"""What the puzzle commands share: the input argument and its options,
reading a FILE or one PUZZLE, the progress bar and the exit codes.

Used by :mod:`counting.cli.puzzles` (``solve``, ``count-solutions``,
``check``), :mod:`counting.cli.generate` and :mod:`counting.cli.explain`.
"""
from __future__ import annotations

import os
import sys

import click

from counting.cli.common import refuse
from grids import puzzles as P
from grids.grid import text_shape
from grids.shape import Shape

__all__ = ["SOURCE", "EXIT_OK", "EXIT_NOT_UNIQUE", "EXIT_MALFORMED", "shape_option",
           "input_options", "run_options", "read_source", "progress_bar", "plural"]

#: The metavar of the input argument.
SOURCE = "FILE|PUZZLE"
#: Exit codes: every puzzle unique (solved); some with none or several; malformed input.
EXIT_OK, EXIT_NOT_UNIQUE, EXIT_MALFORMED = 0, 1, 2


def _parse_shape(ctx, param, value) -> Shape | None:
    if value is None:
        return None
    try:
        return text_shape(Shape.parse(value))
    except ValueError as e:
        raise click.BadParameter(str(e), ctx=ctx, param_hint="--shape")


def shape_option(f):
    """``--shape RxC`` (a :class:`~grids.shape.Shape` or ``None``)."""
    return click.option("--shape", default=None, metavar="RxC", callback=_parse_shape,
                        help="Box shape, e.g. 2x3 for 6x6 grids  [default: 3x3].")(f)


def input_options(f):
    """The SOURCE argument, ``--format`` and ``--shape``."""
    f = click.option("--format", "fmt", type=click.Choice(P.FORMATS),
                     default="auto", show_default=True,
                     help="Input format: one puzzle a line, or hint lists "
                          "(count, then 'row column digit' lines).")(f)
    f = shape_option(f)
    f = click.argument("source", metavar=SOURCE)(f)
    return f


def run_options(f):
    """``--json``, ``--workers`` and ``--no-progress``."""
    f = click.option("--no-progress", is_flag=True, help="No progress bar.")(f)
    f = click.option("--workers", "-w", type=click.IntRange(min=1), default=1, show_default=True,
                     help="Threads (the engine runs without the GIL).")(f)
    f = click.option("--json", "as_json", is_flag=True, help="JSON on stdout.")(f)
    return f


def read_source(source: str, shape: Shape | None, fmt: str,
                errors_in_output: bool = False) -> tuple[P.PuzzleFile, bool]:
    """The puzzles of SOURCE and whether they came from a file.

    SOURCE is ``-`` (stdin), an existing file, or else one puzzle written
    out; anything else is one error line naming both readings.  Each
    malformed puzzle is said on stderr (``line N: problem``), unless
    ``errors_in_output``: the command writes it in its place in its output,
    and once is enough.
    """
    if source == "-" or os.path.exists(source):
        try:
            with click.open_file(source, "rb") as f:
                data = f.read()
        except OSError as e:
            raise click.BadParameter(f"cannot read {source!r}: {(e.strerror or str(e)).lower()}",
                                     param_hint=SOURCE)
        pf = P.parse_puzzles(data.decode("utf-8", errors="replace"), shape=shape, format=fmt)
        for e in [] if errors_in_output else pf.errors:
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
                                 param_hint=SOURCE)


class _NoBar:
    """What :func:`progress_bar` gives when no bar can show: it counts
    nothing and writes its lines straight through, as a hidden tqdm bar."""

    disable = True

    def __enter__(self) -> "_NoBar":
        return self

    def __exit__(self, *exc) -> None:
        return None

    def update(self, n: int = 1) -> None:
        return None

    def write(self, text: str, file=None, end: str = "\n") -> None:
        print(text, file=file if file is not None else sys.stdout, end=end)


def progress_bar(total: int, no_progress: bool, unit: str = "puzzle"):
    """A tqdm bar on stderr, shown only on a terminal and after two seconds;
    its ``write`` prints a line without breaking the bar.  Without a terminal
    (or with ``no_progress``) no bar can show and tqdm is not imported (it
    and the package metadata it reads were a tenth of ``solve FILE``'s
    start-up, issue 37)."""
    if no_progress or not sys.stderr.isatty():
        return _NoBar()
    from tqdm import tqdm
    # delay: only on files that take more than a couple of seconds
    return tqdm(total=total, unit=unit, file=sys.stderr, delay=2.0, leave=False,
                unit_scale=True)


def plural(k: int, word: str) -> str:
    """``1 puzzle``, ``2,000 puzzles``."""
    return f"{k:,} {word}" + ("" if k == 1 else "s")
