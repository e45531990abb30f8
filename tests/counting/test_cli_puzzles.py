"""gridcount solve / count-solutions / check / generate / explain (CliRunner on a
fresh group that ``register`` fills)."""
import json
from pathlib import Path

import click
import numpy as np
import pytest
from click.testing import CliRunner

from counting.cli.puzzles import EXIT_MALFORMED, EXIT_NOT_UNIQUE, EXIT_OK, register
from grids import puzzles as P

from puzzle_samples import (FIXTURES, TWO, UNSOLVABLE, WIKI, WIKI_SOLUTION, completes,
                            is_valid_grid)


@pytest.fixture(scope="module")
def group():
    @click.group()
    def cli():
        """test group"""
    register(cli)
    return cli


@pytest.fixture
def run(group):
    runner = CliRunner()

    def invoke(*args, input=None):
        return runner.invoke(group, [str(a) for a in args], input=input, catch_exceptions=False)
    return invoke


def fixture(name: str) -> Path:
    return FIXTURES / name


def test_register_adds_the_five_commands(group):
    assert {"solve", "count-solutions", "check", "generate", "explain"} <= set(group.commands)


@pytest.mark.parametrize("cmd", ["solve", "count-solutions", "check", "generate", "explain"])
def test_help_has_an_example_and_exit_codes(run, cmd):
    res = run(cmd, "--help")
    assert res.exit_code == 0
    assert "Example:" in res.output
    if cmd != "generate":
        assert "Exit codes" in res.output


# ----------------------------------------------------------------------
# solve

def test_solve_writes_one_solution_a_line_in_input_order(run):
    res = run("solve", fixture("17clue_20.txt"))
    assert res.exit_code == EXIT_OK
    assert res.stdout.split() == fixture("17clue_20.solutions.txt").read_text().split()
    assert "20 puzzles: 20 unique, 0 none, 0 multiple, 0 malformed" in res.stderr


def test_solve_reads_stdin_and_zero_blanks(run):
    text = fixture("kaggle_5.txt").read_text()
    res = run("solve", "-", input=text)
    assert res.exit_code == EXIT_OK
    assert res.stdout.split() == fixture("kaggle_5.solutions.txt").read_text().split()


def test_solve_marks_none_multiple_and_malformed(run):
    text = "\n".join([WIKI, TWO, "1" * 81, WIKI[:40], "# end"]) + "\n"
    res = run("solve", "-", input=text)
    assert res.exit_code == EXIT_MALFORMED
    assert res.stdout.splitlines() == [
        WIKI_SOLUTION,
        "# line 2: more than one solution (--all lists them)",
        "# line 3: no solution (row 1 has digit 1 twice: r1c1 and r1c2)",
        "# line 4: malformed: a 9x9 puzzle needs 81 symbols, got 40",
    ]
    # issue 33.10: the malformed line was said twice, on stdout and on stderr
    assert "81 symbols" not in res.stderr
    assert res.stderr.splitlines() == [
        "4 puzzles: 1 unique, 1 none, 1 multiple, 1 malformed (line 4) in "
        + res.stderr.split(" in ")[-1].strip()]


def test_solve_exit_code_1_when_some_are_not_unique(run):
    res = run("solve", fixture("sudopedia_none_7.txt"))
    assert res.exit_code == EXIT_NOT_UNIQUE
    assert all(line.startswith("# line ") and "no solution" in line
               for line in res.stdout.splitlines())


def test_solve_all_lists_every_solution_up_to_the_limit(run):
    res = run("solve", "--all", "-", input=f"{TWO}\n{WIKI}\n")
    out = res.stdout.splitlines()
    assert out[0] == "# line 1: 2 solutions" and len(out) == 5
    assert out[3:] == ["# line 2: 1 solution", WIKI_SOLUTION]
    for sol in out[1:3]:
        assert all(p in (".", s) for p, s in zip(TWO, sol))
    res = run("solve", "--all", "--limit", "3", fixture("sudopedia_multiple_8.txt"))
    headers = [line for line in res.stdout.splitlines() if line.startswith("#")]
    assert headers[0] == "# line 1: 3 solutions (at least; --limit 3)"
    assert headers[3] == "# line 4: 2 solutions"
    assert headers[4] == "# line 5: 3 solutions"      # exactly 3: not "at least"
    assert headers[5] == "# line 6: 3 solutions (at least; --limit 3)"


