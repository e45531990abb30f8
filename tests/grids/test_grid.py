"""grids.grid: the one grid parser and formatter, unit conflicts, batches in the engine."""
import numpy as np
import pytest

from grids import grid as G
from grids.shape import Shape
from grids.sudoku import Sudoku

from puzzle_samples import WIKI, WIKI_SOLUTION

S22, S23, S33 = Shape(2, 2), Shape(2, 3), Shape(3, 3)


# ----------------------------------------------------------------------
# shapes

@pytest.mark.parametrize("n_cells, name", [(None, "3x3"), (81, "3x3"), (16, "2x2"),
                                           (256, "4x4"), (1, "1x1")])
def test_the_shape_of_a_grid_follows_from_its_size(n_cells, name):
    assert G.grid_shape(None, n_cells).name == name


@pytest.mark.parametrize("n_cells", [36, 5, 64])
def test_sizes_without_a_square_shape_ask_for_one(n_cells):
    with pytest.raises(G.PuzzleError, match=f"a grid of {n_cells} cells has no square box shape"):
        G.grid_shape(None, n_cells)


@pytest.mark.parametrize("shape", [S23, "2x3", (2, 3), Sudoku(2, 3)])
def test_a_given_shape_wins_over_the_size(shape):
    assert G.grid_shape(shape, 81) == S23
    assert G.shape_of("." * 36, shape) == S23


def test_bad_shapes_are_value_errors():
    with pytest.raises(ValueError, match="bad box shape"):
        G.grid_shape("3by3")


# ----------------------------------------------------------------------
# reading

def test_text_grids_ignore_whitespace_and_take_both_blanks_and_both_cases():
    assert G.to_array(WIKI).tolist() == G.to_array(WIKI.replace(".", "0")).tolist()
    spaced = "\n".join(" ".join(WIKI[r * 9:r * 9 + 9]) for r in range(9))
    assert np.array_equal(G.to_array(spaced), G.to_array(WIKI))
    text = "123456789abcdefg" + "." * 240
    assert G.to_array(text, "4x4")[:16].tolist() == list(range(1, 17))
    assert np.array_equal(G.to_array(text.upper().encode(), "4x4"), G.to_array(text, "4x4"))


@pytest.mark.parametrize("text, shape, message", [
    ("1" * 80, S33, "a 9x9 grid needs 81 symbols, got 80"),
    ("x" + "." * 80, S33, "r1c1: symbol 'x' is not a digit 1..9 or a blank (. or 0)"),
    ("." * 10 + "A" + "." * 70, S33, "r2c2: symbol 'A' is not a digit 1..9"),
    ("." * 35 + "7", S23, "r6c6: symbol '7' is not a digit 1..6"),
    ("." * 255 + "H", Shape(4, 4), "r16c16: symbol 'H' is not a digit 1..G"),
])
def test_bad_text_grids_name_the_cell_and_symbol(text, shape, message):
    with pytest.raises(G.PuzzleError) as e:
        G.to_array(text, shape)
    assert str(e.value).startswith(message)


def test_array_grids_in_both_layouts_and_any_integer_type():
    flat = G.to_array(WIKI)
    for form in (flat, flat.reshape(9, 9), flat.astype(np.int8), flat.astype(np.uint16)):
        out = G.to_array(form)
        assert out.dtype == np.int64 and out.shape == (81,) and np.array_equal(out, flat)


@pytest.mark.parametrize("array, message", [
    (np.zeros((4, 4)), "grid array must hold integers, got dtype float64"),
    (np.zeros((3, 3), dtype=int), r"grid array must have shape \(4, 4\) or \(16,\), got \(3, 3\)"),
    (np.array([0, 5] + [0] * 14), r"r1c2: digit 5 out of range 1..4 \(0 for blank\)"),
    (np.array([0] * 15 + [-1]), r"r4c4: digit -1 out of range"),
])
def test_bad_array_grids_are_refused(array, message):
    with pytest.raises(G.PuzzleError, match=message):
        G.to_array(array, S22)


def test_a_batch_from_arrays_or_a_list_of_text_and_arrays():
    a = G.to_array(WIKI)
    want = np.stack([a, a])
    for form in (want, want.reshape(2, 9, 9), [WIKI, a], (g for g in [a, WIKI])):
        assert np.array_equal(G.as_batch(form), want)
    assert G.as_batch([]).shape == (0, 81)
    assert G.as_batch(np.zeros((3, 16), dtype=np.int8)).shape == (3, 16)     # 2x2 inferred


