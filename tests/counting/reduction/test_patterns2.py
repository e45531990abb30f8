"""Specification of counting/reduction/patterns2.py: two-band grids
(boxes of R × 2 or 2 × R cells) as Σ over column-set patterns P of L(P)².

Published references (the only literal totals here):

* 2×2: 288 (OEIS A107739).
* 2×3: 28,200,960 (Pettersen) and 2×4: 29,136,487,207,403,520 (Russell),
  the table of rectangular-box counts in Wikipedia's "Mathematics of
  Sudoku", as in counting/published.py.
* 2×5: 1,903,816,047,972,624,930,994,913,280,000 (Pettersen and Russell,
  same table); checked by ``scripts/bench_patterns2.py`` and the slow test.
"""
from __future__ import annotations

import functools
import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

from counting.options import CountOptions
from counting.reduction.patterns2 import (
    PatternUnitSpec,
    TwoBandPatternReduction,
    dual_codes,
    pattern_classes,
    pattern_from_codes,
)
from counting.run.counter import count_unit
from grids.rectangle import ColumnSetRectangles
from grids.sudoku import Sudoku
from union_find import UnionFind

PUBLISHED = {2: 288, 3: 28_200_960, 4: 29_136_487_207_403_520,
             5: 1_903_816_047_972_624_930_994_913_280_000}
RESULTS = Path(__file__).resolve().parents[3] / "results"


# ---------------------------------------------------------------------------
# Helpers, independent of the module
# ---------------------------------------------------------------------------

def all_patterns(R):
    """Every pattern: an R-subset for the first column of each stack."""
    digits = frozenset(range(1, 2 * R + 1))
    firsts = [frozenset(c) for c in itertools.combinations(sorted(digits), R)]
    for choice in itertools.product(firsts, repeat=R):
        yield tuple(s for first in choice for s in (first, digits - first))


def swapped(pattern):
    """P': the two columns of every stack exchanged (band 2's pattern)."""
    return tuple(pattern[c ^ 1] for c in range(len(pattern)))


def brute_force_L(pattern):
    """Latin rectangles with these column sets, by enumerating rows."""
    n, R = len(pattern), len(pattern[0])
    rows = [p for p in itertools.permutations(range(1, n + 1))
            if all(p[c] in pattern[c] for c in range(n))]

    def extend(chosen):
        if len(chosen) == R:
            return 1
        return sum(extend(chosen + [p]) for p in rows
                   if all(p[c] != q[c] for q in chosen for c in range(n)))

    return extend([])


def relabel(pattern, perm):
    return tuple(frozenset(perm[d] for d in s) for s in pattern)


def permute_stacks(pattern, order):
    return tuple(pattern[2 * s + b] for s in order for b in (0, 1))


def swap_stack(pattern, s):
    out = list(pattern)
    out[2 * s], out[2 * s + 1] = out[2 * s + 1], out[2 * s]
    return tuple(out)


def transpose_pattern(pattern):
    """Columns and digits exchanged: digit d becomes a column with set
    {c : d ∈ P_c}; None unless the digits pair into complementary stacks."""
    n = len(pattern)
    sets = {d: frozenset(c + 1 for c in range(n) if d in pattern[c]) for d in range(1, n + 1)}
    everything = frozenset(range(1, n + 1))
    left = sorted(sets)
    out = []
    while left:
        d = left.pop(0)
        partner = [e for e in left if sets[e] == everything - sets[d]]
        if not partner:
            return None
        left.remove(partner[0])
        out += [sets[d], sets[partner[0]]]
    return tuple(out)