def _expected_solve_lines(pf: P.PuzzleFile) -> list:
    """solve's lines for each entry, from one-puzzle library calls (classify,
    solve, unit_conflict): a solution line, or the comment line; with
    --first a solved puzzle's line is None (any valid solution will do)."""
    out = []
    for e in pf.entries:
        if not e.ok:
            out.append(f"# line {e.line}: malformed: {e.error}")
            continue
        grid = pf.grids[e.index]
        status = P.classify(grid)
        if status == "unique":
            out.append(P.format_line(P.solve(grid)))
        elif status == "multiple":
            out.append(f"# line {e.line}: more than one solution (--all lists them)")
        else:
            why = P.unit_conflict(grid)
            out.append(f"# line {e.line}: no solution" + (f" ({why})" if why else ""))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_solve_writes_each_puzzle_s_line_in_place_among_every_kind_of_line(run, seed):
    # issue 37: the solution lines are written as slices of one block of
    # bytes, the other puzzles' lines put in between: each must land in its
    # input place, whatever the mix of solved, unsolved and malformed lines
    rng = np.random.default_rng(seed)
    pool = [WIKI, TWO, "1" * 81, UNSOLVABLE, WIKI[:40], WIKI[:80] + "x", "# a comment", "",
            *fixture("17clue_20.txt").read_text().split()[:6]]
    picks = rng.integers(0, len(pool), size=40)
    text = "\n".join(pool[k] for k in picks) + "\n"
    pf = P.parse_puzzles(text)
    want = _expected_solve_lines(pf)
    res = run("solve", "-", input=text)
    assert res.stdout.splitlines() == want
    res = run("solve", "--first", "-", input=text)
    got = res.stdout.splitlines()
    assert len(got) == len(want)
    for e, w, g in zip(pf.entries, want, got):
        if w.startswith("# line") and ("no solution" in w or "malformed" in w):
            assert g == w
        else:       # unique or several: any solution that keeps the givens
            assert not g.startswith("#") and is_valid_grid(P.to_array(g), "3x3")
            assert completes(pf.grids[e.index], P.to_array(g))


def test_solve_first_skips_the_uniqueness_check(run):
    res = run("solve", "--first", "-", input=f"{TWO}\n{WIKI}\n")
    assert res.exit_code == EXIT_OK
    out = res.stdout.splitlines()
    assert len(out) == 2 and out[1] == WIKI_SOLUTION and not out[0].startswith("#")


def test_solve_json(run):
    res = run("solve", "--json", "-", input=f"{WIKI}\nxx\n{TWO}\n")
    doc = json.loads(res.stdout)
    assert doc["summary"] == {"unique": 1, "none": 0, "multiple": 1, "malformed": 1}
    assert [r["status"] for r in doc["results"]] == ["unique", "malformed", "multiple"]
    assert doc["results"][0]["solution"] == WIKI_SOLUTION
    assert doc["results"][1]["line"] == 2 and "81 symbols" in doc["results"][1]["error"]


def test_solve_hint_format_and_other_shapes(run):
    res = run("solve", fixture("hints_2.txt"))
    assert res.stdout.splitlines() == [WIKI_SOLUTION,
                                       "# line 36: more than one solution (--all lists them)"]
    six = P.generate(14, seed=1, shape="2x3")
    res = run("solve", "--shape", "2x3", "--format", "hints", "-",
              input=P.format_hints(six.puzzle))
    assert res.exit_code == EXIT_OK and res.stdout.strip() == P.format_line(six.solution)
    res = run("solve", "--shape", "3by3", "-", input=WIKI)
    assert res.exit_code == 2 and "bad box shape" in res.output