@pytest.mark.parametrize("batch, message", [
    ([WIKI, WIKI[:-1]], "grid 1: a 9x9 grid needs 81 symbols, got 80"),
    (np.full((2, 81), 10), r"grid 0: r1c1: digit 10 out of range 1..9"),
    (np.zeros(81, dtype=int), "a grid batch must be 2-d"),
    (np.zeros((2, 81)), "must hold integers"),
    (np.zeros((2, 9, 8), dtype=int), "no square box shape"),
])
def test_bad_batches_name_the_grid(batch, message):
    with pytest.raises(G.PuzzleError, match=message):
        G.as_batch(batch)


def test_a_batch_of_the_wrong_width_for_its_shape_is_refused():
    with pytest.raises(G.PuzzleError, match=r"grid batch must have shape \(k, 36\)"):
        G.as_batch(np.zeros((2, 81), dtype=int), S23)


def test_hint_digits_are_numbers_or_letters_within_the_grid():
    assert [G.hint_digit(t, 16) for t in ("1", "10", "g", "G", "16")] == [1, 10, 16, 16, 16]
    assert [G.hint_digit(t, 9) for t in ("0", "10", "A", "", "1.0")] == [None] * 5


# ----------------------------------------------------------------------
# the rules

@pytest.mark.parametrize("cells, message", [
    ({0: 1, 1: 1}, "row 1 has digit 1 twice: r1c1 and r1c2"),
    ({0: 2, 9: 2}, "column 1 has digit 2 twice: r1c1 and r2c1"),
    ({0: 3, 10: 3}, "box 1 has digit 3 twice: r1c1 and r2c2"),
    ({80: 9, 70: 9}, "box 9 has digit 9 twice: r8c8 and r9c9"),
])
def test_a_repeated_digit_is_named_with_its_unit_and_cells(cells, message):
    grid = np.zeros(81, dtype=np.int64)
    for k, v in cells.items():
        grid[k] = v
    assert G.unit_conflict(grid) == message
    with pytest.raises(G.PuzzleError, match=message):
        G.check_units(grid)


def test_boxes_come_from_the_shape():
    # r1c1 and r2c3 share box 1 of 2x3 boxes, not of 3x2 boxes
    grid = np.zeros(36, dtype=np.int64)
    grid[0] = grid[6 + 2] = 4
    assert G.unit_conflict(grid, "2x3") == "box 1 has digit 4 twice: r1c1 and r2c3"
    assert G.unit_conflict(grid, "3x2") is None


def test_valid_grids_and_latin_squares_have_no_conflict():
    assert G.unit_conflict(WIKI) is None and G.unit_conflict(WIKI_SOLUTION) is None
    assert G.unit_conflict("1..." "..1." ".1.." "...1", "1x4") is None     # no boxes


# ----------------------------------------------------------------------
# writing

def test_format_line_and_hints_write_what_to_array_reads():
    g = G.to_array("1" + "." * 254 + "G", "4x4")
    assert G.format_line(g) == "1" + "." * 254 + "G"
    assert G.format_line(g, blank="0") == "1" + "0" * 254 + "G"
    assert G.format_hints(g) == "2\n0 0 1\n15 15 16\n"
    assert G.format_hints("1" + "." * 15) == "1\n0 0 1\n"


@pytest.mark.parametrize("blank", [".", "0", "_", "··"])
def test_format_lines_writes_each_grid_of_a_batch_as_format_line_does(blank):
    rng = np.random.default_rng(37)
    for n in (4, 9, 16, 25):
        grids = rng.integers(0, n + 1, size=(7, n * n))
        lines = G.format_lines(grids, blank)
        assert lines == [G.format_line(g, blank=blank) for g in grids]
        assert lines == G.format_lines(grids.reshape(7, n, n), blank)
        widths = [n * n + (len(blank) - 1) * int((g == 0).sum()) for g in grids]
        assert [len(line) for line in lines] == widths
    assert G.format_lines(np.zeros((0, 81), dtype=np.int64)) == []
    assert G.format_lines(np.zeros((2, 0), dtype=np.int64)) == ["", ""]


