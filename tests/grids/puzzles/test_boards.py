"""grids.puzzles.boards: the candidate bit-board solver gives what the
exact-cover engine gives (counts up to the limit, -1 for givens that repeat
a digit, a valid first solution that keeps the givens) on every box shape
of at most 16 digits, and solve_batch runs on it to solve and check."""
import numpy as np
import pytest

from grids import puzzles as P
from grids.grid import solve_grids
from grids.puzzles import solving
from grids.puzzles.boards import MAX_DIGITS, solve_boards
from grids.shape import Shape

from puzzle_samples import lines


def _puzzles(shape: Shape, rng, count: int) -> np.ndarray:
    """Puzzles from random grids with random cells blanked, a few with a
    digit changed (conflicting or unsolvable) and one empty grid."""
    out = []
    for k in range(count):
        grid = P.random_grid(rng, shape).copy()
        keep = rng.random(shape.n_cells) < rng.uniform(0.15, 0.7)
        grid[~keep] = 0
        if k % 5 == 4:
            cell = rng.integers(shape.n_cells)
            grid[cell] = rng.integers(1, shape.n + 1)
        out.append(grid)
    out.append(np.zeros(shape.n_cells, dtype=np.int64))
    return np.array(out, dtype=np.int64)


def _valid(shape: Shape, puzzle: np.ndarray, solution: np.ndarray) -> bool:
    kept = np.all((puzzle == 0) | (puzzle == solution))
    full = all(sorted(solution[cells].tolist()) == list(range(1, shape.n + 1))
               for _, cells in shape.units)
    return bool(kept and full)


@pytest.mark.parametrize("name", ["1x4", "2x2", "2x3", "3x2", "1x6", "3x3", "2x4", "4x4"])
@pytest.mark.parametrize("limit", [1, 2])
def test_boards_agree_with_the_exact_cover_engine(name, limit):
    shape = Shape.parse(name)
    rng = np.random.default_rng(37)
    grids = _puzzles(shape, rng, 12 if shape.n == 16 else 40)
    counts, sols = solve_boards(shape, grids, limit)
    want, _ = solve_grids(solving.thread_engine(P.get_sudoku(shape)), grids, shape.n, limit)
    assert counts.tolist() == want.tolist()
    assert {-1, limit} <= set(counts.tolist()) or shape.n < 6
    for puzzle, count, sol in zip(grids, counts, sols):
        if count > 0:
            assert _valid(shape, puzzle, sol)
        else:
            assert not sol.any()


def test_known_17_clue_puzzles_have_their_known_solutions():
    puzzles = P.as_batch(lines("17clue_20.txt"))
    counts, sols = solve_boards(Shape(3, 3), puzzles, 2)
    assert counts.tolist() == [1] * len(puzzles)
    assert P.format_lines(sols) == lines("17clue_20.solutions.txt")


def test_solve_batch_solves_and_checks_on_boards_and_counts_on_the_engine(monkeypatch):
    def no_engine(*args, **kwargs):
        raise AssertionError("the exact-cover engine was used")

    monkeypatch.setattr(solving, "solve_grids", no_engine)
    r = P.solve_batch(["1234341221434321", "12..............", "11.............."], limit=2)
    assert r.counts.tolist() == [1, 2, -1]
    assert P.classify(".234341221434321") == "unique"
    with pytest.raises(AssertionError, match="exact-cover engine"):
        P.solve_batch(["12.............."], limit=3)


def test_boards_refuse_what_they_cannot_hold():
    with pytest.raises(ValueError, match=f"at most {MAX_DIGITS} digits, not 20"):
        solve_boards(Shape(4, 5), np.zeros((1, 400), dtype=np.int64), 2)
    with pytest.raises(ValueError, match=r"shape \(m, 16\)"):
        solve_boards(Shape(2, 2), np.zeros((1, 15), dtype=np.int64), 2)
    with pytest.raises(ValueError, match="digits must be in 0..4"):
        solve_boards(Shape(2, 2), np.full((1, 16), 5, dtype=np.int64), 2)
    counts, sols = solve_boards(Shape(2, 2), np.zeros((0, 16), dtype=np.int64), 2)
    assert counts.shape == (0,) and sols.shape == (0, 16)


@pytest.mark.parametrize("name", ["2x2", "2x3", "3x3", "4x4"])
def test_byte_grids_give_byte_solutions_equal_to_the_int64_ones(name):
    # issue 37: the kernel reads and writes one byte a cell when given bytes
    shape = Shape.parse(name)
    grids = _puzzles(shape, np.random.default_rng(5), 12)
    for limit in (1, 2):
        counts, sols = solve_boards(shape, grids, limit)
        counts8, sols8 = solve_boards(shape, grids.astype(np.uint8), limit)
        assert sols8.dtype == np.uint8 and sols.dtype == np.int64
        assert counts8.tolist() == counts.tolist() and np.array_equal(sols8, sols)
