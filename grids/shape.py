"""The box shape of a grid: one immutable value for all of gridcount.

A grid with boxes of ``R`` rows × ``C`` columns (written ``"RxC"``) has side
``N = R·C`` and ``N`` digits.  Its geometry:

* ``C`` *bands* of ``R`` rows each, side by side ``R`` boxes per band;
* ``R`` *stacks* of ``C`` columns each, ``C`` boxes per stack;
* boxes numbered row-major: box ``b = (r // R)·R + c // C``.

``1xN`` and ``Nx1`` are Latin squares of order ``N`` (a box is a whole row or
column, so its constraint repeats one already present: :attr:`Shape.latin`).

Everything that needs box geometry — the exact-cover encoding, the grid
parser, the reductions, the cost estimate, the rule-based explainer — takes
a :class:`Shape`.  Public functions may accept the text ``"3x3"`` at the
boundary; :func:`as_shape` turns it into a :class:`Shape` once.

Cells are numbered row-major, ``k = r·N + c`` (0-based), and a *unit* is a
row, a column or a box: the ``N`` cells that must hold distinct digits.

Example
-------
>>> s = Shape.parse("2x3")
>>> s.n, s.n_bands, s.n_stacks, s.box_of(2, 4)
(6, 3, 2, 3)
>>> s.transpose().name
'3x2'
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Shape", "as_shape"]


@dataclass(frozen=True)
class Shape:
    """Boxes of ``box_rows`` × ``box_cols`` cells; grids of side ``n``.

    Parameters
    ----------
    box_rows, box_cols : int
        ``R`` and ``C``, both >= 1.

    Raises
    ------
    ValueError
        If either is not an integer >= 1.
    """

    box_rows: int  # R: rows per box (= rows per band)
    box_cols: int  # C: columns per box (= columns per stack)

    def __post_init__(self):
        for name in ("box_rows", "box_cols"):
            v = getattr(self, name)
            if isinstance(v, bool) or not _integer(v) or v < 1:
                raise ValueError(f"bad box shape: {name} must be an integer >= 1, got {v!r}")
            object.__setattr__(self, name, int(v))

    # -- text ----------------------------------------------------------------
    @classmethod
    def parse(cls, text) -> "Shape":
        """Parse ``"RxC"``: two ASCII decimal numbers >= 1 around a lower-case ``x``.

        Surrounding whitespace is ignored; nothing else is lenient (no
        ``X``, no signs, no underscores, no non-ASCII digits).

        Example
        -------
        >>> Shape.parse("3x3")
        Shape(box_rows=3, box_cols=3)
        """
        if isinstance(text, Shape):
            return text
        if not isinstance(text, str):
            raise ValueError(f"bad box shape {text!r}: expected text RxC, e.g. 3x3 or 2x3")
        parts = text.strip().split("x")
        if len(parts) != 2 or not all(_ascii_number(p) for p in parts):
            raise ValueError(f"bad box shape {text!r}: expected RxC, e.g. 3x3 or 2x3")
        r, c = int(parts[0]), int(parts[1])
        if r < 1 or c < 1:
            raise ValueError(f"bad box shape {text!r}: box rows and columns must be >= 1")
        return cls(r, c)

    @property
    def name(self) -> str:
        """The ``"RxC"`` spelling."""
        return f"{self.box_rows}x{self.box_cols}"

    def __str__(self) -> str:
        return self.name

    # -- sizes ---------------------------------------------------------------
    @property
    def n(self) -> int:
        """Side of the grid and number of digits, ``R·C``."""
        return self.box_rows * self.box_cols

    @property
    def n_cells(self) -> int:
        return self.n * self.n

    @property
    def n_bands(self) -> int:
        """Horizontal strips of boxes, ``N / R = C`` (boxes per stack)."""
        return self.box_cols

    @property
    def n_stacks(self) -> int:
        """Vertical strips of boxes, ``N / C = R`` (boxes per band)."""
        return self.box_rows

    @property
    def latin(self) -> bool:
        """``True`` for ``1xN`` and ``Nx1``: a box is a row or a column."""
        return self.box_rows == 1 or self.box_cols == 1

    def transpose(self) -> "Shape":
        """The shape of the transposed grids, ``CxR``."""
        return Shape(self.box_cols, self.box_rows)

    # -- cells, units --------------------------------------------------------
    def box_of(self, r: int, c: int) -> int:
        """Box number of cell ``(r, c)``, row-major."""
        return (r // self.box_rows) * self.box_rows + c // self.box_cols

    def box_origin(self, b: int) -> tuple[int, int]:
        """Top-left cell ``(r, c)`` of box ``b``."""
        return (b // self.box_rows) * self.box_rows, (b % self.box_rows) * self.box_cols

    # The cells of units and peers as tuples of ints are the geometry itself;
    # the arrays below are NumPy views of it for the library, imported only
    # when one is asked for (``gridcount solve FILE`` runs without NumPy,
    # issue 37).
    @cached_property
    def unit_cells(self) -> tuple[tuple[int, ...], ...]:
        """The cells of every unit as in :attr:`units` (rows, columns, then
        boxes, none for Latin shapes), as tuples of ints."""
        n, R, C = self.n, self.box_rows, self.box_cols
        out = [tuple(range(r * n, (r + 1) * n)) for r in range(n)]
        out += [tuple(range(c, self.n_cells, n)) for c in range(n)]
        if not self.latin:
            for b in range(n):
                r0, c0 = self.box_origin(b)
                out.append(tuple((r0 + i) * n + c0 + j for i in range(R) for j in range(C)))
        return tuple(out)

    @cached_property
    def peer_cells(self) -> tuple[tuple[int, ...], ...]:
        """``peer_cells[k]``: the other cells sharing a unit with cell ``k``
        (sorted), as tuples of ints."""
        sets = [set() for _ in range(self.n_cells)]
        for cells in self.unit_cells:
            for k in cells:
                sets[k].update(cells)
        return tuple(tuple(sorted(s - {k})) for k, s in enumerate(sets))

    @cached_property
    def box_index(self) -> np.ndarray:
        """``(N, N)`` array: the box of every cell (read-only)."""
        import numpy as np
        r, c = np.indices((self.n, self.n))
        out = (r // self.box_rows) * self.box_rows + c // self.box_cols
        out.flags.writeable = False
        return out

    @cached_property
    def row_cells(self) -> np.ndarray:
        """``(N, N)``: ``row_cells[r]`` are the flat cells of row ``r``."""
        import numpy as np
        return _frozen(np.arange(self.n_cells).reshape(self.n, self.n))

    @cached_property
    def column_cells(self) -> np.ndarray:
        """``(N, N)``: ``column_cells[c]`` are the flat cells of column ``c``."""
        import numpy as np
        return _frozen(np.arange(self.n_cells).reshape(self.n, self.n).T.copy())

    @cached_property
    def box_cells(self) -> np.ndarray:
        """``(N, N)``: ``box_cells[b]`` are the flat cells of box ``b`` in reading order."""
        import numpy as np
        order = np.argsort(self.box_index.ravel(), kind="stable")
        return _frozen(order.reshape(self.n, self.n))

    @cached_property
    def units(self) -> tuple[tuple[str, np.ndarray], ...]:
        """Every unit as ``(name, cells)``: rows, columns, then boxes.

        Latin shapes have no separate box units (a box is a row or column).
        Names are 1-based, as printed: ``"row 1"``, ``"column 3"``, ``"box 9"``.
        """
        out = [(f"row {i + 1}", cells) for i, cells in enumerate(self.row_cells)]
        out += [(f"column {i + 1}", cells) for i, cells in enumerate(self.column_cells)]
        if not self.latin:
            out += [(f"box {i + 1}", cells) for i, cells in enumerate(self.box_cells)]
        return tuple(out)

    @cached_property
    def peers(self) -> tuple[np.ndarray, ...]:
        """``peers[k]``: the other cells sharing a unit with cell ``k`` (sorted)."""
        import numpy as np
        return tuple(_frozen(np.array(cells, dtype=np.int64)) for cells in self.peer_cells)


def as_shape(shape) -> Shape:
    """A :class:`Shape` from a :class:`Shape`, text ``"RxC"`` or ``(R, C)``."""
    if isinstance(shape, Shape):
        return shape
    if isinstance(shape, tuple) and len(shape) == 2:
        return Shape(*shape)
    return Shape.parse(shape)


def _ascii_number(text: str) -> bool:
    return bool(text) and all("0" <= ch <= "9" for ch in text)


def _integer(v) -> bool:
    """An int or a NumPy integer (a NumPy value exists only once NumPy is
    imported: no need to import it to ask)."""
    np = sys.modules.get("numpy")
    return isinstance(v, int) or (np is not None and isinstance(v, np.integer))


def _frozen(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a
