"""The cost estimate of each Burnside term of the Latin-square classes
(counting/group/latin_cost.py), which names the terms that put order 10 out
of reach (scripts/estimate_latin_terms.py).  Only what an estimate must get
right whatever the machine: which terms are searched and on which cover,
and which terms make up 90 % of a total.  No assertion reads a time."""
import pytest

from counting.group.latin_classes import paratopy_classes, ruled_out, term_fixed
from counting.group.latin_cost import costliest_count, estimate_term, estimate_terms


@pytest.mark.parametrize("n", [4, 5])
def test_every_term_but_the_identity_is_estimated_once_under_its_unit_id(n):
    classes = paratopy_classes(n)
    estimates = estimate_terms(classes, max_seconds=0.05)
    assert [e.unit_id for e in estimates] == list(range(1, len(classes)))
    assert all(classes[e.unit_id] == e.cls for e in estimates)


def test_the_identity_s_term_is_the_grid_count_and_is_not_estimated():
    with pytest.raises(ValueError, match="grid count of 1x4"):
        estimate_term(paratopy_classes(4)[0])


@pytest.mark.parametrize("n", [4, 5])
def test_a_term_a_check_rules_out_costs_nothing_and_every_other_is_searched(n):
    for e in estimate_terms(paratopy_classes(n), max_seconds=0.05):
        if ruled_out(e.cls):
            assert (e.method, e.seconds, e.candidates) == ("ruled out", 0.0, 0)
        elif e.cls.coset == "(123)":
            assert e.method == "quotient"
        else:
            assert e.method == "cells × relabelling"
            assert min(e.candidates, 1) <= e.measured <= e.candidates   # none: nothing to search


@pytest.mark.parametrize("n", [4, 5])
def test_a_123_term_is_estimated_on_its_own_quotient(n):
    # Covers this small are counted whole at the estimator's first leaf:
    # its estimate of Fix is then exact, and it is the term's Fix only if the
    # cover estimated is the term's quotient.
    terms = [c for c in paratopy_classes(n) if c.coset == "(123)"]
    assert any(term_fixed(c) for c in terms)
    for c in terms:
        assert estimate_term(c, max_seconds=0.05).fixed == term_fixed(c)


@pytest.mark.parametrize("costs, share, k", [
    ([1.0, 5.0, 1.0, 3.0], 0.9, 3),     # 5 + 3 + 1 = 9 of 10
    ([1.0, 5.0, 1.0, 3.0], 0.8, 2),     # 5 + 3 = 8 of 10
    ([1.0, 5.0, 1.0, 3.0], 1.0, 4),
    ([7.0], 0.9, 1),
    ([0.0, 0.0], 0.9, 0),
    ([], 0.9, 0),
])
def test_the_costliest_terms_are_the_fewest_that_reach_the_share(costs, share, k):
    assert costliest_count(costs, share) == k


def test_a_share_outside_0_to_1_is_refused():
    with pytest.raises(ValueError, match="share"):
        costliest_count([1.0], 1.5)
