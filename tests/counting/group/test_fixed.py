"""Specification of counting/group/fixed.py: A_t(g) by exact cover.

The oracle: every grid with box 1 standard, listed by the plain Sudoku
encoding (``grids.sudoku``, not the orbit options under test); for each such
grid X and symmetry g the relabelling π with X∘g = π∘X is read off box 1 and
checked on every cell.
"""
from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

import counting.group.cover as cover_module
from counting.group.burnside import symmetry_units
from counting.options import CountOptions
from counting.group.fixed import (cell_orbits, count_fixed, estimate_fixed, power_type,
                                  relabelling_types, relabellings, standard_unit, unit_cells)
from counting.group.permutations import cycle_type
from counting.group.symmetries import Symmetry, conjugacy_classes
from grids.shape import Shape
from engine_searches import record_searches, tally_work, work
from grids.sudoku import Sudoku


def brute_fixed(shape: Shape, grids: np.ndarray, g: Symmetry) -> Counter:
    """``{type t: A_t(g)}`` by checking every grid."""
    perm = g.cell_permutation()
    moved = grids[:, perm]                                   # X(g(c))
    pi = np.zeros((len(grids), shape.n + 1), dtype=np.int64)
    pi[:, 1:] = moved[:, shape.box_cells[0]]                # π(D(c)) = X(g(c)), c in box 1
    ok = (np.take_along_axis(pi, grids, axis=1) == moved).all(axis=1)
    return Counter(cycle_type(p[1:] - 1) for p in pi[ok])


@pytest.fixture(scope="module", params=["2x2", "2x3", "3x2"])
def oracle(request, standard_grids):
    return Shape.parse(request.param), standard_grids(request.param)


def test_every_class_and_type_matches_brute_force(oracle):
    shape, grids = oracle
    for cls in conjugacy_classes(shape):
        g = cls.representative
        mine = {t: count_fixed(shape, g, t).count for t in relabelling_types(shape, g)}
        mine = {t: a for t, a in mine.items() if a}
        assert mine == dict(brute_fixed(shape, grids, g)), cls.label


def test_the_count_does_not_depend_on_the_standard_unit(oracle):
    shape, grids = oracle
    for cls in conjugacy_classes(shape)[::3]:
        g = cls.representative
        expected = sum(brute_fixed(shape, grids, g).values())
        for unit in ("box 1", "row 2", f"column {shape.n}"):
            got = sum(count_fixed(shape, g, t, unit=unit).count
                      for t in relabelling_types(shape, g))
            assert got == expected, (cls.label, unit)


def test_identity_fixes_every_grid_count_over_n_factorial(oracle):
    shape, grids = oracle
    identity = Symmetry.identity(shape)
    assert relabelling_types(shape, identity) == [(1,) * shape.n]
    result = count_fixed(shape, identity, (1,) * shape.n)
    grid_count = Sudoku(shape.box_rows, shape.box_cols).exact_cover(priority="rows").count(
        memo=True, tail=True)
    assert result.count == len(grids) == grid_count // math.factorial(shape.n)


def test_plain_search_agrees_with_memo():
    g = conjugacy_classes("2x3")[33].representative
    for t in relabelling_types("2x3", g):
        assert count_fixed("2x3", g, t, CountOptions(memo=False)).count == \
            count_fixed("2x3", g, t).count


def test_stack_cycle_of_9x9_fixes_the_prototype_count():
    """The issue's prototype: the band cycle fixes 14,837,760 grids with box
    1 standard (class 19 is the stack cycle, its transpose: same A)."""
    cls = conjugacy_classes("3x3")[19]
    assert cls.label == "rows 1[111] 1[111] 1[111] | cols 3[111]"
    g = cls.representative
    assert relabelling_types("3x3", g) == [(3, 3, 3)]
    assert count_fixed("3x3", g, (3, 3, 3)).count == 14_837_760


def test_invariant_standard_unit_forces_one_relabelling():
    g = conjugacy_classes("3x3")[121].representative      # fixes box 1
    name, cells = standard_unit("3x3", g)
    assert name == "box 1"
    found = list(relabellings("3x3", g))
    assert len(found) == 1
    pi, _ = found[0]
    perm = g.cell_permutation()
    # π(D(c)) = D(g(c)) on box 1, D = reading order
    position = {c: i + 1 for i, c in enumerate(cells)}
    assert all(pi[position[c] - 1] == position[int(perm[c])] for c in cells)


