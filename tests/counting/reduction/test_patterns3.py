"""Specification of counting/reduction/patterns3.py: three-band grids (boxes
of R × 3 or 3 × R cells) as Σ over band-1 column-set classes of
size · l(P1) · Σ_{P2} l(P2)·l(P3), times (R!)³.

Published references (the only literal totals here):

* 2×3: 28,200,960 6×6 grids (Pettersen; the rectangular-box table of
  Wikipedia's "Mathematics of Sudoku", as in counting/published.py).
* 3×3: 6,670,903,752,021,072,936,960 (Felgenhauer and Jarvis, 2005).
* 44 column-set classes of 9×9 band 1 (Ed Russell).

The unit-by-unit check ties every patterns3 class to the ``--reduction 44``
units counted by the dancing-links engine (``get_reduction("3x3", "44")``).
"""
from __future__ import annotations

import math
import random
import time
from pathlib import Path

import numpy as np
import pytest

from counting.reduction.patterns3 import (
    BandPatternUnitSpec,
    ThreeBandPatternReduction,
)
from counting.reduction.registry import get_reduction
from counting.run.counter import count_unit
from counting.run.counter import count_unit as count_44_unit

PUBLISHED = {"2x3": 28_200_960, "3x3": 6_670_903_752_021_072_936_960}
RUSSELL_44 = 44


def column_sets_of_band(rows):
    """The column sets of a band given as row tuples."""
    return tuple(tuple(sorted(r[c] for r in rows)) for c in range(len(rows[0])))


def total(red):
    return red.total({u.unit_id: count_unit(u).count for u in red.units()})


# ---------------------------------------------------------------------------
# Totals and classes
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("shape, published", [("2x3", "2x3"), ("3x2", "2x3"),
                                              ("3x3", "3x3")])
def test_total_is_the_published_count(shape, published):
    assert total(ThreeBandPatternReduction(shape)) == PUBLISHED[published]


def test_3x3_has_russells_44_classes():
    assert ThreeBandPatternReduction("3x3").n_units() == RUSSELL_44


@pytest.mark.parametrize("shape", ["2x3", "3x3"])
def test_weights_sum_to_the_number_of_band_1_patterns(shape):
    red = ThreeBandPatternReduction(shape)
    R = red.rows
    per_box = math.comb(3 * R, R) * math.comb(2 * R, R)   # ordered column sets of one box
    assert sum(u.weight for u in red.units()) == per_box ** R == red.n_patterns()


@pytest.mark.parametrize("shape", ["2x3", "3x3"])
def test_factors_are_R_factorial_per_band(shape):
    red = ThreeBandPatternReduction(shape)
    assert [f for _, f in red.factors] == [math.factorial(red.rows)] * 3


def test_transposes_have_the_same_units():
    a, b = ThreeBandPatternReduction("2x3"), ThreeBandPatternReduction("3x2")
    assert [(u.weight, u.column_sets) for u in a.units()] == \
        [(u.weight, u.column_sets) for u in b.units()]
    assert b.factors[0][0].startswith("order the columns of stack 1")


# ---------------------------------------------------------------------------
# Unit by unit against --reduction 44
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def r44():
    return get_reduction("3x3", "44")


def column_1_factor(r44) -> int:
    """Completions of rows 4-9 per Σ over the 10 forms of the 44 unit counts.

    Column 1, rows 4-9, holds the (N - R)! orders of the six digits band 1
    leaves out; the 44 reduction keeps one of each orbit of its sorting
    moves, ``n_forms`` of them, all orbits of one size: so the factor is
    (N - R)! / n_forms, and it must be the factor the 44 reduction states.
    """
    N, R = 9, 3
    n_forms = r44.n_units() // len(r44.classes())
    factor, rest = divmod(math.factorial(N - R), n_forms)
    assert rest == 0
    assert dict(r44.factors)["reduce column 1"] == factor
    return factor


def check_class(red, r44, band_class):
    sets = column_sets_of_band(band_class.representative)
    units = [u for u in r44.units() if u.class_id == band_class.class_id]
    via_44 = column_1_factor(r44) * sum(count_44_unit(u).count for u in units)
    assert red.band_completions(sets) == via_44


@pytest.mark.slow
def test_44_units_agree_on_a_few_classes(r44):
    red = ThreeBandPatternReduction("3x3")
    chosen = random.Random(3).sample(r44.classes(), 2)
    for band_class in chosen:
        check_class(red, r44, band_class)


