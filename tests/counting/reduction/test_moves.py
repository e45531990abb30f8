"""Specification of counting/reduction/moves.py: the five moves and the
"moves" ("71") classes they give."""
from __future__ import annotations

import numpy as np
import pytest
from reduction_oracles import N_REDUCED, SUDOKU, is_valid_band

from counting.reduction.bands import reduced_bands
from counting.reduction.classes import classes_from_labels
from counting.reduction.moves import (
    ALL_MOVES,
    MovesReduction,
    check_moves,
    move_images,
    move_labels,
)
from counting.reduction.normal_form import band_index


@pytest.fixture(scope="module")
def bands() -> np.ndarray:
    return reduced_bands(SUDOKU)


def test_all_five_moves_give_71_classes():
    assert len(set(move_labels(SUDOKU).tolist())) == 71
    assert len(MovesReduction(SUDOKU).classes()) == 71


def test_moves_1_to_3_alone_give_416_classes(bands):
    classes, _ = classes_from_labels(bands, move_labels(SUDOKU, (1, 2, 3)))
    assert len(classes) == 416
    assert sum(c.weight for c in classes) == N_REDUCED


def test_move_labels_are_cached_per_shape():
    assert move_labels("3x3") is move_labels(SUDOKU, [5, 4, 3, 2, 1])


def test_each_move_keeps_bands_in_their_71_class(bands):
    ids = MovesReduction(SUDOKU).class_ids()
    rng = np.random.default_rng(3)
    for i in rng.choice(len(bands), size=40, replace=False):
        for move in ALL_MOVES:
            for image in move_images(bands[i], move, SUDOKU):
                assert is_valid_band(image)
                assert ids[band_index(image, SUDOKU)] == ids[i]


@pytest.mark.parametrize("move", [4, 5])
def test_moves_4_and_5_keep_every_column_digit_set(bands, move):
    rng = np.random.default_rng(move)
    n_images = 0
    for i in rng.choice(len(bands), size=200, replace=False):
        sets = [set(col) for col in bands[i].T.tolist()]
        for image in move_images(bands[i], move, SUDOKU):
            n_images += 1
            assert [set(col) for col in image.T.tolist()] == sets
            assert not np.array_equal(image, bands[i])
    assert n_images > 0


def test_move_4_exchanges_two_rows_on_one_cycle_of_columns(bands):
    band = bands[0]  # 123456789 / 456789123 / 789123456
    # For every pair of rows the column permutation has three 3-cycles,
    # one column in each box, e.g. columns 1, 4, 7 for rows 1 and 2.
    images = move_images(band, 4, SUDOKU)
    assert len(images) == 3 * 3
    for image in images:
        rows, cols = np.nonzero(image != band)
        assert len(set(rows.tolist())) == 2 and len(rows) == 6
        assert sorted(c // 3 for c in set(cols.tolist())) == [0, 1, 2]


def test_move_4_never_swaps_two_whole_rows(bands):
    rng = np.random.default_rng(9)
    for i in rng.choice(len(bands), size=300, replace=False):
        for image in move_images(bands[i], 4, SUDOKU):
            assert 0 < (image != bands[i]).sum() < 18


@pytest.mark.parametrize("name", ["3x3", "2x3", "3x2", "5x1", "2x4"])
def test_generating_moves_give_the_same_classes_as_every_move(name):
    # The union-find uses a generating subset of each move; every instance
    # of every move must give the same classes, for the full set of moves
    # and for subsets.
    for moves in [(1, 2, 3, 4, 5), (1, 2, 3), (1, 4), (4,), (3, 5), (2, 4, 5)]:
        assert np.array_equal(move_labels(name, moves, generators=True),
                              move_labels(name, moves, generators=False))


def test_unknown_moves_are_rejected():
    with pytest.raises(ValueError, match=r"unknown move\(s\) \[6\]"):
        check_moves((1, 6))
    with pytest.raises(ValueError, match="move"):
        move_labels(SUDOKU, (0,))
    with pytest.raises(ValueError, match="move"):
        move_images(reduced_bands(SUDOKU)[0], 7, SUDOKU)
