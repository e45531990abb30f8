"""Dancing links: exact cover by Knuth's Algorithm X, in Cython.

The public API is :mod:`dlx.api` (re-exported here) and the encodings in
:mod:`grids.sudoku`; ``dlx._engine`` is private.
"""
from dlx.api import ENGINE_VERSION, ConflictingGivensError, ExactCover, SearchStats

__all__ = ["ExactCover", "SearchStats", "ConflictingGivensError", "ENGINE_VERSION"]
