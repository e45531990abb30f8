"""Grids: what is counted, written as exact cover.

The box shape (:mod:`grids.shape`), the grid kind (:mod:`grids.kind`), the
Sudoku and Latin-square encodings (:mod:`grids.sudoku`), Latin rectangles
with given column sets (:mod:`grids.rectangle`), grid text
(:mod:`grids.grid`) and puzzles (:mod:`grids.puzzles`).  Everything here
builds on the exact-cover engine :mod:`dlx` and nothing else of gridcount.
"""
from grids.kind import register_constraints


def variant_constraint(name: str):
    """The variant constraint called ``name`` (extra houses, difference
    rules, kind files), or None: :mod:`grids.variants` is imported on the
    first look-up of a constraint name, by :func:`grids.kind.as_kind`.

    Registered here, so every kind text parses wherever grids is used, while
    grids.kind imports no variant and a process that names no constraint
    (``gridcount solve FILE``) does not load them (issue 37: 15 ms and more
    of its start-up, with hashlib and the variant encoding).
    """
    from grids.variants import variant_constraint as constraint
    return constraint(name)


register_constraints(variant_constraint)
