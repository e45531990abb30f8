"""The prefix reduction: weights, totals, prefixes, orbits (small kinds, seconds)."""
import math

import numpy as np
import pytest

from counting.reduction.prefix import PrefixReduction, choose_prefix, prefix_cells, prefix_fillings
from grids.variants import variant_exact_cover
from variant_samples import backtrack, brute_count, kind_parts, peers_of

KINDS = ["2x2", "2x2+x", "2x2+disjoint", "2x2+disjoint+x", "2x3+x", "2x3+disjoint", "3x2+disjoint",
         "1x4+x", "1x5+x", "1x5+anti-knight", "2x3+anti-knight"]


def brute_prefix_fillings(text, cells):
    """Fillings of ``cells`` keeping every rule inside them, by brute force."""
    R, C, houses, pairs = kind_parts(text)
    n = R * C
    inside = {divmod(c, n) for c in cells}
    sub_houses = [[x for x in h if x in inside] for h in houses]
    sub_pairs = [(a, b) for a, b in pairs if a in inside and b in inside]
    # brute_count fills the whole grid: fill the cells of `inside` only
    return backtrack(n, peers_of(n, sub_houses, sub_pairs), sorted(inside), {})


@pytest.mark.parametrize("text", KINDS)
@pytest.mark.parametrize("prefix", ["rows=1", "rows=2"])
def test_weights_sum_to_the_prefix_fillings(text, prefix):
    r = PrefixReduction(text, prefix)
    n = r.shape.n
    assert sum(u.weight for u in r.units()) == len(r.fillings)
    assert r.factor * len(r.fillings) == brute_prefix_fillings(text, r.cells)
    assert r.factor == math.factorial(n)


@pytest.mark.parametrize("text", KINDS)
def test_two_prefixes_give_the_engine_total(text):
    want = variant_exact_cover(text).count(memo=True)
    totals = set()
    for prefix in ["rows=1", "rows=2", "rows=3" if "1x" in text or "3x" in text else "rows=2"]:
        r = PrefixReduction(text, prefix)
        totals.add(r.total(r.count_all()))
    assert totals == {want}


@pytest.mark.parametrize("text", ["2x2+x", "2x2+disjoint", "1x4+x"])
def test_totals_match_brute_force(text):
    R, C, houses, pairs = kind_parts(text)
    r = PrefixReduction(text, "rows=2")
    assert r.total(r.count_all()) == brute_count(R * C, houses, pairs)


def test_a_box_prefix_and_a_row_prefix_agree():
    a = PrefixReduction("2x3+disjoint", "r1c1 r1c2 r1c3 r2c1 r2c2 r2c3 r3c1")
    b = PrefixReduction("2x3+disjoint", "rows=2")
    assert a.total(a.count_all()) == b.total(b.count_all())


def test_members_of_an_orbit_have_equal_counts():
    r = PrefixReduction("2x3+disjoint", "rows=2")
    ec = variant_exact_cover(r.grid_kind)
    n = r.shape.n
    counts = [ec.count(given=[c * n + int(d) - 1 for c, d in zip(r.cells, f)], memo=True)
              for f in r.fillings]
    for p in r.stabiliser:
        images = r.images(p)
        index = {row.tobytes(): i for i, row in enumerate(r.fillings)}
        assert [counts[index[row.tobytes()]] for row in images] == counts
    assert len(r.units()) < len(r.fillings)      # the stabiliser does reduce


def backtracked_fillings(r):
    """Every normal filling of ``r``'s prefix, in lexicographic order, by a
    cell-by-cell backtracking over the prefix (the enumeration before the
    vectorised one), with the peers read from the kind's houses, implied
    houses and difference pairs."""
    from grids.variants.encoding import unit_cells
    from grids.variants.implied import implied_houses
    kind, cells, n = r.grid_kind, r.cells, r.shape.n
    pos = {c: i for i, c in enumerate(cells)}
    peers = [set() for _ in cells]
    for house in unit_cells(kind) + implied_houses(kind):
        inside = [pos[c] for c in house if c in pos]
        for a in inside:
            peers[a].update(set(inside) - {a})
    for a, b in kind.differences():
        if a in pos and b in pos:
            peers[pos[a]].add(pos[b])
            peers[pos[b]].add(pos[a])
    grid = [0] * len(cells)
    for j, c in enumerate(r.normal_house):
        grid[pos[c]] = j + 1
    if any(grid[i] and grid[i] == grid[p] for i in range(len(cells)) for p in peers[i]):
        return []
    out = []

    def place(i):
        if i == len(cells):
            out.append(tuple(grid))
        elif grid[i] and i in {pos[c] for c in r.normal_house}:
            place(i + 1)
        else:
            for d in range(1, n + 1):
                if d not in {grid[p] for p in peers[i]}:
                    grid[i] = d
                    place(i + 1)
            grid[i] = 0
    place(0)
    return out


