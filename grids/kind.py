"""The grid kind: what a counting job counts, as one value.

A *grid kind* is a box shape (:class:`grids.shape.Shape`) plus a tuple of
extra constraints (extra houses, difference rules, regions replacing the
boxes).  Plain Sudoku and Latin-square grids have none.  The kind has one
canonical text form, :attr:`GridKind.name`: the shape's ``"RxC"``, followed
by ``"+name"`` for each constraint in canonical order (``"3x3"``,
``"3x3+x+windoku"``).  That text is what the store's job row, every work
unit, file names, the command line and the report carry, and
:func:`as_kind` is the one place it is parsed.  Existing stores hold a
bare ``"RxC"``: that is the kind of that shape with no constraints, so
they open unchanged.

Constraints
-----------
A constraint is a value with a ``name`` (its text after ``+``) that says
which cells must differ (:meth:`GridKind.houses`, :meth:`GridKind.differences`)
and whether it applies to a shape.  They are made by the constraint
registry handed to :func:`register_constraints` (the variants package
registers its own, on the first look-up of a name: :mod:`grids.variants` is
imported then, not when this module is, so neither imports the other at
load time); with none registered, any ``+name`` is an unknown kind.
A constraint may also replace the boxes by *regions* (jigsaw grids): it
then has a ``regions(shape)`` method giving ``N`` cell-index tuples that
partition the grid (or None: it keeps the boxes), and
:meth:`GridKind.regions` returns them; one constraint of a kind at most.
Encodings add one exact-cover column per (extra house, digit) and one
secondary column per (difference pair, digit) from these two methods.

Examples
--------
>>> k = as_kind("3x3")
>>> k.name, k.shape.n, k.plain
('3x3', 9, True)
>>> as_kind(k) is k
True
>>> as_kind("3x3+nothing")
Traceback (most recent call last):
...
ValueError: unknown grid kind 'nothing' in '3x3+nothing'
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable, Protocol

from grids.shape import Shape, as_shape

__all__ = ["GridKind", "Constraint", "as_kind", "register_constraints"]


class Constraint(Protocol):
    """An extra rule of a grid kind (extra houses, difference pairs)."""

    name: str

    def applies_to(self, shape: Shape) -> str | None:
        """None when the rule is defined on ``shape``, else why not."""

    def houses(self, shape: Shape) -> tuple[tuple[int, ...], ...]:
        """Extra houses: cell-index tuples, each holding every digit once."""

    def differences(self, shape: Shape) -> tuple[tuple[int, int], ...]:
        """Pairs of cell indices that must hold different digits."""


# name -> factory(name) of a constraint; filled by register_constraints
_FACTORIES: list[Callable[[str], "Constraint | None"]] = []


def register_constraints(factory: Callable[[str], "Constraint | None"]) -> None:
    """Add a source of constraints: ``factory(name)`` gives the constraint
    called ``name``, or None when it does not know that name."""
    if factory not in _FACTORIES:
        _FACTORIES.append(factory)


def _constraint(name: str, text: str) -> Constraint:
    if not name.isascii():
        raise ValueError(f"grid kind names are ASCII, got {name!r} in {text!r}")
    if not name:
        raise ValueError(f"empty grid kind name in {text!r}")
    for factory in _FACTORIES:
        c = factory(name)
        if c is not None:
            return c
    raise ValueError(f"unknown grid kind {name!r} in {text!r}")


@dataclass(frozen=True)
class GridKind:
    """A box shape and its extra constraints (none for plain grids).

    Attributes
    ----------
    shape : Shape
    constraints : tuple of Constraint
        In canonical order (sorted by name, no repeats).
    """

    shape: Shape
    constraints: tuple = ()

    def __post_init__(self):
        if not isinstance(self.shape, Shape):
            raise ValueError(f"GridKind.shape must be a Shape, got {self.shape!r}")
        cons = tuple(sorted(self.constraints, key=lambda c: c.name))
        names = [c.name for c in cons]
        if len(set(names)) != len(names):
            raise ValueError(f"a constraint is named twice in {[_label(c) for c in cons]}")
        for c in cons:
            why = c.applies_to(self.shape)
            if why:
                raise ValueError(f"grid kind {_label(c)!r} does not apply to {self.shape.name}: "
                                 f"{why}")
        with_regions = [_label(c) for c in cons if _regions_of(c, self.shape) is not None]
        if len(with_regions) > 1:
            raise ValueError(f"only one constraint may replace the boxes, got {with_regions}")
        object.__setattr__(self, "constraints", cons)

    @property
    def name(self) -> str:
        """The canonical text: ``"RxC"`` plus ``"+name"`` per constraint."""
        return "+".join([self.shape.name] + [c.name for c in self.constraints])

    def __str__(self) -> str:
        return self.name

    @property
    def plain(self) -> bool:
        """Whether the kind has no extra constraints (plain Sudoku or Latin)."""
        return not self.constraints

    @property
    def side(self) -> str:
        """The grid's size in words: ``"9×9"``."""
        return f"{self.shape.n}×{self.shape.n}"

    @property
    def family(self) -> str:
        """What the grids are called: ``"Sudoku"`` or ``"Latin square"``."""
        return "Latin square" if self.shape.latin else "Sudoku"

    def unit_cells(self) -> tuple[tuple[int, ...], ...]:
        """Every house as cell tuples: rows, columns, boxes or regions (none
        for a Latin shape without regions), then the extra houses."""
        s = self.shape
        out = [tuple(int(k) for k in cells) for cells in s.row_cells]
        out += [tuple(int(k) for k in cells) for cells in s.column_cells]
        regions = self.regions()
        if regions is not None:
            out += [tuple(r) for r in regions]
        elif not s.latin:
            out += [tuple(int(k) for k in cells) for cells in s.box_cells]
        return tuple(out) + self.houses()

    def houses(self) -> tuple[tuple[int, ...], ...]:
        """Every extra house of every constraint, in constraint order."""
        return tuple(h for c in self.constraints for h in c.houses(self.shape))

    def differences(self) -> tuple[tuple[int, int], ...]:
        """Every difference pair of every constraint (a < b, no repeats)."""
        pairs = {tuple(sorted(p)) for c in self.constraints for p in c.differences(self.shape)}
        return tuple(sorted(pairs))

    def regions(self) -> tuple[tuple[int, ...], ...] | None:
        """The regions replacing the boxes (jigsaw), or None: the boxes stay.

        >>> as_kind("3x3").regions() is None
        True
        """
        for c in self.constraints:
            regions = _regions_of(c, self.shape)
            if regions is not None:
                return regions
        return None


