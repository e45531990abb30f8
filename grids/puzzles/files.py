"""Puzzle files: the line and hint-list formats, read and written.

:func:`read_puzzles` reads two formats and reports every malformed puzzle
with its line number while still reading the rest (see :class:`PuzzleFile`):

``line``
    one puzzle a line, ``N²`` symbols (:mod:`grids.grid`); ``#`` comment lines
    and blank lines are skipped.
``hints``
    a hint count ``k`` on a line, then ``k`` lines ``row column digit``
    (rows and columns ``0``..``N-1``, digits ``1``..``N`` as decimal numbers,
    or as the letters of grids); several puzzles may follow one another;
    ``#`` comments and blank lines are skipped.

:func:`parse_puzzle` reads one puzzle given as text (a command-line
argument) into the same :class:`PuzzleFile`.
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Iterator

import numpy as np

from grids.grid import (ALPHABET, PuzzleError, as_batch, decimal, format_hints, format_lines,
                        grid_shape, hint_digit, n_cells_of, symbol_error, symbol_table,
                        text_shape, to_array)
from grids.puzzles.plain import FORMATS, read_plain
from grids.shape import Shape

__all__ = ["Entry", "Entries", "PuzzleFile", "parse_puzzles", "read_puzzles", "write_puzzles",
           "parse_puzzle", "FORMATS"]


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


class Entries(Sequence):
    """The entries of a file (a sequence of :class:`Entry`, in input order),
    kept as the line of each puzzle read and the malformed ones.

    A file of 50,000 puzzles would otherwise make 50,000 :class:`Entry`
    objects, more time than reading it (issue 37); they are made here only
    when the sequence is indexed or iterated.  ``lines`` and ``errors`` are
    there at once.

    Attributes
    ----------
    lines : ndarray of int64
        ``lines[k]``: the line of the puzzle in row ``k`` of the grids.
    errors : list of (int, Entry)
        Each malformed puzzle and its place in the sequence, in order.
    """

    def __init__(self, lines, errors=()):
        self.lines = np.asarray(lines, dtype=np.int64)
        self.errors = list(errors)
        self._list: list[Entry] | None = None

    @classmethod
    def of(cls, entries) -> "Entries":
        """The entries of a list of :class:`Entry`."""
        if isinstance(entries, Entries):
            return entries
        entries = list(entries)
        out = cls([e.line for e in entries if e.ok],
                  [(k, e) for k, e in enumerate(entries) if not e.ok])
        out._list = entries
        return out

    def _entries(self) -> list[Entry]:
        if self._list is None:
            out: list[Entry] = []
            row = 0
            for place, bad in self.errors:
                take = place - len(out)         # puzzles read before this malformed one
                out += [Entry(line, row + j)
                        for j, line in enumerate(self.lines[row:row + take].tolist())]
                row += take
                out.append(bad)
            out += [Entry(line, row + j) for j, line in enumerate(self.lines[row:].tolist())]
            self._list = out
        return self._list

    def __len__(self) -> int:
        return len(self.lines) + len(self.errors)

    def __getitem__(self, i):
        return self._entries()[i]

    def __iter__(self) -> Iterator[Entry]:
        return iter(self._entries())

    def __eq__(self, other) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return list(self) == list(other)

    def __repr__(self) -> str:
        return f"Entries({len(self.lines):,} puzzles, {len(self.errors):,} malformed)"


@dataclass
class PuzzleFile:
    """Puzzles read from a file, in input order.

    Attributes
    ----------
    entries : Entries
        Every puzzle and every malformed puzzle, in input order (a list of
        :class:`Entry` given here becomes :class:`Entries`).
    grids : ndarray of uint8, shape (m, N²)
        The puzzles that were read (0 for blank); ``entries[i].index``
        points here.  One byte a cell (files hold grids of at most 35
        digits), what :func:`~grids.puzzles.solving.solve_batch` reads
        without a copy with ``dtype=np.uint8``.
    shape : Shape
        Box shape (``str(pf.shape)`` is ``"RxC"``).
    format : str
        ``"line"`` or ``"hints"`` (the detected one, with ``format="auto"``).
    """

    entries: Entries
    grids: np.ndarray
    shape: Shape
    format: str

    def __post_init__(self):
        self.entries = Entries.of(self.entries)

    @property
    def lines(self) -> np.ndarray:
        """Line number of each row of :attr:`grids`."""
        return self.entries.lines.copy()

    @property
    def errors(self) -> list[Entry]:
        return [e for _, e in self.entries.errors]

    def __len__(self) -> int:
        return len(self.entries)



def _content_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, stripped text) of the lines that are not blank or comments."""
    for i, raw in enumerate(text.split("\n"), 1):
        s = raw.strip()
        if s and s[0] != "#":
            yield i, s


def _looks_like_hints(text: str, nn: int) -> bool:
    """Whether the first line that is not blank or a comment is a lone number
    (read line by line: splitting a whole large file took longer)."""
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        s = text[start:end].strip()
        start = end + 1
        if s and s[0] != "#":
            return len(s) != nn and decimal(s) is not None
    return False