def orbits_by_every_element(r):
    """``(representative, orbit size)`` of each orbit of normal fillings, by
    the images under every element of the stabiliser, one dict lookup per
    filling (the method before the generators)."""
    fillings = [tuple(f) for f in r.fillings]
    index = {f: i for i, f in enumerate(fillings)}
    images = [[index[tuple(row)] for row in r.images(p)] for p in r.stabiliser]
    seen, out = set(), []
    for i, f in enumerate(fillings):
        if i not in seen:
            orbit = {img[i] for img in images}
            seen |= orbit
            out.append((f, len(orbit)))
    return out


SMALL = [("2x2", "rows=2"), ("2x2", "rows=1,cols=1"), ("2x2+x", "rows=2"), ("2x2+x", "diagonals"),
         ("2x2+disjoint", "rows=2"), ("2x3+x", "rows=1"), ("2x3+x", "band"),
         ("2x3+disjoint", "band"), ("2x3+disjoint", "boxes=1,2"), ("3x2+disjoint", "band"),
         ("3x2+anti-king", "band"), ("2x3+anti-knight", "rows=2"), ("1x4+x", "rows=2"),
         ("1x5+x", "band"), ("1x5+x", "rows=1,cols=1")]


@pytest.mark.parametrize("kind, prefix", SMALL)
def test_the_vectorised_fillings_are_the_backtracked_ones(kind, prefix):
    r = PrefixReduction(kind, prefix)
    assert [tuple(f) for f in r.fillings] == backtracked_fillings(r)


@pytest.mark.parametrize("kind, prefix", SMALL)
def test_orbits_by_generators_are_the_orbits_by_every_element(kind, prefix):
    r = PrefixReduction(kind, prefix)
    want = orbits_by_every_element(r)
    assert [(c.representative[0], c.weight) for c in r.classes()] == want
    assert [(tuple(d for _, _, d in u.givens), u.weight, u.unit_id) for u in r.units()] == \
        [(f, w, k) for k, (f, w) in enumerate(want)]
    assert len(r.generators) < len(r.stabiliser) or len(r.stabiliser) <= 2


def test_too_many_fillings_are_refused_in_one_line(monkeypatch):
    """Plain 4×4 row 1 and r2c1: r2c1 is the one cell to fill, so the whole
    fillings are the first to pass the limit."""
    import counting.reduction.prefix as prefix
    n_fillings = len(PrefixReduction("2x2", "rows=1,r2c1").fillings)
    monkeypatch.setattr(prefix, "MAX_FILLINGS", n_fillings - 1)
    with pytest.raises(ValueError, match=f"^the prefix has over {n_fillings - 1:,} normal fillings: "
                                         f"choose a smaller one$"):
        PrefixReduction("2x2", "rows=1,r2c1").units()
    monkeypatch.setattr(prefix, "MAX_FILLINGS", n_fillings)
    assert sum(u.weight for u in PrefixReduction("2x2", "rows=1,r2c1").units()) == n_fillings


def test_partial_fillings_beyond_the_limit_are_refused_while_growing():
    """2x3+x rows 1-2 has 36 normal fillings but more partial ones on the
    way (the diagonals prune row 2's last cells)."""
    cells = prefix_cells("2x3+x", "rows=2")
    assert len(prefix_fillings("2x3+x", cells, limit=36)) == 36
    with pytest.raises(ValueError, match=r"^the prefix has over 35 normal fillings \(or partial "
                                         r"fillings of its first cells\): choose a smaller one$"):
        prefix_fillings("2x3+x", cells, limit=35)


def plain_bands_with_row_1_given() -> int:
    """Bands of 9×9 Sudoku with row 1 = 1..9, by itertools: every row 2 that
    keeps the boxes, times the 3!³ orders of row 3 (whose box sets it fixes)."""
    import itertools
    boxes = [set(range(1, 4)), set(range(4, 7)), set(range(7, 10))]
    rows2 = sum(all(not set(p[3 * b:3 * b + 3]) & boxes[b] for b in range(3))
                and len({frozenset(p[3 * b:3 * b + 3]) | boxes[b] for b in range(3)}) == 3
                for p in itertools.permutations(range(1, 10)))
    return rows2 * math.factorial(3) ** 3


