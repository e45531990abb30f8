"""Essentially different grids under the full group, by Burnside over a
quotient exact cover per class (counting/group/full_burnside.py), against the
orbits found by union-find over every grid (tests/variant_samples.py's
independent brute force) joined to its images under the group's generators.

Reference values: Latin squares of order 4 fall into 2 main classes
(paratopy; McKay, Meynert & Myrvold 2007), 4×4 Sudoku grids into 2
essentially different ones (Russell & Jarvis 2006).
"""
import pytest

pytest.importorskip("pynauty")

from counting.group.cover_automorphisms import cover_group  # noqa: E402
from counting.group.full_burnside import (full_orbit_count, group_elements,  # noqa: E402
                                          quotient, MAX_ELEMENTS)
from union_find import UnionFind  # noqa: E402
from variant_samples import brute_fillings, kind_parts  # noqa: E402

SMALL = ["1x1", "1x2", "2x1", "1x3", "1x4", "2x2", "2x2+x", "1x4+x", "1x3+x", "2x2+anti-king",
         "2x2+anti-knight", "2x2+disjoint", "2x2+disjoint+x"]


def union_find_orbits(kind) -> int:
    R, C, houses, pairs = kind_parts(kind)
    n = R * C
    grids = [frozenset(k * n + d - 1 for k, d in enumerate(grid))
             for grid in brute_fillings(n, houses, pairs)]
    sets = UnionFind(grids)
    for perm in cover_group(kind).generators:
        for grid in grids:
            sets.union(grid, frozenset(perm[o] for o in grid))
    return sets.count()


@pytest.mark.parametrize("kind", SMALL)
def test_burnside_over_the_full_group_is_the_union_find_orbit_count(kind):
    assert full_orbit_count(kind).orbits == union_find_orbits(kind)


def test_references():
    assert full_orbit_count("1x4").orbits == 2
    assert full_orbit_count("2x2").orbits == 2


@pytest.mark.parametrize("kind", ["1x4", "2x2", "1x4+x"])
def test_the_classes_partition_the_group_and_the_identity_fixes_every_grid(kind):
    b = full_orbit_count(kind)
    assert sum(size for size, _ in b.classes) == b.order
    R, C, houses, pairs = kind_parts(kind)
    assert b.classes[0] == (1, len(brute_fillings(R * C, houses, pairs)))


def test_a_group_too_large_to_list_is_refused():
    with pytest.raises(ValueError, match="more than the"):
        group_elements([], MAX_ELEMENTS + 1)


# a cover of four items whose exact covers are options {0, 1} and {2, 3}; the
# option swap 0 <-> 1 (items 0 <-> 2, 1 <-> 3) maps it onto itself and fixes both
SQUARE = [[0, 1], [2, 3], [0, 2], [1, 3]]
SWAP = [1, 0, 2, 3]


def test_the_quotient_has_one_row_per_orbit_and_the_items_covered_together_as_one():
    q = quotient(SQUARE, SWAP, [True] * 4)
    assert q.row_of.tolist() == [0, 0, 1, 2]
    assert (q.n_primary, q.n_secondary) == (2, 0)     # items {0, 2} and {1, 3}
    assert q.count() == 2


def test_an_item_no_row_covers_leaves_no_cover_if_primary_and_changes_nothing_if_secondary():
    assert quotient(SQUARE, SWAP, [True] * 4 + [False]).count() == 2     # item 4: no option
    assert quotient(SQUARE, SWAP, [True] * 5).count() == 0


def test_an_orbit_that_covers_an_item_twice_is_no_row():
    q = quotient([[0], [0], [1]], [1, 0, 2], [True, True])
    assert q.row_of.tolist() == [-1, -1, 0] and q.count() == 0


# the quotient construction broken on purpose, three ways: the oracle above
# must tell each from the real one (a test that cannot fail would pass them)
def _keeping_orbits_that_cover_an_item_twice(real):
    """The quotient with an orbit that covers some item twice kept as a row
    covering the union of its items (each option passed on with only the
    items no earlier option of its orbit covers)."""
    def broken(items, perm, primary):
        items, seen = [list(i) for i in items], set()
        for start in range(len(perm)):
            if start in seen:
                continue
            covered, o = set(), start
            while o not in seen:
                seen.add(o)
                items[o] = [j for j in items[o] if j not in covered]
                covered.update(items[o])
                o = int(perm[o])
        return real(items, perm, primary)
    return broken


BREAKAGES = {
    "an orbit that covers an item twice kept": _keeping_orbits_that_cover_an_item_twice,
    "the orbits of g squared, not of g":
        lambda real: lambda items, perm, primary: real(items, [perm[perm[o]] for o in
                                                               range(len(perm))], primary),
    "every option its own orbit":
        lambda real: lambda items, perm, primary: real(items, list(range(len(perm))), primary),
}


@pytest.mark.parametrize("breakage", sorted(BREAKAGES))
@pytest.mark.parametrize("kind", ["2x2", "1x4"])
def test_a_broken_quotient_no_longer_gives_the_union_find_orbit_count(monkeypatch, kind,
                                                                     breakage):
    from counting.group import full_burnside

    expected = union_find_orbits(kind)
    monkeypatch.setattr(full_burnside, "quotient", BREAKAGES[breakage](full_burnside.quotient))
    try:
        broken = full_burnside.full_orbit_count.__wrapped__(kind).orbits
    except ArithmeticError:         # Σ |K|·Fix is no longer a multiple of the order
        return
    assert broken != expected


JIGSAW = "regions\nAABB\nACBB\nACDD\nCCDD\nhouse r1c1 r2c2 r3c3 r4c4\ndiffer r1c4 r2c3\n"


def test_a_user_s_kind_file_gets_its_full_group_with_nothing_typed_for_it(tmp_path,
                                                                         monkeypatch):
    """The group comes from the exact cover alone: a kind file that spells out
    the diagonals has 2x2+x's group, and a jigsaw with a diagonal and a pair
    of different cells is counted under its own group, matched with
    union-find over its grids listed here from the file's text."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.kind").write_text("house r1c1 r2c2 r3c3 r4c4\nhouse r1c4 r2c3 r3c2 r4c1\n")
    (tmp_path / "j.kind").write_text(JIGSAW)
    assert cover_group("2x2+@x.kind").order == cover_group("2x2+x").order == 384
    regions = ["AABB", "ACBB", "ACDD", "CCDD"]
    cells = [(r, c) for r in range(4) for c in range(4)]
    houses = ([[(r, c) for c in range(4)] for r in range(4)]
              + [[(r, c) for r in range(4)] for c in range(4)]
              + [[x for x in cells if regions[x[0]][x[1]] == s] for s in "ABCD"]
              + [[(i, i) for i in range(4)]])
    grids = [frozenset(k * 4 + d - 1 for k, d in enumerate(grid))
             for grid in brute_fillings(4, houses, [((0, 3), (1, 2))])]
    sets = UnionFind(grids)
    group = cover_group("2x2+@j.kind")
    for perm in group.generators:
        for grid in grids:
            sets.union(grid, frozenset(perm[o] for o in grid))
    assert len(grids) == 24
    assert full_orbit_count("2x2+@j.kind").orbits == sets.count()
