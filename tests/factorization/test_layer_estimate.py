"""The measured estimate of a whole job by layers (factorization.layer_estimate).

Its weights are test_layer_sample.py's; here: the stage timed on every
parent of a computed layer is that transition exactly, the sampled figures
are a function of the seed (only the CPU seconds are measured), and the
memory and disk figures follow the table's layout.
"""
import math

import pytest

from factorization.layer_estimate import (Figure, estimate_layers, record_bytes,
                                          table_bytes)
from factorization.layer_steps import slot_bytes
from factorization.layers import layer_counts


def test_a_stage_timed_on_every_parent_is_the_transition_itself():
    e = estimate_layers(5, samples=2, children=1, parents=1, seed=2)
    exact = layer_counts(5, upto=2)
    first = e.stages[0]
    assert (first.step, first.parents, first.rows, first.children) == \
        (1, Figure(1), Figure(exact.rows[0]), Figure(exact.sizes[1]))
    assert [s.step for s in e.stages] == [1, 2, 3, 4]


def test_the_sampled_states_and_rows_are_a_function_of_the_seed():
    a, b = (estimate_layers(5, samples=3, children=2, seed=7) for _ in range(2))
    c = estimate_layers(5, samples=3, children=2, seed=8)
    figures = (lambda e: [(s.parents, s.rows, s.children) for s in e.stages[1:]])
    assert figures(a) == figures(b) != figures(c)
    assert [(u.layer, u.form, u.rows) for u in a.units] == [(u.layer, u.form, u.rows)
                                                            for u in b.units]
    assert {u.layer for u in a.units} == {2, 3, 4}


def test_memory_and_disk_follow_the_table_layout():
    assert table_bytes(1000, 48) == 2048 * 48            # slots: a power of two >= 2 states
    assert table_bytes(1000, 48, workers=4) == 512 * 48
    assert record_bytes(6) == 48 and slot_bytes(6) == 48
    e = estimate_layers(5, samples=2, children=1, seed=1, memory_limit=1 << 10)
    P = e.workers_for_memory()
    assert table_bytes(e.largest_table()[1], e.slot_bytes, P) <= 1 << 10 \
        < table_bytes(e.largest_table()[1], e.slot_bytes, P // 2)
    assert "core-hours" in e.describe() and f"over {P:,} workers" in e.describe()


def test_the_mean_of_terms_has_its_standard_error():
    f = Figure.of([1.0, 3.0])
    assert f.value == 2 and f.stderr == pytest.approx(math.sqrt(2) / math.sqrt(2))
    assert f.text("s") == "2.00 ± 1.00 s" and Figure(12_345).text() == "12,345"


@pytest.mark.parametrize("kw", [dict(C=4), dict(C=6, samples=1), dict(C=5, children=0),
                                dict(C=5, parents=-1)])
def test_bad_parameters_are_refused(kw):
    with pytest.raises(ValueError):
        estimate_layers(**kw)
