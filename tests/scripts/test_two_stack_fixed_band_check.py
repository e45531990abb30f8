"""Specification of scripts/two_stack_fixed_band_check.py: ``A`` of a
two-stack element that keeps the stacks, moves rows by an involution of
whole bands (a band kept row by row, its rows swapped, or exchanged with
another) and columns by an involution inside each stack, with π an
involution that may fix digits, by a sum over the fixed and free rows' digit
sets of two per-stack exact covers, one data set per orbit of π's centraliser.

The script checks 2x5's unit 49 (band 1 kept row by row, bands 2↔3 and 4↔5,
π of type 2^4 1^2) by a route that shares no code with the package, so it is
checked here against the whole-grid search
(:func:`counting.group.fixed.count_fixed`) on the small units of the same
make: 2x3's unit 18 (a kept band and a couple, a fixed column a stack), 2x4's
unit 35 (two kept bands and a couple) and 2x4's units 75-77 (two couples, π
with fixed digits, as unit 49 has), and on every other non-identity unit of
2x3 it counts; and on every non-identity unit of 2x4 it counts against the
package's two-stack method.  A fixed row's arrangement not tied by ``p[κ(c)] = π p[c]``,
a free row's partner entry read from column ``c`` instead of ``κ(c)``, or an
orbit of data weighted 1 instead of its size changes some of these.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from counting.group.burnside import symmetry_units
from counting.group.fixed import count_fixed
from counting.group.two_stack_fixed import two_stack_fixed

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "two_stack_fixed_band_check.py"


@pytest.fixture(scope="module")
def check(load_script):
    return load_script("two_stack_fixed_band_check")


def _equals_whole_grid_search(check, shape: str, unit_id: int) -> None:
    u = symmetry_units(shape)[unit_id]
    assert check.unit_a(u.rows, u.cols, u.pi_type) == \
        count_fixed(shape, u.symmetry, u.pi_type).count


@pytest.mark.parametrize("shape, unit_id", [("2x3", 18), ("2x4", 35)])
def test_a_kept_band_and_a_couple_equal_the_whole_grid_search(check, shape, unit_id):
    u = symmetry_units(shape)[unit_id]
    layout = check.structure(u.rows, u.cols)
    assert layout.fixed and layout.couples and 1 in u.pi_type     # unit 49's make
    _equals_whole_grid_search(check, shape, unit_id)


@pytest.mark.parametrize("unit_id", [75, 76, 77])
def test_two_couples_with_pi_fixing_digits_equal_the_whole_grid_search(check, unit_id):
    u = symmetry_units("2x4")[unit_id]
    assert len(check.structure(u.rows, u.cols).couples) == 2 and 1 in u.pi_type
    _equals_whole_grid_search(check, "2x4", unit_id)


def test_every_other_non_identity_unit_of_2x3_it_counts_equals_the_whole_grid_search(check):
    counted = []
    for u in symmetry_units("2x3")[1:]:
        try:
            check.structure(u.rows, u.cols)
            check.involution(u.pi_type)
        except ValueError:
            continue
        counted.append(u.unit_id)
        _equals_whole_grid_search(check, "2x3", u.unit_id)
    assert counted == [8, 9, 10, 18, 21, 22, 23]


def test_every_non_identity_unit_of_2x4_it_counts_equals_the_two_stack_method(check):
    """Perm bands, couples and kept bands mixed, with π of every involution
    type: the package's two-stack method (equal to the whole-grid search on
    every 2x4 unit, tests/counting/group/test_two_stack_fixed.py with --runslow)."""
    counted = []
    for u in symmetry_units("2x4")[1:]:
        try:
            check.structure(u.rows, u.cols)
            check.involution(u.pi_type)
        except ValueError:
            continue
        counted.append(u.unit_id)
        assert check.unit_a(u.rows, u.cols, u.pi_type) == \
            two_stack_fixed("2x4", u.symmetry, u.pi_type), u.unit_id
    assert len(counted) == 29


def test_elements_and_relabellings_it_does_not_count_are_refused(check):
    swap = tuple(range(5, 10)) + tuple(range(5))
    with pytest.raises(ValueError, match="keeping each stack"):
        check.structure((1, 0, 3, 2, 5, 4, 7, 6, 9, 8), swap)
    with pytest.raises(ValueError, match="whole bands"):
        check.structure((0, 2, 1, 3, 4, 5), (0, 1, 2, 3, 4, 5))
    with pytest.raises(ValueError, match="not an involution"):
        check.involution((3, 1, 1, 1))


def test_the_command_refuses_a_unit_it_cannot_count_in_one_line_with_exit_2(run_python):
    # unit 1 of 2x5 moves columns by 5-cycles
    done = run_python(str(SCRIPT), "1")
    assert done.returncode == 2
    assert "unit 1: columns must be an involution keeping each stack" in done.stderr
    assert "Traceback" not in done.stderr
