"""Puzzles with known answers, shared by the puzzle tests of ``dlx`` and of
the command line (``tests/`` is on ``sys.path`` through its conftest)."""
from pathlib import Path

import numpy as np

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "puzzles"

# Wikipedia's example puzzle and its solution
WIKI = ("53..7....6..195....98....6.8...6...34..8.3..17...2...6"
        ".6....28....419..5....8..79")
WIKI_SOLUTION = ("534678912672195348198342567859761423426853791713924856"
                 "961537284287419635345286179")
# Sudopedia's "Not Unique — 2 Solutions"
TWO = ".39...12....9.7...8..4.1..6.42...79...........91...54.5..1.9..3...8.5....14...87."
# an unsolvable square, no repeated given (Sudopedia)
UNSOLVABLE = "....41....6.....2...2......32.6.........5..417.......2......23..48......5.1..2..."


def lines(name: str) -> list[str]:
    """The whitespace-separated words (puzzles) of a fixture file."""
    return (FIXTURES / name).read_text().split()


def is_valid_grid(grid, shape) -> bool:
    """Every row, column and box of a full grid holds 1..N once (computed here,
    not by the code under test)."""
    if isinstance(shape, str):
        r_, c_ = (int(x) for x in shape.split("x"))
    else:
        r_, c_ = shape.box_rows, shape.box_cols     # a Shape or a Sudoku
    n = r_ * c_
    g = np.asarray(grid).reshape(n, n)
    full = set(range(1, n + 1))
    boxes = [g[r:r + r_, c:c + c_].ravel() for r in range(0, n, r_) for c in range(0, n, c_)]
    return all(set(u.tolist()) == full for u in [*g, *g.T, *boxes])


def completes(puzzle, grid) -> bool:
    """``grid`` keeps every given of ``puzzle``."""
    p = np.asarray(puzzle).ravel()
    g = np.asarray(grid).ravel()
    return bool(np.all((p == 0) | (p == g)))


def steps_under_true_guesses(explanation, truth):
    """The deductions of an explanation made while every guess in force agrees
    with ``truth`` (the unique solution): at depth 0, and along the guesses
    that were kept.  Each must be true of the solution; a deduction inside a
    wrong guess may be anything."""
    truth = np.asarray(truth).ravel()
    in_force = []
    for s in explanation.steps:
        del in_force[s.depth:]
        if s.rule == "contradiction":
            continue
        if s.rule == "branch":
            in_force.append(s.placement)
            continue
        if all(truth[k] == d for k, d in in_force):
            yield s


def shared_sample(shared_dir, name: str, k: int, seed: int = 26) -> list[tuple[str, str]]:
    """``k`` (puzzle, solution) pairs drawn (seeded) from a collection of
    ``../shared/data/puzzles`` and its ``solutions/`` file."""
    import random
    data = shared_dir / "data" / "puzzles"
    puzzles = (data / name).read_text().split()
    sols = (data / "solutions" / name).read_text().split()
    picked = sorted(random.Random(seed).sample(range(len(puzzles)), k))
    return [(puzzles[i], sols[i]) for i in picked]
