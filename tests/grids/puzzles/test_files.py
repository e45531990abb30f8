"""grids.puzzles.files: the line and hint-list formats, malformed puzzles reported by line."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grids import puzzles as P

from puzzle_samples import FIXTURES, WIKI


def test_line_format_with_comments_blanks_zeros_and_crlf():
    text = "# comment\r\n\r\n" + WIKI.replace(".", "0") + "\r\n  " + WIKI + "  \n"
    pf = P.parse_puzzles(text)
    assert pf.format == "line" and [e.line for e in pf.entries] == [3, 4]
    assert np.array_equal(pf.grids[0], pf.grids[1])
    assert pf.lines.tolist() == [3, 4]


def test_line_format_accepts_spaced_grids():
    spaced = "\t".join(" ".join(WIKI[r * 9:r * 9 + 9]) for r in range(9))
    pf = P.parse_puzzles(spaced + "\n")
    assert not pf.errors and P.format_line(pf.grids[0]) == WIKI


def test_malformed_lines_are_reported_with_line_numbers_and_the_rest_is_read():
    pf = P.read_puzzles(FIXTURES / "malformed_lines.txt")
    got = [(e.line, e.error) for e in pf.entries]
    assert got == [
        (3, None),
        (4, "a 9x9 puzzle needs 81 symbols, got 80"),
        (5, "a 9x9 puzzle needs 81 symbols, got 82"),
        (6, "r9c9: symbol 'x' is not a digit 1..9 or a blank (. or 0)"),
        (8, None),     # spaces between symbols are fine
        (9, None),     # a repeated given is read; it is a puzzle without solution
    ]
    assert P.classify_batch(pf.grids).tolist() == ["unique", "unique", "none"]


def test_malformed_hint_lists_are_reported_with_line_numbers():
    pf = P.read_puzzles(FIXTURES / "malformed_hints.txt")
    assert pf.format == "hints"
    got = [(e.line, e.error) for e in pf.entries]
    assert got == [
        (2, None),
        (5, "expected the number of hints of a puzzle, got 'x'"),
        (8, "cell (0, 0) is given twice (first on line 7); the puzzle of line 6 is skipped"),
        (11, "row and column must be 0..8, got 9 0; the puzzle of line 10 is skipped"),
        (14, "digit must be 1..9, got '0'; the puzzle of line 13 is skipped"),
        (18, "expected 'row column digit', got '0 1 2 7'; the puzzle of line 16 is skipped"),
        (20, None),
        (23, "expected the number of hints of a puzzle, got a hint line"),
        (24, "2 hints promised, the file ends after 1"),
    ]
    short = P.parse_puzzles("3\n0 0 1\n0 1 2\n1\n4 4 4\n")
    assert [(e.line, e.error) for e in short.entries] == [
        (1, "3 hints promised, only 2 before line 4"), (4, None)]


def test_hint_format_fixture():
    pf = P.read_puzzles(FIXTURES / "hints_2.txt")
    assert pf.format == "hints" and not pf.errors
    assert P.format_line(pf.grids[0]) == WIKI
    assert pf.grids[1].sum() == 0 and [e.line for e in pf.entries] == [3, 36]


def test_format_detection_and_forcing():
    assert P.parse_puzzles(WIKI).format == "line"
    assert P.parse_puzzles("1\n0 0 5\n").format == "hints"
    assert P.parse_puzzles("1\n0 0 5\n", format="line").errors[0].line == 1
    with pytest.raises(ValueError, match="format"):
        P.parse_puzzles(WIKI, format="csv")


@pytest.mark.parametrize("shape", ["2x2", "2x3", "3x3", "4x4"])
def test_both_formats_round_trip(shape, tmp_path):
    s = P.get_sudoku(shape)
    rng = np.random.default_rng(8)
    grids = []
    for _ in range(4):
        g = P.random_grid(rng, s)
        g[rng.random(g.size) < 0.5] = 0
        grids.append(g)
    grids.append(np.zeros(s.n * s.n, dtype=np.int64))
    grids = np.stack(grids)
    for fmt in ("line", "hints"):
        path = tmp_path / f"p.{fmt}"
        path.write_text(P.write_puzzles(grids, format=fmt))
        pf = P.read_puzzles(path, shape=shape)
        assert pf.format == fmt and not pf.errors
        assert np.array_equal(pf.grids, grids)
    # and across: hints → line → hints
    hints = P.write_puzzles(grids, format="hints")
    back = P.parse_puzzles(hints, shape=shape).grids
    assert P.write_puzzles(back, format="hints") == hints


@settings(max_examples=60)
@given(st.lists(st.integers(0, 9), min_size=81, max_size=81), st.sampled_from(["line", "hints"]))
def test_any_grid_round_trips(values, fmt):
    grid = np.asarray(values, dtype=np.int64)
    text = P.write_puzzles(grid[None, :], format=fmt)
    pf = P.parse_puzzles(text)
    assert not pf.errors and np.array_equal(pf.grids[0], grid)


def test_hint_digits_past_nine_as_numbers_or_letters():
    pf = P.parse_puzzles("2\n0 0 10\n0 1 g\n", shape="4x4")
    assert pf.grids[0][:2].tolist() == [10, 16]
    assert P.parse_puzzles("1\n0 0 17\n", shape="4x4").errors[0].error == \
        "digit must be 1..G, got '17'; the puzzle of line 1 is skipped"


def test_unreadable_bytes_are_reported_not_skipped(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes(WIKI.encode() + b"\n" + WIKI[:80].encode() + b"\xff\n")
    pf = P.read_puzzles(path)
    assert [e.line for e in pf.entries] == [1, 2]
    assert pf.entries[1].error.startswith("r9c9: symbol '\ufffd'")


@pytest.mark.parametrize("text, line, error", [
    ("1\n0 0 ٣\n", 2, "digit must be 1..9, got '٣'"),
    ("1\n٠ 0 3\n", 2, "row and column must be 0..8, got ٠ 0"),
    ("1\n0 ² 3\n", 2, "row and column must be 0..8, got 0 ²"),
    ("1\n0 0 +3\n", 2, "digit must be 1..9, got '+3'"),
    ("٢\n0 0 3\n0 1 4\n", 1, "expected the number of hints of a puzzle, got '٢'"),
    ("+1\n0 0 3\n", 1, "expected the number of hints of a puzzle, got '+1'"),
])
def test_hint_lists_take_ascii_decimal_numbers_only(text, line, error):
    pf = P.parse_puzzles(text, format="hints")
    assert pf.entries[0].line == line and pf.entries[0].error.startswith(error)
    assert len(pf.grids) == 0


def test_files_of_grids_past_35_digits_are_refused():
    with pytest.raises(P.PuzzleError, match="at most 35"):
        P.parse_puzzles("1\n0 0 1\n", shape="6x6")
    with pytest.raises(P.PuzzleError, match="at most 35"):
        P.write_puzzles(np.zeros((1, 36 * 36), dtype=np.int64), shape="6x6")


def test_a_plain_file_reads_as_the_same_file_read_line_by_line():
    """A file of bare N²-symbol lines is read at once (a fast path); any
    other line sends the whole file line by line, with the same result for
    the plain lines, and a comment or a spaced line the length of a grid is
    not taken for a grid."""
    rows = [WIKI, WIKI.replace("5", ".", 1), "0" * 81]
    plain = P.parse_puzzles("\n".join(rows) + "\n")
    assert [(e.line, e.index, e.error) for e in plain.entries] == [(1, 0, None), (2, 1, None),
                                                                    (3, 2, None)]
    slow = P.parse_puzzles("\n".join(rows) + "\n#" + "x" * 80 + "\n")
    assert plain.entries == slow.entries and np.array_equal(plain.grids, slow.grids)
    spaced = P.parse_puzzles("\n".join(rows) + "\n " + WIKI[:80])
    assert [e.error for e in spaced.entries][3] == "a 9x9 puzzle needs 81 symbols, got 80"
    bad = P.parse_puzzles("\n".join(rows + ["x" + WIKI[1:]]))
    assert len(bad.grids) == 3 and not bad.entries[3].ok


# ----------------------------------------------------------------------
# issue 37: one byte a cell, entries made when asked for

@pytest.mark.parametrize("text, fmt", [
    (WIKI + "\n" + WIKI + "\n", "line"),                         # read at once
    ("# c\n" + WIKI + "\n\n" + WIKI[:40] + "\n" + WIKI + "\n", "line"),   # line by line
    ((FIXTURES / "hints_2.txt").read_text(), "hints"),
])
def test_grids_are_one_byte_a_cell_in_every_format(text, fmt):
    pf = P.parse_puzzles(text)
    assert pf.format == fmt and pf.grids.dtype == np.uint8 and len(pf.grids) == 2
    assert pf.grids[0].tolist() == P.to_array(WIKI).tolist()
    assert P.parse_puzzle(WIKI).grids.dtype == np.uint8


def test_entries_place_each_malformed_puzzle_among_those_read():
    bad = [P.Entry(2, None, "bad"), P.Entry(4, None, "x"), P.Entry(5, None, "y")]
    entries = P.Entries([1, 3, 6], [(1, bad[0]), (3, bad[1]), (4, bad[2])])
    want = [P.Entry(1, 0), bad[0], P.Entry(3, 1), bad[1], bad[2], P.Entry(6, 2)]
    assert list(entries) == want and entries == want and len(entries) == 6
    assert entries[4] is bad[2] and entries[-1] == P.Entry(6, 2)
    assert P.Entries.of(want) == entries and P.Entries.of(want).errors == entries.errors
    assert P.Entries([], [(0, bad[0])]) == [bad[0]] and list(P.Entries([7, 8])) == [
        P.Entry(7, 0), P.Entry(8, 1)]


def test_a_file_s_entries_are_the_same_read_at_once_or_line_by_line():
    text = "".join(line + "\n" for line in (FIXTURES / "17clue_20.txt").read_text().split())
    at_once, by_line = P.parse_puzzles(text), P.parse_puzzles("# head\n" + text)
    assert [(e.line - 1, e.index, e.error) for e in by_line.entries] == \
        [(e.line, e.index, e.error) for e in at_once.entries]
    assert at_once.lines.tolist() == list(range(1, 21)) and at_once.errors == []
    mixed = P.read_puzzles(FIXTURES / "malformed_lines.txt")
    assert [e.line for e in mixed.errors] == [e.line for e in mixed.entries if not e.ok]
    assert mixed.lines.tolist() == [e.line for e in mixed.entries if e.ok]
    # a PuzzleFile made from a list keeps it as Entries
    pf = P.PuzzleFile([P.Entry(3, 0), P.Entry(4, None, "bad")], at_once.grids[:1], at_once.shape,
                      "line")
    assert isinstance(pf.entries, P.Entries) and pf.lines.tolist() == [3]
    assert [e.line for e in pf.errors] == [4]


@pytest.mark.parametrize("text", [
    WIKI + "\n" + WIKI,                              # no final newline
    WIKI[:80] + "\n" + WIKI + "5\n",                 # 80 + 82 symbols: two 81-byte rows' worth
    WIKI + "\n\n" + WIKI + "\n",                      # a blank line
    WIKI + "\r\n" + WIKI + "\r\n",                    # CRLF
    WIKI[:80] + "\u00e9\n" + WIKI + "\n",             # a symbol beyond ASCII
    WIKI.replace(".", "0", 3) + "\n" + WIKI.lower() + "\n",
    WIKI[:80] + "x\n" + WIKI + "\n",                  # an unknown symbol
    "#" + WIKI[1:] + "\n" + WIKI + "\n",               # a comment of 81 characters
    WIKI[:40] + " " + WIKI[41:] + "\n" + WIKI + "\n",  # a space
])
def test_a_file_read_at_once_reads_as_line_by_line(text):
    # issue 37: the common file is read as rows of N²+1 bytes; any other
    # falls back to the line-by-line reading, with the same entries and grids
    at_once = P.parse_puzzles(text)
    by_line = P.parse_puzzles("#\n" + text)          # a comment forces the line-by-line reading
    assert [(e.line + 1, e.index, e.error) for e in at_once.entries] == \
        [(e.line, e.index, e.error) for e in by_line.entries]
    assert np.array_equal(at_once.grids, by_line.grids)
