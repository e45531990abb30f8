"""grids.puzzles.techniques.chains: X-chain, XY-chain and AIC on hand-made positions."""
from grids.puzzles.techniques.chains import aic, x_chain, xy_chain
from grids.puzzles.techniques.colouring import simple_colouring
from grids.puzzles.techniques.wings import xy_wing

from technique_positions import GEO, col, full, keep_only, removed, row, set_cell


def test_x_chain_links_two_conjugate_pairs_through_a_box():
    # 1: (1)r1c1 = (1)r1c5 - (1)r3c6 = (1)r8c6, the middle link a weak one in
    # box 2 (no colouring sees it)
    cand = full()
    keep_only(cand, 1, ["r1c1", "r1c5"], row(1))
    keep_only(cand, 1, ["r3c6", "r8c6"], col(6))
    assert simple_colouring(GEO, cand) is None
    found = x_chain(GEO, cand)
    assert found.rule == "X-chain"
    assert "(1)r1c1 = (1)r1c5 - (1)r3c6 = (1)r8c6" in found.why
    assert removed(found) == {("r8c1", 1)}


def test_x_chain_finds_what_a_colour_trap_finds():
    cand = full()
    keep_only(cand, 1, ["r1c1", "r1c5"], row(1))
    keep_only(cand, 1, ["r1c5", "r6c5"], col(5))
    keep_only(cand, 1, ["r6c5", "r6c2"], row(6))
    assert removed(x_chain(GEO, cand)) == {("r2c2", 1), ("r3c2", 1), ("r4c1", 1), ("r5c1", 1)}


def test_xy_chain_of_four_cells_removes_the_end_digit_where_both_ends_are_seen():
    cand = full()
    set_cell(cand, "r1c1", "12")
    set_cell(cand, "r1c6", "23")
    set_cell(cand, "r5c6", "34")
    set_cell(cand, "r5c2", "14")
    assert xy_wing(GEO, cand) is None and x_chain(GEO, cand) is None
    found = xy_chain(GEO, cand)
    assert found.rule == "XY-chain" and found.why.startswith("XY-chain (7 links)")
    # seeing r1c1 (row 1, column 1, box 1) and r5c2 (row 5, column 2, box 4)
    assert removed(found) == {("r1c2", 1), ("r2c2", 1), ("r3c2", 1),
                              ("r4c1", 1), ("r5c1", 1), ("r6c1", 1)}


def test_aic_mixes_a_cell_link_with_conjugate_pairs_of_two_digits():
    # (1)r1c1 = (2)r1c1 - (2)r1c7 = (2)r7c7 - (1)r7c7 = (1)r7c3
    cand = full()
    set_cell(cand, "r1c1", "12")
    keep_only(cand, 2, ["r1c7", "r7c7"], col(7))
    keep_only(cand, 1, ["r7c7", "r7c3"], row(7))
    assert x_chain(GEO, cand) is None and xy_chain(GEO, cand) is None
    found = aic(GEO, cand)
    assert found.rule == "AIC"
    assert "(1)r1c1 = (2)r1c1 - (2)r1c7 = (2)r7c7 - (1)r7c7 = (1)r7c3" in found.why
    # seeing r1c1 (row 1, column 1, box 1) and r7c3 (row 7, column 3, box 7);
    # (r7c1 has no 1 left: row 7)
    assert removed(found) == {("r1c3", 1), ("r2c3", 1), ("r3c3", 1), ("r8c1", 1), ("r9c1", 1)}


def test_aic_from_a_cell_back_to_itself_leaves_it_the_two_end_digits():
    # (1)r1c1 = (1)r1c5 - (2)r1c5 = (2)r1c1: r1c1 is 1 or 2
    cand = full()
    keep_only(cand, 1, ["r1c1", "r1c5"], row(1))
    keep_only(cand, 2, ["r1c1", "r1c5"], row(1))
    found = aic(GEO, cand)
    assert "(1)r1c1 = (1)r1c5 - (2)r1c5 = (2)r1c1" in found.why
    assert removed(found) == {("r1c1", d) for d in range(3, 10)}


def test_aic_between_two_digits_of_cells_that_see_each_other_removes_each_from_the_other():
    # (1)r1c1 = (1)r5c1 - (3)r5c1 = (3)r5c2 - (3)r1c2 = (2)r1c2: r1c1 is 1 or r1c2 is 2,
    # and the two cells share row 1, so r1c1 cannot be 2 (r1c2 has no 1 to lose)
    cand = full()
    keep_only(cand, 1, ["r1c1", "r5c1"], col(1))
    keep_only(cand, 3, ["r5c1", "r5c2"], row(5))
    set_cell(cand, "r1c2", "23")
    found = aic(GEO, cand)
    assert "(1)r1c1 = (1)r5c1 - (3)r5c1 = (3)r5c2 - (3)r1c2 = (2)r1c2" in found.why
    assert removed(found) == {("r1c1", 2)}
