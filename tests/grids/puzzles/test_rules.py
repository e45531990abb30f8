"""grids.puzzles.rules: every deduction of the rule solver is true of the solution."""
import numpy as np
import pytest

from grids import puzzles as P

from puzzle_samples import lines, shared_sample, steps_under_true_guesses

#: The stronger techniques (grids.puzzles.techniques), after the basic rules.
TECHNIQUES = [r for r in P.RULES if r not in P.BASIC_RULES]
#: Techniques no puzzle of the samples needs outside a wrong guess (none of the
#: first 50 of the three hard collections): checked on hand-made positions only
#: (tests/grids/puzzles/techniques/).
RARE = {"Jellyfish"}


def true_deductions(puzzle, solution) -> dict[str, int]:
    """Explain ``puzzle``, check that every deduction made under guesses that
    agree with ``solution`` is true of it, and count them by rule."""
    truth = P.to_array(solution)
    e = P.explain(puzzle)
    assert np.array_equal(e.solution, truth)
    fired = dict.fromkeys(P.RULES, 0)
    for s in steps_under_true_guesses(e, truth):
        if s.placement:
            k, d = s.placement
            assert truth[k] == d, s.text
        for k, d in s.eliminations:
            assert truth[k] != d, s.text
        fired[s.rule] += 1
    return fired


@pytest.mark.parametrize("name", ["17clue_20", "top1465_20", "kaggle_5"])
def test_rules_never_place_or_remove_a_wrong_digit(name):
    totals = dict.fromkeys(P.RULES, 0)
    for p, sol in zip(lines(f"{name}.txt"), lines(f"{name}.solutions.txt")):
        assert np.array_equal(P.solve(p).ravel(), P.to_array(sol))      # the DLX solution
        for r, c in true_deductions(p, sol).items():
            totals[r] += c
    if name == "top1465_20":
        # every basic rule fired, so every basic rule was checked above
        assert all(totals[r] > 0 for r in P.BASIC_RULES), totals
    if name == "kaggle_5":
        assert totals["naked single"] > 0 and sum(totals.values()) == totals["naked single"]


def test_every_technique_removes_only_digits_the_solution_does_not_hold():
    totals = dict.fromkeys(P.RULES, 0)
    for p, sol in zip(lines("hardest_6.txt"), lines("hardest_6.solutions.txt")):
        for r, c in true_deductions(p, sol).items():
            totals[r] += c
    # each technique fired outside a wrong guess, so each was checked above
    assert all(totals[r] > 0 for r in TECHNIQUES if r not in RARE), totals


@pytest.mark.parametrize("name", ["forum_hardest_1106_375.txt", "top1465_magictour.txt",
                                  "forum_hardest_1905_11plus_5000.txt"])
def test_techniques_on_a_sample_of_the_shared_collections(shared_dir, name):
    for p, sol in shared_sample(shared_dir, name, 4):
        true_deductions(p, sol)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["forum_hardest_1106_375.txt",
                                  "forum_hardest_1905_11plus_5000.txt"])
def test_techniques_on_a_hundred_puzzles_of_the_shared_collections(shared_dir, name):
    totals = dict.fromkeys(P.RULES, 0)
    for p, sol in shared_sample(shared_dir, name, 100):
        for r, c in true_deductions(p, sol).items():
            totals[r] += c
    assert all(totals[r] > 0 for r in TECHNIQUES if r not in RARE), totals


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
        true_deductions(g.puzzle, g.solution)