def _parse_plain_lines(text: str, s: Shape) -> tuple[Entries, np.ndarray] | None:
    """The common file read at once: every line exactly ``N²`` known symbols
    (no comment, blank line or space; a final newline allowed).  ``None``
    for any other file, which :func:`_parse_line_format` reads line by line
    with the same result.

    The file is read as bytes by :func:`~grids.puzzles.plain.read_plain`
    (no string per line, issue 37), what ``gridcount solve FILE`` reads
    without NumPy."""
    try:
        buf = text.encode("ascii")
    except UnicodeEncodeError:
        return None             # the line-by-line reading names the symbol
    grids = read_plain(buf, s.n)
    if grids is None:
        return None
    rows = len(grids) // s.n_cells
    return (Entries(np.arange(1, rows + 1)),
            np.frombuffer(grids, dtype=np.uint8).reshape(rows, s.n_cells))


def _symbols(buf: bytes, n: int) -> np.ndarray:
    """``symbol_table(n)`` of each byte of ``buf`` (int8, -1 for no symbol),
    by :meth:`bytes.translate`: indexing the table with the bytes would
    widen them to 8-byte indices first (30 MB for the 17-clue file)."""
    return np.frombuffer(buf.translate(symbol_table(n).tobytes()), dtype=np.int8)


def _parse_line_format(text: str, s: Shape) -> tuple[Entries, np.ndarray]:
    plain = _parse_plain_lines(text, s)
    if plain is not None:
        return plain
    n, nn = s.n, s.n_cells
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
    vals = _symbols(buf, n).reshape(len(good), nn)
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
            entries.append(Entry(i, None, symbol_error(sym[k], k, n)))
        else:
            entries.append(Entry(i, len(keep)))
            keep.append(g)
        g += 1
    grids = vals[keep].view(np.uint8) if keep else np.zeros((0, nn), dtype=np.uint8)
    return Entries.of(entries), grids



def _parse_hint_format(text: str, s: Shape) -> tuple[Entries, np.ndarray]:
    n, nn = s.n, s.n_cells
    entries: list[Entry] = []
    grids: list[np.ndarray] = []
    lines = list(_content_lines(text))
    pos = 0
    while pos < len(lines):
        start, head = lines[pos]
        pos += 1
        toks = head.split()
        if len(toks) != 1 or decimal(toks[0]) is None:
            what = "a hint line" if len(toks) == 3 else repr(head[:40])
            entries.append(Entry(start, None, f"expected the number of hints of a puzzle, "
                                              f"got {what}"))
            continue
        want = int(toks[0])
        if want > nn:
            entries.append(Entry(start, None, f"a {n}x{n} puzzle has at most {nn} hints, "
                                              f"got {want}"))
            continue
        grid = np.zeros(nn, dtype=np.uint8)
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
            if len(parts) == 1 and decimal(parts[0]) is not None:
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
            if not (decimal(r) is not None and decimal(r) < n
                    and decimal(c) is not None and decimal(c) < n):
                error = f"row and column must be 0..{n - 1}, got {r} {c}"
                continue
            v = hint_digit(d, n)
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
    arr = np.stack(grids) if grids else np.zeros((0, nn), dtype=np.uint8)
    return Entries.of(entries), arr


def parse_puzzles(text: str, *, shape=None, format: str = "auto") -> PuzzleFile:
    """Read puzzles from text; malformed ones become :class:`Entry` errors.

    Parameters
    ----------
    text : str
        File contents (``\\n`` or ``\\r\\n`` line ends).
    shape : Shape or str, optional
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
    s = text_shape(shape)
    if text.startswith("\ufeff"):
        text = text[1:]         # a UTF-8 byte-order mark
    if format not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {format!r}")
    if format == "auto":
        format = "hints" if _looks_like_hints(text, s.n_cells) else "line"
    parse = _parse_hint_format if format == "hints" else _parse_line_format
    entries, grids = parse(text, s)
    return PuzzleFile(entries, grids, s, format)


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
    :func:`read_puzzles`); shapes of more than 35 digits have no text."""
    if shape is not None:
        text_shape(shape)
    if isinstance(grids, np.ndarray) and grids.ndim == 2 and shape is None:
        arr = grids         # rows of N² values: the writers need no shape
    else:
        arr = as_batch(grids, shape)
    if format == "line":
        return "".join(line + "\n" for line in format_lines(arr))
    if format == "hints":
        return "".join(format_hints(g) for g in arr)
    raise ValueError(f"format must be 'line' or 'hints', got {format!r}")


def parse_puzzle(text: str, *, shape=None) -> PuzzleFile:
    """One puzzle written as a line of text, as a one-entry :class:`PuzzleFile`.

    Without ``shape`` the box shape comes from the number of symbols
    (:func:`grids.grid.grid_shape`), and is 3x3 when that number has no
    square shape, so the error names the 81 symbols a 9x9 grid needs.

    Raises
    ------
    PuzzleError
        The text is not a puzzle of that shape.

    Example
    -------
    >>> pf = parse_puzzle("12..3...........")
    >>> str(pf.shape), pf.grids[0][:3].tolist()
    ('2x2', [1, 2, 0])
    """
    try:
        s = grid_shape(shape, None if shape is not None else n_cells_of(text))
    except PuzzleError:
        s = grid_shape(None)
    grid = to_array(text, s)
    return PuzzleFile([Entry(1, 0)], grid[None, :].astype(np.uint8), s, "line")
