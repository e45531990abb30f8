"""Specification of counting/group/burnside.py: essentially different grids.

The oracle is a count of orbits with no Burnside in it: every grid with box 1
standard, joined by union-find to its images under generators of G (row swaps
inside a band, band swaps, the same for columns, transposition), each image
relabelled back to box 1 standard.  Published values appear only as
references: 2 (4×4), 49 (6×6), 1,673,187 (2×4) from OEIS A291188 / Russell &
Jarvis; 2, 2, 22 isotopy classes of Latin squares of order 4, 5, 6 (OEIS A040082).

Grid kinds (Burnside over the kind's group H) are checked against union-find
over all grids, both built from the definitions in tests/variant_samples.py
(the grids by plain backtracking, the group as the moves of the shape that
keep the rules).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from counting.group.burnside import (CSV_HEADER, MAX_SEARCHED_IDENTITY, burnside_group,
                                        burnside_table, count_unit, csv_row,
                                        essentially_different, identity_fixed,
                                        relabelling_types_in_order, symmetry_units, type_label)
from counting.group.fixed import standard_unit
from counting.group.kind_group import kind_classes, kind_group
from counting.group.permutations import partitions
from counting.group.symmetries import conjugacy_classes, group_order
from grids.shape import Shape
from grids.variants import variant_exact_cover
from variant_samples import (brute_fillings, kind_parts, orbits_by_union_find,
                             rule_keeping_moves, standard_orbits)


def _generators(shape: Shape) -> list[np.ndarray]:
    """Cell permutations generating G, from its definition."""
    n = shape.n
    r, c = np.divmod(np.arange(n * n), n)

    def swap(i, j):
        p = np.arange(n)
        p[[i, j]] = p[[j, i]]
        return p

    def blocks(b, i, j):
        p = np.arange(n)
        p[i * b:(i + 1) * b], p[j * b:(j + 1) * b] = np.arange(j * b, (j + 1) * b), \
            np.arange(i * b, (i + 1) * b)
        return p

    row_moves = [swap(k, k + 1) for k in range(n - 1) if (k + 1) % shape.box_rows] + \
        [blocks(shape.box_rows, k, k + 1) for k in range(shape.n_bands - 1)]
    col_moves = [swap(k, k + 1) for k in range(n - 1) if (k + 1) % shape.box_cols] + \
        [blocks(shape.box_cols, k, k + 1) for k in range(shape.n_stacks - 1)]
    out = [p[r] * n + c for p in row_moves] + [r * n + p[c] for p in col_moves]
    if shape.box_rows == shape.box_cols:
        out.append(c * n + r)
    return out


def brute_force_orbits(shape: Shape, grids: np.ndarray) -> int:
    """Orbits of all grids under G × relabelling, by union-find on the grids
    with box 1 standard."""
    return standard_orbits(shape, grids, _generators(shape))


def burnside(name: str) -> int:
    return essentially_different(name, {u.unit_id: count_unit(u).fixed
                                        for u in symmetry_units(name)})


@pytest.mark.parametrize("name, expected", [("2x2", 2), ("2x3", 49), ("3x2", 49)])
def test_essentially_different_grids_by_burnside_and_by_brute_force(name, expected,
                                                                    standard_grids):
    assert burnside(name) == expected
    assert brute_force_orbits(Shape.parse(name), standard_grids(name)) == expected


@pytest.mark.parametrize("name, expected", [("1x4", 2), ("4x1", 2), ("1x5", 2), ("1x6", 22)])
def test_latin_squares_give_isotopy_classes(name, expected):
    assert burnside(name) == expected


def test_brute_force_orbits_of_latin_squares_of_order_4(standard_grids):
    assert brute_force_orbits(Shape(1, 4), standard_grids("1x4")) == 2


def test_units_have_stable_ids_and_carry_their_class():
    units = symmetry_units("3x3")
    n_types = len(partitions(9))
    classes = conjugacy_classes("3x3")
    assert [u.unit_id for u in units] == list(range(len(units)))
    assert [(u.class_id, u.type_id) for u in units] == sorted({(u.class_id, u.type_id)
                                                               for u in units})
    for u in units:
        assert 0 <= u.type_id < n_types
        assert (u.weight, u.form_id, u.reduction) == (u.size, u.type_id, "symmetry")
        assert relabelling_types_in_order(9)[u.type_id] == u.pi_type
        assert u.size == classes[u.class_id].size
        assert u.symmetry == classes[u.class_id].representative
    assert units[0].is_identity and units[0].unit_id == 0
    assert units[0].pi_type == (1,) * 9
    assert len(units) == 39 and len({u.class_id for u in units}) == 27
    assert sorted(relabelling_types_in_order(9)) == sorted(partitions(9))


def test_identity_unit_is_the_grid_count_over_n_factorial():
    identity = symmetry_units("2x2")[0]
    searched = count_unit(identity)
    assert searched.fixed == 288 // math.factorial(4) and searched.searches == 1
    given = count_unit(identity, grid_total=288)
    assert given.fixed == searched.fixed and given.searches == 0


def test_identity_beyond_6x6_needs_the_grid_count():
    identity = symmetry_units("3x3")[0]
    with pytest.raises(ValueError, match="pass grid_total"):
        count_unit(identity)
    assert MAX_SEARCHED_IDENTITY == 6
    assert count_unit(identity, grid_total=math.factorial(9) * 5).fixed == 5


@pytest.mark.parametrize("bad", [0, -288, 289, True, 288.0, "288"])
def test_identity_fixed_refuses_what_is_not_a_grid_count(bad):
    with pytest.raises(ValueError, match="grid total"):
        identity_fixed("2x2", bad)


@pytest.fixture(scope="module")
def counts_2x3():
    return {u.unit_id: count_unit(u).fixed for u in symmetry_units("2x3")}


def test_table_rows_add_up_to_the_total(counts_2x3):
    table = burnside_table("2x3", counts_2x3)
    assert sum(row.weighted for row in table) == 49 * group_order("2x3")
    assert all(row.weighted == row.size * row.fixed for row in table)
    assert table[0].class_id == 0 and table[0].fixed == 39_168
    assert {"size", "fixed"} <= set(table[0].as_dict())


def test_a_wrong_count_breaks_divisibility(counts_2x3):
    wrong = dict(counts_2x3)
    unit = next(u for u in symmetry_units("2x3") if u.size < group_order("2x3") and wrong[u.unit_id])
    wrong[unit.unit_id] += 1
    with pytest.raises(ArithmeticError, match="not a multiple"):
        essentially_different("2x3", wrong)


def test_missing_and_unknown_units_are_refused(counts_2x3):
    partial = dict(counts_2x3)
    partial.pop(max(partial))
    with pytest.raises(ValueError, match="no count yet"):
        essentially_different("2x3", partial)
    with pytest.raises(ValueError, match="not units"):
        essentially_different("2x3", {**counts_2x3, 10**6: 0})
    with pytest.raises(ValueError, match="non-negative integer"):
        essentially_different("2x3", {**counts_2x3, 0: -1})


def test_csv_rows_follow_the_header(counts_2x3):
    unit = symmetry_units("2x3")[5]
    row = csv_row(unit, count_unit(unit))
    assert len(row) == len(CSV_HEADER)
    assert row[0] == unit.unit_id and row[6] == counts_2x3[unit.unit_id]
    assert type_label((3, 3, 1, 1, 1)) == "3^2 1^3"


def _grid_total(name: str, reduction: str | None = None) -> int:
    """The shape's grid count, by the grid-count units (two workers)."""
    from counting.run import pool
    from counting.options import CountOptions
    from counting.reduction import get_reduction
    grid = get_reduction(name, reduction)
    counts = {r.unit_id: r.count
              for r in pool.run_units(grid.units(), workers=2, options=CountOptions())}
    return grid.total(counts)


