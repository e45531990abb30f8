"""Specification of counting/group/cover.py: the (g, π) exact cover and its symmetries."""
from __future__ import annotations

import numpy as np
import pytest

from counting.options import CountOptions
from counting.group.cover import (Commuting, OrbitCover, commuting_symmetries, conjugate,
                                     relabelling_classes)
from counting.group.fixed import cell_orbits, relabellings, standard_unit
from counting.group.symmetries import conjugacy_classes
from grids.shape import Shape


def test_conjugate():
    pi = (2, 1, 3)                                     # (1 2)
    sigma = np.array([0, 3, 2, 1])                     # (1 3)
    assert conjugate(pi, sigma) == (1, 3, 2)           # (3 2)


@pytest.mark.parametrize("name", ["2x3", "3x3"])
def test_commuting_symmetries_keep_the_standard_unit_and_the_fixed_grids(name, standard_grids):
    """σ_h∘X∘h has the unit standard, for a grid X fixed by g with π, and is
    fixed with σ_h π σ_h⁻¹."""
    shape = Shape.parse(name)
    g = conjugacy_classes(shape)[-1].representative
    unit = standard_unit(shape, g)[1]
    perm = g.cell_permutation()
    symmetries = commuting_symmetries(shape, g, unit)
    assert symmetries
    grids = standard_grids(name) if name == "2x3" else None
    for h in symmetries:
        assert np.array_equal(h.cells[perm], perm[h.cells])
        assert sorted(h.cells[unit].tolist()) == sorted(unit)
        if grids is None:
            continue
        for x in grids[:200]:
            y = h.sigma[x[h.cells]]                     # σ_h∘X∘h
            assert y[unit].tolist() == list(range(1, shape.n + 1))


@pytest.mark.parametrize("class_id", [9, 162])
def test_counting_prefix_classes_agrees_with_counting_everything(class_id):
    shape = Shape(3, 3)
    g = conjugacy_classes(shape)[class_id].representative
    unit = standard_unit(shape, g)
    orbits = cell_orbits(g.cell_permutation())
    (pi, known), = relabellings(shape, g, None, unit)
    symmetries = commuting_symmetries(shape, g, unit[1])
    reduced = OrbitCover(shape, orbits, pi, known)
    full = OrbitCover(shape, orbits, pi, known)
    options = CountOptions()
    assert reduced.count(options, symmetries) == full.count(options) > 0
    assert reduced.searches > 1 and full.searches == 1


def test_a_symmetry_that_does_not_commute_is_caught():
    shape = Shape(3, 3)
    g = conjugacy_classes(shape)[162].representative
    unit = standard_unit(shape, g)
    orbits = cell_orbits(g.cell_permutation())
    (pi, known), = relabellings(shape, g, None, unit)
    good = commuting_symmetries(shape, g, unit[1])
    other = commuting_symmetries(shape, conjugacy_classes(shape)[19].representative, unit[1])
    g_perm = g.cell_permutation()
    bad = [h for h in other if not np.array_equal(h.cells[g_perm], g_perm[h.cells])]
    assert bad
    cover = OrbitCover(shape, orbits, pi, known)
    with pytest.raises(RuntimeError, match="does not commute"):
        cover.count(CountOptions(), good[:1] + bad[:11])


def test_relabelling_classes_weigh_each_class_by_its_size():
    shape = Shape(3, 3)
    g = conjugacy_classes(shape)[172].representative        # moves box 1 along band 1
    unit = standard_unit(shape, g)
    candidates = [pi for pi, _ in relabellings(shape, g, (3, 3, 3), unit)]
    classes = relabelling_classes(candidates, commuting_symmetries(shape, g, unit[1]))
    assert sum(w for _, w in classes) == len(candidates) == 44
    assert len(classes) < 44


def test_relabelling_classes_refuse_a_false_symmetry():
    candidates = [(2, 1, 3), (1, 3, 2)]                      # (1 2) and (2 3)
    swap_1_3 = Commuting(np.arange(9), np.array([0, 3, 2, 1]))   # maps (1 2) to (3 2)
    assert conjugate(candidates[0], swap_1_3.sigma) == candidates[1]
    assert relabelling_classes(candidates, [swap_1_3]) == [(0, 2)]
    swap_1_2 = Commuting(np.arange(9), np.array([0, 2, 1, 3]))   # maps (2 3) to (1 3)
    with pytest.raises(RuntimeError, match="does not commute"):
        relabelling_classes(candidates, [swap_1_2])


def _transposition_cover():
    shape = Shape(3, 3)
    g = conjugacy_classes(shape)[253].representative        # the transposition
    assert g.transpose and g.rows == tuple(range(9))
    unit = standard_unit(shape, g)
    orbits = cell_orbits(g.cell_permutation())
    (pi, known), = relabellings(shape, g, None, unit)
    return shape, g, OrbitCover(shape, orbits, pi, known)


def test_every_option_fills_its_orbit_consistently_with_pi():
    """X(g(c)) = π(X(c)) inside the orbit and around its end: on the diagonal
    (orbits of one cell) only the digits π fixes."""
    shape, g, cover = _transposition_cover()
    for values in cover.values:
        for k, v in enumerate(values):
            assert cover.pi[v - 1] == values[(k + 1) % len(values)]
    diagonal = {cover.values[r][0] for r, o in enumerate(cover.owner)
                if len(cover.orbits[o]) == 1}
    assert diagonal == {d for d in range(1, 10) if cover.pi[d - 1] == d}


def test_solutions_are_grids_fixed_by_g_with_pi():
    shape, g, cover = _transposition_cover()
    perm = g.cell_permutation()
    pi = np.array((0,) + cover.pi)
    for rows in cover.build().solutions(given=cover.given, limit=20):
        grid = np.zeros(81, dtype=np.int64)
        for r in rows:
            grid[cover.orbits[cover.owner[r]]] = cover.values[r]
        assert np.array_equal(grid[perm], pi[grid])
