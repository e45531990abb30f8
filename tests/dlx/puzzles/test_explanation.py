"""dlx.puzzles.explanation: explain one puzzle, rule statistics over many."""
import numpy as np
import pytest

from dlx import puzzles as P

from puzzle_samples import TWO, WIKI, WIKI_SOLUTION, completes, is_valid_grid, lines


def test_explain_names_the_rules_and_finds_the_solution():
    e = P.explain(WIKI)
    assert P.format_line(e.solution) == WIKI_SOLUTION
    assert e.branches == 0 and e.backtracks == 0 and e.max_depth == 0
    assert set(e.counts) == set(P.RULES)
    placed = [s for s in e.steps if s.placement]
    assert len(placed) == 81 - 30 == sum(e.counts[r] for r in P.RULES[:4])
    assert placed[0].text.startswith("r") and "single" in placed[0].text
    assert "naked single" in e.table() and "branches (guesses)" in e.table()


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


def test_explain_a_puzzle_without_solution_and_one_with_several():
    for p in lines("sudopedia_none_7.txt"):
        e = P.explain(p)
        assert e.solution is None and e.reason
    assert "both hold" in P.explain(lines("sudopedia_none_7.txt")[0]).reason
    e = P.explain(TWO)
    assert e.solved and completes(P.to_array(TWO), e.solution)
    assert is_valid_grid(e.solution, "3x3")


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
