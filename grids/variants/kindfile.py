"""The kind file: a user's own grid kind, in one small text format.

A kind file is plain ASCII text read line by line.  ``#`` starts a comment
(to the end of the line); blank lines separate blocks.  Three statements:

``regions``
    On its own line, followed by the grid of regions: ``N`` lines of ``N``
    symbols (letters or digits), one symbol per region, each used for ``N``
    cells.  The regions replace the boxes (a jigsaw grid).  The grid ends at
    the next blank line, the next statement (``house ...``, ``differ ...``)
    or the end of the file.
``house r1c1 r2c2 ...``
    An extra house: ``N`` distinct cells (``rRcC``, 1-based, separated by
    spaces or commas) that hold every digit once.
``differ r1c1 r1c2`` / ``differ anti-king``
    Two cells that hold different digits, or a named difference rule
    (:mod:`grids.variants.differences`: ``anti-king``, ``anti-knight``).

The grid's size comes from the kind (``"3x3+@my.kind"``): the file is checked
against it when the kind is made (:mod:`grids.variants.jigsaw`).  Example::

    # a 4x4 jigsaw with one diagonal
    regions
    AABB
    ACBB
    ACDD
    CCDD
    house r1c1 r2c2 r3c3 r4c4
    differ r1c4 r2c3

(``gridcount count 2x2+@my.kind`` counts its 24 grids; the test suite counts
this very text.)  A kind file is a regular file of at most
:data:`MAX_KIND_FILE_BYTES`; anything else (a FIFO, a device such as
``/dev/zero``, a directory, a larger file) is refused before it is read.

:func:`parse_kind_text` turns such a text into a :class:`KindSpec`; every
problem is a one-line ``ValueError`` naming the file and the line.

>>> spec = parse_kind_text("regions\\nAB\\nBA\\n\\nhouse r1c1 r2c2\\ndiffer anti-king", "k")
>>> spec.regions, spec.houses, spec.rules
(('AB', 'BA'), (((0, 0), (1, 1)),), ('anti-king',))
"""
from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass

__all__ = ["KindSpec", "parse_kind_text", "read_kind_text", "read_kind_file", "parse_cell",
           "MAX_KIND_FILE_BYTES", "STATEMENTS"]

_CELL = re.compile(r"r([0-9]+)c([0-9]+)")

#: The largest kind file read, in bytes.  Every pair of cells of a 16×16
#: grid written out as ``differ`` lines takes about 0.7 MB; a larger file is
#: refused in one line instead of being read into memory (``/dev/zero`` has
#: no end) or parsed for seconds.
MAX_KIND_FILE_BYTES = 4 * 2**20

#: The statements of a kind file; one with arguments also ends a region grid.
STATEMENTS = ("regions", "house", "differ")


@dataclass(frozen=True)
class KindSpec:
    """What a kind file says, before it meets a grid size.

    Attributes
    ----------
    source : str
        Where it came from (the file name), for messages.
    regions : tuple of str or None
        The lines of the region grid, or None (the boxes stay).
    houses : tuple of tuple of (row, col)
        Extra houses, 0-based cells.
    pairs : tuple of ((row, col), (row, col))
        Cell pairs that differ, 0-based.
    rules : tuple of str
        Named difference rules.
    """

    source: str
    regions: tuple | None = None
    houses: tuple = ()
    pairs: tuple = ()
    rules: tuple = ()


def parse_cell(word: str, where: str) -> tuple[int, int]:
    """``"r2c5"`` -> ``(1, 4)``; ValueError naming ``where`` otherwise."""
    m = _CELL.fullmatch(word.strip().lower())
    if m is None or int(m.group(1)) < 1 or int(m.group(2)) < 1:
        raise ValueError(f"{where}: {word!r} is not a cell (write r1c1 .. r9c9)")
    return int(m.group(1)) - 1, int(m.group(2)) - 1


def _cells(words: list[str], where: str) -> tuple:
    return tuple(parse_cell(w, where) for w in words)


