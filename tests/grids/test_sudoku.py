"""The Sudoku encoding: mapping, grids in and out, counts of small shapes."""
import math

import numpy as np
import pytest

from grids.shape import Shape
from grids.sudoku import Sudoku


def test_9x9_matrix_is_729_by_324():
    s = Sudoku(3, 3)
    assert (s.n_rows, s.n_columns) == (729, 324)
    ec = s.exact_cover()
    assert (ec.n_rows, ec.n_primary, ec.n_secondary) == (729, 324, 0)
    assert all(len(ec.row(i)) == 4 for i in range(0, 729, 97))


@pytest.mark.parametrize("shape", [(2, 2), (2, 3), (3, 2), (3, 3), (1, 4), (4, 1)])
def test_row_index_and_decode_are_inverse(shape):
    s = Sudoku(*shape)
    for i in range(s.n_rows):
        assert s.row_index(*s.decode(i)) == i


def test_columns_of_a_candidate_match_the_csr_matrix():
    s = Sudoku(2, 3)
    indptr, indices = s.csr()
    for i in range(s.n_rows):
        assert sorted(indices[indptr[i]:indptr[i + 1]]) == sorted(s.columns_of(*s.decode(i)))


def test_latin_square_shapes_drop_the_redundant_box_columns():
    assert Sudoku(1, 5).n_columns == 3 * 25
    assert Sudoku(5, 1).n_columns == 3 * 25


def test_4x4_sudoku_has_288_grids():
    assert Sudoku(2, 2).count() == 288


@pytest.mark.parametrize("shape", [(2, 3), (3, 2)])
def test_6x6_with_row_1_given_has_39168_completions(shape):
    s = Sudoku(*shape)
    n = s.count("123456" + "." * 30)
    assert n == 39_168
    # every first row is a relabelling of 123456, so the total is 6! times that
    assert math.factorial(6) * n == 28_200_960


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(2, 3), (3, 2)])
def test_6x6_full_enumeration_has_28200960_grids(shape):
    assert Sudoku(*shape).count() == 28_200_960


@pytest.mark.parametrize("n, expected", [(1, 1), (2, 2), (3, 12), (4, 576), (5, 161_280)])
def test_latin_squares_of_small_order(n, expected):
    # OEIS A002860 (number of Latin squares of order n)
    assert Sudoku(1, n).count() == expected
    assert Sudoku(n, 1).count() == expected


def test_memo_count_equals_plain_count_for_6x6_row_order():
    s = Sudoku(2, 3)
    ec = s.exact_cover(priority="rows")
    given = s.givens("123456" + "." * 30)
    assert ec.count(given=given, memo=True) == ec.count(given=given) == 39_168


