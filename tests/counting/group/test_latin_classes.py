"""Main classes and isomorphism classes of Latin squares by Burnside
(counting/group/latin_classes.py), against brute force: every Latin square
listed by a backtracking search written here (not the exact cover under
test), its orbits found by union-find under generators of the group, the
squares each representative fixes counted one by one, and the conjugacy
classes of S_n ≀ S_3 found by conjugating its listed elements.

Reference values (OEIS A003090, A057991, A040082) appear only as the
brute force's own output for n ≤ 4; the script's run compares the rest.
"""
import math
from itertools import product

import numpy as np
import pytest

from counting.group.burnside import count_unit, essentially_different, symmetry_units
from counting.group.full_burnside import element_classes, group_elements
from counting.group.latin_classes import (COMMUTING_LIMIT, cell_commuting, first_row_classes,
                                          isomorphism_class_count, isomorphism_classes,
                                          main_class_count, paratopism, paratopy_classes,
                                          quotient_fixed, term_fixed)
from latin_samples import brute_fixed, generators, union_find_classes


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_main_classes_are_the_union_find_orbits_under_paratopy(n):
    assert main_class_count(n).classes == union_find_classes(n, "main")


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_isomorphism_classes_are_the_union_find_orbits_under_the_diagonal_group(n):
    assert isomorphism_class_count(n).classes == union_find_classes(n, "isomorphism")


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_the_identity_coset_gives_the_isotopy_classes(n):
    assert main_class_count(n).isotopy_classes == union_find_classes(n, "isotopy")


@pytest.mark.parametrize("n", [5, 6])
def test_the_identity_coset_gives_the_isotopy_count_of_up_to_symmetry(n):
    shape = f"1x{n}"
    today = essentially_different(shape, {u.unit_id: count_unit(u).fixed
                                          for u in symmetry_units(shape)})
    assert main_class_count(n).isotopy_classes == today


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("method", ["fast", "quotient"])
def test_every_term_is_the_number_of_squares_its_representative_fixes(n, method):
    for cls in paratopy_classes(n) + isomorphism_classes(n):
        assert term_fixed(cls, method=method) == brute_fixed(n, cls.triples()), cls.label()


def test_conjugate_elements_fix_equally_many_squares():
    """The three orderings of one δ = id class, counted by the fast method
    (cells × relabelling) and by the quotient, agree."""
    n = 5
    for cls in paratopy_classes(n):
        if cls.coset != "id" or cls.is_identity:
            continue
        s = cls.perms()[:3]
        counts = {quotient_fixed(n, paratopism(n, s[i], s[(i + 1) % 3], s[(i + 2) % 3]))
                  for i in range(3)}
        assert counts == {term_fixed(cls)}, cls.label()


@pytest.mark.parametrize("n", range(1, 9))
def test_the_class_sizes_sum_to_the_group_order(n):
    assert sum(c.size for c in paratopy_classes(n)) == 6 * math.factorial(n) ** 3
    assert sum(c.size for c in isomorphism_classes(n)) == math.factorial(n)
    assert paratopy_classes(n)[0].is_identity and paratopy_classes(n)[0].size == 1


@pytest.mark.parametrize("n", [2, 3])
def test_the_classes_are_the_conjugacy_classes_of_the_wreath_product(n):
    """Each class of W found by conjugating its listed elements holds exactly
    one representative, and has its size."""
    order = 6 * math.factorial(n) ** 3
    gens = generators(n, "main")
    elements = group_elements(gens, order)
    index = {e.tobytes(): i for i, e in enumerate(elements)}
    found = element_classes(elements, gens)
    which = {i: k for k, members in enumerate(found) for i in members}
    ours = paratopy_classes(n)
    assert len(ours) == len(found)
    hit = [which[index[c.triples().tobytes()]] for c in ours]
    assert sorted(hit) == list(range(len(found)))
    assert [len(found[k]) for k in hit] == [c.size for c in ours]


