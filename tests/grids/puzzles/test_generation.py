"""grids.puzzles.generation: random grids and puzzles with exactly one solution."""
import numpy as np
import pytest

from grids import puzzles as P

from puzzle_samples import is_valid_grid


@pytest.mark.parametrize("clues, symmetric", [(25, False), (24, True), (30, False)])
def test_generated_puzzles_have_exactly_n_clues_and_one_solution(clues, symmetric):
    made = list(P.generate_many(4, clues, seed=2024, symmetric=symmetric))
    assert all(g.ok for g in made)
    for g in made:
        assert np.count_nonzero(g.puzzle) == clues == g.clues
        assert P.count_solutions(g.puzzle, limit=None) == 1
        assert np.array_equal(P.solve(g.puzzle).ravel(), g.solution)
        assert is_valid_grid(g.solution, "3x3")
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
    g = P.generate(17, seed=1, max_seconds=0.3)
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


@pytest.mark.parametrize("clues, shape, message", [
    (16, "3x3", "no 9x9 puzzle with fewer than 17 clues has a unique solution"),
    (5, "3x3", "fewer than 17 clues"),
    (0, "3x3", "fewer than 17 clues"),
    (4, "2x3", "no 6x6 puzzle with fewer than 5 clues"),
    (2, "2x2", "no 4x4 puzzle with fewer than 3 clues"),
    (-1, "3x3", r"clues must be in 0\.\.81, got -1"),
])
def test_generate_refuses_clue_counts_that_cannot_be_unique(clues, shape, message):
    with pytest.raises(ValueError, match=message):
        P.generate(clues, shape=shape, max_seconds=0.5)


def test_the_clue_bound_refuses_nothing_that_can_be_made():
    assert [P.min_clues(s) for s in ("3x3", "2x2", "2x3", "1x5", "4x4")] == [17, 3, 5, 4, 15]
    # Latin squares of orders 2 and 3 have unique puzzles with N - 1 clues
    for shape in ("1x2", "1x3"):
        g = P.generate(P.min_clues(shape), seed=0, shape=shape)
        assert g.ok and P.is_unique(g.puzzle, shape=shape)
    g = P.generate(17, seed=1, max_seconds=0.05)       # allowed; just hard to find
    assert g.attempts >= 1


@pytest.mark.parametrize("max_seconds", [0, -1.0, float("inf"), float("nan"), "soon"])
def test_generate_refuses_time_limits_that_are_not_positive_and_finite(max_seconds):
    with pytest.raises(ValueError, match="max_seconds must be a finite number of seconds > 0"):
        P.generate(25, seed=1, max_seconds=max_seconds)


def test_generate_is_the_first_puzzle_of_generate_many_for_the_same_seed():
    for seed in (1, 7, np.random.SeedSequence(3)):
        one = P.generate(25, seed=seed)
        many = next(P.generate_many(3, 25, seed=seed))
        assert np.array_equal(one.puzzle, many.puzzle)
    assert not np.array_equal(P.generate(25, seed=1).puzzle, P.generate(25, seed=2).puzzle)


@pytest.mark.parametrize("shape, clues", [("3x3", 81), ("3x3", 73), ("2x2", 13), ("1x5", 21)])
def test_minimal_puzzles_with_more_clues_than_can_be_minimal_are_refused_at_once(shape, clues):
    # issue 26.13: generate --minimal --clues 81 searched for 30 s; a minimal
    # puzzle has a blank in every row, so at most N² - N clues
    with pytest.raises(ValueError, match=r"a minimal .* puzzle has at most \d+ clues \(.*every "
                                         rf"row.*\); got {clues}$"):
        P.check_generate_args(clues, minimal=True, shape=shape)


def test_the_minimal_clue_bound_refuses_nothing_that_can_be_made():
    # Latin squares of order 2: one clue is a minimal puzzle, N² - N = 2 is the bound
    P.check_generate_args(2, minimal=True, shape="1x2")
    g = P.generate(1, minimal=True, seed=0, shape="1x2")
    assert g.ok and P.is_unique(g.puzzle, shape="1x2")
    P.check_generate_args(72, minimal=True, shape="3x3")
    P.check_generate_args(81, shape="3x3")               # not minimal: the full grid is fine


@pytest.mark.parametrize("call, says", [
    (lambda: P.generate(30, seed=-1), "seed must be a whole number >= 0, a SeedSequence or a "
                                      "Generator, got -1"),
    (lambda: list(P.generate_many(2, 30, seed=-1)), "seed must be a whole number >= 0"),
    (lambda: list(P.generate_many(-1, 30, seed=1)), "count must be a whole number >= 0, got -1"),
])
def test_generation_names_a_bad_seed_or_count(call, says):
    # issue 26.13 (the same kind as chunk_size=0): numpy's "expected non-negative
    # integer" leaked, and a negative count gave no puzzle and no error
    with pytest.raises(ValueError, match=f"^{says}"):
        call()