@pytest.mark.parametrize("class_id", [162, 172])
def test_symmetry_reduction_changes_the_work_not_the_count(class_id):
    """162 fixes box 1 (one relabelling, prefix fillings reduced); 172 moves
    box 1 along band 1 (44 relabellings of type 3^3 in classes)."""
    g = conjugacy_classes("3x3")[class_id].representative
    reduced = count_fixed("3x3", g, (3, 3, 3))
    full = count_fixed("3x3", g, (3, 3, 3), reduce=False)
    assert reduced.count == full.count > 0
    assert full.classes == full.relabellings
    assert reduced.classes < reduced.relabellings or reduced.nodes < full.nodes


def test_relabelling_types_keep_only_possible_types():
    # the transposition of 9x9: box 1 is invariant with type 2^3 1^3
    g = Symmetry.make("3x3", range(9), range(9), transpose=True)
    assert relabelling_types("3x3", g) == [(2, 2, 2, 1, 1, 1)]
    # 27 of the 275 classes of 9x9 keep a type (Russell & Jarvis: 27 fix grids)
    kept = [c for c in conjugacy_classes("3x3") if relabelling_types("3x3", c.representative)]
    assert len(kept) == 27


def test_power_type_and_orbits():
    assert power_type((6, 3), 3) == (2, 2, 2, 1, 1, 1)
    assert power_type((4, 4, 1), 2) == (2, 2, 2, 2, 1)
    g = Symmetry.make("2x2", (1, 0, 2, 3), range(4))
    orbits = cell_orbits(g.cell_permutation())
    assert sorted(map(len, orbits)) == [1] * 8 + [2] * 4
    assert all(o[0] == min(o) for o in orbits)


def test_bad_inputs_are_refused():
    g = Symmetry.identity("2x2")
    with pytest.raises(ValueError, match="partition of 4"):
        count_fixed("2x2", g, (2, 1))
    with pytest.raises(ValueError, match="no unit"):
        unit_cells("2x2", "box 5")


def test_an_estimate_keeps_to_its_time_budget_and_says_how_much_it_explored():
    """Issue 33 item 5: each candidate relabelling walked ten paths whatever
    the budget, so a 2x5 unit of hundreds of candidates took minutes.  With
    no time left after the first, one candidate is explored and the others
    are taken at its cost; without a budget, every one."""
    shape = Shape(3, 3)
    g = conjugacy_classes(shape)[172].representative      # 33 relabellings of type 3 1^6
    spent = estimate_fixed(shape, g, (3, 1, 1, 1, 1, 1, 1), probes=4, max_seconds=0.0)
    assert (spent.measured, spent.candidates) == (1, 33) and spent.seconds > 0
    every = estimate_fixed(shape, g, (3, 1, 1, 1, 1, 1, 1), probes=4)
    assert (every.measured, every.candidates) == (33, 33)


@pytest.mark.parametrize("weighing", [False, True], ids=["listed freely", "listing weighed"])
def test_a_count_reports_the_work_of_every_search_it_ran_probes_included(weighing, monkeypatch):
    """A unit's nodes left out the searches choosing a prefix and listing
    its fillings (a unit whose only search was that probe said 0 nodes):
    its nodes, dead ends and memo hits are the sums of the engine's own over
    every search it runs.  Weighed (no fillings listed freely), the choice
    also runs Knuth's estimate of the search it would shorten, whose leaf
    counts are searches too."""
    estimates = []
    if weighing:
        monkeypatch.setattr(cover_module, "FREE_FILLINGS", 0)
        real = cover_module.search_estimate
        monkeypatch.setattr(cover_module, "search_estimate",
                            lambda *a, **k: estimates.append(1) or real(*a, **k))
    runs = record_searches(monkeypatch)
    probed = 0
    for u in symmetry_units("2x3"):
        runs.clear()
        fc = count_fixed(u.shape, u.symmetry, u.pi_type)
        assert tally_work(fc) == work(runs), u.unit_id
        probed += len(runs) > fc.searches            # searches beside the counts
    assert probed > 0 and (estimates or not weighing)
