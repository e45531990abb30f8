"""Generating puzzles: random full grids, then clues removed while the
solution stays unique.

Every puzzle made here has exactly one solution (checked by the engine after
each removal), and the same seed always gives the same puzzles.
"""
from __future__ import annotations

import math
import numbers
import time
from dataclasses import dataclass
from typing import Iterator

import numpy as np

from dlx.api import ExactCover
from grids.grid import grid_shape, solve_grids
from grids.puzzles.solving import get_sudoku, thread_engine
from grids.shape import Shape

__all__ = ["random_grid", "Generated", "generate", "generate_many", "min_clues",
           "max_minimal_clues", "check_generate_args"]

#: Fewest clues of a unique puzzle, where more is known than the N - 1 that
#: holds for every shape (see :func:`min_clues`), with the source.
_KNOWN_MIN_CLUES = {
    Shape(3, 3): (17, "McGuire, Tugemann & Civario 2012, 'There is no 16-clue Sudoku'"),
}


def random_grid(rng: np.random.Generator, shape=None) -> np.ndarray:
    """A random full grid (flat ``N²`` array): the engine's first solution
    with the matrix rows in a random order.

    The rows of the Sudoku matrix are permuted by ``rng``; the engine then
    branches on the same columns (minimum remaining values) but tries the
    candidates of each in the permuted order, so its first solution is a
    random grid (not uniformly distributed over all grids).
    """
    s = get_sudoku(shape)
    indptr, indices = s.csr()
    perm = rng.permutation(s.n_rows)
    permuted = indices.reshape(s.n_rows, -1)[perm].ravel()
    rows = ExactCover.from_csr(indptr, permuted, s.n_columns).first()
    return s.to_grid(perm[np.asarray(rows)]).reshape(-1)


@dataclass
class Generated:
    """One :func:`generate` result.

    Attributes
    ----------
    puzzle : ndarray or None
        Flat ``N²`` puzzle with a unique solution; ``None`` if none was found
        in time.
    solution : ndarray or None
        Its solution (the full grid it was cut from).
    clues : int
        Clues of ``puzzle`` (0 when it failed).
    attempts : int
        Full grids tried.
    checks : int
        Uniqueness checks run.
    seconds : float
    """

    puzzle: np.ndarray | None
    solution: np.ndarray | None
    clues: int
    attempts: int
    checks: int
    seconds: float

    @property
    def ok(self) -> bool:
        return self.puzzle is not None


def _orbits(n: int, symmetric: bool, rng: np.random.Generator) -> list[np.ndarray]:
    """Cells in a random order; with ``symmetric`` as 180°-rotation pairs."""
    nn = n * n
    if not symmetric:
        return [np.asarray([k]) for k in rng.permutation(nn)]
    reps = [k for k in range(nn) if k <= nn - 1 - k]
    return [np.unique([reps[i], nn - 1 - reps[i]]) for i in rng.permutation(len(reps))]


def min_clues(shape=None) -> int:
    """The fewest clues a puzzle of ``shape`` can have and still have one solution
    (a lower bound: no puzzle with fewer has a unique solution).

    ``N - 1`` for every shape: ``k`` clues hold at most ``k`` different
    digits, and when two digits appear in no clue, swapping them in a
    solution gives another solution.  For 9x9 grids (3x3 boxes) the bound is
    17, proved by exhaustive search (McGuire, Tugemann & Civario, "There is
    no 16-clue Sudoku", 2012).

    Example
    -------
    >>> min_clues("3x3"), min_clues("2x3"), min_clues("1x4")
    (17, 5, 3)
    """
    s = grid_shape(shape)
    known = _KNOWN_MIN_CLUES.get(s)
    return known[0] if known else max(s.n - 1, 0)


def max_minimal_clues(shape=None) -> int:
    """The most clues a *minimal* puzzle (no clue can go) of ``shape`` can
    have: ``N² - N``.

    Proof: remove a clue ``c`` from a minimal puzzle; the rest has a
    solution other than the puzzle's own, and the two differ at ``c`` (else
    both would solve the puzzle).  Both fill ``c``'s row with the same
    digits, so they differ in a second cell of that row, which is blank in
    the puzzle.  So every row holding a clue holds a blank, every row holds
    one, and at least ``N`` cells are blank.

    Example
    -------
    >>> max_minimal_clues("3x3"), max_minimal_clues("2x2")
    (72, 12)
    """
    s = grid_shape(shape)
    return s.n_cells - s.n


def _why_min_clues(s: Shape) -> str:
    known = _KNOWN_MIN_CLUES.get(s)
    return known[1] if known else "two digits that appear in no clue could be swapped"


def check_generate_args(clues: int | None = None, *, minimal: bool = False,
                        max_seconds: float | None = 30.0, shape=None) -> Shape:
    """Check the arguments of :func:`generate` before any work; returns the shape.

    Raises ``ValueError`` with a one-line message for: no ``clues`` without
    ``minimal``; ``clues`` outside ``0..N²`` or below :func:`min_clues` (no
    such puzzle has a unique solution, so the search could only run out of
    time), or with ``minimal`` above :func:`max_minimal_clues`;
    ``max_seconds`` that is not a finite number of seconds > 0 (or ``None``,
    no limit).
    """
    s = grid_shape(shape)
    nn = s.n_cells
    if clues is None and not minimal:
        raise ValueError("give the number of clues, or minimal=True")
    if clues is not None:
        if isinstance(clues, bool) or not isinstance(clues, numbers.Integral):
            raise ValueError(f"clues must be an integer, got {clues!r}")
        if not 0 <= clues <= nn:
            raise ValueError(f"clues must be in 0..{nn}, got {clues}")
        if clues < min_clues(s):
            raise ValueError(f"no {s.n}x{s.n} puzzle with fewer than {min_clues(s)} clues has a "
                             f"unique solution ({_why_min_clues(s)}); got {clues}")
        if minimal and clues > max_minimal_clues(s):
            raise ValueError(f"a minimal {s.n}x{s.n} puzzle has at most {max_minimal_clues(s)} "
                             f"clues (removing a clue must let two solutions differ in its "
                             f"row, which needs another blank there: so every row has a "
                             f"blank); got {clues}")
    if max_seconds is not None and (isinstance(max_seconds, bool)
                                    or not isinstance(max_seconds, numbers.Real)
                                    or not math.isfinite(max_seconds) or max_seconds <= 0):
        raise ValueError(f"max_seconds must be a finite number of seconds > 0, "
                         f"got {max_seconds!r}")
    return s