@pytest.mark.slow
def test_44_units_agree_on_every_class(r44):
    red = ThreeBandPatternReduction("3x3")
    for band_class in r44.classes():
        check_class(red, r44, band_class)


def test_44_classes_are_the_patterns3_classes_with_matching_weights(r44):
    """Each 44 class is one patterns3 class, and band fillings agree:
    size · L(rep) = (bands per reduced band) · weight_44, with the ratio
    computed from the totals, the same for every class."""
    from counting.reduction.patterns3 import tables
    red = ThreeBandPatternReduction("3x3")
    bt = tables(3)
    mine = {c.class_id: c for c in red.classes()}
    seen = {}
    for c44 in r44.classes():
        cid = bt.class_id(column_sets_of_band(c44.representative))
        seen.setdefault(cid, []).append(c44)
    assert sorted(seen) == sorted(mine) and all(len(v) == 1 for v in seen.values())
    bands = sum(c.weight * c.l * bt.row_orders for c in mine.values())
    ratio, rest = divmod(bands, sum(c.weight for c in r44.classes()))
    assert rest == 0
    for cid, (c44,) in seen.items():
        assert mine[cid].weight * mine[cid].l * bt.row_orders == ratio * c44.weight


# ---------------------------------------------------------------------------
# The unit interface
# ---------------------------------------------------------------------------

def test_count_unit_reports_the_count_and_its_terms():
    red = ThreeBandPatternReduction("3x3")
    spec = red.units()[5]
    res = count_unit(spec)
    assert (res.unit_id, res.class_id, res.form_id) == (5, 5, 0)
    assert res.nodes == 28 * 56 ** 2             # half of stack 1's 56 choices, doubled
    assert "bandtables" in res.engine_version
    assert res.count == red.classes()[5].l * red.band_completions(spec.column_sets) // 36


def test_a_foreign_unit_is_refused():
    red = ThreeBandPatternReduction("3x3")
    spec = ThreeBandPatternReduction("2x3").units()[0]
    with pytest.raises(ValueError, match="not 3x3/patterns3"):
        red.count_directly(spec)


def test_there_is_no_exact_cover_problem():
    red = ThreeBandPatternReduction("2x3")
    assert red.problem(red.units()[0]) is None


@pytest.mark.parametrize("shape", ["2x2", "6x3", "1x3", "2x4"])
def test_other_shapes_are_refused(shape):
    assert not ThreeBandPatternReduction.applies_to(shape)
    with pytest.raises(ValueError, match="R x 3 or 3 x R"):
        ThreeBandPatternReduction(shape)


@pytest.mark.parametrize("shape", ["2x3", "3x3"])
def test_2x3_and_3x3_units_read_tables_mapped_from_the_machines_cache(monkeypatch, tmp_path,
                                                                       shape):
    """Issue 25: the tables are shared per machine, never one copy per worker
    process: the first use builds them into the cache, every process maps them
    read-only from there, and a later process builds nothing (no class table,
    no files), yet counts the same."""
    import bandtables.api
    import bandtables.tables
    from bandtables.api import BandTables
    from bandtables.cache import tables_path
    from counting.reduction import patterns3
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    patterns3.forget_tables()
    red = ThreeBandPatternReduction(shape)
    R = red.rows
    bt = patterns3.tables(R)
    d = tables_path(R)
    assert d.parent == tmp_path / "gridcount" and (d / "manifest.json").exists()
    for arr in (bt.act, bt.T, bt.classes.T, bt.classes.rest_class, bt.classes.l):
        assert isinstance(arr, np.memmap) and not arr.flags.writeable
        assert Path(arr.filename).parent == d
    first = {u.unit_id: red.count_directly(u).count for u in red.units()}
    # a new process of the machine: nothing may be built, everything is mapped
    import bandtables.cache
    patterns3.forget_tables()
    bandtables.cache.forget_checked()

    def no_building(*args, **kw):
        raise AssertionError("a table was built in a process that should map it")
    monkeypatch.setattr(bandtables.tables, "save_dense", no_building)
    monkeypatch.setattr(bandtables.api, "class_table", no_building)
    monkeypatch.setattr(bandtables.api, "save_dense", no_building)
    again = {u.unit_id: red.count_directly(u).count for u in red.units()}
    assert again == first
    own = BandTables(R, *[np.array(a) for a in (bt.act, bt.T)])
    spec = red.units()[-1]
    assert own.l(spec.column_sets) * own.completions(spec.column_sets) == first[spec.unit_id]


