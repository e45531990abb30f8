"""dlx.puzzles: solving, counting, uniqueness, file formats, generation, explanation."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dlx import puzzles as P
from dlx.sudoku import Sudoku

from puzzle_samples import FIXTURES, TWO, UNSOLVABLE, WIKI, WIKI_SOLUTION


def lines(name: str) -> list[str]:
    return (FIXTURES / name).read_text().split()


def is_valid_grid(grid: np.ndarray, s: Sudoku) -> bool:
    n = s.n
    g = np.asarray(grid).reshape(n, n)
    full = set(range(1, n + 1))
    boxes = [g[r:r + s.box_rows, c:c + s.box_cols].ravel()
             for r in range(0, n, s.box_rows) for c in range(0, n, s.box_cols)]
    return all(set(u.tolist()) == full for u in [*g, *g.T, *boxes])


def completes(puzzle: np.ndarray, grid: np.ndarray) -> bool:
    p = np.asarray(puzzle).ravel()
    g = np.asarray(grid).ravel()
    return bool(np.all((p == 0) | (p == g)))


# ----------------------------------------------------------------------
# solving known puzzles

def test_wikipedia_puzzle():
    assert P.format_line(P.solve(WIKI)) == WIKI_SOLUTION
    assert P.classify(WIKI) == "unique" and P.is_unique(WIKI)
    assert P.count_solutions(WIKI) == 1


@pytest.mark.parametrize("name", ["17clue_20", "top1465_20", "kaggle_5"])
def test_known_puzzles_have_their_known_solutions(name):
    puzzles, sols = lines(f"{name}.txt"), lines(f"{name}.solutions.txt")
    for p, sol in zip(puzzles, sols):
        assert P.format_line(P.solve(p)) == sol
    r = P.solve_batch(puzzles)
    assert r.counts.tolist() == [1] * len(puzzles)
    assert [P.format_line(g) for g in r.solutions] == sols


def test_a_17_clue_puzzle():
    p = lines("17clue_20.txt")[0]
    assert np.count_nonzero(P.to_array(p)) == 17
    assert P.count_solutions(p, limit=None) == 1
    assert P.format_line(P.solve(p)) == lines("17clue_20.solutions.txt")[0]


def test_array_inputs_in_every_form():
    a = P.to_array(WIKI)
    assert P.format_line(P.solve(a)) == WIKI_SOLUTION
    assert P.format_line(P.solve(a.reshape(9, 9))) == WIKI_SOLUTION
    assert P.format_line(P.solve(a.astype(np.int8))) == WIKI_SOLUTION
    batch = np.stack([a, a])
    for form in (batch, batch.reshape(2, 9, 9), [WIKI, a]):
        r = P.solve_batch(form)
        assert r.counts.tolist() == [1, 1]
        assert P.format_line(r.solutions[1]) == WIKI_SOLUTION


def test_a_puzzle_with_no_solution():
    assert P.classify(UNSOLVABLE) == "none"
    assert P.count_solutions(UNSOLVABLE) == 0 and P.count_solutions(UNSOLVABLE, 5) == 0
    with pytest.raises(P.NoSolutionError):
        P.solve(UNSOLVABLE)
    assert P.solutions(UNSOLVABLE) == []


def test_sudopedia_no_solution_cases():
    cases = lines("sudopedia_none_7.txt") + lines("derived_none_5.txt")
    assert P.classify_batch(cases).tolist() == ["none"] * len(cases)
    counts = P.solve_batch(cases).counts.tolist()
    assert counts[:3] == [-1, -1, -1]          # repeated givens, found by the engine
    assert counts[3:] == [0] * (len(cases) - 3)
    for p, where in zip(cases[:3], ["box", "column", "row"]):
        with pytest.raises(P.NoSolutionError, match=f"{where} .* has digit .* twice"):
            P.solve(p)


def test_a_puzzle_with_exactly_two_solutions():
    assert P.count_solutions(TWO) == 2
    assert P.count_solutions(TWO, limit=2) == 2
    assert P.classify(TWO) == "multiple" and not P.is_unique(TWO)
    sols = P.solutions(TWO)
    assert len(sols) == 2 and not np.array_equal(sols[0], sols[1])
    s = Sudoku(3, 3)
    assert all(is_valid_grid(g, s) and completes(P.to_array(TWO), g) for g in sols)
    with pytest.raises(P.MultipleSolutionsError):
        P.solve(TWO)


def test_sudopedia_multiple_solution_counts():
    cases = lines("sudopedia_multiple_8.txt")
    assert [P.count_solutions(p) for p in cases[3:]] == [2, 3, 4, 10, 125]
    assert P.count_batch(cases, limit=1000).tolist() == [1000, 1000, 1000, 2, 3, 4, 10, 125]
    assert P.count_solutions(cases[2], limit=10**5) == 10**5
    assert [len(P.solutions(p, limit=None)) for p in cases[3:]] == [2, 3, 4, 10, 125]


def test_exact_counts_of_small_shapes():
    assert P.count_solutions("." * 16, shape="2x2") == 288
    assert P.count_solutions("." * 16) == 288           # 16 cells: 2x2 boxes
    assert P.count_solutions("123456" + "." * 30, shape="2x3") == 39_168
    assert P.count_solutions("123456" + "." * 30, limit=100, shape="2x3") == 100
    # beyond the batch engine's 32-bit limit the limited count still works
    assert P.count_solutions("." * 16, limit=2**40) == 288


def test_batch_with_threads_equals_one_thread():
    puzzles = lines("17clue_20.txt") + lines("top1465_20.txt") + lines("sudopedia_none_7.txt")
    one = P.solve_batch(puzzles, limit=2)
    many = P.solve_batch(puzzles, limit=2, workers=2, chunk_size=7)
    assert np.array_equal(one.counts, many.counts)
    assert np.array_equal(one.solutions, many.solutions)
    assert one.solutions.shape == (len(puzzles), 9, 9)
    with pytest.raises(ValueError, match="limit=1"):
        _ = P.solve_batch(puzzles[:2], limit=1).status


def test_batch_rejects_bad_input():
    with pytest.raises(P.PuzzleError, match="grid 1: .*needs 81 symbols"):
        P.solve_batch([WIKI, WIKI[:-1]])
    with pytest.raises(P.PuzzleError, match="out of range"):
        P.solve_batch(np.full((2, 81), 10))
    with pytest.raises(ValueError, match="limit"):
        P.solve_batch([WIKI], limit=0)
    with pytest.raises(P.PuzzleError, match="shape"):
        P.to_array("1" * 36)            # 6x6 needs an explicit shape


@pytest.mark.parametrize("shape", ["2x2", "2x3", "3x2", "1x4"])
def test_other_shapes(shape):
    s = P.get_sudoku(shape)
    grid = P.random_grid(np.random.default_rng(5), shape)
    assert is_valid_grid(grid, s) if not s.latin else sorted(set(grid.tolist())) == list(
        range(1, s.n + 1))
    puzzle = grid.copy()
    puzzle[::3] = 0
    assert completes(puzzle, P.solutions(puzzle, shape=shape)[0])
    assert P.count_solutions(puzzle, shape=shape) >= 1


def test_16x16_uses_letters():
    grid = P.random_grid(np.random.default_rng(3), "4x4")
    text = P.format_line(grid)
    assert set(text) <= set("123456789ABCDEFG") and len(text) == 256
    puzzle = grid.copy()
    puzzle[np.random.default_rng(4).permutation(256)[:60]] = 0
    sol = P.solve_batch([P.format_line(puzzle).lower()], shape="4x4").solutions[0]
    assert completes(puzzle, sol) and is_valid_grid(sol, Sudoku(4, 4))


# ----------------------------------------------------------------------
# uniqueness agrees with full counting

def random_puzzles(shape: str, k: int, seed: int) -> list[np.ndarray]:
    """Random cells of random grids (mostly solvable), and random digits in
    random cells (often unsolvable or conflicting)."""
    s = P.get_sudoku(shape)
    rng = np.random.default_rng(seed)
    nn = s.n * s.n
    out = []
    for i in range(k):
        if i % 3 < 2:
            grid = P.random_grid(rng, s)
            # enough clues that full counting stays cheap (a few thousand at most)
            keep = rng.integers(nn // 3 if s.n == 9 else nn // 4, nn // 2 + 1)
            grid[rng.permutation(nn)[keep:]] = 0
        else:
            grid = np.zeros(nn, dtype=np.int64)
            cells = rng.permutation(nn)[:rng.integers(nn // 4, nn // 2)]
            grid[cells] = rng.integers(1, s.n + 1, cells.size)
        out.append(grid)
    return out


@pytest.mark.parametrize("shape, k", [("2x3", 300), ("3x3", 150)])
def test_uniqueness_agrees_with_full_counting(shape, k):
    puzzles = random_puzzles(shape, k, seed=11)
    s = P.get_sudoku(shape)
    ec = s.exact_cover()
    full = []
    for g in puzzles:
        try:
            full.append(ec.count(given=s.givens(g.reshape(s.n, s.n))))
        except ValueError:          # givens repeat a digit: no solution
            full.append(0)
    expected = [P.STATUSES[min(c, 2)] for c in full]
    assert P.classify_batch(np.stack(puzzles), shape=shape).tolist() == expected
    assert [P.classify(g, shape=shape) for g in puzzles[:40]] == expected[:40]
    assert [P.is_unique(g, shape=shape) for g in puzzles[:40]] == [c == 1 for c in full[:40]]
    assert P.count_batch(np.stack(puzzles), shape=shape, limit=10).tolist() == \
        [min(c, 10) for c in full]
    assert {"none", "unique", "multiple"} <= set(expected)


# ----------------------------------------------------------------------
# file formats

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


# ----------------------------------------------------------------------
# generating

@pytest.mark.parametrize("clues, symmetric", [(25, False), (24, True), (30, False)])
def test_generated_puzzles_have_exactly_n_clues_and_one_solution(clues, symmetric):
    made = list(P.generate_many(4, clues, seed=2024, symmetric=symmetric))
    assert all(g.ok for g in made)
    for g in made:
        assert np.count_nonzero(g.puzzle) == clues == g.clues
        assert P.count_solutions(g.puzzle, limit=None) == 1
        assert np.array_equal(P.solve(g.puzzle).ravel(), g.solution)
        assert is_valid_grid(g.solution, Sudoku(3, 3))
        if symmetric:
            assert np.array_equal(g.puzzle != 0, (g.puzzle != 0)[::-1])
    assert len({P.format_line(g.puzzle) for g in made}) == 4


def test_generation_is_deterministic_for_a_seed():
    a = [P.format_line(g.puzzle) for g in P.generate_many(3, 26, seed=5)]
    b = [P.format_line(g.puzzle) for g in P.generate_many(3, 26, seed=5)]
    c = [P.format_line(g.puzzle) for g in P.generate_many(3, 26, seed=6)]
    assert a == b and a != c
    once, again = P.generate(26, seed=9), P.generate(26, seed=9)
    assert np.array_equal(once.puzzle, again.puzzle)
    g1 = P.random_grid(np.random.default_rng(1))
    assert np.array_equal(g1, P.random_grid(np.random.default_rng(1)))
    assert not np.array_equal(g1, P.random_grid(np.random.default_rng(2)))


def test_minimal_puzzles_have_no_removable_clue():
    g = P.generate(None, minimal=True, seed=3)
    assert g.ok and P.is_unique(g.puzzle)
    for k in np.flatnonzero(g.puzzle):
        less = g.puzzle.copy()
        less[k] = 0
        assert P.classify(less) == "multiple"


def test_generation_reports_failure_within_the_time_limit():
    g = P.generate(12, seed=1, max_seconds=0.3)
    assert not g.ok and g.puzzle is None and g.attempts >= 1 and g.seconds < 5


def test_generate_other_shapes():
    g = P.generate(12, seed=4, shape="2x3")
    assert g.ok and np.count_nonzero(g.puzzle) == 12
    assert P.is_unique(g.puzzle, shape="2x3")


def test_generate_rejects_bad_arguments():
    with pytest.raises(ValueError, match="clues"):
        P.generate(None)
    with pytest.raises(ValueError, match="clues"):
        P.generate(82)


# ----------------------------------------------------------------------
# explaining

def test_explain_names_the_rules_and_finds_the_solution():
    e = P.explain(WIKI)
    assert P.format_line(e.solution) == WIKI_SOLUTION
    assert e.branches == 0 and e.backtracks == 0 and e.max_depth == 0
    assert set(e.counts) == set(P.RULES)
    placed = [s for s in e.steps if s.placement]
    assert len(placed) == 81 - 30 == sum(e.counts[r] for r in P.RULES[:4])
    assert placed[0].text.startswith("r") and "single" in placed[0].text
    assert "naked single" in e.table() and "branches (guesses)" in e.table()


@pytest.mark.parametrize("name", ["17clue_20", "top1465_20", "kaggle_5"])
def test_rules_never_place_or_remove_a_wrong_digit(name):
    totals = dict.fromkeys(P.RULES, 0)
    for p, sol in zip(lines(f"{name}.txt"), lines(f"{name}.solutions.txt")):
        truth = P.to_array(sol)
        assert np.array_equal(P.solve(p).ravel(), truth)      # the DLX solution
        e = P.explain(p)
        assert np.array_equal(e.solution, truth)
        for s in e.steps:
            if s.depth:
                continue        # inside a guess anything may happen
            if s.placement and s.rule != "branch":
                k, d = s.placement
                assert truth[k] == d, s.text
            for k, d in s.eliminations:
                assert truth[k] != d, s.text
        for r in P.RULES:
            totals[r] += e.counts[r]
    if name == "top1465_20":
        # every rule fired, so every rule was checked above
        assert all(totals[r] > 0 for r in P.RULES), totals
    if name == "kaggle_5":
        assert totals["naked single"] > 0 and sum(totals.values()) == totals["naked single"]


def test_rule_counts_are_deterministic():
    puzzles = lines("top1465_20.txt")[:8]
    a = [P.explain(p) for p in puzzles]
    b = [P.explain(p) for p in puzzles]
    assert [(x.counts, x.branches, x.backtracks) for x in a] == \
        [(x.counts, x.branches, x.backtracks) for x in b]
    assert [[s.text for s in x.steps] for x in a] == [[s.text for s in x.steps] for x in b]
    st1 = P.explain_stats(puzzles)
    st2 = P.explain_stats(puzzles, workers=2)
    assert st1.as_dict() == st2.as_dict()
    assert st1.puzzles == 8 == st1.solved
    assert st1.branches == sum(x.branches for x in a)
    assert P.explain(puzzles[0], steps=False).steps == []


def test_branching_steps_are_marked_and_nested():
    hard = lines("top1465_20.txt")
    e = next(x for x in map(P.explain, hard) if x.backtracks)
    kinds = {s.rule for s in e.steps}
    assert {"branch", "contradiction"} <= kinds
    assert any(s.depth > 0 for s in e.steps)
    assert e.branches == sum(s.rule == "branch" for s in e.steps)
    assert e.backtracks == sum(s.rule == "contradiction" for s in e.steps)


def test_explain_a_puzzle_without_solution_and_one_with_several():
    for p in lines("sudopedia_none_7.txt"):
        e = P.explain(p)
        assert e.solution is None and e.reason
    assert "both hold" in P.explain(lines("sudopedia_none_7.txt")[0]).reason
    e = P.explain(TWO)
    assert e.solved and completes(P.to_array(TWO), e.solution)
    assert is_valid_grid(e.solution, Sudoku(3, 3))


@pytest.mark.parametrize("shape", ["2x2", "2x3", "1x5"])
def test_explain_other_shapes(shape):
    s = P.get_sudoku(shape)
    grid = P.random_grid(np.random.default_rng(7), s)
    puzzle = grid.copy()
    puzzle[np.random.default_rng(8).permutation(grid.size)[:grid.size // 2]] = 0
    e = P.explain(puzzle, shape=shape)
    assert e.solved and completes(puzzle, e.solution)
    if P.is_unique(puzzle, shape=shape):
        assert np.array_equal(e.solution, grid)


def test_rules_on_generated_puzzles_agree_with_the_engine():
    for g in P.generate_many(12, 24, seed=77):
        e = P.explain(g.puzzle)
        assert np.array_equal(e.solution, g.solution)
        for s in e.steps:
            if s.depth == 0:
                if s.placement and s.rule != "branch":
                    assert g.solution[s.placement[0]] == s.placement[1], s.text
                assert all(g.solution[k] != d for k, d in s.eliminations), s.text


# ----------------------------------------------------------------------
# the shared collections (slow: every puzzle)

@pytest.mark.slow
def test_every_shared_collection(shared_dir):
    data = shared_dir / "data" / "puzzles"
    if not data.is_dir():
        pytest.skip("puzzle collections not found")
    for path in sorted(data.glob("*.txt")):
        pf = P.read_puzzles(path)
        assert not pf.errors
        r = P.solve_batch(pf.grids, limit=2)
        assert np.all(r.counts == 1), path.name
        want = (data / "solutions" / path.name).read_text().split()
        assert [P.format_line(g) for g in r.solutions] == want, path.name
    for path in sorted((data / "nonunique").glob("*.txt")):
        status = P.classify_batch(P.read_puzzles(path).grids)
        expected = "none" if path.name.startswith("nosolution") else "multiple"
        assert np.all(status == expected), path.name