def test_solve_with_threads(run):
    one = run("solve", fixture("top1465_20.txt")).stdout
    two = run("solve", "--workers", "2", fixture("top1465_20.txt")).stdout
    assert one == two and one.split() == fixture("top1465_20.solutions.txt").read_text().split()


# ----------------------------------------------------------------------
# count-solutions

def test_count_solutions_table(run):
    res = run("count-solutions", "--limit", "1000", fixture("sudopedia_multiple_8.txt"))
    assert res.exit_code == EXIT_OK
    lines = res.stdout.splitlines()
    assert lines[0].split() == ["line", "clues", "solutions"]
    assert [ln.split()[-1] for ln in lines[1:]] == \
        ["≥1,000", "≥1,000", "≥1,000", "2", "3", "4", "10", "125"]
    assert len({len(ln) for ln in lines}) == 1          # aligned columns


def test_count_solutions_default_limit_is_a_million(run):
    res = run("count-solutions", "-", input="." * 81 + "\n" + WIKI + "\n")
    assert res.stdout.splitlines()[1].split() == ["1", "0", "≥1,000,000"]
    assert res.stdout.splitlines()[2].split() == ["2", "30", "1"]
    assert "1,000,000" in run("count-solutions", "--help").output


@pytest.mark.parametrize("limit", [2**128, 2**200])
def test_count_solutions_limits_beyond_the_engine_are_a_usage_error(run, limit):
    # they raised OverflowError (then ValueError) with a traceback
    res = run("count-solutions", "--limit", limit, WIKI)
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert f"{limit} is not in the range 1<=x<={2**128 - 1}" in res.output


def test_count_solutions_json_and_no_limit(run):
    res = run("count-solutions", "--json", "--no-limit", "--shape", "2x3", "-",
              input="123456" + "." * 30 + "\n" + "." * 36 + "\n")
    doc = json.loads(res.stdout)
    assert doc["limit"] is None and doc["limit_int"] is None
    assert [(r["solutions"], r["solutions_int"], r["at_least"]) for r in doc["results"]] == \
        [("39168", 39_168, False), ("28200960", 28_200_960, False)]
    res = run("count-solutions", "--json", "--limit", "5", "-", input=f"{TWO}\nbad\n")
    doc = json.loads(res.stdout)
    assert res.exit_code == EXIT_MALFORMED
    assert doc["results"][0] == {"line": 1, "clues": 28, "solutions": "2", "solutions_int": 2,
                                 "at_least": False}
    assert doc["results"][1]["status"] == "malformed"


# ----------------------------------------------------------------------
# check

@pytest.mark.parametrize("name, code", [("17clue_20.txt", EXIT_OK),
                                        ("sudopedia_multiple_8.txt", EXIT_NOT_UNIQUE),
                                        ("derived_none_5.txt", EXIT_NOT_UNIQUE),
                                        ("malformed_lines.txt", EXIT_MALFORMED),
                                        ("malformed_hints.txt", EXIT_MALFORMED)])
def test_check_exit_codes(run, name, code):
    assert run("check", "-q", fixture(name)).exit_code == code


def test_check_table_and_summary(run):
    res = run("check", fixture("malformed_lines.txt"))
    out = res.stdout.splitlines()
    assert out[0].split() == ["line", "clues", "status"]
    assert out[1].split() == ["3", "30", "unique"]
    assert out[2].startswith("   4         malformed  (a 9x9 puzzle needs 81 symbols, got 80)")
    assert out[6].split()[:3] == ["9", "30", "none"] and "digit 5 twice" in out[6]
    # each malformed line is said once, in its place; the summary names them
    assert res.stderr.startswith("6 puzzles: 2 unique, 1 none, 0 multiple, 3 malformed "
                                 "(lines 4, 5, 6) in ")
    assert "81 symbols" not in res.stderr
    quiet = run("check", "-q", fixture("malformed_lines.txt"))   # no table: said on stderr
    assert quiet.stdout == "" and "line 4: a 9x9 puzzle needs 81 symbols, got 80" in quiet.stderr


