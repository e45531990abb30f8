"""What the puzzle commands share: the input argument and its options,
reading a FILE or one PUZZLE, solving a file in batches, the progress bar,
the summary line and the exit codes.

Used by :mod:`counting.cli.solve` (``solve``), :mod:`counting.cli.puzzles`
(``count-solutions``, ``check``), :mod:`counting.cli.generate` and
:mod:`counting.cli.explain`.  It imports no NumPy (nor the library's
arrays): ``solve`` on a plain file runs without them (issue 37).
"""
from __future__ import annotations

import os
import sys

import click

from counting.cli.common import refuse
from grids import puzzles as P
from grids.puzzles.plain import FORMATS
from grids.shape import Shape
from grids.symbols import text_shape

__all__ = ["SOURCE", "EXIT_OK", "EXIT_NOT_UNIQUE", "EXIT_MALFORMED", "shape_option",
           "input_options", "run_options", "read_input", "read_source", "solve_file",
           "conflict_reason", "bar_shows", "progress_bar", "summary", "exit_code", "plural"]

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
    f = click.option("--format", "fmt", type=click.Choice(FORMATS),
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


def read_input(source: str) -> bytes | None:
    """The bytes of SOURCE when it is ``-`` (stdin) or an existing file,
    ``None`` when it is neither (one puzzle written out); a file that cannot
    be read is one error line."""
    if not (source == "-" or os.path.exists(source)):
        return None
    try:
        with click.open_file(source, "rb") as f:
            return f.read()
    except OSError as e:
        raise click.BadParameter(f"cannot read {source!r}: {(e.strerror or str(e)).lower()}",
                                 param_hint=SOURCE)


def read_source(source: str, shape: Shape | None, fmt: str,
                errors_in_output: bool = False,
                data: bytes | None = None) -> tuple[P.PuzzleFile, bool]:
    """The puzzles of SOURCE and whether they came from a file.

    SOURCE is ``-`` (stdin), an existing file, or else one puzzle written
    out; anything else is one error line naming both readings.  Each
    malformed puzzle is said on stderr (``line N: problem``), unless
    ``errors_in_output``: the command writes it in its place in its output,
    and once is enough.  ``data``: the bytes :func:`read_input` already read
    from SOURCE (stdin can be read once).
    """
    if data is None:
        data = read_input(source)
    if data is not None:
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


#: Puzzles a call of the batch engine solves while a progress bar shows (per worker).
CHUNK = 2048


def solve_file(pf: P.PuzzleFile, limit: int, workers: int, no_progress: bool) -> P.BatchResult:
    """The whole file through the batch engine, chunk by chunk for the bar
    (in one call when no bar is shown: no chunks to join); solutions of one
    byte a cell, as the file's grids are (no int64 copies, issue 37)."""
    import numpy as np      # here: a plain file is solved without it (counting.cli.solve)
    m = pf.grids.shape[0]
    counts, sols = [], []
    with progress_bar(m, no_progress) as bar:
        step = max(m, 1) if bar.disable else CHUNK * workers
        for lo in range(0, m, step):
            r = P.solve_batch(pf.grids[lo:lo + step], shape=pf.shape, limit=limit,
                              workers=workers, chunk_size=CHUNK, dtype=np.uint8)
            counts.append(r.counts)
            sols.append(r.solutions)
            bar.update(len(r))
    n = pf.shape.n
    if not counts:
        return P.BatchResult(np.zeros(0, np.int64), np.zeros((0, n, n), np.uint8), limit)
    if len(counts) == 1:
        return P.BatchResult(counts[0], sols[0], limit)
    return P.BatchResult(np.concatenate(counts), np.concatenate(sols), limit)


def conflict_reason(pf: P.PuzzleFile, index: int) -> str | None:
    """Why puzzle ``index`` of ``pf`` has no solution, when two of its givens
    repeat a digit in a unit (the unit and the cells)."""
    return P.unit_conflict(pf.grids[index], pf.shape)


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


def bar_shows(no_progress: bool) -> bool:
    """Whether :func:`progress_bar` can show a bar: a terminal on stderr and
    no ``--no-progress``."""
    return not no_progress and sys.stderr.isatty()


def progress_bar(total: int, no_progress: bool, unit: str = "puzzle"):
    """A tqdm bar on stderr, shown only on a terminal and after two seconds;
    its ``write`` prints a line without breaking the bar.  Without a terminal
    (or with ``no_progress``) no bar can show and tqdm is not imported (it
    and the package metadata it reads were a tenth of ``solve FILE``'s
    start-up, issue 37)."""
    if not bar_shows(no_progress):
        return _NoBar()
    from tqdm import tqdm
    # delay: only on files that take more than a couple of seconds
    return tqdm(total=total, unit=unit, file=sys.stderr, delay=2.0, leave=False,
                unit_scale=True)


def plural(k: int, word: str) -> str:
    """``1 puzzle``, ``2,000 puzzles``."""
    return f"{k:,} {word}" + ("" if k == 1 else "s")


SUMMARY_LINES = 5   # malformed lines named in the summary, at most


def summary(statuses: dict, seconds: float | None = None, malformed: tuple | list = ()) -> str:
    """``3 puzzles: 2 unique, 0 none, 0 multiple, 1 malformed (line 4) in 0.01 s``."""
    total = sum(statuses.values())
    parts = ", ".join(f"{v:,} {k}" for k, v in statuses.items())
    if malformed:
        shown = ", ".join(map(str, malformed[:SUMMARY_LINES]))
        more = ", ..." if len(malformed) > SUMMARY_LINES else ""
        parts += f" ({'line' if len(malformed) == 1 else 'lines'} {shown}{more})"
    rate = f" in {seconds:,.2f} s" if seconds is not None else ""
    return f"{plural(total, 'puzzle')}: {parts}{rate}"


def exit_code(statuses: dict) -> int:
    """The exit code of a summary's counts: malformed input, then any puzzle
    without exactly one solution, else 0."""
    if statuses.get("malformed"):
        return EXIT_MALFORMED
    if statuses.get("none") or statuses.get("multiple"):
        return EXIT_NOT_UNIQUE
    return EXIT_OK
