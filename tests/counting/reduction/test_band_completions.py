"""Specification of the recount's method for patterns3 units
(counting/reduction/band_completions.py): the same number as the band
tables' contraction, computed without them."""
from __future__ import annotations

import pytest

import bandtables.api
import bandtables.tables
from counting.reduction.band_completions import count_without_tables, witness_band
from counting.reduction.patterns3 import BandPatternUnitSpec, ThreeBandPatternReduction


def test_a_witness_band_has_the_column_sets_and_rows_that_are_permutations():
    red = ThreeBandPatternReduction("3x3")
    for spec in red.units()[::11]:
        band = witness_band(spec.column_sets, 3)
        assert all(sorted(row) == list(range(1, 10)) for row in band.tolist())
        assert [tuple(sorted(band[:, c].tolist())) for c in range(9)] == [
            tuple(sorted(s)) for s in spec.column_sets]


def test_column_sets_no_band_has_are_refused():
    with pytest.raises(ValueError, match="no band of 2 rows has the column sets"):
        witness_band([(1, 2), (1, 2), (1, 2), (3, 4), (5, 6), (3, 4)], 2)   # 1 thrice in 2 rows


def forbid_tables(monkeypatch):
    """From now on any use of the band tables or their contraction fails the test."""
    def refuse(*args, **kw):
        raise AssertionError("the band tables were used")
    for module, name in ((bandtables.api.kernels, "contract"), (bandtables.tables, "class_table"),
                         (bandtables.api, "class_table"), (bandtables.api, "load_dense")):
        monkeypatch.setattr(module, name, refuse)


@pytest.mark.parametrize("shape, ids", [("2x3", None), ("3x2", None), ("3x3", [7])])
def test_every_unit_counted_without_the_tables_equals_the_contraction(shape, ids, monkeypatch):
    red = ThreeBandPatternReduction(shape)
    units = red.units() if ids is None else [red.units()[i] for i in ids]
    by_tables = [red.count_directly(u).count for u in units]
    forbid_tables(monkeypatch)
    again = [red.count_independently(u) for u in units]
    assert again == by_tables and all(c > 0 for c in again)


def test_the_count_without_tables_reads_no_table(monkeypatch):
    forbid_tables(monkeypatch)
    sets = ((1, 2), (3, 4), (5, 6), (1, 3), (2, 5), (4, 6))
    assert count_without_tables(sets, 2) > 0


def test_4x3_says_no_independent_method_fits_and_2x3_has_one():
    sets = tuple(tuple(range(1 + 4 * b, 5 + 4 * b)) for b in range(3)) * 4
    spec = BandPatternUnitSpec("4x3", "patterns3", 0, 0, 0, 1, sets)
    red = ThreeBandPatternReduction("4x3")
    assert "no method independent of the band tables fits 4x3" in red.not_recountable(spec)
    assert red.recount_method().startswith("none")
    small = ThreeBandPatternReduction("2x3")
    assert small.not_recountable(small.units()[0]) is None
    assert "no band table" in small.recount_method()
    with pytest.raises(ValueError, match="no count without the tables"):
        count_without_tables(sets, 4)
