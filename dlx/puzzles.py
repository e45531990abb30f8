"""Sudoku puzzles on the dancing-links engine: solve, count, check, generate, explain.

The engine that counts every grid also answers the everyday questions about
one puzzle.  This module is the library behind ``gridcount solve``,
``count-solutions``, ``check``, ``generate`` and ``explain``; the CLI
(:mod:`counting.puzzle_cli`) only reads files, calls it and formats.

Puzzles
-------
A puzzle is a partial grid of any box shape ``R×C`` (``N = R·C`` digits;
``shape=None`` means 3x3, or ``k×k`` boxes when the grid has ``k⁴`` cells).
Every function takes a text grid (``N²`` symbols, ``.`` or ``0`` blank,
digits ``1``-``9`` then ``A``-``Z`` for 10-35, case-insensitive, whitespace
ignored) or an integer array of ``N²`` or ``N × N`` values (0 blank).

Honest answers
--------------
Nothing here pretends a puzzle has one solution.  :func:`classify` says
``"none"``, ``"unique"`` or ``"multiple"``; :func:`solve` returns the
solution only when it is unique and raises :class:`NoSolutionError` or
:class:`MultipleSolutionsError` otherwise.  Givens that repeat a digit in a
row, column or box are a puzzle with no solution (not a malformed one).

Batches
-------
:func:`solve_batch` takes an ``(n, N²)`` array (or ``(n, N, N)``, or a list of
text grids) and runs the whole batch in C without the GIL
(:meth:`dlx.sudoku.Sudoku.solve_batch`); ``workers=k`` splits it over a
thread pool, one engine per thread.

Files
-----
:func:`read_puzzles` reads two formats and reports every malformed puzzle
with its line number while still reading the rest (see :class:`PuzzleFile`):

``line``
    one puzzle a line, ``N²`` symbols as above; ``#`` comment lines and
    blank lines are skipped.
``hints``
    a hint count ``k`` on a line, then ``k`` lines ``row column digit``
    (rows and columns ``0``..``N-1``, digits ``1``..``N`` as decimal numbers,
    or as the letters above); several puzzles may follow one another;
    ``#`` comments and blank lines are skipped.

Example
-------
>>> p = ("53..7....6..195....98....6.8...6...34..8.3..17...2...6"
...      ".6....28....419..5....8..79")
>>> classify(p)
'unique'
>>> format_line(solve(p))[:18]
'534678912672195348'
>>> count_solutions("." * 16, shape="2x2")
288
"""
from __future__ import annotations

import contextlib
import itertools
import math
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable, Iterator, Sequence

import numpy as np

from dlx.api import ConflictingGivensError, ExactCover
from dlx.sudoku import ALPHABET, Sudoku, parse_shape

__all__ = [
    "PuzzleError", "NoSolutionError", "MultipleSolutionsError",
    "get_sudoku", "to_array", "as_batch", "format_line", "format_hints",
    "PuzzleFile", "Entry", "read_puzzles", "parse_puzzles", "write_puzzles",
    "solve", "solutions", "count_solutions", "is_unique", "classify",
    "BatchResult", "solve_batch", "count_batch", "classify_batch",
    "random_grid", "Generated", "generate", "generate_many",
    "RULES", "Step", "Explanation", "RuleStats", "explain", "explain_stats",
]

#: Classification of a puzzle by its number of solutions.
STATUSES = ("none", "unique", "multiple")
#: ``solve_batch`` limits are 32-bit in the engine.
_BATCH_LIMIT_MAX = 2**31 - 1
#: Exact counts try plain search up to this many solutions before memo.
_PLAIN_COUNT_MAX = 100_000
_FORMATS = ("auto", "line", "hints")


class PuzzleError(ValueError):
    """A puzzle that cannot be read, or has not exactly one solution."""


class NoSolutionError(PuzzleError):
    """:func:`solve` on a puzzle with no solution."""


class MultipleSolutionsError(PuzzleError):
    """:func:`solve` on a puzzle with more than one solution."""


# ----------------------------------------------------------------------
# shapes and grids

@lru_cache(maxsize=None)
def _sudoku(r: int, c: int) -> Sudoku:
    return Sudoku(r, c)


def get_sudoku(shape=None, n_cells: int | None = None) -> Sudoku:
    """The :class:`~dlx.sudoku.Sudoku` encoding for ``shape``.

    ``shape`` is ``"RxC"``, a pair ``(R, C)``, a ``Sudoku``, or ``None``:
    3x3, or ``k×k`` boxes when ``n_cells`` is ``k⁴`` (16 → 2x2, 256 → 4x4).

    Example
    -------
    >>> get_sudoku("2x3").n, get_sudoku(None, 16).shape
    (6, '2x2')
    """
    if isinstance(shape, Sudoku):
        return shape
    if shape is None:
        if n_cells is None or n_cells == 81:
            return _sudoku(3, 3)
        n = math.isqrt(n_cells)
        k = math.isqrt(n)
        if n * n == n_cells and k * k == n and k > 0:
            return _sudoku(k, k)
        raise PuzzleError(f"a grid of {n_cells} cells has no square box shape; "
                          f"pass the shape, e.g. shape='2x3'")
    if isinstance(shape, str):
        return _sudoku(*parse_shape(shape))
    try:
        r, c = shape
    except (TypeError, ValueError):
        raise PuzzleError(f"bad box shape {shape!r}: expected 'RxC', (R, C) or a Sudoku") from None
    return _sudoku(int(r), int(c))


def _n_cells_of(grid) -> int:
    if isinstance(grid, (str, bytes)):
        text = grid.decode() if isinstance(grid, bytes) else grid
        return sum(1 for ch in text if not ch.isspace())
    return int(np.asarray(grid).size)


def _shape_for(grid, shape) -> Sudoku:
    return get_sudoku(shape, None if shape is not None else _n_cells_of(grid))


