"""Grids of any box shape as text and arrays: the one parser and formatter.

A grid of box shape ``R×C`` has ``N = R·C`` digits and ``N²`` cells,
numbered row-major (``k = r·N + c``).  Everything that reads or writes grids
— :class:`grids.sudoku.Sudoku`, :mod:`grids.puzzles` and the command line —
goes through this module.

Text
----
``N²`` symbols, row-major; whitespace is ignored.  Blanks are ``.`` or
``0``.  Digits are ``1``–``9`` and then the letters ``A``–``Z`` for 10–35
(either case): a 16×16 grid uses ``1``–``9``, ``A``–``G``.

Arrays
------
``N²`` or ``N × N`` integers, 0 for blank; a batch is ``(m, N²)`` or
``(m, N, N)``.

Text has symbols for 35 digits: grids of more (``6x6`` boxes and up) are
refused in text (:func:`text_shape`), though arrays of them are fine.
Everything read is ASCII: no other Unicode digits or letters.

Reading checks symbols, sizes and ranges, not the rules: a digit repeated in
a row, column or box is a puzzle without solution, which
:func:`unit_conflict` names.

Batches in the engine
---------------------
The Sudoku matrix row ``(r·N + c)·N + d-1`` places digit ``d`` in cell
``(r, c)``.  :func:`solve_grids` turns a batch of grids into given rows,
runs :meth:`dlx.api.ExactCover.solve_batch` on a matrix with those rows and
turns the first solutions back into grids.

Example
-------
>>> from grids.shape import Shape
>>> g = to_array("12..3...........", Shape(2, 2))
>>> g[:5].tolist(), format_line(g)
([1, 2, 0, 0, 3], '12..3...........')
>>> unit_conflict("11" + "." * 14, Shape(2, 2))
'row 1 has digit 1 twice: r1c1 and r1c2'
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from grids.shape import Shape
from grids.symbols import (ALPHABET, BLANKS, PuzzleError, grid_shape, symbol_bytes, text_bytes,
                           text_shape)

__all__ = [
    "ALPHABET", "BLANKS", "PuzzleError", "grid_shape", "shape_of", "text_shape", "n_cells_of",
    "cell_name", "cell_rc", "symbol_table", "symbol_error", "parse_symbols", "to_array", "as_batch",
    "unit_conflict", "check_units", "format_line", "format_lines", "format_block", "format_hints",
    "decimal",
    "hint_digit", "solve_grids",
]

# ----------------------------------------------------------------------
# shapes (and the symbols, the tables and PuzzleError: grids.symbols)

def n_cells_of(grid) -> int:
    """Cells of a text grid (symbols that are not whitespace) or an array."""
    if isinstance(grid, (str, bytes)):
        text = grid.decode() if isinstance(grid, bytes) else grid
        return sum(1 for ch in text if not ch.isspace())
    return int(np.asarray(grid).size)


def shape_of(grid, shape=None) -> Shape:
    """``shape`` as a Shape, or the shape inferred from ``grid``'s size."""
    return grid_shape(shape, None if shape is not None else n_cells_of(grid))


def cell_name(k: int, n: int) -> str:
    """``r1c1``-style name of flat cell ``k`` of an ``N × N`` grid: for
    people, rows and columns from 1 (``cell_name(40, 9) == "r5c5"``)."""
    return f"r{k // n + 1}c{k % n + 1}"


def cell_rc(k: int, n: int) -> tuple[int, int]:
    """``(row, column)`` of flat cell ``k = row·N + column`` of an ``N × N``
    grid: for data (JSON, the API), from 0 (``cell_rc(40, 9) == (4, 4)``)."""
    return divmod(k, n)


# ----------------------------------------------------------------------
# reading

@lru_cache(maxsize=None)
def symbol_table(n: int) -> np.ndarray:
    """Byte → value for an N-digit grid (0 blank, -1 not a symbol), read-only."""
    return np.frombuffer(symbol_bytes(n), dtype=np.int8)     # bytes: read-only