def test_every_element_of_a_class_fixes_as_many_squares_as_its_representative():
    n = 3
    gens = generators(n, "main")
    elements = group_elements(gens, 6 * math.factorial(n) ** 3)
    fixed = [brute_fixed(n, e) for e in elements]
    for members in element_classes(elements, gens):
        assert len({fixed[i] for i in members}) == 1


def test_the_identity_beyond_searched_orders_needs_the_grid_count():
    identity = paratopy_classes(7)[0]
    with pytest.raises(ValueError, match="pass grid_total"):
        term_fixed(identity)
    with pytest.raises(ValueError, match="multiple of 7!"):
        term_fixed(identity, grid_total=5041)
    assert term_fixed(identity, grid_total=5040 * 3) == 5040 * 3


def test_bad_orders_and_methods_are_refused():
    for bad in (0, -1, 2.0, True):
        with pytest.raises(ValueError, match="order must be a positive integer"):
            main_class_count(bad)
    with pytest.raises(ValueError, match="method must be one of"):
        term_fixed(paratopy_classes(2)[1], method="guess")


def test_a_sum_the_order_does_not_divide_is_an_error():
    result = main_class_count(3)
    bad = type(result)(3, result.group, result.order + 1, result.terms)
    with pytest.raises(ArithmeticError, match="not a multiple"):
        bad.classes


def test_the_representatives_act_as_described():
    n = 3
    for cls in paratopy_classes(n):
        perm = cls.triples()
        a1, a2, a3, delta = cls.perms()
        for r, c, s in product(range(n), repeat=3):
            image = np.unravel_index(perm[(r * n + c) * n + s], (n, n, n))
            want = {"id": (a1[r], a2[c], a3[s]), "(12)": (a1[c], r, a3[s]),
                    "(123)": (a1[s], r, c)}[cls.coset]
            assert tuple(int(x) for x in image) == want


@pytest.mark.parametrize("n", [3, 4, 5])
def test_counting_first_row_by_first_row_class_changes_no_term(n):
    """The quotient split by classes of first rows (under the diagonal
    elements commuting with g) counts what one search counts."""
    for cls in paratopy_classes(n) + isomorphism_classes(n):
        if cls.is_identity:
            continue
        perm = cls.triples()
        assert quotient_fixed(n, perm, split_at=1) == quotient_fixed(n, perm, split_at=None), \
            cls.label()


def test_the_first_row_classes_partition_the_first_rows():
    cls = [c for c in paratopy_classes(5) if c.coset == "(123)"][-1]
    classes = first_row_classes(5, cls.triples())
    assert sum(size for _, size in classes) == math.factorial(5) and len(classes) > 1


@pytest.mark.parametrize("n", [5])
def test_the_fast_terms_equal_the_quotient_terms(n):
    """δ = id and (12) by cells × relabelling (reduced by commuting
    elements: cell_commuting for (12)) against the quotient."""
    for cls in paratopy_classes(n) + isomorphism_classes(n):
        if not cls.is_identity and cls.coset != "(123)":
            assert term_fixed(cls) == term_fixed(cls, method="quotient"), cls.label()


def test_every_class_describes_its_representative():
    words = {c.representative() for c in paratopy_classes(3) + isomorphism_classes(3)}
    assert "(σ[2 1], id, τ[3]; (12)): (r,c,s)→(σ c, r, τ s)" in words
    assert "(σ[1^3], id, id; (123)): (r,c,s)→(σ s, r, c)" in words
    assert "(σ[1^3], σ[2 1], σ[3]; id)" in words and "(σ[3], σ[3], σ[3])" in words
    assert len(words) == len(paratopy_classes(3)) + len(isomorphism_classes(3))


def test_a_transposition_term_reduces_by_every_commuting_diagonal_element():
    """Not a sample: a sample of 2,000 of order 9's 8! held only 9 elements
    that also keep the relabelling (of 192), and the (1^9, 2^2 1^5) term
    searched for over 480 s instead of about 20 s."""
    n = 9
    transpose = [c * n + r for r in range(n) for c in range(n)]
    found = cell_commuting(n, transpose, list(range(n)), limit=COMMUTING_LIMIT)
    assert len(found) == math.factorial(n - 1)