def to_array(grid, shape=None) -> np.ndarray:
    """One grid as a flat ``(N²,)`` int64 array, 0 for blank.

    Checks symbols and ranges, not the rules (a repeated digit is a puzzle
    with no solution, which the solvers report).

    Example
    -------
    >>> to_array("12..3...........", shape="2x2")[:5].tolist()
    [1, 2, 0, 0, 3]
    """
    s = _shape_for(grid, shape)
    n = s.n
    if isinstance(grid, (str, bytes)):
        text = grid.decode() if isinstance(grid, bytes) else grid
        try:
            return np.asarray(s.parse_symbols(text), dtype=np.int64)
        except ValueError as e:
            raise PuzzleError(str(e)) from None
    arr = np.asarray(grid)
    if arr.dtype.kind not in "iu":
        raise PuzzleError(f"grid array must hold integers, got dtype {arr.dtype}")
    if arr.shape not in ((n, n), (n * n,)):
        raise PuzzleError(f"grid array must have shape ({n}, {n}) or ({n * n},), got {arr.shape}")
    arr = arr.reshape(n * n).astype(np.int64)
    bad = np.flatnonzero((arr < 0) | (arr > n))
    if bad.size:
        k = int(bad[0])
        raise PuzzleError(f"r{k // n + 1}c{k % n + 1}: digit {arr[k]} out of range 1..{n} "
                          f"(0 for blank)")
    return arr


def as_batch(grids, shape=None) -> np.ndarray:
    """Many grids as an ``(n, N²)`` int64 array (see :func:`to_array`).

    Accepts an ``(n, N²)`` or ``(n, N, N)`` integer array or a sequence of
    grids (text or arrays).
    """
    if isinstance(grids, np.ndarray):
        if grids.ndim == 3:
            n_cells = grids.shape[1] * grids.shape[2]
        elif grids.ndim == 2:
            n_cells = grids.shape[1]
        else:
            raise PuzzleError(f"a grid batch must be 2-d (n, N²) or 3-d (n, N, N), "
                              f"got shape {grids.shape}")
        s = get_sudoku(shape, n_cells)
        try:
            return s.parse_batch(grids)
        except ValueError as e:
            raise PuzzleError(str(e)) from None
    grids = list(grids)
    s = get_sudoku(shape, _n_cells_of(grids[0]) if grids else None)
    out = np.zeros((len(grids), s.n * s.n), dtype=np.int64)
    for k, g in enumerate(grids):
        try:
            out[k] = to_array(g, s)
        except PuzzleError as e:
            raise PuzzleError(f"grid {k}: {e}") from None
    return out


def format_line(grid, shape=None, blank: str = ".") -> str:
    """A grid as one line of ``N²`` symbols (``blank`` for empty cells)."""
    arr = np.asarray(grid).reshape(-1)
    return "".join(blank if v == 0 else ALPHABET[int(v) - 1] for v in arr)


def format_hints(grid, shape=None) -> str:
    """A grid in the hint-list format: the count, then ``row column digit`` lines."""
    arr = to_array(grid, shape) if isinstance(grid, (str, bytes)) else np.asarray(grid).reshape(-1)
    n = math.isqrt(arr.size)
    cells = np.flatnonzero(arr)
    lines = [str(cells.size)] + [f"{k // n} {k % n} {int(arr[k])}" for k in cells]
    return "\n".join(lines) + "\n"


def _cell(k: int, n: int) -> str:
    return f"r{k // n + 1}c{k % n + 1}"


# ----------------------------------------------------------------------
# files

@dataclass(frozen=True)
class Entry:
    """One puzzle of a file: where it starts and what became of it.

    Attributes
    ----------
    line : int
        1-based line of the puzzle (hint format: its count line).
    index : int or None
        Its row in :attr:`PuzzleFile.grids`; ``None`` when malformed.
    error : str or None
        What is wrong with it (``None`` when it was read).
    """

    line: int
    index: int | None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass
class PuzzleFile:
    """Puzzles read from a file, in input order.

    Attributes
    ----------
    entries : list of Entry
        Every puzzle and every malformed puzzle, in input order.
    grids : ndarray, shape (m, N²)
        The puzzles that were read (0 for blank); ``entries[i].index``
        points here.
    shape : str
        Box shape ``RxC``.
    format : str
        ``"line"`` or ``"hints"`` (the detected one, with ``format="auto"``).
    """

    entries: list[Entry]
    grids: np.ndarray
    shape: str
    format: str

    @property
    def lines(self) -> np.ndarray:
        """Line number of each row of :attr:`grids`."""
        return np.asarray([e.line for e in self.entries if e.ok], dtype=np.int64)

    @property
    def errors(self) -> list[Entry]:
        return [e for e in self.entries if not e.ok]

    def __len__(self) -> int:
        return len(self.entries)


@lru_cache(maxsize=None)
def _symbol_table(n: int) -> np.ndarray:
    """Byte → value (0 blank, -1 not a symbol of an N-digit grid)."""
    lut = np.full(256, -1, dtype=np.int8)
    lut[ord(".")] = lut[ord("0")] = 0
    for v in range(1, n + 1):
        ch = ALPHABET[v - 1]
        lut[ord(ch)] = lut[ord(ch.lower())] = v
    return lut


def _symbol_error(ch: str, k: int, n: int) -> str:
    return (f"{_cell(k, n)}: symbol {ch!r} is not a digit 1..{ALPHABET[n - 1]} "
            f"or a blank (. or 0)")