def symbol_error(ch: str, k: int, n: int) -> str:
    """The message for symbol ``ch`` in cell ``k`` that is not one of an N-digit grid."""
    return (f"{cell_name(k, n)}: symbol {ch!r} is not a digit 1..{ALPHABET[n - 1]} "
            f"or a blank (. or 0)")


def parse_symbols(text: str, shape) -> np.ndarray:
    """A text grid as a flat ``(N²,)`` int64 array (0 blank), without unit checks.

    Raises
    ------
    PuzzleError
        Wrong number of symbols, or a symbol that is not a digit of the
        grid or a blank (the message names the cell).
    """
    n = text_shape(shape).n
    symbols = [ch for ch in text if not ch.isspace()]
    if len(symbols) != n * n:
        raise PuzzleError(f"a {n}x{n} grid needs {n * n} symbols, got {len(symbols)}")
    lut = symbol_table(n)
    codes = np.fromiter((ord(ch) for ch in symbols), dtype=np.int64, count=len(symbols))
    vals = np.where(codes < 256, lut[np.minimum(codes, 255)], -1).astype(np.int64)
    bad = np.flatnonzero(vals < 0)
    if bad.size:
        k = int(bad[0])
        raise PuzzleError(symbol_error(symbols[k], k, n))
    return vals


def _check_range(arr: np.ndarray, n: int, where: str = "") -> None:
    bad = np.argwhere((arr < 0) | (arr > n))
    if bad.size:
        *head, k = (int(x) for x in bad[0])
        prefix = f"grid {head[0]}: " if head else where
        value = arr[tuple(bad[0])]
        raise PuzzleError(f"{prefix}{cell_name(k, n)}: digit {value} out of range 1..{n} "
                          f"(0 for blank)")


def to_array(grid, shape=None) -> np.ndarray:
    """One grid (text or array) as a flat ``(N²,)`` int64 array, 0 for blank.

    Checks symbols and ranges, not the rules (see :func:`unit_conflict`).
    ``shape=None`` infers the shape from the grid's size (:func:`grid_shape`).

    Example
    -------
    >>> to_array("12..3...........")[:5].tolist()
    [1, 2, 0, 0, 3]
    """
    s = shape_of(grid, shape)
    n = s.n
    if isinstance(grid, (str, bytes)):
        return parse_symbols(grid.decode() if isinstance(grid, bytes) else grid, s)
    arr = np.asarray(grid)
    if arr.dtype.kind not in "iu":
        raise PuzzleError(f"grid array must hold integers, got dtype {arr.dtype}")
    if arr.shape not in ((n, n), (n * n,)):
        raise PuzzleError(f"grid array must have shape ({n}, {n}) or ({n * n},), got {arr.shape}")
    arr = arr.reshape(n * n).astype(np.int64)
    _check_range(arr, n)
    return arr


def as_batch(grids, shape=None, dtype=np.int64) -> np.ndarray:
    """Many grids as an ``(m, N²)`` int64 array, 0 for blank.

    Accepts an ``(m, N²)`` or ``(m, N, N)`` integer array, or a sequence of
    grids (text or arrays).  Errors name the grid (``grid 3: r1c2: ...``).
    ``dtype=np.uint8`` gives one byte a cell instead (grids of at most 255
    digits); an array already of that dtype is then not copied.
    """
    dtype = np.dtype(dtype)
    if dtype not in (np.dtype(np.int64), np.dtype(np.uint8)):
        raise ValueError(f"dtype must be int64 or uint8, got {dtype}")
    if isinstance(grids, np.ndarray):
        if grids.ndim == 3:
            n_cells = grids.shape[1] * grids.shape[2]
        elif grids.ndim == 2:
            n_cells = grids.shape[1]
        else:
            raise PuzzleError(f"a grid batch must be 2-d (n, N²) or 3-d (n, N, N), "
                              f"got shape {grids.shape}")
        n = grid_shape(shape, n_cells).n
        if grids.dtype.kind not in "iu":
            raise PuzzleError(f"grid array must hold integers, got dtype {grids.dtype}")
        arr = grids.reshape(grids.shape[0], n * n) if grids.shape[1:] == (n, n) else grids
        if arr.shape[1:] != (n * n,):
            raise PuzzleError(f"grid batch must have shape (k, {n * n}) or (k, {n}, {n}), "
                              f"got {grids.shape}")
        _check_byte_digits(n, dtype)
        _check_range(arr, n)
        return arr.astype(dtype, copy=False)
    grids = list(grids)
    s = grid_shape(shape, n_cells_of(grids[0]) if grids else None)
    _check_byte_digits(s.n, dtype)
    out = np.zeros((len(grids), s.n_cells), dtype=dtype)
    for k, g in enumerate(grids):
        try:
            out[k] = to_array(g, s)
        except PuzzleError as e:
            raise PuzzleError(f"grid {k}: {e}") from None
    return out


