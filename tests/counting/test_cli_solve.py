"""gridcount solve on a plain file (every line N² symbols) takes the bytes way
of grids.puzzles.plain, without NumPy (issue 37); it prints, summarises and
exits as the library way (PuzzleFile, solve_batch) does, which ``--workers 2``
takes."""
import pytest
from click.testing import CliRunner

from counting.cli import cli

from puzzle_samples import FIXTURES, UNSOLVABLE, WIKI, lines

CONFLICT = "11" + "." * 79              # a digit twice in row 1: no solution, and why


def _run(*args, input=None):
    result = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    summary = result.stderr.rsplit(" in ", 1)[0]      # the time differs
    return result.exit_code, result.stdout, summary


@pytest.fixture
def mixed(tmp_path):
    """A plain file of unique puzzles, several solutions, none, repeated givens."""
    rows = [WIKI, *lines("sudopedia_multiple_8.txt")[:2], UNSOLVABLE, CONFLICT,
            *lines("17clue_20.txt")[:3], CONFLICT.lower()]
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(rows) + "\n")
    return path


@pytest.mark.parametrize("flags", [[], ["--first"]])
def test_a_plain_file_prints_what_the_library_way_prints(mixed, flags):
    plain = _run("solve", *flags, mixed)
    library = _run("solve", *flags, "--workers", "2", mixed)
    assert plain == library
    code, out, summary = plain
    assert code == 1
    assert "# line 5: no solution (row 1 has digit 1 twice: r1c1 and r1c2)" in out
    assert ("# line 2: more than one solution" in out) != bool(flags)
    assert summary.startswith("9 puzzles: ")


def test_standard_input_and_a_file_without_a_final_newline(mixed, tmp_path):
    text = mixed.read_text()
    bare = tmp_path / "bare.txt"
    bare.write_text(text.rstrip("\n"))
    assert _run("solve", "-", input=text) == _run("solve", bare) == _run("solve", mixed)


def test_a_file_of_unique_puzzles_is_its_solutions(tmp_path):
    path = tmp_path / "seventeen.txt"
    path.write_text((FIXTURES / "17clue_20.txt").read_text())
    code, out, summary = _run("solve", path)
    want = (FIXTURES / "17clue_20.solutions.txt").read_text().split()
    assert (code, out.split(), summary) == (0, want, "20 puzzles: 20 unique, 0 none, "
                                                     "0 multiple, 0 malformed")