@pytest.mark.slow
def test_sudokup_band_orbits_weigh_every_normal_band():
    """9×9 SudokuP with band 1 as the prefix: the orbits' sizes add up to the
    normal fillings, which are the plain bands with row 1 = 1..9 (the extra
    houses meet band 1 in three cells of one row each), and the group
    (432 elements keep band 1) leaves far fewer orbits than fillings."""
    r = PrefixReduction("3x3+disjoint", "band")
    reps, sizes, n_fillings = r.orbit_table
    assert sum(sizes) == n_fillings == plain_bands_with_row_1_given()
    assert len(sizes) == len(reps) and len(sizes) * 100 < n_fillings


def test_fillings_are_normal_and_sorted():
    f = prefix_fillings("2x3+x", prefix_cells("2x3+x", "rows=2"))
    assert (f[:, :6] == np.arange(1, 7)).all()
    assert [tuple(r) for r in f] == sorted(tuple(r) for r in f)


@pytest.mark.parametrize("prefix, message", [
    ("rows=0", "bad prefix 'rows=0': rows= takes a number K from 1 to 4"),
    ("rows=1,3", "bad prefix 'rows=1,3': rows=K takes one number (the first K)"),
    ("boxes=5", "bad prefix 'boxes=5': boxes= takes box numbers from 1 to 4"),
    ("diagonals=1", "bad prefix 'diagonals=1': 'diagonals' takes no value"),
    ("rows=2,héhé", "bad prefix 'rows=2,héhé': not ASCII"),
    ("r1c1 r2c2", "the prefix must contain a whole house of 2x2 (a row, say)"),
    ("r1c1 r5c1", "prefix 'r1c1 r5c1': r5c1 is off the 4×4 grid"),
    ("", "prefix '' has no cells"),
])
def test_bad_prefixes(prefix, message):
    with pytest.raises(ValueError) as err:
        PrefixReduction("2x2", prefix)
    assert str(err.value) == message


def test_an_unknown_prefix_part_is_named():
    with pytest.raises(ValueError, match="^bad prefix 'stacks=1': unknown part 'stacks' [(]a prefix"):
        PrefixReduction("2x2", "stacks=1")


def test_a_latin_kind_has_no_boxes_for_a_prefix():
    with pytest.raises(ValueError, match="^bad prefix 'boxes=1': 1x5[+]x has no boxes$"):
        PrefixReduction("1x5+x", "boxes=1")


# Named prefixes: each is another set of cells, so another set of units.
NAMED = {"2x2+x": ["rows=1", "rows=2", "cols=2", "boxes=1,4", "diagonals", "rows=1,cols=1"],
         "2x3+x": ["rows=2", "band", "diagonals", "rows=1,cols=1", "cols=3"],
         "2x3+disjoint": ["rows=1", "boxes=1,2", "boxes=1,6", "rows=1,cols=1", "cols=2"],
         "3x2+anti-king": ["rows=1", "band", "boxes=1", "rows=1,r2c1,r3c1"],
         "1x5+x": ["rows=2", "diagonals", "rows=1,cols=1", "cols=2"]}


@pytest.mark.parametrize("text", sorted(NAMED))
def test_named_prefixes_give_the_brute_force_total_and_weights_sum_to_fillings(text):
    R, C, houses, pairs = kind_parts(text)
    # 4×4 and order 5 by the independent brute force, 6×6 by the whole matrix
    want = brute_count(R * C, houses, pairs) if R * C <= 5 else \
        variant_exact_cover(text).count(memo=True)
    units_seen = set()
    for prefix in NAMED[text]:
        r = PrefixReduction(text, prefix)
        units = r.units()
        assert sum(u.weight for u in units) == len(r.fillings), prefix
        assert r.factor * len(r.fillings) == brute_prefix_fillings(text, r.cells), prefix
        assert r.total(r.count_all()) == want, prefix
        units_seen.add(tuple(u.givens for u in units))
    assert len(units_seen) > 1          # the prefixes do decompose differently


