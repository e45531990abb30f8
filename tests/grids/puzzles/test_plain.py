"""grids.puzzles.plain: a plain file read, solved and written as bytes
without NumPy gives what the library's arrays give (files.parse_puzzles,
solve_batch, format_block), and any file that is not plain is left to the
line-by-line reading (None)."""
import hashlib

import numpy as np
import pytest

from grids import puzzles as P
from grids.puzzles.plain import MAX_DIGITS, board_tables, read_plain, solve_plain
from grids.shape import Shape
from grids.symbols import text_block

from puzzle_samples import FIXTURES, lines

SHAPES = [Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(1, 4), Shape(3, 3)]


def _batch(shape: Shape, rng, count: int = 40) -> np.ndarray:
    """Random puzzles of ``shape``: unique, several, none and repeated givens."""
    out = []
    for k in range(count):
        grid = P.random_grid(rng, shape).copy()
        grid[rng.random(shape.n_cells) < rng.uniform(0.3, 0.85)] = 0
        if k % 4 == 3:
            grid[rng.integers(shape.n_cells)] = rng.integers(1, shape.n + 1)
        out.append(grid)
    return np.array(out, dtype=np.uint8)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("final_newline", [True, False])
def test_a_plain_file_reads_as_the_library_reads_it(shape, final_newline):
    grids = _batch(shape, np.random.default_rng(shape.n))
    text = P.write_puzzles(grids, shape=shape)
    text = text if final_newline else text[:-1]
    got = read_plain(text.encode(), shape.n)
    assert isinstance(got, bytearray)
    assert bytes(got) == P.parse_puzzles(text, shape=shape).grids.tobytes() == grids.tobytes()


def test_lower_case_letters_and_zero_blanks_are_plain():
    text = "1234341221434321\n0000000000000000\n"
    assert read_plain(text.encode(), 4) == bytes([1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3,
                                                  4, 3, 2, 1] + [0] * 16)
    assert read_plain(b"a" + b"." * 99 + b"\n", 10)[:2] == bytes([10, 0])


@pytest.mark.parametrize("data", [
    b"",                                                # no puzzle: the reading refuses it
    b"\n",
    b"# a comment\n1234341221434321\n",
    b"1234341221434321\n\n1234341221434321\n",         # a blank line
    b"1234341221434321\r\n",                            # CR LF line ends
    b"\xef\xbb\xbf1234341221434321\n",                  # a byte-order mark
    b"1234 341221434321\n",                             # a space
    b"123434122143432\n",                               # a short line
    b"12343412214343211\n",                             # a long line
    b"1234341221434325\n",                              # a digit past N
    b"1234341221434x21\n",
    b"12\n4341221434321\n1234341221434321\n",           # rows line up, a newline inside
    b"123434122143432\n12343412214343211\n",           # a short and a long line line up
    "1234341221434é21\n".encode(),                      # not ASCII
], ids=repr)
def test_any_other_file_is_not_plain(data):
    assert read_plain(data, 4) is None


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("limit", [1, 2])
def test_solve_plain_gives_what_solve_batch_gives(shape, limit):
    grids = _batch(shape, np.random.default_rng(10 + shape.n))
    counts, sols = solve_plain(bytearray(grids.tobytes()), shape, limit)
    want = P.solve_batch(grids, shape=shape, limit=limit, dtype=np.uint8)
    assert counts.typecode == "q" and isinstance(sols, bytearray)
    assert counts.tolist() == want.counts.tolist()
    assert -1 in counts.tolist() and max(counts) >= 1     # repeated givens, and solved
    assert bytes(sols) == want.solutions.tobytes()


@pytest.mark.parametrize("shape", SHAPES + [Shape(4, 4)], ids=str)
def test_solve_plain_as_text_writes_what_text_block_writes(shape):
    """The rows the kernel writes with room for a newline, translated once,
    are the text of the solutions (16x16: digit 10 is byte 10, a newline,
    and must still be written 'A')."""
    grids = _batch(shape, np.random.default_rng(20 + shape.n), count=12 if shape.n > 9 else 40)
    counts, sols = solve_plain(bytearray(grids.tobytes()), shape, 2)
    text_counts, block = solve_plain(bytearray(grids.tobytes()), shape, 2, text=True)
    assert text_counts.tolist() == counts.tolist()
    assert block == text_block(sols, shape.n_cells)