def brute_force_orbits(R, dual):
    """Orbit sizes of all patterns under the moves, by union-find."""
    patterns = list(all_patterns(R))
    index = {p: i for i, p in enumerate(patterns)}
    sets = UnionFind(range(len(patterns)))
    n = 2 * R
    moves = [lambda p, i=i: relabel(p, {d: (i + 1 if d == i else i if d == i + 1 else d)
                                        for d in range(1, n + 1)}) for i in range(1, n)]
    moves += [lambda p, s=s: permute_stacks(p, [s + 1 if t == s else s if t == s + 1 else t
                                                for t in range(R)]) for s in range(R - 1)]
    moves.append(lambda p: swap_stack(p, 0))
    for p in patterns:
        images = [m(p) for m in moves]
        if dual:
            t = transpose_pattern(p)
            images += [t] if t is not None else []
        for q in images:
            sets.union(index[p], index[tuple(frozenset(s) for s in q)])
    return sorted(len(c) for c in sets.classes())


def pattern_of(codes):
    """Digit i+1 with code codes[i]: in column 2s+1 when bit s is set."""
    R = len(codes) // 2
    return tuple(frozenset(i + 1 for i, v in enumerate(codes) if (v >> s) & 1 == b)
                 for s in range(R) for b in (0, 1))


def codes_of(pattern):
    R = len(pattern) // 2
    return tuple(sorted(sum(1 << s for s in range(R) if d in pattern[2 * s + 1])
                        for d in range(1, 2 * R + 1)))


@functools.lru_cache(maxsize=None)
def balanced_multisets(R):
    """Multisets of 2R codes of R bits, every bit set in exactly R."""
    every = np.array(list(itertools.combinations_with_replacement(range(1 << R), 2 * R)))
    balanced = (((every[:, :, None] >> np.arange(R)) & 1).sum(axis=1) == R).all(axis=1)
    return list(map(tuple, every[balanced].tolist()))


def brute_force_multiset_orbits(R, dual):
    """Orbit sizes (in patterns) of the balanced multisets of digit codes
    under bit swaps, complementing bit 0 and (with dual) duality."""
    multisets = balanced_multisets(R)
    sets = UnionFind(multisets)

    def swap_bits(v, s):
        a, b = (v >> s) & 1, (v >> (s + 1)) & 1
        return v ^ ((a ^ b) * (3 << s))

    for m in multisets:
        images = [tuple(sorted(swap_bits(v, s) for v in m)) for s in range(R - 1)]
        images.append(tuple(sorted(v ^ 1 for v in m)))
        if dual and (t := transpose_pattern(pattern_of(m))) is not None:
            images.append(codes_of(t))
        for q in images:
            sets.union(m, q)
    sizes = {}
    for m in multisets:
        labellings = math.factorial(2 * R) // math.prod(
            math.factorial(m.count(v)) for v in set(m))
        sizes[sets.find(m)] = sizes.get(sets.find(m), 0) + labellings
    return sorted(sizes.values())


def count_all(reduction):
    return {u.unit_id: count_unit(u).count for u in reduction.units()}


# ---------------------------------------------------------------------------
# Totals
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("shape, R", [("2x2", 2), ("3x2", 3), ("4x2", 4)])
def test_total_is_the_published_total(shape, R):
    red = TwoBandPatternReduction(shape)
    assert red.total(count_all(red)) == PUBLISHED[R]


@pytest.mark.parametrize("shape", ["2x3", "2x4"])
def test_transposed_shape_has_the_same_units_and_total(shape):
    red, native = TwoBandPatternReduction(shape), TwoBandPatternReduction(shape[::-1])
    assert [u.column_sets for u in red.units()] == [u.column_sets for u in native.units()]
    assert {u.shape for u in red.units()} == {shape}
    assert red.total(count_all(red)) == native.total(count_all(native))


def test_3x2_total_equals_the_count_without_any_reduction():
    whole = Sudoku(3, 2).exact_cover(priority="rows").count(memo=True, tail=True)
    red = TwoBandPatternReduction("3x2")
    assert red.total(count_all(red)) == whole


