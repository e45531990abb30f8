"""The cheap bounds of counting/group/latin_classes.py that the cost estimate
of a Latin-group job stratifies by (``ruled_out``, ``free_cells``): a term
they rule out fixes no square, and the free cells of a representative are
the unknowns of its search."""
import pytest

from counting.group.latin_classes import (free_cells, isomorphism_classes, paratopy_classes,
                                          ruled_out, term_fixed)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_a_ruled_out_term_fixes_no_square_and_most_do_not_carry_work(n):
    classes = [c for c in paratopy_classes(n) + isomorphism_classes(n) if not c.is_identity]
    out = [c for c in classes if ruled_out(c)]
    assert all(term_fixed(c) == 0 for c in out)
    if n >= 5:
        assert len(out) > len(classes) / 2


def test_the_identity_and_the_role_cycles_are_never_ruled_out():
    classes = paratopy_classes(5)
    assert not ruled_out(classes[0]) and classes[0].is_identity
    assert not any(ruled_out(c) for c in classes if c.coset == "(123)")


def test_free_cells_count_the_orbits_of_the_cells():
    identity, *rest = paratopy_classes(4)
    assert free_cells(identity) == 16
    transpose = next(c for c in rest if c.coset == "(12)" and c.types == ((1,) * 4, (1,) * 4))
    assert free_cells(transpose) == 4 + 6           # the diagonal, and the pairs it swaps
    cycle = next(c for c in rest if c.coset == "(123)" and c.types == ((1,) * 4,))
    assert free_cells(cycle) == (4 + (64 - 4) // 3) / 4   # triples (x, x, x) fixed, the rest in 3s