def test_where_no_cache_can_be_written_the_process_builds_its_own_and_says_so(
        monkeypatch, tmp_path, capsys):
    from counting.reduction import patterns3
    (tmp_path / "file").write_text("not a directory")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))
    patterns3.forget_tables()
    red = ThreeBandPatternReduction("2x3")
    assert red.total({u.unit_id: red.count_directly(u).count for u in red.units()}) == \
        28_200_960
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the band tables' cache cannot be used" in err
    assert not isinstance(patterns3.tables(2).T, np.memmap)


def test_4x3_reads_the_tables_of_this_machines_cache_by_default(monkeypatch, tmp_path):
    """No directory to set: the tables come from bandtables.cache (built there
    on first use); a given table_dir is read instead."""
    import bandtables.cache
    import bandtables.tables4
    from counting.reduction import patterns3
    asked = []
    monkeypatch.setattr(bandtables.cache, "tables4_dir", lambda: asked.append(1) or tmp_path)
    monkeypatch.setattr(bandtables.tables4, "load", lambda d: ("tables of", str(d)))
    patterns3.forget_tables()
    assert patterns3.tables4() == ("tables of", str(tmp_path)) and asked == [1]
    assert patterns3.tables4(str(tmp_path / "x")) == ("tables of", str(tmp_path / "x"))
    assert asked == [1]
    red = ThreeBandPatternReduction("3x4")
    assert red.rows == 4 and red.choices == 346


def test_patterns3_is_the_default_from_4x3_on_and_estimates_without_tables(monkeypatch,
                                                                           tmp_path):
    """4x3 with no tables cached yet, and 5x3 (no tables can be built): a
    lower bound from the sizes of bandtables.estimate and a measured rate."""
    from bandtables.estimate import job_size
    from counting.reach import job_cost
    from counting.reduction.registry import default_reduction
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    for shape in ("4x3", "3x4", "5x3", "3x5"):
        assert default_reduction(shape) == "patterns3"
    assert default_reduction("2x3") == "moves" and default_reduction("3x3") == "71"
    for shape, R, countable in (("4x3", 4, True), ("5x3", 5, False)):
        cost = job_cost(get_reduction(shape, "patterns3"))
        size = job_size(R)
        assert cost.units == size["classes_lower_bound"] and not cost.units_exact
        assert cost.countable is countable and cost.unit_seconds > 0
        ns = cost.unit_seconds / size["terms_per_unit"] * 1e9
        assert 0.1 < ns < 1000                          # a rate per term, measured
        assert "lower bound" in cost.describe(2) and "would finish it in a day" in cost.describe(2)
    with pytest.raises(ValueError, match="5x3 by patterns3 is estimated only"):
        ThreeBandPatternReduction("5x3").units()
    assert not list(tmp_path.iterdir())                 # nothing was built


def test_the_4x3_estimate_times_the_slices_the_kernel_sorts_together(monkeypatch):
    """A 4x3 unit is counted whole, BATCH4 slices to a kernel call, and one
    slice alone runs about 1.7x slower a slice (results/bench_patterns3.md):
    so the estimate times BATCH4 consecutive slices in one call, inside
    0..K/2; below 4x3 it times one slice."""
    from bandtables.kernels import BATCH4
    red = ThreeBandPatternReduction("4x3")
    asked = []
    monkeypatch.setattr(red, "l", lambda sets: 1)
    monkeypatch.setattr(red, "count_slice", lambda spec, x0: asked.append(x0))
    monkeypatch.setattr("bandtables.symmetry.orbit_plan",                # the next test's
                        lambda codes, R: (None, [(2, range(173), range(346))]))
    spec = BandPatternUnitSpec("4x3", "patterns3", 0, 0, 0, 1, CLASS0_4X3)
    for seed in range(30):
        assert red.estimate_unit_seconds(spec, None, probes=0, seed=seed, max_seconds=1) >= 0
    assert len(asked) == 30
    assert all(stop - start == BATCH4 and 0 <= start and stop <= 173 for start, stop in asked)
    assert red.estimate_method(2).startswith(f"{BATCH4} consecutive of 173 band-2 slices")
    assert ThreeBandPatternReduction("3x3").estimate_method(1).startswith("one of 28")


#: Band 1 of 4x3's class 0 (results/4x3-sample-units.csv): every box 1234 5678 9abc.
CLASS0_4X3 = tuple(tuple(range(1 + 4 * j, 5 + 4 * j)) for _ in range(4) for j in range(3))


