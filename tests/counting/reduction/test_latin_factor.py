"""The ``factor`` reduction: Latin squares as weighted units of the
1-factorization kernel, checked against the dancing-links reductions."""
from __future__ import annotations

import pytest

from counting.options import CountOptions
from counting.reduction import default_reduction, get_reduction
from counting.reduction import latin_factor
from counting.reduction.latin_factor import LatinFactorReduction
from factorization import count_unit_class
from factorization.estimate import classes_bound
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


def test_it_is_the_default_for_orders_9_to_11_only():
    assert default_reduction("1x9") == "factor"
    assert default_reduction("1x8") == "cycles2"
    assert LatinFactorReduction.default_for("1x10") and LatinFactorReduction.default_for("10x1")
    assert LatinFactorReduction.default_for("1x11")      # estimated; its units are not enumerated
    assert not LatinFactorReduction.applies_to("1x12") and not LatinFactorReduction.applies_to("2x2")
    with pytest.raises(ValueError, match="applies to Latin squares"):
        LatinFactorReduction("3x3")


def test_a_foreign_unit_is_refused():
    unit = get_reduction("1x5", "factor").units()[0]
    with pytest.raises(ValueError, match="not 1x6/factor"):
        get_reduction("1x6", "factor").count_directly(unit)


def test_a_store_of_another_kernel_has_no_total_here():
    """Another kernel's canonical form gives the graphs other ids: this kernel's weights on
    its counts make another number (1x5's two units exchanged: 155,520, not 161,280), so
    such a store's total is refused, in one line saying why."""
    red = get_reduction("1x5", "factor")
    counts = {u.unit_id: count_unit(u).count for u in red.units()}
    exchanged = {0: counts[1], 1: counts[0]}
    assert red.total(counts) == 161280 != red.total(exchanged) == 155520
    assert red.foreign_engine("factorization-2 canon-99") is not None
    why = red.foreign_total_refused()
    assert why.startswith("L_n = Σ weight · count weighs each unit's count") and "\n" not in why
    assert red.total_refused_for("factorization-2 canon-99") == why
    assert red.total_refused_for(red.engine_version) is None          # this kernel's store


@pytest.fixture
def chunked_order_7(monkeypatch):
    """Order 7 laid out as order 10 is: classes at degree 5, each in 4 chunks."""
    monkeypatch.setitem(latin_factor.LAYOUT, 7, (5, 4))
    latin_factor.forget_classes()
    yield LatinFactorReduction("1x7")
    latin_factor.forget_classes()


def test_chunked_units_are_class_times_chunks_and_give_the_same_total(chunked_order_7):
    red = chunked_order_7
    units, classes = red.units(), red.classes()
    assert len(units) == 4 * len(classes)
    assert all(u.unit_id == 4 * u.class_id + u.form_id and u.form_id == u.chunk
               and u.weight == classes[u.class_id].weight for u in units)
    counts = {u.unit_id: count_unit(u).count for u in units}
    assert red.total(counts) == _total(get_reduction("1x7", "cycles2"))
    # the chunks of a class sum to the class's F_5 counted whole
    whole = {c.class_id: count_unit_class(c.representative, 5) for c in classes}
    assert red.class_totals(counts) == whole


def test_the_estimate_starts_from_the_known_classes_and_finds_more_below():
    red = get_reduction("1x8", "factor")    # units at degree 5 of 8 + 8
    spec = red.units()[0]
    share = red.estimate_unit_seconds(spec, None, probes=0, seed=1, max_seconds=0.2)
    cost = red.cost(spec, seed=1, max_seconds=0.2)
    (d5, n5, e5), (d4, n4, e4) = cost.levels
    assert (d5, n5) == (5, len(red.classes())) and d4 == 4
    assert n4 > n5          # 4-regular graphs on 8 + 8 outnumber 5-regular ones
    assert share > 0 and e5 > 0 and e4 > 0 and cost.paths >= 2
    # the memo holds the classes below the units' degree, 64 bytes each, <= 3/4 full
    assert cost.memo_bytes == int(n4 * 64 / 0.75)


def test_order_11_is_estimated_from_random_graphs_without_enumerating_its_units():
    red = get_reduction("1x11", "factor")
    n, exact = red.n_units_bound()
    assert not exact and n == 256 * classes_bound(11, 7)
    spec, = red.sample_units(1, seed=2)
    assert spec.unit_id == -1 and {len(s) for s in spec.column_sets} == {7}
    private, shared = red.estimate_memory()                  # the memo file, shared by default
    assert private == 0 and shared / 2 ** 20 > 10_000        # more than 10 GiB of classes below degree 7
    assert red.estimate_memory(CountOptions(shared_memo=False)) == (shared, 0)
    with pytest.raises(ValueError, match="units of order 11 are not enumerated here"):
        red.units()


def test_recount_counts_on_a_new_memo_table_not_the_process_s_nor_the_shared_file(monkeypatch,
                                                                                   chunked_order_7):
    """recount's count of a factor unit: the kernel again on a counter of its own (it
    was count_directly's, on the machine's shared memo file the count filled)."""
    red = get_reduction("1x5", "factor")
    stored = {u.unit_id: count_unit(u).count for u in red.units()}

    def shared(*args, **kwargs):
        raise AssertionError("the process's counter (the shared memo file) was used")
    monkeypatch.setattr(latin_factor, "process_counter", shared)
    for options in (CountOptions(), CountOptions(memo=False)):
        assert {u.unit_id: red.count_independently(u, options) for u in red.units()} == stored
    chunks = chunked_order_7.units()[:4]                 # the chunks of class 0
    assert sum(chunked_order_7.count_independently(u) for u in chunks) == \
        count_unit_class(chunks[0].column_sets, 5)
    assert red.recount_method().startswith("the 1-factorization kernel again (not dancing")