def test_4x2_total_equals_the_total_recorded_by_the_moves_reduction():
    recorded = json.loads((RESULTS / "2x4.json").read_text())
    assert recorded["reduction"] == "moves"
    red = TwoBandPatternReduction("4x2")
    assert red.total(count_all(red)) == recorded["total_int"]


def test_grids_are_pairs_of_rectangles_sum_over_every_3x2_pattern():
    # The identity itself, with no classes: Σ_P L(P)·L(P') over all 8000
    # patterns of 3x2 is the number of grids, and L(P') = L(P).
    rect = ColumnSetRectangles(3, 6)
    L = {p: rect.count(p, tail=True) for p in all_patterns(3)}
    assert len(L) == math.comb(6, 3) ** 3
    assert all(L[p] == L[swapped(p)] for p in L)
    assert sum(L[p] * L[swapped(p)] for p in L) == PUBLISHED[3]


def test_total_is_factor_times_sum_of_weight_times_count_squared():
    red = TwoBandPatternReduction("3x2")
    assert red.factor == math.factorial(3) ** 2 == math.prod(f for _, f in red.factors)
    counts = {u.unit_id: u.unit_id + 2 for u in red.units()}
    expected = 36 * sum(u.weight * (u.unit_id + 2) ** 2 for u in red.units())
    assert red.total(counts) == expected


@pytest.mark.parametrize("bad, message", [
    ({0: 1, 1: 1, 2: 1}, "1 unit id\\(s\\) missing: 3"),
    ({0: 1, 1: 1, 2: 1, 3: 1, 4: 1}, "unknown unit id 4"),
    ({0: 1, 1: 1, 2: 1, 3: -1}, "non-negative int"),
    ({0: 1, 1: 1, 2: 1, 3: 1.0}, "non-negative int"),
])
def test_total_refuses_incomplete_or_bad_counts(bad, message):
    with pytest.raises(ValueError, match=message):
        TwoBandPatternReduction("3x2").total(bad)