def test_the_4x3_estimate_scales_to_the_slices_the_orbits_leave(monkeypatch):
    """A whole 4x3 unit sums one choice per orbit in two stacks under band
    1's symmetries (bandtables/symmetry.py): class 0 needs a few slices'
    worth of terms, not K/2 = 173, and the estimate scales the timed slices
    to those (with a clock that gives every slice one second and the orbits
    none)."""
    import itertools
    from bandtables.api import band_codes
    from bandtables.kernels import BATCH4
    from bandtables.symmetry import orbit_plan
    red = ThreeBandPatternReduction("4x3")
    monkeypatch.setattr(red, "l", lambda sets: 1)
    monkeypatch.setattr(red, "count_slice", lambda spec, x0: None)
    clock = itertools.chain([0.0, float(BATCH4)], itertools.repeat(100.0))
    monkeypatch.setattr(time, "process_time", lambda: next(clock))
    spec = BandPatternUnitSpec("4x3", "patterns3", 0, 0, 0, 1, CLASS0_4X3)
    calls = orbit_plan(band_codes(CLASS0_4X3, 4), 4)[1]
    slices = sum(len(x0s) * len(x1s) for _, x0s, x1s in calls) / 346
    assert slices < 173
    assert red.estimate_unit_seconds(spec, None, probes=0, seed=0, max_seconds=1) == slices
    assert red.estimate_method(8).endswith("scaled to the slices band 1's symmetries leave a unit")


def test_slices_add_up_to_the_unit():
    red = ThreeBandPatternReduction("3x3")
    spec = red.units()[7]
    whole = count_unit(spec).count
    parts = [red.count_slice(spec, (a, min(a + 10, 28))).count for a in range(0, 28, 10)]
    assert sum(parts) == whole
    assert red.count_slice(spec, (0, 20)).nodes == 20 * 56 ** 2


def test_a_wrong_count_gives_a_wrong_total():
    red = ThreeBandPatternReduction("2x3")
    counts = {u.unit_id: count_unit(u).count for u in red.units()}
    counts[0] += 1
    assert red.total(counts) != PUBLISHED["2x3"]


def test_export_columns_name_band_1_column_sets():
    red = ThreeBandPatternReduction("2x3")
    cols = red.unit_columns(red.units()[0])
    assert list(cols) == ["band1_column_sets"]
    assert len(cols["band1_column_sets"].split()) == 6
    assert sorted(cols["band1_column_sets"].replace(" ", "")) == sorted("012345" * 2)


def test_units_are_picklable_specs():
    import pickle
    spec = ThreeBandPatternReduction("3x3").units()[0]
    assert isinstance(spec, BandPatternUnitSpec)
    assert pickle.loads(pickle.dumps(spec)) == spec


@pytest.mark.slow
@pytest.mark.usefixtures("tables4_cache")
def test_4x3_units_read_the_built_tables():
    """144,578 units (Silver's class count); slices of a unit add up; a
    transposed shape reads the same tables."""
    red = ThreeBandPatternReduction("4x3")
    units = red.units()
    assert len(units) == 144_578
    assert sum(u.weight for u in units) == red.n_patterns()
    spec = units[777]
    one = red.count_slice(spec, (5, 6))
    assert one.nodes == 346 ** 3
    two = red.count_slice(spec, (5, 7)).count
    assert two == one.count + red.count_slice(spec, (6, 7)).count
    assert ThreeBandPatternReduction("3x4").count_slice(
        BandPatternUnitSpec("3x4", "patterns3", 777, 777, 0, spec.weight, spec.column_sets),
        x0=(5, 6)).count == one.count


@pytest.mark.slow
@pytest.mark.usefixtures("tables4_cache")
def test_the_published_4x3_sample_units_count_the_same_slice_by_slice():
    """results/4x3-sample-units.csv (51 slices, published with band 1's
    column sets): each recounted from the cached tables, class and count."""
    import csv
    from pathlib import Path
    red = ThreeBandPatternReduction("4x3")
    units = red.units()
    path = Path(__file__).resolve().parents[3] / "results" / "4x3-sample-units.csv"
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 51
    for row in rows:
        spec = units[int(row["class_id"])]
        assert red.unit_columns(spec)["band1_column_sets"] == row["band1_column_sets"]
        x0 = int(row["x0"])
        assert red.count_slice(spec, (x0, x0 + 1)).count == int(row["count"]), row["class_id"]
