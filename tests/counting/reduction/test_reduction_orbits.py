"""Specification of the symmetry reduction's recount (counting/reduction/orbits.py):
each unit's A_t counted again for another element of its class, which gives
the stored count.  (Named apart from tests/counting/group/test_orbits.py,
whose basename it would share.)"""
from __future__ import annotations

import numpy as np
import pytest

import counting.reduction.orbits as orbits
from counting.group.burnside import count_unit
from counting.options import CountOptions
from counting.reduction import get_reduction
from variant_samples import rule_keeping_moves


@pytest.mark.parametrize("text", ["2x2", "2x3", "1x5", "2x2+x", "2x3+x", "1x5+x"])
def test_every_unit_recounted_for_another_element_of_its_class_gives_its_count(text,
                                                                               monkeypatch):
    red = get_reduction(text, "symmetry")
    moves = np.array(rule_keeping_moves(text))
    counted, real = [], orbits.count_fixed

    def spy(kind, g, pi_type, options=None, **kw):
        counted.append(g)
        return real(kind, g, pi_type, options, **kw)
    monkeypatch.setattr(orbits, "count_fixed", spy)
    for u in red.units()[1:]:
        counted.clear()
        again = red.count_independently(u)
        g = u.symmetry.cell_permutation()
        if np.array_equal(moves[:, g], g[moves]):    # g central: nothing else to count
            assert again is None and counted == []
            continue
        assert len(counted) == 1 and counted[0] != u.symmetry, u.unit_id
        assert again == count_unit(u).fixed, u.unit_id


def test_a_recount_applies_recounts_options(monkeypatch):
    red = get_reduction("2x2", "symmetry")
    seen, real = [], orbits.count_fixed

    def spy(kind, g, pi_type, options):
        seen.append(options)
        return real(kind, g, pi_type, options)
    monkeypatch.setattr(orbits, "count_fixed", spy)
    unit = red.units()[1]
    assert red.count_independently(unit, CountOptions(memo=False)) == count_unit(unit).fixed
    assert [o.memo for o in seen] == [False]


def test_a_unit_of_another_job_is_refused():
    with pytest.raises(ValueError, match="is a 2x2/symmetry unit, not 2x2[+]x/symmetry"):
        get_reduction("2x2+x", "symmetry").count_independently(
            get_reduction("2x2", "symmetry").units()[1])
