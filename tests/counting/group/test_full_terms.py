"""Specification of counting/group/full_terms.py: Burnside's terms under a
kind's full group, as the units of ``count --up-to-symmetry --group full``.

The oracle counts orbits with no Burnside in it: every grid (4×4:
tests/variant_samples.py's backtracking; 6×6: the grids with box 1 standard
listed by the plain Sudoku encoding, a kind's extra houses checked on them),
joined by union-find to its images under the cell parts of nauty's
generators of the full group, each image relabelled.  SudokuP (``+disjoint``)
is the case where the full group is larger than today's (4 times).
"""
from __future__ import annotations

import math

import pytest

pytest.importorskip("pynauty")

from counting.group.burnside import count_unit, symmetry_units  # noqa: E402
from counting.group.full_terms import (REDUCTION, count_full_unit, full_terms,  # noqa: E402
                                       recount_full_unit, refusal)
from counting.group import full_terms as full_terms_module  # noqa: E402
from counting.group.split_burnside import split_group  # noqa: E402
from grids.shape import Shape  # noqa: E402
from full_group_samples import cell_moves, kind_grids  # noqa: E402
from variant_samples import brute_fillings, kind_parts, orbits_by_union_find  # noqa: E402
from variant_samples import standard_orbits  # noqa: E402


def orbits(kind: str) -> int:
    """Σ size·A over the units, divided by |C| (checked to divide)."""
    terms = full_terms(kind)
    total = sum(u.size * count_full_unit(u).fixed for u in terms.units)
    q, r = divmod(total, terms.order)
    assert r == 0
    return q


@pytest.mark.parametrize("kind", ["2x2", "2x2+disjoint", "2x2+x", "2x2+disjoint+x",
                                  "2x2+anti-king", "2x2+anti-knight"])
def test_4x4_kinds_equal_union_find_over_every_grid_under_the_full_group(kind):
    R, C, houses, pairs = kind_parts(kind)
    grids = brute_fillings(R * C, houses, pairs)
    assert orbits(kind) == orbits_by_union_find(grids, cell_moves(kind))


@pytest.mark.parametrize("kind", ["2x3", "2x3+disjoint", "2x3+x", "2x3+anti-king",
                                  "2x3+anti-knight"])
def test_6x6_kinds_equal_union_find_over_every_grid(kind, standard_grids):
    grids = kind_grids(kind, standard_grids)
    assert orbits(kind) == standard_orbits(Shape.parse(kind.split("+")[0]), grids,
                                           cell_moves(kind))


def test_sudokup_s_full_group_is_four_times_today_s_and_is_listed():
    terms = full_terms("2x3+disjoint")
    assert not terms.same_as_today
    assert terms.order == 576 and terms.full_order == 576 * math.factorial(6)
    assert sum(c.size for c in terms.classes) == terms.order


@pytest.mark.parametrize("kind", ["2x2", "2x3"])
def test_where_the_full_group_is_today_s_the_units_are_today_s(kind):
    terms = full_terms(kind)
    assert terms.same_as_today
    today = symmetry_units(kind)
    assert [(u.unit_id, u.class_id, u.pi_type, u.weight) for u in terms.units] == \
        [(u.unit_id, u.class_id, u.pi_type, u.weight) for u in today]
    assert all(u.reduction == REDUCTION for u in terms.units)
    assert [count_full_unit(u).fixed for u in terms.units[1:]] == \
        [count_unit(u).fixed for u in today[1:]]


def test_9x9_full_group_has_order_3_359_232_times_9_factorial():
    terms = full_terms("3x3")
    assert terms.order == 3_359_232 and terms.full_order == 3_359_232 * math.factorial(9)
    assert terms.same_as_today          # so --group full and grid count the same terms


def test_the_units_are_numbered_in_order_identity_first():
    units = full_terms("2x3+disjoint").units
    assert [u.unit_id for u in units] == list(range(len(units)))
    assert units[0].is_identity and units[0].pi_type == (1,) * 6
    assert units[0].cells == tuple(range(36))
    keys = [(u.class_id, u.type_id) for u in units]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


def test_a_kind_whose_full_group_mixes_cells_with_digits_is_refused_in_one_line():
    why = refusal("1x4")
    assert why is not None and "\n" not in why
    assert "does not split into cells × relabelling" in why
    assert refusal("2x3+disjoint") is None


def test_the_identity_beyond_6x6_needs_the_grid_count():
    unit = full_terms("3x3").units[0]
    with pytest.raises(ValueError, match="pass grid_total"):
        count_full_unit(unit)
    assert count_full_unit(unit, grid_total=math.factorial(9) * 7).fixed == 7


def test_a_recount_counts_another_element_of_the_class_and_agrees(monkeypatch):
    terms = full_terms("2x3+disjoint")
    group = split_group("2x3+disjoint")
    used = []
    real = full_terms_module.count_fixed

    def spy(kind, g, *args, **kw):
        used.append(g.cells)
        return real(kind, g, *args, **kw)

    monkeypatch.setattr(full_terms_module, "count_fixed", spy)
    seen = 0
    for u in terms.units[1:]:
        again = recount_full_unit(u)
        if again is not None:
            assert again == count_full_unit(u).fixed, u.unit_id
            assert used[-1] != u.cells and group.class_of(used[-1]) == u.class_id
            seen += 1
    assert seen > len(terms.units) // 2


def test_today_s_group_is_taken_for_the_full_one_only_if_it_keeps_the_exact_cover(monkeypatch):
    """Of equal order, today's group is all of C only as a subgroup: a class
    representative that breaks a rule (a row swap breaks 6×6 Sudoku X's
    diagonals) is refused, not counted under."""
    from dataclasses import replace

    from counting.group import burnside
    from counting.group.symmetries import Symmetry

    kind = "3x2+x"                  # used by no other test here: nothing cached
    real = burnside.burnside_group(kind)
    swap = Symmetry((1, 0, 2, 3, 4, 5), tuple(range(6)), False)
    forged = replace(real, classes=(real.classes[0], replace(real.classes[1],
                                                             representative=swap),
                                    *real.classes[2:]))
    monkeypatch.setattr(burnside, "burnside_group", lambda k: forged)
    with pytest.raises(ArithmeticError, match="does not keep the exact cover"):
        full_terms(kind)
