"""grids.puzzles.techniques.colouring: simple colouring on hand-made positions."""
from grids.puzzles.techniques.colouring import simple_colouring

from technique_positions import GEO, col, full, keep_only, removed, row


def test_colour_trap_removes_the_digit_from_cells_that_see_both_colours():
    # 1: r1c1 = r1c5 (row 1) = r6c5 (column 5) = r6c2 (row 6);
    # colours {r1c1, r6c5} and {r1c5, r6c2}
    cand = full()
    keep_only(cand, 1, ["r1c1", "r1c5"], row(1))
    keep_only(cand, 1, ["r1c5", "r6c5"], col(5))
    keep_only(cand, 1, ["r6c5", "r6c2"], row(6))
    found = simple_colouring(GEO, cand)
    assert found.rule == "simple colouring" and "colour trap" in found.why
    # seeing r1c1 (box 1, column 1) and r6c2 (column 2, box 4)
    assert removed(found) == {("r2c2", 1), ("r3c2", 1), ("r4c1", 1), ("r5c1", 1)}


def test_colour_wrap_removes_the_digit_from_the_colour_that_sees_itself():
    # 1: r1c1 = r1c5 = r5c5 = r5c2 = r2c2; r1c1, r5c5 and r2c2 share a colour,
    # and r1c1 and r2c2 are both in box 1
    cand = full()
    keep_only(cand, 1, ["r1c1", "r1c5"], row(1))
    keep_only(cand, 1, ["r1c5", "r5c5"], col(5))
    keep_only(cand, 1, ["r5c5", "r5c2"], row(5))
    keep_only(cand, 1, ["r5c2", "r2c2"], col(2))
    found = simple_colouring(GEO, cand)
    assert "colour wrap, r1c1 and r2c2 share a colour and see each other" in found.why
    assert removed(found) == {("r1c1", 1), ("r5c5", 1), ("r2c2", 1)}


def test_two_unlinked_conjugate_pairs_are_no_colouring():
    cand = full()
    keep_only(cand, 1, ["r1c1", "r1c5"], row(1))
    keep_only(cand, 1, ["r3c6", "r8c6"], col(6))
    assert simple_colouring(GEO, cand) is None