def _check_byte_digits(n: int, dtype: np.dtype) -> None:
    if dtype == np.uint8 and n > 255:
        raise PuzzleError(f"a byte holds digits up to 255; a {n}x{n} grid needs int64")


def decimal(token: str) -> int | None:
    """``token`` as a number if it is ASCII decimal digits only (no sign, no
    space, no other Unicode digits), else ``None``."""
    if token and token.isascii() and token.isdigit():
        return int(token)
    return None


def hint_digit(token: str, n: int) -> int | None:
    """A digit of a hint line (a decimal number or a letter of :data:`ALPHABET`),
    or ``None`` when it is not a digit 1..N."""
    v = decimal(token)
    if v is None and len(token) == 1 and token.isascii() and token.upper() in ALPHABET:
        v = ALPHABET.index(token.upper()) + 1
    return v if v is not None and 1 <= v <= n else None


# ----------------------------------------------------------------------
# the rules

def unit_conflict(grid, shape=None) -> str | None:
    """Why the givens break a rule (a digit twice in a unit), or ``None``.

    Units are checked in the order of :attr:`grids.shape.Shape.units` (rows,
    columns, boxes); the message names the first repeat.
    """
    s = shape_of(grid, shape)
    arr = to_array(grid, s)
    for name, cells in s.units:
        vals = arr[cells]
        filled = vals[vals > 0]
        if np.unique(filled).size == filled.size:
            continue
        seen: dict[int, int] = {}
        for k, v in zip(cells.tolist(), vals.tolist()):
            if v and v in seen:
                return (f"{name} has digit {ALPHABET[v - 1]} twice: "
                        f"{cell_name(seen[v], s.n)} and {cell_name(k, s.n)}")
            seen.setdefault(v, k)
    return None


def check_units(grid, shape=None) -> None:
    """Raise :class:`PuzzleError` naming the first digit repeated in a unit."""
    why = unit_conflict(grid, shape)
    if why is not None:
        raise PuzzleError(why)


# ----------------------------------------------------------------------
# writing

def format_line(grid, shape=None, blank: str = ".") -> str:
    """A grid as one line of ``N²`` symbols (``blank`` for empty cells).

    Raises :class:`PuzzleError` for a digit past 35, which text cannot write
    (or below 0).
    """
    return format_lines(np.asarray(grid).reshape(1, -1), blank)[0]


def format_lines(grids, blank: str = ".") -> list[str]:
    """Many grids (``(m, N²)`` or ``(m, N, N)``) as :func:`format_line` writes
    each, in one pass over the array: the symbols are one table lookup and
    one decode for the whole batch, not a Python loop over cells."""
    arr = _text_digits(grids)
    if arr.shape[0] == 0:
        return []
    width = arr.shape[1]
    if width == 0:
        return [""] * arr.shape[0]
    if len(blank) != 1 or not blank.isascii():
        symbols = [blank, *ALPHABET]
        return ["".join(symbols[v] for v in row) for row in arr.tolist()]
    # value v is byte v of the table (0: blank), so the lines are one
    # lookup; each line is then `width` characters of the decoded text
    table = np.frombuffer((blank + ALPHABET).encode("ascii"), dtype=np.uint8)
    text = table[arr].tobytes().decode("ascii")
    return [text[k:k + width] for k in range(0, len(text), width)]