def _essentially_different_with_grid_count(name: str, reduction: str | None = None) -> int:
    grid_total = _grid_total(name, reduction)
    return essentially_different(name, {u.unit_id: count_unit(u, grid_total=grid_total).fixed
                                        for u in symmetry_units(name)})


@pytest.mark.slow
def test_8x8_essentially_different_grids():
    """2x4: 1,673,187 (OEIS A291188); the identity term is the grid count."""
    assert _essentially_different_with_grid_count("2x4") == 1_673_187


@pytest.mark.slow
def test_9x9_essentially_different_grids():
    """3x3: 5,472,730,538 (Russell & Jarvis 2006; OEIS A109741), about 1.5
    minutes on two cores, most of it the grid count (44 classes)."""
    assert _essentially_different_with_grid_count("3x3", "44") == 5_472_730_538


# -- grid kinds: the same Burnside with the kind's group H in place of G ------
SLOW = pytest.mark.slow   # a minute of plain-Python backtracking each on a busy machine
KINDS = ["2x2+x", "2x2+disjoint", "2x2+anti-knight", "2x2+disjoint+x", "1x4+x", "1x5+x",
         "2x3+anti-knight", pytest.param("2x3+x", marks=SLOW),
         pytest.param("2x3+disjoint+x", marks=SLOW)]


