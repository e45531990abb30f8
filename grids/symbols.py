"""The symbols of text grids and the shapes text can write, without NumPy.

What reading and writing a text grid needs before any array exists: the
digit symbols (:data:`ALPHABET`, :data:`BLANKS`), the byte tables that turn
symbols into values and back (:func:`symbol_bytes`, :func:`text_bytes`, for
:meth:`bytes.translate`), the box shape of a grid (:func:`grid_shape`,
:func:`text_shape`) and the error of a grid that cannot be read
(:class:`PuzzleError`).  :mod:`grids.grid` builds its arrays on these and
exports them again; they live here so that ``gridcount solve FILE`` reads,
solves and writes a plain file without importing NumPy (issue 37).

Example
-------
>>> b"12.A".translate(symbol_bytes(16))
b'\\x01\\x02\\x00\\n'
>>> b"\\x01\\x02\\x00\\x0a".translate(text_bytes("."))
b'12.A'
"""
from __future__ import annotations

import math
from functools import lru_cache

from grids.shape import Shape, as_shape

__all__ = ["ALPHABET", "BLANKS", "NO_SYMBOL", "PuzzleError", "grid_shape", "text_shape",
           "symbol_bytes", "text_bytes", "text_block"]

#: Digit symbols in text grids: value v (1-based) is ALPHABET[v - 1], so
#: text holds grids of at most len(ALPHABET) = 35 digits.
ALPHABET = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: Symbols of an empty cell.
BLANKS = ".0"
#: The value :func:`symbol_bytes` gives a byte that is no symbol (as a signed
#: byte, -1).
NO_SYMBOL = 0xFF


class PuzzleError(ValueError):
    """A grid or puzzle that cannot be read, or has not exactly one solution.

    Raised here for bad symbols, sizes, digits and shapes;
    :mod:`grids.puzzles` derives the errors for puzzles without exactly one
    solution from it.
    """


def grid_shape(shape=None, n_cells: int | None = None) -> Shape:
    """The box shape of a grid.

    ``shape`` is a :class:`~grids.shape.Shape`, ``"RxC"``, ``(R, C)``, an
    object with a ``shape`` attribute that is a Shape (a
    :class:`~grids.sudoku.Sudoku`), or ``None``: 3x3, or ``k×k`` boxes when
    ``n_cells`` is ``k⁴`` (16 → 2x2, 256 → 4x4).

    Example
    -------
    >>> grid_shape(None, 16).name, grid_shape("2x3").n
    ('2x2', 6)
    """
    if isinstance(shape, Shape):
        return shape
    if isinstance(getattr(shape, "shape", None), Shape):
        return shape.shape
    if shape is not None:
        return as_shape(shape)
    if n_cells is None or n_cells == 81:
        return Shape(3, 3)
    n = math.isqrt(n_cells)
    k = math.isqrt(n)
    if n * n == n_cells and k * k == n and k > 0:
        return Shape(k, k)
    raise PuzzleError(f"a grid of {n_cells} cells has no square box shape; "
                      f"pass the shape, e.g. shape='2x3'")


def text_shape(shape=None, n_cells: int | None = None) -> Shape:
    """:func:`grid_shape`, refusing shapes whose digits text cannot write (N > 35).

    Example
    -------
    >>> text_shape("5x7").n
    35
    """
    s = grid_shape(shape, n_cells)
    if s.n > len(ALPHABET):
        raise PuzzleError(f"box shape {s}: {s.n}x{s.n} grids have digits 1..{s.n}, but text has "
                          f"symbols for at most {len(ALPHABET)} (1-9, A-Z)")
    return s


@lru_cache(maxsize=None)
def symbol_bytes(n: int) -> bytes:
    """Byte → value for an N-digit grid, as a :meth:`bytes.translate` table:
    0 for a blank, ``v`` for digit ``v`` (either case), :data:`NO_SYMBOL`
    for any other byte (a newline too)."""
    table = bytearray([NO_SYMBOL]) * 256
    for ch in BLANKS:
        table[ord(ch)] = 0
    for v in range(1, n + 1):
        ch = ALPHABET[v - 1]
        table[ord(ch)] = table[ord(ch.lower())] = v
    return bytes(table)


@lru_cache(maxsize=None)
def text_bytes(blank: str = ".") -> bytes:
    """Value → symbol as a :meth:`bytes.translate` table: 0 is ``blank`` (one
    ASCII character), ``v`` is ``ALPHABET[v - 1]``, larger values ``?``."""
    if len(blank) != 1 or not blank.isascii():
        raise ValueError(f"blank must be one ASCII character, got {blank!r}")
    return (blank + ALPHABET).encode("ascii").ljust(256, b"?")


def text_block(values, width: int, blank: str = ".") -> bytes:
    """Rows of ``width`` values (a bytes-like object, one byte a cell) as
    text: each row's symbols and a newline, one ASCII ``bytes`` for all.

    No ``str`` per row and no array: the rows are slices of the translated
    text joined by newlines, about 20 ms for 50,000 grids of 81 cells
    [issue 37: a column at a time, ``width`` strided copies over the whole
    block, took twice as long].

    Example
    -------
    >>> text_block(bytes([1, 2, 0, 4, 0, 0, 0, 0]), 4)
    b'12.4\\n....\\n'
    """
    table = text_bytes(blank)
    if width <= 0 or not len(values):
        return b""
    text = bytes(values).translate(table)
    rows = len(text) // width
    return b"\n".join([text[k:k + width] for k in range(0, rows * width, width)]) + b"\n"
