"""A kind's full symmetry group, from its exact cover (counting/group/cover_automorphisms.py).

The order is checked three ways: against a brute-force search of the cover's
automorphisms written here (small kinds), against the closure of nauty's
generators (the stabiliser chain's product must be the number of elements
they generate), and against the literature: the Sudoku group (9×9:
3,359,232 × 9!), SudokuP's 10,368 × 9!, Windoku's 256 × 9!, paratopy
6·(n!)³ for Latin squares.  Every generator maps the grids (found by the
independent brute force of tests/variant_samples.py) onto the grids.
"""
import math

import numpy as np
import pytest

pytest.importorskip("pynauty")

from counting.group import cover_automorphisms as ca  # noqa: E402
from counting.group.cover_automorphisms import (compare, cover_graph,  # noqa: E402
                                                cover_group)
from counting.group.symmetries import Symmetry, group_order  # noqa: E402
from grids.kind import as_kind  # noqa: E402
from grids.variants.encoding import variant_columns  # noqa: E402
from variant_samples import brute_fillings, kind_parts  # noqa: E402

NINE = math.factorial(9)


def brute_force_order(kind, implied=True):
    """Distinct option permutations made by the colour-keeping bijections of the
    items that map every option's items onto some option's items."""
    rows, n_primary, n_secondary = variant_columns(as_kind(kind), implied)
    n_items = n_primary + n_secondary
    covers = [set() for _ in range(n_items)]
    for o, cols in enumerate(rows):
        for c in cols:
            covers[c].add(o)
    option_of = {frozenset(cols): o for o, cols in enumerate(rows)}
    common = np.array([[len(covers[i] & covers[j]) for j in range(n_items)]
                       for i in range(n_items)])
    colour = np.array([(i < n_primary) * n_items + len(covers[i]) for i in range(n_items)])
    # items option by option (BFS over options), so options complete early
    order, seen, done = [], set(), set()
    for start in range(len(rows)):
        if start in done:
            continue
        queue = [start]
        done.add(start)
        while queue:
            o = queue.pop(0)
            for c in rows[o]:
                if c not in seen:
                    seen.add(c)
                    order.append(c)
                    for o2 in sorted(covers[c]):
                        if o2 not in done:
                            done.add(o2)
                            queue.append(o2)
    position = {i: d for d, i in enumerate(order)}
    complete_at = [[] for _ in range(n_items)]   # options whose last item is placed at depth d
    for cols in rows:
        complete_at[max(position[c] for c in cols)].append(cols)
    image = [None] * n_items
    used = np.zeros(n_items, dtype=bool)
    found = set()

    def extend(depth):
        if depth == n_items:
            perm = []
            for cols in rows:
                o = option_of.get(frozenset(image[c] for c in cols))
                if o is None:
                    return
                perm.append(o)
            found.add(tuple(perm))
            return
        i = order[depth]
        placed = order[:depth]
        images = [image[j] for j in placed]
        ok = (colour == colour[i]) & ~used
        if depth:
            ok &= (common[:, images] == common[i, placed]).all(axis=1)
        for t in np.flatnonzero(ok):
            image[i], used[t] = int(t), True
            if all(frozenset(image[c] for c in cols) in option_of
                   for cols in complete_at[depth]):
                extend(depth + 1)
            used[t] = False
        image[i] = None

    extend(0)
    return len(found)


def closure_order(generators) -> int:
    """How many permutations the generators make (every product, by search)."""
    if not generators:
        return 1
    gens = [np.array(g) for g in generators]
    identity = np.arange(len(gens[0]))
    seen = {identity.tobytes()}
    frontier = [identity]
    while frontier:
        new = []
        for p in frontier:
            for g in gens:
                q = g[p]
                key = q.tobytes()
                if key not in seen:
                    seen.add(key)
                    new.append(q)
        frontier = new
    return len(seen)


# -- the order, computed three ways -------------------------------------------

@pytest.mark.parametrize("kind", ["1x1", "1x2", "2x1", "1x3", "1x3+x", "1x2+anti-king"])
def test_order_is_the_brute_force_count_of_automorphisms(kind):
    assert cover_group(kind).order == brute_force_order(kind)


@pytest.mark.parametrize("kind", ["1x3", "2x2", "2x2+x", "1x4", "1x4+x", "2x2+anti-king"])
def test_order_is_the_number_of_permutations_the_generators_make(kind):
    g = cover_group(kind)
    assert g.order == closure_order(g.generators)


@pytest.mark.parametrize("kind", ["1x3", "2x2", "2x2+x", "1x4+x"])
def test_every_generator_maps_grids_onto_grids(kind):
    R, C, houses, pairs = kind_parts(kind)
    n = R * C
    grids = {frozenset(k * n + d - 1 for k, d in enumerate(grid))
             for grid in brute_fillings(n, houses, pairs)}
    assert grids
    for perm in cover_group(kind).generators:
        assert {frozenset(perm[o] for o in grid) for grid in grids} == grids


# -- the literature's groups --------------------------------------------------

def test_plain_9x9_is_the_sudoku_group():
    c = compare("3x3")
    assert c.full_order == 3_359_232 * NINE == group_order("3x3") * NINE
    assert c.index == 1 and c.describe() == []