@pytest.mark.parametrize("text", KINDS)
def test_burnside_over_the_kind_group_equals_union_find_over_all_grids(text):
    R, C, houses, pairs = kind_parts(text)
    grids = brute_fillings(R * C, houses, pairs)
    assert burnside(text) == orbits_by_union_find(grids, rule_keeping_moves(text))


@pytest.mark.parametrize("text", ["2x2", "2x3", "2x2+x", "2x3+x", "1x5+x", "2x3+anti-knight"])
def test_another_conjugate_of_a_representative_is_another_element_of_its_class(text):
    """Against the group from its definition: ``h`` is in it, ``h·g·h⁻¹`` is
    not ``g``, and the class (``h·g·h⁻¹`` for every ``h``) is ``{g}`` alone
    exactly when there is no other."""
    group = burnside_group(text)
    moves = np.array(rule_keeping_moves(text))
    inverses = np.argsort(moves, axis=1)
    elements = {tuple(p) for p in moves}
    for cls in group.classes:
        g = cls.representative
        gp = g.cell_permutation()
        members = {tuple(p) for p in np.take_along_axis(moves, gp[inverses], axis=1)}
        found = group.other_conjugate(g)
        if found is None:
            assert members == {tuple(gp)}
            continue
        h, other = found
        hp, op = h.cell_permutation(), other.cell_permutation()
        assert tuple(hp) in elements and np.array_equal(op[hp], hp[gp])
        assert other != g and tuple(op) in members


@pytest.mark.parametrize("text", ["2x2", "2x2+disjoint"])
def test_the_conjugate_is_counted_with_a_standard_unit_not_the_image_of_gs(text):
    """Else its exact covers would be g's with the cells renamed by h: on
    these kinds some class representative gives another for every unit."""
    group = burnside_group(text)
    for u in symmetry_units(text)[1:]:
        found = group.other_conjugate(u.symmetry)
        if found is not None:
            h, other = found
            image = set(h.cell_permutation()[standard_unit(text, u.symmetry)[1]].tolist())
            assert image != set(standard_unit(text, other)[1]), u.unit_id


def test_a_kind_has_its_group_h_and_a_box_shape_its_group_g():
    h, g = burnside_group("2x3+x"), burnside_group("2x3")
    assert (h.symbol, h.order, h.classes) == ("H", kind_group("2x3+x").geometric_order,
                                              kind_classes("2x3+x"))
    assert (g.symbol, g.order, g.classes) == ("G", group_order("2x3"), conjugacy_classes("2x3"))
    assert symmetry_units("2x3") == symmetry_units(Shape(2, 3))
    assert {u.shape for u in symmetry_units("2x3+x")} == {"2x3+x"}


def test_the_identity_of_a_kind_counts_every_grid_over_n_factorial():
    units = symmetry_units("2x3+x")
    grids = variant_exact_cover("2x3+x").count()
    assert count_unit(units[0]).fixed == grids // math.factorial(6)
    assert count_unit(units[0], grid_total=grids).fixed == grids // math.factorial(6)


def test_a_grid_total_that_is_no_grid_count_of_a_kind_is_refused():
    with pytest.raises(ValueError, match="not a multiple of 6!"):
        identity_fixed("2x3+x", 8641)


def test_the_kind_table_needs_every_unit_and_sums_to_the_orbit_count():
    units = symmetry_units("2x3+x")
    fixed = {u.unit_id: count_unit(u).fixed for u in units}
    table = burnside_table("2x3+x", fixed)
    assert sum(r.weighted for r in table) == burnside("2x3+x") * kind_group("2x3+x").geometric_order
    fixed.pop(units[-1].unit_id)
    with pytest.raises(ValueError, match="1 of .* units of 2x3[+]x have no count yet"):
        burnside_table("2x3+x", fixed)


def test_a_wrong_count_of_a_kind_is_caught_by_divisibility():
    units = symmetry_units("2x3+x")
    fixed = {u.unit_id: count_unit(u).fixed for u in units}
    fixed[units[0].unit_id] += 1
    with pytest.raises(ArithmeticError, match="not a multiple of [|]H[|] = 8"):
        essentially_different("2x3+x", fixed)


def test_units_with_no_count_are_counted_with_separators(monkeypatch):
    from types import SimpleNamespace
    from counting.group import burnside as burnside_module
    many = [SimpleNamespace(unit_id=i) for i in range(1_200)]
    monkeypatch.setattr(burnside_module, "symmetry_units", lambda shape: many)
    with pytest.raises(ValueError, match="^1,199 of 1,200 units of 2x3[+]x have no count yet"):
        burnside_table("2x3+x", {0: 1})
