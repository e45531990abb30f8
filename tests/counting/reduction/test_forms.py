"""Specification of counting/reduction/forms.py: column 1 below band 1."""
from __future__ import annotations

import numpy as np
from reduction_oracles import DIGITS, N_REDUCED, SUDOKU

from counting.reduction.bands import reduced_bands
from counting.reduction.forms import column_forms, unit_givens


def test_ten_column_forms_each_a_valid_split():
    bands = reduced_bands(SUDOKU)
    for band in bands[[0, 5_000, 20_000, N_REDUCED - 1]]:
        forms = column_forms(band, SUDOKU)
        assert len(forms) == 10
        assert forms == sorted(forms) and len(set(forms)) == 10
        missing = sorted(set(DIGITS.tolist()) - set(band[:, 0].tolist()))
        for f in forms:
            assert sorted(f) == missing
            assert list(f[:3]) == sorted(f[:3]) and list(f[3:]) == sorted(f[3:])
            assert f[0] < f[3]


def test_column_forms_of_a_reduced_band():
    assert column_forms(reduced_bands(SUDOKU)[0], SUDOKU)[:2] == \
        [(2, 3, 5, 6, 8, 9), (2, 3, 6, 5, 8, 9)]


def test_nothing_lies_below_band_1_of_a_column_latin_square():
    # Nx1: band 1 is the whole square
    assert column_forms(reduced_bands("4x1")[0], "4x1") == [()]


def test_givens_are_band_1_in_reading_order_then_column_1_below_it():
    band = reduced_bands(SUDOKU)[0]
    form = column_forms(band, SUDOKU)[0]
    givens = unit_givens(band, form, SUDOKU)
    assert givens[:9] == tuple((0, c, c + 1) for c in range(9))
    assert givens[27:] == tuple((3 + i, 0, d) for i, d in enumerate(form))
    grid = np.zeros((9, 9), dtype=int)
    for r, c, d in givens:
        grid[r, c] = d
    assert np.array_equal(grid[:3], band)