def test_every_generator_of_plain_sudoku_moves_cells_and_relabels_digits():
    g = cover_group("3x3")
    for i in range(len(g.generators)):
        cells, digits = g.cells_and_digits(i)
        Symmetry.from_cell_permutation(as_kind("3x3").shape, cells)   # in G, or ValueError
        assert sorted(digits) == list(range(9))


def test_sudokup_also_maps_rows_onto_boxes():
    c = compare("3x3+disjoint")
    assert c.full_order == 10_368 * NINE
    assert c.index == 4
    assert "it also maps rows onto boxes" in c.describe()


def test_windoku_is_its_18_house_group():
    c = compare("3x3+windoku")
    assert c.full_order == 256 * NINE
    assert c.index == 2
    assert "it also maps boxes onto houses of +windoku" in c.describe()


def test_the_implied_houses_are_part_of_the_rules():
    # without them Windoku's exact cover keeps only today's 128
    assert cover_group("3x3+windoku", implied=False).order == 128 * NINE


@pytest.mark.parametrize("n", range(2, 10))
@pytest.mark.parametrize("side", ["1x{}", "{}x1"])
def test_latin_squares_have_paratopy(side, n):
    kind = side.format(n)
    c = compare(kind)
    assert c.full_order == 6 * math.factorial(n) ** 3
    assert c.index == 6
    assert c.describe() == [
        "it also maps cells onto rows (columns and digits exchange roles)",
        "it also maps cells onto columns (rows and digits exchange roles)",
        "it also maps rows onto columns (rows and columns exchange roles)"]


def test_the_order_is_exact_where_a_double_is_not():
    # 6·(11!)³ has an odd part above 2**53: nauty's floating-point size rounds it
    order = 6 * math.factorial(11) ** 3
    assert order // (order & -order) > 2 ** 53
    assert cover_group("1x11").order == order


def test_a_1x1_grid_has_one_option_and_the_trivial_group():
    # 6·(1!)³ would count the items' permutations; on the one option they are one
    c = compare("1x1")
    assert (c.full_order, c.today_order, c.index) == (1, 1, 1)


def test_paratopy_is_not_a_relabelling_of_cells():
    g = cover_group("1x4")
    assert any(g.cells_and_digits(i) is None for i in range(len(g.generators)))


def test_an_element_of_today_s_group_must_keep_the_cover():
    # swapping rows 1 and 4 breaks the boxes: not a symmetry, and said so
    ident = tuple(range(9))
    swap = (3, 1, 2, 0, 4, 5, 6, 7, 8)
    with pytest.raises(ArithmeticError, match="does not keep the exact cover"):
        ca.today_joined("3x3", [Symmetry(swap, ident, False)])
    assert ca.today_joined("3x3") == (("rows", "columns"),)


# -- the graph ----------------------------------------------------------------

def test_the_graph_is_the_exact_cover():
    rows, n_primary, n_secondary = variant_columns(as_kind("2x2+anti-king"))
    graph = cover_graph("2x2+anti-king")
    assert graph.n_options == len(rows) == 64
    assert len(graph.items) == n_primary + n_secondary
    assert sum(graph.primary) == n_primary
    assert sum(len(items) for items in graph.items) == sum(len(cols) for cols in rows)


def test_primary_and_secondary_items_are_told_apart():
    # 1x2+anti-king: the pair (r1c1, r1c2) with digit d covers what row 1 with d does;
    # one is "exactly once", the other "at most once"
    colours = cover_graph("1x2+anti-king").colouring()
    assert len(colours) == 3
    assert cover_group("1x2+anti-king").order == brute_force_order("1x2+anti-king") == 16


def test_nauty_missing_names_the_install_command(monkeypatch):
    import builtins
    real = builtins.__import__

    def no_pynauty(name, *args, **kwargs):
        if name == "pynauty":
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pynauty)
    assert ca.nauty_missing() == f"the full symmetry group needs pynauty: {ca.INSTALL_HINT}"


def test_the_full_group_is_given_when_today_s_is_too_large_to_search(monkeypatch):
    def too_large(kind):
        raise ValueError("the symmetry group of 2x2+x is too large to search (7·7 parts)")

    monkeypatch.setattr(ca, "kind_group", too_large)
    c = compare("2x2+x")
    assert c.full_order == 384 and c.today_order is None and c.index is None
    assert c.describe() == ["what it adds is not known: the symmetry group of 2x2+x "
                            "is too large to search (7·7 parts)"]


@pytest.mark.parametrize("kind", ["3x3+windoku", "2x3+x", "1x4+x"])
def test_today_s_group_is_applied_through_a_few_generators(kind, monkeypatch):
    """Applying each of H's elements to every item took most of the
    comparison (4,608 elements for 3x3+centre); its generators join the same
    types."""
    from counting.group.kind_group import kind_group
    everything = ca.today_joined(kind, list(kind_group(kind).elements))
    applied = []
    real = ca.today_joined

    def counted(k, elements=None, implied=True):
        applied.append(len(elements))
        return real(k, elements, implied)

    monkeypatch.setattr(ca, "today_joined", counted)
    c = compare(kind)
    order = c.today_order // math.factorial(as_kind(kind).shape.n)
    assert applied and applied[0] <= math.log2(order)
    assert set(c.new_pairs) == set(cover_group(kind).joined) - set(everything)