@pytest.mark.parametrize("limit", [1, 2])
def test_solve_plain_on_the_sample_files_gives_what_solve_batch_gives(limit):
    names = ("17clue_20.txt", "hardest_6.txt", "kaggle_5.txt", "top1465_20.txt",
             "sudopedia_multiple_8.txt", "sudopedia_none_7.txt", "derived_none_5.txt")
    text = "".join(line + "\n" for name in names for line in lines(name))
    grids = read_plain(text.encode(), 9)
    counts, sols = solve_plain(grids, Shape(3, 3), limit)
    want = P.solve_batch(P.parse_puzzles(text).grids, limit=limit, dtype=np.uint8)
    assert counts.tolist() == want.counts.tolist()
    assert len(set(counts.tolist())) == (3 if limit == 1 else 4)    # -1, 0, 1 (and 2)
    assert text_block(sols, 81) == P.format_block(want.solutions)


@pytest.mark.parametrize("shape", SHAPES + [Shape(1, 1), Shape(4, 1), Shape(4, 4)], ids=str)
def test_the_board_tables_are_the_shapes_units_and_peers(shape):
    units, peers = board_tables(shape)
    assert units.tolist() == np.concatenate([c for _, c in shape.units]).tolist()
    assert peers.tolist() == [k for cells in shape.peers for k in cells.tolist()]


def test_solve_plain_refuses_what_the_kernel_cannot_take():
    with pytest.raises(ValueError, match="at most 16 digits"):
        solve_plain(bytearray(25 * 25), Shape(5, 5), 2)
    assert MAX_DIGITS == 16
    with pytest.raises(ValueError, match="digits must be in 0..4"):
        solve_plain(bytearray([5] + [0] * 15), Shape(2, 2), 2)
    with pytest.raises(ValueError, match="16 bytes a puzzle"):
        solve_plain(bytearray(17), Shape(2, 2), 2)
    with pytest.raises(ValueError, match="limit"):
        solve_plain(bytearray(16), Shape(2, 2), 0)
    counts, sols = solve_plain(b"", Shape(2, 2), 2)
    assert len(counts) == 0 and sols == b""


def test_the_first_solution_of_a_puzzle_with_several_stays_the_one_found_before():
    """``solve --first`` prints the first solution the search meets, so on a
    puzzle with several the search order is output: the cell branched on
    (fewest candidates, the first such), the digits in increasing order, and
    what propagation leaves at each branch.  A faster kernel must meet the
    same solution first (issue 37); the fixture's solutions are those of
    the kernel before that work (tests/fixtures/puzzles/README.md)."""
    puzzles = (FIXTURES / "serg_multiple_200.txt").read_bytes()
    want = (FIXTURES / "serg_multiple_200.first.txt").read_bytes()
    nine = Shape(3, 3)
    counts, sols = solve_plain(read_plain(puzzles, 9), nine, 1)
    assert counts.tolist() == [1] * 200
    assert solve_plain(read_plain(puzzles, 9), nine, 2)[0].tolist() == [2] * 200
    assert text_block(sols, 81) == want


def test_the_first_solutions_of_serg_s_whole_file_stay_those_found_before(shared_dir):
    """The same on all 9,994 puzzles of Serg's file (a weaker propagation
    can keep the fixture's 200 and change others): the SHA-256 of the
    ``solve --first`` output at commit 1300abb, before issue 37's kernel
    work, recorded as ``sha256sum`` printed it."""
    import hashlib

    path = shared_dir / "data" / "puzzles" / "nonunique" / "multisolution_serg_benchmark_9994.txt"
    counts, sols = solve_plain(read_plain(path.read_bytes(), 9), Shape(3, 3), 1)
    assert counts.count(1) == len(counts) == 9994
    assert hashlib.sha256(text_block(sols, 81)).hexdigest() == (
        "535d07ae548fbd1d69a7e721bb2d745536dffb653d7560df91d93b8942eeab41")