def _content_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, stripped text) of the lines that are not blank or comments."""
    for i, raw in enumerate(text.split("\n"), 1):
        s = raw.strip()
        if s and s[0] != "#":
            yield i, s


def _looks_like_hints(text: str, nn: int) -> bool:
    for _, s in _content_lines(text):
        return len(s) != nn and s.isdigit()
    return False


def _parse_line_format(text: str, s: Sudoku) -> tuple[list[Entry], np.ndarray]:
    n, nn = s.n, s.n * s.n
    pending: list[tuple[int, str | None, str]] = []   # (line, error, symbols)
    for i, line in _content_lines(text):
        if len(line) != nn:
            packed = "".join(line.split())
            if len(packed) != nn:
                pending.append((i, f"a {n}x{n} puzzle needs {nn} symbols, got {len(packed)}", ""))
                continue
            line = packed
        pending.append((i, None, line))
    good = [sym for _, err, sym in pending if err is None]
    # brute force is the rule for input, but 50,000 lines a second needs a
    # lookup table over the whole file at once
    buf = "".join(good).encode("latin-1", errors="replace")
    vals = _symbol_table(n)[np.frombuffer(buf, dtype=np.uint8)].reshape(len(good), nn)
    bad_rows = np.flatnonzero((vals < 0).any(axis=1)) if vals.size else np.zeros(0, np.int64)
    bad = set(bad_rows.tolist())
    entries: list[Entry] = []
    keep: list[int] = []
    g = 0
    for i, err, sym in pending:
        if err is not None:
            entries.append(Entry(i, None, err))
            continue
        if g in bad:
            k = int(np.flatnonzero(vals[g] < 0)[0])
            entries.append(Entry(i, None, _symbol_error(sym[k], k, n)))
        else:
            entries.append(Entry(i, len(keep)))
            keep.append(g)
        g += 1
    grids = vals[keep].astype(np.int64) if keep else np.zeros((0, nn), dtype=np.int64)
    return entries, grids


def _hint_digit(tok: str, n: int) -> int | None:
    if tok.isdigit():
        v = int(tok)
    elif len(tok) == 1 and tok.upper() in ALPHABET:
        v = ALPHABET.index(tok.upper()) + 1
    else:
        return None
    return v if 1 <= v <= n else None


def _parse_hint_format(text: str, s: Sudoku) -> tuple[list[Entry], np.ndarray]:
    n, nn = s.n, s.n * s.n
    entries: list[Entry] = []
    grids: list[np.ndarray] = []
    lines = list(_content_lines(text))
    pos = 0
    while pos < len(lines):
        start, head = lines[pos]
        pos += 1
        toks = head.split()
        if len(toks) != 1 or not toks[0].isdigit():
            what = "a hint line" if len(toks) == 3 else repr(head[:40])
            entries.append(Entry(start, None, f"expected the number of hints of a puzzle, "
                                              f"got {what}"))
            continue
        want = int(toks[0])
        if want > nn:
            entries.append(Entry(start, None, f"a {n}x{n} puzzle has at most {nn} hints, "
                                              f"got {want}"))
            continue
        grid = np.zeros(nn, dtype=np.int64)
        where: dict[int, int] = {}
        error: str | None = None
        err_line = start
        got = 0
        while got < want:
            if pos == len(lines):
                if error is None:
                    error, err_line = f"{want} hints promised, the file ends after {got}", start
                break
            i, line = lines[pos]
            parts = line.split()
            if len(parts) == 1 and parts[0].isdigit():
                # the next puzzle starts early: this one is short
                if error is None:
                    error, err_line = f"{want} hints promised, only {got} before line {i}", start
                break
            pos += 1
            got += 1
            if error is not None:
                continue   # keep consuming this puzzle's lines
            err_line = i
            if len(parts) != 3:
                error = f"expected 'row column digit', got {line[:40]!r}"
                continue
            r, c, d = parts
            if not (r.isdigit() and int(r) < n and c.isdigit() and int(c) < n):
                error = f"row and column must be 0..{n - 1}, got {r} {c}"
                continue
            v = _hint_digit(d, n)
            if v is None:
                error = f"digit must be 1..{ALPHABET[n - 1] if n > 9 else n}, got {d!r}"
                continue
            k = int(r) * n + int(c)
            if k in where:
                error = f"cell ({r}, {c}) is given twice (first on line {where[k]})"
                continue
            where[k] = i
            grid[k] = v
        if error is not None:
            if err_line != start:
                error += f"; the puzzle of line {start} is skipped"
            entries.append(Entry(err_line, None, error))
        else:
            entries.append(Entry(start, len(grids)))
            grids.append(grid)
    arr = np.stack(grids) if grids else np.zeros((0, nn), dtype=np.int64)
    return entries, arr


def parse_puzzles(text: str, *, shape=None, format: str = "auto") -> PuzzleFile:
    """Read puzzles from text; malformed ones become :class:`Entry` errors.

    Parameters
    ----------
    text : str
        File contents (``\\n`` or ``\\r\\n`` line ends).
    shape : str, optional
        Box shape, default 3x3.
    format : {"auto", "line", "hints"}
        ``auto`` takes ``hints`` when the first line that is not blank or a
        comment is a lone number (not an ``N²``-symbol grid).

    Example
    -------
    >>> pf = parse_puzzles("# two\\n" + "." * 16 + "\\n1234\\n", shape="2x2")
    >>> [(e.line, e.error) for e in pf.entries]
    [(2, None), (3, 'a 4x4 puzzle needs 16 symbols, got 4')]
    """
    s = get_sudoku(shape)
    if text.startswith("\ufeff"):
        text = text[1:]         # a UTF-8 byte-order mark
    if format not in _FORMATS:
        raise ValueError(f"format must be one of {', '.join(_FORMATS)}, got {format!r}")
    if format == "auto":
        format = "hints" if _looks_like_hints(text, s.n * s.n) else "line"
    parse = _parse_hint_format if format == "hints" else _parse_line_format
    entries, grids = parse(text, s)
    return PuzzleFile(entries, grids, s.shape, format)


def read_puzzles(source, *, shape=None, format: str = "auto") -> PuzzleFile:
    """Read a puzzle file (a path, or an open text or binary file).

    Bytes that are not UTF-8 are read as U+FFFD and reported as bad symbols.
    """
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as f:
            data = f.read()
    else:
        data = source.read()
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    return parse_puzzles(text, shape=shape, format=format)


def write_puzzles(grids, *, format: str = "line", shape=None) -> str:
    """Text of many puzzles in ``line`` or ``hints`` format (reads back with
    :func:`read_puzzles`)."""
    if isinstance(grids, np.ndarray) and grids.ndim == 2 and shape is None:
        arr = grids         # rows of N² values: the writers need no shape
    else:
        arr = as_batch(grids, shape)
    if format == "line":
        return "".join(format_line(g) + "\n" for g in arr)
    if format == "hints":
        return "".join(format_hints(g) for g in arr)
    raise ValueError(f"format must be 'line' or 'hints', got {format!r}")


# ----------------------------------------------------------------------
# solving and counting (the engine)

_local = threading.local()


def _solver_matrix(s: Sudoku) -> ExactCover:
    """The Sudoku matrix with its columns reordered for solving puzzles.

    The engine branches on the leftmost column of fewest rows and stops
    looking at the first column with one row left (a forced move), so the
    order of the columns decides how far each choice scans.  Putting the
    row-digit and column-digit columns (hidden singles) before the cell
    columns (naked singles) and the box-digit columns last solves the
    17-clue collection about 10% faster than the encoding's order (cell,
    row, column, box; measured in results/bench_puzzles.md).  Matrix rows
    are unchanged: row ``(r·N + c)·N + d-1`` still places ``d`` in ``(r, c)``.
    """
    indptr, indices = s.csr()
    nn = s.n * s.n
    kinds = [1, 2, 0, 3] if not s.latin else [1, 2, 0]     # R, K, C, B
    order = np.concatenate([np.arange(k * nn, (k + 1) * nn) for k in kinds])
    new_index = np.empty(s.n_columns, dtype=np.int64)
    new_index[order] = np.arange(s.n_columns)
    return ExactCover.from_csr(indptr, new_index[indices], s.n_columns)


def _thread_ec(s: Sudoku, kind: str | None = "solve") -> ExactCover:
    """This thread's engine for shape ``s`` (one search per object at a time).

    ``kind``: ``"solve"`` (:func:`_solver_matrix`), ``None`` (the encoding's
    order, plain minimum remaining values) or ``"rows"`` (row by row, for
    memoized counts).
    """
    cache = getattr(_local, "ecs", None)
    if cache is None:
        cache = _local.ecs = {}
    key = (s.box_rows, s.box_cols, kind)
    ec = cache.get(key)
    if ec is None:
        ec = cache[key] = _solver_matrix(s) if kind == "solve" else s.exact_cover(kind)
    return ec


def _run_batch(s: Sudoku, arr: np.ndarray, limit: int,
               ec: ExactCover | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(counts, solutions)`` of a validated ``(m, N²)`` batch, in C without the GIL.

    The same contract as :meth:`Sudoku.solve_batch` (``-1`` for givens that
    repeat a digit), with the solving column order and flat solutions.
    """
    n, nn = s.n, s.n * s.n
    m = arr.shape[0]
    flat = arr.ravel()
    filled = np.flatnonzero(flat)
    given = (filled % nn) * n + flat[filled] - 1
    indptr = np.zeros(m + 1, dtype=np.int64)
    np.cumsum(np.count_nonzero(arr, axis=1), out=indptr[1:])
    ec = ec or _thread_ec(s)
    counts, rows = ec.solve_batch((indptr, given), limit=limit, width=nn)
    # A solution holds one matrix row per cell, and row (cell·N + d-1)
    # sorts by cell: sorting each solution's rows lays it out row-major
    # (ten times faster than scattering with put_along_axis).
    sols = np.sort(rows, axis=1)
    sols %= n
    sols += 1
    sols = sols.astype(np.int64)
    sols[counts <= 0] = 0
    return counts, sols


