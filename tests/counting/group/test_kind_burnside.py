"""Essentially different grids of a kind (Burnside over the kind's group)
against union-find over all grids, both built here from the definitions in
tests/variant_samples.py (the grids by plain backtracking, the group as the
moves of the shape that keep the rules)."""
import math

import pytest

from counting.group.kind_burnside import (kind_burnside_table, kind_classes, kind_count_unit,
                                          kind_essentially_different, kind_identity_fixed,
                                          kind_symmetry_units)
from counting.group.kind_group import kind_group
from grids.variants import variant_exact_cover
from variant_samples import brute_fillings, kind_parts, orbits_by_union_find, rule_keeping_moves

SLOW = pytest.mark.slow   # a minute of plain-Python backtracking each on a busy machine
KINDS = ["2x2+x", "2x2+disjoint", "2x2+anti-knight", "2x2+disjoint+x", "1x4+x", "1x5+x",
         "2x3+anti-knight", pytest.param("2x3+x", marks=SLOW),
         pytest.param("2x3+disjoint+x", marks=SLOW)]


def burnside(text):
    return kind_essentially_different(text, {u.unit_id: kind_count_unit(u).count
                                             for u in kind_symmetry_units(text)})


@pytest.mark.parametrize("text", KINDS)
def test_burnside_over_the_kind_group_equals_union_find_over_all_grids(text):
    R, C, houses, pairs = kind_parts(text)
    grids = brute_fillings(R * C, houses, pairs)
    assert burnside(text) == orbits_by_union_find(grids, rule_keeping_moves(text))


@pytest.mark.parametrize("text", ["2x2+x", "2x3+x", "2x3+disjoint", "1x5+x"])
def test_classes_partition_the_group_and_are_closed_under_conjugation(text):
    classes = kind_classes(text)
    group = kind_group(text)
    assert sum(c.size for c in classes) == group.geometric_order
    assert classes[0].size == 1 and classes[0].representative == group.elements[0]
    perms = group.cell_permutations
    members = {p.tobytes() for p in perms}
    for c in classes:          # each class size divides |H| (orbit-stabiliser)
        assert group.geometric_order % c.size == 0
    for a in perms[:12]:
        for b in perms[:12]:
            assert a[b].tobytes() in members


def test_the_identity_counts_every_grid_over_n_factorial():
    units = kind_symmetry_units("2x3+x")
    grids = variant_exact_cover("2x3+x").count()
    assert kind_count_unit(units[0]).count == grids // math.factorial(6)
    assert kind_count_unit(units[0], grid_total=grids).count == grids // math.factorial(6)


def test_a_grid_total_that_is_no_grid_count_is_refused():
    with pytest.raises(ValueError, match="not a multiple of 6!"):
        kind_identity_fixed("2x3+x", 8641)


def test_the_table_needs_every_unit_and_sums_to_the_orbit_count():
    units = kind_symmetry_units("2x3+x")
    fixed = {u.unit_id: kind_count_unit(u).count for u in units}
    table = kind_burnside_table("2x3+x", fixed)
    assert sum(r.weighted for r in table) == burnside("2x3+x") * kind_group("2x3+x").geometric_order
    fixed.pop(units[-1].unit_id)
    with pytest.raises(ValueError, match="1 without a count"):
        kind_burnside_table("2x3+x", fixed)


def test_a_wrong_count_is_caught_by_divisibility():
    units = kind_symmetry_units("2x3+x")
    fixed = {u.unit_id: kind_count_unit(u).count for u in units}
    fixed[units[0].unit_id] += 1
    with pytest.raises(ArithmeticError, match="not a multiple of [|]H[|] = 8"):
        kind_essentially_different("2x3+x", fixed)
