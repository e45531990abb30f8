"""Specification of counting/reduction/cycles.py: Latin squares by the cycle
type of row 2 ("cycles") and by the class of rows 1–3 ("cycles2").

Reference values
----------------
``LATIN`` are the numbers of Latin squares of order 1..7, OEIS A002860
(https://oeis.org/A002860): 1, 2, 12, 576, 161280, 812851200,
61479419904000.  ``REDUCED_3_ROWS`` are reduced 3 × n Latin rectangles,
OEIS A001623 (https://oeis.org/A001623): 1, 4, 46, 1064, 35792, 1673792
for n = 3..8.  Everything else is recomputed here by brute force, without
the module: derangements and their cycle types, the 3-row rectangles and
their classes, and completion counts with no reduction at all.
"""
from __future__ import annotations

import functools
import itertools
import math
import random
from collections import Counter

import numpy as np
import pytest

from counting.group.permutations import class_size, cycle_type, type_representative
from counting.reduction.cycles import (
    CycleTypeReduction,
    LatinClass,
    RowTripleReduction,
    derangement_types,
)
from counting.units import UnitSpec
from grids.sudoku import Sudoku
from union_find import UnionFind

LATIN = {1: 1, 2: 2, 3: 12, 4: 576, 5: 161_280, 6: 812_851_200,
         7: 61_479_419_904_000}  # OEIS A002860
REDUCTIONS = (CycleTypeReduction, RowTripleReduction)
# reduced 3 x n Latin rectangles (rows 1 and column 1 in order), OEIS A001623
REDUCED_3_ROWS = {7: 35_792, 8: 1_673_792}


# ---------------------------------------------------------------------------
# Helpers (independent of the module under test)
# ---------------------------------------------------------------------------

def derangement_number(n: int) -> int:
    """D(n) by the recurrence D(n) = (n-1)(D(n-1) + D(n-2)), D(0)=1, D(1)=0."""
    d = [1, 0]
    for m in range(2, n + 1):
        d.append((m - 1) * (d[-1] + d[-2]))
    return d[n]


def lengths_of_cycles(perm) -> tuple[int, ...]:
    """Cycle type by following each cycle once."""
    left, out = set(range(len(perm))), []
    while left:
        x = start = min(left)
        k = 0
        while True:
            left.discard(x)
            x = perm[x]
            k += 1
            if x == start:
                break
        out.append(k)
    return tuple(sorted(out, reverse=True))


def derangements(n: int):
    return [p for p in itertools.permutations(range(n)) if all(p[i] != i for i in range(n))]


@functools.lru_cache(maxsize=None)
def latin_matrix(n: int):
    sud = Sudoku(1, n)
    return sud, sud.exact_cover(priority="rows")


def completions(n: int, rows) -> int:
    """Latin squares of order n whose first rows are ``rows`` (0-based), no reduction."""
    sud, ec = latin_matrix(n)
    given = [sud.row_index(r, c, int(d) + 1)
             for r, row in enumerate(rows) for c, d in enumerate(row)]
    return ec.count(given=given, memo=True, tail=True)


def count_units(reduction) -> dict[int, int]:
    """Every unit counted as a counting job's worker does."""
    sud = Sudoku.from_shape(reduction.shape.name)
    ec = sud.exact_cover(priority="rows")
    return {u.unit_id: ec.count(given=[sud.row_index(*g) for g in u.givens], memo=True,
                                tail=ec.has_tail)
            for u in reduction.units()}


def triples(n: int):
    """Every 3-row Latin rectangle with row 1 in order, as (σ, ρ)."""
    out = []
    for s in derangements(n):
        for r in itertools.permutations(range(n)):
            if all(r[c] != c and r[c] != s[c] for c in range(n)):
                out.append((s, r))
    return out