@dataclass
class BatchResult:
    """Solutions of a batch.

    Attributes
    ----------
    counts : ndarray of int64, shape (n,)
        Solutions found, at most ``limit``; ``-1`` when the givens repeat a
        digit in a row, column or box (no solution).
    solutions : ndarray of int64, shape (n, N, N)
        The first solution found (all zeros when there is none).
    limit : int
        The limit the batch ran with.
    """

    counts: np.ndarray
    solutions: np.ndarray
    limit: int

    @property
    def n_solutions(self) -> np.ndarray:
        """``counts`` with conflicting givens as 0."""
        return np.maximum(self.counts, 0)

    @property
    def status(self) -> np.ndarray:
        """``"none"``, ``"unique"`` or ``"multiple"`` per puzzle (needs limit ≥ 2)."""
        if self.limit < 2:
            raise ValueError("a batch solved with limit=1 cannot tell unique from multiple")
        return np.asarray(STATUSES, dtype=object)[np.minimum(self.n_solutions, 2)]

    def __len__(self) -> int:
        return int(self.counts.size)


def solve_batch(grids, *, shape=None, limit: int = 2, workers: int = 1,
                chunk_size: int = 4096) -> BatchResult:
    """Solve many puzzles in C without the GIL.

    Parameters
    ----------
    grids : array of shape (n, N²) or (n, N, N), or sequence of grids
    shape : str, optional
        Box shape (default from the grid size, see :func:`get_sudoku`).
    limit : int
        Stop each puzzle after this many solutions: 1 just solves, 2 also
        tells unique from multiple, larger values count (at most 2³¹-1).
    workers : int
        Threads; each takes chunks of ``chunk_size`` puzzles with its own
        engine, so the batch uses ``workers`` cores.

    Example
    -------
    >>> r = solve_batch(["1234341221434321", "12..............", "11.............."])
    >>> r.counts.tolist(), r.status.tolist()
    ([1, 2, -1], ['unique', 'multiple', 'none'])
    """
    limit = int(limit)
    if not 1 <= limit <= _BATCH_LIMIT_MAX:
        raise ValueError(f"limit must be in 1..{_BATCH_LIMIT_MAX}, got {limit}")
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    arr = as_batch(grids, shape)
    s = get_sudoku(shape, arr.shape[1])
    n = s.n
    m = arr.shape[0]

    def run(lo: int, hi: int):
        return _run_batch(s, arr[lo:hi], limit)

    if workers == 1 or m <= chunk_size:
        counts, sols = run(0, m)
    else:
        bounds = [(lo, min(lo + chunk_size, m)) for lo in range(0, m, chunk_size)]
        with ThreadPoolExecutor(max_workers=workers) as pool:
            parts = list(pool.map(lambda b: run(*b), bounds))
        counts = np.concatenate([p[0] for p in parts])
        sols = np.concatenate([p[1] for p in parts])
    return BatchResult(counts, sols.reshape(m, n, n), limit)


def count_batch(grids, *, shape=None, limit: int = 1_000_000, workers: int = 1) -> np.ndarray:
    """Solutions per puzzle, at most ``limit`` (so ``== limit`` means "≥ limit")."""
    return solve_batch(grids, shape=shape, limit=limit, workers=workers).n_solutions


def classify_batch(grids, *, shape=None, workers: int = 1) -> np.ndarray:
    """``"none"`` / ``"unique"`` / ``"multiple"`` per puzzle."""
    return solve_batch(grids, shape=shape, limit=2, workers=workers).status


def _given_rows(arr: np.ndarray, n: int) -> list[int]:
    cells = np.flatnonzero(arr)
    return (cells * n + arr[cells] - 1).tolist()


def _conflict(arr: np.ndarray, s: Sudoku) -> str | None:
    """Why the givens break a rule (``None`` if they do not)."""
    try:
        s.parse(arr)
    except ValueError as e:
        return str(e)
    return None


def solve(grid, *, shape=None) -> np.ndarray:
    """The unique solution of ``grid`` as an ``N × N`` array.

    Raises
    ------
    NoSolutionError
        The puzzle has no solution (the message says why when the givens
        repeat a digit).
    MultipleSolutionsError
        It has more than one; use :func:`solutions` to list them.
    """
    s = _shape_for(grid, shape)
    arr = to_array(grid, s)
    res = _run_batch(s, arr[None, :], 2)
    count = int(res[0][0])
    if count == -1:
        raise NoSolutionError(f"no solution: {_conflict(arr, s)}")
    if count == 0:
        raise NoSolutionError("no solution")
    if count > 1:
        raise MultipleSolutionsError("more than one solution")
    return res[1][0].reshape(s.n, s.n)


