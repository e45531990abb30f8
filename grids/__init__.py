"""Grids: what is counted, written as exact cover.

The box shape (:mod:`grids.shape`), the grid kind (:mod:`grids.kind`), the
Sudoku and Latin-square encodings (:mod:`grids.sudoku`), Latin rectangles
with given column sets (:mod:`grids.rectangle`), grid text
(:mod:`grids.grid`) and puzzles (:mod:`grids.puzzles`).  Everything here
builds on the exact-cover engine :mod:`dlx` and nothing else of gridcount.
"""

# The variant constraints (extra houses, difference rules, regions) register
# themselves with grids.kind when their package is imported: here, so every
# kind text parses wherever grids is used, and grids.kind imports no variant.
import grids.variants  # noqa: E402,F401