@pytest.mark.parametrize("digit", [36, -1])
def test_format_lines_refuses_a_digit_text_cannot_write(digit):
    grids = np.ones((3, 81), dtype=np.int64)
    grids[2, 5] = digit
    with pytest.raises(G.PuzzleError, match=f"digit {digit} has no symbol"):
        G.format_lines(grids)
    with pytest.raises(G.PuzzleError, match=f"digit {digit} has no symbol"):
        G.format_line(grids[2])


# ----------------------------------------------------------------------
# batches in the engine

def test_solve_grids_counts_and_lays_out_the_first_solution():
    s = Sudoku(2, 2)
    grids = G.as_batch(["1234341221434321", "12..............", "11..............",
                        "123434122143432."], S22)
    counts, sols = G.solve_grids(s.exact_cover(), grids, 4, limit=2)
    assert counts.tolist() == [1, 2, -1, 1]
    assert G.format_line(sols[0]) == "1234341221434321" == G.format_line(sols[3])
    assert np.all((grids[1] == 0) | (sols[1] == grids[1])) and s.count(sols[1]) == 1
    assert not sols[2].any()
    counts_only, none = G.solve_grids(s.exact_cover(), grids, 4, limit=2, solutions=False)
    assert none is None and counts_only.tolist() == counts.tolist()


# ----------------------------------------------------------------------
# what text can hold

@pytest.mark.parametrize("shape", ["6x6", "1x36", "5x8"])
def test_text_grids_stop_at_35_digits(shape):
    with pytest.raises(G.PuzzleError, match=r"grids have digits .* at most 35 .*1-9, A-Z"):
        G.text_shape(shape)
    with pytest.raises(G.PuzzleError, match="at most 35"):
        G.to_array("." * Shape.parse(shape).n_cells, shape)
    assert G.text_shape("5x7").n == 35


def test_arrays_of_grids_past_35_digits_are_fine_but_have_no_text():
    n = 36
    grid = np.zeros(n * n, dtype=np.int64)
    grid[0] = 36
    assert G.to_array(grid, "6x6")[0] == 36
    with pytest.raises(G.PuzzleError, match="at most 35"):
        G.format_line(grid)


@pytest.mark.parametrize("symbol", ["１", "٣", "³", "ı", "ａ"])
def test_text_grids_take_ascii_symbols_only(symbol):
    # "ı".upper() is "I", digit 18 of a 25x25 grid: it must still be refused
    with pytest.raises(G.PuzzleError, match=f"r1c1: symbol '{symbol}' is not a digit"):
        G.to_array(symbol + "." * 624, "5x5")


@pytest.mark.parametrize("token", ["٣", "+3", "³", "3.0", " 3", "0x3", "-3"])
def test_hint_numbers_are_ascii_decimal_only(token):
    assert G.hint_digit(token, 9) is None
    assert G.decimal(token) is None
    assert G.decimal("12") == 12
    # "ı".upper() is "I": a letter digit must be ASCII too
    assert G.hint_digit("ı", 25) is None and G.hint_digit("i", 25) == 18


# ----------------------------------------------------------------------
# format_block (issue 37: the solutions of `gridcount solve` as one text)

@pytest.mark.parametrize("n, dtype", [(4, np.uint8), (9, np.int64), (16, np.uint8), (35, np.int64)])
def test_format_block_is_the_lines_each_ended_by_a_newline(n, dtype):
    rng = np.random.default_rng(n)
    grids = rng.integers(0, n + 1, size=(7, n * n)).astype(dtype)
    want = "".join(line + "\n" for line in G.format_lines(grids)).encode("ascii")
    assert G.format_block(grids) == want
    assert G.format_block(grids.reshape(7, n, n), blank="0") == \
        "".join(line + "\n" for line in G.format_lines(grids, blank="0")).encode("ascii")


def test_format_block_of_no_grid_is_empty_and_bad_input_is_refused():
    assert G.format_block(np.zeros((0, 81), dtype=np.uint8)) == b""
    with pytest.raises(G.PuzzleError, match="digit 36 has no symbol"):
        G.format_block([[36] + [0] * 35])
    with pytest.raises(ValueError, match="one ASCII character"):
        G.format_block([[1]], blank="··")