def solutions(grid, *, shape=None, limit: int | None = 100) -> list[np.ndarray]:
    """Every solution of ``grid`` (up to ``limit``) as ``N × N`` arrays, in search order."""
    s = _shape_for(grid, shape)
    arr = to_array(grid, s)
    ec = _thread_ec(s)
    try:
        return [s.to_grid(rows) for rows in ec.solutions(given=_given_rows(arr, s.n), limit=limit)]
    except ConflictingGivensError:
        return []


def count_solutions(grid, limit: int | None = None, *, shape=None) -> int:
    """Number of solutions of ``grid``, at most ``limit``.

    With ``limit=None`` the count is exact: plain search first, and past
    100,000 solutions a memoized count (subproblems keyed on the uncovered
    columns, filling the grid row by row; 128-bit counters, exact ints).
    That is fast for puzzles, but a near-empty 9×9 grid is the full grid
    count (hours; the empty grid has 6,670,903,752,021,072,936,960
    completions), so give a limit unless the puzzle has enough givens.

    Example
    -------
    >>> count_solutions("1" + "." * 15, shape="2x2")   # 288 / 4
    72
    >>> count_solutions("." * 81, limit=1000)
    1000
    """
    s = _shape_for(grid, shape)
    arr = to_array(grid, s)
    if limit is not None:
        limit = int(limit)
        if limit < 1:
            raise ValueError(f"limit must be >= 1 (or None for an exact count), got {limit}")
        if limit <= _BATCH_LIMIT_MAX:
            return int(max(_run_batch(s, arr[None, :], limit)[0][0], 0))
    given = _given_rows(arr, s.n)
    try:
        if limit is not None:
            return _thread_ec(s).count(given=given, limit=limit)
        # Plain search (minimum remaining values over the whole grid) is
        # fastest for puzzles with few solutions; past _PLAIN_COUNT_MAX
        # solutions, count again with memo (row by row, subproblems keyed on
        # the uncovered columns), which is what near-empty grids need.
        plain = _thread_ec(s).count(given=given, limit=_PLAIN_COUNT_MAX)
        if plain < _PLAIN_COUNT_MAX:
            return plain
        return _thread_ec(s, "rows").count(given=given, memo=True)
    except ConflictingGivensError:
        return 0


def classify(grid, *, shape=None) -> str:
    """``"none"``, ``"unique"`` or ``"multiple"``."""
    return STATUSES[min(count_solutions(grid, 2, shape=shape), 2)]


def is_unique(grid, *, shape=None) -> bool:
    """Whether ``grid`` has exactly one solution."""
    return count_solutions(grid, 2, shape=shape) == 1


# ----------------------------------------------------------------------
# generating puzzles

def random_grid(rng: np.random.Generator, shape=None) -> np.ndarray:
    """A random full grid (flat ``N²`` array): the engine's first solution
    with the matrix rows in a random order.

    The rows of the Sudoku matrix are permuted by ``rng``; the engine then
    branches on the same columns (minimum remaining values) but tries the
    candidates of each in the permuted order, so its first solution is a
    random grid (not uniformly distributed over all grids).
    """
    s = get_sudoku(shape)
    indptr, indices = s.csr()
    perm = rng.permutation(s.n_rows)
    permuted = indices.reshape(s.n_rows, -1)[perm].ravel()
    rows = ExactCover.from_csr(indptr, permuted, s.n_columns).first()
    return s.to_grid(perm[np.asarray(rows)]).reshape(-1)


@dataclass
class Generated:
    """One :func:`generate` result.

    Attributes
    ----------
    puzzle : ndarray or None
        Flat ``N²`` puzzle with a unique solution; ``None`` if none was found
        in time.
    solution : ndarray or None
        Its solution (the full grid it was cut from).
    clues : int
        Clues of ``puzzle`` (0 when it failed).
    attempts : int
        Full grids tried.
    checks : int
        Uniqueness checks run.
    seconds : float
    """

    puzzle: np.ndarray | None
    solution: np.ndarray | None
    clues: int
    attempts: int
    checks: int
    seconds: float

    @property
    def ok(self) -> bool:
        return self.puzzle is not None


def _orbits(n: int, symmetric: bool, rng: np.random.Generator) -> list[np.ndarray]:
    """Cells in a random order; with ``symmetric`` as 180°-rotation pairs."""
    nn = n * n
    if not symmetric:
        return [np.asarray([k]) for k in rng.permutation(nn)]
    reps = [k for k in range(nn) if k <= nn - 1 - k]
    return [np.unique([reps[i], nn - 1 - reps[i]]) for i in rng.permutation(len(reps))]


def _unique(ec: ExactCover, grid: np.ndarray, n: int) -> bool:
    cells = np.flatnonzero(grid)
    given = cells * n + grid[cells] - 1
    counts, _ = ec.solve_batch((np.asarray([0, given.size]), given), limit=2, width=0)
    return int(counts[0]) == 1


def generate(clues: int | None = None, *, seed=None, symmetric: bool = False,
             minimal: bool = False, max_seconds: float | None = 30.0,
             shape=None) -> Generated:
    """A puzzle with a unique solution and exactly ``clues`` clues.

    Each attempt takes a random full grid (:func:`random_grid`) and visits
    its cells (with ``symmetric``: pairs of cells opposite under a 180°
    rotation) in a random order, removing each while the puzzle keeps a
    unique solution.  Without ``minimal`` it stops at ``clues`` clues.  With
    ``minimal`` it visits every cell, so no clue of the result can go (a
    clue that could not go stays necessary when others go: fewer clues
    never mean fewer solutions); ``clues`` then asks for a minimal puzzle
    of exactly that size, and may be ``None`` (any size).  With both
    ``symmetric`` and ``minimal``, no symmetric pair can go (a single clue
    of a pair might).  An attempt that
    misses ``clues`` starts again with a new grid, until ``max_seconds``.

    Deterministic for a given ``seed`` (an int, a SeedSequence or a
    Generator): the same puzzle every time, unless time runs out first.

    Example
    -------
    >>> g = generate(10, seed=1, shape="2x2")
    >>> g.clues, is_unique(g.puzzle, shape="2x2")
    (10, True)
    """
    s = get_sudoku(shape)
    n, nn = s.n, s.n * s.n
    if clues is None and not minimal:
        raise ValueError("give the number of clues, or minimal=True")
    if clues is not None and not 0 <= clues <= nn:
        raise ValueError(f"clues must be in 0..{nn}, got {clues}")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    ec = _thread_ec(s)
    t0 = time.perf_counter()
    attempts = checks = 0
    while True:
        attempts += 1
        solution = random_grid(rng, s)
        grid = solution.copy()
        left = nn
        for orbit in _orbits(n, symmetric, rng):
            if not minimal and left == clues:
                break
            if not minimal and clues is not None and left - orbit.size < clues:
                continue    # a pair would overshoot; a single cell may still fit
            saved = grid[orbit].copy()
            grid[orbit] = 0
            checks += 1
            if _unique(ec, grid, n):
                left -= orbit.size
            else:
                grid[orbit] = saved
            if max_seconds is not None and time.perf_counter() - t0 > max_seconds:
                break
        if clues is None or left == clues:
            return Generated(grid, solution, left, attempts, checks, time.perf_counter() - t0)
        if max_seconds is not None and time.perf_counter() - t0 > max_seconds:
            return Generated(None, None, 0, attempts, checks, time.perf_counter() - t0)


