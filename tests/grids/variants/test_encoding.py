"""The variant encoding against an independent brute-force count (tests/variant_samples.py)."""
import random

import pytest

from grids.kind import as_kind
from grids.variants import variant_exact_cover, variant_givens
from grids.variants.encoding import unit_cells
from variant_samples import brute_count, is_filling, kind_parts

# 4×4 and small Latin orders: the whole count.
WHOLE = ["2x2", "2x2+x", "2x2+disjoint", "2x2+anti-king", "2x2+anti-knight", "2x2+disjoint+x",
         "1x3+x", "1x4+x", "1x5+x", "1x4+anti-knight", "1x5+anti-king", "1x5+anti-knight",
         "4x1+x", "1x5+anti-knight+x"]
# 6×6 and order 6: first row fixed to 1..N (the count of that row's completions).
FIRST_ROW = ["2x3+x", "2x3+disjoint", "2x3+anti-knight", "2x3+anti-king", "3x2+disjoint",
             "2x3+disjoint+x", "1x6+x", "1x6+anti-knight"]


@pytest.mark.parametrize("text", WHOLE)
def test_whole_count_matches_brute_force(text):
    R, C, houses, pairs = kind_parts(text)
    assert variant_exact_cover(text).count() == brute_count(R * C, houses, pairs)


@pytest.mark.parametrize("text", FIRST_ROW)
def test_first_row_completions_match_brute_force(text):
    R, C, houses, pairs = kind_parts(text)
    n = R * C
    given = {(0, c): c + 1 for c in range(n)}
    grid = "".join(str(d) for d in range(1, n + 1)) + "." * (n * n - n)
    ec = variant_exact_cover(text)
    assert ec.count(given=variant_givens(text, grid), memo=True) == brute_count(n, houses, pairs,
                                                                                 given)


@pytest.mark.parametrize("priority", [None, "rows"])
def test_priority_does_not_change_the_count(priority):
    assert variant_exact_cover("2x2+disjoint+x", priority=priority).count(memo=True) == \
        variant_exact_cover("2x2+disjoint+x").count()


@pytest.mark.parametrize("text", ["3x3+windoku", "3x3+asterisk", "3x3+girandola", "3x3+centre",
                                  "3x3+x", "3x3+disjoint", "3x3+windoku+x", "3x3+anti-knight",
                                  "3x3+anti-king"])
def test_nine_by_nine_completions_match_brute_force(text):
    """A grid of the kind (found by the engine, checked here), its first three
    rows and a few random cells blanked: completions counted both ways."""
    R, C, houses, pairs = kind_parts(text)
    ec = variant_exact_cover(text)
    rows = ec.first()
    assert rows is not None
    grid = {}
    for i in rows:
        cell, d = divmod(i, 9)
        grid[divmod(cell, 9)] = d + 1
    assert is_filling(9, houses, pairs, grid)
    rng = random.Random(text)
    blank = {(r, c) for r in range(3) for c in range(9)} | {(rng.randrange(9), rng.randrange(9))
                                                          for _ in range(12)}
    given = {x: d for x, d in grid.items() if x not in blank}
    text_grid = "".join(str(given.get((r, c), ".")) for r in range(9) for c in range(9))
    want = brute_count(9, houses, pairs, given)
    assert want >= 1
    assert ec.count(given=variant_givens(text, text_grid)) == want


def test_rows_keep_the_sudoku_row_index():
    from grids.sudoku import Sudoku
    ec, s = variant_exact_cover("2x3+x"), Sudoku(2, 3)
    for r, c, d in [(0, 0, 1), (5, 5, 6), (2, 3, 4)]:
        i = s.row_index(r, c, d)
        assert set(s.columns_of(r, c, d)) <= set(ec.row(i))


def test_difference_pairs_are_secondary_columns():
    ec = variant_exact_cover("2x2+anti-king")
    assert ec.n_primary == 4 * 16
    assert ec.n_secondary == 4 * len(as_kind("2x2+anti-king").differences())


def test_unit_cells_lists_regions_in_place_of_boxes(tmp_path):
    path = tmp_path / "j.kind"
    path.write_text("regions\nAABB\nACBB\nCCDD\nCADD\n")
    units = unit_cells(f"2x2+@{path}")
    assert units[8:] == ((0, 1, 4, 13), (2, 3, 6, 7), (5, 8, 9, 12), (10, 11, 14, 15))


@pytest.mark.parametrize("order", [[0, 5, 1, 4, 2, 3], [5, 4, 3, 2, 1, 0]])
def test_row_order_does_not_change_the_count(order):
    given = variant_givens("2x3+x", "123456" + "." * 30)
    assert variant_exact_cover("2x3+x", row_order=order).count(given=given, memo=True) == \
        variant_exact_cover("2x3+x").count(given=given, memo=True)


def test_row_order_must_be_a_permutation():
    with pytest.raises(ValueError, match=r"^row_order must be a permutation of 0..3, got \[0, 1, 1, 2\]$"):
        variant_exact_cover("2x2", row_order=[0, 1, 1, 2])


# Difference kinds with the memo: the key leaves out the pairs of filled rows
# (dlx/_memokey.pxi), so states meet; counts stay the brute-force ones.
DIFFERENCE_WHOLE = ["2x2+anti-king", "2x2+anti-knight", "1x5+anti-king", "1x5+anti-knight"]
DIFFERENCE_FIRST_ROW = ["2x3+anti-king", "3x2+anti-king", "2x3+anti-knight", "1x6+anti-knight"]


@pytest.mark.parametrize("text", DIFFERENCE_WHOLE + DIFFERENCE_FIRST_ROW)
def test_difference_kinds_count_the_same_with_the_memo(text):
    R, C, houses, pairs = kind_parts(text)
    n = R * C
    given, grid = {}, ""
    if text in DIFFERENCE_FIRST_ROW:
        given = {(0, c): c + 1 for c in range(n)}
        grid = "".join(str(d) for d in range(1, n + 1)) + "." * (n * n - n)
    want = brute_count(n, houses, pairs, given)
    ec = variant_exact_cover(text)
    rows = variant_givens(text, grid) if grid else []
    assert ec.count(given=rows) == want
    for memo_at in ("class", "all"):
        ec.clear_memo()
        assert ec.count(given=rows, memo=True, memo_at=memo_at) == want, memo_at


def test_anti_king_states_of_swapped_rows_meet():
    """Two 3x2+anti-king grids whose rows 1 and 2 are swapped, given their
    first three rows: the same columns, boxes and row 3 remain, and the pairs
    of rows 1-3 no longer matter, so the second count is one memo hit."""
    text = "3x2+anti-king"
    rows = ["123456", "541632", "365214"]
    swapped = [rows[1], rows[0], rows[2]]
    ec = variant_exact_cover(text)
    first = ec.count(given=variant_givens(text, "".join(rows) + "." * 18), memo=True)
    assert first > 0
    second = ec.count(given=variant_givens(text, "".join(swapped) + "." * 18), memo=True)
    assert second == first
    assert (ec.stats.nodes, ec.stats.memo_hits) == (1, 1)
