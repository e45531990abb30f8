"""grids.puzzles.techniques.fish: X-Wing, Swordfish, Jellyfish on hand-made positions."""
from grids.puzzles.techniques.fish import jellyfish, swordfish, x_wing

from technique_positions import GEO, col, full, keep_only, removed, row


def test_x_wing_on_rows_removes_the_digit_from_both_columns_elsewhere():
    cand = full()
    for r in (2, 7):
        keep_only(cand, 4, [f"r{r}c3", f"r{r}c8"], row(r))
    found = x_wing(GEO, cand)
    assert found.rule == "X-Wing" and "rows 2,7 × columns 3,8" in found.why
    assert removed(found) == {(f"r{r}c{c}", 4) for r in (1, 3, 4, 5, 6, 8, 9) for c in (3, 8)}


def test_x_wing_on_columns_removes_the_digit_from_both_rows_elsewhere():
    cand = full()
    for c in (2, 7):
        keep_only(cand, 9, [f"r3c{c}", f"r8c{c}"], col(c))
    found = x_wing(GEO, cand)
    assert "columns 2,7 × rows 3,8" in found.why
    assert removed(found) == {(f"r{r}c{c}", 9) for r in (3, 8) for c in (1, 3, 4, 5, 6, 8, 9)}


def test_swordfish_removes_the_digit_from_its_three_columns_and_is_no_x_wing():
    cand = full()
    for r, cs in ((1, (1, 4)), (5, (4, 7)), (9, (1, 7))):
        keep_only(cand, 5, [f"r{r}c{c}" for c in cs], row(r))
    assert x_wing(GEO, cand) is None        # any two of the rows span three columns
    found = swordfish(GEO, cand)
    assert found.rule == "Swordfish"
    assert removed(found) == {(f"r{r}c{c}", 5) for r in (2, 3, 4, 6, 7, 8) for c in (1, 4, 7)}


def test_jellyfish_removes_the_digit_from_its_four_columns_and_is_no_swordfish():
    cand = full()
    for r, cs in ((1, (1, 2, 3)), (3, (2, 3)), (5, (3, 4)), (7, (4, 1))):
        keep_only(cand, 6, [f"r{r}c{c}" for c in cs], row(r))
    assert swordfish(GEO, cand) is None
    found = jellyfish(GEO, cand)
    assert found.rule == "Jellyfish"
    assert removed(found) == {(f"r{r}c{c}", 6) for r in (2, 4, 6, 8, 9) for c in (1, 2, 3, 4)}
