"""Specification of counting/group/prefix_cost.py: how deep a prefix an orbit cover lists.

Issue 33 item 4: one global bound of 100,000 fillings (raised for Latin
order 9) made unit 8 of 3×3 list 67,776 fillings (2 s) to shorten a
0.14 s search, and the essentially different 3×3 units 10× slower.
"""
from __future__ import annotations

import pytest

from counting.group import cover as cover_module
from counting.group.burnside import symmetry_units
from counting.group.cover import OrbitCover, commuting_symmetries, conjugate
from counting.group.fixed import cell_orbits, relabellings, standard_unit
from counting.group.prefix_cost import FREE_FILLINGS, PREFIX_LIMIT, deeper_pays
from counting.options import CountOptions
from dlx.estimate import Estimate


def _cover(shape: str, unit_id: int):
    """The one orbit cover of a unit with one relabelling, and its symmetries."""
    u = symmetry_units(shape)[unit_id]
    unit = standard_unit(u.shape, u.symmetry)
    (pi, known), = relabellings(u.shape, u.symmetry, u.pi_type, unit)
    keeping = [h for h in commuting_symmetries(u.shape, u.symmetry, unit[1])
               if conjugate(pi, h.sigma) == pi]
    return OrbitCover(u.shape, cell_orbits(u.symmetry.cell_permutation()), pi, known), keeping


def test_the_bounds_keep_the_free_listing_below_the_most_listed():
    assert 0 < FREE_FILLINGS < PREFIX_LIMIT


def test_a_deeper_prefix_pays_only_when_its_listing_costs_under_half_the_search():
    assert deeper_pays(1_000, 1e-3, 2.01)
    assert not deeper_pays(1_000, 1e-3, 2.0)
    assert not deeper_pays(67_776, 30e-6, 0.14)


@pytest.mark.parametrize("search, classes", [(0.0, 31), (1e9, 1_928)])
def test_3x3_unit_8_lists_its_fourth_row_only_when_the_search_it_shortens_is_dear(
        monkeypatch, search, classes):
    """Rows 1-3 have 288 fillings in 31 classes; rows 1-4 have 67,776 in
    1,928 (more than FREE_FILLINGS): listed only when the search with three
    rows is estimated dearer than twice their listing.  The count is the
    same either way."""
    monkeypatch.setattr(cover_module, "search_estimate",
                        lambda *a, **k: Estimate(0.0, 0.0, search, 0.0, 1, 0, 0))
    cover, keeping = _cover("3x3", 8)
    assert cover.count(CountOptions(), keeping) == 294_912
    assert cover.searches == classes


def test_3x3_unit_8_measured_keeps_three_rows():
    """Measured (CPU seconds): listing 67,776 fillings costs about 2 s, the
    search with three rows about 0.1-1 s, 10 times apart."""
    cover, keeping = _cover("3x3", 8)
    assert cover.count(CountOptions(), keeping) == 294_912
    assert cover.searches == 31


@pytest.mark.slow
def test_latin_order_9_unit_7_measured_lists_two_rows():
    """Rows and columns (23)(45)(67)(89), relabellings 2⁴1: with row 1 alone
    (one filling) the search takes CPU-hours; rows 1-2 (81,088 fillings in
    217 classes) count in under a minute.  Only the choice is checked here."""
    u = symmetry_units("1x9")[7]
    unit = standard_unit(u.shape, u.symmetry)
    candidates = list(relabellings(u.shape, u.symmetry, u.pi_type, unit))
    symmetries = commuting_symmetries(u.shape, u.symmetry, unit[1])
    pi, known = candidates[0]
    keeping = [h for h in symmetries if conjugate(pi, h.sigma) == pi]
    cover = OrbitCover(u.shape, cell_orbits(u.symmetry.cell_permutation()), pi, known)
    chosen, first_rows, sizes = cover.choose_prefix(keeping, CountOptions())
    assert {cover.orbits[o][0] // 9 for o in chosen} == {0, 1}
    assert (sum(sizes), len(sizes)) == (81_088, 217)
