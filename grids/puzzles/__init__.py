"""Sudoku puzzles on the dancing-links engine: solve, count, check, generate, explain.

The engine that counts every grid also answers the everyday questions about
one puzzle.  This package is the library behind ``gridcount solve``,
``count-solutions``, ``check``, ``generate`` and ``explain``; the CLI
(:mod:`counting.cli.puzzles`, :mod:`counting.cli.generate`,
:mod:`counting.cli.explain`) only reads files, calls it and formats.  Its
public names are all importable from ``grids.puzzles``:

* grids as text and arrays — :mod:`grids.grid` (``to_array``, ``as_batch``,
  ``format_line``, ``format_lines``, ``format_block``, ``format_hints``,
  ``unit_conflict``);
* files — :mod:`grids.puzzles.files` (``read_puzzles``, ``parse_puzzles``,
  ``parse_puzzle``, ``write_puzzles``);
* solving and counting — :mod:`grids.puzzles.solving` (``solve``,
  ``solutions``, ``count_solutions``, ``classify``, ``is_unique`` and the
  ``*_batch`` forms);
* generation — :mod:`grids.puzzles.generation` (``generate``,
  ``generate_many``, ``random_grid``, ``min_clues``);
* explanation — :mod:`grids.puzzles.explanation` (``explain``,
  ``explain_stats``) over the rule solver of :mod:`grids.puzzles.rules`
  and the stronger techniques of :mod:`grids.puzzles.techniques` (fish,
  wings, colouring, chains; the units they read are
  :mod:`grids.puzzles.geometry`).

Puzzles
-------
A puzzle is a partial grid of any box shape ``R×C`` (``N = R·C`` digits;
``shape=None`` means 3x3, or ``k×k`` boxes when the grid has ``k⁴`` cells).
Every function takes a text grid (``N²`` symbols, ``.`` or ``0`` blank,
digits ``1``-``9`` then ``A``-``Z`` for 10-35, case-insensitive, whitespace
ignored) or an integer array of ``N²`` or ``N × N`` values (0 blank), and
a shape as a :class:`~grids.shape.Shape`, ``"RxC"``, ``(R, C)`` or a
:class:`~grids.sudoku.Sudoku`.

Honest answers
--------------
Nothing here pretends a puzzle has one solution.  :func:`classify` says
``"none"``, ``"unique"`` or ``"multiple"``; :func:`solve` returns the
solution only when it is unique and raises :class:`NoSolutionError` or
:class:`MultipleSolutionsError` otherwise.  Givens that repeat a digit in a
row, column or box are a puzzle with no solution (not a malformed one).

Example
-------
>>> from grids.puzzles import classify, count_solutions, format_line, solve
>>> p = ("53..7....6..195....98....6.8...6...34..8.3..17...2...6"
...      ".6....28....419..5....8..79")
>>> classify(p)
'unique'
>>> format_line(solve(p))[:18]
'534678912672195348'
>>> count_solutions("." * 16, shape="2x2")
288
"""
import importlib

# Every name is imported on first use (PEP 562), each module when one of its
# names is first asked for, not with the package: ``gridcount solve FILE``
# uses none of explanation and generation (and the rule solver, the
# techniques and the process pool of dlx.pools under them), and reads and
# solves a plain file with grids.puzzles.plain alone, without NumPy, which
# every other module here imports (issue 37).  ``P.explain``,
# ``from grids.puzzles import solve`` and ``import *`` work as before.
_MODULES = {
    "grids.grid": ("PuzzleError", "as_batch", "cell_name", "cell_rc", "format_block",
                   "format_hints", "format_line", "format_lines", "to_array", "unit_conflict"),
    "grids.puzzles.files": ("FORMATS", "Entries", "Entry", "PuzzleFile", "parse_puzzle",
                            "parse_puzzles", "read_puzzles", "write_puzzles"),
    "grids.puzzles.solving": ("DEFAULT_LIMIT", "STATUSES", "BatchResult",
                              "MultipleSolutionsError", "NoSolutionError", "classify",
                              "classify_batch", "count_batch", "count_solutions", "get_sudoku",
                              "is_unique", "solutions", "solve", "solve_batch"),
    "grids.puzzles.generation": ("Generated", "check_generate_args", "generate",
                                 "generate_many", "max_minimal_clues", "min_clues",
                                 "random_grid"),
    "grids.puzzles.explanation": ("Explanation", "RuleStats", "explain", "explain_stats"),
    "grids.puzzles.rules": ("BASIC_RULES", "RULES", "Step"),
}
_HOME = {name: module for module, names in _MODULES.items() for name in names}


def __getattr__(name: str):
    """A public name of the package, its module imported when one of its
    names is first asked for."""
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOME})


__all__ = [
    "PuzzleError", "NoSolutionError", "MultipleSolutionsError",
    "get_sudoku", "to_array", "as_batch", "format_line", "format_lines", "format_block",
    "format_hints",
    "unit_conflict",
    "cell_name", "cell_rc",
    "PuzzleFile", "Entry", "Entries", "FORMATS", "read_puzzles", "parse_puzzles", "parse_puzzle",
    "write_puzzles",
    "STATUSES", "DEFAULT_LIMIT", "solve", "solutions", "count_solutions", "is_unique", "classify",
    "BatchResult", "solve_batch", "count_batch", "classify_batch",
    "random_grid", "Generated", "generate", "generate_many", "min_clues", "max_minimal_clues",
    "check_generate_args",
    "BASIC_RULES", "RULES", "Step", "Explanation", "RuleStats", "explain", "explain_stats",
]