def test_check_json_lists_every_puzzle(run):
    res = run("check", "--json", fixture("malformed_hints.txt"))
    doc = json.loads(res.stdout)
    assert [r["line"] for r in doc["results"]] == [2, 5, 8, 11, 14, 18, 20, 23, 24]
    assert doc["summary"]["malformed"] == 7 and doc["summary"]["unique"] == 0
    assert res.exit_code == EXIT_MALFORMED


# ----------------------------------------------------------------------
# generate

def test_generate_is_deterministic_and_unique(run):
    a = run("generate", "--clues", "25", "--count", "3", "--seed", "11")
    b = run("generate", "--clues", "25", "--count", "3", "--seed", "11")
    assert a.exit_code == 0 and a.stdout == b.stdout
    puzzles = a.stdout.split()
    assert len(puzzles) == 3 and all(sum(ch != "." for ch in p) == 25 for p in puzzles)
    check = run("check", "-q", "-", input=a.stdout)
    assert check.exit_code == EXIT_OK


def test_generate_json_symmetric_and_hints(run):
    res = run("generate", "--clues", "26", "--symmetric", "--seed", "3", "--json")
    doc = json.loads(res.stdout)
    p = doc["puzzles"][0]
    assert doc["seed"] == 3 and doc["failed"] == 0 and p["clues"] == 26
    assert [ch != "." for ch in p["puzzle"]] == [ch != "." for ch in p["puzzle"][::-1]]
    assert P.format_line(P.solve(p["puzzle"])) == p["solution"]
    hints = run("generate", "--clues", "26", "--symmetric", "--seed", "3",
                "--output-format", "hints")
    assert hints.stdout.splitlines()[0] == "26"
    assert P.format_line(P.parse_puzzles(hints.stdout).grids[0]) == p["puzzle"]


def test_generate_prints_a_random_seed_and_reports_failure(run):
    res = run("generate", "--minimal", "--shape", "2x2")
    assert res.exit_code == 0 and res.stderr.startswith("seed ")
    res = run("generate", "--clues", "17", "--seed", "1", "--max-seconds", "0.2")
    assert res.exit_code == 1 and res.stdout == ""
    assert "puzzle 1: no unique 17-clue puzzle found" in res.stderr
    assert run("generate").exit_code == 2
    assert run("generate", "--clues", "90").exit_code == 2


# ----------------------------------------------------------------------
# explain

def test_explain_one_puzzle(run):
    res = run("explain", WIKI)
    assert res.exit_code == 0
    out = res.stdout
    assert "5 3 . | . 7 . | . . ." in out
    assert f"solution (the only solution): {WIKI_SOLUTION}" in out
    assert "naked single" in out and "branches (guesses)" in out
    steps = [ln for ln in out.splitlines() if ln.startswith("r") and " = " in ln]
    assert len(steps) == 51


def test_explain_a_hard_puzzle_shows_branches(run):
    hard = fixture("top1465_20.txt").read_text().split()[0]
    doc = json.loads(run("explain", "--json", hard).stdout)
    e = P.explain(hard)
    assert doc["branches"] == e.branches and doc["rules"] == e.counts
    assert doc["max_depth"] == e.max_depth
    assert doc["solution"] == P.format_line(e.solution) and doc["solutions"] == "unique"
    assert len(doc["steps"]) == len(e.steps)


def test_explain_folds_each_failed_guess_into_one_line_and_ends_with_the_depths(run):
    hard = fixture("hardest_6.txt").read_text().split()[0]
    e = P.explain(hard)
    assert e.backtracks > 1 and e.max_depth > 1
    out = run("explain", hard).stdout.splitlines()
    guesses = [ln for ln in out if ln.lstrip().startswith("guess r")]
    refuted = [ln for ln in guesses if ": contradiction after " in ln]
    kept = [ln for ln in guesses if ln.endswith(": kept (never contradicted)")]
    # one line per guess; the guesses inside a refuted one are only counted
    top = [s for s in e.steps if s.rule == "branch"]
    assert len(guesses) < len(top) and len(kept) == e.branches - e.backtracks
    assert len(refuted) + len(kept) == len(guesses)
    nested = sum(int(ln.split(" nested guess")[0].rsplit(" ", 1)[1].replace(",", ""))
                 for ln in refuted if " nested guess" in ln)
    assert len(guesses) + nested == e.branches
    i = out.index(f"guesses by depth (deepest {e.max_depth:,}):")
    assert out[i + 1].split() == ["depth", "guesses", "refuted"]
    first = [ln for ln in guesses if ln.startswith("guess")]      # no guess in force
    assert out[i + 2].split() == ["1", f"{len(first):,}",
                                  f"{sum(': contradiction' in ln for ln in first):,}"]
    assert out[i + 1 + e.max_depth + 1].split() == ["total", f"{e.branches:,}",
                                                    f"{e.backtracks:,}"]
    assert len(out) < len(e.steps) / 4


