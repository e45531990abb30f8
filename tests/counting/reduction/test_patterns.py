"""Specification of counting/reduction/patterns.py: column-set patterns and
the "patterns" ("44") classes."""
from __future__ import annotations

import numpy as np
import pytest
from reduction_oracles import DIGITS, N_CLASSES, SUDOKU

from counting.reduction.bands import reduced_bands
from counting.reduction.moves import MovesReduction
from counting.reduction.patterns import (
    PatternsReduction,
    canonical_column_set_pattern,
    column_set_pattern,
    pattern_labels,
)


@pytest.fixture(scope="module")
def bands() -> np.ndarray:
    return reduced_bands(SUDOKU)


def test_column_set_pattern_of_a_reduced_band_has_standard_box1(bands):
    pattern = column_set_pattern(bands[123], SUDOKU)
    assert pattern[0] == ((1, 4, 7), (2, 5, 8), (3, 6, 9))
    assert sorted(d for box in pattern for col in box for d in col) == sorted(list(DIGITS) * 3)


def test_44_classes_match_the_brute_force_canonical_pattern(bands):
    """Each 44-class has its own canonical pattern (REDUCTION.md's definition),
    and sampled bands share the canonical pattern of their class.
    """
    reduction = PatternsReduction(SUDOKU)
    cs = reduction.classes()
    assert len(cs) == N_CLASSES["44"]
    canon = [canonical_column_set_pattern(c.representative, SUDOKU) for c in cs]
    assert len(set(canon)) == len(cs)
    ids = reduction.class_ids()
    rng = np.random.default_rng(44)
    for i in rng.choice(len(bands), size=150, replace=False):
        assert canonical_column_set_pattern(bands[i], SUDOKU) == canon[ids[i]]


@pytest.mark.parametrize("name", ["2x3", "3x2", "2x4", "5x1"])
def test_patterns_classes_match_the_brute_force_canonical_pattern(name):
    reduction = PatternsReduction(name)
    cs = reduction.classes()
    canon = [canonical_column_set_pattern(c.representative, name) for c in cs]
    assert len(set(canon)) == len(cs)
    bands, ids = reduced_bands(name), reduction.class_ids()
    for i in range(0, len(bands), max(1, len(bands) // 40)):
        assert canonical_column_set_pattern(bands[i], name) == canon[ids[i]]


def test_71_classes_refine_44_classes():
    ids71, ids44 = MovesReduction(SUDOKU).class_ids(), PatternsReduction(SUDOKU).class_ids()
    for k in range(N_CLASSES["71"]):
        assert len(set(ids44[ids71 == k].tolist())) == 1


def test_pattern_labels_are_cached_per_shape():
    assert pattern_labels("3x3") is pattern_labels(SUDOKU)
