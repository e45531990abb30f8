"""Specification of counting/reduction/latin_orbits.py: the Latin-square
groups' Burnside sums behind the Reduction interface (``--group main-class``,
``--group isomorphism``), against the brute force of tests/latin_samples.py."""
import math
import re

import pytest

from counting.reduction import get_reduction
from counting.reduction.latin_orbits import (IsomorphismReduction, LatinGroupRefused,
                                             MainClassReduction, refusal)
from counting.reduction.registry import GROUPS, group_of, symmetry_reduction
from engine_searches import record_searches, tally_work, work
from latin_samples import union_find_classes

GROUP_OF_ORACLE = {"main-class": "main", "isomorphism": "isomorphism"}


def test_the_group_names_choose_the_reductions_and_stored_names_say_their_group():
    assert symmetry_reduction("isotopy") == symmetry_reduction("grid") == "symmetry"
    assert symmetry_reduction("main-class") == "symmetry-main-class"
    assert symmetry_reduction("isomorphism") == "symmetry-isomorphism"
    assert group_of("symmetry-main-class") == "main-class"
    assert group_of("symmetry-isomorphism") == "isomorphism"
    assert group_of("symmetry") == "grid"          # isotopy is its other name
    assert isinstance(get_reduction("1x4", "symmetry-main-class"), MainClassReduction)
    assert isinstance(get_reduction("4x1", "symmetry-isomorphism"), IsomorphismReduction)
    assert len(set(GROUPS.values())) == len(GROUPS) - 1


@pytest.mark.parametrize("group", ["main-class", "isomorphism"])
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_the_total_is_the_number_of_union_find_orbits(n, group):
    red = get_reduction(f"1x{n}", symmetry_reduction(group))
    counts = {u.unit_id: red.count_directly(u).count for u in red.units()}
    assert red.total(counts) == union_find_classes(n, GROUP_OF_ORACLE[group])


def test_one_unit_per_conjugacy_class_the_identity_first_and_sizes_summing_to_the_order():
    for red in (MainClassReduction("1x5"), IsomorphismReduction("1x5")):
        units = red.units()
        assert [u.unit_id for u in units] == [u.class_id for u in units] == \
            list(range(len(units)))
        assert units[0].is_identity and not any(u.is_identity for u in units[1:])
        assert sum(u.size for u in units) == red.group_order == red.divisors[0][1]
        assert units[0].weight == math.factorial(5) and \
            all(u.weight == u.size for u in units[1:])
    assert MainClassReduction("1x5").group_order == 6 * math.factorial(5) ** 3


def test_the_identity_is_the_grid_count_over_n_factorial_and_fixes_every_square():
    red = MainClassReduction("1x7")
    grid = 61_479_419_904_000
    result = red.identity_result(grid, "grid count somewhere")
    assert (result.unit_id, result.count, result.worker) == \
        (0, grid // math.factorial(7), "grid count somewhere")
    with pytest.raises(ValueError, match="not a multiple of 7!"):
        red.identity_result(grid + 1, "x")
    assert red.not_recountable(red.units()[0]).startswith("the identity's count")
    counts = {u.unit_id: 0 for u in red.units()}
    counts[0] = result.count
    assert red.burnside_table(counts)[0].fixed == grid      # Fix(id): every square


def test_a_wrong_count_breaks_the_divisibility():
    red = MainClassReduction("1x4")
    counts = {u.unit_id: red.count_directly(u).count for u in red.units()}
    unit = next(u for u in red.units() if red.group_order % u.size == 0 and u.size > 1)
    with pytest.raises(ValueError, match="not a multiple of 82,944"):
        red.total({**counts, unit.unit_id: counts[unit.unit_id] + 1})


@pytest.mark.parametrize("red", [MainClassReduction("1x5"), IsomorphismReduction("1x5")],
                         ids=repr)
def test_recount_counts_a_conjugate_by_the_quotient_and_agrees(red):
    for u in red.units()[1:]:
        assert red.count_independently(u) == red.count_directly(u).count, u.latin_class.label()


@pytest.mark.parametrize("kind, words", [
    ("3x3", "not 3x3 (9×9 Sudoku grids)"),
    ("1x5+x", "not 1x5+x (5×5 Latin square grids with extra rules)"),
    ("1x10", "orders up to 9: not order 10"),
])
def test_kinds_that_are_no_latin_squares_and_large_orders_are_refused(kind, words):
    assert words in refusal(kind, "main-class")
    with pytest.raises(LatinGroupRefused, match=re.escape(words.split(" (")[0])):
        MainClassReduction(kind)
    assert refusal("1x10", "isotopy") is None and refusal("5x1", "isomorphism") is None


@pytest.mark.parametrize("n", [10, 11])
def test_main_classes_of_a_large_order_are_refused_naming_where_each_term_is_estimated(n):
    why = refusal(f"1x{n}", "main-class")
    assert f"scripts/estimate_latin_terms.py {n}" in why
    assert "results/latin-classes.md" in why and "\n" not in why


def test_each_class_weighs_what_its_unit_weighs_so_an_export_sums_to_the_total():
    red = MainClassReduction("1x4")
    counts = {u.unit_id: red.count_directly(u).count for u in red.units()}
    weights = {c.class_id: c.weight for c in red.classes()}
    assert weights[0] == math.factorial(4) and red.units()[0].size == 1
    assert sum(weights[u.class_id] * counts[u.unit_id] for u in red.units()) == \
        red.total(counts) * red.group_order


def test_units_with_no_count_are_counted_with_separators():
    red = MainClassReduction("1x5")
    real = red.latin_classes
    red.latin_classes = lambda: real() * 300          # each class 300 times: its units too
    n = len(red.units())
    assert n >= 1_000
    with pytest.raises(ValueError, match=f"^{n:,} units of 1x5 have no count yet"):
        red.burnside_table({})


@pytest.mark.parametrize("red", [MainClassReduction("1x5"), IsomorphismReduction("1x5")],
                         ids=repr)
def test_a_unit_reports_the_work_of_its_searches_not_zero(red, monkeypatch):
    """Status, report and the CSV showed "0 nodes" for units that searched,
    and left out the searches choosing a prefix and listing its fillings
    (unit 81 of main classes: count 0, 0 nodes, its probe's aside): a unit's
    nodes, dead ends and memo hits are the sums of the engine's own figures
    over every search it runs."""
    runs = record_searches(monkeypatch)
    for unit in red.units():
        runs.clear()
        tally = red.count_directly(unit)
        assert tally_work(tally) == work(runs), unit.latin_class.label()
        if runs:                       # a unit that searched did some work
            assert tally.nodes > 0, unit.latin_class.label()