def generate_many(count: int, clues: int | None = None, *, seed=None,
                  **kwargs) -> Iterator[Generated]:
    """``count`` puzzles (see :func:`generate`); puzzle ``i`` uses the
    ``i``-th child of ``SeedSequence(seed)``, so each is reproducible alone
    and ``max_seconds`` applies to each."""
    for child in np.random.SeedSequence(seed).spawn(count):
        yield generate(clues, seed=np.random.default_rng(child), **kwargs)


# ----------------------------------------------------------------------
# explaining: human-style rules, then branching

#: Rules in the order they are tried (and rows of the statistics table).
RULES = (
    "naked single",
    "hidden single (row)",
    "hidden single (column)",
    "hidden single (box)",
    "pointing",
    "claiming",
    "naked pair",
    "hidden pair",
    "naked triple",
    "hidden triple",
)
_KIND_NAMES = ("row", "column", "box")


@dataclass(frozen=True)
class Step:
    """One step of an explanation.

    Attributes
    ----------
    rule : str
        A name from :data:`RULES`, or ``"branch"`` (a guess),
        ``"contradiction"`` (a guess failed; its digit is removed).
    depth : int
        Guesses in force when the step was taken (0: pure deduction).
    text : str
        What was done, for people (``r3c5 = 7``, ``r1c2 ≠ 4``).
    placement : tuple or None
        ``(cell, digit)`` placed (cells row-major from 0).
    eliminations : tuple
        ``(cell, digit)`` pairs removed from the candidates.
    """

    rule: str
    depth: int
    text: str
    placement: tuple[int, int] | None = None
    eliminations: tuple[tuple[int, int], ...] = ()


@dataclass
class Explanation:
    """What :func:`explain` did.

    Attributes
    ----------
    puzzle, solution : ndarray
        Flat ``N²`` grids; ``solution`` is ``None`` when there is none.
    steps : list of Step
        Every step (empty with ``steps=False``).
    counts : dict
        Times each rule of :data:`RULES` fired (placements for singles,
        applications that removed a candidate for the others), every rule
        present.
    branches : int
        Guesses made when the rules stalled.
    backtracks : int
        Guesses that led to a contradiction.
    max_depth : int
        Most guesses in force at once.
    reason : str or None
        Why there is no solution.
    """

    puzzle: np.ndarray
    solution: np.ndarray | None
    steps: list[Step]
    counts: dict[str, int]
    branches: int = 0
    backtracks: int = 0
    max_depth: int = 0
    reason: str | None = None
    shape: str = "3x3"

    @property
    def solved(self) -> bool:
        return self.solution is not None

    def table(self) -> str:
        return _rule_table(self.counts, self.branches, self.backtracks)


def _rule_table(counts: dict[str, int], branches: int, backtracks: int,
                extra: Sequence[tuple[str, str]] = ()) -> str:
    rows = [(r, f"{counts.get(r, 0):,}") for r in RULES]
    rows += [("branches (guesses)", f"{branches:,}"), ("backtracks", f"{backtracks:,}")]
    rows += list(extra)
    w = max(len(k) for k, _ in rows)
    v = max(len(x) for _, x in rows)
    return "\n".join(f"{k:<{w}}  {x:>{v}}" for k, x in rows)


