"""grids.puzzles.techniques.wings: XY-Wing and XYZ-Wing on hand-made positions."""
from grids.puzzles.techniques.wings import xy_wing, xyz_wing

from technique_positions import GEO, full, removed, set_cell


def test_xy_wing_removes_z_from_the_cells_that_see_both_pincers():
    cand = full()
    set_cell(cand, "r1c1", "12")      # pivot
    set_cell(cand, "r1c5", "13")      # pincer (row 1)
    set_cell(cand, "r3c2", "23")      # pincer (box 1)
    found = xy_wing(GEO, cand)
    assert found.rule == "XY-Wing" and "pivot r1c1" in found.why
    # seeing r1c5 (row 1, column 5, box 2) and r3c2 (row 3, column 2, box 1)
    assert removed(found) == {("r1c2", 3), ("r1c3", 3), ("r3c4", 3), ("r3c5", 3), ("r3c6", 3)}


def test_xy_wing_needs_both_pincers_to_see_the_pivot():
    cand = full()
    set_cell(cand, "r1c1", "12")
    set_cell(cand, "r1c5", "13")
    set_cell(cand, "r5c6", "23")      # sees neither r1c1 nor r1c5
    assert xy_wing(GEO, cand) is None


def test_xyz_wing_removes_z_from_the_cells_that_see_all_three():
    cand = full()
    set_cell(cand, "r1c1", "123")     # pivot
    set_cell(cand, "r1c5", "13")
    set_cell(cand, "r2c2", "23")
    assert xy_wing(GEO, cand) is None
    found = xyz_wing(GEO, cand)
    assert found.rule == "XYZ-Wing"
    assert removed(found) == {("r1c2", 3), ("r1c3", 3)}
