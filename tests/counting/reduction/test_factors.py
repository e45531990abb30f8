"""Specification of counting/reduction/factors.py: each factor is the
documented product and is checked against brute-force counts."""
from __future__ import annotations

import math

import pytest
from reduction_oracles import (
    SMALL_SHAPES,
    SUDOKU,
    band_cells,
    brute_force_bands_with_box1_standard,
    brute_force_grids,
    count_with,
    shape_of,
)

from counting.reduction.bands import reduced_bands
from counting.reduction.factors import (
    band_factor,
    column_factor,
    factorisation,
    relabel_factor,
)
from counting.reduction.forms import column_forms


def test_factors_are_9_factorial_and_two_times_72():
    f = factorisation(SUDOKU)
    assert (f.relabel, f.band, f.column) == (362_880, 72, 72)
    assert f.product == 362_880 * 72 * 72
    assert (relabel_factor(SUDOKU), band_factor(SUDOKU), column_factor(SUDOKU)) == \
        (362_880, 72, 72)


def test_factors_carry_the_labels_gridcount_count_prints():
    assert factorisation("3x3").factors == (
        ("relabel box 1 (N!)", 362_880), ("reduce band 1", 72), ("reduce column 1", 72))


@pytest.mark.parametrize("shape", ["3", "axb", "3x3x3", 33, "3x", "0x3", "abc", "x3", "-1x3"])
def test_malformed_shapes_are_rejected(shape):
    with pytest.raises(ValueError, match="bad box shape"):
        factorisation(shape)


def test_shape_factors_are_the_documented_products():
    for name in SMALL_SHAPES + ["2x4", "4x2", "3x3", "1x8", "8x1", "3x4"]:
        r, c, n = shape_of(name)
        f = factorisation(name)
        fact = math.factorial
        assert f.relabel == fact(n)
        assert f.band == fact(c) ** (r - 1) * fact(r - 1)
        assert f.column == fact(r) ** (c - 1) * fact(c - 1)
    # Latin squares: 1xN fixes row 1 (N!) and orders rows 2..N; Nx1 fixes
    # column 1 and orders columns 2..N -- the classical N!(N-1)! both ways.
    assert (factorisation("1x6").band, factorisation("1x6").column) == (1, 120)
    assert (factorisation("6x1").band, factorisation("6x1").column) == (120, 1)


@pytest.mark.parametrize("name", SMALL_SHAPES)
def test_relabel_factor_against_brute_force(name):
    r, c, n = shape_of(name)
    box1 = {(i, j): i * c + j + 1 for i in range(r) for j in range(c)}
    assert brute_force_grids(name) == factorisation(name).relabel * count_with(name, box1)


@pytest.mark.parametrize("name", SMALL_SHAPES + ["6x1", "2x4", pytest.param("4x2", marks=pytest.mark.slow)])
def test_band_factor_against_brute_force(name):
    bands = reduced_bands(name)
    assert brute_force_bands_with_box1_standard(name) == factorisation(name).band * len(bands)
    assert len({b.tobytes() for b in bands}) == len(bands)


@pytest.mark.parametrize("name", SMALL_SHAPES)
def test_column_factor_against_brute_force(name):
    for band in reduced_bands(name)[:12]:
        below = sum(count_with(name, {**band_cells(band),
                                      **{(len(band) + i, 0): d for i, d in enumerate(form)}})
                    for form in column_forms(band, name))
        assert count_with(name, band_cells(band)) == factorisation(name).column * below
