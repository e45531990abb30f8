"""The plain puzzle file as bytes, without NumPy: read, solved and written.

A *plain* file is the common one: every line exactly ``N²`` symbols, no
comment, blank line or space (a final newline or none; see
:func:`read_plain`).  Here it is read into one byte a cell, solved on the
candidate bit-board kernel (:mod:`grids.puzzles._boards`, which takes any
buffer) and its solutions written as text, with ``bytes``, ``bytearray``
and ``array.array`` only.  ``gridcount solve FILE`` takes this way when it
can and so never imports NumPy (a third of tdoku's whole run on the 17-clue
file, issue 37); any other file goes through :mod:`grids.puzzles.files`
and :func:`~grids.puzzles.solving.solve_batch`, which build their arrays on
the same reading (:func:`read_plain`) and the same tables
(:func:`board_tables`), so the two give the same answers.

Example
-------
>>> from grids.shape import Shape
>>> from grids.symbols import text_block
>>> grids = read_plain(b"1234341221434321\\n12..............\\n11..............", 4)
>>> len(grids)
48
>>> counts, sols = solve_plain(grids, Shape(2, 2), 2)
>>> counts.tolist()
[1, 2, -1]
>>> text_block(sols, 16).splitlines()[0]
b'1234341221434321'
"""
from __future__ import annotations

from array import array
from functools import lru_cache

from grids.puzzles import _boards
from grids.shape import Shape
from grids.symbols import NO_SYMBOL, symbol_bytes, text_bytes

__all__ = ["FORMATS", "MAX_DIGITS", "read_plain", "board_tables", "solve_plain"]

#: Input formats of puzzle files: ``auto`` detects ``line`` or ``hints``
#: from the first line (:func:`grids.puzzles.files.parse_puzzles`).
FORMATS = ("auto", "line", "hints")
#: The board kernel keeps one 16-bit candidate mask per cell.
MAX_DIGITS = 16
#: The last byte of a solution row written as text (no digit: one more
#: than any of 0..MAX_DIGITS), the newline once translated.
_ROW_END = 255


def read_plain(data: bytes, n: int) -> bytearray | None:
    """The grids of a plain file of ``N``-digit puzzles, one byte a cell
    (``N²`` bytes a puzzle, in file order; 0 blank), or ``None`` when the
    file is not plain: empty, a line of another length, a byte that is no
    symbol (``#``, a space, ``\\r``, a byte-order mark, anything not ASCII).

    The text is read as rows of ``N² + 1`` bytes, each ending in a newline:
    no string per line (splitting, joining and encoding 50,000 lines were
    most of the read, issue 37).
    """
    nn = n * n
    if data and not data.endswith(b"\n"):
        data += b"\n"
    if not data or len(data) % (nn + 1):
        return None
    rows = len(data) // (nn + 1)
    if data[nn::nn + 1] != b"\n" * rows:
        return None
    # the newlines deleted in the same pass: exactly one a row, where they
    # were checked, when N² bytes a row are left [issue 37: one pass, where
    # a count and a replace of the newlines made three]
    values = bytearray(data).translate(symbol_bytes(n), b"\n")
    if len(values) != rows * nn or NO_SYMBOL in values:
        return None
    return values


@lru_cache(maxsize=None)
def board_tables(shape: Shape) -> tuple[array, array]:
    """``(units, peers)`` of ``shape`` as the board kernel reads them, flat
    int32 arrays: the ``N`` cells of each unit, then the peers of each of
    the ``N²`` cells (every cell has as many), from
    :attr:`~grids.shape.Shape.unit_cells` and
    :attr:`~grids.shape.Shape.peer_cells`.  Shared: do not write to them."""
    return (array("i", [k for cells in shape.unit_cells for k in cells]),
            array("i", [k for cells in shape.peer_cells for k in cells]))


def solve_plain(grids, shape: Shape, limit: int,
                text: bool = False) -> tuple[array, bytearray]:
    """``(counts, solutions)`` of the byte grids ``grids`` (``N²`` bytes a
    puzzle, digits ``0..N``, as :func:`read_plain` gives them), as
    :func:`~grids.puzzles.boards.solve_boards` gives them for a byte batch:
    ``counts[k]`` solutions found, at most ``limit`` (``-1`` when two givens
    repeat a digit in a unit), an ``array('q')``; the first solution found
    of each puzzle, ``N²`` bytes (zeros when there is none).

    With ``text`` the solutions come as :func:`~grids.symbols.text_block`
    writes them (``.`` blank): the kernel writes each into a row of
    ``N² + 1`` bytes whose last byte, ``_ROW_END``, one translate turns
    into a newline with the digits [issue 37: no pass to cut the rows]."""
    n, nn = shape.n, shape.n_cells
    if n > MAX_DIGITS:
        raise ValueError(f"the board solver takes grids of at most {MAX_DIGITS} digits, "
                         f"not {n}")
    if not 1 <= limit <= 2 ** 63 - 1:
        raise ValueError(f"limit must be >= 1, got {limit}")
    if len(grids) % nn:
        raise ValueError(f"grids must be {nn} bytes a puzzle, got {len(grids)} bytes")
    # the bytes left once every digit 0..n is deleted: none [issue 37: one
    # pass in C; max() over the bytes took 80 ms of a 0.45 s --first run]
    digits = grids if isinstance(grids, (bytes, bytearray)) else bytes(grids)
    if digits.translate(None, bytes(range(n + 1))):
        raise ValueError(f"digits must be in 0..{n}")
    m = len(grids) // nn
    counts = array("q", bytes(8 * m))
    if not text:
        sols = bytearray(len(grids))
        _boards.solve_batch_bytes(n, *board_tables(shape), grids, limit, counts, sols)
        return counts, sols
    rows = bytearray([_ROW_END]) * (m * (nn + 1))
    _boards.solve_batch_bytes(n, *board_tables(shape), grids, limit, counts, rows, nn + 1)
    return counts, rows.translate(text_bytes(".")[:_ROW_END] + b"\n")
