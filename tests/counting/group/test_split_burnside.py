"""Specification of counting/group/split_burnside.py: essentially different
grids under a kind's full group C × relabelling, by Burnside over the
classes of the cell group C.

The oracle counts orbits with no Burnside and no fixed-grid search in it:
every grid (4×4: tests/variant_samples.py's backtracking; 6×6: the grids with
box 1 standard listed by the plain Sudoku encoding, a kind's extra houses
checked on them), joined by union-find to its images under the cell parts
of the full group's generators (nauty's, checked by
tests/counting/group/test_cover_automorphisms.py), each image relabelled.
SudokuP kinds (``+disjoint``) are the cases where C is larger than today's
group (4 times, exchanging rows, boxes and disjoint groups).

Reference values: 2 essentially different 4×4 and 49 6×6 Sudoku grids
(Russell & Jarvis 2006; OEIS A291188).
"""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pynauty")

from counting.group.fixed import count_fixed  # noqa: E402
from counting.group.full_burnside import full_orbit_count  # noqa: E402
from counting.group.split_burnside import (count_split_unit,  # noqa: E402
                                           disagreements_with_today, split_group,
                                           split_orbit_count, split_units)
from full_group_samples import cell_moves, kind_grids  # noqa: E402
from grids.shape import Shape  # noqa: E402
from variant_samples import (brute_fillings, kind_parts, orbits_by_union_find,  # noqa: E402
                             standard_orbits)


@pytest.mark.parametrize("kind", ["2x2", "2x2+disjoint", "2x2+x", "2x2+disjoint+x",
                                  "2x2+anti-king", "2x2+anti-knight"])
def test_4x4_kinds_equal_union_find_over_every_grid_and_the_listed_full_group(kind):
    R, C, houses, pairs = kind_parts(kind)
    grids = brute_fillings(R * C, houses, pairs)
    orbits = orbits_by_union_find(grids, cell_moves(kind))
    assert split_orbit_count(kind).orbits == orbits
    assert full_orbit_count(kind).orbits == orbits


@pytest.mark.parametrize("kind", ["2x3", "2x3+disjoint", "3x2+disjoint", "2x3+x",
                                  "2x3+anti-king", "2x3+anti-knight"])
def test_6x6_kinds_equal_union_find_over_every_grid(kind, standard_grids):
    grids = kind_grids(kind, standard_grids)
    assert split_orbit_count(kind).orbits == standard_orbits(Shape.parse(kind.split("+")[0]),
                                                            grids, cell_moves(kind))


def test_references():
    assert split_orbit_count("2x2").orbits == 2
    assert split_orbit_count("2x3").orbits == 49


def test_each_term_of_6x6_sudokup_is_the_brute_force_count_of_its_fixed_grids(standard_grids):
    """A(c) = the grids with box 1 standard that c maps onto a relabelling
    of themselves, X(c(k)) = π(X(k)), for every class representative."""
    kind = "2x3+disjoint"
    grids = kind_grids(kind, standard_grids)
    box1 = Shape(2, 3).box_cells[0]
    rows = np.arange(len(grids))[:, None]
    per_class: dict[int, int] = {}
    for cls, t in split_units(kind):
        per_class[cls.class_id] = per_class.get(cls.class_id, 0) + \
            count_split_unit(kind, cls, t).fixed
    for cls in split_group(kind).classes:
        moved = grids[:, cls.representative.cell_permutation()]
        pi = np.zeros((len(grids), 7), dtype=grids.dtype)
        pi[rows, grids[:, box1]] = moved[:, box1]
        fixed = int((np.take_along_axis(pi, grids, axis=1) == moved).all(axis=1).sum())
        assert per_class.get(cls.class_id, 0) == fixed, cls.label