def _label(constraint) -> str:
    """What a constraint was called, for messages (a kind file's ``@PATH``,
    where its name is its content's digest)."""
    return getattr(constraint, "label", constraint.name)


def _regions_of(constraint, shape: Shape):
    """The constraint's regions replacing the boxes, or None (it has no such hook,
    or the hook gives None)."""
    hook = getattr(constraint, "regions", None)
    return None if hook is None else hook(shape)


def as_kind(kind) -> GridKind:
    """The :class:`GridKind` of a kind, a :class:`Shape` or a text.

    Text is ``"RxC"`` optionally followed by ``"+name"`` parts; each name is
    looked up among the registered constraints.  A kind-file part ``@PATH``
    may contain ``+`` (the longest path of an existing file is taken).  ValueError, in one line
    naming the part, for anything else.
    """
    if isinstance(kind, GridKind):
        return kind
    if isinstance(kind, Shape):
        return GridKind(kind)
    if not isinstance(kind, str):   # as the shape parser says it
        return GridKind(as_shape(kind))
    head, *rest = kind.strip().split("+")
    shape = as_shape(head)
    return GridKind(shape, tuple(_constraint(part.strip(), kind) for part in _parts(rest)))


def _parts(words: list[str]) -> list[str]:
    """The ``+``-separated parts of a kind, a kind-file part ``@PATH`` taking
    as many of the following words as make the longest path of an existing
    file (a path may contain ``+``: ``2x2+@a+b.kind+x`` is ``@a+b.kind`` and
    ``x`` when ``a+b.kind`` exists)."""
    out, i = [], 0
    while i < len(words):
        j = i + 1
        if words[i].strip().startswith("@"):
            for k in range(len(words), i + 1, -1):
                if os.path.isfile("+".join(words[i:k]).strip()[1:]):
                    j = k
                    break
        out.append("+".join(words[i:j]))
        i = j
    return out
