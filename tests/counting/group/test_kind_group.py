"""The symmetry group of a kind against brute force.

Two brute-force groups, from the definitions in tests/variant_samples.py and
every element of G built from its definition (block permutations of rows and
columns, there too): the elements that keep the kind's constraint
graph (must equal :func:`kind_group`), and the elements that map the set of
the kind's grids onto itself (must contain it; on small grids it can be
larger: accidental symmetries of few grids, e.g. 4×4 Sudoku X).
"""
import functools
import math

import numpy as np
import pytest

from counting.group.kind_group import constraint_edges, kind_classes, kind_group
from counting.group.symmetries import Symmetry, group_order
from variant_samples import block_permutations, brute_fillings, kind_parts


def all_of_g(R, C):
    """Every element of G, built from its definition (not wreath_elements)."""
    n = R * C
    rows, cols = block_permutations(R, C), block_permutations(C, R)
    for t in ([False, True] if R == C else [False]):
        for x in rows:
            for y in cols:
                yield Symmetry(x, y, t)
    assert len(rows) * len(cols) * (2 if R == C else 1) == group_order(f"{R}x{C}") or n == 0


@functools.lru_cache(maxsize=None)
def graph_group(text):
    R, C, houses, pairs = kind_parts(text)
    n = R * C
    edges = {tuple(sorted((a[0] * n + a[1], b[0] * n + b[1]))) for h in houses
             for a in h for b in h if a != b}
    edges |= {tuple(sorted((a[0] * n + a[1], b[0] * n + b[1]))) for a, b in pairs}
    keep = []
    for g in all_of_g(R, C):
        p = g.cell_permutation()
        if {tuple(sorted((int(p[a]), int(p[b])))) for a, b in edges} == edges:
            keep.append(g)
    return keep


def grids_group(text):
    R, C, houses, pairs = kind_parts(text)
    n = R * C
    sols = np.array(brute_fillings(n, houses, pairs))
    assert len(sols) > 0
    want = sols[np.lexsort(sols.T[::-1])]
    keep = []
    for g in all_of_g(R, C):
        perm = g.cell_permutation()
        moved = np.empty_like(sols)
        moved[:, perm] = sols
        if np.array_equal(moved[np.lexsort(moved.T[::-1])], want):
            keep.append(g)
    return keep


KINDS = ["2x2", "2x2+x", "2x2+disjoint", "2x2+anti-knight", "2x2+disjoint+x", "1x4+x",
         "1x4+anti-knight", "1x3+x", "1x5+x", "2x3+x", "2x3+disjoint+x", "2x3+anti-knight"]


@pytest.mark.parametrize("text", KINDS)
def test_group_is_the_brute_force_group_of_the_graph(text):
    got = kind_group(text)
    want = graph_group(text)
    assert set(got.elements) == set(want)
    assert got.order == len(want) * math.factorial(got.kind.shape.n)
    assert got.elements[0] == Symmetry.identity(got.kind.shape)


@pytest.mark.parametrize("first", [0, 2])
@pytest.mark.parametrize("text", ["2x3+x", "2x3+anti-knight"])
def test_edges_tested_in_stages_still_test_every_edge(text, first, monkeypatch):
    """kind_group tests a few edges on every column part and the others only
    on those left; whatever the stages' sizes (none at first: every edge in
    the last stage), the group is the brute-force one."""
    import counting.group.kind_group as kg
    monkeypatch.setattr(kg, "FIRST_EDGES", first)
    assert set(kg.kind_group(text).elements) == set(graph_group(text))


@pytest.mark.parametrize("text", ["1x4+x", "1x5+x", "4x1+x", "1x5+anti-knight", "5x1+anti-king",
                                  "1x4+anti-knight", "1x6+x"])
def test_latin_kinds_searched_by_backtracking_get_the_enumerated_group(text, monkeypatch):
    """From order 8 a Latin kind's N!·N! pairs are too many to enumerate, and
    its group is found by backtracking: on small orders (forced there) it is
    the group of the enumeration, and of brute force where that is quick."""
    import counting.group.kind_group as kg
    enumerated = set(kg.kind_group(text).elements)
    monkeypatch.setattr(kg, "MAX_PAIRS", 10)
    searched = kg.kind_group(text)
    assert set(searched.elements) == enumerated and len(searched.elements) == len(enumerated)
    assert searched.elements[0] == Symmetry.identity(searched.kind.shape)
    if text != "1x6+x":
        assert enumerated == set(graph_group(text))


