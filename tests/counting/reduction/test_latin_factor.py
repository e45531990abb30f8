"""The ``factor`` reduction: Latin squares as weighted units of the
1-factorization kernel, checked against the dancing-links reductions."""
from __future__ import annotations

import pytest

from counting.reduction import default_reduction, get_reduction
from counting.reduction.latin_factor import LatinFactorReduction
from counting.run.counter import count_unit, reduction_of


def _total(red):
    return red.total({u.unit_id: count_unit(u).count for u in red.units()})


@pytest.mark.parametrize("shape", ["1x2", "1x3", "1x4", "1x5", "1x6", "6x1", "1x7"])
def test_the_total_equals_the_dancing_links_total(shape):
    # two different methods: the kernel's units and the searched classes of rows 1-3
    searched = get_reduction(shape, "cycles") if shape in ("1x2",) else \
        get_reduction(shape, "cycles2")
    assert _total(get_reduction(shape, "factor")) == _total(searched)


def test_units_are_positions_one_per_class_with_computed_weights():
    red = get_reduction("1x7", "factor")
    units, classes = red.units(), red.classes()
    assert [u.unit_id for u in units] == list(range(len(units))) == [c.class_id for c in classes]
    assert all(u.weight == c.weight > 0 and u.column_sets == c.representative
               for u, c in zip(units, classes))
    assert {len(s) for u in units for s in u.column_sets} == {units[0].degree} == {4}


def test_a_unit_goes_to_the_kernel_and_back_as_a_stored_result():
    red = get_reduction("1x6", "factor")
    u = red.units()[1]
    assert reduction_of(u) is red and red.problem(u) is None
    r = count_unit(u)
    assert (r.unit_id, r.class_id, r.form_id) == (1, 1, 0) and r.count > 0
    assert r.engine_version.startswith("factorization")


def test_it_is_the_default_for_order_9_only():
    assert default_reduction("1x9") == "factor"
    assert default_reduction("1x8") == "cycles2"
    assert not LatinFactorReduction.applies_to("1x10") and not LatinFactorReduction.applies_to("2x2")
    with pytest.raises(ValueError, match="applies to Latin squares"):
        LatinFactorReduction("3x3")


def test_a_foreign_unit_is_refused():
    unit = get_reduction("1x5", "factor").units()[0]
    with pytest.raises(ValueError, match="not 1x6/factor"):
        get_reduction("1x6", "factor").count_directly(unit)
