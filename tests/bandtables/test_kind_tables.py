"""Three-band tables that carry a band's house digits (bandtables/kind_tables.py) count a
kind with one extra house of one cell per box as brute force does (the 6×6 houses of
``tests/one_house_samples.py``, made for these tests)."""
import pytest

from bandtables.kind_count import count_kind_by_band_tables
from bandtables.kind_tables import (KindBandTables, band_house_columns, column_symmetries,
                                    default_first)
from counting.reduction.kind_bands import count_by_bands
from grids.kind import GridKind
from grids.shape import as_shape
from one_house_samples import SIX_HOUSES, House, six, six_brute_total

_six = six


@pytest.mark.parametrize("name", sorted(SIX_HOUSES))
@pytest.mark.parametrize("first", [0, 1, 2])
def test_a_six_by_six_house_is_counted_as_brute_force_counts_it(name, first):
    assert count_kind_by_band_tables(_six(name), first=first).grids == six_brute_total(name)


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
    kind = GridKind(as_shape("2x3"), (House("bad", two_in_box),))
    with pytest.raises(ValueError, match="one cell in every box"):
        count_kind_by_band_tables(kind)


def test_the_enumerated_band_must_be_one_of_three():
    with pytest.raises(ValueError, match="band 0, 1 or 2"):
        count_kind_by_band_tables("2x3", first=3)


@pytest.mark.slow
def test_plain_nine_by_nine_is_the_published_total():
    # the empty house: the same tables and contraction, 44 band-1 orbits (about 30 s)
    assert count_kind_by_band_tables("3x3").grids == 6_670_903_752_021_072_936_960


# ---------------------------------------------------------------- KindBandTables, in parts
@pytest.mark.parametrize("name", sorted(SIX_HOUSES))
def test_the_orbits_contracted_in_any_parts_add_up_to_the_total(name):
    kt = KindBandTables(_six(name))
    keys, mults = kt.orbits
    parts = [kt.count(keys[i:i + 3], mults[i:i + 3]) for i in range(0, len(keys), 3)]
    assert kt.factor * sum(parts) == six_brute_total(name)
    assert kt.count([], []) == 0


def test_the_band_enumerated_by_default_lets_the_other_two_share_a_table():
    # centre-dot: every band's house cell is its box's centre, so band 1 (the others
    # alike); girandola and asterisk: bands 1 and 3 are alike, so band 2
    assert [default_first(k) for k in ("3x3+centre", "3x3+girandola", "3x3+asterisk",
                                       "3x3")] == [0, 1, 1, 0]
    # "scattered" has no two bands alike: band 1, summed whole
    assert default_first(_six("scattered")) == 0


@pytest.mark.parametrize("kind", ["2x3", "middles", "scattered"])
def test_the_table_bytes_said_before_the_tables_are_made_are_theirs(kind):
    kt = KindBandTables(_six(kind) if kind in SIX_HOUSES else kind)
    said = kt.table_bytes
    kt.build_tables()
    made = {id(t): t.nbytes for t in kt.tables.values()}
    assert said == sum(made.values()) and kt.worker_bytes > said


def test_a_band_one_key_decodes_to_the_column_sets_of_a_band():
    # every column of band 1 holds R digits, every digit in one column of each box
    kt = KindBandTables(_six("scattered"))
    for key in kt.orbits[0]:
        cols, house = kt.band1_sets(int(key))
        assert [bin(m).count("1") for m in cols] == [2] * 6
        assert all(cols[3 * s] | cols[3 * s + 1] | cols[3 * s + 2] == 0b111111 for s in range(2))
        assert bin(house).count("1") == 2
