"""Specification of counting/reduction/loop_orbits.py: loops up to isomorphism
(``--group loops``) behind the Reduction interface, against OEIS A057771 and
the brute force of tests/counting/group/test_loop_classes.py."""
import math

import pytest

from counting import published
from counting.reduction import get_reduction
from counting.reduction.latin_orbits import LatinGroupRefused, refusal
from counting.reduction.loop_orbits import LoopReduction
from counting.reduction.registry import GROUPS, LATIN_ONLY_GROUPS, group_of, symmetry_reduction

A057771 = {1: 1, 2: 1, 3: 1, 4: 2, 5: 6, 6: 109}
A000315 = {1: 1, 2: 1, 3: 1, 4: 4, 5: 56, 6: 9408, 7: 16_942_080, 8: 535_281_401_856}


def test_the_group_name_chooses_the_reduction_and_its_stored_name_says_its_group():
    assert symmetry_reduction("loops") == "symmetry-loops" == GROUPS["loops"]
    assert group_of("symmetry-loops") == "loops"
    assert "loops" in LATIN_ONLY_GROUPS
    assert isinstance(get_reduction("1x4", "symmetry-loops"), LoopReduction)
    assert isinstance(get_reduction("4x1", "symmetry-loops"), LoopReduction)


@pytest.mark.parametrize("n", range(1, 7))
def test_the_total_is_oeis_a057771(n):
    red = LoopReduction(f"1x{n}")
    counts = {u.unit_id: red.count_directly(u).count for u in red.units()}
    assert red.total(counts) == A057771[n]


def test_one_unit_per_class_with_a_fixed_point_weighted_by_its_fixed_points():
    """Σ weight · count = Σ_σ Fix(σ): the weights (class size × fixed
    points) sum to n!, S_n having one orbit on the points."""
    red = LoopReduction("1x5")
    units = red.units()
    assert [u.unit_id for u in units] == [u.class_id for u in units] == list(range(5))
    assert [u.types[0] for u in units] == [(1,) * 5, (2, 1, 1, 1), (2, 2, 1), (3, 1, 1), (4, 1)]
    assert [u.weight for u in units] == [5, 10 * 3, 15 * 1, 20 * 2, 30 * 1]
    assert sum(u.weight for u in units) == math.factorial(5) == red.divisors[0][1]


@pytest.mark.parametrize("n", [4, 5, 6])
def test_the_identity_unit_is_counted_the_reduced_latin_squares_and_recountable(n):
    red = LoopReduction(f"1x{n}")
    ident = red.units()[0]
    assert ident.is_identity and ident.weight == n
    assert red.count_directly(ident).count == A000315[n]
    assert red.not_recountable(ident) is None
    assert red.count_independently(ident) == A000315[n]
    assert not red.identity_from_grid                     # a job searches it


@pytest.mark.parametrize("n", range(1, 9))
def test_the_identity_taken_from_a_grid_count_is_the_reduced_squares_l_over_n_fact_n_1_fact(n):
    """R_N · N! · (N-1)! = L_N (OEIS A000315, A002860), at every order."""
    grids = published.lookup(f"1x{n}").total
    red = LoopReduction(f"1x{n}")
    result = red.identity_result(grids, "grid count g.sqlite rows 0123456789abcdef")
    assert result.unit_id == 0 and result.count == A000315[n]
    assert result.count * math.factorial(n) * math.factorial(n - 1) == grids
    assert result.worker == "grid count g.sqlite rows 0123456789abcdef"


@pytest.mark.parametrize("bad", [161_280 + math.factorial(5), 161_280 + 1_440, 7, 0, -161_280])
def test_a_grid_total_the_relation_does_not_divide_is_refused_in_one_line(bad):
    """161,280 = 5!·4!·56 Latin squares of order 5; adding 5! keeps a
    multiple of 5! (what the other groups divide by), not of 5!·4!."""
    with pytest.raises(ValueError, match=r"^grid total of 1x5 must be a positive multiple "
                                         r"of 5!·4!, got ") as info:
        LoopReduction("1x5").identity_result(bad, "a grid store")
    assert "\n" not in str(info.value)


