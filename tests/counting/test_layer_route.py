"""Specification of counting/layer_route.py: why the layer route cannot run
when ``count --force`` asks for it (issue 36)."""
from __future__ import annotations

from counting.layer_route import not_runnable_because

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