def test_explain_verbose_prints_every_step_of_every_guess(run):
    hard = fixture("hardest_6.txt").read_text().split()[0]
    e = P.explain(hard)
    out = run("explain", "--verbose", hard).stdout.splitlines()
    for s in e.steps:
        assert "  " * s.depth + s.text in out
    assert sum(ln.lstrip().startswith("r") and "branch: a guess" in ln
               for ln in out) == e.branches


def test_explain_refuses_verbose_where_there_is_nothing_to_unfold(run):
    for other in ("--stats", "--json"):
        res = run("explain", "--verbose", other, WIKI)
        assert res.exit_code == 2 and other in res.stderr and "--verbose" in res.stderr
        assert res.stdout == ""


def test_explain_stats_for_a_file(run):
    res = run("explain", "--stats", fixture("top1465_20.txt"))
    assert res.exit_code == 0
    st = P.explain_stats(P.read_puzzles(fixture("top1465_20.txt")).grids)
    rows = dict(ln.rsplit(None, 1) for ln in res.stdout.splitlines())
    assert {k.strip(): v for k, v in rows.items()}["naked single"] == \
        f"{st.counts['naked single']:,}"
    doc = json.loads(run("explain", "--stats", "--json", fixture("top1465_20.txt")).stdout)
    assert doc == st.as_dict()


def test_explain_errors_and_non_unique(run):
    res = run("explain", "12345")
    assert res.exit_code == EXIT_MALFORMED and "needs 81 symbols" in res.stderr
    res = run("explain", fixture("sudopedia_none_7.txt").read_text().split()[0])
    assert res.exit_code == EXIT_NOT_UNIQUE and "no solution: " in res.stdout
    res = run("explain", TWO)
    assert "one of several solutions" in res.stdout
    res = run("explain", "-", input=f"{WIKI}\nbad\n")
    assert res.exit_code == EXIT_MALFORMED
    assert "# line 1" in res.stdout and "# line 2: malformed" in res.stdout


def test_explain_other_shape(run):
    g = P.generate(12, seed=2, shape="2x3")
    res = run("explain", "--shape", "2x3", P.format_line(g.puzzle))
    assert res.exit_code == 0 and P.format_line(g.solution) in res.stdout
    res = run("explain", P.format_line(P.generate(8, seed=2, shape="2x2").puzzle))
    assert res.exit_code == 0       # 16 symbols: 2x2 boxes inferred


def test_files_from_shared_data_if_present(run, shared_dir):
    src = shared_dir / "data" / "puzzles" / "top1465_magictour.txt"
    if not src.exists():
        pytest.skip("puzzle collections not found")
    head = "".join(src.read_text().splitlines(keepends=True)[:200])
    res = run("check", "-q", "-", input=head)
    assert res.exit_code == EXIT_OK and "200 puzzles: 200 unique" in res.stderr
    assert np.all(P.classify_batch(P.parse_puzzles(head).grids) == "unique")


# ----------------------------------------------------------------------
# bad input gives one error line, never a traceback

def error_line(res) -> str:
    """The one 'Error: ...' line of a refused command (and no traceback)."""
    assert "Traceback" not in res.output
    errors = [ln for ln in res.stderr.splitlines() if ln.startswith("Error: ")]
    assert len(errors) == 1, res.stderr
    return errors[0]


