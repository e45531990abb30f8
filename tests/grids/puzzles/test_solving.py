"""grids.puzzles.solving: solving, counting and classifying puzzles, one at a time and in batches."""
import numpy as np
import pytest

from grids import puzzles as P

from puzzle_samples import FIXTURES, TWO, UNSOLVABLE, WIKI, WIKI_SOLUTION, completes, is_valid_grid, lines


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
    assert all(is_valid_grid(g, "3x3") and completes(P.to_array(TWO), g) for g in sols)
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
    assert completes(puzzle, sol) and is_valid_grid(sol, "4x4")


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


def test_count_solutions_stops_at_the_same_default_limit_as_the_command_line(
        fails_instead_of_hanging):
    # issue 26.20: the API had no default limit, so the empty grid ran for hours
    assert P.DEFAULT_LIMIT == 1_000_000
    assert P.count_solutions("." * 81) == P.DEFAULT_LIMIT
    assert P.count_solutions("." * 16, limit=None) == 288     # exact only when asked


@pytest.mark.parametrize("kwargs, says", [
    ({"chunk_size": 0}, "chunk_size must be a whole number >= 1, got 0"),
    ({"chunk_size": 2.5}, "chunk_size must be a whole number >= 1, got 2.5"),
    ({"workers": 0}, "workers must be a whole number >= 1, got 0"),
    ({"workers": True}, "workers must be a whole number >= 1, got True"),
    ({"limit": 2.7}, r"limit must be a whole number in 1\.\.\d+, got 2\.7"),
])
def test_solve_batch_names_a_bad_argument_instead_of_leaking_an_internal_message(kwargs, says):
    # issue 26.13: chunk_size=0 gave "range() arg 3 must not be zero"
    with pytest.raises(ValueError, match=f"^{says}$"):
        P.solve_batch([WIKI] * 20, **{"workers": 2, **kwargs})


def test_count_batch_checks_its_workers_even_when_it_counts_one_puzzle_at_a_time():
    with pytest.raises(ValueError, match="^workers must be a whole number >= 1, got 0$"):
        P.count_batch([WIKI], limit=None, workers=0)


# ----------------------------------------------------------------------
# solutions of one byte a cell (issue 37: what `gridcount solve FILE` uses)

@pytest.mark.parametrize("shape, limit", [("2x2", 2), ("3x3", 1), ("3x3", 2), ("3x3", 5),
                                          ("4x4", 2), ("5x5", 2)])
def test_solve_batch_in_bytes_gives_the_int64_answers(shape, limit):
    rng = np.random.default_rng(37)
    grid = P.random_grid(rng, shape)
    batch = [grid, np.zeros_like(grid), grid.copy(), grid.copy()]
    batch[2][rng.random(grid.size) < 0.5] = 0              # unique or not
    batch[3][:2] = [1, 1]                                  # repeated digit
    if shape == "3x3":
        batch += [P.to_array(WIKI), P.to_array(TWO), P.to_array(UNSOLVABLE)]
    wide = P.solve_batch(np.array(batch), shape=shape, limit=limit)
    small = P.solve_batch(np.array(batch).astype(np.uint8), shape=shape, limit=limit,
                          dtype=np.uint8)
    assert small.solutions.dtype == np.uint8 and wide.solutions.dtype == np.int64
    assert small.counts.tolist() == wide.counts.tolist()
    assert np.array_equal(small.solutions, wide.solutions)


def test_a_byte_batch_is_solved_without_a_wide_copy():
    pf = P.read_puzzles(FIXTURES / "17clue_20.txt")
    assert np.shares_memory(P.as_batch(pf.grids, dtype=np.uint8), pf.grids)
    r = P.solve_batch(pf.grids, dtype=np.uint8, workers=2, chunk_size=7)
    assert r.solutions.dtype == np.uint8 and r.counts.tolist() == [1] * 20
    with pytest.raises(ValueError, match="dtype must be int64 or uint8"):
        P.solve_batch(pf.grids, dtype=np.int32)
