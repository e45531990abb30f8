"""Specification of counting/reduction/bands.py: the reduced bands."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from reduction_oracles import (
    DIGITS,
    N_REDUCED,
    SUDOKU,
    is_reduced,
    strictly_increasing_lexicographically,
)

from counting.reduction.bands import (
    MAX_BANDS,
    count_row1_completions,
    reduced_bands,
    row1_forms,
)


@pytest.fixture(scope="module")
def bands() -> np.ndarray:
    return reduced_bands(SUDOKU)


def test_there_are_36288_reduced_bands(bands):
    assert bands.shape == (N_REDUCED, 3, 9)
    assert bands.dtype == np.uint8


def test_every_reduced_band_is_a_valid_reduced_band(bands):
    assert np.array_equal(np.sort(bands, axis=2), np.broadcast_to(DIGITS, bands.shape))
    boxes = bands.reshape(-1, 3, 3, 3).transpose(0, 2, 1, 3).reshape(-1, 3, 9)
    assert np.array_equal(np.sort(boxes, axis=2), np.broadcast_to(DIGITS, boxes.shape))
    assert all(is_reduced(b) for b in bands[:: 97])  # spot check of the reduction rules
    row1 = bands[:, 0, :]
    assert np.all(np.diff(row1[:, 3:6], axis=1) > 0) and np.all(np.diff(row1[:, 6:9], axis=1) > 0)
    assert np.all(row1[:, 3] < row1[:, 6])
    assert np.all(bands[:, :, :3] == np.arange(1, 10).reshape(3, 3))


def test_reduced_bands_are_in_strict_lexicographic_order(bands):
    assert strictly_increasing_lexicographically(bands.reshape(len(bands), -1))


def test_reduced_bands_are_cached_per_shape_and_read_only(bands):
    assert reduced_bands(SUDOKU) is bands
    assert reduced_bands("3x3") is bands  # text is parsed to the same Shape key
    with pytest.raises(ValueError):
        bands[0, 0, 0] = 9


def test_all_bands_with_box1_fixed_number_72_times_the_reduced_ones():
    """Count every band with box 1 = 123/456/789, independently of the reduction.

    Row i's cells 4-9 are a permutation of the digits missing from box 1's
    row i.  All (row 1, row 2) pairs with disjoint box-2 and box-3 digits are
    enumerated; the row-3 permutations fitting a pair are those supplying
    exactly the digits boxes 2 and 3 still miss, counted by their digit sets.
    """
    def box_sets(digits):  # bit sets of box 2 and box 3 for all 720 permutations
        bits = 1 << np.array(list(itertools.permutations(digits)))
        return bits[:, :3].sum(axis=1), bits[:, 3:].sum(axis=1)

    (a2, a3), (b2, b3), (c2, c3) = (
        box_sets([4, 5, 6, 7, 8, 9]), box_sets([1, 2, 3, 7, 8, 9]), box_sets([1, 2, 3, 4, 5, 6])
    )
    i, j = np.nonzero(((a2[:, None] & b2) == 0) & ((a3[:, None] & b3) == 0))
    everything = sum(1 << d for d in range(1, 10))
    wanted = (everything & ~(a2[i] | b2[j])) * 1024 + (everything & ~(a3[i] | b3[j]))
    row3_keys, row3_counts = np.unique(c2 * 1024 + c3, return_counts=True)
    pos = np.minimum(np.searchsorted(row3_keys, wanted), len(row3_keys) - 1)
    total = int(row3_counts[pos][row3_keys[pos] == wanted].sum())
    assert total == 2_612_736 == 72 * N_REDUCED


def test_ten_row1_forms_in_lexicographic_order():
    forms = row1_forms(SUDOKU)
    assert len(forms) == 10
    assert forms == sorted(forms) and len(set(forms)) == 10
    assert forms[0] == (4, 5, 6, 7, 8, 9)
    for f in forms:
        assert sorted(f) == [4, 5, 6, 7, 8, 9]
        assert list(f[:3]) == sorted(f[:3]) and list(f[3:]) == sorted(f[3:]) and f[0] < f[3]


def test_row1_forms_are_exactly_the_row1s_of_reduced_bands(bands):
    seen = sorted({tuple(r) for r in bands[:, 0, 3:].tolist()})
    assert seen == row1_forms(SUDOKU)


def test_completions_of_rows_2_and_3_per_row1_form():
    counts = [count_row1_completions(f, SUDOKU) for f in row1_forms(SUDOKU)]
    assert counts == [1_296] + [3_888] * 9
    assert sum(counts) == N_REDUCED


def test_row1_completions_reject_a_non_form():
    with pytest.raises(ValueError, match="permutation"):
        count_row1_completions((1, 2, 3, 4, 5, 6), SUDOKU)


def test_degenerate_shapes_have_one_reduced_band():
    for name in ("1x1", "1x2", "1x5", "1x8"):
        assert len(reduced_bands(name)) == 1


def test_a_band_too_large_to_enumerate_is_refused_at_once():
    with pytest.raises(ValueError, match="too large to enumerate.*1x7"):
        reduced_bands("7x1")


def test_a_shape_with_too_many_reduced_bands_is_refused_before_memory_runs_out():
    # 3x4: more than MAX_BANDS reduced bands (checked while enumerating)
    with pytest.raises(ValueError, match=f"more than {MAX_BANDS:,} reduced bands"):
        reduced_bands("3x4")
