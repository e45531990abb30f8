"""Specification of counting/reduction/band_reduction.py: the classes and
the (class, column form) units of the "moves" and "patterns" reductions."""
from __future__ import annotations

import numpy as np
import pytest
from reduction_oracles import (
    N_CLASSES,
    N_REDUCED,
    SMALL_SHAPES,
    SUDOKU,
    band_cells,
    count_with,
    shape_of,
)

from counting.reduction import BandClass, get_reduction
from counting.reduction.bands import reduced_bands
from counting.reduction.forms import column_forms
from counting.reduction.normal_form import normalise
from counting.units import UnitSpec

REDUCTION_KINDS = ["moves", "patterns"]


@pytest.fixture(scope="module", params=["71", "44"])
def reduction(request):
    return get_reduction(SUDOKU, request.param)


def test_class_counts_and_weights(reduction):
    cs = reduction.classes()
    assert len(cs) == N_CLASSES[reduction.name]
    assert sum(c.weight for c in cs) == N_REDUCED
    assert all(isinstance(c, BandClass) and c.weight > 0 for c in cs)
    assert [c.class_id for c in cs] == list(range(len(cs)))


def test_classes_are_sorted_by_representative(reduction):
    reps = [c.representative for c in reduction.classes()]
    assert reps == sorted(reps)


def test_representative_is_the_smallest_normalised_member(reduction):
    bands = reduced_bands(SUDOKU)
    ids = reduction.class_ids()
    for c in reduction.classes():
        members = np.flatnonzero(ids == c.class_id)
        assert len(members) == c.weight
        assert c.representative == tuple(map(tuple, bands[members[0]].tolist()))  # bands are sorted
        assert np.array_equal(normalise(c.array(), SUDOKU), c.array())


def test_returned_class_and_unit_lists_do_not_share_state(reduction):
    first = reduction.classes()
    first.clear()
    assert len(reduction.classes()) == N_CLASSES[reduction.name]
    units = reduction.units()
    units.clear()
    assert reduction.n_units() == 10 * N_CLASSES[reduction.name]


def test_unit_counts_and_id_formula(reduction):
    us = reduction.units()
    n_classes = N_CLASSES[reduction.name]
    assert len(us) == reduction.n_units() == 10 * n_classes
    cs = reduction.classes()
    for u in us:
        assert isinstance(u, UnitSpec)
        assert u.unit_id == u.class_id * 10 + u.form_id
        assert 0 <= u.form_id < 10
        assert (u.shape, u.reduction) == ("3x3", reduction.name)
        assert u.weight == cs[u.class_id].weight
    assert [u.unit_id for u in us] == list(range(len(us)))


def test_unit_givens_are_the_band_and_the_column_form(reduction):
    cs = reduction.classes()
    for u in reduction.units()[::37]:
        assert len(u.givens) == 27 + 6
        grid = np.zeros((9, 9), dtype=int)
        for r, c, d in u.givens:
            assert 0 <= r < 9 and 0 <= c < 9 and 1 <= d <= 9
            assert grid[r, c] == 0
            grid[r, c] = d
        assert np.array_equal(grid[:3], cs[u.class_id].array())
        assert tuple(grid[3:, 0]) == column_forms(cs[u.class_id].representative, SUDOKU)[u.form_id]


def test_unit_by_id_and_out_of_range_ids():
    r71, r44 = get_reduction(SUDOKU, "71"), get_reduction(SUDOKU, "44")
    assert r71.unit(0) == r71.units()[0]
    assert r44.unit(439) == r44.units()[-1]
    for bad in (-1, 710):
        with pytest.raises(ValueError, match=r"reduction '71': valid ids are 0\.\.709"):
            r71.unit(bad)
    with pytest.raises(ValueError, match=r"0\.\.439"):
        r44.unit(440)
    with pytest.raises(ValueError, match="int"):
        r71.unit("3")


def test_factors_are_relabel_band_and_column(reduction):
    assert reduction.factors == reduction.factorisation.factors
    assert reduction.factor == 362_880 * 72 * 72


@pytest.mark.parametrize("kind", REDUCTION_KINDS)
@pytest.mark.parametrize("name", SMALL_SHAPES)
def test_every_class_member_has_its_representatives_completions(name, kind):
    reduction = get_reduction(name, kind)
    bands = reduced_bands(name)
    ids = reduction.class_ids()
    cs = reduction.classes()
    assert sum(c.weight for c in cs) == len(bands)
    rep_counts = [count_with(name, band_cells(c.representative)) for c in cs]
    for band, k in zip(bands, ids):
        assert count_with(name, band_cells(band)) == rep_counts[k]


@pytest.mark.parametrize("name", SMALL_SHAPES + ["6x1", "2x4", pytest.param("4x2", marks=pytest.mark.slow)])
def test_units_of_every_shape(name):
    r, c, n = shape_of(name)
    for kind in REDUCTION_KINDS:
        reduction = get_reduction(name, kind)
        us = reduction.units()
        cs = reduction.classes()
        n_forms = len(column_forms(cs[0].representative, name))
        assert len(us) == reduction.n_units() == len(cs) * n_forms
        for u in us:
            assert (u.shape, u.reduction) == (name, kind)
            assert u.unit_id == u.class_id * n_forms + u.form_id
            assert len(u.givens) == r * n + (n - r)
            assert {(i, j) for i, j, _ in u.givens} == \
                {(i, j) for i in range(r) for j in range(n)} | {(i, 0) for i in range(r, n)}


def test_degenerate_shapes_have_one_unit():
    # Latin squares under the band reductions (their default is now a
    # cycle-type reduction: tests/counting/reduction/test_cycles.py)
    for name in ("1x1", "1x2", "1x5", "1x8"):
        assert get_reduction(name, "moves").n_units() == 1
    assert get_reduction("1x1", "moves").units()[0].givens == ((0, 0, 1),)


def test_shapes_out_of_reach_are_refused_before_memory_runs_out():
    # 4x4: band keys beyond 64 bits; 2x8: 40,320 bands but millions of
    # (class, column form) units.
    with pytest.raises(ValueError, match="too large to enumerate"):
        get_reduction("4x4").units()
    with pytest.raises(ValueError, match="column forms = 2,972,970 work units"):
        get_reduction("2x8").units()
