"""The 9x9 band kernel (grids/puzzles/_bands9.h, behind solve_boards and
solve_batch for 3x3 boxes) says what the exact-cover engine says: the same
count up to the limit (so the same status: unique, none, multiple), the
same solution when it is unique, and a valid one that keeps the givens when
there are several; on every collection of ../shared/data/puzzles (the first
puzzles of each, so the test takes seconds) and on hand-made cases."""
import numpy as np
import pytest

from grids import puzzles as P
from grids.grid import solve_grids
from grids.puzzles import solving
from grids.puzzles.boards import solve_boards
from grids.shape import Shape

NINE = Shape(3, 3)
FILES = ["17clue_royle_47158.txt", "forum_hardest_1106_375.txt",
         "forum_hardest_1905_11plus_5000.txt", "kaggle_bryanpark_10000.txt",
         "top1465_magictour.txt", "nonunique/multisolution_serg_benchmark_9994.txt",
         "nonunique/multisolution_sudopedia_8.txt", "nonunique/nosolution_derived_1000.txt",
         "nonunique/nosolution_sudopedia_7.txt"]
SOLVED = ("534678912672195348198342567859761423426853791713924856"
          "961537284287419635345286179")


def _engine(grids: np.ndarray, limit: int) -> np.ndarray:
    counts, _ = solve_grids(solving.thread_engine(P.get_sudoku(NINE)), grids, 9, limit)
    return counts


def _valid(puzzle: np.ndarray, solution: np.ndarray) -> bool:
    kept = np.all((puzzle == 0) | (puzzle == solution))
    full = all(sorted(solution[cells].tolist()) == list(range(1, 10)) for _, cells in NINE.units)
    return bool(kept and full)


def _agree(grids: np.ndarray) -> None:
    for limit in (1, 2):
        counts, sols = solve_boards(NINE, grids, limit)
        assert counts.tolist() == _engine(grids, limit).tolist()
        for puzzle, count, sol in zip(grids, counts, sols):
            assert _valid(puzzle, sol) if count > 0 else not sol.any()
    # a unique solution is the solution: the engine's equals the kernel's
    counts, sols = solve_boards(NINE, grids, 2)
    unique = counts == 1
    _, want = solve_grids(solving.thread_engine(P.get_sudoku(NINE)), grids[unique], 9, 1)
    assert np.array_equal(sols[unique], want.reshape(sols[unique].shape))


@pytest.mark.parametrize("name", FILES)
def test_band_kernel_agrees_with_the_engine_on_the_shared_collections(shared_dir, name):
    pf = P.read_puzzles(shared_dir / "data" / "puzzles" / name)
    grids = np.asarray(pf.grids, dtype=np.int64).reshape(len(pf.grids), -1)[:300]
    assert len(grids) and not pf.errors
    _agree(grids)


def test_band_kernel_on_hand_made_cases():
    full = np.array([int(ch) for ch in SOLVED], dtype=np.int64)
    empty = np.zeros(81, dtype=np.int64)
    one_blank = full.copy()
    one_blank[40] = 0
    two_ways = full.copy()          # r4c6, r4c9 = 1, 3 and r5c6, r5c9 = 3, 1 swap
    two_ways[[32, 35, 41, 44]] = 0
    no_room = empty.copy()          # r1c1 sees 1..8 in its row and 9 in its column: no digit
    no_room[1:9] = np.arange(1, 9)
    no_room[9 * 4] = 9
    repeated = empty.copy()
    repeated[[0, 1]] = 7
    dead_digit = empty.copy()       # 1 has no place in box 1: r1c4, r2c7, r4c1, r8c2
    dead_digit[[3, 15, 27, 64]] = 1   # see rows 1-2 and columns 1-2, and r3c3 holds 2
    dead_digit[20] = 2
    grids = np.array([full, empty, one_blank, two_ways, no_room, repeated, dead_digit])
    counts, sols = solve_boards(NINE, grids, 2)
    assert counts.tolist() == [1, 2, 1, 2, 0, -1, 0]
    assert np.array_equal(sols[0], full) and np.array_equal(sols[2], full)
    assert not sols[4:].any()
    _agree(grids[[0, 1, 2, 3, 4, 6]])
