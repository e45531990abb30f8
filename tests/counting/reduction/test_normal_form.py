"""Specification of counting/reduction/normal_form.py: normalise and band_index."""
from __future__ import annotations

import numpy as np
import pytest
from reduction_oracles import (
    DIGITS,
    SUDOKU,
    is_reduced,
    is_valid_band,
    random_symmetry_of_reduction,
)

from counting.reduction.bands import reduced_bands
from counting.reduction.normal_form import band_index, normalise


@pytest.fixture(scope="module")
def bands() -> np.ndarray:
    return reduced_bands(SUDOKU)


def test_normalise_maps_every_reduced_band_to_itself(bands):
    assert np.array_equal(normalise(bands, SUDOKU), bands)


def test_normalise_undoes_relabelling_and_lexicographic_symmetries(bands):
    rng = np.random.default_rng(20260101)
    picks = rng.choice(len(bands), size=300, replace=False)
    scrambled = np.stack([random_symmetry_of_reduction(bands[i], rng) for i in picks])
    assert np.array_equal(normalise(scrambled, SUDOKU), bands[picks])


def test_normalise_is_idempotent_on_arbitrary_valid_bands(bands):
    rng = np.random.default_rng(7)
    for i in rng.choice(len(bands), size=20, replace=False):
        columns = [3 * box + c for box in rng.permutation(3) for c in rng.permutation(3)]
        relabel = np.concatenate([[0], rng.permutation(DIGITS)])
        band = relabel[bands[i][rng.permutation(3)][:, columns]]  # rows, boxes, columns, digits
        assert is_valid_band(band)
        once = normalise(band, SUDOKU)
        assert once.shape == (3, 9)
        assert is_valid_band(once) and is_reduced(once)
        assert np.array_equal(normalise(once, SUDOKU), once)
        assert band_index(once, SUDOKU) == band_index(band, SUDOKU)


def test_band_index_finds_every_reduced_band_and_a_stack_at_once(bands):
    picks = np.array([0, 1, 1234, len(bands) - 1])
    assert band_index(bands[1234], SUDOKU) == 1234
    assert band_index(bands[picks], SUDOKU).tolist() == picks.tolist()


@pytest.mark.parametrize(
    "bad, match",
    [
        (np.ones((3, 9), dtype=int), "row"),
        (np.arange(27).reshape(3, 9) % 9 + 1, "box"),
        (np.zeros((2, 9), dtype=int), "shape"),
        (np.full((3, 9), 10), "1..9"),
        (np.full((3, 9), 1.0), "integers"),
    ],
)
def test_normalise_rejects_invalid_bands(bad, match):
    with pytest.raises(ValueError, match=match):
        normalise(bad, SUDOKU)
