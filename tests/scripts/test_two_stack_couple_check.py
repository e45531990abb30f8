"""Specification of scripts/two_stack_couple_check.py: ``A`` of a two-stack
element with π of type ``2^C``, every band's rows swapped or the band
swapped with another, and the columns moved by an involution inside each
stack, by a sum over the free rows' digit sets of two per-stack exact covers.

The script checks 2x5's table by a route that shares no code with the
package, so it is checked here on the small shapes against the package's
counts: on 2x3 the whole-grid search (:func:`counting.group.fixed.count_fixed`),
on 2x4 the two-stack method (itself equal to the whole-grid search on every
2x4 unit, tests/counting/group/test_two_stack_fixed.py with --runslow).  An
arrangement counted once per distinct bit mask instead of once per
arrangement, a wrong column bit or a wrong sign-normalisation factor changes
some of these.
"""
from __future__ import annotations


import pytest

from counting.group.burnside import symmetry_units
from counting.group.fixed import count_fixed
from counting.group.two_stack_fixed import two_stack_fixed


@pytest.fixture(scope="module")
def check(load_script):
    return load_script("two_stack_couple_check")


def _units(shape: str, check) -> list:
    """The units of ``shape`` the script counts: π of type 2^C, a band
    with its rows swapped, the stacks kept."""
    c = int(shape.split("x")[1])
    out = []
    for u in symmetry_units(shape):
        if u.pi_type != (2,) * c:
            continue
        try:
            n_perm, _, _, _ = check.structure(u.rows, u.cols)
        except ValueError:
            continue
        if n_perm >= 1:
            out.append(u)
    return out


def test_every_such_unit_of_2x3_equals_the_whole_grid_search(check):
    units = _units("2x3", check)
    assert len(units) == 6
    for u in units:
        assert check.unit_a(u.rows, u.cols) == count_fixed("2x3", u.symmetry, u.pi_type).count, \
            u.unit_id


def test_2x4_units_with_swapped_bands_and_moved_columns_equal_the_two_stack_method(check):
    """Units 52-58 (two bands' rows swapped, the other two bands exchanged,
    each pair of column involutions up to conjugacy) and two with every
    band's rows swapped (23, 27)."""
    units = {u.unit_id: u for u in _units("2x4", check)}
    chosen = [units[i] for i in (23, 27, 52, 53, 54, 55, 56, 58)]
    assert sum(check.structure(u.rows, u.cols)[1] for u in chosen) == 6   # six with a couple
    for u in chosen:
        assert check.unit_a(u.rows, u.cols) == two_stack_fixed("2x4", u.symmetry, u.pi_type), \
            u.unit_id


def test_an_element_swapping_the_stacks_is_refused(check):
    swap = tuple(range(5, 10)) + tuple(range(5))
    with pytest.raises(ValueError, match="keeping each stack"):
        check.structure((1, 0, 3, 2, 5, 4, 7, 6, 9, 8), swap)
