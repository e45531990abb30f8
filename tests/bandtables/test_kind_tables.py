"""Three-band tables that carry a band's house digits (bandtables/kind_tables.py) count a
kind with one extra house of one cell per box as brute force does.

The 6×6 grids (boxes of 2 rows × 3 columns, the smallest the tables take) have no named
house of one cell per box (``centre`` needs odd boxes), so the tests make their own:
a house is written as cells, brute force reads it from the same cells, and the
shapes are chosen so that the kind keeps few or none of the plain column symmetries —
a sum that used a symmetry the house does not have would count another kind.
"""
import math
from dataclasses import dataclass

import pytest

from bandtables.kind_tables import (band_house_columns, column_symmetries,
                                    count_kind_by_band_tables)
from counting.reduction.kind_bands import count_by_bands
from grids.kind import GridKind
from grids.shape import as_shape
from variant_samples import basic_houses, brute_count


@dataclass(frozen=True)
class _House:
    """One extra house given by its cells (a test-only constraint)."""
    name: str
    cells: tuple

    def applies_to(self, shape):
        return None

    def houses(self, shape):
        return (tuple(r * shape.n + c for r, c in self.cells),)

    def differences(self, shape):
        return ()


# one cell per 2x3 box; names say what they keep
SIX_HOUSES = {
    "middles": ((0, 1), (0, 4), (2, 1), (2, 4), (4, 1), (4, 4)),        # keeps stack swaps
    "scattered": ((0, 0), (1, 5), (2, 1), (3, 3), (5, 2), (4, 4)),
    "two-rows": ((0, 0), (0, 4), (3, 2), (2, 5), (4, 1), (5, 3)),
}


def _six(name: str) -> GridKind:
    return GridKind(as_shape("2x3"), (_House(name, SIX_HOUSES[name]),))


@pytest.mark.parametrize("name", sorted(SIX_HOUSES))
@pytest.mark.parametrize("first", [0, 1, 2])
def test_a_six_by_six_house_is_counted_as_brute_force_counts_it(name, first):
    # brute force with row 1 given as 1..6, times the 6! relabellings (a house is a house)
    houses = basic_houses(2, 3) + [list(SIX_HOUSES[name])]
    row1 = {(0, c): c + 1 for c in range(6)}
    expected = math.factorial(6) * brute_count(6, houses, (), row1)
    assert count_kind_by_band_tables(_six(name), first=first).grids == expected


@pytest.mark.parametrize("name", sorted(SIX_HOUSES))
def test_a_six_by_six_house_agrees_with_the_band_transfer(name):
    assert count_kind_by_band_tables(_six(name)).grids == count_by_bands(_six(name)).grids


@pytest.mark.parametrize("columns", [(1, 0, 2, 3, 4, 5), (3, 4, 5, 2, 1, 0), (5, 3, 4, 1, 2, 0)])
def test_moving_the_house_by_a_column_move_keeps_the_total(columns):
    # a column move that keeps the boxes maps the kind's grids one to one onto the moved
    # kind's: the same total through other tables, frames and orbits
    kind = _six("scattered")
    assert (count_kind_by_band_tables(kind, columns=columns).grids
            == count_kind_by_band_tables(kind).grids)


def test_a_column_move_that_breaks_the_boxes_is_refused():
    with pytest.raises(ValueError, match="permute the stacks"):
        count_kind_by_band_tables(_six("scattered"), columns=(0, 1, 3, 2, 4, 5))


def test_a_timing_sample_gives_no_total_to_believe():
    r = count_kind_by_band_tables(_six("scattered"), sample=3, seed=1)
    assert r.grids is None and r.contracted == 3 and r.band1_keys > 3


def test_plain_six_by_six_is_the_published_total():
    assert count_kind_by_band_tables("2x3").grids == 28_200_960


def test_only_the_column_moves_that_keep_the_other_bands_houses_are_used():
    # centre-dot: the house cell is the middle column of every box, so stacks may be
    # permuted and each stack's outer columns swapped (3! · 2^3), nothing else
    centre = band_house_columns("3x3+centre")
    assert len(column_symmetries(3, centre[1:])) == 48
    # girandola's bands 1 and 3 (r1c1 r1c9 r2c5; r8c5 r9c1 r9c9): left-right mirror, the
    # middle stack's outer columns, and the two columns beside each corner cell
    gir = band_house_columns("3x3+girandola")
    assert len(column_symmetries(3, [gir[0], gir[2]])) == 16
    assert len(column_symmetries(3, [None, None])) == 6 * 6 ** 3
    # "scattered", bands 2 and 3: of the 72 column moves only one besides the identity,
    # the stacks exchanged with columns 6, 4, 5 | 2, 3, 1 (each band's two cells trade
    # boxes, keeping their columns inside the box and their rows apart)
    scattered = SIX_HOUSES_BANDS["scattered"]
    assert column_symmetries(2, scattered[1:]) == [(0, 1, 2, 3, 4, 5), (5, 3, 4, 1, 2, 0)]


SIX_HOUSES_BANDS = {name: band_house_columns(_six(name)) for name in SIX_HOUSES}


@pytest.mark.parametrize("kind, why", [
    ("2x3+disjoint", "one extra house"),
    ("3x3+anti-king", "difference pairs"),
    ("2x2+x", "2 or 3 rows × 3 columns"),
    ("3x3+x", "one extra house"),
    ("1x9", "2 or 3 rows × 3 columns"),
])
def test_kinds_the_tables_do_not_carry_are_refused_by_name(kind, why):
    with pytest.raises(ValueError, match=why):
        count_kind_by_band_tables(kind)


def test_a_house_without_one_cell_per_box_is_refused():
    two_in_box = ((0, 0), (0, 1), (2, 1), (2, 4), (4, 1), (4, 4))
    kind = GridKind(as_shape("2x3"), (_House("bad", two_in_box),))
    with pytest.raises(ValueError, match="one cell in every box"):
        count_kind_by_band_tables(kind)


def test_the_enumerated_band_must_be_one_of_three():
    with pytest.raises(ValueError, match="band 0, 1 or 2"):
        count_kind_by_band_tables("2x3", first=3)


@pytest.mark.slow
def test_plain_nine_by_nine_is_the_published_total():
    # the empty house: the same tables and contraction, 44 band-1 orbits (about 30 s)
    assert count_kind_by_band_tables("3x3").grids == 6_670_903_752_021_072_936_960