@pytest.mark.parametrize("kind, prefix, spelled, cells", [
    ("2x3+x", "band", "rows=2", tuple(range(12))),
    ("3x2+x", "band", "rows=3", tuple(range(18))),
    ("1x5+x", "band", "rows=3", tuple(range(15))),
    ("2x2+x", "cols=1", "cols=1", (0, 4, 8, 12)),
    ("2x2+x", "boxes=4,1", "boxes=1,4", (0, 1, 4, 5, 10, 11, 14, 15)),
    ("2x2+x", "diagonals", "diagonals", (0, 3, 5, 6, 9, 10, 12, 15)),
    ("2x2+x", " rows=1, r2c2 r2c1 ", "rows=1,r2c1,r2c2", (0, 1, 2, 3, 4, 5)),
])
def test_named_prefixes_have_one_spelling_and_their_cells(kind, prefix, spelled, cells):
    r = PrefixReduction(kind, prefix)
    assert (r.prefix_text, r.cells) == (spelled, cells)
    assert r.name == f"prefix-{spelled}"
    assert PrefixReduction.from_name(kind, r.name).cells == cells


def test_choose_prefix_measures_every_candidate():
    best, table = choose_prefix("2x3+x", probes=5, sample=2, max_seconds=1)
    assert best in {"rows=1", "rows=2"}
    assert [t["prefix"] for t in table] == ["rows=1", "rows=2"]
    assert all(t["seconds"] > 0 for t in table)


def test_a_unit_is_the_kind_s_matrix_with_its_prefix_given():
    from counting.options import CountOptions
    r = PrefixReduction("2x3+x", "rows=2")
    u = r.units()[0]
    problem = r.problem(u)
    ec = problem.build()
    plain = ec.count(given=list(problem.given), **CountOptions(memo=False).engine_arguments(ec))
    assert plain == r.count(u) and ec.stats.nodes > 0


@pytest.mark.parametrize("prefix, name", [("rows=2", "prefix-rows=2"),
                                          ("r1c1 r1c2 r1c3 r1c4 r2c1", "prefix-r1c1,r1c2,r1c3,r1c4,r2c1")])
def test_names_round_trip(prefix, name):
    r = PrefixReduction("2x2+x", prefix)
    assert r.name == name
    again = PrefixReduction.from_name("2x2+x", name)
    assert again.cells == r.cells
    u = r.units()[0]
    assert (u.shape, u.reduction) == ("2x2+x", name)


def test_units_of_another_kind_are_refused():
    u = PrefixReduction("2x2+x", "rows=2").units()[0]
    with pytest.raises(ValueError, match="^a unit of 2x2[+]x by prefix-rows=2, not of 2x2 by "
                                         "prefix-rows=2$"):
        PrefixReduction("2x2", "rows=2").count(u)
    with pytest.raises(ValueError, match="^not a prefix reduction name: 'moves'"):
        PrefixReduction.from_name("2x2", "moves")


def test_row_order_keeps_the_total():
    a = PrefixReduction("2x3+disjoint", "rows=2", row_order=[0, 1, 5, 2, 3, 4])
    b = PrefixReduction("2x3+disjoint", "rows=2")
    assert a.name == b.name and a.total(a.count_all()) == b.total(b.count_all())


def test_a_prefix_across_an_implied_house_keeps_it(tmp_path):
    """Jigsaw rows 1-2 hold region A whole, so r1c5 r1c6 r2c3 r2c4 r2c5 r2c6
    is an implied house (grids.variants.implied): a filling of row 1 and r2c3
    with r2c3 equal to r1c5 has no completion, and would clash as givens."""
    path = tmp_path / "j.kind"
    path.write_text("regions\nAAAABB\nAACCCB\nDDCCBB\nDDDCBE\nDEEEEE\nFFFFFF\n")
    kind = f"2x3+@{path}"
    r = PrefixReduction(kind, "rows=1,r2c3")
    assert len(r.fillings) == 3          # r2c3 avoids r1c3 (its column), r1c5 and r1c6
    assert r.total(r.count_all()) == variant_exact_cover(kind).count(memo=True)


def test_a_group_too_large_to_search_leaves_every_filling_its_own_unit(monkeypatch):
    import counting.group.kind_group as kg
    full = PrefixReduction("1x5+x", "rows=2")
    full_units = full.units()                          # the group is searched here
    monkeypatch.setattr(kg, "MAX_PAIRS", 10)          # 5!·5! pairs is now too many,
    monkeypatch.setattr(kg, "MAX_NODES", 10)          # and so is a backtracking of 10
    alone = PrefixReduction("1x5+x", "rows=2")
    assert alone.group.geometric_order == 1 < full.group.geometric_order
    assert len(alone.units()) == len(alone.fillings) > len(full_units)
    assert all(u.weight == 1 for u in alone.units())
    assert alone.total(alone.count_all()) == full.total(full.count_all()) == 960