# ---------------------------------------------------------------------------
# Classes
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("R", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("dual", [False, True])
def test_class_sizes_sum_to_the_number_of_patterns(R, dual):
    assert sum(c.weight for c in pattern_classes(R, dual)) == math.comb(2 * R, R) ** R


def test_3x2_classes_are_the_brute_force_orbits_of_patterns():
    # (for 3x2 duality merges no two classes: 4x2 below checks it)
    assert sorted(c.weight for c in pattern_classes(3)) == brute_force_orbits(3, dual=True)


@pytest.mark.parametrize("dual", [False, True])
def test_4x2_classes_are_the_brute_force_orbits_of_digit_codes(dual):
    assert sorted(c.weight for c in pattern_classes(4, dual)) == \
        brute_force_multiset_orbits(4, dual)


def test_5x2_has_355_classes_before_duality_and_346_after():
    # 355 is the independent measurement with the old engine
    assert len(pattern_classes(5, dual=False)) == 355
    assert len(pattern_classes(5)) == 346


def test_representatives_are_patterns_numbered_in_order():
    for R in (3, 4):
        classes = pattern_classes(R)
        reps = [c.representative for c in classes]
        assert [c.class_id for c in classes] == list(range(len(classes)))
        assert reps == sorted(reps) and len(set(reps)) == len(reps)
        digits = set(range(1, 2 * R + 1))
        for rep in reps:
            for s in range(R):
                assert len(rep[2 * s]) == R and set(rep[2 * s]) | set(rep[2 * s + 1]) == digits


def test_dual_of_dual_is_the_same_pattern_up_to_moves():
    R = 4
    found = 0
    for c in pattern_classes(R, dual=False):
        codes = [sum(1 << s for s in range(R) if d not in c.representative[2 * s])
                 for d in range(1, 2 * R + 1)]
        d = dual_codes(codes, R)
        if d is None:
            continue
        found += 1
        back = pattern_from_codes(dual_codes(d, R), R)
        rect = ColumnSetRectangles(R, 2 * R)
        assert rect.count(back, order_rows=True, tail=True) == \
            rect.count(c.representative, order_rows=True, tail=True)
        assert transpose_pattern(tuple(map(frozenset, c.representative))) is not None
    assert found > 1


# ---------------------------------------------------------------------------
# L is a class invariant
# ---------------------------------------------------------------------------

def moved_patterns(pattern, rng):
    R = len(pattern) // 2
    perm = dict(zip(range(1, 2 * R + 1), (rng.permutation(2 * R) + 1).tolist()))
    yield "relabel digits", relabel(pattern, perm)
    yield "permute stacks", permute_stacks(pattern, rng.permutation(R).tolist())
    yield "swap a stack's columns", swap_stack(pattern, int(rng.integers(R)))
    t = transpose_pattern(pattern)
    if t is not None:
        yield "duality", t


@pytest.mark.parametrize("R", [2, 3])
def test_L_is_invariant_under_each_move_by_brute_force(R):
    rng = np.random.default_rng(R)
    seen = set()
    for c in pattern_classes(R):
        p = tuple(map(frozenset, c.representative))
        L = brute_force_L(p)
        for name, q in moved_patterns(p, rng):
            seen.add(name)
            assert brute_force_L(q) == L, (name, p, q)
    assert seen == {"relabel digits", "permute stacks", "swap a stack's columns", "duality"}


def test_L_is_invariant_under_each_move_for_4x2():
    rng = np.random.default_rng(4)
    rect = ColumnSetRectangles(4, 8)
    seen = set()
    for c in pattern_classes(4):
        p = tuple(map(frozenset, c.representative))
        L = rect.count(p, memo=True, order_rows=True)
        for name, q in moved_patterns(p, rng):
            seen.add(name)
            assert rect.count(q, memo=True, order_rows=True) == L, (name, p)
    assert "duality" in seen


# ---------------------------------------------------------------------------
# Units
# ---------------------------------------------------------------------------

def test_a_unit_counts_L_over_r_factorial_of_its_representative():
    red = TwoBandPatternReduction("3x2")
    for u in red.units():
        L = brute_force_L(u.column_sets)
        assert count_unit(u).count * math.factorial(3) == L


def test_units_are_the_classes_one_each():
    red = TwoBandPatternReduction("5x2")
    units, classes = red.units(), red.classes()
    assert red.n_units() == len(units) == len(classes) == 346
    for u, c in zip(units, classes):
        assert isinstance(u, PatternUnitSpec)
        assert (u.unit_id, u.class_id, u.form_id, u.weight, u.column_sets) == \
            (c.class_id, c.class_id, 0, c.weight, c.representative)
        assert (u.shape, u.reduction) == ("5x2", "patterns2")


@pytest.mark.parametrize("options", [CountOptions(memo=False), CountOptions(tail=False),
                                     CountOptions(memo=False, tail=True),
                                     CountOptions(memo_mb=1)])
def test_counts_do_not_depend_on_the_options(options):
    red = TwoBandPatternReduction("4x2")
    for u in red.units()[::5]:
        assert count_unit(u, options, fresh_memo=True).count == count_unit(u).count


def test_problem_refuses_a_unit_of_another_shape():
    unit = TwoBandPatternReduction("3x2").units()[0]
    with pytest.raises(ValueError, match="not 4x2/patterns2"):
        TwoBandPatternReduction("4x2").problem(unit)


@pytest.mark.parametrize("shape", ["3x3", "7x2", "2x7", "1x4"])
def test_applies_only_to_two_band_shapes_it_can_enumerate(shape):
    assert not TwoBandPatternReduction.applies_to(shape)
    with pytest.raises(ValueError, match="applies to boxes of R x 2 or 2 x R"):
        TwoBandPatternReduction(shape)

# The 2x5 total is counted through the whole job path (store, pool) by the
# slow test_verify.py::test_verify_all_counts_2x5_to_its_published_total.


@pytest.mark.parametrize("shape, k", [("3x2", 4), ("4x2", 8), pytest.param("2x5", 3, marks=pytest.mark.slow)])
def test_the_kernel_and_the_search_agree_on_units_picked_at_random(shape, k):
    # issue 24: the factorization kernel counts what dancing links search
    import random
    red = TwoBandPatternReduction(shape)
    units = random.Random(2024).sample(red.units(), k)
    for u in units:
        by_kernel = count_unit(u)
        by_search = count_unit(u, CountOptions(kernel="search"))
        assert by_kernel.count == by_search.count
        assert by_kernel.engine_version.startswith("factorization")
        assert not by_search.engine_version.startswith("factorization")


def test_a_bad_kernel_name_is_refused():
    with pytest.raises(ValueError, match="kernel must be one of auto, factorization, search"):
        CountOptions(kernel="fast")


def test_kernel_units_are_estimated_on_the_kernel_s_tree_and_searched_ones_on_the_matrix():
    red = TwoBandPatternReduction("2x4")
    spec = red.units()[0]
    kw = dict(probes=10, seed=0, max_seconds=0.1)
    assert red.estimate_unit_seconds(spec, CountOptions(), **kw) > 0
    assert red.estimate_unit_seconds(spec, CountOptions(kernel="search"), **kw) is None
    assert red.worker_memory_mib(CountOptions(memo_mb=16)) == 64
    assert red.worker_memory_mib(CountOptions(memo_mb=16, kernel="search")) == 16


@pytest.mark.parametrize("options, made", [
    (CountOptions(), True), (CountOptions(kernel="search"), False),
    (CountOptions(shared_memo=False), False)])
def test_the_kernels_shared_memo_file_is_made_before_the_workers_only_where_they_map_it(
        tmp_path, monkeypatch, options, made):
    from factorization.memo_file import memo_path
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    TwoBandPatternReduction("3x2").reserve_memo(options)
    assert memo_path(6, 64.0, tmp_path / "gridcount").exists() == made


def test_the_estimate_counts_the_children_its_units_share_once(monkeypatch):
    # issue 37: each unit's children were estimated as if no other unit had met
    # them (2x5 at 8-12 times its CPU time, so it was estimated at length on one
    # core before its workers started); the shared memo file expands them once
    red = TwoBandPatternReduction("2x5")    # 2x4's units are counted at the memo's degree
    share = red.children_share(CountOptions())
    assert 0 < share < 0.5
    assert red.children_share(CountOptions(shared_memo=False)) == 1.0
    assert TwoBandPatternReduction("2x6").children_share(CountOptions()) == 1.0  # not enumerated
    ticks = iter(range(10**6))      # one tick a timed expansion: the estimate counts nodes
    monkeypatch.setattr("time.thread_time", lambda: float(next(ticks)))
    kw = dict(probes=10, seed=0, max_seconds=0)
    spec = red.units()[0]
    alone = red.estimate_unit_seconds(spec, CountOptions(shared_memo=False), **kw)
    shared = red.estimate_unit_seconds(spec, CountOptions(), **kw)
    assert alone > 1 and shared == pytest.approx(1 + share * (alone - 1))  # the root: its own


def test_listing_the_classes_is_said_first_where_it_takes_minutes():
    """2x6's 63,053 classes take about 3 minutes to enumerate: count says so
    before listing them (issue 36); 2x5's take a second: nothing is said."""
    from counting.reduction.registry import get_reduction
    line = get_reduction("2x6", "patterns2").listing_notice()
    assert line == "enumerating the pattern classes of 2x6 before the first unit: about 3 minutes ..."
    assert get_reduction("6x2", "patterns2").listing_notice().startswith(
        "enumerating the pattern classes of 6x2")
    assert get_reduction("2x5", "patterns2").listing_notice() is None
    assert get_reduction("2x6", "moves").listing_notice() is None   # the default: none