@pytest.mark.parametrize("clues", ["0", "5", "16"])
def test_generate_refuses_too_few_clues_at_once(run, clues):
    res = run("generate", "--clues", clues, "--seed", "1", "--max-seconds", "5")
    assert res.exit_code == 2 and res.stdout == ""
    assert "no 9x9 puzzle with fewer than 17 clues has a unique solution" in error_line(res)
    res = run("generate", "--clues", "4", "--shape", "2x3", "--max-seconds", "5")
    assert res.exit_code == 2 and "fewer than 5 clues" in error_line(res)


@pytest.mark.parametrize("seconds", ["inf", "nan", "0", "-1"])
def test_generate_refuses_time_limits_that_are_not_positive_and_finite(run, seconds):
    res = run("generate", "--clues", "25", "--seed", "1", "--max-seconds", seconds)
    assert res.exit_code == 2 and res.stdout == ""
    assert "--max-seconds" in error_line(res)


def test_generate_with_a_seed_gives_the_library_puzzle_of_that_seed(run):
    res = run("generate", "--clues", "25", "--seed", "1")
    assert res.stdout.split() == [P.format_line(P.generate(25, seed=1).puzzle)]
    res = run("generate", "--clues", "24", "--count", "3", "--seed", "5", "--shape", "2x3")
    assert res.stdout.split() == [P.format_line(g.puzzle)
                                  for g in P.generate_many(3, 24, seed=5, shape="2x3")]


def test_solve_first_reports_a_puzzle_without_solution(run):
    res = run("solve", "--first", "-", input=f"{UNSOLVABLE}\n{WIKI}\n{'11' + '.' * 79}\n")
    assert res.exit_code == EXIT_NOT_UNIQUE
    assert res.stdout.splitlines() == [
        "# line 1: no solution", WIKI_SOLUTION,
        "# line 3: no solution (row 1 has digit 1 twice: r1c1 and r1c2)"]
    assert "3 puzzles: 1 solved, 2 none, 0 malformed" in res.stderr
    doc = json.loads(run("solve", "--first", "--json", "-", input=UNSOLVABLE).stdout)
    assert doc["summary"] == {"solved": 0, "none": 1, "malformed": 0}


@pytest.mark.parametrize("cmd", ["solve", "check", "count-solutions", "explain", "generate"])
def test_shapes_past_35_digits_are_refused_by_every_command(run, cmd):
    args = ["--clues", "100"] if cmd == "generate" else ["-"]
    res = run(cmd, "--shape", "6x6", *args, input="." * 1296)
    assert res.exit_code == 2
    assert "box shape 6x6: 36x36 grids" in error_line(res) and "at most 35" in error_line(res)


@pytest.mark.parametrize("cmd", ["solve", "check", "count-solutions", "explain"])
def test_every_puzzle_command_takes_a_file_stdin_or_a_puzzle(run, cmd, tmp_path):
    path = tmp_path / "one.txt"
    path.write_text(WIKI + "\n")
    outs = [run(cmd, path), run(cmd, "-", input=WIKI + "\n"), run(cmd, WIKI)]
    assert [r.exit_code for r in outs] == [EXIT_OK] * 3
    assert outs[0].stdout == outs[1].stdout
    # a puzzle on the command line has no file lines to name, only in explain
    if cmd != "explain":
        assert outs[2].stdout == outs[0].stdout
    assert WIKI_SOLUTION in outs[2].stdout or cmd in ("check", "count-solutions")


@pytest.mark.parametrize("cmd", ["solve", "check", "count-solutions", "explain"])
def test_an_argument_that_is_neither_a_file_nor_a_puzzle_is_one_error(run, cmd, tmp_path):
    res = run(cmd, tmp_path / "missing.txt")
    assert res.exit_code == 2 and res.stdout == ""
    line = error_line(res)
    assert "missing.txt' is neither a file nor a puzzle" in line
    res = run(cmd, "12345")
    assert res.exit_code == 2 and "a 9x9 grid needs 81 symbols, got 5" in error_line(res)
    res = run(cmd, tmp_path)
    assert res.exit_code == 2 and "is a directory" in error_line(res)


