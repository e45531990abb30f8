"""Specification of the symmetry reduction's recount (counting/reduction/orbits.py):
each unit's A_t counted again for another element of its class, which gives
the stored count.  (Named apart from tests/counting/group/test_orbits.py,
whose basename it would share.)"""
from __future__ import annotations

import numpy as np
import pytest

import counting.reduction.orbits as orbits
from counting.group.burnside import count_unit
from counting.group.fixed import other_unit, standard_unit
from counting.group.symmetries import Symmetry
from counting.options import CountOptions
from counting.reduction import get_reduction
from engine_searches import assert_each_unit_reports_its_searches
from variant_samples import rule_keeping_moves


@pytest.mark.parametrize("text", ["2x2", "2x3", "1x5", "2x2+x", "2x3+x", "1x5+x"])
def test_every_unit_recounted_for_another_element_of_its_class_gives_its_count(text,
                                                                               monkeypatch):
    red = get_reduction(text, "symmetry")
    moves = np.array(rule_keeping_moves(text))
    counted, real = [], orbits.count_fixed

    def spy(kind, g, pi_type, options=None, **kw):
        counted.append((g, kw.get("unit")))
        return real(kind, g, pi_type, options, **kw)
    monkeypatch.setattr(orbits, "count_fixed", spy)
    for u in red.units()[1:]:
        counted.clear()
        again = red.count_independently(u)
        g = u.symmetry.cell_permutation()
        if not np.array_equal(moves[:, g], g[moves]):     # another element of the class
            assert len(counted) == 1 and again == count_unit(u).fixed, u.unit_id
            assert counted[0][0] != u.symmetry and counted[0][1] is None, u.unit_id
        elif other_unit(text, u.symmetry) is not None:     # central: g, another unit
            assert len(counted) == 1 and again == count_unit(u).fixed, u.unit_id
            (h, unit), = counted
            assert h == u.symmetry and unit not in (None, standard_unit(text, h)[0]), u.unit_id
        else:                                              # nothing else to count
            assert again is None and counted == [], u.unit_id


@pytest.mark.parametrize("text, unit_id", [("2x2", 7), ("2x3", 8)])
def test_a_central_unit_is_recounted_with_another_unit_made_standard(text, unit_id, monkeypatch):
    red = get_reduction(text, "symmetry")
    u = red.units()[unit_id]
    assert red.group.other_conjugate(u.symmetry) is None       # central
    units, real = [], orbits.count_fixed

    def spy(kind, g, pi_type, options=None, **kw):
        units.append(kw.get("unit"))
        return real(kind, g, pi_type, options, **kw)
    monkeypatch.setattr(orbits, "count_fixed", spy)
    assert red.count_independently(u) == count_unit(u).fixed
    assert units == [other_unit(text, u.symmetry)] and units[0] is not None


def test_a_central_symmetry_keeps_another_unit_to_count_it_by():
    # Sudoku X's half-turn is central in its group: box 5 is its standard
    # unit, row 5 the next unit it keeps
    half_turn = Symmetry(tuple(range(8, -1, -1)), tuple(range(8, -1, -1)))
    assert standard_unit("3x3+x", half_turn)[0] == "box 5"
    assert other_unit("3x3+x", half_turn) == "row 5"
    assert other_unit("2x2", Symmetry.identity("2x2")) == "box 2"


def test_a_recount_applies_recounts_options(monkeypatch):
    red = get_reduction("2x2", "symmetry")
    seen, real = [], orbits.count_fixed

    def spy(kind, g, pi_type, options):
        seen.append(options)
        return real(kind, g, pi_type, options)
    monkeypatch.setattr(orbits, "count_fixed", spy)
    unit = red.units()[1]
    assert red.count_independently(unit, CountOptions(memo=False)) == count_unit(unit).fixed
    assert [o.memo for o in seen] == [False]


def test_a_unit_of_another_job_is_refused():
    with pytest.raises(ValueError, match="is a 2x2/symmetry unit, not 2x2[+]x/symmetry"):
        get_reduction("2x2+x", "symmetry").count_independently(
            get_reduction("2x2", "symmetry").units()[1])


def test_an_estimate_cut_short_by_its_budget_says_so_in_its_method():
    red = orbits.SymmetryReduction("3x3")
    unit = next(u for u in red.units() if u.class_id == 172 and u.pi_type == (3, 1, 1, 1, 1, 1, 1))
    red.estimate_unit_seconds(unit, CountOptions(), probes=4, seed=0, max_seconds=0.0)
    assert red.estimate_method(1) == ("Knuth's estimate from 1 sampled unit: 1 of their 33 "
                                      "relabellings explored within the time budget, the "
                                      "others taken at their mean")


@pytest.mark.parametrize("text", ["2x2", "2x2+disjoint", "2x3"])
def test_a_unit_reports_the_work_of_its_searches_not_zero_dead_ends(text, monkeypatch):
    """Status, report and the CSV said 0 dead ends and 0 memo hits for
    every unit of the grid group: a unit's nodes, dead ends and memo hits
    are the sums of the engine's own over every search it ran (the prefix
    probes included)."""
    assert_each_unit_reports_its_searches(get_reduction(text, "symmetry"), monkeypatch)
