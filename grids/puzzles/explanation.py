"""Explaining a puzzle: the rule solver's steps and how often each rule fired.

:func:`explain` solves one puzzle with the human-style rules of
:mod:`grids.puzzles.rules` and keeps every step; :func:`explain_stats` sums
the rule counts over many puzzles (in a process pool with ``workers > 1``).
These counts, not seconds, are the fair way to compare puzzles.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Iterable, Sequence

import numpy as np

from dlx.pools import WorkerDied, map_unordered
from grids.grid import shape_of, to_array
from grids.puzzles.geometry import geometry
from grids.puzzles.rules import RULES, RuleSolver, Step
from grids.shape import Shape

__all__ = ["Explanation", "RuleStats", "explain", "explain_stats"]


@dataclass
class Explanation:
    """What :func:`explain` did.

    Attributes
    ----------
    puzzle, solution : ndarray
        Flat ``N²`` grids; ``solution`` is ``None`` when there is none.
    steps : list of Step
        Every step (empty with ``steps=False``).
    counts : dict
        Times each rule of :data:`RULES` fired (placements for singles,
        applications that removed a candidate for the others), every rule
        present.
    branches : int
        Guesses made when the rules stalled.
    backtracks : int
        Guesses that led to a contradiction.
    max_depth : int
        Most guesses in force at once.
    reason : str or None
        Why there is no solution.
    shape : Shape
        The box shape.
    """

    puzzle: np.ndarray
    solution: np.ndarray | None
    steps: list[Step]
    counts: dict[str, int]
    branches: int = 0
    backtracks: int = 0
    max_depth: int = 0
    reason: str | None = None
    shape: Shape = Shape(3, 3)

    @property
    def solved(self) -> bool:
        return self.solution is not None

    def table(self) -> str:
        return _rule_table(self.counts, self.branches, self.backtracks)


def _rule_table(counts: dict[str, int], branches: int, backtracks: int,
                extra: Sequence[tuple[str, str]] = ()) -> str:
    rows = [(r, f"{counts.get(r, 0):,}") for r in RULES]
    rows += [("branches (guesses)", f"{branches:,}"), ("backtracks", f"{backtracks:,}")]
    rows += list(extra)
    w = max(len(k) for k, _ in rows)
    v = max(len(x) for _, x in rows)
    return "\n".join(f"{k:<{w}}  {x:>{v}}" for k, x in rows)



def explain(grid, *, shape=None, steps: bool = True) -> Explanation:
    """Solve by human-style rules, branching only when they stall.

    Rules, simplest first, restarting from the top after every change:
    naked single, hidden single (row, column, box), pointing and claiming
    (locked candidates), naked pair, hidden pair, naked triple, hidden
    triple, then X-Wing, XY-Wing, Swordfish, simple colouring, XYZ-Wing,
    X-chain, XY-chain, Jellyfish and alternating inference chains
    (:mod:`grids.puzzles.techniques`).  When none applies the solver
    guesses the first candidate of a cell with fewest candidates (of those,
    the cell whose candidates its peers share most); a guess that ends in
    a contradiction is undone and its digit removed (trial and error).  No randomness: the same
    puzzle always gives the same steps and counts.

    A puzzle with several solutions is explained to one of them; a puzzle
    with none ends with ``solution=None`` and the ``reason``.

    Example
    -------
    >>> from grids.grid import format_line
    >>> e = explain("1.34" "3..2" "2..3" "4.21", shape="2x2")
    >>> format_line(e.solution), e.branches
    ('1234341221434321', 0)
    """
    s = shape_of(grid, shape)
    arr = to_array(grid, s)
    solver = RuleSolver(geometry(s), steps)
    ok = solver.run(arr)
    return Explanation(
        puzzle=arr, solution=np.asarray(solver.value, dtype=np.int64) if ok else None,
        steps=solver.steps, counts=solver.counts, branches=solver.branches,
        backtracks=solver.backtracks, max_depth=solver.max_depth,
        reason=None if ok else solver.reason, shape=s)


@dataclass
class RuleStats:
    """Rule counts summed over many puzzles (:func:`explain_stats`).

    Attributes
    ----------
    puzzles, solved, no_branch : int
        Puzzles explained, solved, and solved by the rules alone.
    counts : dict
        Total firings per rule.
    branches, backtracks, max_branches : int
        Total guesses, failed guesses, and the most in one puzzle.
    """

    puzzles: int = 0
    solved: int = 0
    no_branch: int = 0
    counts: dict = field(default_factory=lambda: dict.fromkeys(RULES, 0))
    branches: int = 0
    backtracks: int = 0
    max_branches: int = 0

    def add(self, e: Explanation) -> None:
        self.puzzles += 1
        self.solved += e.solved
        self.no_branch += e.solved and e.branches == 0
        for r, c in e.counts.items():
            self.counts[r] += c
        self.branches += e.branches
        self.backtracks += e.backtracks
        self.max_branches = max(self.max_branches, e.branches)

    def table(self) -> str:
        extra = [("puzzles", f"{self.puzzles:,}"), ("solved", f"{self.solved:,}"),
                 ("solved without branching", f"{self.no_branch:,}"),
                 ("most branches in one puzzle", f"{self.max_branches:,}")]
        return _rule_table(self.counts, self.branches, self.backtracks, extra)

    def as_dict(self) -> dict:
        return {"puzzles": self.puzzles, "solved": self.solved, "no_branch": self.no_branch,
                "rules": dict(self.counts), "branches": self.branches,
                "backtracks": self.backtracks, "max_branches": self.max_branches}


#: Puzzles per task of :func:`explain_stats`'s workers (one round trip each).
_CHUNK = 16


def _explain_chunk(args) -> tuple[int, list[Explanation]]:
    first, grids, shape = args
    return first, [explain(g, shape=shape, steps=False) for g in grids]


def explain_stats(grids: Iterable, *, shape=None, workers: int = 1,
                  progress=None) -> RuleStats:
    """Rule counts over many puzzles (steps are not kept).

    The rules run in Python, so ``workers > 1`` uses spawned worker
    processes, each explaining a chunk of puzzles at a time; the parent
    sums the counts in the order of ``grids`` (workers ignore Ctrl-C, the
    parent terminates them).  ``progress(k)`` is called after each ``k``
    puzzles.

    Raises
    ------
    RuntimeError
        A worker process died (killed by a signal, e.g. by the
        out-of-memory killer, or exited): the message names it, how it
        ended and the puzzles it was explaining.  Its chunk is not retried.
    """
    stats = RuleStats()
    if workers <= 1:
        for g in grids:
            stats.add(explain(g, shape=shape, steps=False))
            if progress:
                progress(1)
        return stats
    it = iter(grids)
    chunks = []
    while chunk := list(itertools.islice(it, _CHUNK)):
        chunks.append((len(chunks) * _CHUNK, chunk, shape))
    # chunks arrive as they finish; they are added in input order
    waiting: dict[int, list[Explanation]] = {}
    added = 0
    try:
        for first, explanations in map_unordered(_explain_chunk, chunks, workers,
                                                 retries=0):
            if progress:
                progress(len(explanations))
            waiting[first] = explanations
            while added in waiting:
                for e in waiting.pop(added):
                    stats.add(e)
                    added += 1
    except WorkerDied as died:
        first, chunk, _ = died.item
        raise RuntimeError(
            f"worker process {died.pid} died ({died.cause}) while explaining puzzles "
            f"{first}..{first + len(chunk) - 1} (counted from 0); out of memory? try "
            f"fewer workers") from died
    return stats
