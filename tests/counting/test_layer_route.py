"""Specification of counting/layer_route.py: why the layer route cannot run
when ``count --force`` asks for it (issue 36), and why ``--reduction layers``
cannot count 2x6."""
from __future__ import annotations

import json

from counting import layer_route, route_estimate
from counting.layer_route import layers_refused_because, not_runnable_because
from grids.kind import as_kind

GIB = 2 ** 30


def test_six_stacks_are_past_the_stored_layer_job():
    why = not_runnable_because(6, 1 * GIB, memory_mib=64 * 1024)
    assert why == ("the layer job (scripts/run_layer_job.py) counts bands of at most 5 stacks, "
                   "not 6 (their middle layers need a partitioned store, not built: "
                   "docs/layer-job.md)")


def test_a_memo_larger_than_the_machine_is_named_with_both_figures():
    why = not_runnable_because(5, 32 * GIB, memory_mib=24 * 1024)
    assert why == "its memo needs 32.0 GiB on one machine, more than this machine's 24.0 GiB"
    assert "; its memo needs" in not_runnable_because(6, 32 * GIB, memory_mib=24 * 1024)


def test_a_route_that_could_run_is_still_said_not_wired():
    assert not_runnable_because(5, GIB, memory_mib=24 * 1024) == (
        "it is not wired into count yet (scripts/run_layer_job.py runs it)")


def test_layers_on_six_stacks_is_refused_because_its_units_stop_at_five(monkeypatch, tmp_path):
    """What count and classes say of 2x6 --reduction layers: its units first;
    where the route's measurement file is unusable, that file first."""
    monkeypatch.setitem(route_estimate.FILES, "2x6", tmp_path / "none.json")
    why = layers_refused_because(as_kind("2x6"))
    assert why == (f"the layer route's measurement file {tmp_path / 'none.json'} is missing; "
                   f"its units are built for bands of C = 2..5 stacks, not C = 6")
    monkeypatch.setitem(route_estimate.FILES, "2x6", tmp_path / "r.json")
    (tmp_path / "r.json").write_text(json.dumps(route_estimate.example_document()))
    monkeypatch.setattr(layer_route, "MEMO_MB_MAX", 1024 ** 2)
    assert layers_refused_because(as_kind("6x2")) == (
        "its units are built for bands of C = 2..5 stacks, not C = 6; "
        + not_runnable_because(6, route_estimate.load(as_kind("2x6")).memo_bytes(),
                               memory_mib=1024 ** 2))
