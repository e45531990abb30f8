"""grids.puzzles.rules: every deduction of the rule solver is true of the solution."""
import numpy as np
import pytest

from grids import puzzles as P

from puzzle_samples import lines


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


def test_branching_steps_are_marked_and_nested():
    hard = lines("top1465_20.txt")
    e = next(x for x in map(P.explain, hard) if x.backtracks)
    kinds = {s.rule for s in e.steps}
    assert {"branch", "contradiction"} <= kinds
    assert any(s.depth > 0 for s in e.steps)
    assert e.branches == sum(s.rule == "branch" for s in e.steps)
    assert e.backtracks == sum(s.rule == "contradiction" for s in e.steps)


def test_rules_on_generated_puzzles_agree_with_the_engine():
    for g in P.generate_many(12, 24, seed=77):
        e = P.explain(g.puzzle)
        assert np.array_equal(e.solution, g.solution)
        for s in e.steps:
            if s.depth == 0:
                if s.placement and s.rule != "branch":
                    assert g.solution[s.placement[0]] == s.placement[1], s.text
                assert all(g.solution[k] != d for k, d in s.eliminations), s.text
