"""Input checks and reports of the public API: one-line ValueErrors that
name the problem, and the memo figures."""
import pytest

from factorization import (FactorizationCounter, count_factorizations, count_unit_class,
                           latin_rectangles, latin_squares, latin_units)


@pytest.mark.parametrize("sets,k,message", [
    ([{1, 2}, {2, 3}, {1}], None, "column 2: needs 2 symbols"),
    ([{1, 2}, {1, 2}, {1, 3}], None, "symbol 1 lies in 3 column sets; each must lie in 2"),
    ([{1, 2}, {1, 2}, {1, 2}], None, "3 columns need 3 distinct symbols, got 2"),
    ([[1, 1], [2, 3], [2, 3]], None, "column 0: repeated symbol"),
    ([{1}, {2}], 2, "column 0: needs 2 symbols"),
    ([{1}, {"a"}], None, "symbols must be mutually comparable"),
    ("ab", None, "column_sets must be a sequence of sets"),
    ([], None, "need 1..16 column sets, got 0"),
    ([{i} for i in range(17)], None, "need 1..16 column sets, got 17"),
])
def test_malformed_column_sets_raise_one_line_errors(sets, k, message):
    with pytest.raises(ValueError, match=message) as err:
        count_factorizations(sets, k)
    assert "\n" not in str(err.value)


def test_counter_of_another_order_is_refused():
    with pytest.raises(ValueError, match="counter is for n = 4"):
        count_factorizations([{1}, {2}], counter=FactorizationCounter(4))


@pytest.mark.parametrize("call", [
    lambda: latin_squares(0), lambda: latin_squares(17), lambda: latin_squares(True),
    lambda: latin_rectangles(5, 4), lambda: latin_units(4, 0), lambda: latin_squares(4, workers=0),
    lambda: FactorizationCounter(4, memo_mb=-1), lambda: FactorizationCounter(4, memo_min=2),
])
def test_out_of_range_arguments_raise(call):
    with pytest.raises(ValueError):
        call()


def test_stats_report_memo_entries_and_bytes():
    counter = FactorizationCounter(7, memo_mb=1)
    latin = count_unit_class([set(range(7))] * 7, counter=counter)
    assert latin == 61479419904000
    st = counter.stats()
    assert 0 < st["entries"] and 0 < st["bytes"] <= 2 ** 20
    assert st["hits"] + st["misses"] == st["canon_calls"] or st["canon_calls"] >= st["misses"]
    assert set(st) >= {"entries", "bytes", "capacity", "hits", "misses", "dropped",
                       "canon_calls", "matchings", "top_entries"}


def test_python_levels_above_the_128_bit_bound_give_the_same_counts(monkeypatch):
    """Where (d!)^n >= 2^127 (F_8 on 9 + 9 and up) the rooted recurrence runs in
    Python ints; lowering the bound sends order 6 through that path."""
    import factorization.api as api
    monkeypatch.setattr(api, "KERNEL_LIMIT", 2 ** 20)
    counter = FactorizationCounter(6)
    assert count_unit_class([set(range(6))] * 6, counter=counter) == 812851200
    assert counter.stats()["top_entries"] >= 3
