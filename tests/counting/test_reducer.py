"""Specification of counting/reducer.py: the 9×9 reduction of REDUCTION.md.

The literal numbers here (36,288, 71, 44, …) are the reference values of
REDUCTION.md; the reducer computes them and never types them in.
"""
from __future__ import annotations

import functools
import itertools
import math

import numpy as np
import pytest

from counting import reducer
from counting.reducer import (
    BandClass,
    band_class_ids,
    band_index,
    canonical_column_set_pattern,
    class_totals,
    classes,
    column_forms,
    column_set_pattern,
    count_row1_completions,
    factorisation,
    move_images,
    n_units,
    normalise,
    reduced_bands,
    row1_forms,
    total_from_unit_counts,
    unit,
    units,
)
from counting.units import UnitSpec
from dlx import ExactCover
from dlx.sudoku import Sudoku

N_REDUCED = 36_288
N_CLASSES = {"71": 71, "44": 44}
DIGITS = np.arange(1, 10)


# ---------------------------------------------------------------------------
# Helpers (independent of the reducer)
# ---------------------------------------------------------------------------

def is_valid_band(band: np.ndarray) -> bool:
    """Every row and every box holds 1..9 once."""
    rows_ok = all(sorted(row) == list(DIGITS) for row in band.tolist())
    boxes_ok = all(sorted(band[:, 3 * b:3 * b + 3].ravel().tolist()) == list(DIGITS) for b in range(3))
    return rows_ok and boxes_ok


