"""The closed-form tail: the last band of a row-by-row search counted as a
Latin rectangle with prescribed column sets, never differently from search."""
import numpy as np
import pytest

from dlx import ExactCover
from grids.sudoku import Sudoku


def _random_grid(sud: Sudoku, rng: np.random.Generator) -> np.ndarray:
    """A uniformly relabelled, row- and column-shuffled valid grid."""
    grid = sud.solve(np.zeros((sud.n, sud.n), dtype=np.int64))
    perm = rng.permutation(sud.n) + 1
    grid = perm[grid - 1]
    # shuffle rows inside bands and columns inside stacks (keeps validity)
    br, bc = sud.box_rows, sud.box_cols
    rows = np.concatenate([b * br + rng.permutation(br) for b in rng.permutation(sud.n // br)])
    cols = np.concatenate([s * bc + rng.permutation(bc) for s in rng.permutation(sud.n // bc)])
    return grid[rows][:, cols]


def _givens(sud: Sudoku, grid: np.ndarray, keep: np.ndarray) -> list[int]:
    return [sud.row_index(r, c, int(grid[r, c]))
            for r in range(sud.n) for c in range(sud.n) if keep[r, c]]


@pytest.mark.parametrize("shape, grids", [("2x2", 288), ("2x3", 28_200_960),
                                          ("3x2", 28_200_960), ("1x4", 576),
                                          ("1x5", 161_280), ("5x1", 161_280)])
def test_tail_counts_every_small_shape_like_the_published_totals(shape, grids):
    ec = Sudoku.from_shape(shape).exact_cover(priority="rows")
    assert ec.count(tail=True, memo=True) == grids
    assert ec.stats.tail_calls > 0


@pytest.mark.parametrize("shape", ["2x2", "2x3", "3x2", "2x4", "4x2", "3x3", "1x5", "1x6"])
def test_tail_agrees_with_plain_search_on_random_partial_grids(shape):
    # Givens anywhere (also inside the last band: forced cells, paths and
    # cycles of the two-row rule, zero-count states), dense enough that the
    # plain search stays quick.
    sud = Sudoku.from_shape(shape)
    ec = sud.exact_cover(priority="rows")
    rng = np.random.default_rng(sum(map(ord, shape)))
    n = sud.n
    counts, calls = [], 0
    for trial in range(24):
        grid = _random_grid(sud, rng)
        density = rng.uniform(0.0, 0.6) if n <= 4 else rng.uniform(0.35, 0.8)
        keep = rng.random((n, n)) < density
        if trial % 3 == 0:
            # a wrong digit, with the givens it would clash with dropped:
            # often no solution at all, found deep in the search
            r, c = rng.integers(n, size=2)
            grid = grid.copy()
            grid[r, c] = v = grid[r, c] % n + 1
            peers = np.zeros((n, n), dtype=bool)
            peers[r, :] = peers[:, c] = True
            br, bc = r - r % sud.box_rows, c - c % sud.box_cols
            peers[br:br + sud.box_rows, bc:bc + sud.box_cols] = True
            keep &= ~(peers & (grid == v))
            keep[r, c] = True
        given = _givens(sud, grid, keep)
        plain = ec.count(given=given)
        counts.append(plain)
        assert ec.count(given=given, tail=True) == plain, (shape, trial)
        assert ec.count(given=given, tail=True, memo=True) == plain, (shape, trial)
        calls += ec.stats.tail_calls
    # the comparison was not vacuous: the tail ran, on solvable and
    # unsolvable grids alike
    assert calls > 0 and 0 in counts and max(counts) > 1


def test_9x9_units_with_tail_equal_plain_memo_counts():
    from counting.reduction import get_reduction
    sud = Sudoku(3, 3)
    ec = sud.exact_cover(priority="rows")
    specs = get_reduction("3x3", "71").units()
    for u in (0, 355, 709):
        given = [sud.row_index(r, c, d) for r, c, d in specs[u].givens]
        without = ec.count(given=given, memo=True)
        nodes_without = ec.stats.nodes
        ec.clear_memo()
        assert ec.count(given=given, memo=True, tail=True) == without
        assert ec.stats.tail_calls > 0 and ec.stats.nodes < nodes_without


def test_tail_rows_are_the_last_band_or_three_rows_of_a_latin_square():
    assert Sudoku(3, 3).tail_rows() == 3
    assert Sudoku(2, 4).tail_rows() == 2
    assert Sudoku(4, 2).tail_rows() == 4
    assert Sudoku(1, 6).tail_rows() == 3


def test_9x9_tail_starts_at_row_6_the_lead_row_of_band_2():
    sud = Sudoku(3, 3)
    prio, cell, row_symbol, column_symbol, lead = sud.tail_columns()
    assert prio == 5 and cell.shape == row_symbol.shape == (3, 9)
    assert column_symbol.shape == (9, 9)
    assert cell[0, 0] == 6 * 9 and row_symbol[0, 0] == 81 + 6 * 9
    lead_cell, lead_row_symbol, box_symbol, stack = lead
    assert lead_cell[0] == 5 * 9 and lead_row_symbol[0] == 81 + 5 * 9
    # boxes 3, 4, 5 (band 2), their digit columns
    assert box_symbol.shape == (3, 9) and box_symbol[0, 0] == 3 * 81 + 3 * 9
    assert stack.tolist() == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    # Latin squares have no boxes, so no lead row
    assert Sudoku(1, 6).tail_columns()[4] is None


def test_lead_row_tail_stores_the_states_the_search_would_store():
    # Memoize only where band 3 starts (priority 6).  The tail enumerates the
    # lead row itself and stores each band-3 state it meets; a search of the
    # same unit afterwards must find every one of its band-3 states there,
    # which holds only if the tail builds exactly the search's keys.
    sud = Sudoku(3, 3)
    ec = sud.exact_cover(priority="rows")
    grid = _random_grid(sud, np.random.default_rng(7))
    keep = np.zeros((9, 9), dtype=bool)
    keep[:3] = True
    keep[:, 0] = True
    given = _givens(sud, grid, keep)
    ec.clear_memo()
    first = ec.count(given=given, memo=True, memo_at={6}, tail=True)
    assert ec.stats.tail_calls > 0 and ec.stats.memo_stores > 1000
    again = ec.count(given=given, memo=True, memo_at={6})
    assert again == first
    assert ec.stats.memo_lookups > 1000
    assert ec.stats.memo_hits == ec.stats.memo_lookups


def test_plain_matrices_have_no_tail_and_say_so():
    ec = Sudoku(2, 2).exact_cover()
    assert not ec.has_tail
    with pytest.raises(ValueError, match="no tail declared"):
        ec.count(tail=True)
    assert Sudoku(2, 2).exact_cover(priority="rows").has_tail


def test_tail_cannot_stop_at_a_limit():
    ec = Sudoku(2, 2).exact_cover(priority="rows")
    with pytest.raises(ValueError, match="tail counting cannot stop at a limit"):
        ec.count(tail=True, limit=5)


@pytest.mark.parametrize("args, match", [
    ((0, [[0, 1]], [[2, 3]], [[4, 5]]), "column_symbol 2 x 2"),
    ((0, [[0]] * 3, [[1]] * 3, [[2]]), r"1 <= R <= N <= 64"),
    ((0, [0, 1], [2, 3], [[4, 5], [6, 7]]), "R x N array"),
    ((0, [[0, 1]], [[2, 3]], [[4, 5], [6, 99]]), "primary columns 0..7"),
    ((0, [[0, 1]], [[2, 3]], [[4, 5], [6, 0]]), "distinct"),
    ((1, [[0, 1]], [[2, 3]], [[4, 5], [6, 7]]), "priority >= 1"),
    (("x", [[0, 1]], [[2, 3]], [[4, 5], [6, 7]]), "tail priority must be an integer"),
])
def test_bad_tail_declarations_are_refused(args, match):
    ec = ExactCover([[k] for k in range(8)], n_primary=8)
    with pytest.raises(ValueError, match=match):
        ec.set_tail(*args)
    assert not ec.has_tail


def test_tail_column_groups_must_be_consecutive():
    ec = ExactCover([[k] for k in range(8)], n_primary=8)
    with pytest.raises(ValueError, match="2 consecutive columns"):
        ec.set_tail(0, [[1, 0]], [[2, 3]], [[4, 5], [6, 7]])


@pytest.mark.parametrize("lead, match", [
    ("abcd", "lead must be"),
    (([0, 1], [2, 3], [[4, 5]]), "lead must be"),
    (([0], [2, 3], [[4, 5]], [0, 0]), "length 2"),
    (([0, 1], [2, 3], [4, 5], [0, 0]), "S x 2"),
    (([0, 1], [2, 3], [[4, 5]], [0, 1]), "stack values must be in 0..0"),
    (([0, 1], [2, 3], [[6, 7]], [0, 0]), "distinct"),
])
def test_bad_lead_rows_are_refused(lead, match):
    ec = ExactCover([[k] for k in range(14)], n_primary=14)
    with pytest.raises(ValueError, match=match):
        ec.set_tail(0, [[6, 7]], [[8, 9]], [[10, 11], [12, 13]], lead=lead)
    assert not ec.has_tail