# ``gridcount ARGS...`` that creates the file MARKER when its search begins
# (``python -c _MARKS_ITS_SEARCH MARKER ARGS...``)
_MARKS_ITS_SEARCH = """
import sys
from pathlib import Path
from grids import puzzles

real, marker = puzzles.count_batch, Path(sys.argv[1])
def count_batch(*args, **kwargs):
    marker.touch()
    return real(*args, **kwargs)
puzzles.count_batch = count_batch
from counting.cli import main
sys.argv = ["gridcount", *sys.argv[2:]]
main()
"""


def test_ctrl_c_in_a_puzzle_command_is_exit_130_without_aborted(tmp_path):
    # issue 26.17: Ctrl-C printed "Aborted!" and exited 1 (check's "not all unique");
    # interrupted once its search has begun (not while Python starts: a slow
    # machine could take longer to start than any fixed CPU time)
    import signal
    import subprocess
    import sys
    import time
    puzzle = "1" + "." * 80          # one clue: a search that runs for minutes
    searching = tmp_path / "searching"
    proc = subprocess.Popen([sys.executable, "-c", _MARKS_ITS_SEARCH, str(searching),
                             "count-solutions", puzzle, "--no-limit"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120                 # only against a hang
        while not searching.exists():
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the search never began"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, (out, err)
    assert "Aborted!" not in err and "Traceback" not in err


@pytest.mark.parametrize("command", ["check", "solve", "count-solutions"])
def test_a_file_with_no_puzzle_is_refused_not_reported_as_all_unique(run, tmp_path, command):
    # issue 26.13: an empty puzzle file gave "0 puzzles", exit 0 (check: success)
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    res = run(command, empty)
    assert res.exit_code == 2 and "holds no puzzle" in res.output
    res = run(command, "-", input="# a comment\n\n")
    assert res.exit_code == 2 and "standard input holds no puzzle" in res.output


# Issue 26.13: contradictory or idle options are refused (exit 2) before any work.

@pytest.mark.parametrize("args, says", [
    (["count-solutions", WIKI, "--no-limit", "--limit", "5"],
     "--no-limit and --limit contradict each other"),
    (["check", WIKI, "--quiet", "--json"], "--quiet and --json contradict each other"),
    (["generate", "--clues", "30", "--json", "--output-format", "hints"],
     "--json and --output-format contradict each other"),
    (["solve", WIKI, "--limit", "5"], "--limit does nothing without --all"),
    (["generate", "--minimal", "--clues", "81"], "a minimal 9x9 puzzle has at most 72 clues"),
])
def test_contradictory_or_impossible_requests_are_refused_at_once(run, args, says):
    res = run(*args)     # generate --minimal --clues 81 searched for 30 s, then failed
    assert res.exit_code == 2 and says in res.output, res.output
    assert res.stdout == ""                              # nothing done


def test_a_limit_equal_to_the_default_but_given_still_contradicts_no_limit(run):
    res = run("count-solutions", WIKI, "--no-limit", "--limit", "1000000")
    assert res.exit_code == 2 and "contradict" in res.output


def test_explain_json_writes_every_cell_as_data_from_0_and_text_for_people_from_1(run):
    # issue 26.20: one convention for people (r5c5, from 1) and one for data
    # (from 0): JSON [row, col, digit] for placements and eliminations alike,
    # the API's flat cell = row·N + col
    hard = fixture("top1465_20.txt").read_text().split()[0]
    doc = json.loads(run("explain", "--json", hard).stdout)
    e = P.explain(hard)
    n = e.shape.n
    assert len(doc["steps"]) == len(e.steps)
    eliminated = 0
    for st, api in zip(doc["steps"], e.steps):
        if api.placement is not None:
            cell, digit = api.placement
            assert st["placement"] == [*P.cell_rc(cell, n), digit]
            row, col = P.cell_rc(cell, n)
            assert st["text"] == api.text and f"r{row + 1}c{col + 1}" in api.text
        assert st["eliminations"] == [[*P.cell_rc(k, n), d] for k, d in api.eliminations]
        eliminated += len(st["eliminations"])
    assert eliminated > 0