def triple_orbits(n: int) -> list[set]:
    """Classes of the pairs (σ, ρ) under: swapping rows 2 and 3; swapping rows
    1 and 2 and relabelling row 1 back in order; conjugating both rows by a
    transposition of adjacent symbols (these generate the whole group)."""
    pairs = triples(n)
    sets = UnionFind(pairs)

    def inverse(p):
        inv = [0] * n
        for i, x in enumerate(p):
            inv[x] = i
        return inv

    for s, r in pairs:
        s_inv = inverse(s)
        images = [(r, s), (tuple(s_inv), tuple(s_inv[x] for x in r))]
        for i in range(n - 1):
            t = list(range(n))
            t[i], t[i + 1] = i + 1, i
            images.append((tuple(t[s[t[c]]] for c in range(n)),
                           tuple(t[r[t[c]]] for c in range(n))))
        for img in images:
            sets.union(img, (s, r))
    return [set(c) for c in sets.classes()]


# ---------------------------------------------------------------------------
# Cycle types and weights
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("n", range(0, 10))
def test_derangement_types_are_the_partitions_with_parts_at_least_two_largest_first(n):
    expected = sorted((tuple(reversed(p)) for k in range(1, n // 2 + 1)
                       for p in itertools.combinations_with_replacement(range(2, n + 1), k)
                       if sum(p) == n), reverse=True)
    assert list(derangement_types(n)) == expected


def test_order_8_has_seven_cycle_types_and_order_9_eight():
    assert len(CycleTypeReduction("1x8").units()) == 7
    assert len(CycleTypeReduction("1x9").units()) == 8


@pytest.mark.parametrize("n", range(2, 7))
def test_unit_weights_are_the_numbers_of_derangements_of_each_cycle_type(n):
    brute = Counter(lengths_of_cycles(p) for p in derangements(n))
    classes = CycleTypeReduction(f"1x{n}").classes()
    assert {c.cycle_type: c.weight for c in classes} == dict(brute)
    assert all(class_size(t) == k for t, k in brute.items())


@pytest.mark.parametrize("n", range(2, 13))
def test_weights_add_up_to_the_number_of_derangements(n):
    assert sum(c.weight for c in CycleTypeReduction(f"1x{n}").classes()) == derangement_number(n)


@pytest.mark.parametrize("n", range(1, 11))
def test_each_representative_has_its_cycle_type(n):
    for t in derangement_types(n):
        rep = type_representative(t)
        assert lengths_of_cycles(rep) == t == cycle_type(rep)


def test_cycle_type_refuses_a_non_permutation():
    with pytest.raises(ValueError, match="not a permutation"):
        cycle_type([0, 0, 1])


# ---------------------------------------------------------------------------
# Factors, units, totals
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("n", range(2, 10))
def test_factors_are_n_factorial_and_the_rows_below_the_fixed_ones(n):
    assert CycleTypeReduction(f"1x{n}").factor == math.factorial(n) * math.factorial(n - 2)
    if n >= 3:
        assert RowTripleReduction(f"1x{n}").factor == math.factorial(n) * math.factorial(n - 3)


@pytest.mark.parametrize("kind, n", [(k, n) for k in REDUCTIONS for n in range(1, 8)
                                     if k.applies_to(f"1x{n}")])
def test_totals_of_orders_1_to_7_are_the_published_ones(kind, n):
    red = kind(f"1x{n}")
    assert red.total(count_units(red)) == LATIN[n]


@pytest.mark.parametrize("n", range(1, 8))
def test_totals_equal_todays_path_row_1_and_column_1_in_order(n):
    # today's 1xN unit: the reduced squares, factor n!·(n-1)!
    sud = Sudoku(1, n)
    ec = sud.exact_cover(priority="rows")
    given = [sud.row_index(0, c, c + 1) for c in range(n)]
    given += [sud.row_index(r, 0, r + 1) for r in range(1, n)]
    today = math.factorial(n) * math.factorial(n - 1) * ec.count(given=given, memo=True, tail=True)
    for kind in REDUCTIONS:
        if kind.applies_to(f"1x{n}"):
            red = kind(f"1x{n}")
            assert red.total(count_units(red)) == today


@pytest.mark.parametrize("n", range(1, 6))
def test_totals_equal_a_count_with_no_reduction(n):
    assert CycleTypeReduction(f"1x{n}").total(
        count_units(CycleTypeReduction(f"1x{n}"))) == completions(n, [])


@pytest.mark.parametrize("kind", REDUCTIONS)
def test_units_give_the_fixed_rows_then_column_1_increasing(kind):
    red = kind("1x7")
    k = red.fixed_rows
    for u, c in zip(red.units(), red.classes()):
        assert isinstance(u, UnitSpec) and u.reduction == red.name == kind.kind
        assert u.unit_id == u.class_id == c.class_id and u.weight == c.weight
        grid = np.zeros((7, 7), dtype=int)
        for r, col, d in u.givens:
            grid[r, col] = d
        assert grid[:k].tolist() == [list(row) for row in c.representative]
        assert grid[:k, 1:].all() and not grid[k:, 1:].any()
        column = grid[k:, 0].tolist()
        assert column == sorted(set(range(1, 8)) - set(grid[:k, 0].tolist()))
        assert lengths_of_cycles([d - 1 for d in c.representative[1]]) == c.cycle_type


@pytest.mark.parametrize("kind", REDUCTIONS)
def test_unit_ids_are_stable_and_follow_the_documented_order(kind):
    units = kind("1x8").units()
    assert [u.unit_id for u in units] == list(range(len(units)))
    first = kind("1x8").classes()[0]
    assert first.cycle_type == (8,) and first.representative[1] == (2, 3, 4, 5, 6, 7, 8, 1)
    if kind is RowTripleReduction:
        smallest = next(r for r in itertools.permutations(range(8))
                        if all(r[c] not in (c, (c + 1) % 8) for c in range(8)))
        assert first.representative[2] == tuple(d + 1 for d in smallest)
    types = derangement_types(8)
    keys = [(types.index(c.cycle_type), c.representative[1:]) for c in kind("1x8").classes()]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


def test_total_names_missing_unknown_and_bad_counts():
    red = CycleTypeReduction("1x5")
    with pytest.raises(ValueError, match="1 unit id.s. missing: 1"):
        red.total({0: 1})
    with pytest.raises(ValueError, match="unknown unit id 2"):
        red.total({0: 1, 1: 1, 2: 1})
    with pytest.raises(ValueError, match="count of unit 1"):
        red.total({0: 1, 1: -1})
    with pytest.raises(ValueError, match="out of range"):
        red.unit(2)


@pytest.mark.parametrize("shape", ["3x3", "2x4", "1x2x3"])
def test_refuses_shapes_that_are_not_latin_squares(shape):
    with pytest.raises(ValueError):
        CycleTypeReduction(shape)


@pytest.mark.parametrize("shape", ["1x2", "2x1", "1x10"])
def test_rows_1_to_3_need_order_3_to_9(shape):
    with pytest.raises(ValueError, match="order 3..9"):
        RowTripleReduction(shape)


@pytest.mark.parametrize("kind", REDUCTIONS)
def test_nx1_has_the_same_units_and_counts_as_1xn(kind):
    a, b = kind("1x6"), kind("6x1")
    assert b.shape.name == "6x1" and [u.shape for u in b.units()] == ["6x1"] * b.n_units()
    assert [(u.givens, u.weight) for u in a.units()] == [(u.givens, u.weight) for u in b.units()]
    assert count_units(a) == count_units(b)
    assert b.total(count_units(b)) == LATIN[6]


# ---------------------------------------------------------------------------
# The invariance arguments, by brute force
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("n", range(2, 6))
def test_completions_depend_only_on_the_cycle_type_of_row_2(n):
    red = CycleTypeReduction(f"1x{n}")
    counts = count_units(red)
    for s in derangements(n):
        unit = red.unit_of([[c + 1 for c in range(n)], [d + 1 for d in s]])
        assert red.classes()[unit].cycle_type == lengths_of_cycles(s)
        # every square with rows (id, σ): (n-2)! orders of rows 3..n times the unit count
        assert completions(n, [range(n), s]) == math.factorial(n - 2) * counts[unit]


@pytest.mark.parametrize("n", range(3, 7))
def test_row_triple_classes_are_the_orbits_of_rows_and_relabelling(n):
    # every member of each orbit for n <= 5; for n = 6 (21,280 pairs) ten
    # members of each orbit: with one unit per orbit, as many units as
    # orbits and each unit's weight its orbit's size, the classes are the orbits
    red = RowTripleReduction(f"1x{n}")
    rng = random.Random(n)
    got = {}
    for orbit in triple_orbits(n):
        members = sorted(orbit)
        if n > 5 and len(members) > 10:
            members = rng.sample(members, 10)
        units = {red.unit_of([list(range(1, n + 1)), [d + 1 for d in s], [d + 1 for d in r]])
                 for s, r in members}
        assert len(units) == 1
        got[units.pop()] = len(orbit)
    assert got == {c.class_id: c.weight for c in red.classes()}


@pytest.mark.parametrize("n", range(3, 6))
def test_completions_are_constant_on_row_triple_classes(n):
    red = RowTripleReduction(f"1x{n}")
    counts = count_units(red)
    for s, r in triples(n):
        unit = red.unit_of([list(range(1, n + 1)), [d + 1 for d in s], [d + 1 for d in r]])
        assert completions(n, [range(n), s, r]) == math.factorial(n - 3) * counts[unit]


@pytest.mark.parametrize("kind", REDUCTIONS)
def test_unit_of_ignores_the_labelling_and_the_column_order(kind):
    rng = random.Random(7)
    red = kind("1x7")
    for c in red.classes():
        rows = np.array(c.representative)
        relabel = np.array(rng.sample(range(1, 8), 7))
        moved = relabel[rows - 1][:, rng.sample(range(7), 7)]
        assert red.unit_of(moved) == c.class_id


def test_unit_of_refuses_rows_that_are_not_a_latin_rectangle():
    with pytest.raises(ValueError, match="Latin rectangle"):
        CycleTypeReduction("1x4").unit_of([[1, 2, 3, 4], [1, 3, 4, 2]])


@pytest.mark.parametrize("n", [6, 7])
def test_cycle_type_units_are_sums_of_row_triple_units(n):
    # With rows (id, σ_t) and column 1 increasing, row 3 starts with the
    # smallest symbol other than 1 and σ_t(1) and rows 4..n are in order:
    # exactly the row-triple units' squares, one per compatible row 3.
    _check_cycle_unit_against_triples(n, range(len(derangement_types(n))))


def _check_cycle_unit_against_triples(n, type_ids):
    cycles, triples_red = CycleTypeReduction(f"1x{n}"), RowTripleReduction(f"1x{n}")
    counts = count_units(triples_red)
    cycle_counts = {}
    sud = Sudoku(1, n)
    ec = sud.exact_cover(priority="rows")
    for t in type_ids:
        u = cycles.unit(t)
        cycle_counts[t] = ec.count(given=[sud.row_index(*g) for g in u.givens],
                                   memo=True, memo_mb=64, tail=True)
        sigma = type_representative(derangement_types(n)[t])
        first = min(set(range(n)) - {0, sigma[0]})
        expected = 0
        for r in itertools.permutations(range(n)):
            if r[0] == first and all(r[c] != c and r[c] != sigma[c] for c in range(n)):
                expected += counts[triples_red.unit_of(
                    [list(range(1, n + 1)), [d + 1 for d in sigma], [d + 1 for d in r]])]
        assert cycle_counts[t] == expected


@pytest.mark.slow
def test_order_8_unit_of_type_4_2_2_is_the_sum_of_its_row_triple_units():
    # one of the 7 cycle-type units (each takes 5-7 s CPU, results/bench_latin.md),
    # checked against the row-triple units: about 15 s in all
    _check_cycle_unit_against_triples(8, [derangement_types(8).index((4, 2, 2))])


@pytest.mark.parametrize("n", sorted(REDUCED_3_ROWS))
def test_row_triple_weights_add_up_to_the_published_3_row_rectangles(n):
    # column 1 of rows 2-3 in order picks one of (n-1)(n-2) choices
    weights = sum(c.weight for c in RowTripleReduction(f"1x{n}").classes())
    assert weights == (n - 1) * (n - 2) * REDUCED_3_ROWS[n]


def test_classes_describe_each_unit():
    classes = RowTripleReduction("1x5").classes()
    assert all(isinstance(c, LatinClass) for c in classes)
    assert classes[0].array().tolist() == [list(row) for row in classes[0].representative]
    assert [c.class_id for c in classes] == list(range(len(classes)))
    assert sum(c.weight for c in classes) == len(triples(5))