def test_the_symmetries_a_term_reduces_by_do_not_change_it():
    """The elements of C commuting with c (not of the geometric group G)
    give the same count as counting every candidate in full."""
    kind = "2x3+disjoint"
    group = split_group(kind)
    reduced = 0
    for cls, t in split_units(kind):
        g = cls.representative
        full = count_fixed(kind, g, t, reduce=False).count
        assert count_split_unit(kind, cls, t).fixed == full, (cls.label, t)
        perm = g.cell_permutation()
        reduced += len(group.commuting(perm, list(range(6)))) > 1
    assert reduced


def test_the_classes_partition_the_cell_group_identity_first():
    group = split_group("2x3+disjoint")
    assert group.order == 576 and sum(c.size for c in group.classes) == group.order
    assert group.classes[0].size == 1
    assert group.classes[0].representative.cells == tuple(range(36))


def test_a_full_group_that_mixes_cells_with_digits_is_refused():
    with pytest.raises(ValueError, match="does not split into cells × relabelling"):
        split_group("1x4")


def test_the_identity_beyond_6x6_needs_the_grid_count():
    cls, t = split_units("3x3+windoku")[0]
    with pytest.raises(ValueError, match="pass grid_total"):
        count_split_unit("3x3+windoku", cls, t)
    assert count_split_unit("3x3+windoku", cls, t, grid_total=362880 * 5).fixed == 5


def test_today_groups_units_agree_with_the_terms_of_the_classes_holding_them():
    """Today's group H (kind_group) is a subgroup of C: each of its units is
    counted again, by other elements, as a term of the full group."""
    from counting.group.burnside import count_unit, symmetry_units
    kind = "2x3+disjoint"
    terms = split_orbit_count(kind).terms
    today = {u.unit_id: count_unit(u).fixed for u in symmetry_units(kind)}
    assert disagreements_with_today(kind, terms, today) == []
    wrong = dict(today)
    unit = next(u for u, v in today.items() if u and v)
    wrong[unit] += 1
    found = disagreements_with_today(kind, terms, wrong)
    assert len(found) == 1 and found[0].startswith(f"unit {unit} ")


def test_class_of_names_the_class_of_an_element_and_refuses_a_stranger():
    group = split_group("2x2+disjoint")
    for cls in group.classes:
        assert group.class_of(cls.representative.cell_permutation()) == cls.class_id
    swap = list(range(16))
    swap[0], swap[1] = 1, 0          # two cells of one row: keeps no rule
    with pytest.raises(ValueError, match="not in the full group of 2x2\\+disjoint"):
        group.class_of(swap)


@pytest.mark.parametrize("kind", ["2x2+disjoint", "2x3+disjoint"])
def test_each_term_equals_the_quotient_exact_cover_of_its_element(kind):
    """Two methods on every element both can count: the option permutation
    (cell k, digit d) -> (c(k), q(d)) fixes Fix grids, the exact covers of
    the quotient by its orbits (full_burnside.fixed_grids); relabelling a
    grid conjugates q, so the grids c maps onto a relabelling of themselves
    by a q of type t are N!/z_t · Fix, and count_fixed's A_t(c) counts those
    with a standard unit, one in N!: Fix = z_t · A_t(c) for every class
    representative c and every type t (0 for the types split_units leaves out)."""
    from counting.group.cover_automorphisms import cover_graph
    from counting.group.full_burnside import fixed_grids
    from counting.group.permutations import centraliser_order, partitions, type_representative

    group, graph = split_group(kind), cover_graph(kind)
    n = group.kind.shape.n
    terms = {(cls.class_id, t): count_split_unit(kind, cls, t).fixed
             for cls, t in split_units(kind)}
    checked = 0
    for cls in group.classes:
        cells = cls.representative.cells
        for t in partitions(n):
            q = type_representative(t)
            perm = [cells[o // n] * n + q[o % n] for o in range(n ** 3)]
            fixed = fixed_grids(graph, perm)
            assert fixed == centraliser_order(t) * terms.get((cls.class_id, t), 0), \
                (cls.class_id, t)
            checked += fixed > 0
    assert checked >= 10