def _is_statement(line: str) -> bool:
    """Whether ``line`` is a statement with arguments (it ends a region grid:
    a region row has no spaces)."""
    word, _, rest = line.partition(" ")
    return word in STATEMENTS and bool(rest.strip())


def parse_kind_text(text: str, source: str) -> KindSpec:
    """Parse the text of a kind file (see the module docstring)."""
    if not text.isascii():
        raise ValueError(f"kind file {source}: not ASCII text")
    lines = [line.split("#", 1)[0].strip() for line in text.splitlines()]
    if not any(lines):
        raise ValueError(f"kind file {source} is empty")
    regions, houses, pairs, rules = None, [], [], []
    i = 0
    while i < len(lines):
        line, where = lines[i], f"kind file {source}, line {i + 1}"
        i += 1
        if not line:
            continue
        word, _, rest = line.partition(" ")
        args = rest.replace(",", " ").split()
        if word == "regions":
            if regions is not None:
                raise ValueError(f"{where}: a second regions grid")
            if args:
                raise ValueError(f"{where}: the region grid starts on the next line")
            grid = []
            while i < len(lines) and lines[i] and not _is_statement(lines[i]):
                if not lines[i].isalnum():
                    raise ValueError(f"kind file {source}, line {i + 1}: region rows are "
                                     f"letters or digits, got {lines[i]!r}")
                grid.append(lines[i])
                i += 1
            if not grid:
                raise ValueError(f"{where}: regions with no grid below")
            regions = tuple(grid)
        elif word == "house":
            if not args:
                raise ValueError(f"{where}: a house with no cells")
            houses.append(_cells(args, where))
        elif word == "differ":
            if len(args) == 1 and not _CELL.fullmatch(args[0].lower()):
                rules.append(args[0])
            elif len(args) == 2:
                pairs.append(_cells(args, where))
            else:
                raise ValueError(f"{where}: differ takes two cells or a rule name, got {rest!r}")
        else:
            raise ValueError(f"{where}: unknown statement {word!r} (regions, house, differ)")
    return KindSpec(source, regions, tuple(houses), tuple(pairs), tuple(rules))


def read_kind_text(path) -> str:
    """The text of the kind file at ``path``; ValueError in one line if it is
    not a regular file, is larger than :data:`MAX_KIND_FILE_BYTES`, cannot
    be read or is not ASCII.

    The file is opened without waiting (``O_NONBLOCK``: opening a FIFO for
    reading would wait for a writer for ever) and checked on the open file
    (``fstat``) before a byte is read; at most one byte past the limit is read.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as e:
        raise ValueError(f"cannot read kind file {path}: {e.strerror or e}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            what = ("a directory" if stat.S_ISDIR(st.st_mode) else
                    "a FIFO" if stat.S_ISFIFO(st.st_mode) else "a device or socket")
            raise ValueError(f"kind file {path} is not a regular file: it is {what}")
        if st.st_size > MAX_KIND_FILE_BYTES:
            raise ValueError(f"kind file {path} has {st.st_size:,} bytes, more than the "
                             f"{MAX_KIND_FILE_BYTES:,} bytes a kind file may have")
        with os.fdopen(fd, "rb", closefd=False) as f:
            raw = f.read(MAX_KIND_FILE_BYTES + 1)
    except OSError as e:
        raise ValueError(f"cannot read kind file {path}: {e.strerror or e}") from None
    finally:
        os.close(fd)
    if len(raw) > MAX_KIND_FILE_BYTES:   # it grew while being read
        raise ValueError(f"kind file {path} has more than the {MAX_KIND_FILE_BYTES:,} "
                         f"bytes a kind file may have")
    try:
        return raw.decode("ascii")
    except UnicodeDecodeError:
        raise ValueError(f"kind file {path}: not ASCII text") from None


def read_kind_file(path) -> KindSpec:
    """Read (:func:`read_kind_text`) and parse a kind file; ValueError in one line."""
    return parse_kind_text(read_kind_text(path), str(path))