def is_reduced(band: np.ndarray) -> bool:
    """Box 1 is 123/456/789 and the band is lexicographically reduced."""
    row1 = band[0].tolist()
    return (
        band[:, :3].tolist() == [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
        and row1[3:6] == sorted(row1[3:6])
        and row1[6:9] == sorted(row1[6:9])
        and row1[3] < row1[6]
    )


def strictly_increasing_lexicographically(flat: np.ndarray) -> bool:
    """Consecutive rows of ``flat`` increase in lexicographic order."""
    a, b = flat[:-1].astype(int), flat[1:].astype(int)
    differ = a != b
    first = differ.argmax(axis=1)
    rows = np.arange(len(a))
    return bool(np.all(differ.any(axis=1)) and np.all(a[rows, first] < b[rows, first]))


def random_symmetry_of_reduction(band: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Apply a random element of the group that normalise() undoes:
    a digit relabelling, column orders inside boxes 2 and 3, and a box 2/3 swap.
    """
    relabel = np.concatenate([[0], rng.permutation(DIGITS)])
    cols = list(range(3))
    boxes = [3 + c for c in rng.permutation(3)], [6 + c for c in rng.permutation(3)]
    if rng.integers(2):
        boxes = boxes[::-1]
    return relabel[band[:, cols + boxes[0] + boxes[1]]]


@pytest.fixture(scope="module")
def bands() -> np.ndarray:
    return reduced_bands()


@pytest.fixture(scope="module", params=["71", "44"])
def reduction(request) -> str:
    return request.param


# ---------------------------------------------------------------------------
# Factors
# ---------------------------------------------------------------------------

def test_factors_are_9_factorial_and_two_times_72():
    f = factorisation("3x3")
    assert (f.relabel, f.band, f.column) == (362_880, 72, 72)
    assert f.product == 362_880 * 72 * 72
    assert (reducer.relabel_factor(), reducer.band_factor(), reducer.column_factor()) == (362_880, 72, 72)


@pytest.mark.parametrize("shape", ["3", "axb", "3x3x3", 33, "3x", "0x3", "abc", "x3", "-1x3"])
def test_malformed_shapes_are_rejected(shape):
    with pytest.raises(ValueError, match="bad box shape"):
        reducer.parse_shape(shape)
    with pytest.raises(ValueError, match="bad box shape"):
        factorisation(shape)


def test_shapes_are_parsed_and_the_size_rule_needs_force():
    assert reducer.parse_shape("2x4") == reducer.BoxShape(2, 4)
    assert reducer.parse_shape(" 4X2 ").name == "4x2"
    assert reducer.check_shape("4x4").n == 16
    assert reducer.check_shape("1x16").n == 16
    for big in ("20x20", "17x1", "3x6"):
        with pytest.raises(ValueError, match="--force"):
            reducer.check_shape(big)
    assert reducer.check_shape("20x20", force=True).n == 400


# ---------------------------------------------------------------------------
# Reduced bands
# ---------------------------------------------------------------------------

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


def test_reduced_bands_are_cached_read_only(bands):
    assert reduced_bands() is bands
    with pytest.raises(ValueError):
        bands[0, 0, 0] = 9


def test_all_bands_with_box1_fixed_number_72_times_the_reduced_ones():
    """Count every band with box 1 = 123/456/789, independently of the reducer.

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
    forms = row1_forms()
    assert len(forms) == 10
    assert forms == sorted(forms) and len(set(forms)) == 10
    assert forms[0] == (4, 5, 6, 7, 8, 9)
    for f in forms:
        assert sorted(f) == [4, 5, 6, 7, 8, 9]
        assert list(f[:3]) == sorted(f[:3]) and list(f[3:]) == sorted(f[3:]) and f[0] < f[3]


def test_row1_forms_are_exactly_the_row1s_of_reduced_bands(bands):
    seen = sorted({tuple(r) for r in bands[:, 0, 3:].tolist()})
    assert seen == row1_forms()


def test_completions_of_rows_2_and_3_per_row1_form():
    counts = [count_row1_completions(f) for f in row1_forms()]
    assert counts == [1_296] + [3_888] * 9
    assert sum(counts) == N_REDUCED


def test_row1_completions_reject_a_non_form():
    with pytest.raises(ValueError, match="permutation"):
        count_row1_completions((1, 2, 3, 4, 5, 6))


# ---------------------------------------------------------------------------
# normalise
# ---------------------------------------------------------------------------

def test_normalise_maps_every_reduced_band_to_itself(bands):
    assert np.array_equal(normalise(bands), bands)


def test_normalise_undoes_relabelling_and_lexicographic_symmetries(bands):
    rng = np.random.default_rng(20260101)
    picks = rng.choice(len(bands), size=300, replace=False)
    scrambled = np.stack([random_symmetry_of_reduction(bands[i], rng) for i in picks])
    assert np.array_equal(normalise(scrambled), bands[picks])


def test_normalise_is_idempotent_on_arbitrary_valid_bands(bands):
    rng = np.random.default_rng(7)
    for i in rng.choice(len(bands), size=20, replace=False):
        columns = [3 * box + c for box in rng.permutation(3) for c in rng.permutation(3)]
        relabel = np.concatenate([[0], rng.permutation(DIGITS)])
        band = relabel[bands[i][rng.permutation(3)][:, columns]]  # rows, boxes, columns, digits
        assert is_valid_band(band)
        once = normalise(band)
        assert once.shape == (3, 9)
        assert is_valid_band(once) and is_reduced(once)
        assert np.array_equal(normalise(once), once)
        assert band_index(once) == band_index(band)


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
        normalise(bad)


# ---------------------------------------------------------------------------
# Classes
# ---------------------------------------------------------------------------

def test_class_counts_and_weights(reduction):
    cs = classes(reduction)
    assert len(cs) == N_CLASSES[reduction]
    assert sum(c.weight for c in cs) == N_REDUCED
    assert all(isinstance(c, BandClass) and c.weight > 0 for c in cs)
    assert [c.class_id for c in cs] == list(range(len(cs)))


def test_classes_are_sorted_by_representative(reduction):
    reps = [c.representative for c in classes(reduction)]
    assert reps == sorted(reps)


def test_representative_is_the_smallest_normalised_member(reduction, bands):
    ids = band_class_ids(reduction)
    for c in classes(reduction):
        members = np.flatnonzero(ids == c.class_id)
        assert len(members) == c.weight
        assert c.representative == tuple(map(tuple, bands[members[0]].tolist()))  # bands are sorted
        assert np.array_equal(normalise(c.array()), c.array())


def test_moves_1_to_3_alone_give_416_classes():
    cs = classes("71", moves=(1, 2, 3))
    assert len(cs) == 416
    assert sum(c.weight for c in cs) == N_REDUCED


def test_each_move_keeps_bands_in_their_71_class(bands):
    ids = band_class_ids("71")
    rng = np.random.default_rng(3)
    for i in rng.choice(len(bands), size=40, replace=False):
        for move in reducer.ALL_MOVES:
            for image in move_images(bands[i], move):
                assert is_valid_band(image)
                assert ids[band_index(image)] == ids[i]


@pytest.mark.parametrize("move", [4, 5])
def test_moves_4_and_5_keep_every_column_digit_set(bands, move):
    rng = np.random.default_rng(move)
    n_images = 0
    for i in rng.choice(len(bands), size=200, replace=False):
        sets = [set(col) for col in bands[i].T.tolist()]
        for image in move_images(bands[i], move):
            n_images += 1
            assert [set(col) for col in image.T.tolist()] == sets
            assert not np.array_equal(image, bands[i])
    assert n_images > 0


def test_move_4_exchanges_two_rows_on_one_cycle_of_columns():
    band = reduced_bands()[0]  # 123456789 / 456789123 / 789123456
    # For every pair of rows the column permutation has three 3-cycles,
    # one column in each box, e.g. columns 1, 4, 7 for rows 1 and 2.
    images = move_images(band, 4)
    assert len(images) == 3 * 3
    for image in images:
        rows, cols = np.nonzero(image != band)
        assert len(set(rows.tolist())) == 2 and len(rows) == 6
        assert sorted(c // 3 for c in set(cols.tolist())) == [0, 1, 2]


def test_move_4_never_swaps_two_whole_rows(bands):
    rng = np.random.default_rng(9)
    for i in rng.choice(len(bands), size=300, replace=False):
        for image in move_images(bands[i], 4):
            assert 0 < (image != bands[i]).sum() < 18


def test_71_classes_refine_44_classes():
    ids71, ids44 = band_class_ids("71"), band_class_ids("44")
    for k in range(N_CLASSES["71"]):
        assert len(set(ids44[ids71 == k].tolist())) == 1


def test_44_classes_match_the_brute_force_canonical_pattern(bands):
    """Each 44-class has its own canonical pattern (REDUCTION.md's definition),
    and sampled bands share the canonical pattern of their class.
    """
    cs = classes("44")
    canon = [canonical_column_set_pattern(c.representative) for c in cs]
    assert len(set(canon)) == len(cs)
    ids = band_class_ids("44")
    rng = np.random.default_rng(44)
    for i in rng.choice(len(bands), size=150, replace=False):
        assert canonical_column_set_pattern(bands[i]) == canon[ids[i]]


def test_column_set_pattern_of_a_reduced_band_has_standard_box1(bands):
    pattern = column_set_pattern(bands[123])
    assert pattern[0] == ((1, 4, 7), (2, 5, 8), (3, 6, 9))
    assert sorted(d for box in pattern for col in box for d in col) == sorted(list(DIGITS) * 3)


def test_bad_reduction_names_and_moves_are_rejected():
    with pytest.raises(ValueError, match="'moves', 'patterns'.*'71', '44'"):
        classes("72")
    with pytest.raises(ValueError, match="'71', '44'"):
        units("none")
    with pytest.raises(ValueError, match="move"):
        classes("71", moves=(1, 6))
    with pytest.raises(ValueError, match="moves apply only"):
        classes("44", moves=(1,))
    with pytest.raises(ValueError, match="moves apply only"):
        classes("patterns", moves=(1,), shape="2x3")


def test_71_and_44_are_the_3x3_names_of_moves_and_patterns():
    assert reducer.reduction_name("moves") == reducer.default_reduction() == "71"
    assert reducer.reduction_name("patterns") == "44"
    assert classes("moves") == classes("71") and classes("patterns") == classes("44")
    assert {u.reduction for u in units("moves")} == {"71"}
    assert {u.reduction for u in units("patterns")} == {"44"}
    assert units(None) == units("71")


@pytest.mark.parametrize("alias", ["71", "44"])
def test_71_and_44_are_refused_for_other_shapes(alias):
    with pytest.raises(ValueError, match=f"names the {alias} classes of 3x3"):
        classes(alias, shape="2x3")
    with pytest.raises(ValueError, match="use 'moves'|use 'patterns'"):
        units(alias, "2x4")


def test_returned_class_lists_do_not_share_state():
    first = classes("71")
    first.clear()
    assert len(classes("71")) == N_CLASSES["71"]


# ---------------------------------------------------------------------------
# Column forms
# ---------------------------------------------------------------------------

def test_ten_column_forms_each_a_valid_split(bands):
    for band in bands[[0, 5_000, 20_000, N_REDUCED - 1]]:
        forms = column_forms(band)
        assert len(forms) == 10
        assert forms == sorted(forms) and len(set(forms)) == 10
        missing = sorted(set(DIGITS.tolist()) - set(band[:, 0].tolist()))
        for f in forms:
            assert sorted(f) == missing
            assert list(f[:3]) == sorted(f[:3]) and list(f[3:]) == sorted(f[3:])
            assert f[0] < f[3]


def test_column_forms_of_a_reduced_band():
    assert column_forms(reduced_bands()[0])[:2] == [(2, 3, 5, 6, 8, 9), (2, 3, 6, 5, 8, 9)]


# ---------------------------------------------------------------------------
# Units
# ---------------------------------------------------------------------------

def test_unit_counts_and_id_formula(reduction):
    us = units(reduction)
    n_classes = N_CLASSES[reduction]
    assert len(us) == n_units(reduction) == 10 * n_classes
    cs = classes(reduction)
    for u in us:
        assert isinstance(u, UnitSpec)
        assert u.unit_id == u.class_id * 10 + u.form_id
        assert 0 <= u.form_id < 10
        assert (u.shape, u.reduction) == ("3x3", reduction)
        assert u.weight == cs[u.class_id].weight
    assert [u.unit_id for u in us] == list(range(len(us)))


def test_unit_givens_are_the_band_and_the_column_form(reduction):
    cs = classes(reduction)
    for u in units(reduction)[::37]:
        assert len(u.givens) == 27 + 6
        grid = np.zeros((9, 9), dtype=int)
        for r, c, d in u.givens:
            assert 0 <= r < 9 and 0 <= c < 9 and 1 <= d <= 9
            assert grid[r, c] == 0
            grid[r, c] = d
        assert np.array_equal(grid[:3], cs[u.class_id].array())
        assert tuple(grid[3:, 0]) == column_forms(cs[u.class_id].representative)[u.form_id]


def test_unit_by_id_and_out_of_range_ids():
    assert unit("71", 0) == units("71")[0]
    assert unit("44", 439) == units("44")[-1]
    for bad in (-1, 710):
        with pytest.raises(ValueError, match=r"0\.\.709"):
            unit("71", bad)
    with pytest.raises(ValueError, match=r"0\.\.439"):
        unit("44", 440)
    with pytest.raises(ValueError, match="int"):
        unit("71", "3")


# ---------------------------------------------------------------------------
# Totals
# ---------------------------------------------------------------------------

def test_total_of_all_ones(reduction):
    ones = {u.unit_id: 1 for u in units(reduction)}
    assert total_from_unit_counts(ones, reduction) == math.factorial(9) * 72 * 72 * 10 * N_REDUCED


def test_total_weights_each_class_sum_by_its_weight(reduction):
    counts = {u.unit_id: 1_000_003 * u.unit_id + 7 for u in units(reduction)}
    cs = classes(reduction)
    expected_sums = {c.class_id: sum(counts[c.class_id * 10 + f] for f in range(10)) for c in cs}
    assert class_totals(counts, reduction) == expected_sums
    expected = 362_880 * 72 * 72 * sum(c.weight * expected_sums[c.class_id] for c in cs)
    total = total_from_unit_counts(counts, reduction)
    assert isinstance(total, int) and total == expected


def test_totals_are_exact_beyond_64_bits():
    huge = {u.unit_id: 2**70 for u in units("44")}
    assert total_from_unit_counts(huge, "44") == 362_880 * 72 * 72 * 10 * N_REDUCED * 2**70


def test_incomplete_or_unknown_counts_are_rejected():
    counts = {u.unit_id: 1 for u in units("71")}
    del counts[5], counts[700]
    with pytest.raises(ValueError, match=r"2 unit id\(s\) missing: 5, 700"):
        total_from_unit_counts(counts)
    with pytest.raises(ValueError, match="missing"):
        class_totals(counts)
    counts.update({5: 1, 700: 1, 710: 1})
    with pytest.raises(ValueError, match="unknown unit id 710"):
        total_from_unit_counts(counts)
    del counts[710]
    counts[3] = -1
    with pytest.raises(ValueError, match="non-negative"):
        total_from_unit_counts(counts)


# ---------------------------------------------------------------------------
# Every box shape: each factor and each reduction against brute force
# ---------------------------------------------------------------------------
# "Brute force" counts whole grids (or whole bands) with no symmetry
# reduction at all: the engine on the plain encoding, or an exact cover of
# one band built here.  The shapes are those small enough for that.

SMALL_SHAPES = ["1x1", "1x2", "2x1", "1x3", "3x1", "1x4", "4x1", "1x5", "5x1",
                "2x2", "2x3", "3x2"]
REDUCTION_KINDS = ["moves", "patterns"]


def shape_of(name: str) -> tuple[int, int, int]:
    r, c = (int(x) for x in name.split("x"))
    return r, c, r * c


@functools.lru_cache(maxsize=None)
def brute_force_grids(name: str) -> int:
    """Every grid of the shape, no reduction: plain dancing links for the
    smallest shapes, memoized row-by-row counting for 2x3 and 3x2 (plain
    DLX takes ~25 s there; the slow test below does that too)."""
    r, c, n = shape_of(name)
    if n <= 5:
        return Sudoku(r, c).count()
    return Sudoku(r, c).exact_cover(priority="rows").count(memo=True)


def count_with(name: str, cells: dict[tuple[int, int], int]) -> int:
    """Completions of a partial grid given as {(row, col): digit}, plain DLX."""
    r, c, n = shape_of(name)
    sud = Sudoku(r, c)
    grid = np.zeros((n, n), dtype=int)
    for (i, j), d in cells.items():
        grid[i, j] = d
    return sud.count(grid)


def band_cells(band) -> dict[tuple[int, int], int]:
    return {(i, j): int(d) for i, row in enumerate(np.asarray(band).tolist())
            for j, d in enumerate(row)}


@functools.lru_cache(maxsize=None)
def brute_force_bands_with_box1_standard(name: str) -> int:
    """Bands (R rows) with box 1 = 1..N in reading order, by an exact cover
    of the band alone: items cell, row-digit and box-digit (inside a band a
    column lies in one box, so the box items cover the columns)."""
    r, c, n = shape_of(name)
    options, given = [], []
    for i in range(r):
        for j in range(n):
            for d in range(n):
                box = j // c
                options.append([i * n + j, r * n + i * n + d, 2 * r * n + box * n + d])
                if j < c and d == i * c + j:
                    given.append(len(options) - 1)
    return ExactCover(options, n_primary=3 * r * n).count(given=given)


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


@pytest.mark.parametrize("name", SMALL_SHAPES + ["6x1", "2x4", "4x2"])
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


@pytest.mark.parametrize("kind", REDUCTION_KINDS)
@pytest.mark.parametrize("name", SMALL_SHAPES)
def test_every_class_member_has_its_representatives_completions(name, kind):
    bands = reduced_bands(name)
    ids = band_class_ids(kind, shape=name)
    cs = classes(kind, shape=name)
    assert sum(c.weight for c in cs) == len(bands)
    rep_counts = [count_with(name, band_cells(c.representative)) for c in cs]
    for band, k in zip(bands, ids):
        assert count_with(name, band_cells(band)) == rep_counts[k]


@pytest.mark.parametrize("kind", REDUCTION_KINDS)
@pytest.mark.parametrize("name", SMALL_SHAPES)
def test_reduced_count_times_factors_is_the_brute_force_count(name, kind):
    us = units(kind, name)
    counts = {u.unit_id: count_with(name, {(i, j): d for i, j, d in u.givens}) for u in us}
    assert total_from_unit_counts(counts, kind, name) == brute_force_grids(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["2x3", "3x2"])
def test_6x6_brute_force_with_plain_dancing_links(name):
    r, c, _ = shape_of(name)
    assert Sudoku(r, c).count() == brute_force_grids(name)


@pytest.mark.parametrize("name", SMALL_SHAPES + ["6x1", "2x4", "4x2"])
def test_units_of_every_shape(name):
    r, c, n = shape_of(name)
    for kind in REDUCTION_KINDS:
        us = units(kind, name)
        cs = classes(kind, shape=name)
        n_forms = len(column_forms(cs[0].representative, name))
        assert len(us) == n_units(kind, name) == len(cs) * n_forms
        for u in us:
            assert (u.shape, u.reduction) == (name, kind)
            assert u.unit_id == u.class_id * n_forms + u.form_id
            assert len(u.givens) == r * n + (n - r)
            assert {(i, j) for i, j, _ in u.givens} == \
                {(i, j) for i in range(r) for j in range(n)} | {(i, 0) for i in range(r, n)}


def test_degenerate_shapes_have_one_unit():
    for name in ("1x1", "1x2", "1x5", "1x8"):
        assert n_units(None, name) == 1 and len(reduced_bands(name)) == 1
    assert units(None, "1x1")[0].givens == ((0, 0, 1),)
    # Nx1: band 1 is the whole square, nothing lies below it
    assert column_forms(reduced_bands("4x1")[0], "4x1") == [()]


def test_a_band_too_large_to_enumerate_is_refused_at_once():
    with pytest.raises(ValueError, match="too large to enumerate.*1x7"):
        reduced_bands("7x1")
    with pytest.raises(ValueError, match="too large to enumerate"):
        units(None, "4x4")


def test_shapes_out_of_reach_are_refused_before_memory_runs_out():
    # 3x4: more than MAX_BANDS reduced bands (checked while enumerating);
    # 2x8: 40,320 bands but millions of (class, column form) units.
    with pytest.raises(ValueError, match=f"more than {reducer.MAX_BANDS:,} reduced bands"):
        reduced_bands("3x4")
    with pytest.raises(ValueError, match="column forms = 2,972,970 work units"):
        units(None, "2x8")


@pytest.mark.parametrize("name", ["3x3", "2x3", "3x2", "5x1", "2x4"])
def test_generating_moves_give_the_same_classes_as_every_move(name):
    # The union-find uses a generating subset of each move (reducer.
    # _generating_pairs); every instance of every move must give the same
    # classes, for the full set of moves and for subsets.
    for moves in [(1, 2, 3, 4, 5), (1, 2, 3), (1, 4), (4,), (3, 5), (2, 4, 5)]:
        assert np.array_equal(reducer._move_labels(moves, name, True),
                              reducer._move_labels(moves, name, False))


@pytest.mark.parametrize("name", ["2x3", "3x2", "2x4", "5x1"])
def test_patterns_classes_match_the_brute_force_canonical_pattern(name):
    cs = classes("patterns", shape=name)
    canon = [canonical_column_set_pattern(c.representative, name) for c in cs]
    assert len(set(canon)) == len(cs)
    bands, ids = reduced_bands(name), band_class_ids("patterns", shape=name)
    for i in range(0, len(bands), max(1, len(bands) // 40)):
        assert canonical_column_set_pattern(bands[i], name) == canon[ids[i]]