def _check_seed(seed) -> None:
    """A seed generation takes: None, a whole number >= 0, a SeedSequence
    or a Generator (numpy's own message for -1 says nothing of seeds)."""
    if seed is None or isinstance(seed, (np.random.SeedSequence, np.random.Generator)):
        return
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"seed must be a whole number >= 0, a SeedSequence or a Generator, "
                         f"got {seed!r}")


def _puzzle_rng(seed, i: int) -> np.random.Generator:
    """The generator of puzzle ``i`` of ``seed``: its ``i``-th child seed."""
    _check_seed(seed)
    if isinstance(seed, np.random.Generator):
        return seed
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    # the i-th child of ss, as ss.spawn would make it, without changing ss
    return np.random.default_rng(np.random.SeedSequence(ss.entropy, spawn_key=ss.spawn_key + (i,),
                                                        pool_size=ss.pool_size))


def _unique(ec: ExactCover, grid: np.ndarray, n: int) -> bool:
    counts, _ = solve_grids(ec, grid[None, :], n, 2, solutions=False)
    return int(counts[0]) == 1


def generate(clues: int | None = None, *, seed=None, symmetric: bool = False,
             minimal: bool = False, max_seconds: float | None = 30.0,
             shape=None) -> Generated:
    """A puzzle with a unique solution and exactly ``clues`` clues.

    Each attempt takes a random full grid (:func:`random_grid`) and visits
    its cells (with ``symmetric``: pairs of cells opposite under a 180°
    rotation) in a random order, removing each while the puzzle keeps a
    unique solution.  Without ``minimal`` it stops at ``clues`` clues.  With
    ``minimal`` it visits every cell, so no clue of the result can go (a
    clue that could not go stays necessary when others go: fewer clues
    never mean fewer solutions); ``clues`` then asks for a minimal puzzle
    of exactly that size, and may be ``None`` (any size).  With both
    ``symmetric`` and ``minimal``, no symmetric pair can go (a single clue
    of a pair might).  An attempt that
    misses ``clues`` starts again with a new grid, until ``max_seconds``.
    Arguments are checked first (:func:`check_generate_args`).

    Deterministic for a given ``seed`` (an int, a SeedSequence or a
    Generator): the same puzzle every time, unless time runs out first.  An
    int or SeedSequence seed gives the first puzzle of
    :func:`generate_many` with that seed (as ``gridcount generate --seed``
    does); a Generator is used as it is.

    Example
    -------
    >>> g = generate(10, seed=1, shape="2x2")
    >>> from grids.puzzles import is_unique
    >>> g.clues, is_unique(g.puzzle, shape="2x2")
    (10, True)
    """
    s = get_sudoku(check_generate_args(clues, minimal=minimal, max_seconds=max_seconds,
                                       shape=shape))
    n, nn = s.n, s.n * s.n
    rng = _puzzle_rng(seed, 0)
    ec = thread_engine(s)
    t0 = time.perf_counter()
    attempts = checks = 0
    while True:
        attempts += 1
        solution = random_grid(rng, s)
        grid = solution.copy()
        left = nn
        for orbit in _orbits(n, symmetric, rng):
            if not minimal and left == clues:
                break
            if not minimal and clues is not None and left - orbit.size < clues:
                continue    # a pair would overshoot; a single cell may still fit
            saved = grid[orbit].copy()
            grid[orbit] = 0
            checks += 1
            if _unique(ec, grid, n):
                left -= orbit.size
            else:
                grid[orbit] = saved
            if max_seconds is not None and time.perf_counter() - t0 > max_seconds:
                break
        if clues is None or left == clues:
            return Generated(grid, solution, left, attempts, checks, time.perf_counter() - t0)
        if max_seconds is not None and time.perf_counter() - t0 > max_seconds:
            return Generated(None, None, 0, attempts, checks, time.perf_counter() - t0)


def generate_many(count: int, clues: int | None = None, *, seed=None,
                  **kwargs) -> Iterator[Generated]:
    """``count`` puzzles (see :func:`generate`); puzzle ``i`` uses the
    ``i``-th child of ``SeedSequence(seed)``, so each is reproducible alone
    (puzzle 0 is ``generate(clues, seed=seed)``) and ``max_seconds``
    applies to each.  The arguments are checked before the first puzzle."""
    if isinstance(count, bool) or not isinstance(count, numbers.Integral) or count < 0:
        raise ValueError(f"count must be a whole number >= 0, got {count!r}")
    check_generate_args(clues, minimal=kwargs.get("minimal", False),
                        max_seconds=kwargs.get("max_seconds", 30.0), shape=kwargs.get("shape"))
    _check_seed(seed)
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    for i in range(count):
        yield generate(clues, seed=_puzzle_rng(ss, i), **kwargs)