def test_order_8_takes_its_identity_from_the_grid_store_and_recounts_the_others():
    red = LoopReduction("1x8")
    ident, *others = red.units()
    assert red.identity_from_grid and len(others) == 14
    assert red.not_recountable(ident) == ("the identity's count is the 1x8 grid count / "
                                          "(8!·7!): recount the grid count's store")
    assert red.count_independently(ident) is None
    with pytest.raises(ValueError, match="recount the grid count's store"):
        red.count_directly(ident)                   # never hours of search
    assert all(red.not_recountable(u) is None for u in others)
    assert all(not u.is_identity for stratum in red.strata() for u in stratum)
    grids = published.lookup("1x8").total
    counts = {0: red.identity_result(grids, "g").count}
    for u in others:
        counts[u.unit_id] = red.count_directly(u).count
        assert red.count_independently(u) == counts[u.unit_id], u.types
    assert red.total(counts) == 106_228_849                 # OEIS A057771


@pytest.mark.parametrize("n", [5, 6])
def test_the_recount_agrees_with_the_count_for_every_unit(n):
    red = LoopReduction(f"1x{n}")
    for u in red.units():
        assert red.count_independently(u) == red.count_directly(u).count, u.types


def test_the_burnside_table_gives_each_class_its_fix():
    red = LoopReduction("1x5")
    counts = {u.unit_id: red.count_directly(u).count for u in red.units()}
    rows = red.burnside_table(counts)
    assert [r.fixed for r in rows] == [5 * 56, 3 * 0, 1 * 4, 2 * 8, 1 * 2]
    assert sum(r.size * r.fixed for r in rows) == 6 * math.factorial(5)


@pytest.mark.parametrize("kind, words", [
    ("2x2", "--group loops counts plain Latin squares (1xN or Nx1), not 2x2"),
    ("1x4+x", "not 1x4+x (4×4 Latin square grids with extra rules)"),
    ("1x9", "--group loops counts orders up to 8: not order 9"),
])
def test_another_kind_or_too_large_an_order_is_refused_in_one_line(kind, words):
    why = refusal(kind, "loops")
    assert words in why and "\n" not in why
    with pytest.raises(LatinGroupRefused) as info:
        LoopReduction(kind)
    assert str(info.value) == why
    assert refusal("1x8", "loops") is None


def test_the_cost_estimate_explores_each_unit_and_counts_none(monkeypatch):
    """Order 7's identity is 16,942,080 reduced squares: the estimate before
    the run walks random paths of its cover (Knuth) and never counts it."""
    from counting import reach
    from counting.reduction import loop_orbits

    def no_count(*args, **kwargs):
        raise AssertionError("the estimate counted a unit in full")

    monkeypatch.setattr(loop_orbits, "loop_fixed_at", no_count)
    monkeypatch.setattr(loop_orbits, "loop_fixed_search", no_count)
    red = LoopReduction("1x7")
    cost = reach.quick_cost(red)
    assert cost.countable and cost.units == 11 and cost.seconds > 0
    assert cost.method.startswith("Knuth's estimate")


def test_a_unit_reports_the_nodes_of_its_search_not_zero():
    """Status, report and the CSV showed "0 nodes" for units that searched:
    a unit's nodes, dead ends and memo hits are those of its search, the
    same as the engine's for the same cover."""
    from counting.group.loop_classes import fixed_points, loop_cover
    red = LoopReduction("1x5")
    for unit in red.units():
        tally = red.count_directly(unit)
        problem = loop_cover(5, unit.latin_class.perms()[0], fixed_points(unit.latin_class)[0])
        if problem is None:        # no square fixed, and no search made
            assert (tally.count, tally.nodes) == (0, 0)
            continue
        cover, given = problem
        assert cover.count(given=given, memo=True, memo_at="all") == tally.count
        assert (tally.nodes, tally.dead_ends, tally.memo_hits) == \
            (cover.stats.nodes, cover.stats.dead_ends, cover.stats.memo_hits)
    assert red.count_directly(red.units()[0]).nodes > 0   # the identity: 56 reduced squares