class _Geometry:
    """Units and their intersections for one shape (built once per shape)."""

    def __init__(self, s: Sudoku):
        n = self.n = s.n
        self.nn = n * n
        self.full = (1 << n) - 1
        units: list[tuple[int, ...]] = []
        kinds: list[int] = []
        for r in range(n):
            units.append(tuple(r * n + c for c in range(n)))
            kinds.append(0)
        for c in range(n):
            units.append(tuple(r * n + c for r in range(n)))
            kinds.append(1)
        self.latin = s.latin
        box_of = [0] * self.nn
        if not s.latin:
            for b in range(n):
                r0 = (b // s.box_rows) * s.box_rows
                c0 = (b % s.box_rows) * s.box_cols
                cells = tuple((r0 + i) * n + c0 + j for i in range(s.box_rows)
                              for j in range(s.box_cols))
                for k in cells:
                    box_of[k] = b
                units.append(cells)
                kinds.append(2)
        self.units = units
        self.kinds = kinds
        self.box_of = box_of
        self.label = [f"{_KIND_NAMES[k]} {i % n + 1}" for i, k in enumerate(kinds)]
        peers: list[set[int]] = [set() for _ in range(self.nn)]
        for u in units:
            for k in u:
                peers[k].update(u)
        self.peers = [tuple(sorted(p - {k})) for k, p in enumerate(peers)]
        # (box unit, line unit, cells of both, box cells off the line, line cells off the box)
        self.crossings: list[tuple[int, int, tuple, tuple, tuple]] = []
        if not s.latin:
            for bu in range(2 * n, 3 * n):
                box = set(units[bu])
                for lu in range(2 * n):
                    both = box & set(units[lu])
                    if both:
                        self.crossings.append((bu, lu, tuple(sorted(both)),
                                               tuple(sorted(box - both)),
                                               tuple(sorted(set(units[lu]) - box))))


@lru_cache(maxsize=None)
def _geometry(r: int, c: int) -> _Geometry:
    return _Geometry(_sudoku(r, c))


class _Contradiction(Exception):
    def __init__(self, why: str):
        self.why = why


class _RuleSolver:
    """Candidates as bit masks (bit d-1 for digit d); one instance per puzzle."""

    def __init__(self, geo: _Geometry, record: bool):
        self.g = geo
        self.record = record
        self.steps: list[Step] = []
        self.counts = dict.fromkeys(RULES, 0)
        self.branches = self.backtracks = self.max_depth = 0
        self.depth = 0
        self.value: list[int] = []
        self.cand: list[int] = []

    # -- helpers -----------------------------------------------------------
    def _name(self, k: int) -> str:
        return _cell(k, self.g.n)

    @staticmethod
    def _digits(mask: int) -> list[int]:
        out, d = [], 1
        while mask:
            if mask & 1:
                out.append(d)
            mask >>= 1
            d += 1
        return out

    def _sym(self, d: int) -> str:
        return ALPHABET[d - 1]

    def _place(self, k: int, d: int, rule: str, why: str) -> None:
        bit = 1 << (d - 1)
        if not self.cand[k] & bit:
            raise _Contradiction(f"{self._name(k)} cannot be {self._sym(d)}")
        self.value[k] = d
        self.cand[k] = 0
        for p in self.g.peers[k]:
            self.cand[p] &= ~bit
        self.counts[rule] += 1
        if self.record:
            self.steps.append(Step(rule, self.depth, f"{self._name(k)} = {self._sym(d)}  {why}",
                                   (k, d)))

    def _eliminate(self, rule: str, elims: list[tuple[int, int]], why: str) -> None:
        for k, d in elims:
            self.cand[k] &= ~(1 << (d - 1))
        self.counts[rule] += 1
        if self.record:
            gone = ", ".join(f"{self._name(k)}≠{self._sym(d)}" for k, d in elims)
            self.steps.append(Step(rule, self.depth, f"{why} → {gone}", None, tuple(elims)))

    # -- rules: each returns True if it changed something ------------------
    def _naked_singles(self) -> bool:
        done = False
        value, cand = self.value, self.cand
        for k in range(self.g.nn):
            if value[k]:
                continue
            m = cand[k]
            if m == 0:
                raise _Contradiction(f"{self._name(k)} has no candidate left")
            if m & (m - 1) == 0:
                self._place(k, m.bit_length(), "naked single", "naked single")
                done = True
        return done

    def _hidden_singles(self) -> bool:
        g, value, cand = self.g, self.value, self.cand
        for kind in range(3 if not g.latin else 2):
            rule = RULES[1 + kind]
            done = False
            for ui in range(kind * g.n, (kind + 1) * g.n):
                unit = g.units[ui]
                once = twice = placed = 0
                for k in unit:
                    if value[k]:
                        placed |= 1 << (value[k] - 1)
                    else:
                        m = cand[k]
                        twice |= once & m
                        once |= m
                missing = g.full & ~placed & ~once
                if missing:
                    d = missing.bit_length()
                    raise _Contradiction(f"no place for {self._sym(d)} in {g.label[ui]}")
                single = once & ~twice
                while single:
                    bit = single & -single
                    single ^= bit
                    for k in unit:
                        if cand[k] & bit and not value[k]:
                            self._place(k, bit.bit_length(), rule,
                                        f"hidden single in {g.label[ui]}")
                            break
                    done = True
            if done:
                return True
        return False

    def _locked_candidates(self) -> bool:
        g, cand = self.g, self.cand
        for pointing in (True, False):
            rule = "pointing" if pointing else "claiming"
            for bu, lu, both, box_rest, line_rest in g.crossings:
                inside = 0
                for k in both:
                    inside |= cand[k]
                if not inside:
                    continue
                # pointing: digits of the box only on this line → off the line's rest
                # claiming: digits of the line only in this box → off the box's rest
                source, target = (box_rest, line_rest) if pointing else (line_rest, box_rest)
                outside = 0
                for k in source:
                    outside |= cand[k]
                locked = inside & ~outside
                if not locked:
                    continue
                hit = 0
                for k in target:
                    hit |= cand[k]
                locked &= hit
                if not locked:
                    continue
                d = (locked & -locked).bit_length()
                bit = 1 << (d - 1)
                elims = [(k, d) for k in target if cand[k] & bit]
                if pointing:
                    why = f"pointing: {self._sym(d)} in {g.label[bu]} only in {g.label[lu]}"
                else:
                    why = f"claiming: {self._sym(d)} in {g.label[lu]} only in {g.label[bu]}"
                self._eliminate(rule, elims, why)
                return True
        return False

    def _naked_subset(self, size: int) -> bool:
        g, value, cand = self.g, self.value, self.cand
        rule = "naked pair" if size == 2 else "naked triple"
        for ui, unit in enumerate(g.units):
            empty = [k for k in unit if not value[k]]
            if len(empty) <= size:
                continue
            small = [k for k in empty if bin(cand[k]).count("1") <= size]
            for combo in itertools.combinations(small, size):
                union = 0
                for k in combo:
                    union |= cand[k]
                if bin(union).count("1") != size:
                    continue
                elims = [(k, d) for k in empty if k not in combo
                         for d in self._digits(cand[k] & union)]
                if elims:
                    digits = ",".join(self._sym(d) for d in self._digits(union))
                    where = ",".join(self._name(k) for k in combo)
                    self._eliminate(rule, elims, f"{rule} {{{digits}}} in {where} ({g.label[ui]})")
                    return True
        return False

    def _hidden_subset(self, size: int) -> bool:
        g, value, cand = self.g, self.value, self.cand
        rule = "hidden pair" if size == 2 else "hidden triple"
        for ui, unit in enumerate(g.units):
            empty = [k for k in unit if not value[k]]
            if len(empty) <= size:
                continue
            where: dict[int, int] = {}   # digit → mask over positions in `empty`
            for i, k in enumerate(empty):
                for d in self._digits(cand[k]):
                    where[d] = where.get(d, 0) | (1 << i)
            few = [d for d, m in where.items() if bin(m).count("1") <= size]
            for combo in itertools.combinations(sorted(few), size):
                pos = 0
                for d in combo:
                    pos |= where[d]
                if bin(pos).count("1") != size:
                    continue
                keep = 0
                for d in combo:
                    keep |= 1 << (d - 1)
                cells = [empty[i] for i in range(len(empty)) if pos >> i & 1]
                elims = [(k, d) for k in cells for d in self._digits(cand[k] & ~keep)]
                if elims:
                    digits = ",".join(self._sym(d) for d in combo)
                    at = ",".join(self._name(k) for k in cells)
                    self._eliminate(rule, elims, f"{rule} {{{digits}}} in {at} ({g.label[ui]})")
                    return True
        return False

    # -- driver ------------------------------------------------------------
    def _propagate(self) -> bool:
        """Apply rules until solved (True) or stalled (False); may raise _Contradiction."""
        steps = (self._naked_singles, self._hidden_singles, self._locked_candidates,
                 lambda: self._naked_subset(2), lambda: self._hidden_subset(2),
                 lambda: self._naked_subset(3), lambda: self._hidden_subset(3))
        while True:
            if all(self.value):
                return True
            for rule in steps:
                if rule():
                    break
            else:
                return False

    def _search(self) -> bool:
        """Rules, then a guess on a cell with fewest candidates; True if solved."""
        while True:
            try:
                if self._propagate():
                    return True
            except _Contradiction as c:
                self._why = c.why
                return False
            g = self.g
            k = min((k for k in range(g.nn) if not self.value[k]),
                    key=lambda k: bin(self.cand[k]).count("1"))
            digits = self._digits(self.cand[k])
            d = digits[0]
            self.branches += 1
            if self.record:
                opts = ",".join(self._sym(x) for x in digits)
                self.steps.append(Step("branch", self.depth,
                                       f"{self._name(k)} = {self._sym(d)}  branch: a guess "
                                       f"(candidates {opts})", (k, d)))
            saved = (self.value[:], self.cand[:])
            self.depth += 1
            self.max_depth = max(self.max_depth, self.depth)
            try:
                self._guess(k, d)
                ok = self._search()
            finally:
                self.depth -= 1
            if ok:
                return True
            self.value, self.cand = saved
            self.backtracks += 1
            self.cand[k] &= ~(1 << (d - 1))
            if self.record:
                self.steps.append(Step("contradiction", self.depth,
                                       f"contradiction ({self._why}) → {self._name(k)}"
                                       f"≠{self._sym(d)}", None, ((k, d),)))

    def _guess(self, k: int, d: int) -> None:
        bit = 1 << (d - 1)
        self.value[k] = d
        self.cand[k] = 0
        for p in self.g.peers[k]:
            self.cand[p] &= ~bit

    def run(self, arr: np.ndarray) -> bool:
        g = self.g
        self.value = [int(v) for v in arr]
        self.cand = [0 if v else g.full for v in self.value]
        for k, v in enumerate(self.value):
            if v:
                bit = 1 << (v - 1)
                for p in g.peers[k]:
                    if self.value[p] == v:
                        self._why = f"{self._name(p)} and {self._name(k)} both hold {self._sym(v)}"
                        return False
                    self.cand[p] &= ~bit
        self._why = None
        return self._search()


def explain(grid, *, shape=None, steps: bool = True) -> Explanation:
    """Solve by human-style rules, branching only when they stall.

    Rules, simplest first, restarting from the top after every change:
    naked single, hidden single (row, column, box), pointing and claiming
    (locked candidates), naked pair, hidden pair, naked triple, hidden
    triple.  When none applies the solver guesses the first candidate of a
    cell with fewest candidates; a guess that ends in a contradiction is
    undone and its digit removed (trial and error).  No randomness: the same
    puzzle always gives the same steps and counts.

    A puzzle with several solutions is explained to one of them; a puzzle
    with none ends with ``solution=None`` and the ``reason``.

    Example
    -------
    >>> e = explain("1.34" "3..2" "2..3" "4.21", shape="2x2")
    >>> format_line(e.solution), e.branches
    ('1234341221434321', 0)
    """
    s = _shape_for(grid, shape)
    arr = to_array(grid, s)
    solver = _RuleSolver(_geometry(s.box_rows, s.box_cols), steps)
    ok = solver.run(arr)
    return Explanation(
        puzzle=arr, solution=np.asarray(solver.value, dtype=np.int64) if ok else None,
        steps=solver.steps, counts=solver.counts, branches=solver.branches,
        backtracks=solver.backtracks, max_depth=solver.max_depth,
        reason=None if ok else solver._why, shape=s.shape)


@dataclass
class RuleStats:
    """Rule counts summed over many puzzles (:func:`explain_stats`).

    Attributes
    ----------
    puzzles, solved, no_branch : int
        Puzzles explained, solved, and solved by the rules alone.
    counts : dict
        Total firings per rule.
    branches, backtracks, max_branches : int
        Total guesses, failed guesses, and the most in one puzzle.
    """

    puzzles: int = 0
    solved: int = 0
    no_branch: int = 0
    counts: dict = field(default_factory=lambda: dict.fromkeys(RULES, 0))
    branches: int = 0
    backtracks: int = 0
    max_branches: int = 0

    def add(self, e: Explanation) -> None:
        self.puzzles += 1
        self.solved += e.solved
        self.no_branch += e.solved and e.branches == 0
        for r, c in e.counts.items():
            self.counts[r] += c
        self.branches += e.branches
        self.backtracks += e.backtracks
        self.max_branches = max(self.max_branches, e.branches)

    def table(self) -> str:
        extra = [("puzzles", f"{self.puzzles:,}"), ("solved", f"{self.solved:,}"),
                 ("solved without branching", f"{self.no_branch:,}"),
                 ("most branches in one puzzle", f"{self.max_branches:,}")]
        return _rule_table(self.counts, self.branches, self.backtracks, extra)

    def as_dict(self) -> dict:
        return {"puzzles": self.puzzles, "solved": self.solved, "no_branch": self.no_branch,
                "rules": dict(self.counts), "branches": self.branches,
                "backtracks": self.backtracks, "max_branches": self.max_branches}


def _explain_quietly(args) -> Explanation:
    grid, shape = args
    return explain(grid, shape=shape, steps=False)


def explain_stats(grids: Iterable, *, shape=None, workers: int = 1,
                  progress=None) -> RuleStats:
    """Rule counts over many puzzles (steps are not kept).

    The rules run in Python, so ``workers > 1`` uses a process pool (the
    parent sums the counts; workers ignore Ctrl-C, the parent terminates
    them).  ``progress(k)`` is called after each ``k`` puzzles.
    """
    from dlx._pools import spawn_pool
    stats = RuleStats()
    jobs = ((g, shape) for g in grids)
    with (spawn_pool(workers) if workers > 1 else contextlib.nullcontext()) as pool:
        for e in (map(_explain_quietly, jobs) if pool is None
                  else pool.imap(_explain_quietly, jobs, chunksize=16)):
            stats.add(e)
            if progress:
                progress(1)
    return stats