@pytest.mark.parametrize("n", [8, 9])
def test_diagonal_latin_squares_of_order_8_and_9_have_the_group_of_the_diagonals(n):
    """A row and column permutation pair keeps both diagonals exactly when
    the rows commute with the reflection s(i) = n-1-i and the columns are
    the rows or the rows followed by s (main and anti-diagonal swapped);
    built here from that description, not searched."""
    s = tuple(n - 1 - i for i in range(n))
    want = {Symmetry(r, c, False) for r in _commuting_with(s)
            for c in (r, tuple(s[v] for v in r))}
    got = kind_group(f"1x{n}+x")
    assert set(got.elements) == want and got.geometric_order == len(want)


def _commuting_with(s):
    """Permutations p of range(n) with p∘s = s∘p: each pair {i, s(i)} goes to a
    pair, in either order (and a fixed centre stays)."""
    import itertools
    n = len(s)
    pairs = [(i, s[i]) for i in range(n) if i < s[i]]
    for order in itertools.permutations(range(len(pairs))):
        for flips in itertools.product((False, True), repeat=len(pairs)):
            p = list(range(n))     # a centre (odd n) stays
            for (a, b), j, f in zip(pairs, order, flips):
                ta, tb = pairs[j] if not f else pairs[j][::-1]
                p[a], p[b] = ta, tb
            yield tuple(p)


def test_a_latin_backtracking_past_its_node_limit_is_refused(monkeypatch):
    import counting.group.kind_group as kg
    monkeypatch.setattr(kg, "MAX_NODES", 50)
    with pytest.raises(ValueError, match="too large to search"):
        kg.kind_group("1x8+x")


def test_a_shape_too_large_to_search_is_refused_before_its_parts_are_listed(monkeypatch):
    # 4x4+x: 7,962,624 row parts and as many column parts; listing them took 3.5 GB
    import counting.group.kind_group as kg

    def no_listing(*args):
        raise AssertionError("the row and column parts were listed")

    monkeypatch.setattr(kg, "wreath_elements", no_listing)
    with pytest.raises(ValueError, match=r"too large to search \(7962624·7962624 row"):
        kg.kind_group("4x4+x")


@pytest.mark.parametrize("text", ["2x2+x", "2x3+x", "1x5+x", "2x3+anti-knight"])
def test_from_cell_permutation_gives_back_every_element_of_h(text):
    group = kind_group(text)
    for g, perm in zip(group.elements, group.cell_permutations):
        assert Symmetry.from_cell_permutation(group.kind.shape, perm) == g


@pytest.mark.parametrize("text", KINDS[:7])
def test_group_keeps_the_set_of_grids(text):
    assert set(kind_group(text).elements) <= set(grids_group(text))


def test_group_is_closed_and_keeps_the_edges():
    g = kind_group("2x3+disjoint")
    perms = g.cell_permutations
    seen = {p.tobytes() for p in perms}
    for a in perms[:20]:
        for b in perms[:20]:
            assert a[b].tobytes() in seen
    edges = constraint_edges("2x3+disjoint")
    for p in perms:
        assert {tuple(sorted((int(p[a]), int(p[b])))) for a, b in edges} == edges


def test_stabiliser_keeps_the_cells():
    g = kind_group("2x2+x")
    first_row = range(4)
    for i in g.stabiliser(first_row):
        assert sorted(g.cell_permutations[i][:4]) == [0, 1, 2, 3]
    assert 0 < len(g.stabiliser(first_row)) < g.geometric_order


@pytest.mark.slow
@pytest.mark.parametrize("text, order", [
    # Reference values quoted on the enjoysudoku forum (Sudoku X: 96, Windoku: 128),
    # checked here, not used by the code.
    ("3x3+x", 96), ("3x3+windoku", 128)])
def test_nine_by_nine_group_orders(text, order):
    assert kind_group(text).geometric_order == order


@pytest.mark.parametrize("text", ["2x2+x", "2x3+x", "2x3+disjoint", "1x5+x"])
def test_classes_partition_the_group_and_are_closed_under_conjugation(text):
    classes = kind_classes(text)
    group = kind_group(text)
    assert sum(c.size for c in classes) == group.geometric_order
    assert classes[0].size == 1 and classes[0].representative == group.elements[0]
    perms = group.cell_permutations
    members = {p.tobytes() for p in perms}
    for c in classes:          # each class size divides |H| (orbit-stabiliser)
        assert group.geometric_order % c.size == 0
    for a in perms[:12]:
        for b in perms[:12]:
            assert a[b].tobytes() in members