def test_solve_returns_a_valid_completion_of_the_givens():
    s = Sudoku(3, 3)
    puzzle = ("53..7...." "6..195..." ".98....6." "8...6...3" "4..8.3..1"
              "7...2...6" ".6....28." "...419..5" "....8..79")
    grid = s.solve(puzzle)
    given = s.parse(puzzle)
    assert np.all((given == 0) | (grid == given))
    for k in range(9):
        assert sorted(grid[k]) == list(range(1, 10))
        assert sorted(grid[:, k]) == list(range(1, 10))
        r, c = 3 * (k // 3), 3 * (k % 3)
        assert sorted(grid[r:r + 3, c:c + 3].ravel()) == list(range(1, 10))
    assert s.count(puzzle) == 1


def test_grid_text_and_array_round_trip():
    s = Sudoku(3, 3)
    text = "1" + "." * 79 + "9"
    arr = s.parse(text)
    assert s.format(arr) == text
    assert np.array_equal(s.parse(arr), arr)
    assert np.array_equal(s.parse(text.replace(".", "0")), arr)
    assert s.givens(arr) == s.givens(text)


def test_16x16_grids_use_letters_for_digits_above_9():
    s = Sudoku(4, 4)
    text = "123456789ABCDEFG" + "." * 240
    arr = s.parse(text)
    assert arr[0].tolist() == list(range(1, 17))
    assert s.format(arr) == text
    assert s.parse(text.lower())[0, 15] == 16


@pytest.mark.parametrize("grid, match", [
    ("1" * 80, "81 symbols"),
    ("x" + "." * 80, "r1c1"),
    ("." * 10 + "A" + "." * 70, r"r2c2: symbol 'A'"),
    ("11" + "." * 79, "row 1 has digit 1 twice: r1c1 and r1c2"),
    ("1" + "." * 8 + "1" + "." * 71, "column 1 has digit 1 twice"),
    ("1" + "." * 9 + "1" + "." * 70, "box 1 has digit 1 twice: r1c1 and r2c2"),
])
def test_bad_grids_are_rejected_naming_the_cell(grid, match):
    with pytest.raises(ValueError, match=match):
        Sudoku(3, 3).parse(grid)


def test_bad_grid_arrays_are_rejected():
    s = Sudoku(2, 2)
    with pytest.raises(ValueError, match=r"r1c2: digit 5 out of range 1..4"):
        s.parse(np.array([[0, 5, 0, 0]] + [[0] * 4] * 3))
    with pytest.raises(ValueError, match="shape"):
        s.parse(np.zeros((3, 3), dtype=int))
    with pytest.raises(ValueError, match="integers"):
        s.parse(np.zeros((4, 4)))


@pytest.mark.parametrize("text", ["3x", "0x3", "abc", "3x3x3", "-1x2", ""])
def test_bad_shape_strings_are_rejected(text):
    with pytest.raises(ValueError, match="box shape"):
        Sudoku.from_shape(text)


@pytest.mark.parametrize("shape", ["2x3", Shape(2, 3), (2, 3)])
def test_a_sudoku_holds_its_shape(shape):
    s = Sudoku.from_shape(shape)
    assert s.shape == Shape(2, 3) and str(s.shape) == "2x3"
    assert (s.box_rows, s.box_cols, s.n, s.latin) == (2, 3, 6, False)
    assert Sudoku(1, 4).latin and Sudoku(1, 4).shape == Shape.parse("1x4")


def test_bad_box_sizes_are_rejected():
    with pytest.raises(ValueError, match="box_rows"):
        Sudoku(0, 3)
    with pytest.raises(ValueError, match="box_cols"):
        Sudoku(3, 2.5)


def test_solve_batch_agrees_with_one_at_a_time_solving():
    s = Sudoku(2, 3)
    rng = np.random.default_rng(7)
    full = s.solve("123456" + "." * 30)
    grids = []
    for _ in range(40):
        g = full.copy().ravel()
        g[rng.random(36) < 0.7] = 0
        grids.append(g)
    grids.append(np.zeros(36, dtype=int))          # many solutions
    bad = np.zeros(36, dtype=int)
    bad[0] = bad[1] = 3                             # repeated digit in row 1
    grids.append(bad)
    counts, sols = s.solve_batch(np.array(grids))
    for k, g in enumerate(grids[:-1]):
        assert counts[k] == s.count(g, limit=2)
        assert np.all((g.reshape(6, 6) == 0) | (sols[k] == g.reshape(6, 6)))
        assert s.count(sols[k]) == 1                # a complete valid grid
    assert counts[-1] == -1 and not sols[-1].any()
    s.check_invariants()


def test_solve_batch_reads_text_and_reports_bad_digits_by_grid():
    s = Sudoku(3, 3)
    counts, sols = s.solve_batch(["." * 81, "1" + "." * 80], limit=1)
    assert counts.tolist() == [1, 1] and sols[1][0, 0] == 1
    with pytest.raises(ValueError, match="grid 1: r1c1: symbol 'x'"):
        s.solve_batch(["." * 81, "x" + "." * 80])


def test_solve_batch_releases_the_gil_for_threads():
    from concurrent.futures import ThreadPoolExecutor
    s = Sudoku(3, 3)
    grids = np.zeros((8, 81), dtype=int)
    grids[:, 0] = np.arange(1, 9)
    with ThreadPoolExecutor(2) as ex:
        parts = list(ex.map(lambda chunk: s.solve_batch(chunk, ec=s.exact_cover())[0],
                            [grids[:4], grids[4:]]))
    assert np.concatenate(parts).tolist() == [2] * 8


def test_memo_count_of_all_6x6_grids_equals_the_plain_count():
    # the plain full enumeration is the slow test above
    assert Sudoku(2, 3).exact_cover(priority="rows").count(memo=True) == 28_200_960
    assert Sudoku(3, 2).exact_cover(priority="rows").count(memo=True, memo_mb=1) == 28_200_960


@pytest.mark.parametrize("shape, other", [((2, 3), (3, 2)), ((3, 3), (2, 2)), ((2, 2), (3, 3)),
                                          ((2, 2), (1, 4))])
def test_solve_batch_refuses_a_matrix_of_another_shape(shape, other):
    s = Sudoku(*shape)
    grid = s.solve("." * s.n ** 2).ravel()
    grid[::2] = 0
    with pytest.raises(ValueError, match=f"not the matrix of {s.shape} grids"):
        s.solve_batch([grid], ec=Sudoku(*other).exact_cover())
    assert s.solve_batch([grid], ec=s.exact_cover(priority="rows"))[0].tolist() == \
        s.solve_batch([grid])[0].tolist()


def test_the_plain_count_takes_the_fast_path():
    # issue 26.19: Sudoku(2, 3).count() searched without memo or tail (14.5 s)
    s = Sudoku(2, 3)
    assert s.count() == 28_200_960
    assert s.stats.memo_hits > 0 and s.stats.tail_calls > 0
    assert Sudoku(2, 2).count(memo=False) == 288
    assert Sudoku(2, 2).count(limit=5) == 5