def format_block(grids, blank: str = ".") -> bytes:
    """Many grids as :func:`format_lines` writes them, each line ended by a
    newline, as one ASCII ``bytes`` (a file of lines; ``blank`` one ASCII
    character).  No ``str`` per grid: for a large batch this is a few
    milliseconds where the lines and their joining took several times that
    (``gridcount solve FILE`` writes its solutions so, issue 37).

    Example
    -------
    >>> format_block([[1, 2, 0, 4], [0, 0, 0, 0]]).decode().splitlines()
    ['12.4', '....']
    """
    table = text_bytes(blank)   # a bad blank is refused before the grids are read
    arr = _text_digits(grids)
    out = np.empty((arr.shape[0], arr.shape[1] + 1), dtype=np.uint8)
    out[:, -1] = ord("\n")
    # bytes.translate, not a table lookup: numpy would widen the digits to
    # 8-byte indices first (an int64 copy of the batch).  The same block as
    # grids.symbols.text_block writes from bytes without NumPy (one 2-D copy
    # where that joins a slice per row)
    text = arr.astype(np.uint8, copy=False).tobytes().translate(table)
    out[:, :-1] = np.frombuffer(text, dtype=np.uint8).reshape(arr.shape)
    return out.tobytes()


def _text_digits(grids) -> np.ndarray:
    """``grids`` as an ``(m, N²)`` array whose digits text can write."""
    arr = np.asarray(grids)
    if arr.ndim == 0 or arr.shape[0] == 0:
        return np.zeros((0, 0), dtype=np.int64)
    arr = arr.reshape(arr.shape[0], -1)
    if arr.size and (arr.max() > len(ALPHABET) or arr.min() < 0):
        bad = int(arr.max()) if arr.max() > len(ALPHABET) else int(arr.min())
        raise PuzzleError(f"digit {bad} has no symbol: text has symbols for at "
                          f"most {len(ALPHABET)} digits (1-9, A-Z)")
    return arr


def format_hints(grid, shape=None) -> str:
    """A grid in the hint-list format: the count, then ``row column digit`` lines."""
    arr = to_array(grid, shape) if isinstance(grid, (str, bytes)) else np.asarray(grid).reshape(-1)
    n = math.isqrt(arr.size)
    cells = np.flatnonzero(arr)
    lines = [str(cells.size)] + [f"{k // n} {k % n} {int(arr[k])}" for k in cells]
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------
# batches in the engine

def solve_grids(ec, grids: np.ndarray, n: int, limit: int,
                solutions: bool = True) -> tuple[np.ndarray, np.ndarray | None]:
    """Run a validated ``(m, N²)`` batch on a Sudoku matrix ``ec``, in C without the GIL.

    ``ec`` is an :class:`~dlx.api.ExactCover` whose row ``(r·N + c)·N + d-1``
    places ``d`` in ``(r, c)`` (its column order is free).  Returns
    ``(counts, grids)``: ``counts[k]`` solutions found, at most ``limit``,
    ``-1`` when the givens share a column (repeat a digit in a unit); the
    first solution of each grid as a flat ``(m, N²)`` array, zeros when there
    is none (``None`` with ``solutions=False``, which skips copying them).
    """
    nn = n * n
    m = grids.shape[0]
    flat = grids.ravel()
    filled = np.flatnonzero(flat)
    given = (filled % nn) * n + flat[filled] - 1
    indptr = np.zeros(m + 1, dtype=np.int64)
    np.cumsum(np.count_nonzero(grids, axis=1), out=indptr[1:])
    counts, rows = ec.solve_batch((indptr, given), limit=limit, width=nn if solutions else 0)
    if not solutions:
        return counts, None
    # A solution holds one matrix row per cell, and row (cell·N + d-1)
    # sorts by cell: sorting each solution's rows lays it out row-major
    # (ten times faster than scattering with put_along_axis).
    rows.sort(axis=1)       # in place: the engine's array is ours (no second copy)
    rows %= n
    rows += 1
    sols = rows.astype(np.int64)
    sols[counts <= 0] = 0
    return counts, sols
