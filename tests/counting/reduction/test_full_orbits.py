"""Specification of counting/reduction/full_orbits.py: Burnside's sum under a
kind's full group behind the Reduction interface (``--group full``)."""
import math

import pytest

pytest.importorskip("pynauty")

from counting.reduction import get_reduction  # noqa: E402
from counting.reduction.full_orbits import FullSymmetryReduction  # noqa: E402
from counting.reduction.registry import group_of, symmetry_reduction  # noqa: E402
from engine_searches import assert_each_unit_reports_its_searches  # noqa: E402


def test_the_group_names_choose_the_reductions_and_stored_names_say_their_group():
    assert symmetry_reduction(None) == symmetry_reduction("grid") == "symmetry"
    assert symmetry_reduction("full") == "symmetry-full"
    assert [group_of(r) for r in ("symmetry", "symmetry-full", "prefix-rows=2")] == \
        ["grid", "full", None]
    with pytest.raises(ValueError, match="unknown group 'whole'"):
        symmetry_reduction("whole")


def test_the_total_is_the_weighted_sum_over_the_order_of_the_cell_group():
    red = get_reduction("2x3+disjoint", "symmetry-full")
    assert isinstance(red, FullSymmetryReduction) and red.counts_orbits
    assert red.divisors[0][1] == 576 and red.factors == ()
    counts = {u.unit_id: red.count_directly(u).count for u in red.units()}
    assert red.total(counts) == 65
    table = red.burnside_table(counts)
    assert sum(row.weighted for row in table) == 65 * 576
    unit = next(u for u in red.units() if 576 % u.size == 0 and u.size < 576)
    wrong = {**counts, unit.unit_id: counts[unit.unit_id] + 1}
    with pytest.raises(ValueError, match="not a multiple of 576"):
        red.total(wrong)


def test_the_identity_is_the_grid_count_over_n_factorial():
    red = get_reduction("3x3", "symmetry-full")
    result = red.identity_result(math.factorial(9) * 11, "grid count somewhere")
    assert (result.unit_id, result.count, result.worker) == (0, 11, "grid count somewhere")
    with pytest.raises(ValueError, match="not a multiple of 9!"):
        red.identity_result(math.factorial(9) * 11 + 1, "x")
    assert red.not_recountable(red.units()[0]).startswith("the identity's count")


def test_units_with_no_count_are_counted_with_separators(monkeypatch):
    import dataclasses
    red = get_reduction("2x3+disjoint", "symmetry-full")
    # the registry's reduction is shared by every later test of the run: changed only here
    monkeypatch.setattr(red, "terms", dataclasses.replace(red.terms, units=red.terms.units * 100))
    n = len(red.terms.units)
    assert n >= 1_000
    with pytest.raises(ValueError, match=f"^{n:,} units of 2x3[+]disjoint have no count yet"):
        red.burnside_table({})


@pytest.mark.parametrize("kind", ["2x2", "2x2+disjoint", "2x3"])
def test_a_unit_reports_the_work_of_its_searches_not_zero_dead_ends(kind, monkeypatch):
    """Status, report and the CSV said 0 dead ends and 0 memo hits for
    every unit: a unit's nodes, dead ends and memo hits are the sums of the
    engine's own over every search it ran (the prefix probes included)."""
    assert_each_unit_reports_its_searches(get_reduction(kind, "symmetry-full"), monkeypatch)
