"""Specification of scripts/two_stack_gap_audit.py (issue 34): the list of
conjugacy classes of G, their sizes, the (class, relabelling type) pairs that
can be non-zero and the final division, computed again from the definitions
by code that shares nothing with the package, must reproduce the two-stack
tables of 2x4 (1,673,187, OEIS A291188) and 2x5; the pairs it keeps must
contain every pair with a fixed grid found by brute force (2x2, 2x3); and
its third routes (scripts/two_stack_third_route.py: every band's rows swapped
with π of 0, 1, 2 transpositions; the last two bands exchanged, π of 0, 1)
must
equal brute force and the tables.
"""
from __future__ import annotations

from fractions import Fraction

import pytest


@pytest.fixture(scope="module")
def audit(load_script):
    return load_script("two_stack_gap_audit")


@pytest.mark.parametrize("shape, classes, pairs, total", [
    ("2x4", 400, 156, 1_673_187),
    ("2x5", 1_260, 129, 4_743_933_427_433_330),
])
def test_the_tables_classes_sizes_units_and_total_are_reproduced(audit, shape, classes, pairs, total):
    table, grids = audit.units(shape)
    got = audit.audit(int(shape[2]), table, grids)
    assert got["problems"] == []
    assert got["classes"] == classes and got["class_sizes_sum"] == got["group_order"]
    assert got["possible_pairs"] == pairs == got["units_in_table"]
    assert got["identity_term"].denominator == 1
    assert got["essentially_different"] == total


def test_a_unit_with_a_wrong_class_size_or_a_missing_unit_is_reported(audit):
    table, grids = audit.units("2x5")
    wrong = [dict(u, size=u["size"] + 1) if u["unit"] == 19 else u for u in table]
    assert any(p.startswith("unit 19: class size") for p in audit.audit(5, wrong, grids)["problems"])
    fewer = [u for u in table if u["unit"] != 43]
    assert any("has no unit" in p for p in audit.audit(5, fewer, grids)["problems"])


def test_the_group_orders_and_class_counts(audit):
    # |S_2 wr S_5| = 2^5·5!, |S_5 wr S_2| = (5!)^2·2; 36 and 35 classes
    rows, cols = audit.row_group(5), audit.column_group(5)
    assert (len(set(rows)), len(set(cols))) == (3_840, 28_800)
    assert len(audit.classes(rows, audit.row_generators(5))[1]) == 36
    assert len(audit.classes(cols, audit.column_generators(5))[1]) == 35


def test_2x2_brute_force_keeps_every_non_zero_pair_and_gives_3(audit):
    got = audit.brute_force(2)
    assert got["problems"] == [] and got["grids_box1_standard"] == 12
    assert got["essentially_different"] == 3          # kjellfp's "2x2 N" (no transposition)


@pytest.mark.slow
def test_2x3_brute_force_keeps_every_non_zero_pair_and_gives_49(audit):
    got = audit.brute_force(3)
    assert got["problems"] == [] and got["grids_box1_standard"] == 39_168
    assert got["essentially_different"] == 49


@pytest.mark.parametrize("k, a", [(0, 4), (1, 4), (2, 2)])
def test_the_third_route_equals_brute_force_on_2x2(audit, k, a):
    brute = audit.brute_force(2)["terms"]
    assert audit.third_route(2, k) == audit.band_swap_term(2, brute, k) == a


@pytest.mark.parametrize("shape, k", [("2x4", 0), ("2x4", 1), ("2x4", 2), ("2x5", 0), ("2x5", 1)])
def test_the_third_route_equals_the_table(audit, shape, k):
    """2x5 with k = 2 (unit 21, about 30 s) is run by the script."""
    c = int(shape[2])
    table, _ = audit.units(shape)
    a = audit.third_route(c, k)
    assert a.denominator == 1 and a == audit.band_swap_unit(c, table, k)


@pytest.mark.parametrize("k, a", [(0, 1), (1, 4)])
def test_the_exchanged_bands_route_equals_brute_force_on_2x2(audit, load_script, k, a):
    third = load_script("two_stack_third_route")
    t = third.involution_type(2, k)
    got = Fraction(third.exchanged_pair_fixed(2, k), audit.z_order(t))
    assert got == audit.brute_term(2, audit.brute_force(2)["terms"], third.exchanged_pair_element(2), t) == a


@pytest.mark.parametrize("c, k, unit", [(4, 0, 59), (4, 1, 60),
                                         pytest.param(5, 0, 41, marks=pytest.mark.slow)])  # 2x5: ~20 s
def test_the_exchanged_bands_route_equals_the_tables(audit, load_script, c, k, unit):
    """2x5 with k = 1 (unit 42, about 45 s) is run by the script."""
    third = load_script("two_stack_third_route")
    table, _ = audit.units(f"2x{c}")
    t = third.involution_type(c, k)
    a = Fraction(third.exchanged_pair_fixed(c, k), audit.z_order(t))
    assert a == audit.table_term(table, third.exchanged_pair_element(c), t)
    assert a == next(u["A"] for u in table if u["unit"] == unit)


def test_a_bad_shape_is_a_usage_error(audit, capsys):
    with pytest.raises(SystemExit) as e:
        audit.main(["3x3"])
    assert e.value.code == 2
    assert capsys.readouterr().err.strip() == "error: shape must be 2xC with C from 2 to 5, got '3x3'"
    with pytest.raises(SystemExit) as e:
        audit.main(["2x4", "--brute"])
    assert e.value.code == 2
